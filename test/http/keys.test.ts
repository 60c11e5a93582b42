import t from "tap";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startHarness, type Harness } from "./harness.js";
import { createKey, listKeys } from "../../src/keys/key-operations.js";

interface Answer { status: number; body: any; headers: Headers }

async function call(h: Harness, method: string, path: string, options: { key?: string; body?: unknown; rawBody?: string; contentType?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers["x-api-key"] = options.key;
  let body: string | undefined;
  if (options.body !== undefined || options.rawBody !== undefined) {
    body = options.rawBody ?? JSON.stringify(options.body);
    headers["content-type"] = options.contentType ?? "application/json";
  }
  const response = await fetch(h.base + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text), headers: response.headers };
}

const register = (h: Harness, body: unknown) => call(h, "POST", "/api/register", { body });

t.test("registering gives a working key, shown once, stored only as a digest", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const created = await register(h, { email: "Ann@Example.com", name: "Ann's app", purpose: "a dashboard" });
  t.equal(created.status, 201);
  t.equal(created.body.success, true);
  t.match(created.body.data.apiKey, /^2k_[a-z0-9]{32}$/);
  t.equal(created.body.data.rateLimit, 500);
  t.match(created.body.data.message, /store/i);
  t.equal(created.headers.get("cache-control"), "no-store");
  t.equal(created.headers.get("x-ratelimit-limit"), "5", "the registration limit's headers");
  t.equal(created.headers.get("ratelimit-policy"), '"registration";q=5;w=3600');
  const key = created.body.data.apiKey as string;
  const teams = await call(h, "GET", "/api/teams", { key });
  t.equal(teams.status, 200, "the new key works on the very next request");
  t.equal(teams.headers.get("x-ratelimit-limit"), "500");
  const file = readFileSync(join(h.dir, "keys.json"), "utf8");
  t.notOk(file.includes(key), "the key is not in the keys file");
  const record = listKeys(join(h.dir, "keys.json")).find((entry) => entry.email === "Ann@Example.com");
  t.same({ name: record?.name, purpose: record?.purpose, rateLimit: record?.rateLimit }, { name: "Ann's app", purpose: "a dashboard", rateLimit: 500 });
});

t.test("a bad body is 400 VALIDATION_ERROR (INVALID_JSON when it is not JSON, as on every POST route); a wrong type 415; GET is 405", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  // Six bad bodies would spend the address's five registrations: each case gets a fresh hour.
  const cases: [string, Parameters<typeof call>[3]][] = [
    ["no name", { body: { email: "a@b.co" } }],
    ["no e-mail", { body: { name: "x" } }],
    ["not an e-mail", { body: { email: "not-an-address", name: "x" } }],
    ["blank name", { body: { email: "a@b.co", name: "   " } }],
    ["unknown field", { body: { email: "a@b.co", name: "x", password: "hunter2" } }],
    ["an array", { body: [{ email: "a@b.co", name: "x" }] }],
  ];
  for (const [label, options] of cases) {
    h.clock.now += 3_600_000;
    const answer = await call(h, "POST", "/api/register", options);
    t.equal(answer.status, 400, label);
    t.equal(answer.body.error.code, "VALIDATION_ERROR", label);
    t.ok(Array.isArray(answer.body.error.details.errors), `${label}: says what was wrong`);
  }
  h.clock.now += 3_600_000;
  const notJson = await call(h, "POST", "/api/register", { rawBody: "{email:" });
  t.equal(notJson.status, 400);
  t.equal(notJson.body.error.code, "INVALID_JSON", "the code batch and /mcp give for the same failure");
  t.match(notJson.body.error.details.reason, /JSON/, "says what was wrong");
  h.clock.now += 3_600_000;
  const form = await call(h, "POST", "/api/register", { rawBody: "email=a%40b.co&name=x", contentType: "application/x-www-form-urlencoded" });
  t.equal(form.status, 415);
  t.equal(form.body.error.code, "UNSUPPORTED_MEDIA_TYPE");
  const get = await call(h, "GET", "/api/register");
  t.equal(get.status, 405);
  t.equal(get.headers.get("allow"), "POST");
  t.equal(listKeys(join(h.dir, "keys.json")).length, 1, "nothing was written");
});

t.test("a fourth active key for one e-mail (any case) is 400 KEY_LIMIT_EXCEEDED; revoking one frees a place", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const keys: string[] = [];
  for (const email of ["dup@example.com", "DUP@example.com", "Dup@Example.Com"]) {
    const answer = await register(h, { email, name: "dup" });
    t.equal(answer.status, 201, email);
    keys.push(answer.body.data.apiKey);
  }
  const fourth = await register(h, { email: "dUp@EXAMPLE.com", name: "dup" });
  t.equal(fourth.status, 400);
  t.equal(fourth.body.error.code, "KEY_LIMIT_EXCEEDED");
  t.equal(fourth.body.error.details.limit, 3);
  t.equal((await call(h, "DELETE", "/api/keys/current", { key: keys[0] as string })).status, 200);
  const again = await register(h, { email: "dup@example.com", name: "dup" });
  t.equal(again.status, 201, "a revoked key does not count");
});

t.test("the sixth registration from one address in an hour is 429 REGISTRATION_RATE_LIMIT with Retry-After", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (let i = 0; i < 5; i++) {
    const answer = await register(h, { email: `user${i}@example.com`, name: `user ${i}` });
    t.equal(answer.status, 201);
    t.equal(answer.headers.get("x-ratelimit-remaining"), String(4 - i));
  }
  const refused = await register(h, { email: "user5@example.com", name: "user 5" });
  t.equal(refused.status, 429);
  t.equal(refused.body.error.code, "REGISTRATION_RATE_LIMIT");
  t.equal(refused.headers.get("retry-after"), "720", "3600 s / 5 registrations");
  t.same(refused.body.error.details, { limit: 5, retryAfter: 720 });
  t.equal(refused.headers.get("x-ratelimit-remaining"), "0");
  t.equal(refused.headers.get("ratelimit-policy"), '"registration";q=5;w=3600');
  t.equal((await call(h, "GET", "/api/versions")).status, 200, "the address may still use the API");
  t.equal(listKeys(join(h.dir, "keys.json")).length, 6, "the refused one wrote nothing");
  h.clock.now += 720_000;
  t.equal((await register(h, { email: "user5@example.com", name: "user 5" })).status, 201, "one registration back after 12 minutes");
  t.equal((await register(h, { email: "user6@example.com", name: "user 6" })).status, 429);
});

t.test("REGISTRATION=closed makes registration 403 REGISTRATION_CLOSED; keys from the command line still work", async (t) => {
  const h = await startHarness({ env: { REGISTRATION: "closed" } });
  t.teardown(() => h.close());
  const closed = await register(h, { email: "a@example.com", name: "a" });
  t.equal(closed.status, 403);
  t.equal(closed.body.error.code, "REGISTRATION_CLOSED");
  t.match(closed.body.error.message, /operator/);
  t.equal(listKeys(join(h.dir, "keys.json")).length, 1);
  t.equal((await call(h, "GET", "/api/dashboard/usage", { key: h.key })).status, 200, "usage, regenerate and revoke stay open");
});

t.test("usage: holder, remaining, reset and the last ten requests by route template, never the query", async (t) => {
  const h = await startHarness({ rateLimit: 500 });
  t.teardown(() => h.close());
  const empty = await call(h, "GET", "/api/dashboard/usage", { key: h.key });
  t.equal(empty.status, 200);
  t.equal(empty.headers.get("cache-control"), "private, no-store");
  t.same(empty.body.data.apiKey, { prefix: h.key.slice(0, 7), email: "test@example.com", createdAt: empty.body.data.apiKey.createdAt, rateLimit: 500 });
  t.equal(empty.body.data.totalRequests, 0);
  t.equal(empty.body.data.lastRequest, null);
  t.same(empty.body.data.recentRequests, []);
  t.equal(empty.body.data.remaining, 500, "the owner's usage takes no token from the key's bucket");

  const secret = "s3cr3t-query-value";
  await call(h, "GET", `/api/players?limit=1&team=${secret}`, { key: h.key });
  await call(h, "GET", "/api/players/slug/nobody-at-all", { key: h.key });
  await call(h, "GET", `/api/players?limit=abc&x=${secret}`, { key: h.key });
  await call(h, "HEAD", "/api/teams", { key: h.key });
  await call(h, "GET", "/api/teams", { key: "2k_" + "0".repeat(32) });
  h.clock.now += 1_000;
  const usage = await call(h, "GET", "/api/dashboard/usage", { key: h.key });
  const data = usage.body.data;
  t.equal(data.totalRequests, 5, "the first usage call and four requests; not the other key's");
  t.equal(data.lastRequest, data.recentRequests[0].timestamp);
  t.same(data.recentRequests.map((entry: any) => [entry.method, entry.endpoint, entry.statusCode]), [
    ["HEAD", "/api/teams", 200],
    ["GET", "/api/players", 400],
    ["GET", "/api/players/slug/:slug", 404],
    ["GET", "/api/players", 200],
    ["GET", "/api/dashboard/usage", 200],
  ]);
  for (const entry of data.recentRequests) {
    t.ok(entry.responseTime >= 0 && typeof entry.responseTime === "number");
    t.equal(entry.timestamp, new Date(Date.parse("2026-11-22T12:00:00Z")).toISOString(), "the service's clock");
  }
  t.notOk(JSON.stringify(usage.body).includes(secret), "no query string");
  t.notOk(JSON.stringify(usage.body).includes(h.key), "never the key itself");
  t.equal(String(data.remaining), usage.headers.get("x-ratelimit-remaining"));
  // docs/compatibility.md#fidelity-rules: X-RateLimit-Reset is an ISO 8601 time (it was Unix seconds), the same as resetAt.
  t.equal(data.resetAt, usage.headers.get("x-ratelimit-reset"));
  t.equal(data.requestsRemaining, data.remaining, "the hosted service's requestsRemaining");
  t.equal(data.rateLimit, data.apiKey.rateLimit, "the hosted service's rateLimit");
  t.equal(data.requestCount, data.rateLimit - data.remaining, "the hosted service's requestCount: tokens taken this window");

  for (let i = 0; i < 12; i++) await call(h, "GET", `/api/teams?i=${i}`, { key: h.key });
  const later = await call(h, "GET", "/api/dashboard/usage", { key: h.key });
  t.equal(later.body.data.totalRequests, 18);
  t.equal(later.body.data.recentRequests.length, 10, "only the last ten are kept");
  t.ok(later.body.data.recentRequests.every((entry: any) => entry.endpoint === "/api/teams"));

  t.equal((await call(h, "GET", "/api/dashboard/usage")).body.error.code, "MISSING_API_KEY");
  t.equal((await call(h, "GET", "/api/dashboard/usage", { key: "2k_" + "1".repeat(32) })).body.error.code, "INVALID_API_KEY");
  // docs/compatibility.md#fidelity-rules: the hosted service ignores unknown parameters here (it was a 400): a warning says so.
  const verbose = await call(h, "GET", "/api/dashboard/usage?verbose=1&_=1735000000", { key: h.key });
  t.equal(verbose.status, 200);
  t.same(verbose.body.meta.warnings.map((w: any) => w.parameter), ["verbose"], "the cache buster _ is ignored silently");
});

t.test("regenerate: 201 with a new key; the old one is refused by the very next request; usage stays with the holder", async (t) => {
  const h = await startHarness({ rateLimit: 700 });
  t.teardown(() => h.close());
  const old = h.key;
  await call(h, "GET", "/api/teams", { key: old });
  const regenerated = await call(h, "POST", "/api/keys/regenerate", { key: old });
  t.equal(regenerated.status, 201);
  const fresh = regenerated.body.data.apiKey as string;
  t.match(fresh, /^2k_[a-z0-9]{32}$/);
  t.not(fresh, old);
  t.equal(regenerated.body.data.rateLimit, 700, "the same limit");
  const refused = await call(h, "GET", "/api/teams", { key: old });
  t.equal(refused.status, 401);
  t.equal(refused.body.error.code, "INVALID_API_KEY");
  t.equal((await call(h, "POST", "/api/keys/regenerate", { key: old })).status, 401, "the old key cannot regenerate again");
  const usage = await call(h, "GET", "/api/dashboard/usage", { key: fresh });
  t.equal(usage.status, 200);
  t.equal(usage.body.data.apiKey.email, "test@example.com");
  t.equal(usage.body.data.apiKey.prefix, fresh.slice(0, 7));
  t.equal(usage.body.data.totalRequests, 2, "the old key's requests stay in the history");
  t.equal(usage.body.data.recentRequests[0].endpoint, "/api/keys/regenerate");
  t.equal(usage.body.data.recentRequests[0].statusCode, 201);
  t.equal(usage.body.data.remaining, 699, "the same bucket (regenerate and usage take no token from it)");
  const records = listKeys(join(h.dir, "keys.json"));
  t.equal(records.length, 1, "the same record, not a new one");
  t.ok(records[0]?.regeneratedAt);
});

t.test("revoke: 200, then the key is refused by the very next request", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const revoked = await call(h, "DELETE", "/api/keys/current", { key: h.key });
  t.equal(revoked.status, 200);
  t.same(revoked.body.data, { revoked: true, prefix: h.key.slice(0, 7), revokedAt: revoked.body.data.revokedAt });
  t.ok(Date.parse(revoked.body.data.revokedAt) > 0);
  t.equal((await call(h, "GET", "/api/teams", { key: h.key })).body.error.code, "INVALID_API_KEY");
  t.equal((await call(h, "DELETE", "/api/keys/current", { key: h.key })).status, 401);
  t.equal((await call(h, "DELETE", "/api/keys/current")).body.error.code, "MISSING_API_KEY");
  t.equal((await call(h, "GET", "/api/keys/current", { key: h.key })).status, 405);
});

t.test("a key the command line makes beside the running server works within a second", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  h.service.keys.watch(50);
  const { key } = createKey(join(h.dir, "keys.json"), { email: "cli@example.com", now: new Date() });
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    status = (await call(h, "GET", "/api/teams", { key })).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.equal(status, 200);
  const registered = await register(h, { email: "web@example.com", name: "web" });
  t.equal(registered.status, 201);
  t.equal(listKeys(join(h.dir, "keys.json")).length, 3, "the server's write kept the command's key");
});
