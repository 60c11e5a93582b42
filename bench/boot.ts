// Boot cost of the editions in DATA_DIR (default data/): load time and resident memory, in a
// fresh process so nothing else is counted. Usage: npm run bench:boot

import { loadEditionSet } from "../src/store/editions.js";

const dir = process.argv[2] ?? process.env.DATA_DIR ?? "data";
const before = process.memoryUsage();
const started = performance.now();
const editions = loadEditionSet(dir);
const loadMs = performance.now() - started;
globalThis.gc?.();
const after = process.memoryUsage();
const players = editions.ordered.reduce((sum, edition) => sum + edition.rowCount, 0);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const result = {
  editions: editions.keys().length,
  players,
  loadMs: Math.round(loadMs),
  rssMiB: Number(mib(after.rss)),
  heapUsedMiB: Number(mib(after.heapUsed)),
  arrayBuffersMiB: Number(mib(after.arrayBuffers)),
  rssGrowthMiB: Number(mib(after.rss - before.rss)),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
process.stdout.write(`loaded ${result.editions} editions (${players} players) in ${result.loadMs} ms; resident ${result.rssMiB} MiB (heap ${result.heapUsedMiB} MiB, buffers ${result.arrayBuffersMiB} MiB)\n`);
