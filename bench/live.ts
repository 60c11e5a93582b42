// The change stream under subscribers (issue 25): the real server (2 workers) on a demo edition,
// N WebSocket clients (the `ws` package, in this process) subscribed to "all", then the current
// edition rebuilt for the next week several times. Measures, per swap, the time from the swap
// (the `swappedAt` of the edition message each socket got, same machine clock) to each socket's last event of it (p50, p99 over sockets),
// the server's memory per connected socket (RSS before and after connecting), and mix (a)
// requests per second (wrk, /api/players, 32 connections) with the sockets connected, without
// swaps and with a swap every second. Usage: npm run bench:live [-- 1000,10000 [seconds]]
// Needs ulimit -n above 2 × N + a few hundred (client and server ends share this machine).

import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { basename, join } from "node:path";
import WebSocket from "ws";
import { writeEdition } from "../src/pipeline/build-edition.js";
import { generateDemoEditions } from "../src/pipeline/demo.js";
import type { EditionSource } from "../src/model/player.js";
import { startServerProcess, type RunningServer } from "./server-process.js";
import { DEFAULT_RATE_LIMIT } from "../src/keys/key-records.js";

const ROOT = new URL("../../", import.meta.url).pathname;
/** Players whose overall moves each week: the events of one swap. */
const MOVERS_PER_WEEK = 25;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Week files of the current demo edition (`movers` players' overall moved each week), and the archived editions' files. */
function prepareWeeks(work: string, weeks: number, movers: number): { archives: string[]; files: string[] } {
  const archiveDir = join(work, "archives");
  const staging = join(work, "staging");
  mkdirSync(archiveDir);
  mkdirSync(staging);
  const start = "2026-09-04";
  const sources = generateDemoEditions({ asOf: start });
  for (const source of sources.filter((candidate) => candidate.status === "archived")) writeEdition(archiveDir, source, start);
  const current = sources.find((source) => source.status === "current") as EditionSource;
  let players = current.players.map((player) => ({ ...player }));
  const files: string[] = [];
  for (let week = 0; week <= weeks; week++) {
    if (week > 0) {
      const step = Math.floor(players.length / movers);
      players = players.slice();
      for (let k = 0; k < movers; k++) {
        const i = (k * step + week) % players.length;
        const player = players[i] as EditionSource["players"][number];
        players[i] = { ...player, overall: player.overall >= 99 ? player.overall - 1 : player.overall + 1 };
      }
    }
    writeEdition(staging, { ...current, players, history: [] }, addDays(start, 7 * week));
    const file = join(work, `week-${week}.msgpack`);
    copyFileSync(join(staging, `${current.gameVersion}.msgpack`), file);
    files.push(file);
  }
  return { archives: readdirSync(archiveDir).map((name) => join(archiveDir, name)), files };
}

/** A data directory `work/name` holding the archives and `current` as the current edition. */
function dataDirWith(work: string, name: string, archives: readonly string[], current: string): string {
  const dataDir = join(work, name);
  mkdirSync(dataDir);
  for (const file of archives) copyFileSync(file, join(dataDir, basename(file)));
  copyFileSync(current, join(dataDir, "2K27.msgpack"));
  return dataDir;
}

function rssKiB(pid: number | undefined): number {
  // The supervisor and its worker threads are one process.
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN);
}

interface Socket { ws: WebSocket; lastChangeAt: number; changes: number; swappedAt: number }

async function connectAll(server: RunningServer, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const batch = 200;
  for (let i = 0; i < count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - i) }, () => new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/live`, { headers: { "x-api-key": server.key }, perMessageDeflate: false });
      const socket: Socket = { ws, lastChangeAt: 0, changes: 0, swappedAt: 0 };
      ws.on("message", (data: Buffer) => {
        // No parse: the type is the message's first field.
        if (data.subarray(0, 16).toString() === '{"type":"change"') {
          socket.lastChangeAt = Date.now();
          socket.changes += 1;
        } else if (data.subarray(0, 16).toString() === '{"type":"edition') {
          socket.swappedAt = Date.parse(/"swappedAt":"([^"]+)"/.exec(data.toString())?.[1] ?? "");
        } else if (data.subarray(0, 20).toString().startsWith('{"type":"subscribed"')) resolve();
      });
      ws.on("open", () => ws.send(JSON.stringify({ subscribe: ["all"] })));
      ws.on("error", reject);
      sockets.push(socket);
    })));
  }
  return sockets;
}

/** Atomic replacement, as build-index writes. */
function install(file: string, dataDir: string): void {
  const temp = join(dataDir, "2K27.msgpack.tmp");
  copyFileSync(file, temp);
  renameSync(temp, join(dataDir, "2K27.msgpack"));
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

function runWrk(server: RunningServer, seconds: number, pathsFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const wrk = spawn("wrk", ["-t1", "-c32", `-d${seconds}s`, "--timeout", "30s", "-s", join(ROOT, "bench/wrk/mix.lua"), `http://127.0.0.1:${server.port}`, "--", pathsFile, server.key, "gzip, deflate, br"]);
    let out = "";
    wrk.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    wrk.stderr.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    wrk.on("exit", () => {
      const line = /^BENCH_JSON (.+)$/m.exec(out)?.[1];
      if (line === undefined) { reject(new Error(`wrk: ${out}`)); return; }
      const result = JSON.parse(line) as { requests: number; durationUs: number };
      resolve(result.requests / (result.durationUs / 1e6));
    });
  });
}

async function measure(count: number, seconds: number): Promise<Record<string, number | string>> {
  const work = mkdtempSync(join(tmpdir(), "courtside-live-"));
  const swaps = seconds + 2;
  const { archives, files } = prepareWeeks(work, swaps + 1, MOVERS_PER_WEEK);
  const dataDir = dataDirWith(work, "data", archives, files[0] as string);
  const server = await startServerProcess({ dataDir, workers: 2, env: { LOG_LEVEL: "info", LIVE_CONNECTIONS_PER_KEY: String(count + 10) } });
  const pathsFile = join(work, "mix-a.txt");
  writeFileSync(pathsFile, "/api/players\n");
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rssBefore = rssKiB(server.child.pid);
    const connectStarted = performance.now();
    const sockets = await connectAll(server, count);
    const connectMs = performance.now() - connectStarted;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAfter = rssKiB(server.child.pid);

    // Latency: one swap at a time, every socket's last event of it.
    const latencies: number[] = [];
    let next = 1;
    for (let s = 0; s < 2; s++, next++) {
      for (const socket of sockets) socket.changes = 0;
      install(files[next] as string, dataDir);
      const deadline = Date.now() + 30_000;
      while (sockets.some((socket) => socket.changes < MOVERS_PER_WEEK) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // The worker serving the socket stamped its swap: the same machine's clock.
      for (const socket of sockets) if (socket.changes >= MOVERS_PER_WEEK) latencies.push(socket.lastChangeAt - socket.swappedAt);
    }
    const missing = sockets.length * 2 - latencies.length;
    latencies.sort((a, b) => a - b);

    // Mix (a) with the sockets connected: quiet, then with a swap (and its broadcast) every second.
    const quiet = await runWrk(server, seconds, pathsFile);
    const swapping = (async () => {
      for (let s = 0; s < seconds; s++, next++) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        install(files[next] as string, dataDir);
      }
    })();
    const during = await runWrk(server, seconds, pathsFile);
    await swapping;
    for (const socket of sockets) socket.ws.terminate();
    await server.stop();
    // The server's own time in publish (its log is flushed at exit): the fan-out without the clients' side.
    const publishMs = [...server.output().matchAll(/"sockets":(\d+),"publishMs":(\d+)/g)].filter((match) => Number(match[1]) > 0).map((match) => Number(match[2])).sort((a, b) => a - b);
    return {
      sockets: count, connectS: Math.round(connectMs / 100) / 10,
      p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), maxMs: latencies.at(-1) ?? Number.NaN, missing,
      rssBeforeMiB: Math.round(rssBefore / 1024), rssAfterMiB: Math.round(rssAfter / 1024), kibPerSocket: Math.round(((rssAfter - rssBefore) / count) * 10) / 10,
      serverPublishMsMedian: percentile(publishMs, 50), serverPublishMsMax: publishMs.at(-1) ?? Number.NaN,
      mixAQuietRps: Math.round(quiet), mixASwappingRps: Math.round(during),
    };
  } finally {
    await server.stop();
  }
}

/** Players moved each week in the abuse runs: eight kept weeks of them make the log a replay sends (1,200 events, ~0.9 MiB). */
const ABUSE_MOVERS = 150;
const WEEKS_KEPT = 8;
/** The budgets as good as off: what the stream was before they existed. */
const BUDGETS_OFF = { LIVE_MESSAGES_PER_MINUTE: "1000000", LIVE_TOPICS_PER_MINUTE: "1000000", LIVE_REPLAYS_PER_MINUTE: "1000000" };

/** Events in the server's change log now (/api/changes, page by page). */
async function countChanges(server: RunningServer): Promise<number> {
  let count = 0;
  for (let since = 0; ;) {
    const page = await (await fetch(`http://127.0.0.1:${server.port}/api/changes?limit=1000&since=${since}`, { headers: { "x-api-key": server.key } })).json() as { meta: { count: number; hasMore: boolean; nextSince: number } };
    count += page.meta.count;
    if (!page.meta.hasMore) return count;
    since = page.meta.nextSince;
  }
}

/** CPU seconds the process has used (user + system, all its threads). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface PhaseResult { httpP50: number; httpP99: number; requests: number; eventP50: number; eventMax: number; swaps: number; missing: number; serverCpu: number }

/**
 * One phase: a keyed client's GET /api/players one at a time, and a subscriber to "all" timed
 * from each swap (one a second, `movers` events each) to its last event of it.
 */
async function phase(server: RunningServer, victim: Socket, dataDir: string, files: readonly string[], next: () => number, seconds: number): Promise<PhaseResult> {
  let isDone = false;
  const http: number[] = [];
  const asking = (async () => {
    while (!isDone) {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${server.port}/api/players`, { headers: { "x-api-key": server.key } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/api/players answered ${response.status}`);
      http.push(performance.now() - started);
    }
  })();
  const cpuBefore = cpuSeconds(server.child.pid);
  const started = performance.now();
  const events: number[] = [];
  let missing = 0;
  for (let s = 0; s < seconds; s++) {
    const tick = started + (s + 1) * 1000;
    victim.changes = 0;
    install(files[next()] as string, dataDir);
    while (victim.changes < ABUSE_MOVERS && performance.now() < tick + 4_000) await new Promise((resolve) => setTimeout(resolve, 5));
    if (victim.changes >= ABUSE_MOVERS) events.push(victim.lastChangeAt - victim.swappedAt);
    else missing += 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, tick - performance.now())));
  }
  const serverCpu = (cpuSeconds(server.child.pid) - cpuBefore) / ((performance.now() - started) / 1000);
  isDone = true;
  await asking;
  http.sort((a, b) => a - b);
  events.sort((a, b) => a - b);
  return {
    httpP50: percentile(http, 50), httpP99: percentile(http, 99), requests: http.length,
    eventP50: percentile(events, 50), eventMax: events.at(-1) ?? Number.NaN, swaps: events.length, missing, serverCpu,
  };
}

/**
 * `--abuse`: what abusive /api/live clients cost others, with the budgets off (the stream before
 * them) and on (the defaults), each against its own quiet baseline in the same run, and a control
 * (the abuser's key refused). The abuser is a free key (500 requests an hour) holding 20 sockets,
 * 10 in a replay loop and 10 in a topic-churn loop (bench/live-abuser.ts, its own process),
 * reopening whatever is closed or refused.
 */
async function measureAbuse(seconds: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "courtside-live-abuse-"));
  const { archives, files } = prepareWeeks(work, WEEKS_KEPT + 2 * seconds + 2, ABUSE_MOVERS);
  const abuser = join(ROOT, "dist/bench/live-abuser.js");
  const rows: string[] = [];
  // The control: the same abuser with a key the server refuses (401 before any upgrade): its
  // reconnect flood and its own process without a single /api/live message.
  const configurations = [["budgets off", BUDGETS_OFF, true], ["budgets on (defaults)", {}, true], ["budgets on, abuser's key refused (control)", {}, false]] as const;
  for (const [name, env, isKeyValid] of configurations) {
    const dataDir = dataDirWith(work, name.replace(/\W+/g, "-"), archives, files[WEEKS_KEPT] as string);
    const server = await startServerProcess({ dataDir, workers: 2, env: { ...env, LOG_LEVEL: "warn" }, otherKeys: [DEFAULT_RATE_LIMIT] });
    try {
      let week = WEEKS_KEPT;
      const next = () => ++week;
      const [victim] = await connectAll(server, 1) as [Socket];
      const logEvents = await countChanges(server);
      await phase(server, victim, dataDir, files, next, 1);
      const quiet = await phase(server, victim, dataDir, files, next, seconds);
      const abuserKey = isKeyValid ? server.otherKeys[0] as string : `2k_${"0".repeat(32)}`;
      const child = spawn(process.execPath, [abuser, String(server.port), abuserKey, "10", "10"], { stdio: ["ignore", "pipe", "inherit"] });
      let report = "";
      child.stdout.on("data", (chunk: Buffer) => { report += chunk.toString(); });
      const exited = new Promise((resolve) => child.on("exit", resolve));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const abused = await phase(server, victim, dataDir, files, next, seconds);
      child.kill("SIGTERM");
      await exited;
      victim.ws.terminate();
      const got = JSON.parse(report) as { bytes: number; changes: number; subscribed: number; overBudget: number; opened: number; refusedUpgrades: number; closes: Record<string, number> };
      const closes = Object.entries(got.closes).map(([code, count]) => `${count}× ${code}`).join(", ") || "none";
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
      rows.push(`| ${name} | quiet | ${quiet.requests} | ${quiet.httpP50.toFixed(2)} | ${quiet.httpP99.toFixed(2)} | ${quiet.eventP50} | ${quiet.eventMax} | ${quiet.missing} | ${Math.round(quiet.serverCpu * 100)} % | | |`);
      rows.push(`| ${name} | abused | ${abused.requests} | ${abused.httpP50.toFixed(2)} (${ratio(abused.httpP50, quiet.httpP50)}) | ${abused.httpP99.toFixed(2)} (${ratio(abused.httpP99, quiet.httpP99)}) | ${abused.eventP50} (${ratio(abused.eventP50, quiet.eventP50)}) | ${abused.eventMax} (${ratio(abused.eventMax, quiet.eventMax)}) | ${abused.missing} | ${Math.round(abused.serverCpu * 100)} % `
        + `| ${(got.bytes / 1024 / 1024).toFixed(1)} MiB, ${got.changes} events, ${got.subscribed} answered, ${got.overBudget} OVER_BUDGET | ${got.opened} opened, ${got.refusedUpgrades} refused upgrades; closes: ${closes} |`);
      process.stderr.write(`${name}: done (the log held ${logEvents} events at the start)\n`);
    } finally {
      await server.stop();
    }
  }
  console.log(`${cpus().length} × ${cpus()[0]?.model ?? "?"}, Node ${process.version}; server: 2 workers, demo editions, a change log of ${WEEKS_KEPT} weeks × ${ABUSE_MOVERS} events; ${seconds} s a phase, a swap a second`);
  console.log("| server | phase | GETs | GET p50 ms | GET p99 ms | swap → last event p50 ms | max ms | swaps missed | server CPU | the abuser received | its sockets |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|");
  for (const row of rows) console.log(row);
}

if (process.argv[2] === "--abuse") {
  await measureAbuse(Number(process.argv[3] ?? 15));
} else {
  const counts = (process.argv[2] ?? "1000,10000").split(",").map(Number);
  const seconds = Number(process.argv[3] ?? 5);
  for (const count of counts) process.stdout.write(`${JSON.stringify(await measure(count, seconds))}\n`);
}
