// Boot cost of the editions in DATA_DIR (default data/), two ways, each in a fresh process so
// nothing else is counted: loadEditionSet in this process (load time, resident memory), and the
// real server (dist/src/main.js, one worker) from spawn until GET /ready answers 200, with the
// resident memory of its process then. Usage: npm run bench:boot [-- DIR] [--repeats 3 --no-readme]

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadEditionSet } from "../src/store/editions.js";
import { machine, median, table, today, writeResults, writeSection } from "./report.js";
import { refreshTargets } from "./targets.js";

const { values: flags, positionals } = parseArgs({
  options: { repeats: { type: "string", default: "3" }, "no-readme": { type: "boolean", default: false }, "in-process": { type: "boolean", default: false } },
  allowPositionals: true,
});
const dir = positionals[0] ?? process.env.DATA_DIR ?? "data";
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

/** Spawns the real server and times spawn → first 200 from /ready; reads VmRSS of its process then. */
async function measureServer(port: number): Promise<{ readyMs: number; rssMiB: number }> {
  const work = mkdtempSync(join(tmpdir(), "courtside-boot-"));
  const started = performance.now();
  const child = spawn(process.execPath, [new URL("../src/main.js", import.meta.url).pathname], {
    env: { ...process.env, DATA_DIR: dir, KEYS_FILE: join(work, "keys.json"), PORT: String(port), HOST: "127.0.0.1", METRICS_PORT: "0", WORKERS: "1", LOG_LEVEL: "silent" },
    stdio: ["ignore", "ignore", "pipe"],
  });
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
  const loads: InProcess[] = [];
  const servers: { readyMs: number; rssMiB: number }[] = [];
  // One untimed boot first, so every timed one finds the code and the snapshots in the page cache.
  await measureServer(3189);
  for (let r = 0; r < repeats; r++) {
    loads.push(await inFreshProcess());
    servers.push(await measureServer(3190 + r));
  }
  const first = loads[0] as InProcess;
  const result = {
    editions: first.editions,
    players: first.players,
    loadMs: median(loads.map((load) => load.loadMs)),
    loadRssMiB: median(loads.map((load) => load.rssMiB)),
    heapUsedMiB: median(loads.map((load) => load.heapUsedMiB)),
    arrayBuffersMiB: median(loads.map((load) => load.arrayBuffersMiB)),
    serverReadyMs: median(servers.map((server) => server.readyMs)),
    serverRssMiB: median(servers.map((server) => server.rssMiB)),
  };
  const section = [
    `Last run: ${today()} on ${machine()}. Median of ${repeats} fresh processes each, after one untimed boot (files in the page cache).`,
    "",
    table(["measure", `${result.editions} demo editions, ${result.players.toLocaleString("en")} players`], [
      ["loadEditionSet in a fresh process: time", `${result.loadMs} ms`],
      ["  resident memory after it (RSS / JS heap / buffers)", `${result.loadRssMiB} / ${result.heapUsedMiB} / ${result.arrayBuffersMiB} MiB`],
      ["**the server (`node dist/src/main.js`, 1 worker): spawn → `/ready` 200**", `**${result.serverReadyMs} ms**`],
      ["**its resident memory once ready (supervisor + worker, VmRSS)**", `**${result.serverRssMiB} MiB**`],
    ]),
  ].join("\n");
  process.stdout.write(`${section}\n`);
  if (!flags["no-readme"]) {
    writeResults("boot", result);
    writeSection("boot", section);
    refreshTargets();
  }
}
