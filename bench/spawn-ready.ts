// Spawns a server process and times spawn → the first 200 from its /ready, then reads the process's
// resident memory (VmRSS) a second later and, when asked, again after it has idled `settleMs`: V8
// gives back the heap that booting grew (its memory reducer runs after some idle seconds), so that
// second reading is what the server holds while it runs. Stops it with SIGTERM and removes its work
// directory. Used by bench:boot and bench:binary.

import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { get } from "node:http";

export interface SpawnReady { readyMs: number; rssMiB: number; settledRssMiB?: number }

export async function timeSpawnToReady(command: string, args: readonly string[], env: NodeJS.ProcessEnv, port: number, work: string, settleMs = 0): Promise<SpawnReady> {
  const started = performance.now();
  const child = spawn(command, [...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => { stderr += chunk.toString(); });
  const isReady = () => new Promise<boolean>((resolve) => {
    const req = get({ host: "127.0.0.1", port, path: "/ready" }, (res) => { res.resume(); resolve(res.statusCode === 200); });
    req.on("error", () => resolve(false));
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
      if (await isReady()) break;
      if (performance.now() - started > 60_000) throw new Error(`the server was not ready within 60 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const readyMs = performance.now() - started;
    // Let the boot's garbage settle before reading the resident set.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssMiB = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
    const once = rssMiB();
    if (settleMs <= 0) return { readyMs: Math.round(readyMs), rssMiB: once };
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return { readyMs: Math.round(readyMs), rssMiB: once, settledRssMiB: rssMiB() };
  } finally {
    await new Promise<void>((resolve) => { child.once("exit", () => resolve()); child.kill("SIGTERM"); });
    rmSync(work, { recursive: true, force: true });
  }
}
