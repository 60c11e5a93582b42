// One service in process with REDIS_URL: headers from leased buckets, and starting without Redis.
import t from "tap";
import { loadConfig } from "../../src/config.js";
import { startHarness } from "../http/harness.js";
import { freePort, redisMissing, startRedis } from "../fixtures/redis-server.js";

t.test("REDIS_URL must be a redis:// or rediss:// URL", async (t) => {
  t.throws(() => loadConfig([], { REDIS_URL: "localhost:6379" }), { message: /REDIS_URL must start with redis:\/\// });
  t.equal(loadConfig([], { REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl, "redis://127.0.0.1:6379");
  t.equal(loadConfig([], {}).redisUrl, undefined, "off by default");
});

t.test("Redis unreachable at start: the service starts from the keys file, answers keyed requests, /ready says degraded", async (t) => {
  const nobody = await freePort();
  const h = await startHarness({ rateLimit: 3, env: { REDIS_URL: `redis://127.0.0.1:${nobody}` } });
  t.teardown(() => h.close());
  t.equal(h.service.sharedState(), "local");
  const ready = await (await fetch(`${h.base}/ready`)).json();
  t.match(ready, { success: true, data: { status: "ready", redis: { status: "degraded", detail: /redis unreachable/ } } });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await h.get("/api/teams")).status);
  t.same(statuses, [200, 200, 200, 429], "the replica's own bucket limits the key meanwhile");
});

const missing = redisMissing();
t.test("with Redis: headers count down from the shared bucket, a 304 costs nothing, the empty bucket answers 429 with Retry-After", { skip: missing ?? false }, async (t) => {
  const redis = await startRedis();
  t.teardown(() => redis.stop());
  const h = await startHarness({ rateLimit: 5, env: { REDIS_URL: redis.url } });
  t.teardown(() => h.close());
  t.equal(h.service.sharedState(), "shared");
  const ready = await (await fetch(`${h.base}/ready`)).json() as { data: { redis: unknown } };
  t.match(ready.data.redis, { status: "shared" });
  const first = await h.get("/api/teams");
  t.equal(first.status, 200);
  t.equal(first.headers.get("x-ratelimit-remaining"), "4");
  t.equal(first.headers.get("x-ratelimit-limit"), "5");
  const etag = first.headers.get("etag") ?? "";
  const notModified = await h.get("/api/teams", { "if-none-match": etag });
  t.equal(notModified.status, 304);
  t.equal(notModified.headers.get("x-ratelimit-remaining"), "4", "a 304 gives its token back");
  const remaining = [];
  for (let i = 0; i < 4; i++) remaining.push((await h.get("/api/teams")).headers.get("x-ratelimit-remaining"));
  t.same(remaining, ["3", "2", "1", "0"]);
  const refused = await h.get("/api/teams");
  t.equal(refused.status, 429);
  t.ok(Number(refused.headers.get("retry-after")) >= 1, `Retry-After ${refused.headers.get("retry-after")}`);
  t.match(await refused.json(), { error: { code: "RATE_LIMIT_EXCEEDED", details: { limit: 5 } } });
});

t.test("with Redis: requests let in together by one answer of the shared store each get their own bytes, cache on or off", { skip: missing ?? false }, async (t) => {
  // Distinct pages and searches of different lengths: rendered one after another into the scratch
  // buffer when the lease arrives, each must still be whole and its own when written.
  const paths = [
    ...[3, 7, 12, 20, 31, 45].map((limit, i) => `/api/players?limit=${limit}&sort=${i % 2 === 0 ? "name" : "overall:asc"}`),
    ...["a", "e", "jo", "an", "mi"].map((q) => `/api/players/search?q=${q}&limit=${q.length * 7}`),
  ];
  for (const cacheMb of ["0", "64"]) {
    // A Redis of its own each (the keys a service publishes there are its keys file's).
    const redis = await startRedis();
    t.teardown(() => redis.stop());
    const h = await startHarness({ env: { REDIS_URL: redis.url, RESPONSE_CACHE_MB: cacheMb } });
    t.teardown(() => h.close());
    t.equal(h.service.sharedState(), "shared");
    // The key has no lease yet and Redis is frozen: every request waits for the same answer (the
    // lease, or the command's timeout), which lets them all in at once.
    redis.pause();
    const pending = Promise.all(paths.map(async (path) => {
      // Identity: a compressed body is a buffer of its own, never the scratch buffer.
      const response = await h.get(path, { "accept-encoding": "identity" });
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()).toString("utf8") };
    }));
    // Time for every request to reach the server and wait (not an assertion: the test fails only on wrong bytes).
    await new Promise((resolve) => setTimeout(resolve, 300));
    redis.resume();
    const together = await pending;
    for (const [i, path] of paths.entries()) {
      const alone = await h.get(path, { "accept-encoding": "identity" });
      const body = Buffer.from(await alone.arrayBuffer()).toString("utf8");
      const answered = together[i] as { status: number; body: string };
      t.equal(answered.status, 200, `${path}, cache ${cacheMb} MB`);
      // The timestamp of a search is the request's own: compare everything else.
      const comparable = (text: string) => text.replace(/"timestamp":"[^"]*"/, '"timestamp":""');
      t.doesNotThrow(() => JSON.parse(answered.body), `${path}, cache ${cacheMb} MB: whole JSON`);
      t.equal(comparable(answered.body), comparable(body), `${path}, cache ${cacheMb} MB: the same bytes as asked alone`);
    }
  }
});
