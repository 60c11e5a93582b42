// Three replicas (separate processes of dist/server/main.js, two workers each) on one real redis-server,
// behind a client that spreads its connections over them: limits, revocations and an outage.
import t from "tap";
import type { ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { fixtureEditions } from "../http/harness.js";
import { freePort, redisMissing, startRedis, type RedisServer } from "../fixtures/redis-server.js";
import { spawnServer } from "../fixtures/server-process.js";
import { createKey } from "../../src/keys/key-operations.js";
import { USAGE_PATH } from "../../src/http/routes/keys.js";
import { mustConnect } from "../fixtures/live-client.js";

const REPLICAS = 3;
const CONNECTIONS = 200;
/**
 * The longest wait for a change to reach the other replicas (a key through the change feed, usage
 * through the quarter-second batches): far past what they take (milliseconds), so only a change that
 * never arrives fails, never a slow machine.
 */
const PROPAGATION_DEADLINE_MS = 30_000;
/**
 * The pause before usage read `attempt + 1`: doubling from 50 ms up to 2 s, so that even a wait to
 * the deadline reads at most ~20 times, under the usage route's owner limit (OWNER_POLICY: 30 a
 * minute), whose refusals would read as no usage at all.
 */
const readPause = (attempt: number) => Math.min(2_000, 50 * 2 ** attempt);

interface Replica {
  readonly port: number;
  readonly metricsPort: number;
  readonly child: ChildProcess;
  readonly agent: Agent;
  output(): string;
  exited: Promise<number | null>;
}

interface Answer { status: number; body: string; error?: string }

function get(agent: Agent, port: number, path: string, headers: Record<string, string> = {}, method = "GET", body?: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent, headers, method }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => { body += chunk; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("aborted", () => resolve({ status: -1, body, error: "aborted mid-response" }));
      res.on("error", (error) => resolve({ status: -1, body, error: error.message }));
    });
    req.on("error", (error) => resolve({ status: 0, body: "", error: error.message }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startReplica(env: Record<string, string>, connections: number): Promise<Replica> {
  const port = await freePort();
  const metricsPort = await freePort();
  const { child, output, exited } = spawnServer({ LOG_LEVEL: "warn", WORKERS: "2", PORT: String(port), METRICS_PORT: String(metricsPort), ...env });
  return { port, metricsPort, child, agent: new Agent({ keepAlive: true, maxSockets: connections }), output, exited };
}

async function waitReady(replica: Replica, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(`http://127.0.0.1:${replica.port}/ready`)).status === 200) return;
    } catch { /* not listening yet */ }
    await sleep(50);
  }
  throw new Error(`replica on ${replica.port} did not become ready: ${replica.output().slice(-800)}`);
}

/** Workers of one replica by Redis state, from its metrics. */
async function redisWorkers(replica: Replica): Promise<{ shared: number; local: number }> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${replica.metricsPort}/metrics`)).text();
    const count = (state: string) => Number(new RegExp(`courtside_redis_workers\\{state="${state}"\\} (\\d+)`).exec(text)?.[1] ?? "0");
    return { shared: count("shared"), local: count("local") };
  } catch {
    return { shared: 0, local: 0 };
  }
}

// Boots three processes and holds a 10 s outage: well past tap's default 30 s per file.
t.setTimeout(240_000);
const missing = redisMissing();
if (missing !== undefined) {
  t.test("three replicas on one Redis", { skip: missing }, () => {});
} else {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  for (const source of fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const keysFile = join(dir, "keys.json");
  const now = new Date();
  const free = createKey(keysFile, { email: "free@example.com", now }).key;
  const busy = createKey(keysFile, { email: "busy@example.com", now, rateLimit: 1_000_000_000 }).key;
  const doomed = createKey(keysFile, { email: "doomed@example.com", now, rateLimit: 1_000_000_000 }).key;
  const after = createKey(keysFile, { email: "after@example.com", now, rateLimit: 30 }).key;
  const watched = createKey(keysFile, { email: "watched@example.com", now, rateLimit: 1_000_000 }).key;

  let redis: RedisServer;
  const replicas: Replica[] = [];
  t.before(async () => {
    redis = await startRedis();
    // The first replica seeds Redis from the keys file; the others find it there.
    const env = { DATA_DIR: dataDir, KEYS_FILE: keysFile, REDIS_URL: redis.url };
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startReplica(env, Math.ceil(CONNECTIONS / REPLICAS)));
    await Promise.all(replicas.map((replica) => waitReady(replica)));
  });
  t.teardown(async () => {
    for (const replica of replicas) {
      replica.agent.destroy();
      replica.child.kill("SIGKILL");
    }
    await redis.stop();
  });

  /** Request `i` goes to replica i mod 3, each over its own pool of connections (200 in all). */
  const spread = (i: number, path: string, key: string) => {
    const replica = replicas[i % REPLICAS] as Replica;
    return get(replica.agent, replica.port, path, { "x-api-key": key });
  };

  t.test("a 500-an-hour key gets exactly 500 answers over 200 connections to three replicas, then 429s", async (t) => {
    const results = await Promise.all(Array.from({ length: 700 }, (_, i) => spread(i, "/api/teams", free)));
    const counts = new Map<number, number>();
    for (const result of results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
    t.equal(counts.get(200), 500, `accepted (${JSON.stringify([...counts])})`);
    t.equal(counts.get(429), 200, "the rest refused");
    // No replica still holds a token: each refuses the next request too.
    const next = await Promise.all(replicas.map((_, i) => spread(i, "/api/teams", free)));
    t.same(next.map((result) => result.status), [429, 429, 429]);
    const refused = results.find((result) => result.status === 429);
    t.match(JSON.parse(refused?.body ?? "{}"), { error: { code: "RATE_LIMIT_EXCEEDED", details: { limit: 500 } } });
  });

  /** A request to one replica (not spread). */
  const on = (i: number, method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const replica = replicas[i] as Replica;
    return get(replica.agent, replica.port, path, { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) }, method, body);
  };

  t.test("a key registered through one replica works on the others; its usage counts every replica's requests", async (t) => {
    const registered = await on(0, "POST", "/api/register", {}, JSON.stringify({ email: "replicas@example.com", name: "replicas test" }));
    t.equal(registered.status, 201, registered.body);
    const { apiKey } = JSON.parse(registered.body).data;
    // Requests answered 200 with the key: each is counted in its usage (a 401 is not, the key being unknown there).
    let answered = 0;
    // The other replicas learn of the key from Redis's change feed, not from the registering request:
    // within milliseconds (docs/replicas.md), longer on a loaded machine. Wait for each to accept it;
    // the deadline only ends a wait that would never succeed.
    for (let i = 0; i < REPLICAS; i++) {
      const started = Date.now();
      let status = 0;
      for (;;) {
        status = (await on(i, "GET", "/api/teams", { "x-api-key": apiKey })).status;
        if (status === 200 || Date.now() - started > PROPAGATION_DEADLINE_MS) break;
        await sleep(20);
      }
      if (status === 200) answered += 1;
      t.equal(status, 200, `replica ${i} accepts the new key`);
      t.comment(`replica ${i} accepted the new key after ${Date.now() - started} ms`);
    }
    for (let i = 0; i < 9; i++) {
      const { status } = await spread(i, "/api/teams", apiKey);
      if (status === 200) answered += 1;
      t.equal(status, 200, `request ${i} on replica ${i % REPLICAS}`);
    }
    // Usage goes to Redis in batches (every quarter second, per worker of each replica): read it from
    // the third replica until every request above is in. Each read is counted too (after it is
    // answered), so the total a read can see is at most `answered` plus the reads before it, and it
    // is exactly that once everything is written: wait for that, not for a fixed time.
    let usage: { totalRequests: number; recentRequests: { endpoint: string; method: string; statusCode: number }[] } | undefined;
    let earlierReads = 0;
    const readStarted = Date.now();
    for (;;) {
      usage = JSON.parse((await on(2, "GET", "/api/dashboard/usage", { "x-api-key": apiKey })).body).data;
      if ((usage?.totalRequests ?? 0) >= answered + earlierReads || Date.now() - readStarted > PROPAGATION_DEADLINE_MS) break;
      await sleep(readPause(earlierReads));
      earlierReads += 1;
    }
    t.comment(`usage complete on replica 2 after ${Date.now() - readStarted} ms and ${earlierReads} earlier reads`);
    t.equal(usage?.totalRequests, answered + earlierReads, `usage seen from replica 2 counts the ${answered} requests on every replica and the ${earlierReads} reads before it`);
    const recent = usage?.recentRequests ?? [];
    t.equal(recent.length, Math.min(10, usage?.totalRequests ?? 0), "the last ten at most, from every replica");
    t.same(recent.filter((entry) => entry.method !== "GET" || entry.statusCode !== 200 || (entry.endpoint !== "/api/teams" && entry.endpoint !== USAGE_PATH)), [], "each one of this key's requests");
    // The newest ten in the order the workers wrote them (a read written by replica 2 may come after
    // another replica's later batch): at most `earlierReads` of them are reads, the rest /api/teams.
    const teams = recent.filter((entry) => entry.endpoint === "/api/teams").length;
    t.ok(teams >= recent.length - earlierReads, `${teams} of the last ${recent.length} are /api/teams`);
  });

  t.test("a key revoked through one replica is refused by the other two as soon as Redis's change feed reaches them", async (t) => {
    for (let i = 0; i < REPLICAS; i++) t.equal((await spread(i, "/api/teams", doomed)).status, 200, `replica ${i} serves the key`);
    const revoked = await on(0, "DELETE", "/api/keys/current", { "x-api-key": doomed });
    t.equal(revoked.status, 200, revoked.body);
    const revokedAt = performance.now();
    const waits = await Promise.all([1, 2].map(async (i) => {
      // Until this replica refuses it on both of its workers (two refusals in a row over fresh requests).
      // Milliseconds (the comments below print them; bench/README.md "Several replicas"); the deadline
      // only ends a wait for a change that never arrives (there is no periodic refresh to fall back on).
      let refusalsInRow = 0;
      while (refusalsInRow < 4 && performance.now() - revokedAt < PROPAGATION_DEADLINE_MS) {
        const { status } = await spread(i, "/api/teams", doomed);
        refusalsInRow = status === 401 ? refusalsInRow + 1 : 0;
      }
      return { refusalsInRow, delay: performance.now() - revokedAt };
    }));
    for (const [n, { refusalsInRow, delay }] of waits.entries()) {
      t.equal(refusalsInRow, 4, `replica ${n + 1} refuses the revoked key on both workers`);
      t.comment(`revoked on one side, refused by replica ${n + 1} ${delay.toFixed(1)} ms later`);
    }
  });

  t.test("a key revoked through one replica loses its live sockets on the other two (4401), through Redis's change feed", async (t) => {
    // Two sockets per replica: with two workers each, most likely on both of its workers.
    const where = [1, 2, 1, 2];
    const sockets = [];
    for (const i of where) sockets.push(await mustConnect(`ws://127.0.0.1:${(replicas[i] as Replica).port}/api/live`, watched));
    const bystander = await mustConnect(`ws://127.0.0.1:${(replicas[1] as Replica).port}/api/live`, busy);
    const revoked = await on(0, "DELETE", "/api/keys/current", { "x-api-key": watched });
    t.equal(revoked.status, 200, revoked.body);
    for (const [n, socket] of sockets.entries()) {
      const closed = await socket.closed;
      // Otherwise what its replica logged says why (a worker that died drops its sockets: 1006).
      const replica = replicas[where[n] as number] as Replica;
      t.match(closed, { code: 4401 }, "closed on the replica that did not revoke it", closed.code === 4401 ? {} : { processLog: replica.output().slice(-3_000) });
    }
    bystander.send({ subscribe: ["all"] });
    t.match(await bystander.next((message) => message.type === "subscribed"), { type: "subscribed" }, "another key's socket stays open");
    bystander.close();
    await bystander.closed;
  });

  t.test("the registration limit is per replica (docs/replicas.md says why): five an hour per address on each", async (t) => {
    const register = (i: number, n: number) => on(i, "POST", "/api/register", {}, JSON.stringify({ email: `per-replica-${i}-${n}@example.com`, name: `per replica ${n}` }));
    for (let n = 0; n < 5; n++) t.equal((await register(1, n)).status, 201, `replica 1: registration ${n + 1}`);
    const refused = await register(1, 5);
    t.equal(refused.status, 429, "replica 1: the sixth is refused");
    t.match(refused.body, /REGISTRATION_RATE_LIMIT/);
    t.equal((await register(2, 0)).status, 201, "replica 2 counts its own");
  });

  t.test("Redis stopped under load for 10 s: no request fails, /ready says degraded, limits shared again within 10 s of its return", async (t) => {
    const results: (Answer & { at: number })[] = [];
    let isRunning = true;
    const loops = Array.from({ length: 30 }, async (_, i) => {
      while (isRunning) results.push({ ...await spread(i, "/api/players?limit=5", busy), at: Date.now() });
    });
    await sleep(500);
    await redis.stop();
    const stoppedAt = Date.now();
    // Every replica notices and says so, still answering 200.
    const degraded = await Promise.all(replicas.map(async (replica) => {
      for (;;) {
        const response = await get(replica.agent, replica.port, "/ready");
        const body = JSON.parse(response.body);
        if (body.data?.redis?.status === "degraded" || Date.now() - stoppedAt > 5_000) return { status: response.status, body };
        await sleep(20);
      }
    }));
    for (const { status, body } of degraded) {
      t.equal(status, 200, "/ready stays 200");
      t.match(body.data.redis, { status: "degraded", detail: /redis unreachable/ });
    }
    // Keys cannot be written where the other replicas would not see them: registration waits for Redis.
    // On replica 2: the per-replica test before used up replica 1's registrations for this address.
    const refused = await on(2, "POST", "/api/register", {}, JSON.stringify({ email: "outage@example.com", name: "during the outage" }));
    t.equal(refused.status, 503, refused.body);
    t.match(JSON.parse(refused.body), { error: { code: "SERVICE_UNAVAILABLE" } });
    while (Date.now() - stoppedAt < 10_000) await sleep(100);
    const metricsDuring = await Promise.all(replicas.map(redisWorkers));
    t.same(metricsDuring, replicas.map(() => ({ shared: 0, local: 2 })), "metrics: every worker answering alone");
    await redis.start();
    const backAt = Date.now();
    let isShared = false;
    while (!isShared && Date.now() - backAt < 10_000) {
      isShared = (await Promise.all(replicas.map(redisWorkers))).every((workers) => workers.shared === 2);
      if (!isShared) await sleep(50);
    }
    const sharedAfter = Date.now() - backAt;
    t.ok(isShared, `every worker of every replica shared again ${sharedAfter} ms after Redis returned`);
    t.comment(`shared again ${sharedAfter} ms after Redis returned`);
    isRunning = false;
    await Promise.all(loops);
    const failed = results.filter((result) => result.status !== 200);
    t.ok(results.length > 100, `${results.length} requests under load`);
    t.same(failed.slice(0, 5), [], `no request failed (${failed.length} of ${results.length})`);
    // Usage counted during the outage reached Redis once it was back. What was written to Redis before
    // it stopped died with it (this Redis keeps nothing on disk); everything counted after is there.
    const sinceStop = results.filter((result) => result.at >= stoppedAt).length;
    let total = 0;
    let reads = 0;
    const readStarted = Date.now();
    for (;;) {
      total = JSON.parse((await on(0, "GET", "/api/dashboard/usage", { "x-api-key": busy })).body).data?.totalRequests ?? 0;
      if (total >= sinceStop || Date.now() - readStarted > PROPAGATION_DEADLINE_MS) break;
      await sleep(readPause(reads++));
    }
    // The reads before the last are counted too (the usage route is keyed), hence `+ reads` at most.
    t.ok(total >= sinceStop && total <= results.length + reads, `usage counted during the outage is all in Redis (${total}; ${sinceStop} requests since Redis stopped, ${results.length} in all, ${reads} earlier reads)`);
    // Shared again: a 30-an-hour key gets 30 answers across all three, not 30 each.
    const limited = await Promise.all(Array.from({ length: 60 }, (_, i) => spread(i, "/api/teams", after)));
    t.equal(limited.filter((result) => result.status === 200).length, 30, "30 across the replicas");
  });

  t.test("each worker logged Redis going away once; SIGTERM still exits 0", async (t) => {
    for (const replica of replicas) {
      replica.child.kill("SIGTERM");
      t.equal(await replica.exited, 0, "exit code");
      // Logs are buffered; after the drain they are all out.
      const lines = replica.output().split("\n").filter((line) => line.includes("redis unreachable"));
      const workers = new Set(lines.map((line) => Number(/"worker":(\d+)/.exec(line)?.[1])));
      t.same([...workers].sort(), [0, 1], "each worker said Redis went away");
      // Once per change of state, not per failed command: tens of thousands of requests ran meanwhile.
      // (A contended machine may time out a command and count one more change.)
      t.ok(lines.length >= 2 && lines.length <= 4, `${lines.length} lines for one outage over two workers`);
    }
  });
}
