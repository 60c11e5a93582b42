import t from "tap";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { rawRequest, startHarness } from "./harness.js";
import { recordsOf } from "../fixtures/records.js";
import { createKey, regenerateKey, revokeKey } from "../../src/keys/key-operations.js";

const h = await startHarness();
t.teardown(() => h.close());

t.test("an unknown path is 404 NOT_FOUND in the envelope, trailing slash included", async (t) => {
  for (const path of ["/nope", "/api/players/", "/api", "/api/teams/x/roster/extra"]) {
    const { status, body } = await h.json(path);
    t.equal(status, 404, path);
    t.equal(body.error.code, "NOT_FOUND", path);
    t.equal(body.error.details.path, path);
  }
});

t.test("a known path with the wrong method is 405 with Allow", async (t) => {
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const response = await fetch(`${h.base}/api/players`, { method, headers: { "x-api-key": h.key }, ...(method === "DELETE" ? {} : { body: "{}" }) });
    t.equal(response.status, 405, method);
    t.equal(response.headers.get("allow"), "GET, HEAD");
    const body = await response.json() as any;
    t.equal(body.error.code, "METHOD_NOT_ALLOWED");
    t.same(body.error.details.allowed, ["GET", "HEAD"]);
  }
});

t.test("HEAD answers every GET with the same headers, a real Content-Length and no body", async (t) => {
  for (const path of ["/api/players?limit=3", "/api/teams", "/api/versions", "/health", "/nope"]) {
    const get = await h.get(path);
    const getBody = Buffer.from(await get.arrayBuffer());
    const head = await rawRequest(h.service.port, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\n\r\n`);
    t.equal(head.status, get.status, path);
    t.equal(Number(/content-length: (\d+)/i.exec(head.head)?.[1]), getBody.length, `${path} content-length`);
    t.equal(head.body, "", `${path} has no body`);
    if (get.headers.get("etag")) t.match(head.head, new RegExp(`etag: ${get.headers.get("etag")!.replace(/[/"]/g, ".")}`, "i"));
  }
});

t.test("a missing key is 401 MISSING_API_KEY and a wrong one 401 INVALID_API_KEY", async (t) => {
  const missing = await fetch(`${h.base}/api/players`);
  t.equal(missing.status, 401);
  t.equal((await missing.json() as any).error.code, "MISSING_API_KEY");
  const invalid = await fetch(`${h.base}/api/players`, { headers: { "x-api-key": "2k_" + "a".repeat(32) } });
  t.equal(invalid.status, 401);
  t.equal((await invalid.json() as any).error.code, "INVALID_API_KEY");
  const versions = await fetch(`${h.base}/api/versions`);
  t.equal(versions.status, 200, "the edition list needs no key");
});

t.test("a request line answered before is still checked for its key, method and rate limit", async (t) => {
  const path = "/api/players?limit=4&sort=name";
  const first = await h.get(path);
  const again = await h.get(path);
  t.equal(again.status, 200);
  t.equal(again.headers.get("etag"), first.headers.get("etag"), "the same answer");
  t.equal(Number(again.headers.get("x-ratelimit-remaining")), Number(first.headers.get("x-ratelimit-remaining")) - 1, "and a token taken for it");
  t.equal((await fetch(`${h.base}${path}`)).status, 401, "no key");
  t.equal((await fetch(`${h.base}${path}`, { headers: { "x-api-key": "2k_" + "b".repeat(32) } })).status, 401, "a wrong key");
  t.equal((await fetch(`${h.base}${path}`, { method: "POST", headers: { "x-api-key": h.key } })).status, 405, "another method");
  const head = await rawRequest(h.service.port, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\n\r\n`);
  t.equal(head.status, 200);
  t.equal(head.body, "", "HEAD of a remembered line has no body");
});

t.test("replies kept by the caches are copies: later pages rendered in the shared scratch buffer never show through", async (t) => {
  const paths = ["/api/players?limit=30&sort=name", "/api/players?limit=90&sort=overall:asc", "/api/players/bulk?teamType=curr", "/api/teams/1995-96-chicago-bulls/roster", "/api/players?limit=30&sort=name"];
  const first = new Map<string, string>();
  for (const round of [1, 2]) {
    for (const path of paths) {
      const response = await h.get(path, { "accept-encoding": "identity" });
      t.equal(response.status, 200, path);
      const body = Buffer.from(await response.arrayBuffer()).toString("utf8");
      t.doesNotThrow(() => JSON.parse(body), `${path} round ${round} is whole JSON`);
      if (!first.has(path)) first.set(path, body);
      else t.equal(body, first.get(path), `${path} round ${round} equals its first answer`);
    }
  }
});

t.test("checks run in order: route, key, rate limit, parameters", async (t) => {
  t.equal((await fetch(`${h.base}/nope?limit=x`)).status, 404, "route before key");
  t.equal((await fetch(`${h.base}/api/players?limit=x`)).status, 401, "key before parameters");
});

t.test("ETags revalidate in every If-None-Match form and 304 keeps the caching headers", async (t) => {
  const first = await h.get("/api/players?limit=7");
  const etag = first.headers.get("etag")!;
  t.match(etag, /^W\/"[0-9a-f]+"$/);
  const opaque = etag.slice(2);
  const forms = [etag, opaque, `"zzz", ${etag}`, "*", `${etag.slice(0, -1)}-gzip"`, `${opaque.slice(0, -1)}-br"`];
  for (const form of forms) {
    const response = await h.get("/api/players?limit=7", { "if-none-match": form });
    t.equal(response.status, 304, form);
    t.equal(response.headers.get("etag"), etag);
    t.equal(response.headers.get("cache-control"), "private, max-age=3600");
    t.match(response.headers.get("vary") ?? "", /Accept-Encoding/);
    t.ok(response.headers.get("x-ratelimit-remaining"), "rate-limit headers on the 304");
  }
  t.equal((await h.get("/api/players?limit=7", { "if-none-match": '"other"' })).status, 200);
  const other = await h.get("/api/players?limit=8");
  t.not(other.headers.get("etag"), etag, "a different body has a different ETag");
  const again = await h.get("/api/players?limit=7");
  t.equal(again.headers.get("etag"), etag, "the same body has the same ETag");
});

t.test("bodies over 1 KiB are compressed by Accept-Encoding, br preferred", async (t) => {
  const plain = Buffer.from(await (await h.get("/api/players?limit=20", { "accept-encoding": "identity" })).arrayBuffer());
  const br = await rawRequest(h.service.port, `GET /api/players?limit=20 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nAccept-Encoding: gzip, br\r\n\r\n`);
  t.match(br.head, /content-encoding: br/i);
  t.same(brotliDecompressSync(Buffer.from(br.body, "latin1")), plain);
  const gzip = await rawRequest(h.service.port, `GET /api/players?limit=20 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nAccept-Encoding: gzip, br;q=0\r\n\r\n`);
  t.match(gzip.head, /content-encoding: gzip/i);
  t.same(gunzipSync(Buffer.from(gzip.body, "latin1")), plain);
  const small = await rawRequest(h.service.port, `GET /health HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n`);
  t.notMatch(small.head, /content-encoding/i, "small bodies are sent as they are");
});

t.test("a regenerated or revoked key is refused within a second, without restart", async (t) => {
  const keysFile = join(h.dir, "keys.json");
  const { key } = createKey(keysFile, { email: "rotate@example.com", now: new Date() });
  const waitFor = async (check: () => Promise<boolean>) => {
    const started = Date.now();
    while (Date.now() - started < 1500) {
      if (await check()) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Number.POSITIVE_INFINITY;
  };
  t.ok(await waitFor(async () => (await fetch(`${h.base}/api/teams`, { headers: { "x-api-key": key } })).status === 200) < 1100, "new key accepted");
  const { key: fresh } = regenerateKey(keysFile, { key, now: new Date() });
  t.ok(await waitFor(async () => (await fetch(`${h.base}/api/teams`, { headers: { "x-api-key": key } })).status === 401) < 1100, "old key refused within a second");
  t.equal((await fetch(`${h.base}/api/teams`, { headers: { "x-api-key": fresh } })).status, 200, "the new key works");
  revokeKey(keysFile, { key: fresh, now: new Date() });
  t.ok(await waitFor(async () => (await fetch(`${h.base}/api/teams`, { headers: { "x-api-key": fresh } })).status === 401) < 1100, "revoked key refused within a second");
  writeFileSync(keysFile + ".unrelated", "x");
});

t.test("teams list each era's teams with counts and averages, sorted by name", async (t) => {
  const edition = h.service.editions().current;
  for (const era of ["curr", "class", "allt"] as const) {
    const { status, body, headers } = await h.json(`/api/teams?era=${era}`);
    t.equal(status, 200);
    t.match(headers.get("etag"), /^W\//);
    const names = body.data.map((team: any) => team.teamName);
    t.same(names, [...names].sort());
    for (const team of body.data) {
      t.equal(team.teamType, era);
      const players = recordsOf(edition).filter((p) => p.teamType === era && p.team === team.teamName);
      t.equal(team.playerCount, players.length);
      // docs/compatibility.md#fidelity-rules: averageRating is an integer, as the hosted service sends it; meanOverall the exact mean.
      const mean = players.reduce((s, p) => s + p.overall, 0) / players.length;
      t.equal(team.averageRating, Math.round(mean));
      t.ok(Math.abs(team.meanOverall - mean) < 1e-9);
      t.equal(typeof team.logo, "string", "logo always a string");
    }
  }
  t.equal((await h.json("/api/teams?era=all")).status, 400, "teams take no `all` era");
});

t.test("a roster resolves by full name or slug, overall desc; unknown teams suggest names", async (t) => {
  const byName = await h.json(`/api/teams/${encodeURIComponent("1995-96 Chicago Bulls")}/roster`);
  t.equal(byName.status, 200);
  const bySlug = await h.json("/api/teams/1995-96-chicago-bulls/roster");
  t.same(bySlug.body.data, byName.body.data);
  // docs/compatibility.md#fidelity-rules: meta.team and meta.teamType are as asked (the hosted service echoes them); the team
  // found is meta.teamName, meta.slug and meta.era.
  t.equal(byName.body.meta.team, "1995-96 Chicago Bulls");
  t.equal(bySlug.body.meta.team, "1995-96-chicago-bulls");
  t.equal(byName.body.meta.teamType, "all");
  t.equal((await h.json("/api/teams/1995-96-chicago-bulls/roster?teamType=class")).body.meta.teamType, "class");
  t.match(bySlug.body.meta, { teamName: "1995-96 Chicago Bulls", slug: "1995-96-chicago-bulls", era: "class" });
  t.ok(Number.isInteger(byName.body.meta.averageRating));
  t.equal(byName.body.meta.count, byName.body.data.length);
  const overalls = byName.body.data.map((p: any) => p.overall);
  t.same(overalls, [...overalls].sort((a: number, b: number) => b - a));
  const missing = await h.json("/api/teams/Chicago%20Bull/roster");
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, "TEAM_NOT_FOUND");
  t.ok(missing.body.error.details.suggestions.length > 0);
  const wrongEra = await h.json("/api/teams/1995-96-chicago-bulls/roster?teamType=curr");
  t.equal(wrongEra.status, 404);
});

t.test("versions list current first then archived newest first, with meta", async (t) => {
  const response = await fetch(`${h.base}/api/versions`);
  const body = await response.json() as any;
  t.same(body.data.map((entry: any) => entry.gameVersion), ["2K27", "2K26"]);
  t.equal(body.meta.current, "2K27");
  t.equal(body.meta.count, 2);
  t.same(Object.keys(body.data[0]).sort(), ["capturedAt", "gameVersion", "label", "playerCount", "source", "status", "teamTypeCounts"]);
  t.equal(body.data[0].label, "NBA 2K27");
  t.equal(response.headers.get("x-ratelimit-limit"), "60", "unkeyed routes are limited per address");
});

t.test("health and ready need no key and are never cached; their bucket is the generous probe one", async (t) => {
  for (const path of ["/health", "/ready"]) {
    const response = await fetch(h.base + path);
    t.equal(response.status, 200);
    t.equal(response.headers.get("cache-control"), "no-store");
    t.equal(response.headers.get("x-ratelimit-limit"), "1200");
  }
});

t.test("broken percent-encoding and invalid UTF-8 are 400, never 500", async (t) => {
  for (const target of ["/api/players?era=%E0%A4%A", "/api/players?era=%FF", "/api/teams/%C3%28/roster", "/api/players?%=1", "/api/players?limit=%"]) {
    const response = await rawRequest(h.service.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\n\r\n`);
    t.equal(response.status, 400, target);
    t.equal(JSON.parse(response.body).success, false);
  }
});
