// The one response-cache key (src/http/cache-key.ts): two requests share an entry exactly when
// their route, the data versions read and the canonical values agree. Checked on the key itself,
// then through the real dispatcher and routes over fixture editions: what must share an entry
// does (a hit, no new miss), what must not does not, and a cached answer is always the bytes an
// uncached server gives for that request, whatever was asked before it.

import t, { type Test } from "tap";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { cacheKey } from "../../src/http/cache-key.js";
import { createDispatcher } from "../../src/http/routes/route-table.js";
import type { Dispatcher, IncomingRequest, Outgoing } from "../../src/http/dispatch.js";
import { ADDRESS_SLOTS, KEY_SLOTS, REGISTRATION_SLOTS, TokenBuckets } from "../../src/limits/token-buckets.js";
import { RequestStats } from "../../src/ops/request-stats.js";
import { loadEditionSet, type EditionSet } from "../../src/store/editions.js";
import { randomEdition } from "../fixtures/random-edition.js";

const KEYS = ["2k_first", "2k_second"];

t.test("the key holds the route, every data version and the values, unambiguously", async (t) => {
  const a = { checksum: "aaa" };
  const b = { checksum: "bbb" };
  t.equal(cacheKey("/r", a, [1, "x"]), cacheKey("/r", { checksum: "aaa" }, [1, "x"]), "the same three parts: the same key");
  t.not(cacheKey("/r", a, [1]), cacheKey("/s", a, [1]), "another route");
  t.not(cacheKey("/r", a, [1]), cacheKey("/r", b, [1]), "another data version");
  t.not(cacheKey("/r", [a, b], [1]), cacheKey("/r", [b, a], [1]), "the versions in another order (another current edition)");
  t.not(cacheKey("/r", [a], [1]), cacheKey("/r", [a, b], [1]), "one more edition");
  t.not(cacheKey("/r", a, [1]), cacheKey("/r", a, ["1"]), "a number is not its text");
  t.not(cacheKey("/r", a, ["x|1", 2]), cacheKey("/r", a, ["x", "1|2"]), "a separator inside a value cannot shift the parts");
  t.not(cacheKey("/r", a, [undefined, 1]), cacheKey("/r", a, [1]), "an absent value keeps its place");
  t.equal(cacheKey("/r", a, [undefined]), cacheKey("/r", a, [null]), "absent is absent");
});

interface Server { dispatcher: Dispatcher; stats: RequestStats; swap(set: EditionSet): void }

function serve(editions: EditionSet, cacheBytes: number): Server {
  let current = editions;
  const stats = new RequestStats();
  const dispatcher = createDispatcher({
    editions: () => current,
    keys: { verify: (key) => { const slot = KEYS.indexOf(key); return slot < 0 ? undefined : { id: key, slot, rateLimit: 1_000_000 }; } },
    buckets: new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS),
    registrationBuckets: new TokenBuckets(0, REGISTRATION_SLOTS),
    ownerBuckets: new TokenBuckets(KEY_SLOTS, 1),
    now: () => Date.parse("2026-11-22T12:00:00Z"),
    responseCacheBytes: cacheBytes,
    corsOrigins: [],
    isDraining: () => false,
    maxBodyBytes: 65_536,
    stats,
  });
  return { dispatcher, stats, swap: (set) => { current = set; } };
}

function ask(server: Server, url: string, key = KEYS[0] as string): { status: number; body: string } {
  const [path = url, query = ""] = url.split("?");
  const request: IncomingRequest = {
    method: "GET", url: path, rawQuery: query, apiKey: key, ifNoneMatch: "", acceptEncoding: "", contentType: "", origin: "",
    address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
  };
  const outgoing = server.dispatcher.dispatch(request) as Outgoing;
  // Copied at once: a scratch body is overwritten by the next answer.
  return { status: outgoing.status, body: outgoing.body === null ? "" : outgoing.body.toString("utf8") };
}

function editionDir(t: Test, sources: ReturnType<typeof randomEdition>[]): string {
  const dir = mkdtempSync(join(tmpdir(), "courtside-cache-key-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const source of sources) writeEdition(dir, source, "2026-11-20");
  return dir;
}

const fixture = () => [randomEdition(300, 41), { ...randomEdition(200, 42, "archived"), gameVersion: "2K26" }];

t.test("requests that must share an entry do: query order, defaults given or not, case folded, another caller", async (t) => {
  const server = serve(loadEditionSet(editionDir(t, fixture())), 64 * 1024 * 1024);
  const pairs: [string, string, string?][] = [
    ["/api/players?minRating=72&position=PG&sort=name:asc", "/api/players?sort=name:asc&position=pg&minRating=72"],
    ["/api/players", "/api/players?limit=50&cursor=0&era=curr"],
    ["/api/players?search=ab", "/api/players?search=AB"],
    ["/api/players?three_ball_gte=40&three_ball_lte=90", "/api/players?three_ball_lte=90&three_ball_gte=40"],
    ["/api/versions/2K26/players?offset=0", "/api/versions/2K26/players?limit=50"],
    ["/api/players/search?q=a", "/api/players/search?limit=50&q=a"],
    ["/api/trending", "/api/trending?days=7&direction=both&limit=20"],
    ["/api/players?era=class", "/api/players?teamType=class", "the alias of era"],
    ["/api/players?limit=5", "/api/players?cursor=0&limit=5", "2k_second"],
  ];
  for (const [first, second, third] of pairs) {
    const key = third?.startsWith("2k_") ? third : KEYS[0];
    const answer = ask(server, first);
    t.equal(answer.status, 200, `${first} answers`);
    const { hits, misses } = server.stats.cache;
    const again = ask(server, second, key);
    t.equal(again.body, answer.body, `${second} is answered as ${first}`);
    t.equal(server.stats.cache.misses, misses, `${second} shares ${first}'s entry${key === KEYS[1] ? " (another caller)" : ""}`);
    t.equal(server.stats.cache.hits, hits + 1, "a hit");
  }
});

t.test("requests that must not share an entry do not: another edition, value, route or data version", async (t) => {
  const dir = editionDir(t, fixture());
  const server = serve(loadEditionSet(dir), 64 * 1024 * 1024);
  const pairs = [
    ["/api/versions/2K27/players", "/api/versions/2K26/players"],
    ["/api/players?minRating=72", "/api/players?minRating=73"],
    ["/api/players?limit=5", "/api/players?limit=5&cursor=5"],
    ["/api/players", "/api/public/players"],
    ["/api/players/bulk?position=PG", "/api/versions/2K27/players/bulk?position=PG"],
    ["/api/stats", "/api/stats?gameVersion=2K26"],
  ];
  for (const [first, second] of pairs as [string, string][]) {
    t.equal(ask(server, first).status, 200, `${first} answers`);
    const { misses } = server.stats.cache;
    t.equal(ask(server, second).status, 200, `${second} answers`);
    t.equal(server.stats.cache.misses, misses + 1, `${second} is not answered from ${first}'s entry`);
  }

  // New data under the same edition key: its checksum changes, and so does every key reading it.
  const before = ask(server, "/api/players?limit=3");
  const changed = editionDir(t, [randomEdition(300, 43), { ...randomEdition(200, 42, "archived"), gameVersion: "2K26" }]);
  server.swap(loadEditionSet(changed));
  const { misses } = server.stats.cache;
  const after = ask(server, "/api/players?limit=3");
  t.equal(server.stats.cache.misses, misses + 1, "after new data the same request is a miss");
  t.not(after.body, before.body, "and answers the new data");
  const archived = ask(server, "/api/versions/2K26/players/bulk?position=PG");
  t.equal(archived.status, 200);
  t.equal(server.stats.cache.misses, misses + 2, "an answer joining every edition is keyed by each edition's version");
});

t.test("a cached answer is the bytes an uncached server gives, whatever was asked before it", async (t) => {
  const dir = editionDir(t, fixture());
  const editions = loadEditionSet(dir);
  const uncached = serve(editions, 0);
  const cached = serve(editions, 64 * 1024 * 1024);
  const ids = (JSON.parse(ask(uncached, "/api/players?limit=2&fields=_id").body) as { data: { _id: string }[] }).data.map((row) => row._id);
  const [first, second] = ids as [string, string];
  const team = (JSON.parse(ask(uncached, "/api/teams").body) as { data: { slug: string }[] }).data[0]?.slug as string;
  // Pairs that once shared an entry though their answers differ: the compare rows carry gameVersion
  // under the versioned prefix; an unknown position or category is echoed as asked.
  const urls = [
    `/api/players/compare?ids=${first},${second}`,
    `/api/versions/2K27/players/compare?ids=${first},${second}`,
    `/api/players/compare?ids=${first},${second}&gameVersion=2K27`,
    `/api/players/${first}/similar?position=xx`,
    `/api/players/${first}/similar?position=yy`,
    `/api/versions/2K27/players/${first}/similar?position=PG`,
    "/api/badges?category=nothing",
    "/api/badges?category=nowhere",
    "/api/badges",
    `/api/badges/${"x"}/players?tier=gold`,
    "/api/players?badgeTier=nothing",
    "/api/players?badgeTier=neither",
    "/api/players?position=xx",
    "/api/players?position=yy",
    `/api/teams/${team}/roster`,
    `/api/teams/${team.toUpperCase()}/roster`,
    "/api/teams?era=class",
    "/api/versions/2K27/teams?era=class",
    `/api/players/${first}/attribute/overall`,
    `/api/players/${first}/attribute/OVERALL`,
    "/api/players/search?q=a",
    "/api/players/search?q=A",
  ];
  const expected = new Map(urls.map((url) => [url, ask(uncached, url)]));
  for (const round of [0, 1]) {
    for (const url of round === 0 ? urls : [...urls].reverse()) {
      const answer = ask(cached, url);
      t.same(answer, expected.get(url), `${url} (${round === 0 ? "in order" : "reversed"})`);
    }
  }
});
