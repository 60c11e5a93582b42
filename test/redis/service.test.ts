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
