// Every route of the table (docs/api.md, with docs/compatibility.md#the-hosted-services-extra-routes) called on the demo editions answers, never
// with a 404, and the API reference (docs/api.md) names each one.
import t from "tap";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { startHarness } from "./harness.js";

const editions = generateDemoEditions({ asOf: "2026-11-20" });
const current = editions.find((edition) => edition.status === "current")!;
const h = await startHarness({ sources: editions });
t.teardown(() => h.close());
// The same editions as if they were real ratings (what sync or build-index writes): no demo label anywhere.
const real = await startHarness({ sources: editions.map((edition) => ({ ...edition, source: "sync" })) });
t.teardown(() => real.close());
/** GET paths the walk found answering with a meta, with the answer's meta over the demo editions. */
const metas = new Map<string, Record<string, unknown>>();

const lebronish = current.players.find((p) => p.teamType === "curr" && (p.badges.list?.length ?? 0) > 0)!;
const team = current.players.find((p) => p.teamType === "class")!.team;
/** A concrete value for every path parameter of the table. */
const PATH_VALUES: Readonly<Record<string, string>> = {
  id: lebronish._id, slug: lebronish.slug, teamName: encodeURIComponent(team), version: "2K24", attr: "three_point_shot", file: "swagger-ui.css",
};
/** Two players of the edition a compare route reads (the versioned one reads 2K24, PATH_VALUES.version). */
const compareIds = (path: string): string => {
  const source = path.startsWith("/api/versions") ? editions.find((edition) => edition.gameVersion === "2K24")! : current;
  return source.players.slice(0, 2).map((p) => p._id).join(",");
};
/** Routes whose `:slug` is a badge's. */
const BADGE_SLUG = "deadeye";

t.test("every route of the table answers on the demo data, and none with a 404", async (t) => {
  const routes = buildRoutes(() => true);
  t.ok(routes.length >= 30, `${routes.length} routes`);
  /** A key of its own for the routes that regenerate or revoke the key they are called with. */
  const freshKey = async (): Promise<string> => {
    const response = await fetch(h.base + "/api/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `walk-${Math.random()}@example.com`, name: "walk" }) });
    return ((await response.json()) as { data: { apiKey: string } }).data.apiKey;
  };
  /** Routes that write answer 201 (a new key); the rest 200. */
  const CREATED = new Set(["POST /api/register", "POST /api/keys/regenerate"]);
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    const path = route.path.replace(/:([A-Za-z]+)/g, (_, param: string) => (route.path.startsWith("/api/badges") && param === "slug" ? BADGE_SLUG
      : route.path.startsWith("/dashboard") && param === "file" ? "dashboard.js"
      : route.path.startsWith("/explore") && param === "file" ? "explore.js" : PATH_VALUES[param] ?? param));
    const query = route.path === "/api/players/search" ? "?q=james" : route.path.endsWith("/players/compare") ? `?ids=${compareIds(route.path)}` : "";
    const key = name === "POST /api/keys/regenerate" || name === "DELETE /api/keys/current" ? await freshKey() : h.key;
    const body = name === "POST /api/register" ? { email: "walker@example.com", name: "walker" } : name === "POST /api/players/batch" ? { slugs: [lebronish.slug] }
      : name === "POST /mcp" ? { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "walk", version: "1" } } } : undefined;
    const response = route.method === "GET"
      ? await h.get(path + query)
      : await fetch(h.base + path, {
        method: route.method,
        headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const text = await response.text();
    if (route.method === "GET" && response.headers.get("content-type")?.startsWith("application/json") && response.status === 200) {
      const meta = (JSON.parse(text) as { meta?: Record<string, unknown> }).meta;
      if (meta !== undefined) metas.set(path + query, meta);
    }
    // GET /api/live is a WebSocket: a plain GET is told to upgrade (test/http/live.test.ts streams it).
    t.equal(response.status, CREATED.has(name) ? 201 : name === "GET /api/live" ? 426 : 200, `${route.method} ${path}${query}`);
  }
  // The versioned single player on an archived edition, by a slug of that edition.
  const archived = editions.find((edition) => edition.gameVersion === "2K24")!;
  t.equal((await h.get(`/api/versions/2K24/players/${archived.players[0]!.slug}`)).status, 200);
});

/** Answers with a meta that are not about ratings: the service's own description and health, a key's usage. */
const NOT_DATA = new Set(["/", "/api", "/api/health", "/api/dashboard/usage"]);

t.test("every answer built from demo ratings says meta.dataSource: demo; over real ratings none does", async (t) => {
  t.ok(metas.size >= 25, `${metas.size} GET routes answer with a meta`);
  for (const [path, meta] of metas) {
    if (NOT_DATA.has(path)) t.equal(meta.dataSource, undefined, `${path}: not about ratings`);
    else t.equal(meta.dataSource, "demo", path);
    const response = await real.get(path);
    t.equal(response.status, 200, `${path} over real ratings`);
    t.notOk((await response.text()).includes('"dataSource"'), `${path} over real ratings: no dataSource`);
  }
  // A route that reads every edition (a player's detail joins their rating history) says demo when one of them is.
  const mixed = await startHarness({ sources: editions.map((edition) => (edition.status === "current" ? { ...edition, source: "sync" } : edition)) });
  t.teardown(() => mixed.close());
  t.equal(((await (await mixed.get(`/api/players/slug/${lebronish.slug}`)).json()) as { meta: Record<string, unknown> }).meta.dataSource, "demo", "a detail whose history reads demo editions");
  t.equal(((await (await mixed.get("/api/players?limit=1")).json()) as { meta: Record<string, unknown> }).meta.dataSource, undefined, "a page of the real current edition");
});

t.test("the API reference (docs/api.md) names every route", async (t) => {
  // The API reference moved from the README to docs/api.md (generated from the route table).
  const reference = readFileSync(fileURLToPath(new URL("../../docs/api.md", import.meta.url)), "utf8");
  for (const route of buildRoutes(() => true)) {
    t.ok(reference.includes(`\`${route.method} ${route.path}`) || reference.includes(`${route.method} ${route.path}\``) || reference.includes(`\`${route.method} ${route.path}\``), `${route.method} ${route.path}`);
  }
});
