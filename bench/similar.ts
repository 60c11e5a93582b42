// The similar-players benchmark (issue 24): GET /api/players/:id/similar's store work on a
// generated edition of N players (default 1,000,000), in process: the profile index's search
// (similarRows) against the plain scan of every row in scope (similarRowsByScan), alternated
// query by query, each answer checked equal to the scan's. Queries as load mix (i)'s `similar`
// URLs: any row, 20 % an era scope, 30 % a position, 40 % a limit of 5, 20 or 50 (else 10); the
// default scope is the player's own era. Times are CPU time of this thread per request.
// `--unique` adds a second pass after jittering every profile attribute of every row (±N(0, 3),
// clamped to 25–99): the generated edition draws its rows from ~16,000 shared profiles, so most
// targets have exact duplicates; jittered, none has, and the search must find its neighbours by distance.
// Usage: npm run bench:similar [-- --players 1000000 --queries 2000 --scan-queries 200 --unique --no-readme]
// On a shared machine, run ≥ 500,000 players one build at a time (e.g. under `flock LOCKFILE`): ~6.5 GB each.

import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { buildSnapshotPayload } from "../src/pipeline/build-snapshot.js";
import { Random } from "../src/pipeline/demo/random.js";
import { generateScaleEdition } from "../src/pipeline/demo.js";
import { ERAS } from "../src/model/eras.js";
import { parsePositionMask } from "../src/model/positions.js";
import { ALL_ERAS_MASK } from "../src/query/plan.js";
import {
  attributeSpreadOf, contrastProfiles, profileColumnsOf, profileIndexOf, similarRows, similarRowsByScan, storedProfileIndexOf, type SimilarMatch, type SimilarQuery,
} from "../src/store/attribute-profile.js";
import { Edition } from "../src/store/edition.js";
import { editionOf } from "../src/store/derived-tables.js";
import { machine, percentile, table, today, writeSection } from "./report.js";
import { ABSENT_RATING } from "../src/model/attributes.js";

const { values: flags } = parseArgs({
  options: {
    players: { type: "string", default: "1000000" },
    queries: { type: "string", default: "2000" },
    "scan-queries": { type: "string", default: "200" },
    unique: { type: "boolean", default: false },
    seed: { type: "string", default: "24" },
    "no-readme": { type: "boolean", default: false },
  },
});
const players = Number(flags.players);
const queryCount = Number(flags.queries);
const scanQueryCount = Math.min(queryCount, Number(flags["scan-queries"]));
const peakRssMiB = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024);
const cpuMicros = () => { const { user, system } = process.cpuUsage(); return user + system; };

/** The demo generator's seeded mulberry32, so every run asks the same questions. */
function seeded(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}

/** Every profile attribute a row holds moves by round(3 · N(0, 1)), clamped to 25–99, in both layouts. */
function jitterProfiles(attributes: Uint8Array, attributeColumns: Uint8Array, rows: number): void {
  const random = seeded(0x5eed);
  const keyCount = attributes.length / Math.max(1, rows);
  const probe = new Edition(buildSnapshotPayload(generateScaleEdition({ players: 10 })), "probe");
  const columns = profileColumnsOf(probe);
  for (let row = 0; row < rows; row++) {
    for (const column of columns) {
      const i = row * keyCount + column;
      const value = attributes[i] as number;
      if (value === ABSENT_RATING) continue;
      const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const moved = Math.max(25, Math.min(99, Math.round(value + 3 * normal)));
      attributes[i] = moved;
      attributeColumns[column * rows + row] = moved;
    }
  }
}

function queriesOf(edition: Edition): SimilarQuery[] {
  const random = seeded(Number(flags.seed));
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const { era } = edition.payload.columns;
  return Array.from({ length: queryCount }, () => {
    const row = Math.floor(random() * edition.rowCount);
    const scope = random() < 0.2 ? pick(["all", ...ERAS] as const) : (ERAS[era[row] as number] as string);
    const eraMask = scope === "all" ? ALL_ERAS_MASK : 1 << ERAS.indexOf(scope as (typeof ERAS)[number]);
    const positionMask = random() < 0.3 ? (parsePositionMask(pick(["PG", "SG", "SF", "PF", "C", "guard", "wing", "big"])) ?? 0) : 0;
    const limit = random() < 0.4 ? pick([5, 20, 50]) : 10;
    return { row, eraMask, positionMask, limit };
  });
}

const same = (a: readonly SimilarMatch[], b: readonly SimilarMatch[]) =>
  a.length === b.length && a.every((match, i) => match.row === b[i]?.row && match.similarity === b[i]?.similarity && match.shared === b[i]?.shared);

/** One pass of every query over a fresh Edition of the payload (its own spreads and index, built here). */
function runPass(edition: Edition, isUnique: boolean): { text: string; mismatches: number } {
  let started = performance.now();
  attributeSpreadOf(edition);
  const spreadMs = performance.now() - started;
  // The index the Edition derived (the payload had none); built once more here to time its build.
  started = performance.now();
  storedProfileIndexOf(edition);
  const indexMs = performance.now() - started;
  const index = profileIndexOf(edition);
  const indexBytes = [index.rows, index.partialRows, index.nodeStart, index.nodeEnd, index.nodeLeft, index.nodeRight, index.boxLow, index.boxHigh, index.weights]
    .reduce((sum, array) => sum + array.byteLength, 0);
  const queries = queriesOf(edition);
  const scopeRows = (query: SimilarQuery) => ERAS.reduce((sum, _, code) =>
    sum + (((query.eraMask >>> code) & 1) === 0 ? 0 : (edition.eraStart[code + 1] as number) - (edition.eraStart[code] as number)), 0);

  // Warm-up: both paths compiled before anything is timed.
  for (const query of queries.slice(0, 30)) { similarRows(edition, query); similarRowsByScan(edition, query); }

  const indexed: number[] = [];
  const indexedWithContrasts: number[] = [];
  const scanned: number[] = [];
  const rowsLooked: number[] = [];
  let mismatches = 0;
  let scopeSum = 0;
  const scanEvery = Math.max(1, Math.floor(queryCount / Math.max(1, scanQueryCount)));
  queries.forEach((query, q) => {
    const isCompared = q % scanEvery === 0 && scanned.length < scanQueryCount;
    let reference: SimilarMatch[] | undefined;
    // Alternate which path runs first, so drift on the busy machine hits both alike.
    if (isCompared && q % 2 === 0) {
      const t0 = cpuMicros();
      reference = similarRowsByScan(edition, query);
      scanned.push(cpuMicros() - t0);
    }
    const t0 = cpuMicros();
    const matches = similarRows(edition, query);
    const t1 = cpuMicros();
    for (const match of matches) contrastProfiles(edition, query.row, match.row);
    const t2 = cpuMicros();
    indexed.push(t1 - t0);
    indexedWithContrasts.push(t2 - t0);
    rowsLooked.push(index.work.rows);
    scopeSum += scopeRows(query);
    if (isCompared && reference === undefined) {
      const t3 = cpuMicros();
      reference = similarRowsByScan(edition, query);
      scanned.push(cpuMicros() - t3);
    }
    if (reference !== undefined && !same(matches, reference)) mismatches++;
  });
  for (const values of [indexed, indexedWithContrasts, scanned, rowsLooked]) values.sort((a, b) => a - b);
  const ms = (micros: number) => (micros / 1000).toFixed(micros < 10_000 ? 3 : 1);
  const report = {
    when: today(), machine: machine(), players, unique: isUnique, queries: indexed.length, compared: scanned.length, mismatches,
    spreadMs: Math.round(spreadMs), indexMs: Math.round(indexMs), indexMiB: (indexBytes / 1024 / 1024).toFixed(1),
    completeRows: index.rows.length, partialRows: index.partialRows.length, nodes: index.nodeStart.length, peakRssMiB: peakRssMiB(),
    meanScopeRows: Math.round(scopeSum / indexed.length),
    rowsLookedP50: percentile(rowsLooked, 50), rowsLookedP99: percentile(rowsLooked, 99),
  };
  const rows = [
    ["index search (`similarRows`)", String(indexed.length), ms(percentile(indexed, 50)), ms(percentile(indexed, 99)), ms(indexed[indexed.length - 1] ?? 0)],
    ["index search + 10–50 contrasts (the route's store work)", String(indexed.length), ms(percentile(indexedWithContrasts, 50)), ms(percentile(indexedWithContrasts, 99)), ms(indexedWithContrasts[indexedWithContrasts.length - 1] ?? 0)],
    ["scan (`similarRowsByScan`, before)", String(scanned.length), ms(percentile(scanned, 50)), ms(percentile(scanned, 99)), ms(scanned[scanned.length - 1] ?? 0)],
  ];
  const text = [
    `${players.toLocaleString("en")} players${isUnique ? ", every profile jittered (no two rows share one)" : " as generated (rows share ~16,000 profiles)"}: ` +
      `${report.completeRows.toLocaleString("en")} rows in the trees, ${report.partialRows} checked one by one; mean scope ${report.meanScopeRows.toLocaleString("en")} rows. ` +
      `Index built in ${report.indexMs} ms (by build-index, or once at load for a file without one; spreads ${report.spreadMs} ms), ${report.indexMiB} MiB shared by the threads, ${report.nodes.toLocaleString("en")} nodes.`,
    "",
    table(["path", "requests", "p50 ms", "p99 ms", "max ms"], rows),
    "",
    `Rows looked at per request: p50 ${report.rowsLookedP50.toLocaleString("en")}, p99 ${report.rowsLookedP99.toLocaleString("en")}. ` +
      `Answers equal to the scan's: ${report.compared - mismatches} of ${report.compared}.`,
  ].join("\n");
  console.log(text);
  console.log(JSON.stringify(report));
  return { text, mismatches };
}

function main(): void {
  const started = performance.now();
  const payload = buildSnapshotPayload(generateScaleEdition({ players }));
  const buildMs = performance.now() - started;
  // Without the index build-index stored: each pass's Edition (editionOf) derives it, as loading does for a file
  // without one (the jittered pass so gets an index of its own columns).
  // A fresh payload object each time: editionOf fills the index into the one it is given.
  const withoutIndex = (): typeof payload => { const { profileIndex: _stored, ...rest } = payload; return rest; };
  const passes = [runPass(editionOf(withoutIndex(), `bench-similar-${players}`), false)];
  if (flags.unique) {
    jitterProfiles(payload.columns.attributes, payload.columns.attributeColumns, payload.meta.playerCount);
    passes.push(runPass(editionOf(withoutIndex(), `bench-similar-unique-${players}`), true));
  }
  const text = [
    `Last run: ${today()} on ${machine()} — shared, busy machine (load average ${loadavg()[0]?.toFixed(1)} at the end). ` +
      `Edition generated and built in ${(buildMs / 1000).toFixed(0)} s; peak resident ${peakRssMiB().toLocaleString("en")} MiB.`,
    ...passes.map((pass) => pass.text),
  ].join("\n\n");
  if (!flags["no-readme"]) writeSection(`similar-${players}`, text);
  if (passes.some((pass) => pass.mismatches > 0)) process.exitCode = 1;
}

main();
