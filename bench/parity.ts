// Cost per request of the drop-in parity routes (docs/compatibility.md#the-hosted-services-extra-routes), in process, no HTTP: the 1,000
// URLs of load mix (g) through the real dispatcher with the response cache off, so each request
// validates, looks up the precomputed holder runs / trending windows / id map and renders from
// fragments. Grouped by route; one pass of warm-up, then `--rounds` timed passes.
// `--mix i` measures load mix (i) the same way instead: the profile routes (similar players,
// comparisons, team profiles), recorded as the `profiles` section. `--mix percentiles`: 1,000
// /api/players/:id/percentiles URLs (any player, each cohort kind a third), section `percentiles`.
// Any other mix (`--mix b`, the filtered pages) is measured the same way and printed only.
// `--cache-mib 64` turns the response cache on instead (the repeated, cached path; never written to the README).
// Usage: node dist/bench/parity.js [-- --rounds 20 --mix g|i|percentiles|b… --cache-mib 0 --no-readme]

import { parseArgs } from "node:util";
import { loadEditionSet } from "../src/store/editions.js";
import { benchDispatcher, benchRequest } from "./in-process.js";
import { buildMixes } from "./mixes.js";
import { machine, median, percentile, table, today, writeResults, writeSection } from "./report.js";

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    mix: { type: "string", default: "g" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" },
    "no-readme": { type: "boolean", default: false },
    note: { type: "string", default: "" },
    /** MiB of response cache (default 0: off); with it on, every pass after the first replays cached answers. */
    "cache-mib": { type: "string", default: "0" },
  },
});

const editions = loadEditionSet(flags["data-dir"]);
const mixName = flags.mix;
/** The README section of a run with the cache off: (g), (i) and percentiles only; another mix (b, c, f …) is printed, not recorded. */
const sectionName = mixName === "g" ? "parity" : mixName === "i" ? "profiles" : mixName === "percentiles" ? "percentiles" : undefined;
const paths = mixName === "percentiles" ? percentilePaths(1000) : buildMixes(editions.current).find((mix) => mix.name === mixName)?.paths ?? [];
if (paths.length === 0) throw new Error(`no load mix named ${mixName}`);

/** `count` percentile URLs of the current edition: players spread evenly over its rows, the cohort kinds in turn. */
function percentilePaths(count: number): string[] {
  const edition = editions.current;
  const kinds = ["position", "era", "all"];
  return Array.from({ length: count }, (_, i) => {
    const row = Math.floor((i * edition.rowCount) / count);
    return `/api/players/${edition.record(row)._id}/percentiles?cohort=${kinds[i % 3] as string}`;
  });
}
const dispatcher = benchDispatcher(editions, { cacheBytes: Number(flags["cache-mib"]) * 1024 * 1024 });

const requests = paths.map((path) => ({ path, request: benchRequest(path) }));
/** Percentiles: each cohort kind's first request in the process (the sorted values are the snapshot's: nothing is built; before, this built the kind's tables). */
const firstUse = mixName !== "percentiles" ? [] : requests.slice(0, 3).map(({ path, request: incoming }) => {
  const started = process.hrtime.bigint();
  dispatcher.dispatch(incoming);
  return `${/cohort=(\w+)/.exec(path)?.[1] ?? "?"} ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms`;
});
const byRoute = new Map<string, number[]>();
const bytesByRoute = new Map<string, number>();
const rounds = Number(flags.rounds);
/** CPU time (user + system) of the timed passes: unlike wall time per request, not inflated when the machine is shared. */
let cpu: NodeJS.CpuUsage = { user: 0, system: 0 };
for (let round = -1; round < rounds; round++) {
  if (round === 0) cpu = process.cpuUsage();
  for (const { path, request: incoming } of requests) {
    const started = process.hrtime.bigint();
    const answer = dispatcher.dispatch(incoming);
    // Every route of this mix is a GET, answered synchronously; only key writes answer later.
    if (answer instanceof Promise) throw new Error(`${path} answered asynchronously`);
    const outgoing = answer;
    const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
    if (outgoing.status !== 200) throw new Error(`${path} answered ${outgoing.status}`);
    if (round < 0) {
      bytesByRoute.set(outgoing.route, (bytesByRoute.get(outgoing.route) ?? 0) + outgoing.contentLength);
      continue;
    }
    const samples = byRoute.get(outgoing.route) ?? [];
    samples.push(elapsedUs);
    byRoute.set(outgoing.route, samples);
  }
}

const rows = [...byRoute].sort(([a], [b]) => (a < b ? -1 : 1)).map(([route, samples]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const urls = samples.length / rounds;
  return [`\`${route}\``, String(urls), ((bytesByRoute.get(route) ?? 0) / urls / 1024).toFixed(1), median(sorted).toFixed(1), percentile(sorted, 99).toFixed(1)];
});
const cpuSpent = process.cpuUsage(cpu);
const all = [...byRoute.values()].flat().sort((a, b) => a - b);
const cpuMeanUs = (cpuSpent.user + cpuSpent.system) / all.length;
const section = [
  `Last run: ${today()} on ${machine()}${flags.note ? ` — ${flags.note}` : ""}.`,
  `The ${paths.length} URLs of ${mixName === "percentiles" ? "percentile requests" : `load mix (${mixName})`} through the dispatcher in process (no sockets), response cache ${flags["cache-mib"] === "0" ? "off" : `${flags["cache-mib"]} MiB`}, ${rounds} passes after one warm-up pass;`,
  mixName === "percentiles"
    ? `each request is validated, its player resolved and answered by two binary searches per value in the cohort's sorted values (stored in the snapshot by build-index, viewed in place) and rendered (${editions.current.key}, ${editions.current.rowCount} players).`
    : mixName === "g"
    ? "each request is validated, looked up in the precomputed structures (badge holder runs, trending windows, the _id map, weekly series) and rendered."
    : mixName !== "i"
      ? "each request takes the whole request path in process: routing, validation, the query, rendering (or, with the cache on, the cached answer)."
      : "each request is validated and answered from the columns (similar: in the player's own era without a position, the nearest-profile list build-index stored, in any other scope a search of the profile index it stored; spreads, squared standardised differences, group scores and team profiles read from the tables build-index stored beside it, store/profile-tables.ts) and rendered.",
  "",
  table(["route", "URLs", "mean body KiB", "p50 µs", "p99 µs"], rows),
  "",
  `All ${all.length} requests: p50 ${median(all).toFixed(1)} µs, p99 ${percentile(all, 99).toFixed(1)} µs; process CPU (user + system, over the timed passes) ${cpuMeanUs.toFixed(1)} µs a request.`,
  ...(firstUse.length === 0 ? [] : ["", `First request of each cohort kind in the process (reads the stored tables): ${firstUse.join(", ")}.`]),
].join("\n");
process.stdout.write(`${section}\n`);
if (!flags["no-readme"] && flags["cache-mib"] === "0" && sectionName !== undefined) {
  writeResults(sectionName, { rounds, p50Us: median(all), p99Us: percentile(all, 99), cpuMeanUs, routes: Object.fromEntries(rows.map((row) => [row[0], { p50Us: Number(row[3]), p99Us: Number(row[4]) }])) });
  writeSection(sectionName, section);
}
