// The change stream under subscribers (issue 25): the real server (2 workers) on a demo edition,
// N WebSocket clients (the `ws` package, in this process) subscribed to "all", then the current
// edition rebuilt for the next week several times. Measures, per swap, the time from the swap
// (the `swappedAt` of the edition message each socket got, same machine clock) to each socket's last event of it (p50, p99 over sockets),
// the server's memory per connected socket (RSS before and after connecting), and mix (a)
// requests per second (wrk, /api/players, 32 connections) with the sockets connected, without
// swaps and with a swap every second. Usage: npm run bench:live [-- 1000,10000 [seconds]]
// Needs ulimit -n above 2 × N + a few hundred (client and server ends share this machine).

import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { writeEdition } from "../src/data/build-edition.js";
import { generateDemoEditions } from "../src/data/demo.js";
import type { EditionSource } from "../src/model/player.js";
import { startServerProcess, type RunningServer } from "./server-process.js";

const ROOT = new URL("../../", import.meta.url).pathname;
/** Players whose overall moves each week: the events of one swap. */
const MOVERS_PER_WEEK = 25;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Week files: week 0 installed at start, then one per swap, each MOVERS_PER_WEEK players moved. */
function prepareWeeks(work: string, weeks: number): { dataDir: string; files: string[] } {
  const dataDir = join(work, "data");
  const staging = join(work, "staging");
  mkdirSync(dataDir);
  mkdirSync(staging);
  const start = "2026-09-04";
  const sources = generateDemoEditions({ asOf: start });
  for (const source of sources.filter((candidate) => candidate.status === "archived")) writeEdition(dataDir, source, start);
  const current = sources.find((source) => source.status === "current") as EditionSource;
  let players = current.players.map((player) => ({ ...player }));
  const files: string[] = [];
  for (let week = 0; week <= weeks; week++) {
    if (week > 0) {
      const step = Math.floor(players.length / MOVERS_PER_WEEK);
      players = players.slice();
      for (let k = 0; k < MOVERS_PER_WEEK; k++) {
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
  copyFileSync(files[0] as string, join(dataDir, `${current.gameVersion}.msgpack`));
  return { dataDir, files };
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
  const { dataDir, files } = prepareWeeks(work, swaps + 1);
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

const counts = (process.argv[2] ?? "1000,10000").split(",").map(Number);
const seconds = Number(process.argv[3] ?? 5);
for (const count of counts) process.stdout.write(`${JSON.stringify(await measure(count, seconds))}\n`);
