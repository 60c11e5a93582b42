// The soak (issue 6): wrk at full speed against the real server (1 worker on core 0, wrk on core
// 1) for 10 minutes, sampling the server's resident memory every 10 s. Passes when memory after
// warm-up (the first minute) grows by under 5 %. Usage: npm run bench:soak [-- minutes]

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServerProcess } from "./server-process.js";
import { ensureDemoData } from "./demo-data.js";

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const minutes = Number(process.argv[2] ?? 10);
  const server = await startServerProcess({ dataDir: ensureDemoData(process.env.DATA_DIR ?? "data"), workers: 1, cpus: "0" });
  // taskset execs node, so the child's pid is the server's.
  const pid = server.child.pid as number;
  const script = fileURLToPath(new URL("../../bench/soak.lua", import.meta.url));
  const wrk = spawn("taskset", ["-c", "1", "wrk", "-t1", "-c64", `-d${minutes * 60}s`, "-s", script, `http://127.0.0.1:${server.port}`], {
    env: { ...process.env, COURTSIDE_KEY: server.key }, stdio: ["ignore", "pipe", "pipe"],
  });
  let wrkOutput = "";
  wrk.stdout.on("data", (chunk) => { wrkOutput += chunk; });
  const samples: { second: number; rssMiB: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    const sample = { second: Math.round((Date.now() - started) / 1000), rssMiB: Math.round(rssMiB(pid) * 10) / 10 };
    samples.push(sample);
    process.stderr.write(`soak: ${sample.second} s, rss ${sample.rssMiB} MiB\n`);
  }, 10_000);
  await new Promise((resolve) => wrk.on("exit", resolve));
  clearInterval(sampler);
  const code = await server.stop();
  const afterWarmup = samples.filter((sample) => sample.second >= 60);
  const first = afterWarmup[0]?.rssMiB ?? Number.NaN;
  const peak = Math.max(...afterWarmup.map((sample) => sample.rssMiB));
  const last = afterWarmup.at(-1)?.rssMiB ?? Number.NaN;
  const summary = {
    minutes, requests: Number(/(\d+) requests in/.exec(wrkOutput)?.[1] ?? 0), requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(wrkOutput)?.[1] ?? 0),
    non2xx: Number(/non2xx=(\d+)/.exec(wrkOutput)?.[1] ?? -1), socketErrors: /Socket errors: ([^\n]+)/.exec(wrkOutput)?.[1] ?? "none",
    rssAfterWarmupMiB: first, rssLastMiB: last, rssPeakMiB: peak, growthPercent: Math.round(((last - first) / first) * 1000) / 10,
    exitCode: code, samples,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  if (!(summary.growthPercent < 5) || summary.non2xx !== 0 || code !== 0) process.exitCode = 1;
}

await main();
