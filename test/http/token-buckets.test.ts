import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import t from "tap";
import ts from "typescript";
import { ADDRESS_POLICY, KEY_POLICY, rateLimitLines, refillPerMs, TokenBuckets } from "../../src/http/token-buckets.js";

const T0 = 1_740_000_000_000; // an arbitrary wall-clock instant, in ms
const KEY_RATE = refillPerMs(KEY_POLICY.capacity, KEY_POLICY.windowSeconds);
const ADDRESS_RATE = refillPerMs(ADDRESS_POLICY.capacity, ADDRESS_POLICY.windowSeconds);

t.test("the policies are 500 an hour per key and 60 a minute per address", async (t) => {
  t.same(KEY_POLICY, { capacity: 500, windowSeconds: 3600 });
  t.same(ADDRESS_POLICY, { capacity: 60, windowSeconds: 60 });
  t.equal(1 / KEY_RATE, 7200, "one key token every 7.2 s");
  t.equal(1 / ADDRESS_RATE, 1000, "one address token every second");
});

t.test("a fresh bucket allows exactly capacity takes, then refuses until the next token", async (t) => {
  const buckets = new TokenBuckets(4, 4);
  const remaining: number[] = [];
  for (let i = 0; i < 500; i++) {
    const result = buckets.take(2, 500, KEY_RATE, T0);
    if (!result.isAllowed) t.fail(`take ${i + 1} refused`);
    remaining.push(result.remaining);
  }
  t.equal(remaining[0], 499);
  t.equal(remaining.at(-1), 0);
  t.same(buckets.take(2, 500, KEY_RATE, T0), { isAllowed: false, remaining: 0, resetSeconds: 3600, retryAfterSeconds: 8 });
  t.equal(buckets.take(1, 500, KEY_RATE, T0).remaining, 499, "other slots are untouched");
});

t.test("retryAfterSeconds is the time to one whole token, rounded up, at least 1", async (t) => {
  const buckets = new TokenBuckets(0, 1);
  for (let i = 0; i < 60; i++) buckets.take(0, 60, ADDRESS_RATE, T0);
  t.equal(buckets.take(0, 60, ADDRESS_RATE, T0).retryAfterSeconds, 1);
  t.equal(buckets.take(0, 60, ADDRESS_RATE, T0 + 999).retryAfterSeconds, 1, "0.001 s away still says 1");
  const keyed = new TokenBuckets(1, 1);
  for (let i = 0; i < 500; i++) keyed.take(0, 500, KEY_RATE, T0);
  t.equal(keyed.take(0, 500, KEY_RATE, T0 + 3000).retryAfterSeconds, 5, "4.2 s to go → 5");
  t.equal(keyed.take(0, 500, KEY_RATE, T0 + 7000).retryAfterSeconds, 1, "0.2 s to go → 1");
});

t.test("refill is continuous: 7.2 s after emptying, one token is back for 500 an hour", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  for (let i = 0; i < 500; i++) buckets.take(0, 500, KEY_RATE, T0);
  t.equal(buckets.take(0, 500, KEY_RATE, T0 + 7199).isAllowed, false, "not yet at 7.199 s");
  const back = buckets.take(0, 500, KEY_RATE, T0 + 7200);
  t.equal(back.isAllowed, true);
  t.equal(back.remaining, 0);
  t.equal(buckets.take(0, 500, KEY_RATE, T0 + 7200).isAllowed, false, "and only one");
  t.equal(buckets.take(0, 500, KEY_RATE, T0 + 7200 + 36_000).remaining, 4, "36 s later five more, one taken");
});

t.test("refill never goes past capacity", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  buckets.take(0, 500, KEY_RATE, T0);
  const result = buckets.take(0, 500, KEY_RATE, T0 + 10 * 3_600_000);
  t.same(result, { isAllowed: true, remaining: 499, resetSeconds: 8, retryAfterSeconds: 0 });
});

t.test("resetSeconds counts the time until the bucket is full again", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  t.equal(buckets.peek(0, 500, KEY_RATE, T0).resetSeconds, 0, "fresh is full");
  t.equal(buckets.take(0, 500, KEY_RATE, T0).resetSeconds, 8, "one token short: 7.2 s → 8");
  for (let i = 0; i < 9; i++) buckets.take(0, 500, KEY_RATE, T0);
  t.equal(buckets.peek(0, 500, KEY_RATE, T0).resetSeconds, 72, "ten tokens short: exactly 72 s");
});

t.test("a clock that steps backwards never credits the same time twice", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  for (let i = 0; i < 60; i++) buckets.take(0, 60, ADDRESS_RATE, T0);
  t.equal(buckets.take(0, 60, ADDRESS_RATE, T0 + 1000).isAllowed, true);
  t.equal(buckets.take(0, 60, ADDRESS_RATE, T0 + 500).isAllowed, false, "earlier time: nothing new");
  t.equal(buckets.take(0, 60, ADDRESS_RATE, T0 + 1000).isAllowed, false, "back to the same time: still nothing new");
});

t.test("peek reports the same numbers as a take without taking", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  buckets.take(0, 60, ADDRESS_RATE, T0);
  const peeked = buckets.peek(0, 60, ADDRESS_RATE, T0);
  t.same(peeked, { isAllowed: true, remaining: 59, resetSeconds: 1, retryAfterSeconds: 0 });
  t.same(buckets.peek(0, 60, ADDRESS_RATE, T0), peeked, "peeking twice changes nothing");
  for (let i = 0; i < 59; i++) buckets.take(0, 60, ADDRESS_RATE, T0);
  t.same(buckets.peek(0, 60, ADDRESS_RATE, T0), { isAllowed: false, remaining: 0, resetSeconds: 60, retryAfterSeconds: 1 });
});

t.test("refund gives one token back and never more than capacity", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  t.equal(buckets.take(0, 500, KEY_RATE, T0).remaining, 499);
  t.equal(buckets.take(0, 500, KEY_RATE, T0).remaining, 498);
  buckets.refund(0, 500);
  t.equal(buckets.peek(0, 500, KEY_RATE, T0).remaining, 499);
  buckets.refund(0, 500);
  buckets.refund(0, 500);
  t.equal(buckets.peek(0, 500, KEY_RATE, T0).remaining, 500, "capped at capacity");
  t.equal(buckets.take(0, 500, KEY_RATE, T0).remaining, 499);

  buckets.refund(1, 60);
  t.equal(buckets.take(1, 60, ADDRESS_RATE, T0).remaining, 59, "refund on a never-used slot leaves it full, not at 1");
});

t.test("two sets of views over one SharedArrayBuffer see the same buckets", async (t) => {
  const first = new TokenBuckets(2, 8);
  const second = new TokenBuckets(2, 8, first.buffer);
  t.equal(second.buffer, first.buffer);
  for (let i = 0; i < 30; i++) first.take(1, 60, ADDRESS_RATE, T0);
  for (let i = 0; i < 30; i++) second.take(1, 60, ADDRESS_RATE, T0);
  t.equal(first.take(1, 60, ADDRESS_RATE, T0).isAllowed, false, "60 between them, whichever view took them");
  second.refund(1, 60);
  t.equal(first.take(1, 60, ADDRESS_RATE, T0).isAllowed, true, "a refund through one view is seen by the other");
  t.equal(first.addressSlot("192.0.2.7"), second.addressSlot("192.0.2.7"));
});

t.test("a buffer made for other address slots and a slot out of range are refused", async (t) => {
  const buckets = new TokenBuckets(2, 3);
  t.equal(buckets.buffer.byteLength, TokenBuckets.byteLength(2, 3));
  t.throws(() => new TokenBuckets(2, 4, buckets.buffer), RangeError);
  t.throws(() => new TokenBuckets(2, 0), RangeError);
  t.throws(() => buckets.take(5, 60, ADDRESS_RATE, T0), RangeError);
  t.throws(() => buckets.take(-1, 60, ADDRESS_RATE, T0), RangeError);
  t.throws(() => buckets.refund(1.5, 60), RangeError);
});

t.test("every key record gets its own bucket: the buffer grows with the store, seen by every view", async (t) => {
  const first = new TokenBuckets(4, 2);
  const second = new TokenBuckets(4, 2, first.buffer);
  const slots = new Set<number>();
  for (let index = 0; index < 10_000; index++) slots.add(first.keySlot(index));
  t.equal(slots.size, 10_000, "no two records share a slot");
  t.ok(first.keySlots >= 10_000 && second.keySlots === first.keySlots, "the other view sees the grown buffer");
  const late = second.keySlot(9_999);
  for (let i = 0; i < 500; i++) second.take(late, 500, KEY_RATE, T0);
  t.equal(first.take(late, 500, KEY_RATE, T0).isAllowed, false, "the 10,000th key's bucket is one bucket across views");
  t.equal(first.take(first.keySlot(9_999 - 4096), 500, KEY_RATE, T0).remaining, 499, "and not the one 4,096 records earlier");
});

t.test("address slots come from a keyed hash: stable, spread, and different under another secret", async (t) => {
  const buckets = new TokenBuckets(100, 64);
  const other = new TokenBuckets(100, 64);
  const shared = new TokenBuckets(100, 64, buckets.buffer);
  const slots = new Set<number>();
  let differs = 0;
  for (let i = 0; i < 1000; i++) {
    const address = `10.0.${i >> 8}.${i & 255}`;
    const slot = buckets.addressSlot(address);
    if (slot < 0 || slot >= 64) t.fail(`${address} → ${slot} is outside 0..63`);
    if (buckets.addressSlot(address) !== slot || shared.addressSlot(address) !== slot) t.fail(`${address} is not stable`);
    if (other.addressSlot(address) !== slot) differs++;
    slots.add(slot);
  }
  t.ok(slots.size > 56, `1000 addresses spread over ${slots.size} of 64 slots`);
  t.ok(differs > 900, `another secret places ${differs} of 1000 elsewhere`);
});

t.test("rate-limit headers carry the exact values", async (t) => {
  const nowMs = 1_740_000_000_250;
  const lines = rateLimitLines({ isAllowed: true, remaining: 499, resetSeconds: 8, retryAfterSeconds: 0 }, 500, 3600, "free", nowMs);
  t.equal(lines, [
    "",
    "X-RateLimit-Limit: 500",
    "X-RateLimit-Remaining: 499",
    // docs/compatibility.md#fidelity-rules: an ISO 8601 time (it was Unix seconds, 1740000009); t= keeps the seconds.
    "X-RateLimit-Reset: 2025-02-19T21:20:09.000Z",
    'RateLimit-Policy: "free";q=500;w=3600',
    'RateLimit: "free";r=499;t=8',
  ].join("\r\n"));
  const full = rateLimitLines({ isAllowed: true, remaining: 60, resetSeconds: 0, retryAfterSeconds: 0 }, 60, 60, "address", 1_740_000_000_000).split("\r\n");
  t.equal(full[3], "X-RateLimit-Reset: 2025-02-19T21:20:00.000Z", "a full bucket resets now");
  t.equal(full[5], 'RateLimit: "address";r=60;t=0');
});

t.test("worker threads hammering one shared bucket together get exactly capacity tokens", async (t) => {
  const buckets = new TokenBuckets(1, 1);
  // Workers do not inherit tap's TypeScript loader, so they get the module transpiled here, as a
  // data: URL (it imports nothing, so it loads standalone): the same code the test imports.
  const typescript = readFileSync(new URL("../../src/http/token-buckets.ts", import.meta.url), "utf8");
  const javascript = ts.transpileModule(typescript, { compilerOptions: { target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.ESNext } }).outputText;
  const moduleUrl = `data:text/javascript;base64,${Buffer.from(javascript).toString("base64")}`;
  // Each worker races for the same slot; without the lock, lost updates would let more than 1000 through.
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    import(workerData.moduleUrl).then(({ TokenBuckets }) => {
      const buckets = new TokenBuckets(1, 1, workerData.buffer);
      const flag = new Int32Array(workerData.start);
      Atomics.wait(flag, 0, 0);
      let allowed = 0;
      for (let i = 0; i < 2000; i++) if (buckets.take(0, 1000, 1e-9, ${T0}).isAllowed) allowed++;
      parentPort.postMessage(allowed);
    });`;
  const start = new SharedArrayBuffer(4);
  const workers = Array.from({ length: 4 }, () => new Worker(source, { eval: true, workerData: { moduleUrl, buffer: buckets.buffer, start } }));
  let totals: number[];
  try {
    const results = workers.map(
      (worker) =>
        new Promise<number>((resolve, reject) => {
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    Atomics.store(new Int32Array(start), 0, 1);
    Atomics.notify(new Int32Array(start), 0);
    totals = await Promise.all(results);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  t.equal(
    totals.reduce((sum, n) => sum + n, 0),
    1000,
    `allowed per worker: ${totals.join(", ")}`,
  );
});
