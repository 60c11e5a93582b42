import t from "tap";
import { fileURLToPath } from "node:url";
import { importFiles } from "../../src/pipeline/import.js";
import type { EditionSource } from "../../src/model/player.js";
import { startHarness } from "./harness.js";
import { recordsOf } from "../fixtures/records.js";

const capturedAt = "2025-08-01T00:00:00.000Z";
const realFiles = ["2k26-curr.csv", "2k26-allt.csv", "2k26-api-export-sample.json"]
  .map((file) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url)));
const source: EditionSource = {
  gameVersion: "2K26", status: "current", capturedAt, source: "test", players: importFiles(realFiles, { capturedAt }), history: [],
};

const h = await startHarness({ sources: [source] });
t.teardown(() => h.close());
const edition = h.service.editions().current;

type Answer = { status: number; body: any; headers: Headers };

/** `apiKey` null: no X-API-Key header at all. Every request goes to the running server. */
async function get(path: string, apiKey: string | null = h.key): Promise<Answer> {
  const response = await fetch(h.base + path, { headers: apiKey === null ? {} : { "x-api-key": apiKey } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

const SUMMARY_FIELDS = ["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg"];

t.test("a search answers full player records, best first, with count, total, truncated, timestamp and query", async (t) => {
  const { status, body, headers } = await get("/api/players/search?q=lebron%20james&teamType=curr");
  t.equal(status, 200);
  t.equal(body.success, true);
  t.equal(body.data[0].name, "LeBron James");
  t.equal(body.data[0].team, "Los Angeles Lakers");
  // docs/compatibility.md#fidelity-rules: full player records, as the hosted search returns (they were summary players):
  // the rows /api/players answers for the same players.
  for (const player of body.data) {
    for (const key of SUMMARY_FIELDS) if (key !== "playerImage" && key !== "teamImg") t.ok(key in player, `${player.name} has ${key}`);
    t.ok(typeof player.attributes === "object" && typeof player.badges === "object", `${player.name} is a full record`);
  }
  const listed = await get(`/api/players?team=${encodeURIComponent(body.data[0].team)}&limit=100`);
  t.same(listed.body.data.find((p: any) => p._id === body.data[0]._id), body.data[0], "the same row as /api/players");
  t.same(body.meta, { count: body.data.length, total: body.data.length, truncated: false, timestamp: "2026-11-22T12:00:00.000Z", query: "lebron james" });
  t.match(body.meta.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  // docs/compatibility.md#fidelity-rules: an ETag and a max-age like the other cacheable routes; the weak ETag names the
  // results (the same whatever the timestamp), so a revalidation is a 304.
  const etag = headers.get("etag");
  t.match(etag, /^W\/"/);
  t.equal(headers.get("cache-control"), "private, max-age=300");
  h.clock.now = Date.parse("2026-11-22T12:05:00Z");
  const later = await fetch(h.base + "/api/players/search?q=lebron%20james&teamType=curr", { headers: { "x-api-key": h.key, "if-none-match": etag! } });
  h.clock.now = Date.parse("2026-11-22T12:00:00Z");
  t.equal(later.status, 304);
  const other = await get("/api/players/search?q=curry&teamType=curr");
  t.not(other.headers.get("etag"), etag, "other results, another ETag");
});

t.test("a search read leniently (limit=2.5 is 2, with a warning) still carries each request's own timestamp", async (t) => {
  h.clock.now = Date.parse("2026-11-23T08:30:00Z");
  const first = await get("/api/players/search?q=curry&limit=2.5");
  h.clock.now = Date.parse("2026-11-23T08:31:00Z");
  const second = await get("/api/players/search?q=curry&limit=2.5");
  h.clock.now = Date.parse("2026-11-22T12:00:00Z");
  t.equal(first.status, 200);
  t.ok(first.body.data.length <= 2);
  t.equal(first.body.meta.warnings[0].parameter, "limit");
  t.equal(first.body.meta.timestamp, "2026-11-23T08:30:00.000Z");
  t.equal(second.body.meta.timestamp, "2026-11-23T08:31:00.000Z", "not a remembered answer");
});

t.test("the timestamp is the time of the request", async (t) => {
  h.clock.now = Date.parse("2026-11-23T08:30:00Z");
  const { body } = await get("/api/players/search?q=curry");
  t.equal(body.meta.timestamp, "2026-11-23T08:30:00.000Z");
  h.clock.now = Date.parse("2026-11-22T12:00:00Z");
});

t.test("a repeated search (its ranking cached) still carries each request's own timestamp and query", async (t) => {
  const path = `/api/players/search?q=${encodeURIComponent('curry "s\\')}&limit=7`;
  h.clock.now = Date.parse("2026-11-24T01:02:03.456Z");
  const first = await get(path);
  h.clock.now = Date.parse("2026-11-25T23:59:59.999Z");
  const second = await get(path);
  h.clock.now = Date.parse("2026-11-22T12:00:00Z");
  t.equal(first.body.meta.timestamp, "2026-11-24T01:02:03.456Z");
  t.equal(second.body.meta.timestamp, "2026-11-25T23:59:59.999Z");
  t.equal(second.body.meta.query, 'curry "s\\', "the query is echoed, escaped, as sent");
  t.ok(first.body.data.length > 0, "and it finds someone");
  t.same(second.body.data, first.body.data);
  t.same({ ...second.body.meta, timestamp: "" }, { ...first.body.meta, timestamp: "" });
});

t.test("the data is the name index's ranking over the current edition", async (t) => {
  for (const q of ["jokić", "gilgeous alex", "stephen cury", "de'aaron", "j"]) {
    const { body } = await get(`/api/players/search?q=${encodeURIComponent(q)}`);
    const { rows, total } = edition.nameIndex.search(q, 0b111, 50);
    t.same(body.data.map((player: any) => player._id), rows.map((row) => recordsOf(edition)[row]!._id), q);
    t.equal(body.meta.total, total, q);
    t.equal(body.meta.query, q);
  }
  const { body } = await get("/api/players/search?q=Jokic");
  t.equal(body.data[0].name, "Nikola Jokic");
});

t.test("limit cuts the page, total counts every match, truncated says so", async (t) => {
  const page = await get("/api/players/search?q=j&limit=3");
  t.equal(page.status, 200);
  t.equal(page.body.data.length, 3);
  t.equal(page.body.meta.count, 3);
  t.ok(page.body.meta.total > 50);
  t.equal(page.body.meta.truncated, true);
  const full = await get("/api/players/search?q=j");
  t.equal(full.body.data.length, 50, "default limit 50");
  t.equal(full.body.meta.total, page.body.meta.total);
  t.same(full.body.data.slice(0, 3), page.body.data);
  const single = await get("/api/players/search?q=deaaron%20fox&limit=50");
  t.same([single.body.meta.count, single.body.meta.total, single.body.meta.truncated], [1, 1, false]);
  const none = await get("/api/players/search?q=%21%21%21");
  t.equal(none.status, 200, "punctuation only: no words, no match, still a 200");
  t.same([none.body.data, none.body.meta.count, none.body.meta.total, none.body.meta.truncated], [[], 0, 0, false]);
});

t.test("teamType narrows to one era, any case; omitted searches every era", async (t) => {
  for (const era of ["curr", "class", "allt"]) {
    const { status, body } = await get(`/api/players/search?q=lebron&teamType=${era.toUpperCase()}`);
    t.equal(status, 200, era);
    t.ok(body.data.length > 0, era);
    t.ok(body.data.every((player: any) => player.teamType === era), era);
  }
  const all = await get("/api/players/search?q=lebron");
  t.same(new Set(all.body.data.map((player: any) => player.teamType)), new Set(["curr", "class", "allt"]));
});

t.test("a missing or blank q is 400 MISSING_PARAMETER", async (t) => {
  for (const path of ["/api/players/search", "/api/players/search?q=", "/api/players/search?q=%20%20", "/api/players/search?limit=5"]) {
    const { status, body } = await get(path);
    t.equal(status, 400, path);
    t.equal(body.success, false);
    t.equal(body.error.code, "MISSING_PARAMETER", path);
    t.same(body.error.details, { parameter: "q" }, path);
  }
});

t.test("bad values are 400 INVALID_PARAMETER naming the parameter", async (t) => {
  const cases: [string, string][] = [
    // docs/compatibility.md#fidelity-rules: limit=2.5 is read as 2 now (with a warning); limit= and limit=51 stay 400s.
    ["limit=51", "limit"], ["limit=0", "limit"], ["limit=", "limit"], ["teamType=", "teamType"],
    ["teamType=all", "teamType"], ["teamType=legends", "teamType"], [`q=${"a".repeat(101)}`, "q"],
  ];
  for (const [query, parameter] of cases) {
    const { status, body } = await get(`/api/players/search?${query.startsWith("q=") ? "" : "q=lebron&"}${query}`);
    t.equal(status, 400, query);
    t.equal(body.error.code, "INVALID_PARAMETER", query);
    t.equal(body.error.details.parameter, parameter, query);
  }
  t.equal((await get(`/api/players/search?q=${"a".repeat(100)}`)).status, 200, "100 characters is the most");
  const unknown = await get("/api/players/search?q=lebron&name=x");
  t.equal(unknown.body.error.code, "UNKNOWN_PARAMETERS");
});

t.test("a search needs a valid key", async (t) => {
  const missing = await get("/api/players/search?q=lebron", null);
  t.equal(missing.status, 401);
  t.equal(missing.body.error.code, "MISSING_API_KEY");
  const invalid = await get("/api/players/search?q=lebron", "2k_00000000000000000000000000000000");
  t.equal(invalid.status, 401);
  t.equal(invalid.body.error.code, "INVALID_API_KEY");
});

t.test("a repeated search's page, its head kept compressed, decodes to the page with each request's own timestamp in every encoding", async (t) => {
  const { request } = await import("node:http");
  const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
  const raw = (path: string, encoding: string) => new Promise<{ encoding: string | undefined; etag: string | undefined; body: Buffer }>((resolve, reject) => {
    request(h.base + path, { headers: { "x-api-key": h.key, "accept-encoding": encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ encoding: response.headers["content-encoding"], etag: response.headers.etag, body: Buffer.concat(chunks) }));
    }).on("error", reject).end();
  });
  const path = "/api/players/search?q=j&limit=40";
  const decode = { br: brotliDecompressSync, gzip: gunzipSync, identity: (body: Buffer) => body } as const;
  let etag: string | undefined;
  for (let round = 0; round < 4; round++) {
    for (const encoding of ["br", "gzip", "identity"] as const) {
      const at = Date.parse("2026-11-24T00:00:00.000Z") + round * 61_001 + encoding.length;
      h.clock.now = at;
      const answer = await raw(path, encoding);
      t.equal(answer.encoding, encoding === "identity" ? undefined : encoding, `round ${round} ${encoding}: sent as asked`);
      const page = JSON.parse(decode[encoding](answer.body).toString("utf8"));
      t.equal(page.meta.timestamp, new Date(at).toISOString(), `round ${round} ${encoding}: this request's timestamp`);
      t.equal(page.data.length, 40, `round ${round} ${encoding}: the page`);
      etag ??= answer.etag;
      t.equal(answer.etag, etag, `round ${round} ${encoding}: one ETag for the results`);
    }
  }
  h.clock.now = Date.parse("2026-11-22T12:00:00Z");
});
