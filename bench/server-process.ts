// Starts the real server binary (dist/server/main.js) for the reliability scripts: a temp keys file
// with a load-test key, free ports, and a way to stop it and read its exit code.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface RunningServer {
  child: ChildProcess;
  port: number;
  metricsPort: number;
  key: string;
  /** Keys of the given rate limits (options.otherKeys), in order. */
  otherKeys: string[];
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

import { freePort } from "../test/fixtures/free-port.js";
import { createKey } from "../src/keys/key-operations.js";

export { freePort };

export async function startServerProcess(options: { dataDir: string; workers: number; env?: Record<string, string>; cpus?: string; otherKeys?: readonly number[] }): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), "courtside-bench-"));
  const keysFile = join(dir, "keys.json");
  const { key } = createKey(keysFile, { email: "bench@example.com", now: new Date(), rateLimit: 1_000_000_000 });
  const otherKeys = (options.otherKeys ?? []).map((rateLimit, i) => createKey(keysFile, { email: `other${i}@example.com`, now: new Date(), rateLimit }).key);
  const port = await freePort();
  const metricsPort = await freePort();
  const main = fileURLToPath(new URL("../server/main.js", import.meta.url));
  const env = { ...process.env, HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: options.dataDir, KEYS_FILE: keysFile, WORKERS: String(options.workers), LOG_LEVEL: "warn", ...options.env };
  const child = options.cpus
    ? spawn("taskset", ["-c", options.cpus, process.execPath, main, "serve"], { env, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, [main, "serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => { output += chunk; });
  child.stderr?.on("data", (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status === 200) break;
    } catch { /* not up yet */ }
    if (Date.now() - started > 30_000) throw new Error(`server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child, port, metricsPort, key, otherKeys, output: () => output, exited,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

export async function metricValue(metricsPort: number, pattern: RegExp): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(pattern.exec(text)?.[1] ?? Number.NaN);
}
