// Every route of the table (SPEC.md and CONTRACT §6) called on the demo editions answers, never
// with a 404, and the README's API reference names each one.
import t from "tap";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateDemoEditions } from "../../src/data/demo.js";
import { buildRoutes } from "../../src/http/app.js";
import { startHarness } from "./harness.js";

const editions = generateDemoEditions({ asOf: "2026-11-20" });
const current = editions.find((edition) => edition.status === "current")!;
const h = await startHarness({ sources: editions });
t.teardown(() => h.close());

const lebronish = current.players.find((p) => p.teamType === "curr" && (p.badges.list?.length ?? 0) > 0)!;
const team = current.players.find((p) => p.teamType === "class")!.team;
/** A concrete value for every path parameter of the table. */
const PATH_VALUES: Readonly<Record<string, string>> = {
  id: lebronish._id, slug: lebronish.slug, teamName: encodeURIComponent(team), version: "2K24", attr: "three_point_shot", file: "swagger-ui.css",
};
/** Routes whose `:slug` is a badge's. */
const BADGE_SLUG = "deadeye";

t.test("every route of the table answers on the demo data, and none with a 404", async (t) => {
  const routes = buildRoutes(() => true);
  t.ok(routes.length >= 30, `${routes.length} routes`);
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => (route.path.startsWith("/api/badges") && name === "slug" ? BADGE_SLUG : PATH_VALUES[name] ?? name));
    const query = route.path === "/api/players/search" ? "?q=james" : "";
    const response = route.method === "POST"
      ? await fetch(h.base + path, { method: "POST", headers: { "x-api-key": h.key, "content-type": "application/json" }, body: JSON.stringify({ slugs: [lebronish.slug] }) })
      : await h.get(path + query);
    await response.arrayBuffer();
    t.equal(response.status, 200, `${route.method} ${path}${query}`);
  }
  // The versioned single player on an archived edition, by a slug of that edition.
  const archived = editions.find((edition) => edition.gameVersion === "2K24")!;
  t.equal((await h.get(`/api/versions/2K24/players/${archived.players[0]!.slug}`)).status, 200);
});

t.test("the README's API reference names every route", async (t) => {
  const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
  const reference = readme.slice(readme.indexOf("## API reference"), readme.indexOf("## Configuration"));
  for (const route of buildRoutes(() => true)) {
    t.ok(reference.includes(`\`${route.method} ${route.path}`) || reference.includes(`${route.method} ${route.path}\``) || reference.includes(`\`${route.method} ${route.path}\``), `${route.method} ${route.path}`);
  }
});
