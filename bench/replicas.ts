// Several replicas' cost on one replica: mix (a) against Courtside alone and against Courtside with
// REDIS_URL (keys from Redis's store, key buckets leased from Redis), in one run, interleaved.
// Each server is its own process pinned to core 0 (WORKERS=1); wrk and redis-server share core 1.
// Also counts the Redis calls the run made, to show the leases at work.
//
// Usage: npm run bench:replicas [-- --duration 3 --repeats 5 --connections 64 --no-readme]

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { createKey } from "../src/keys/key-store.js";
import { machine, median, table, today, writeResults, writeSection } from "./report.js";

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
const root = new URL("../../", import.meta.url).pathname;
const portBase = Number(flags["port-base"]);
const MIX_A = { path: "/api/players", acceptEncoding: "gzip, deflate, br" };

interface Process { name: string; port: number; child: ChildProcess; log: string[] }

function start(name: string, core: string, command: string, args: string[], env: Record<string, string>, port: number): Process {
  const child = spawn("taskset", ["-c", core, command, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  return { name, port, child, log };
}

async function waitHttp(server: Process, path: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited with ${server.child.exitCode}:\n${server.log.join("")}`);
    try {
      if ((await fetch(`http://127.0.0.1:${server.port}${path}`)).status === 200) return;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error(`${server.name} did not start within 60 s:\n${server.log.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stop(server: Process): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) { resolve(); return; }
    server.child.once("exit", () => resolve());
    server.child.kill("SIGTERM");
  });
}

interface WrkResult { requests: number; durationUs: number; p50Us: number; p99Us: number; statusErrors: number; connectErrors: number; readErrors: number; writeErrors: number; timeouts: number }

function runWrk(server: Process, pathsFile: string, key: string, seconds: number): Promise<WrkResult> {
  const args = ["-c", "1", "wrk", "-t1", `-c${flags.connections}`, `-d${seconds}s`, "--timeout", "30s", "--latency",
    "-s", join(root, "bench/wrk/mix.lua"), `http://127.0.0.1:${server.port}`, "--", pathsFile, key, MIX_A.acceptEncoding];
  return new Promise((resolve, reject) => {
    const wrk = spawn("taskset", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    wrk.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    wrk.stderr.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    wrk.on("exit", (code) => {
      const line = /^BENCH_JSON (.+)$/m.exec(out)?.[1];
      if (code !== 0 || line === undefined) reject(new Error(`wrk failed (${code}) against ${server.name}:\n${out}`));
      else resolve(JSON.parse(line) as WrkResult);
    });
    wrk.on("error", reject);
  });
}

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
  const processes: Process[] = [];
  try {
    const redis = start("redis-server", "1", "redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {}, redisPort);
    processes.push(redis);
    for (let waited = 0; !redis.log.join("").includes("Ready to accept connections"); waited += 50) {
      if (redis.child.exitCode !== null || waited > 10_000) throw new Error(`redis-server did not start:\n${redis.log.join("")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const client = new Redis(redisUrl);
    const local = start("courtside", "0", process.execPath, ["dist/server/main.js"], { ...env, PORT: String(portBase) }, portBase);
    const shared = start("courtside + REDIS_URL", "0", process.execPath, ["dist/server/main.js"], { ...env, PORT: String(portBase + 1), REDIS_URL: redisUrl }, portBase + 1);
    processes.push(local, shared);
    await Promise.all([waitHttp(local, "/ready"), waitHttp(shared, "/ready")]);
    const ready = await (await fetch(`http://127.0.0.1:${shared.port}/ready`)).json() as { data: { redis?: { status: string } } };
    if (ready.data.redis?.status !== "shared") throw new Error(`the REDIS_URL instance is not sharing: ${JSON.stringify(ready.data)}`);

    const durationS = Number(flags.duration);
    const repeats = Number(flags.repeats);
    for (const server of [local, shared]) await runWrk(server, pathsFile, key, Number(flags.warmup));
    const results = new Map<string, WrkResult[]>([[local.name, []], [shared.name, []]]);
    let sharedRequests = 0;
    const callsBefore = await redisCalls(client);
    for (let r = 0; r < repeats; r++) {
      for (const server of [local, shared]) {
        const result = await runWrk(server, pathsFile, key, durationS);
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
    for (const server of processes.reverse()) await stop(server);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
