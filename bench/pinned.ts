// Processes pinned to a core, and wrk runs against them: what bench:load and bench:replicas share.
// A process's output is kept for the error that names why it did not start; a wrk run reports its
// numbers (bench/wrk/*.lua print one BENCH_JSON line) with the server's CPU time per request and
// each core's busy and stolen share over the run, read from /proc.

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository root (this file runs from dist/bench/). */
export const ROOT = new URL("../../", import.meta.url).pathname;

export interface PinnedProcess<Name extends string = string> {
  name: Name;
  port: number;
  child: ChildProcess;
  log: string[];
}

/** `command args…` under `taskset -c core`, from the repository root, with `env` over this process's. */
export function startPinned<Name extends string>(name: Name, core: string, command: string, args: readonly string[], env: Record<string, string>, port: number): PinnedProcess<Name> {
  const child = spawn("taskset", ["-c", core, command, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  return { name, port, child, log };
}

/** Polls `path` until an answer `isUp` accepts; throws with the process's output if it exits or 60 s pass. */
export async function waitForHttp(server: PinnedProcess, path: string, isUp: (status: number) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited with ${server.child.exitCode}:\n${server.log.join("")}`);
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
      await response.arrayBuffer();
      if (isUp(response.status)) return;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error(`${server.name} did not start within 60 s:\n${server.log.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function stopPinned(server: PinnedProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) { resolve(); return; }
    server.child.once("exit", () => resolve());
    server.child.kill("SIGTERM");
  });
}

/** Per-core [busy, steal, total] jiffies from /proc/stat: was a core saturated, did the hypervisor take time away? */
function coreTimes(): number[][] {
  return readFileSync("/proc/stat", "utf8").split("\n").filter((line) => /^cpu\d+ /.test(line)).map((line) => {
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
    return [user + nice + system + irq + softirq, steal, user + nice + system + idle + iowait + irq + softirq + steal];
  });
}

/** utime + stime of the whole process (all threads), in clock ticks of 10 ms. */
export function cpuTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

export interface WrkResult {
  requests: number;
  durationUs: number;
  bytes: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  statusErrors: number;
  timeouts: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  maxUs: number;
  meanUs: number;
  /** Server CPU time per request, µs (from /proc, 10 ms resolution). */
  cpuUsPerRequest: number;
  /** Busy share of each core during the run (%), and the largest share stolen by the hypervisor on either core (%). */
  coreBusy: number[];
  stealPct: number;
}

export interface WrkRun {
  /** The core wrk runs on (one thread). */
  core: string;
  connections: number;
  seconds: number;
  /** One path per line; each connection walks them in turn with `key` and `acceptEncoding`. */
  pathsFile: string;
  key: string;
  acceptEncoding: string;
  /** > 0: each connection pauses this long before each request (bench/wrk/paced.lua). */
  pauseMs?: number;
  /** `pathsFile` holds whole requests (method, path, headers, body: bench/wrk/requests.lua), not GET paths. */
  isRequestsFile?: boolean;
}

export function runWrk(server: PinnedProcess, run: WrkRun): Promise<WrkResult> {
  const pauseMs = run.pauseMs ?? 0;
  const args = [
    "-c", run.core, "wrk", "-t1", `-c${run.connections}`, `-d${run.seconds}s`, "--timeout", "30s", "--latency",
    "-s", join(ROOT, run.isRequestsFile === true ? "bench/wrk/requests.lua" : pauseMs > 0 ? "bench/wrk/paced.lua" : "bench/wrk/mix.lua"), `http://127.0.0.1:${server.port}`, "--", run.pathsFile, run.key, run.acceptEncoding,
    ...(pauseMs > 0 ? [String(pauseMs)] : []),
  ];
  const before = cpuTicks(server.child.pid);
  const coresBefore = coreTimes();
  return new Promise((resolve, reject) => {
    const wrk = spawn("taskset", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    wrk.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    wrk.stderr.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    wrk.on("exit", (code) => {
      const line = /^BENCH_JSON (.+)$/m.exec(out)?.[1];
      if (code !== 0 || line === undefined) { reject(new Error(`wrk failed (${code}) against ${server.name}:\n${out}`)); return; }
      const result = JSON.parse(line) as Omit<WrkResult, "cpuUsPerRequest" | "coreBusy" | "stealPct">;
      const cpuUs = (cpuTicks(server.child.pid) - before) * 10_000;
      const deltas = coreTimes().map((after, core) => after.map((value, k) => value - (coresBefore[core]?.[k] ?? 0)));
      const share = (delta: number[] | undefined, k: number) => (delta && (delta[2] ?? 0) > 0 ? (100 * (delta[k] ?? 0)) / (delta[2] as number) : 0);
      resolve({
        ...result,
        cpuUsPerRequest: result.requests === 0 ? Number.NaN : cpuUs / result.requests,
        coreBusy: deltas.map((delta) => Math.round(share(delta, 0))),
        stealPct: Math.round(Math.max(0, ...deltas.map((delta) => share(delta, 1)))),
      });
    });
    wrk.on("error", reject);
  });
}
