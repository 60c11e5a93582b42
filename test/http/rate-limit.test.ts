import t from "tap";
import { startHarness } from "./harness.js";

t.test("a key gets 500 requests, then 429 with Retry-After; tokens refill over time; 304s are free", async (t) => {
  const h = await startHarness({ rateLimit: 500 });
  t.teardown(() => h.close());
  const first = await h.get("/api/players?limit=1");
  const etag = first.headers.get("etag")!;
  t.equal(first.headers.get("x-ratelimit-limit"), "500");
  t.equal(first.headers.get("x-ratelimit-remaining"), "499");
  t.equal(first.headers.get("ratelimit-policy"), '"free";q=500;w=3600');
  t.equal(first.headers.get("ratelimit"), '"free";r=499;t=8');
  // docs/compatibility.md#fidelity-rules: an ISO 8601 time, as the hosted service sends it (it was Unix seconds); t= keeps the seconds.
  t.equal(first.headers.get("x-ratelimit-reset"), new Date((Math.ceil(h.clock.now / 1000) + 8) * 1000).toISOString());

  const revalidated = await h.get("/api/players?limit=1", { "if-none-match": etag });
  t.equal(revalidated.status, 304);
  t.equal(revalidated.headers.get("x-ratelimit-remaining"), "499", "a 304 takes no token");

  // Bad parameters and unknown players still pass authentication, so they take a token.
  const statuses = new Map<number, number>();
  for (let i = 1; i < 500; i++) {
    const response = await h.get(i % 50 === 0 ? "/api/players?limit=abc" : "/api/teams");
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    await response.arrayBuffer();
  }
  t.same([...statuses.keys()].sort(), [200, 400]);
  const refused = await h.get("/api/teams");
  t.equal(refused.status, 429);
  const body = await refused.json() as any;
  t.equal(body.error.code, "RATE_LIMIT_EXCEEDED");
  t.equal(body.error.details.limit, 500);
  t.equal(refused.headers.get("retry-after"), "8", "seconds until the next token (3600/500 = 7.2, rounded up)");
  t.equal(body.error.details.retryAfter, 8);
  t.equal(refused.headers.get("x-ratelimit-remaining"), "0");
  t.equal(refused.headers.get("x-ratelimit-limit"), "500");
  t.equal((await h.get("/api/players?limit=1", { "if-none-match": etag })).status, 429, "an empty bucket refuses before revalidating");

  h.clock.now += 7_200;
  t.equal((await h.get("/api/teams")).status, 200, "one token back after 7.2 s");
  t.equal((await h.get("/api/teams")).status, 429);
  h.clock.now += 3_600_000;
  const refilled = await h.get("/api/teams");
  t.equal(refilled.status, 200);
  t.equal(refilled.headers.get("x-ratelimit-remaining"), "499", "an hour refills the bucket to capacity");
});

t.test("failed key checks and unkeyed routes are limited per address, 60 a minute", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  let lastStatus = 0;
  for (let i = 0; i < 60; i++) {
    const response = await fetch(`${h.base}/api/players`, { headers: { "x-api-key": `2k_${"0".repeat(31)}${i % 10}` } });
    lastStatus = response.status;
    await response.arrayBuffer();
  }
  t.equal(lastStatus, 401);
  const guessing = await fetch(`${h.base}/api/players`, { headers: { "x-api-key": "2k_" + "9".repeat(32) } });
  t.equal(guessing.status, 429, "the 61st failed check in a minute is refused");
  t.ok(Number(guessing.headers.get("retry-after")) >= 1);
  t.equal((await fetch(`${h.base}/api/versions`)).status, 429, "the same address bucket covers unkeyed routes");
  t.equal((await h.get("/api/teams")).status, 200, "a valid key is unaffected");
  t.equal((await fetch(`${h.base}/health`)).status, 200, "health is never limited");
  h.clock.now += 60_000;
  t.equal((await fetch(`${h.base}/api/versions`)).status, 200, "the address bucket refills");
});
