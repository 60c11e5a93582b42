// The single binary (dist/bin/courtside, npm run build:binary): its size, how long the process
// takes to start and exit (`--version`), and spawn → /ready 200 of `courtside serve` beside
// `node dist/server/main.js serve` on the same data directory, with each one's resident memory then.
//   npm run bench:binary [-- DATA_DIR] [--repeats 3] [--no-readme]

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./server-process.js";
import { timeSpawnToReady } from "./spawn-ready.js";
import { machine, median, table, today, writeResults, writeSection } from "./report.js";

const { values: flags, positionals } = parseArgs({
  options: { repeats: { type: "string", default: "3" }, "no-readme": { type: "boolean", default: false } },
  allowPositionals: true,
});
const dataDir = positionals[0] ?? process.env.DATA_DIR ?? "data";
const BINARY = fileURLToPath(new URL("../bin/courtside", import.meta.url));
const MAIN = fileURLToPath(new URL("../server/main.js", import.meta.url));

/** Spawn → exit of `courtside --version`: the cost of starting the executable itself. */
function versionMs(): number {
  const started = performance.now();
  const result = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`courtside --version failed: ${result.stderr}`);
  return performance.now() - started;
}

/** Spawns a server (the binary or node main.js) and times spawn → first 200 from /ready; VmRSS then. */
async function measureServe(command: string, args: string[]): Promise<{ readyMs: number; rssMiB: number }> {
  const work = mkdtempSync(join(tmpdir(), "courtside-bench-binary-"));
  const port = await freePort();
  return timeSpawnToReady(command, args, { PATH: process.env.PATH ?? "", TMPDIR: work, DATA_DIR: dataDir, KEYS_FILE: join(work, "keys.json"), PORT: String(port), HOST: "127.0.0.1", METRICS_PORT: "0", WORKERS: "1", LOG_LEVEL: "silent" }, port, work);
}

if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run npm run build:binary first`);
const repeats = Number(flags.repeats);
const sizeMiB = statSync(BINARY).size / 1024 / 1024;
versionMs();
const versions = Array.from({ length: Math.max(5, repeats) }, versionMs);
// One untimed boot of each first, so every timed one finds the code and the snapshots in the page cache.
await measureServe(BINARY, ["serve"]);
await measureServe(process.execPath, [MAIN, "serve"]);
const binaryRuns: { readyMs: number; rssMiB: number }[] = [];
const nodeRuns: { readyMs: number; rssMiB: number }[] = [];
for (let r = 0; r < repeats; r++) {
  binaryRuns.push(await measureServe(BINARY, ["serve"]));
  nodeRuns.push(await measureServe(process.execPath, [MAIN, "serve"]));
}
const result = {
  sizeMiB: Math.round(sizeMiB * 10) / 10,
  versionMs: Math.round(median(versions)),
  binaryReadyMs: median(binaryRuns.map((run) => run.readyMs)),
  binaryRssMiB: median(binaryRuns.map((run) => run.rssMiB)),
  nodeReadyMs: median(nodeRuns.map((run) => run.readyMs)),
  nodeRssMiB: median(nodeRuns.map((run) => run.rssMiB)),
};
const section = [
  `Last run: ${today()} on ${machine()}. Median of ${repeats} fresh processes each (\`--version\`: of ${versions.length}), after one untimed boot of each; data: \`${dataDir}\`, 1 worker.`,
  "",
  table(["measure", "`dist/bin/courtside`", "`node dist/server/main.js serve`"], [
    ["size on disk", `${result.sizeMiB} MiB`, "(Node + node_modules)"],
    ["spawn → exit of `--version`", `${result.versionMs} ms`, ""],
    ["**spawn → `/ready` 200 (`serve`)**", `**${result.binaryReadyMs} ms**`, `**${result.nodeReadyMs} ms**`],
    ["resident memory once ready (VmRSS)", `${result.binaryRssMiB} MiB`, `${result.nodeRssMiB} MiB`],
  ]),
].join("\n");
process.stdout.write(`${section}\n`);
if (!flags["no-readme"]) {
  writeResults("binary", result);
  writeSection("binary", section);
}
