// Spawns a server process and times spawn → the first 200 from its /ready, then reads the process's
// resident memory (VmRSS) after a second for the boot's garbage to settle; stops it with SIGTERM and
// removes its work directory. Used by bench:boot and bench:binary.

import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { get } from "node:http";

export interface SpawnReady { readyMs: number; rssMiB: number }

export async function timeSpawnToReady(command: string, args: readonly string[], env: NodeJS.ProcessEnv, port: number, work: string): Promise<SpawnReady> {
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
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0);
    return { readyMs: Math.round(readyMs), rssMiB: Math.round(rssKiB / 1024) };
  } finally {
    await new Promise<void>((resolve) => { child.once("exit", () => resolve()); child.kill("SIGTERM"); });
    rmSync(work, { recursive: true, force: true });
  }
}
