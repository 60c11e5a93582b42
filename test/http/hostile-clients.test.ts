import t from "tap";
import { join } from "node:path";
import { TokenBuckets } from "../../src/limits/token-buckets.js";
import { rawRequest, startHarness, type Harness } from "./harness.js";
import type { KeyStoreFile } from "../../src/keys/key-records.js";
import { readKeyStore, writeKeyStore } from "../../src/keys/key-file.js";
import { withNewKey } from "../../src/keys/key-operations.js";

const call = (h: Harness, method: string, path: string, key?: string, headers: Record<string, string> = {}) =>
  fetch(h.base + path, { method, headers: { ...(key === undefined ? {} : { "x-api-key": key }), ...headers } });

t.test("a thief with an empty bucket cannot stop the owner's revoke, regenerate or usage", async (t) => {
  const h = await startHarness({ rateLimit: 5 });
  t.teardown(() => h.close());
  for (let i = 0; i < 5; i++) t.equal((await call(h, "GET", "/api/teams", h.key)).status, 200);
  const drained = await call(h, "GET", "/api/teams", h.key);
  t.equal(drained.status, 429, "the thief emptied the key's bucket");
  const usage = await call(h, "GET", "/api/dashboard/usage", h.key);
  t.equal(usage.status, 200, "the owner still sees the usage");
  t.equal(((await usage.json()) as any).data.remaining, 0, "and that the bucket is empty");
  const regenerated = await call(h, "POST", "/api/keys/regenerate", h.key);
  t.equal(regenerated.status, 201, "the owner still regenerates");
  const fresh = ((await regenerated.json()) as any).data.apiKey as string;
  t.equal((await call(h, "GET", "/api/teams", h.key)).status, 401, "the stolen key is dead");
  t.equal((await call(h, "DELETE", "/api/keys/current", fresh)).status, 200, "and the owner can revoke the new one");
});

t.test("the owner routes have a small bucket of their own per key, so they cannot flood", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  let status = 200;
  let count = 0;
  while (status === 200 && count < 100) {
    const response = await call(h, "GET", "/api/dashboard/usage", h.key);
    status = response.status;
    await response.arrayBuffer();
    if (status === 200) count++;
  }
  t.equal(count, 30, "30 owner requests a minute");
  t.equal(status, 429);
  t.equal((await call(h, "GET", "/api/teams", h.key)).status, 200, "the key's own requests are untouched");
});

t.test("the 4,097th key has its own bucket and its own usage ring", async (t) => {
  const h = await startHarness({ rateLimit: 50 });
  t.teardown(() => h.close());
  const file = join(h.dir, "keys.json");
  let store: KeyStoreFile = readKeyStore(file);
  let late = "";
  for (let i = 1; i <= 4096; i++) {
    const change = withNewKey(store, { email: `user${i}@example.com`, now: new Date(), rateLimit: 3 });
    store = change.store;
    late = change.result.key;
  }
  writeKeyStore(file, store);
  let status = 0;
  for (let i = 0; i < 200 && status !== 200; i++) {
    status = (await call(h, "GET", "/api/teams", late)).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  t.equal(status, 200, "the 4,097th record's key works");
  for (let i = 0; i < 4; i++) await call(h, "GET", "/api/teams", h.key).then((r) => r.arrayBuffer());
  for (let i = 0; i < 2; i++) await call(h, "GET", "/api/teams", late).then((r) => r.arrayBuffer());
  t.equal((await call(h, "GET", "/api/teams", late)).status, 429, "its own bucket of 3 is empty after 3");
  const first = (await (await call(h, "GET", "/api/dashboard/usage", h.key)).json()) as any;
  t.equal(first.data.totalRequests, 4, "key 1's usage has only its own requests");
  t.equal(first.data.remaining, 46, "and its bucket only its own draws");
  const own = (await (await call(h, "GET", "/api/dashboard/usage", late)).json()) as any;
  t.equal(own.data.totalRequests, 4, "the 4,097th key's usage is its own (three 200s, one 429)");
  t.ok(own.data.recentRequests.every((entry: any) => entry.endpoint === "/api/teams"));
});

const registration = (port: number, forwardedFor: readonly string[], i: number) => {
  const body = JSON.stringify({ email: `r${i}@example.com`, name: "r" });
  const lines = forwardedFor.map((value) => `X-Forwarded-For: ${value}\r\n`).join("");
  return rawRequest(port, `POST /api/register HTTP/1.1\r\nHost: x\r\n${lines}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
};

t.test("behind a trusted proxy every X-Forwarded-For line counts, and the proxy's own line is the one believed", async (t) => {
  const h = await startHarness({ env: { TRUST_PROXY: "127.0.0.1" } });
  t.teardown(() => h.close());
  // The client forges a first line; the proxy (HAProxy's option forwardfor) appends a line of its own.
  for (let i = 0; i < 5; i++) t.equal((await registration(h.service.port, [`198.51.100.${i}`, "203.0.113.9"], i)).status, 201);
  t.equal((await registration(h.service.port, ["198.51.100.99", "203.0.113.9"], 5)).status, 429, "the sixth from 203.0.113.9 is refused whatever the first line says");
  t.equal((await registration(h.service.port, ["203.0.113.10"], 6)).status, 201, "another client is not");
});

t.test("two registrations from one IPv6 /64 count as one address", async (t) => {
  const h = await startHarness({ env: { TRUST_PROXY: "127.0.0.1" } });
  t.teardown(() => h.close());
  for (let i = 0; i < 5; i++) t.equal((await registration(h.service.port, [`2001:db8:7:8::${(i + 1).toString(16)}`], i)).status, 201);
  t.equal((await registration(h.service.port, ["2001:db8:7:8:ffff:1:2:3"], 5)).status, 429, "another host of the same /64 is the same client");
  t.equal((await registration(h.service.port, ["2001:db8:7:9::1"], 6)).status, 201, "the next /64 is another client");
  const wide = await startHarness({ env: { TRUST_PROXY: "127.0.0.1", IPV6_PREFIX: "128" } });
  t.teardown(() => wide.close());
  for (let i = 0; i < 6; i++) t.equal((await registration(wide.service.port, [`2001:db8:7:8::${(i + 1).toString(16)}`], i)).status, 201, "IPV6_PREFIX=128 counts each address");
});

t.test("a crafted address cannot share a victim's slot: slots follow a secret drawn at start", async (t) => {
  // What an attacker could compute offline (with a hash they can evaluate) are pairs that collide.
  const known = new TokenBuckets(0, 65_536);
  const pairs: [string, string][] = [];
  const seen = new Map<number, string>();
  for (let i = 0; pairs.length < 8; i++) {
    const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const slot = known.addressSlot(address);
    const other = seen.get(slot);
    if (other !== undefined) pairs.push([other, address]);
    else seen.set(slot, address);
  }
  // On a running server (another secret) those pairs no longer collide.
  const running = new TokenBuckets(0, 65_536);
  const stillColliding = pairs.filter(([a, b]) => running.addressSlot(a) === running.addressSlot(b)).length;
  t.ok(stillColliding <= 1, `${stillColliding} of ${pairs.length} crafted pairs still share a slot`);
});

t.test("registration refuses control and invisible characters with 400 naming the field", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (const [body, path] of [
    [{ email: "a@b.co", name: "x\u001b[2J" }, "/name"],
    [{ email: "a\u200b@b.co", name: "x" }, "/email"],
    [{ email: "a@b.co", name: "x", purpose: "one\ntwo" }, "/purpose"],
  ] as const) {
    const response = await fetch(`${h.base}/api/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    t.equal(response.status, 400, path);
    const answer = (await response.json()) as any;
    t.equal(answer.error.code, "VALIDATION_ERROR");
    t.same(answer.error.details.errors.map((e: any) => e.path), [path]);
  }
});
