// The fuzz run of issue 6: N generated hostile requests (default 100,000) against the real server
// with 2 workers, C at a time, each on its own connection. Counts statuses; fails on any 5xx, any
// response that is not a valid envelope, or a worker restart. Usage: npm run bench:fuzz [-- N C]

import { garbageRequests, sendRaw as send, type Outcome } from "../test/fixtures/garbage.js";
import { metricValue, startServerProcess } from "./server-process.js";
import { ensureDemoData } from "./demo-data.js";

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 100_000);
  const concurrency = Number(process.argv[3] ?? 64);
  const server = await startServerProcess({ dataDir: ensureDemoData(process.env.DATA_DIR ?? "data"), workers: 2 });
  const next = garbageRequests(20261122, server.key);
  const statuses = new Map<number, number>();
  const bad: Outcome[] = [];
  const unanswered = new Map<string, number>();
  let sent = 0;
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
  const restarts = await metricValue(server.metricsPort, /courtside_worker_restarts_total (\d+)/);
  const health = (await fetch(`http://127.0.0.1:${server.port}/health`)).status;
  const code = await server.stop();
  const summary = {
    requests: total, seconds: Math.round(seconds), statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    fiveHundreds: bad.filter((o) => o.status >= 500).length, invalidEnvelopes: bad.filter((o) => !o.isValid).length,
    workerRestarts: restarts, healthAfter: health, exitCode: code,
    closedWithoutAnswerByMethod: Object.fromEntries(unanswered),
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  for (const outcome of bad.slice(0, 10)) process.stdout.write(`bad: ${outcome.method} ${outcome.target.slice(0, 120)} → ${outcome.status}\n`);
  if (bad.length > 0 || restarts !== 0 || health !== 200 || code !== 0) process.exitCode = 1;
}

await main();
