// What an uncached page costs in process, no HTTP: the 2,000 URLs of load mix (b) (filtered,
// sorted, paged player lists, identity bodies) through the real dispatcher, either with the
// response cache off (`--cache off`, what mix (b) measures under wrk) or on (`--cache miss`: the
// default 64 MB, which the 2,000 pages of ~120 KiB each as it counts them overflow, so every
// request of a pass misses, renders and is stored). Prints µs per request (median of the passes'
// means), wall and CPU, and how many requests hit. Run it under `node --cpu-prof --cpu-prof-dir=profiles` to see
// where the time goes (issue 33, "one copy": bench/README.md).
// Usage: node dist/bench/miss-cost.js [-- --cache off|miss --rounds 10]

import { parseArgs } from "node:util";
import { RequestStats } from "../src/ops/request-stats.js";
import { loadEditionSet } from "../src/store/editions.js";
import { benchDispatcher, benchRequest } from "./in-process.js";
import { buildMixes } from "./mixes.js";
import { machine, median, today } from "./report.js";

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "10" },
    cache: { type: "string", default: "off" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" },
  },
});

const editions = loadEditionSet(flags["data-dir"]);
const paths = buildMixes(editions.current).find((mix) => mix.name === "b")?.paths ?? [];
const isCacheOn = flags.cache === "miss";
const stats = new RequestStats();
const dispatcher = benchDispatcher(editions, { cacheBytes: isCacheOn ? 64 * 1024 * 1024 : 0, stats });
const requests = paths.map((path) => benchRequest(path));

const rounds = Number(flags.rounds);
const means: number[] = [];
/** CPU time (all threads: the collector's too) per request: steadier than wall time on a shared machine. */
const cpuMeans: number[] = [];
let bytes = 0;
let checksum = 0;
for (let round = -1; round < rounds; round++) {
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  for (const request of requests) {
    const outgoing = dispatcher.dispatch(request);
    if (outgoing instanceof Promise || outgoing.status !== 200 || outgoing.body === null) throw new Error(`${request.url}?${request.rawQuery} did not answer 200 at once`);
    // Read the body as a socket would, so the render cannot be optimised away.
    checksum = (checksum + (outgoing.body[outgoing.body.length >> 1] as number)) | 0;
    if (round === 0) bytes += outgoing.contentLength;
  }
  if (round < 0) continue;
  means.push(Number(process.hrtime.bigint() - started) / 1000 / requests.length);
  const cpu = process.cpuUsage(cpuStarted);
  cpuMeans.push((cpu.user + cpu.system) / requests.length);
}
const hits = stats.cache.hits;
process.stdout.write(`${today()} on ${machine()}: mix (b), ${requests.length} URLs, cache ${isCacheOn ? "on (every request a miss)" : "off"}, ${rounds} passes after a warm-up: `
  + `${median([...means].sort((a, b) => a - b)).toFixed(1)} µs a request (passes ${Math.min(...means).toFixed(1)}–${Math.max(...means).toFixed(1)}), `
  + `CPU ${median([...cpuMeans].sort((a, b) => a - b)).toFixed(1)} µs (${Math.min(...cpuMeans).toFixed(1)}–${Math.max(...cpuMeans).toFixed(1)}), `
  + `mean body ${(bytes / requests.length / 1024).toFixed(1)} KiB, ${hits} cache hits (${checksum & 1})\n`);
