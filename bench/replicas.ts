// Several replicas' cost on one replica: mix (a) against Courtside alone and against Courtside with
// REDIS_URL (keys from Redis's store, key buckets leased from Redis), in one run, interleaved.
// Each server is its own process pinned to core 0 (WORKERS=1); wrk and redis-server share core 1.
// Also counts the Redis calls the run made, to show the leases at work.
//
// Usage: npm run bench:replicas [-- --duration 3 --repeats 5 --connections 64 --no-readme]

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { runWrk, startPinned, stopPinned, waitForHttp, type PinnedProcess, type WrkResult } from "./pinned.js";
import { machine, median, table, today, writeResults, writeSection } from "./report.js";
import { createKey } from "../src/keys/key-operations.js";

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    repeats: { type: "string", default: "5" },
    connections: { type: "string", default: "64" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" },
    "port-base": { type: "string", default: "3140" },
    "no-readme": { type: "boolean", default: false },
  },
});
const portBase = Number(flags["port-base"]);
const MIX_A = { path: "/api/players", acceptEncoding: "gzip, deflate, br" };

const rpsOf = (result: WrkResult) => result.requests / (result.durationUs / 1e6);
const errorsOf = (result: WrkResult) => result.connectErrors + result.readErrors + result.writeErrors + result.statusErrors + result.timeouts;

/** Calls of the take script (EVALSHA, EVAL once after a restart), and of every command but INFO. */
async function redisCalls(client: Redis): Promise<{ script: number; all: number }> {
  const info = await client.info("commandstats");
  const calls = [...info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)].map((match) => [match[1] ?? "", Number(match[2])] as const);
  const sum = (keep: (name: string) => boolean) => calls.filter(([name]) => keep(name)).reduce((total, [, count]) => total + count, 0);
  return { script: sum((name) => name === "evalsha" || name === "eval"), all: sum((name) => name !== "info") };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "courtside-bench-replicas-"));
  const keysFile = join(work, "keys.json");
  const { key } = createKey(keysFile, { email: "load-test@courtside.local", name: "load test", now: new Date(), rateLimit: 1_000_000_000 });
  const pathsFile = join(work, "mix-a.txt");
  writeFileSync(pathsFile, `${MIX_A.path}\n`);
  const redisPort = portBase + 9;
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const env = { DATA_DIR: flags["data-dir"], KEYS_FILE: keysFile, LOG_LEVEL: "silent", WORKERS: "1", METRICS_PORT: "0", HOST: "127.0.0.1" };
  const processes: PinnedProcess[] = [];
  const wrkRun = { core: "1", connections: Number(flags.connections), pathsFile, key, acceptEncoding: MIX_A.acceptEncoding };
  try {
    const redis = startPinned("redis-server", "1", "redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {}, redisPort);
    processes.push(redis);
    for (let waited = 0; !redis.log.join("").includes("Ready to accept connections"); waited += 50) {
      if (redis.child.exitCode !== null || waited > 10_000) throw new Error(`redis-server did not start:\n${redis.log.join("")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const client = new Redis(redisUrl);
    const local = startPinned("courtside", "0", process.execPath, ["dist/server/main.js", "serve"], { ...env, PORT: String(portBase) }, portBase);
    const shared = startPinned("courtside + REDIS_URL", "0", process.execPath, ["dist/server/main.js", "serve"], { ...env, PORT: String(portBase + 1), REDIS_URL: redisUrl }, portBase + 1);
    processes.push(local, shared);
    await Promise.all([waitForHttp(local, "/ready", (status) => status === 200), waitForHttp(shared, "/ready", (status) => status === 200)]);
    const ready = await (await fetch(`http://127.0.0.1:${shared.port}/ready`)).json() as { data: { redis?: { status: string } } };
    if (ready.data.redis?.status !== "shared") throw new Error(`the REDIS_URL instance is not sharing: ${JSON.stringify(ready.data)}`);

    const durationS = Number(flags.duration);
    const repeats = Number(flags.repeats);
    for (const server of [local, shared]) await runWrk(server, { ...wrkRun, seconds: Number(flags.warmup) });
    const results = new Map<string, WrkResult[]>([[local.name, []], [shared.name, []]]);
    let sharedRequests = 0;
    const callsBefore = await redisCalls(client);
    for (let r = 0; r < repeats; r++) {
      for (const server of [local, shared]) {
        const result = await runWrk(server, { ...wrkRun, seconds: durationS });
        results.get(server.name)?.push(result);
        if (server === shared) sharedRequests += result.requests;
        process.stderr.write(`${server.name.padEnd(22)} ${rpsOf(result).toFixed(0).padStart(7)} req/s  p50 ${(result.p50Us / 1000).toFixed(2)} ms  p99 ${(result.p99Us / 1000).toFixed(2)} ms  errors ${errorsOf(result)}\n`);
      }
    }
    const callsAfter = await redisCalls(client);
    const calls = callsAfter.script - callsBefore.script;
    const commands = callsAfter.all - callsBefore.all;
    client.disconnect();

    const cell = (name: string) => {
      const runs = results.get(name) ?? [];
      return { rps: median(runs.map(rpsOf)), p50: median(runs.map((run) => run.p50Us)) / 1000, p99: median(runs.map((run) => run.p99Us)) / 1000, errors: runs.reduce((sum, run) => sum + errorsOf(run), 0) };
    };
    const alone = cell(local.name);
    const withRedis = cell(shared.name);
    const ratio = withRedis.rps / alone.rps;
    const section = [
      `Last run: ${today()} on ${machine()}.`,
      `Mix (a) (\`GET /api/players\`, \`Accept-Encoding: ${MIX_A.acceptEncoding}\`); each server \`WORKERS=1\` pinned to core 0; wrk (one thread, ${flags.connections} connections) and redis-server 7 on core 1;`,
      `median of ${repeats} runs of ${durationS} s each, the two servers interleaved, after a ${flags.warmup} s warm-up each.`,
      "",
      table(["server", "req/s", "p50 ms", "p99 ms", "errors", "vs. alone"], [
        ["Courtside alone", alone.rps.toFixed(0), alone.p50.toFixed(2), alone.p99.toFixed(2), String(alone.errors), ""],
        ["**Courtside + REDIS_URL**", withRedis.rps.toFixed(0), withRedis.p50.toFixed(2), withRedis.p99.toFixed(2), String(withRedis.errors), `**${(100 * ratio).toFixed(0)} %**`],
      ]),
      "",
      `Redis during the measured runs: ${calls} take-script calls for ${sharedRequests} requests (one per ${calls === 0 ? "–" : Math.round(sharedRequests / calls)}: the leases at work); ${commands} commands in all,`,
      "the rest being the usage batches (MULTI, HINCRBY, HSET, LPUSH, LTRIM, EXEC every 250 ms).",
    ].join("\n");
    process.stdout.write(`${section}\n`);
    if (!flags["no-readme"]) {
      writeResults("replicas", { flags, alone, withRedis, ratio, redisScriptCalls: calls, redisCommands: commands, requests: sharedRequests });
      writeSection("replicas", section);
    }
  } finally {
    for (const server of processes.reverse()) await stopPinned(server);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
