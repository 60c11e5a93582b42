// The fuzz run of issue 6: N generated hostile requests (default 100,000) against the real server
// with 2 workers, C at a time, each on its own connection; about one in eight is one of issue 20's
// hostile shapes (path segments up to 120 KB, long parameter names, batches of 100 unknown slugs,
// two Content-Lengths). Counts statuses; fails on any 5xx, any response that is not a valid
// envelope, or a worker restart. Beside it a second client (one keep-alive connection, a plain
// keyed GET at a time) records its latency at rest and during the run: its p99 is what a hostile
// client costs everyone else. Usage: [FUZZ_HOSTILE=0] npm run bench:fuzz [-- N C]

import { garbageRequests, sendRaw as send, type Outcome } from "../test/fixtures/garbage.js";
import { metricValue, startServerProcess } from "./server-process.js";
import { ensureDemoData } from "./demo-data.js";

/** A second, well-behaved client: keyed GETs one after another until `isRunning` says stop; latencies in ms. */
async function secondClient(port: number, key: string, isRunning: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (isRunning()) {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/players?limit=5`, { headers: { "x-api-key": key } });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

function percentiles(latencies: readonly number[]): { requests: number; p50: number; p99: number; max: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0) * 100) / 100;
  return { requests: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 100_000);
  const concurrency = Number(process.argv[3] ?? 64);
  const server = await startServerProcess({ dataDir: ensureDemoData(process.env.DATA_DIR ?? "data"), workers: 2 });
  // FUZZ_HOSTILE=0: the generated requests alone, without issue 20's shapes, for comparison.
  const withHostileShapes = process.env.FUZZ_HOSTILE !== "0";
  const next = garbageRequests(20261122, server.key, { withHostileShapes });
  const statuses = new Map<number, number>();
  const bad: Outcome[] = [];
  const unanswered = new Map<string, number>();
  let sent = 0;
  const restEnd = performance.now() + 3000;
  const atRest = await secondClient(server.port, server.key, () => performance.now() < restEnd);
  let isFuzzing = true;
  const during = secondClient(server.port, server.key, () => isFuzzing);
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (sent < total) {
      sent++;
      const outcome = await send(server.port, next());
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.status === 0) unanswered.set(outcome.method, (unanswered.get(outcome.method) ?? 0) + 1);
      if (outcome.status >= 500 || outcome.status === -1 || !outcome.isValid) bad.push(outcome);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  isFuzzing = false;
  const duringFuzz = await during;
  const restarts = await metricValue(server.metricsPort, /courtside_worker_restarts_total (\d+)/);
  const health = (await fetch(`http://127.0.0.1:${server.port}/health`)).status;
  const code = await server.stop();
  const summary = {
    requests: total, withHostileShapes, seconds: Math.round(seconds), statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    fiveHundreds: bad.filter((o) => o.status >= 500).length, invalidEnvelopes: bad.filter((o) => !o.isValid).length,
    workerRestarts: restarts, healthAfter: health, exitCode: code,
    closedWithoutAnswerByMethod: Object.fromEntries(unanswered),
    secondClientMs: { atRest: percentiles(atRest), duringFuzz: percentiles(duringFuzz) },
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  for (const outcome of bad.slice(0, 10)) process.stdout.write(`bad: ${outcome.method} ${outcome.target.slice(0, 120)} → ${outcome.status}\n`);
  if (bad.length > 0 || restarts !== 0 || health !== 200 || code !== 0) process.exitCode = 1;
}

await main();
