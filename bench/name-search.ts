// The name index beside its measured peer, FlexSearch 0.8 (a devDependency; the design named it):
// the same names (the current demo edition, the real 2K26 samples, 1,000,000 generated names),
// the same queries (the 46-row quality table of test/store/name-index.test.ts, prefixes, one-typo
// names), side by side: expected player first, found rates, p50/p99 per query, build time, and
// what each worker thread holds. Each name set runs in a fresh child process so memory is its own.
// Usage: npm run bench:names [-- --sizes real,demo,1000000 --queries 1000 --no-readme]

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Charset, Index, type IndexOptions } from "flexsearch";
import { buildSearchData, NameIndex } from "../src/store/name-index.js";
import { generateDemoEditions, generateScaleEdition } from "../src/pipeline/demo.js";
import { importFiles } from "../src/pipeline/import.js";
import { compareText } from "../src/model/badge-summary.js";
import { ERA_CODE, type Era } from "../src/model/eras.js";
import { foldName } from "../src/model/names.js";
import type { PlayerRecord } from "../src/model/player.js";
import { QUALITY_TABLE } from "../test/fixtures/search-quality.js";
import { machine, percentile, table, today, writeSection } from "./report.js";
import { mulberry32 } from "../test/fixtures/random-edition.js";
import type { SnapshotColumns, SortOrders } from "../src/store/edition-tables.js";

const { values: flags } = parseArgs({
  options: {
    sizes: { type: "string", default: "real,demo,1000000" },
    queries: { type: "string", default: "1000" },
    set: { type: "string" },
    "no-readme": { type: "boolean", default: false },
  },
});
const QUERIES = Number(flags.queries);
const ALL_ERAS = 0b111;

/**
 * FlexSearch's settings for names, chosen by the quality table (bench output lists the others):
 * forward tokenizer (a word matches by its start, as ours), LatinBalance encoder (case, accents
 * and some letter confusions folded), `suggest` on at query time (rows matching only some words
 * still come back, which is how it tolerates a typo'd word). It indexes what ours does: the folded
 * name plus hyphenated parts written together.
 */
const FLEX_CANDIDATES = {
  "forward, LatinBalance, suggest": { tokenize: "forward", encoder: Charset.LatinBalance },
  "forward, LatinAdvanced, suggest": { tokenize: "forward", encoder: Charset.LatinAdvanced },
  "forward, LatinExtra, suggest": { tokenize: "forward", encoder: Charset.LatinExtra },
  "forward, Normalize, suggest": { tokenize: "forward", encoder: Charset.Normalize },
} as const;
type FlexName = keyof typeof FLEX_CANDIDATES;
const FLEX_BEST: FlexName = "forward, LatinBalance, suggest";

interface Entry { name: string; team: string; era: Era; overall: number }

function namesOf(set: string): Entry[] {
  const entry = (player: PlayerRecord): Entry => ({ name: player.name, team: player.team, era: player.teamType, overall: player.overall });
  if (set === "real") {
    const files = ["2k26-curr.csv", "2k26-allt.csv", "2k26-api-export-sample.json"].map((file) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url)));
    return importFiles(files, { capturedAt: "2025-08-01T00:00:00.000Z" }).map(entry);
  }
  if (set === "demo") return (generateDemoEditions({ asOf: "2026-11-20" }).find((edition) => edition.status === "current")?.players ?? []).map(entry);
  return generateScaleEdition({ players: Number(set) }).players.map(entry);
}

const hyphenJoined = (name: string) => name.split(/\s+/).filter((part) => part.includes("-")).map((part) => foldName(part.replace(/-/g, ""))).join(" ");
const flexText = (entry: Entry) => `${foldName(entry.name)} ${hyphenJoined(entry.name)}`.trim();

/** Our index over names alone: the build-time search arrays plus the three columns it ranks by. */
function buildOurs(entries: readonly Entry[]): NameIndex {
  const folded = entries.map((entry) => foldName(entry.name));
  const search = buildSearchData(entries as unknown as PlayerRecord[], folded);
  const byName = entries.map((_, row) => row).sort((a, b) => compareText(folded[a] as string, folded[b] as string) || compareText((entries[a] as Entry).name, (entries[b] as Entry).name));
  const nameRank = new Uint32Array(entries.length);
  byName.forEach((row, rank) => { nameRank[row] = rank; });
  const columns = { overall: Uint8Array.from(entries, (entry) => entry.overall), era: Uint8Array.from(entries, (entry) => ERA_CODE[entry.era]), nameRank } as unknown as SnapshotColumns;
  return new NameIndex(search, columns, { name: Uint32Array.from(byName) } as unknown as SortOrders);
}

function buildFlex(entries: readonly Entry[], name: FlexName): Index {
  const index = new Index(FLEX_CANDIDATES[name] as IndexOptions);
  entries.forEach((entry, row) => index.add(row, flexText(entry)));
  return index;
}

type Search = (query: string, eraMask: number, limit: number) => number[];

function flexSearcher(index: Index, entries: readonly Entry[]): Search {
  return (query, eraMask, limit) => {
    // FlexSearch has no era field: ask for more and keep the eras in scope.
    const ids = index.search(foldName(query), { limit: eraMask === ALL_ERAS ? limit : limit * 20, suggest: true }) as number[];
    const rows = eraMask === ALL_ERAS ? ids : ids.filter((row) => ((eraMask >>> ERA_CODE[(entries[row] as Entry).era]) & 1) === 1);
    return rows.slice(0, limit);
  };
}

function qualityHits(search: Search, entries: readonly Entry[]): number {
  let hits = 0;
  for (const row of QUALITY_TABLE) {
    const first = search(row.q, row.era ? 1 << ERA_CODE[row.era] : ALL_ERAS, 5)[0];
    const entry = first === undefined ? undefined : entries[first];
    if (entry?.name === row.name && entry.team === row.team) hits++;
  }
  return hits;
}

/** Seeded queries from the set's own names: what a person would type for that player. */
function queriesOf(entries: readonly Entry[]): { prefix: [string, number][]; typo: [string, number][] } {
  const random = mulberry32(2026);
  const prefix: [string, number][] = [];
  const typo: [string, number][] = [];
  while (prefix.length < QUERIES || typo.length < QUERIES) {
    const row = Math.floor(random() * entries.length);
    const words = foldName((entries[row] as Entry).name).split(" ").filter((word) => word.length > 0);
    const first = words[0] ?? "";
    const last = words[words.length - 1] ?? "";
    if (prefix.length < QUERIES && words.length >= 2 && first.length >= 3 && last.length >= 3) {
      // `step cur`: the first word's start and the last word's start.
      prefix.push([`${first.slice(0, Math.min(4, first.length))} ${last.slice(0, 3)}`, row]);
    }
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a), "");
    if (typo.length < QUERIES && longest.length >= 5) {
      // One letter in the middle of the longest word replaced by the next letter of the alphabet.
      const at = longest.length >> 1;
      const replaced = String.fromCharCode(((longest.charCodeAt(at) - 97 + 1) % 26) + 97);
      typo.push([words.map((word) => (word === longest ? word.slice(0, at) + replaced + word.slice(at + 1) : word)).join(" "), row]);
    }
  }
  return { prefix, typo };
}

interface Timed { found: number; p50: number; p99: number }

/** Per query: the time of one search; found = a row of the same folded name is within `limit`. */
function timeQueries(search: Search, entries: readonly Entry[], queries: readonly [string, number][], limit: number): Timed {
  const folded = (row: number) => foldName((entries[row] as Entry).name);
  for (const [query] of queries.slice(0, 50)) search(query, ALL_ERAS, limit); // warm-up
  const times: number[] = [];
  let found = 0;
  for (const [query, row] of queries) {
    const started = process.hrtime.bigint();
    const rows = search(query, ALL_ERAS, limit);
    times.push(Number(process.hrtime.bigint() - started) / 1000);
    const want = folded(row);
    if (rows.some((candidate) => folded(candidate) === want)) found++;
  }
  times.sort((a, b) => a - b);
  return { found, p50: percentile(times, 50), p99: percentile(times, 99) };
}

function heapAfterGc(): { heap: number; buffers: number } {
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

interface SetResult {
  set: string;
  names: number;
  quality?: { ours: number; flex: Record<string, number> };
  ours: { buildMs: number; sharedMiB: number; perWorkerMiB: number; prefix: Timed; typo: Timed };
  flex: { buildMs: number; perWorkerMiB: number; prefix: Timed; typo: Timed };
}

/** One name set, in this process (a child of the driver). */
function measureSet(set: string): SetResult {
  let entries = namesOf(set);
  entries = entries.map((entry) => ({ ...entry })); // detach from the records, so they can be collected
  const queries = queriesOf(entries);
  const mib = (bytes: number) => bytes / 1024 / 1024;

  let started = performance.now();
  const ours = buildOurs(entries);
  const oursBuildMs = performance.now() - started;
  const data = (ours as unknown as { data: Record<string, unknown> }).data;
  const sharedBytes = Object.values(data).reduce<number>((sum, value) => sum + sizeOf(value), 0);
  // Per worker: the index is views over the shared arrays plus its scratch, allocated on the first query.
  const oursSearch: Search = (query, eraMask, limit) => ours.search(query, eraMask, limit).rows;
  oursSearch("a", ALL_ERAS, 1);
  const scratch = ["wordsMatched", "tierOfRow", "touchedRows", "sortKeys", "tokenStamp"]
    .reduce((sum, field) => sum + sizeOf((ours as unknown as Record<string, unknown>)[field]), 0);

  const beforeFlex = heapAfterGc();
  started = performance.now();
  const flex = buildFlex(entries, FLEX_BEST);
  const flexBuildMs = performance.now() - started;
  const afterFlex = heapAfterGc();
  const flexSearch = flexSearcher(flex, entries);

  const result: SetResult = {
    set,
    names: entries.length,
    ours: {
      buildMs: oursBuildMs, sharedMiB: mib(sharedBytes),
      perWorkerMiB: mib(scratch),
      prefix: timeQueries(oursSearch, entries, queries.prefix, 50), typo: timeQueries(oursSearch, entries, queries.typo, 10),
    },
    flex: {
      buildMs: flexBuildMs, perWorkerMiB: mib(afterFlex.heap - beforeFlex.heap + afterFlex.buffers - beforeFlex.buffers),
      prefix: timeQueries(flexSearch, entries, queries.prefix, 50), typo: timeQueries(flexSearch, entries, queries.typo, 10),
    },
  };
  if (set === "real") {
    const flexQuality: Record<string, number> = {};
    for (const name of Object.keys(FLEX_CANDIDATES) as FlexName[]) flexQuality[name] = qualityHits(flexSearcher(buildFlex(entries, name), entries), entries);
    result.quality = { ours: qualityHits(oursSearch, entries), flex: flexQuality };
  }
  return result;
}

function sizeOf(value: unknown): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value !== null && typeof value === "object") return Object.values(value).reduce<number>((sum, item) => sum + sizeOf(item), 0);
  return 0;
}

if (flags.set !== undefined) {
  process.stdout.write(`${JSON.stringify(measureSet(flags.set))}\n`);
} else {
  const results: SetResult[] = [];
  for (const set of (flags.sizes ?? "").split(",").filter((item) => item.length > 0)) {
    process.stderr.write(`name search: ${set}…\n`);
    const child = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=12288", fileURLToPath(import.meta.url), "--set", set, "--queries", String(QUERIES)], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`name set ${set} failed (exit ${child.status})`);
    results.push(JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as SetResult);
  }
  const label = (set: string) => (set === "real" ? "real 2K26 samples" : set === "demo" ? "demo 2K27 (current)" : `${Number(set).toLocaleString("en-US")} generated`);
  const f = (n: number, digits = 0) => n.toFixed(digits);
  const rows: string[][] = [];
  const quality = results.find((result) => result.quality)?.quality;
  if (quality) {
    rows.push(["quality table: expected player first (of 46), real 2K26", `**${quality.ours}**`, `**${quality.flex[FLEX_BEST]}**`]);
  }
  for (const result of results) {
    const n = `${label(result.set)}, ${result.names.toLocaleString("en-US")} names`;
    rows.push([`${n}: build`, `${f(result.ours.buildMs)} ms (offline, in build-index)`, `${f(result.flex.buildMs)} ms (in every worker, at boot)`]);
    rows.push([`${n}: memory per worker thread`, `${f(result.ours.perWorkerMiB, 1)} MiB (scratch) + ${f(result.ours.sharedMiB, 1)} MiB shared by all threads`, `${f(result.flex.perWorkerMiB, 1)} MiB (JS heap)`]);
    for (const kind of ["prefix", "typo"] as const) {
      const ours = result.ours[kind];
      const flex = result.flex[kind];
      const what = kind === "prefix" ? `prefix (\`step cur\`), found in top 50` : "one typo (`stephen cudry`), found in top 10";
      rows.push([`${n}: ${what}`, `${ours.found}/${QUERIES}`, `${flex.found}/${QUERIES}`]);
      rows.push([`${n}: ${kind} p50 / p99 per query`, `${f(ours.p50, 1)} / ${f(ours.p99, 1)} µs`, `${f(flex.p50, 1)} / ${f(flex.p99, 1)} µs`]);
    }
  }
  const others = quality ? Object.entries(quality.flex).map(([name, hits]) => `${name}: ${hits}/46`).join("; ") : "";
  const body = [
    `Last run: ${today()} on ${machine()} (shared, busy machine; lead re-runs). \`npm run bench:names -- --queries ${QUERIES}\`; each name set in a fresh process.`,
    "",
    table(["measure", "our name index", `FlexSearch 0.8 (${FLEX_BEST})`], rows),
    "",
    others ? `FlexSearch settings tried on the quality table (the best is used above): ${others}.` : "",
  ].join("\n");
  process.stdout.write(`${body}\n`);
  if (!flags["no-readme"]) writeSection("names", body);
}
