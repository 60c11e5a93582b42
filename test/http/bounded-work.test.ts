import t from "tap";
import { startHarness } from "./harness.js";
import { LENGTH_LIMITS } from "../../src/query/limits.js";

// The service runs in this process: process.cpuUsage() around a request counts its whole cost
// (client and server), and a request that blocks the loop blocks the second client's too.
// Request heads up to 256 KiB (MAX_HEADERS_KB; 16 by default, and a longer head is a 431 before any
// handler runs): what is measured here is the handlers' own bounds on a 120 KB slug.
const h = await startHarness({ env: { MAX_HEADERS_KB: "256" } });
t.teardown(() => h.close());

const post = (body: unknown) =>
  fetch(`${h.base}/api/players/batch`, { method: "POST", headers: { "x-api-key": h.key, "content-type": "application/json" }, body: JSON.stringify(body) });

async function cpuMsOf<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(before);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * The least of three tries: a garbage collection or a busy neighbour may land in any one of them,
 * but a request whose own work is over a bound is over it every time.
 */
async function leastCpuMsOf<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  let least = await cpuMsOf(work);
  for (let attempt = 1; attempt < 3; attempt++) {
    const next = await cpuMsOf(work);
    if (next.cpuMs < least.cpuMs) least = next;
  }
  return least;
}

/** Letters only, so nothing is a real slug (the fixture's names are letters and hyphens too, but never this long). */
function unknownSlug(length: number, seed: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += i % 9 === 8 ? "-" : String.fromCharCode(97 + ((seed * 31 + i * 17) % 26));
  return text;
}

/** p99 of a second client's requests while `during` runs (or at rest). */
async function secondClientP99(during: () => Promise<unknown>): Promise<number> {
  const latencies: number[] = [];
  let isRunning = true;
  const client = (async () => {
    while (isRunning || latencies.length < 40) {
      const started = performance.now();
      const response = await h.get("/api/players?limit=1");
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
    }
  })();
  await during();
  isRunning = false;
  await client;
  latencies.sort((a, b) => a - b);
  return latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] as number;
}

/**
 * uWS sometimes resets a connection whose request head nears its bound (~128 KiB) instead of
 * reading it (refused, never served: test/ops/hostile.test.ts); a fresh connection is then tried.
 */
async function jsonOrRetry(path: string): Promise<{ status: number; body: any }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await h.json(path, { connection: "close" });
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

t.test("a 120 KB slug is a 400 naming the limit, answered within 50 ms of CPU", async (t) => {
  const slug = "a".repeat(120 * 1024);
  const paths = [`/api/players/slug/${slug}`, `/api/players/${slug}/history`, `/api/players/${slug}/versions`, `/api/players/${slug}/attribute/speed`, `/api/versions/2K27/players/${slug}`, `/api/teams/${slug}/roster`, `/api/badges/${slug}`];
  // Each route once at a plausible length first: its first call compiles validators and warms the JIT.
  for (const path of paths) await h.get(path.replace(slug, "no-such-player")).then((r) => r.arrayBuffer());
  for (const path of paths) {
    const { value: response, cpuMs } = await leastCpuMsOf(() => jsonOrRetry(path));
    t.equal(response.status, 400, path.slice(0, 40));
    t.equal(response.body.error.details.limit, LENGTH_LIMITS.pathSegment);
    t.match(response.body.error.message, `limit of ${LENGTH_LIMITS.pathSegment} characters`);
    t.ok(cpuMs < 50, `${path.slice(0, 30)}…: ${cpuMs.toFixed(1)} ms of CPU`);
  }
});

t.test("a batch of 100 long unknown slugs answers within 50 ms of CPU, each unmatched", async (t) => {
  await post({ slugs: ["warm-up"] }).then((r) => r.arrayBuffer()); // compiles the body validator
  const slugs = Array.from({ length: 100 }, (_, i) => unknownSlug(LENGTH_LIMITS.identifier, i));
  const { value: response, cpuMs } = await leastCpuMsOf(() => post({ slugs }));
  t.equal(response.status, 200);
  const body = await response.json() as any;
  t.equal(body.meta.unmatched.length, 100);
  t.ok(cpuMs < 50, `${cpuMs.toFixed(1)} ms of CPU`);
  // Slugs of plausible length do get suggestions, still bounded (a name search each, never every slug).
  const plausible = Array.from({ length: 100 }, (_, i) => unknownSlug(30, i));
  const second = await leastCpuMsOf(() => post({ slugs: plausible }));
  t.equal(second.value.status, 200);
  t.ok(second.cpuMs < 100, `plausible lengths: ${second.cpuMs.toFixed(1)} ms of CPU`);
});

t.test("identifiers, parameter names and values past their limits are 400s naming the limit", async (t) => {
  // docs/compatibility.md#fidelity-rules: the hosted service answers an over-long batch identifier, so it is unmatched as
  // not_found (it was a 400), never looked up: its work stays bounded by the same limit.
  const tooLong = await post({ slugs: ["a".repeat(LENGTH_LIMITS.identifier + 1)] });
  t.equal(tooLong.status, 200);
  t.same((await tooLong.json() as any).meta.unmatched, [{ query: "a".repeat(LENGTH_LIMITS.identifier), reason: "not_found" }]);
  const name = await h.json(`/api/players?${"n".repeat(LENGTH_LIMITS.parameterName + 1)}=1`);
  t.equal(name.status, 400);
  t.equal(name.body.error.details.limit, LENGTH_LIMITS.parameterName);
  const value = await h.json(`/api/players?team=${"v".repeat(LENGTH_LIMITS.parameterValue + 1)}`);
  t.equal(value.status, 400);
  t.equal(value.body.error.details.limit, LENGTH_LIMITS.parameterValue);
  t.equal(value.body.error.details.parameter, "team");
  // At the limit a name is still only an unknown parameter, with no suggestion computed past plausibility.
  const atLimit = await h.json(`/api/players?${"n".repeat(LENGTH_LIMITS.parameterName)}=1`);
  t.equal(atLimit.status, 400);
  t.equal(atLimit.body.error.code, "UNKNOWN_PARAMETERS");
});

t.test("a second client keeps its usual latency while hostile requests arrive", async (t) => {
  const atRest = await secondClientP99(() => new Promise((resolve) => setTimeout(resolve, 300)));
  const hostile = await secondClientP99(async () => {
    for (let round = 0; round < 5; round++) {
      await jsonOrRetry(`/api/players/slug/${"b".repeat(120 * 1024)}`);
      await post({ slugs: Array.from({ length: 100 }, (_, i) => unknownSlug(LENGTH_LIMITS.identifier, round * 100 + i)) }).then((r) => r.arrayBuffer());
      await post({ slugs: Array.from({ length: 100 }, (_, i) => unknownSlug(30, round * 100 + i)) }).then((r) => r.arrayBuffer());
    }
  });
  // Generous: a busy shared machine; the old code blocked it for seconds.
  t.ok(hostile < Math.max(100, atRest * 5), `p99 ${hostile.toFixed(1)} ms under hostile requests vs ${atRest.toFixed(1)} ms at rest`);
});
