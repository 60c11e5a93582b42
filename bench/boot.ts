// Boot cost of the editions in DATA_DIR (default data/), each in a fresh process so nothing else
// is counted: loadEditionSet in this process (load time, resident memory); the real server
// (dist/server/main.js serve) from spawn until GET /ready answers 200, with the resident memory of its
// process then, with WORKERS=1, 2, 4 and 8 (memory does not need cores: the editions are shared,
// so each further worker should cost only its own isolate), a second after /ready and again once it
// has idled --settle-seconds (default 20); and, in the same run, a bare uWS app
// (bench/bare-uws.ts) from spawn until its /ready answers, the floor any uWS server boots from.
// Usage: npm run bench:boot [-- DIR] [--repeats 3 --workers 1,2,4,8 --settle-seconds 20 --no-readme]

import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadEditionSet } from "../src/store/editions.js";
import { machine, median, table, today, writeResults, writeSection } from "./report.js";
import { refreshTargets } from "./targets.js";
import { ensureDemoData } from "./demo-data.js";
import { timeSpawnToReady, type SpawnReady } from "./spawn-ready.js";

const { values: flags, positionals } = parseArgs({
  options: { repeats: { type: "string", default: "3" }, workers: { type: "string", default: "1,2,4,8" }, "settle-seconds": { type: "string", default: "20" }, "no-readme": { type: "boolean", default: false }, "in-process": { type: "boolean", default: false } },
  allowPositionals: true,
});
const dir = ensureDemoData(positionals[0] ?? process.env.DATA_DIR ?? "data");
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

interface InProcess { editions: number; players: number; loadMs: number; rssMiB: number; heapUsedMiB: number; arrayBuffersMiB: number; rssGrowthMiB: number }

function measureInProcess(): InProcess {
  const before = process.memoryUsage();
  const started = performance.now();
  const editions = loadEditionSet(dir);
  const loadMs = performance.now() - started;
  globalThis.gc?.();
  const after = process.memoryUsage();
  return {
    editions: editions.keys().length,
    players: editions.ordered.reduce((sum, edition) => sum + edition.rowCount, 0),
    loadMs: Math.round(loadMs),
    rssMiB: mib(after.rss),
    heapUsedMiB: mib(after.heapUsed),
    arrayBuffersMiB: mib(after.arrayBuffers),
    rssGrowthMiB: mib(after.rss - before.rss),
  };
}

/** Spawns the real server (or the bare uWS app) and times spawn → first 200 from /ready; reads VmRSS of its process then. */
async function measureServer(port: number, workers = 1, script = "../server/main.js", settleMs = 0): Promise<SpawnReady> {
  const work = mkdtempSync(join(tmpdir(), "courtside-boot-"));
  return timeSpawnToReady(process.execPath, [new URL(script, import.meta.url).pathname, "serve"], { ...process.env, DATA_DIR: dir, KEYS_FILE: join(work, "keys.json"), PORT: String(port), HOST: "127.0.0.1", METRICS_PORT: "0", WORKERS: String(workers), LOG_LEVEL: "silent" }, port, work, settleMs);
}

/** The in-process measure runs in a child of its own, so each repeat starts from an empty heap. */
function inFreshProcess(): Promise<InProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", new URL(import.meta.url).pathname, dir, "--in-process"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.split("\n")[0] ?? "") as InProcess) : reject(new Error(`boot measure exited with ${code}`))));
  });
}

if (flags["in-process"]) {
  const result = measureInProcess();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.stdout.write(`loaded ${result.editions} editions (${result.players} players) in ${result.loadMs} ms; resident ${result.rssMiB} MiB (heap ${result.heapUsedMiB} MiB, buffers ${result.arrayBuffersMiB} MiB)\n`);
} else {
  const repeats = Number(flags.repeats);
  const workerCounts = flags.workers.split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const loads: InProcess[] = [];
  const servers: { readyMs: number; rssMiB: number }[] = [];
  const bare: { readyMs: number; rssMiB: number }[] = [];
  const byWorkers = new Map<number, SpawnReady[]>(workerCounts.map((n) => [n, []]));
  const settleMs = Number(flags["settle-seconds"]) * 1000;
  // One untimed boot of each first, so every timed one finds the code and the snapshots in the page cache.
  await measureServer(3189);
  await measureServer(3188, 1, "./bare-uws.js");
  for (let r = 0; r < repeats; r++) {
    loads.push(await inFreshProcess());
    // Interleaved, so a busy moment of a shared machine hits both sides of the ratio.
    bare.push(await measureServer(3170 + r, 1, "./bare-uws.js"));
    servers.push(await measureServer(3190 + r));
    for (const n of workerCounts) byWorkers.get(n)?.push(await measureServer(3150 + r * 10 + n, n, undefined, settleMs));
  }
  const first = loads[0] as InProcess;
  const memoryByWorkers = Object.fromEntries([...byWorkers].map(([n, runs]) => [n, {
    readyMs: median(runs.map((run) => run.readyMs)), rssMiB: median(runs.map((run) => run.rssMiB)), settledRssMiB: median(runs.map((run) => run.settledRssMiB ?? run.rssMiB)),
  }]));
  const result = {
    editions: first.editions,
    players: first.players,
    loadMs: median(loads.map((load) => load.loadMs)),
    loadRssMiB: median(loads.map((load) => load.rssMiB)),
    heapUsedMiB: median(loads.map((load) => load.heapUsedMiB)),
    arrayBuffersMiB: median(loads.map((load) => load.arrayBuffersMiB)),
    serverReadyMs: median(servers.map((server) => server.readyMs)),
    serverRssMiB: median(servers.map((server) => server.rssMiB)),
    bareUwsReadyMs: median(bare.map((server) => server.readyMs)),
    bareUwsRssMiB: median(bare.map((server) => server.rssMiB)),
    byWorkers: memoryByWorkers,
  };
  const one = memoryByWorkers[1];
  const perWorker = (n: number, key: "rssMiB" | "settledRssMiB") =>
    one !== undefined && n > 1 ? ` (+${(((memoryByWorkers[n]?.[key] ?? 0) - one[key]) / (n - 1)).toFixed(1)} per further worker)` : "";
  const workerRows: [string, string][] = workerCounts.map((n) => {
    const run = memoryByWorkers[n] as { readyMs: number; rssMiB: number; settledRssMiB: number };
    return [
      `  WORKERS=${n}: resident 1 s after \`/ready\` / after ${flags["settle-seconds"]} s idle / spawn → \`/ready\``,
      `${run.rssMiB} MiB${perWorker(n, "rssMiB")} / **${run.settledRssMiB} MiB${perWorker(n, "settledRssMiB")}** / ${run.readyMs} ms`,
    ];
  });
  const section = [
    `Last run: ${today()} on ${machine()}. Median of ${repeats} fresh processes each, after one untimed boot (files in the page cache).`,
    "",
    table(["measure", `${result.editions} demo editions, ${result.players.toLocaleString("en")} players`], [
      ["loadEditionSet in a fresh process: time", `${result.loadMs} ms`],
      ["  resident memory after it (RSS / JS heap / buffers)", `${result.loadRssMiB} / ${result.heapUsedMiB} / ${result.arrayBuffersMiB} MiB`],
      ["**the server (`node dist/server/main.js serve`, 1 worker): spawn → `/ready` 200**", `**${result.serverReadyMs} ms**`],
      ["**its resident memory 1 s after `/ready` (supervisor + worker, VmRSS)**", `**${result.serverRssMiB} MiB**`],
      ["a bare uWS app (`bench/bare-uws.ts`): spawn → `/ready` 200 / resident", `${result.bareUwsReadyMs} ms / ${result.bareUwsRssMiB} MiB`],
      ["**the server's spawn → `/ready` over the bare uWS app's, same run**", `**${(result.serverReadyMs / result.bareUwsReadyMs).toFixed(1)}×**`],
      ...workerRows,
    ]),
  ].join("\n");
  process.stdout.write(`${section}\n`);
  if (!flags["no-readme"]) {
    writeResults("boot", result);
    writeSection("boot", section);
    refreshTargets();
  }
}
