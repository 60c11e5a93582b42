// The drift test: every route of the table declares its response, and the real answers of every
// route (successes and errors, HEAD aside) validate against the OpenAPI document's schemas for
// their status and media type. A route added without a response schema, or without samples here,
// fails this file.

import t, { type Test } from "tap";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import SwaggerParser from "@apidevtools/swagger-parser";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { buildOpenApi, openApiPath } from "../../src/http/describe/openapi.js";
import type { RouteDefinition } from "../../src/http/router.js";
import { startHarness, type Harness } from "./harness.js";

type Json = any;

interface Sample {
  path: string;
  method?: "GET" | "POST" | "DELETE";
  /** Which key to send: the harness's (default), none, a well-formed unknown one, or one registered for this request (it may be replaced or revoked). */
  key?: "valid" | "none" | "unknown" | "fresh";
  body?: string;
  contentType?: string;
  /** The status this request must get (so a sample cannot silently turn into another case). */
  status: number;
  code?: string;
}

/** What the samples need to know about the fixture data, read from the running service. */
interface Fixture {
  slug: string;
  id: string;
  name: string;
  team: string;
  current: string;
  archived: string;
  archivedSlug: string;
  /** A second current player (compare). */
  otherSlug: string;
}

/**
 * Requests per route (`METHOD /path` as in the table). Each route gets a 400 for an unknown
 * parameter and, with a key, two 401s on top of these, and a 429 in the second harness.
 */
const SAMPLES: Readonly<Record<string, (f: Fixture) => Sample[]>> = {
  "GET /api/players": () => [
    { path: "/api/players?limit=3", status: 200 },
    { path: "/api/players?era=all&fields=name,overall,attributes&sort=speed:desc&limit=2", status: 200 },
    { path: "/api/players?minRating=99&maxRating=99&team=nobody", status: 200 },
    { path: "/api/players?limit=0", status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/players/slug/:slug": (f) => [
    { path: `/api/players/slug/${f.slug}`, status: 200 },
    { path: `/api/players/slug/${f.slug.split("-").slice(0, 2).join("-")}`, status: 200 },
    { path: "/api/players/slug/nobody-at-all", status: 404, code: "PLAYER_NOT_FOUND" },
  ],
  "GET /api/players/search": (f) => [
    { path: `/api/players/search?q=${encodeURIComponent(f.name)}`, status: 200 },
    { path: "/api/players/search?q=zzzzqqqq", status: 200 },
    { path: "/api/players/search", status: 400, code: "MISSING_PARAMETER" },
  ],
  "GET /api/players/bulk": () => [
    { path: "/api/players/bulk", status: 200 },
    { path: "/api/players/bulk?position=guard&fields=name,slug", status: 200 },
    { path: "/api/players/bulk?minRating=abc", status: 400, code: "INVALID_PARAMETER" },
  ],
  "POST /mcp": () => [
    { path: "/mcp", method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }), status: 200 },
    { path: "/mcp", method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_editions", arguments: {} } }), status: 200 },
    { path: "/mcp", method: "POST", body: "{", status: 400, code: "INVALID_JSON" },
    { path: "/mcp", method: "POST", body: "[]", status: 400, code: "VALIDATION_ERROR" },
    { path: "/mcp", method: "POST", body: "{}", contentType: "text/plain", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
    { path: "/mcp", method: "POST", body: JSON.stringify({ jsonrpc: "2.0", pad: "x".repeat(70_000) }), status: 413, code: "PAYLOAD_TOO_LARGE" },
  ],
  "POST /api/players/batch": (f) => [
    { path: "/api/players/batch", method: "POST", body: JSON.stringify({ names: [f.name, "Nobody Atall"], slugs: [f.slug] }), status: 200 },
    { path: "/api/players/batch", method: "POST", body: JSON.stringify({ names: [f.name.split(" ")[0]], fields: "name" }), status: 200 },
    { path: "/api/players/batch", method: "POST", body: "{", status: 400, code: "INVALID_JSON" },
    { path: "/api/players/batch", method: "POST", body: "{}", status: 400, code: "VALIDATION_ERROR" },
    { path: "/api/players/batch", method: "POST", body: JSON.stringify({ names: Array.from({ length: 101 }, (_, i) => `n${i}`) }), status: 400, code: "TOO_MANY_IDENTIFIERS" },
    { path: "/api/players/batch", method: "POST", body: "names", contentType: "text/plain", status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
    { path: "/api/players/batch", method: "POST", body: JSON.stringify({ names: ["x".repeat(70_000)] }), status: 413, code: "PAYLOAD_TOO_LARGE" },
  ],
  "GET /api/players/:id/history": (f) => [
    { path: `/api/players/${f.id}/history?limit=3`, status: 200 },
    { path: `/api/players/${f.slug}/history`, status: 200 },
    // docs/compatibility.md#fidelity-rules: an unknown player's history is 200 with data: [], as the hosted service answers.
    { path: "/api/players/nobody-at-all/history", status: 200 },
  ],
  "GET /api/teams": () => [
    { path: "/api/teams", status: 200 },
    { path: "/api/teams?era=allt", status: 200 },
    { path: "/api/teams?era=xyz", status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/teams/:teamName/roster": (f) => [
    { path: `/api/teams/${encodeURIComponent(f.team)}/roster`, status: 200 },
    { path: "/api/teams/Nowhere%20Rockets/roster", status: 404, code: "TEAM_NOT_FOUND" },
  ],
  "GET /api/players/:id/similar": (f) => [
    { path: `/api/players/${f.id}/similar?limit=3`, status: 200 },
    { path: `/api/players/${f.slug}/similar?era=all&position=guard&gameVersion=${f.current}`, status: 200 },
    { path: "/api/players/nobody-at-all/similar", status: 404, code: "PLAYER_NOT_FOUND" },
    { path: `/api/players/${f.id}/similar?limit=51`, status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/versions/:version/players/:id/similar": (f) => [
    { path: `/api/versions/${f.archived}/players/${f.archivedSlug}/similar?limit=2`, status: 200 },
    { path: "/api/versions/2K99/players/x/similar", status: 404, code: "VERSION_NOT_FOUND" },
  ],
  "GET /api/players/:id/percentiles": (f) => [
    { path: `/api/players/${f.id}/percentiles`, status: 200 },
    { path: `/api/players/${f.slug}/percentiles?cohort=all&gameVersion=${f.current}`, status: 200 },
    { path: "/api/players/nobody-at-all/percentiles", status: 404, code: "PLAYER_NOT_FOUND" },
    { path: `/api/players/${f.id}/percentiles?cohort=team`, status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/versions/:version/players/:id/percentiles": (f) => [
    { path: `/api/versions/${f.archived}/players/${f.archivedSlug}/percentiles?cohort=era`, status: 200 },
    { path: "/api/versions/2K99/players/x/percentiles", status: 404, code: "VERSION_NOT_FOUND" },
  ],
  "GET /api/players/compare": (f) => [
    { path: `/api/players/compare?ids=${f.id},${f.otherSlug}`, status: 200 },
    { path: `/api/players/compare?ids=${f.id},${f.slug}`, status: 400, code: "INVALID_PARAMETER" },
    { path: `/api/players/compare?ids=${f.id},nobody-at-all`, status: 404, code: "PLAYER_NOT_FOUND" },
  ],
  "GET /api/versions/:version/players/compare": (f) => [
    { path: `/api/versions/${f.current}/players/compare?ids=${f.id},${f.otherSlug}`, status: 200 },
    { path: `/api/versions/${f.current}/players/compare?ids=${f.id}`, status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/teams/:teamName/profile": (f) => [
    { path: `/api/teams/${encodeURIComponent(f.team)}/profile`, status: 200 },
    { path: "/api/teams/Nowhere%20Rockets/profile", status: 404, code: "TEAM_NOT_FOUND" },
  ],
  "GET /api/versions/:version/teams/:teamName/profile": (f) => [
    { path: `/api/versions/${f.archived}/teams/${encodeURIComponent(f.team)}/profile`, status: 200 },
    { path: `/api/versions/${f.archived}/teams/Nowhere%20Rockets/profile`, status: 404, code: "TEAM_NOT_FOUND" },
  ],
  "GET /api/versions": () => [{ path: "/api/versions", key: "none", status: 200 }],
  "GET /api/versions/:version/players": (f) => [
    { path: `/api/versions/${f.archived}/players?limit=2`, status: 200 },
    { path: `/api/versions/${f.current.toLowerCase()}/players?offset=1&fields=name`, status: 200 },
    { path: "/api/versions/abc/players", status: 400, code: "INVALID_VERSION" },
    { path: "/api/versions/2K99/players", status: 404, code: "VERSION_NOT_FOUND" },
  ],
  "GET /api/versions/:version/players/bulk": (f) => [
    { path: `/api/versions/${f.archived}/players/bulk?era=class`, status: 200 },
    { path: `/api/versions/${f.archived}/players/bulk?badge=deadeye`, status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/versions/:version/players/:slug": (f) => [
    { path: `/api/versions/${f.archived}/players/${f.archivedSlug}`, status: 200 },
    { path: `/api/versions/${f.archived}/players/${f.archivedSlug.split("-").slice(0, 2).join("-")}`, status: 200 },
    { path: `/api/versions/${f.archived}/players/nobody-at-all`, status: 404, code: "PLAYER_NOT_FOUND" },
  ],
  "GET /api/versions/:version/teams": (f) => [
    { path: `/api/versions/${f.archived}/teams?era=class`, status: 200 },
    { path: "/api/versions/2K99/teams", status: 404, code: "VERSION_NOT_FOUND" },
  ],
  "GET /": () => [{ path: "/", key: "none", status: 200 }],
  "GET /api/health": () => [{ path: "/api/health", key: "none", status: 200 }],
  "GET /api/stats": (f) => [
    { path: "/api/stats", key: "none", status: 200 },
    { path: `/api/stats?gameVersion=${f.archived.toLowerCase()}`, key: "none", status: 200 },
    { path: "/api/stats?gameVersion=2K99", key: "none", status: 404, code: "VERSION_NOT_FOUND" },
    { path: "/api/stats?gameVersion=abc", key: "none", status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/players/:id": (f) => [
    { path: `/api/players/${f.id}`, status: 200 },
    // docs/compatibility.md#fidelity-rules: ids kept from a source may hold letters, digits, _ and -, so only other shapes are INVALID_ID.
    { path: "/api/players/not-an-id!", status: 400, code: "INVALID_ID" },
    { path: "/api/players/not-an-id", status: 404, code: "PLAYER_NOT_FOUND" },
    { path: `/api/players/${"0".repeat(24)}`, status: 404, code: "PLAYER_NOT_FOUND" },
  ],
  "GET /api/players/:id/versions": (f) => [
    { path: `/api/players/${f.id}/versions`, status: 200 },
    { path: `/api/players/${f.slug}/versions?teamType=curr`, status: 200 },
    { path: "/api/players/nobody-at-all/versions", status: 404, code: "PLAYER_NOT_FOUND" },
  ],
  "GET /api/players/:id/attribute/:attr": (f) => [
    { path: `/api/players/${f.id}/attribute/three_ball?limit=3`, status: 200 },
    { path: `/api/players/${f.slug}/attribute/overall`, status: 200 },
    // docs/compatibility.md#fidelity-rules: an unknown attribute or player is 200 with data: [], as the hosted service answers.
    { path: `/api/players/${f.id}/attribute/charisma`, status: 200 },
    { path: "/api/players/nobody-at-all/attribute/overall", status: 200 },
  ],
  "GET /api/changes": () => [
    { path: "/api/changes", status: 200 },
    { path: "/api/changes?since=2026-11-01&teamType=curr&team=boston-celtics&player=nobody&limit=5", status: 200 },
    { path: "/api/changes?since=yesterday", status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/live": () => [
    { path: "/api/live", status: 426, code: "UPGRADE_REQUIRED" },
  ],
  "GET /api/trending": () => [
    { path: "/api/trending", status: 200 },
    { path: "/api/trending?days=90&direction=down&teamType=curr&limit=3", status: 200 },
    { path: "/api/trending?days=0", status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/badges": (f) => [
    { path: "/api/badges", status: 200 },
    { path: "/api/badges?category=shooting", status: 200 },
    { path: `/api/badges?gameVersion=${f.archived}`, status: 400, code: "INVALID_PARAMETER" },
  ],
  "GET /api/badges/categories": () => [{ path: "/api/badges/categories", status: 200 }],
  "GET /api/badges/:slug": () => [
    { path: "/api/badges/deadeye", status: 200 },
    { path: "/api/badges/dead-eye-nope", status: 404, code: "BADGE_NOT_FOUND" },
  ],
  "GET /api/badges/:slug/players": () => [
    { path: "/api/badges/deadeye/players?limit=3", status: 200 },
    { path: "/api/badges/deadeye/players?tier=gold&teamType=curr", status: 200 },
    { path: "/api/badges/dead-eye-nope/players", status: 200 },
  ],
  "GET /api/public/players": () => [
    { path: "/api/public/players?limit=2", key: "none", status: 200 },
    { path: "/api/public/players?position=guard&teamType=all", key: "none", status: 200 },
    { path: "/api/public/players?limit=0", key: "none", status: 400, code: "INVALID_PARAMETER" },
  ],
  "POST /api/register": () => [
    { path: "/api/register", method: "POST", key: "none", body: JSON.stringify({ email: "drift@example.com", name: "Drift", purpose: "tests" }), status: 201 },
    { path: "/api/register", method: "POST", key: "none", body: JSON.stringify({ email: "not an e-mail", name: "Drift" }), status: 400, code: "VALIDATION_ERROR" },
  ],
  "GET /api/dashboard/usage": () => [{ path: "/api/dashboard/usage", status: 200 }],
  "POST /api/keys/regenerate": () => [{ path: "/api/keys/regenerate", method: "POST", key: "fresh", status: 201 }],
  "DELETE /api/keys/current": () => [{ path: "/api/keys/current", method: "DELETE", key: "fresh", status: 200 }],
  "GET /dashboard": () => [{ path: "/dashboard", key: "none", status: 200 }],
  "GET /explore": () => [{ path: "/explore", key: "none", status: 200 }],
  "GET /explore/assets/:file": () => [
    { path: "/explore/assets/explore.js", key: "none", status: 200 },
    { path: "/explore/assets/explore.css", key: "none", status: 200 },
    { path: "/explore/assets/nothing.js", key: "none", status: 404, code: "NOT_FOUND" },
  ],
  "GET /dashboard/assets/:file": () => [
    { path: "/dashboard/assets/dashboard.js", key: "none", status: 200 },
    { path: "/dashboard/assets/dashboard.css", key: "none", status: 200 },
    { path: "/dashboard/assets/nothing.js", key: "none", status: 404, code: "NOT_FOUND" },
  ],
  "GET /health": () => [{ path: "/health", key: "none", status: 200 }],
  "GET /ready": () => [{ path: "/ready", key: "none", status: 200 }],
  "GET /api/openapi.json": () => [{ path: "/api/openapi.json", key: "none", status: 200 }],
  "GET /llms.txt": () => [{ path: "/llms.txt", key: "none", status: 200 }],
  "GET /llms-full.txt": () => [{ path: "/llms-full.txt", key: "none", status: 200 }],
  "GET /docs": () => [{ path: "/docs", key: "none", status: 200 }],
  "GET /docs/assets/:file": () => [
    { path: "/docs/assets/swagger-ui.css", key: "none", status: 200 },
    { path: "/docs/assets/docs-init.js", key: "none", status: 200 },
    { path: "/docs/assets/favicon-32x32.png", key: "none", status: 200 },
    { path: "/docs/assets/nothing.js", key: "none", status: 404, code: "NOT_FOUND" },
  ],
};

const routes: RouteDefinition[] = buildRoutes(() => true);
const doc = buildOpenApi(routes, { version: "1.0.0" }) as Json;
const dereferenced = (await SwaggerParser.dereference(structuredClone(doc))) as Json;

const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  // The error schemas narrow `error.code` with an allOf member that names no type of its own.
  strictTypes: false,
  formats: {
    uri: /^https?:\/\/\S+$/,
    date: /^\d{4}-\d{2}-\d{2}$/,
    "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  },
});
const validators = new Map<object, ValidateFunction>();
function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const routeKey = (route: RouteDefinition) => `${route.method} ${route.path}`;
const keyed = (route: RouteDefinition) => route.access === "key";

/** Every sample of a route: its own, an unknown parameter, and the two key refusals. */
function samplesOf(route: RouteDefinition, fixture: Fixture): Sample[] {
  const own = SAMPLES[routeKey(route)]?.(fixture) ?? [];
  const first = own[0];
  if (!first) return [];
  // docs/compatibility.md#fidelity-rules: the routes the hosted service lets ignore unknown parameters answer 200 (with a warning).
  const { code: _code, ...plain } = first;
  const unknownParameter: Sample = route.params.ignoresUnknown
    ? { ...plain, key: first.key === "fresh" ? "valid" : first.key ?? "valid", path: `${first.path}${first.path.includes("?") ? "&" : "?"}zz_unknown=1`, status: first.status }
    : { ...first, key: first.key === "fresh" ? "valid" : first.key ?? "valid", path: `${first.path}${first.path.includes("?") ? "&" : "?"}zz_unknown=1`, status: 400, code: "UNKNOWN_PARAMETERS" };
  return [
    ...own,
    unknownParameter,
    ...(keyed(route)
      ? [{ ...first, key: "none", status: 401, code: "MISSING_API_KEY" } as Sample, { ...first, key: "unknown", status: 401, code: "INVALID_API_KEY" } as Sample]
      : []),
  ];
}

let registered = 0;

/** A key of its own, for a request that replaces or revokes the key it is sent with. */
async function freshKey(h: Harness): Promise<string> {
  // The registration bucket (5 an hour per address) is full again after an hour.
  h.clock.now += 3_600_000;
  const response = await fetch(`${h.base}/api/register`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `fresh${++registered}@example.com`, name: "Drift" }),
  });
  const body = (await response.json()) as Json;
  if (response.status !== 201) throw new Error(`registering a key answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.apiKey as string;
}

async function send(h: Harness, sample: Sample): Promise<Response> {
  const headers: Record<string, string> = {};
  if (sample.key === "fresh") headers["x-api-key"] = await freshKey(h);
  else if (sample.key !== "none") headers["x-api-key"] = sample.key === "unknown" ? `2k_${"0".repeat(32)}` : h.key;
  if (sample.method === "POST") headers["content-type"] = sample.contentType ?? "application/json";
  // Refill the per-address bucket (unkeyed routes and failed key checks draw from it).
  h.clock.now += 60_000;
  return fetch(h.base + sample.path, { method: sample.method ?? "GET", headers, ...(sample.body === undefined ? {} : { body: sample.body }) });
}

/** Checks one real answer against the document; returns its status. */
async function check(t: Test, route: RouteDefinition, sample: Sample, response: Response): Promise<void> {
  const label = `${sample.method ?? "GET"} ${sample.path.slice(0, 120)} → ${response.status}`;
  const operation = dereferenced.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
  const documented = operation?.responses?.[String(response.status)];
  t.ok(documented, `${label}: status documented`);
  const body = Buffer.from(await response.arrayBuffer());
  if (!documented) return;
  if (response.status === 200 || response.status === 201) {
    t.equal(response.headers.get("etag") !== null, operation.responses["304"] !== undefined, `${label}: an ETag exactly where a 304 is documented`);
  }
  const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  const content = documented.content?.[mediaType];
  t.ok(content, `${label}: ${mediaType} documented (${Object.keys(documented.content ?? {}).join(", ")})`);
  if (!content) return;
  const value: unknown = mediaType === "application/json" ? JSON.parse(body.toString("utf8")) : body.toString(mediaType.startsWith("text/") ? "utf8" : "base64");
  const validate = validatorOf(content.schema);
  t.ok(validate(value), `${label}: matches its schema`, { errors: validate.errors?.slice(0, 5) });
  if (sample.code !== undefined) t.equal((value as Json)?.error?.code, sample.code, `${label}: ${sample.code}`);
}

const h = await startHarness();
t.teardown(() => h.close());

async function readFixture(): Promise<Fixture> {
  const versions = (await h.json("/api/versions")).body;
  const current = versions.meta.current as string;
  const archived = (versions.data as Json[]).find((entry) => entry.status === "archived").gameVersion as string;
  // A current player with weekly history, and one on a classic roster of the archived edition.
  const players = (await h.json("/api/players?limit=2&minRating=60")).body.data as Json[];
  const player = players[0];
  const archivedPlayer = (await h.json(`/api/versions/${archived}/players?era=class&limit=1`)).body.data[0];
  return { slug: player.slug, id: player._id, name: player.name, team: player.team, current, archived, archivedSlug: archivedPlayer.slug, otherSlug: players[1].slug };
}

const fixture = await readFixture();

t.test("every route declares its response and has samples here", async (t) => {
  for (const route of routes) {
    t.ok(route.response, `${routeKey(route)} declares a response schema (RouteDefinition.response)`);
    t.ok(SAMPLES[routeKey(route)], `${routeKey(route)} has samples in test/http/responses.test.ts`);
  }
  const known = new Set(routes.map(routeKey));
  t.same(Object.keys(SAMPLES).filter((key) => !known.has(key)), [], "no samples for routes that are gone");
});

t.test("real answers of every route validate against the document", async (t) => {
  for (const route of routes) {
    const seen = new Set<number>();
    for (const sample of samplesOf(route, fixture)) {
      const response = await send(h, sample);
      t.equal(response.status, sample.status, `${sample.method ?? "GET"} ${sample.path.slice(0, 120)}`);
      seen.add(response.status);
      await check(t, route, sample, response);
    }
    const documentedSuccess = Object.keys(dereferenced.paths[openApiPath(route.path)][route.method.toLowerCase()].responses).find((status) => /^2/.test(status));
    // A WebSocket route's success is the 101 of an upgrade, which fetch cannot ask for: test/http/live.test.ts has it.
    if (documentedSuccess === undefined && dereferenced.paths[openApiPath(route.path)][route.method.toLowerCase()].responses["101"] !== undefined) continue;
    t.ok(documentedSuccess !== undefined && seen.has(Number(documentedSuccess)), `${routeKey(route)}: its success answer was checked`);
  }
});

t.test("a 304 and a 429 of every route that can give one match the document", async (t) => {
  const tight = await startHarness({ rateLimit: 1 });
  t.teardown(() => tight.close());
  // The one token of the key goes to the first request; every keyed request after it is refused.
  t.equal((await tight.get("/api/teams")).status, 200);
  for (const route of routes) {
    const first = samplesOf(route, fixture)[0] as Sample;
    // The no-key routes' bucket holds 1,200 (PROBE_POLICY): test/http/hostile-connections.test.ts empties it.
    if (route.access === "probe") continue;
    // The owner routes draw on a bucket of their own, not the key's (test/http/hostile-clients.test.ts).
    if (route.isOwnerAction === true) continue;
    if (route.access !== "key") {
      // A bucket per client address: ask without moving the clock until it is empty.
      let response: Response | undefined;
      for (let i = 0; i < 80 && response?.status !== 429; i++) {
        await response?.arrayBuffer();
        response = await fetch(tight.base + first.path, {
          method: first.method ?? "GET",
          headers: first.method === "POST" ? { "content-type": "application/json" } : {},
          ...(first.body === undefined ? {} : { body: first.body }),
        });
      }
      t.equal(response?.status, 429, `${routeKey(route)} refused`);
      t.ok(response?.headers.get("retry-after"), "Retry-After");
      if (response) await check(t, route, first, response);
      // The clock stays: the next routes of this bucket are refused at once, and the key's one token stays spent.
      continue;
    }
    const response = await fetch(tight.base + first.path, {
      method: first.method ?? "GET",
      headers: { "x-api-key": tight.key, ...(first.method === "POST" ? { "content-type": "application/json" } : {}) },
      ...(first.body === undefined ? {} : { body: first.body }),
    });
    t.equal(response.status, 429, `${routeKey(route)} refused`);
    t.ok(response.headers.get("retry-after"), "Retry-After");
    await check(t, route, { ...first, code: "RATE_LIMIT_EXCEEDED" }, response);
  }
  for (const route of routes) {
    const operation = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
    if (operation.responses["304"] === undefined) continue;
    const first = samplesOf(route, fixture)[0] as Sample;
    const response = await send(h, first);
    const etag = response.headers.get("etag");
    await response.arrayBuffer();
    const again = await fetch(h.base + first.path, { headers: { "x-api-key": h.key, "if-none-match": etag ?? "" } });
    t.equal(again.status, 304, `${routeKey(route)} revalidates`);
    t.equal((await again.arrayBuffer()).byteLength, 0, "no body");
  }
});
