// The scale benchmark: a generated edition of N players (default 1,000,000). Builds its snapshot
// once (generateScaleEdition → buildSnapshotPayload → writeSnapshotAtomic) into a cache directory,
// then in a fresh process times loadEdition (read + verify + views, then the Edition's few
// derived structures), the resident memory, and ~1,000 random filter+sort+page queries through the same
// path as GET /api/players (validate → select → plan → execute → render a page).
// Usage: npm run bench:scale [-- --players 1000000 --queries 1000 --cache-dir DIR --rebuild --no-readme]

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildSnapshotPayload } from "../src/pipeline/build-snapshot.js";
import { generateScaleEdition } from "../src/pipeline/demo.js";
import { readSnapshot, writeSnapshotAtomic } from "../src/store/snapshot.js";
import { Edition } from "../src/store/edition.js";
import { executeQuery } from "../src/query/execute.js";
import { compileParams, CURSOR_PARAM, limitParam, playerFilterParams, validateParams } from "../src/query/params.js";
import { planQuery, selectPlayers } from "../src/query/player-params.js";
import { parseQueryString } from "../src/query/query-string.js";
import { buildMixes } from "./mixes.js";
import { machine, percentile, readResults, table, today, writeResults, writeSection } from "./report.js";
import { refreshTargets } from "./targets.js";
import { playerPage } from "../src/http/routes/player-rows.js";

const { values: flags } = parseArgs({
  options: {
    phase: { type: "string", default: "main" },
    players: { type: "string", default: "1000000" },
    queries: { type: "string", default: "1000" },
    file: { type: "string" },
    "cache-dir": { type: "string", default: join(tmpdir(), "courtside-scale") },
    rebuild: { type: "boolean", default: false },
    "no-readme": { type: "boolean", default: false },
  },
});
const players = Number(flags.players);
const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
/** Peak resident memory of this process so far (VmHWM), in MiB. */
const peakRssMiB = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024);

interface BuildReport { builtAt: string; generateMs: number; payloadMs: number; writeMs: number; bytes: number; peakRssMiB: number }
interface LoadReport {
  readMs: number; editionMs: number; rssMiB: number; heapMiB: number; buffersMiB: number; peakRssMiB: number;
  queries: number; totalP50Ms: number; totalP99Ms: number; executeP50Ms: number; executeP99Ms: number; renderP50Ms: number; renderP99Ms: number;
  meanMatches: number; meanPageKiB: number;
}

function buildPhase(file: string): BuildReport {
  let started = performance.now();
  const source = generateScaleEdition({ players });
  const generateMs = performance.now() - started;
  started = performance.now();
  const payload = buildSnapshotPayload(source);
  const payloadMs = performance.now() - started;
  started = performance.now();
  const bytes = writeSnapshotAtomic(file, payload).length;
  return { builtAt: today(), generateMs, payloadMs, writeMs: performance.now() - started, bytes, peakRssMiB: peakRssMiB() };
}

function loadPhase(file: string, queryCount: number): LoadReport {
  let started = performance.now();
  const { payload, checksum } = readSnapshot(file);
  const readMs = performance.now() - started;
  started = performance.now();
  const edition = new Edition(payload, checksum);
  const editionMs = performance.now() - started;
  globalThis.gc?.();
  const memory = process.memoryUsage();

  // The filtered/sorted/paged queries of load mix (b), drawn against this edition's teams.
  const paths = buildMixes(edition, 11).find((mix) => mix.name === "b")?.paths ?? [];
  const listParams = compileParams({ ...playerFilterParams({ withAllEras: true }), limit: limitParam(100, 50), cursor: CURSOR_PARAM });
  const total: number[] = [];
  const execute: number[] = [];
  const render: number[] = [];
  let matches = 0;
  let pageBytes = 0;
  for (let q = 0; q < queryCount + 50; q++) {
    const rawQuery = paths[q % paths.length]?.split("?")[1] ?? "";
    const t0 = performance.now();
    const values = validateParams(listParams, parseQueryString(rawQuery));
    const selection = selectPlayers(values, { era: "curr" });
    const limit = (values.limit as number | undefined) ?? 50;
    const offset = Number(values.cursor ?? 0);
    const query = planQuery(edition, selection);
    const t1 = performance.now();
    const result = executeQuery(edition, query, offset, limit);
    const t2 = performance.now();
    const next = offset + result.rows.length;
    const reply = playerPage(edition, result.rows, { fieldMask: selection.fieldMask, isVersioned: false }, {
      count: result.rows.length,
      pagination: { total: result.total, limit, cursor: String(offset), nextCursor: next < result.total ? String(next) : null, hasMore: next < result.total },
    }, "/api/players|scale");
    const t3 = performance.now();
    if (q < 50) continue; // warm-up: the first queries compile the kernel
    total.push(t3 - t0);
    execute.push(t2 - t1);
    render.push(t3 - t2);
    matches += result.total;
    pageBytes += reply.body.length;
  }
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  sorted(total); sorted(execute); sorted(render);
  return {
    readMs, editionMs, rssMiB: mib(memory.rss), heapMiB: mib(memory.heapUsed), buffersMiB: mib(memory.arrayBuffers), peakRssMiB: peakRssMiB(),
    queries: total.length,
    totalP50Ms: percentile(total, 50), totalP99Ms: percentile(total, 99),
    executeP50Ms: percentile(execute, 50), executeP99Ms: percentile(execute, 99),
    renderP50Ms: percentile(render, 50), renderP99Ms: percentile(render, 99),
    meanMatches: Math.round(matches / total.length), meanPageKiB: Math.round(pageBytes / total.length / 1024),
  };
}

/** Runs one phase in a fresh Node process (own heap, own peak RSS) and returns its JSON report. */
function child<T>(phase: string, file: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const script = new URL(import.meta.url).pathname;
    const args = ["--expose-gc", "--max-old-space-size=24000", script, "--phase", phase, "--file", file, "--players", String(players), "--queries", flags.queries];
    const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (chunk: Buffer) => { out += chunk.toString(); });
    proc.on("exit", (code) => {
      const line = /^SCALE_JSON (.+)$/m.exec(out)?.[1];
      if (code !== 0 || line === undefined) reject(new Error(`scale ${phase} phase failed (${code}):\n${out}`));
      else resolve(JSON.parse(line) as T);
    });
  });
}

/** Reads the file once, untimed, in 64 MiB pieces. */
function warmPageCache(file: string): void {
  const chunk = Buffer.allocUnsafe(64 * 1024 * 1024);
  const fd = openSync(file, "r");
  try {
    while (readSync(fd, chunk, 0, chunk.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

/** The cached snapshot is rebuilt when the generator or the snapshot builder changes. */
function cacheFile(): string {
  const sources = ["../src/pipeline/demo/scale.js", "../src/pipeline/build-snapshot.js", "../src/store/snapshot.js", "../src/codec/msgpack-document.js", "../src/pipeline/demo.js", "../src/store/fragments.js", "../src/store/name-index.js", "../src/store/string-table.js"]
    .map((path) => readFileSync(new URL(path, import.meta.url)));
  const fingerprint = createHash("sha256").update(Buffer.concat(sources)).digest("hex").slice(0, 12);
  return join(flags["cache-dir"], `2K99-${players}-${fingerprint}.msgpack`);
}

async function main(): Promise<void> {
  const file = cacheFile();
  mkdirSync(flags["cache-dir"], { recursive: true });
  let build: BuildReport | undefined;
  if (flags.rebuild || !existsSync(file)) {
    // Stale snapshots of the same size from older builders go first: each is over a gigabyte at 1 M.
    for (const name of readdirSync(flags["cache-dir"])) if (name.startsWith(`2K99-${players}-`)) unlinkSync(join(flags["cache-dir"], name));
    process.stderr.write(`building a ${players.toLocaleString("en")}-player snapshot into ${file} …\n`);
    build = await child<BuildReport>("build", file);
  }
  // A snapshot built by an earlier run: its build numbers were recorded then.
  const previous = readResults<{ file?: string; build?: BuildReport }>("scale");
  if (build === undefined && previous?.file === file && previous.build !== undefined) build = previous.build;
  const isBuiltNow = build !== undefined && previous?.build !== build;
  // The load is timed from the page cache (as a restart finds it); a run after other work may have evicted the file.
  warmPageCache(file);
  process.stderr.write(`loading ${file} in a fresh process …\n`);
  const load = await child<LoadReport>("load", file);
  const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
  const s = (value: number) => (value / 1000).toFixed(1);
  const rows: string[][] = [
    ["load: read into a SharedArrayBuffer + SHA-256 + typed-array views (readSnapshot)", `${s(load.readMs)} s`],
    ["load: new Edition (views, era and team ranges)", `${s(load.editionMs)} s`],
    ["**load total (loadEdition)**", `**${s(load.readMs + load.editionMs)} s**`],
    ["resident memory after load (RSS / JS heap / buffers)", `${load.rssMiB.toLocaleString("en")} / ${load.heapMiB.toLocaleString("en")} / ${load.buffersMiB.toLocaleString("en")} MiB`],
    ["peak resident memory while loading", `${load.peakRssMiB.toLocaleString("en")} MiB`],
    [`**filter+sort+page, whole request path** (${load.queries} queries, p50 / p99)`, `**${ms(load.totalP50Ms)} / ${ms(load.totalP99Ms)} ms**`],
    ["  of which executeQuery (filter + sort + page), p50 / p99", `${ms(load.executeP50Ms)} / ${ms(load.executeP99Ms)} ms`],
    ["  of which rendering the page, p50 / p99", `${ms(load.renderP50Ms)} / ${ms(load.renderP99Ms)} ms`],
    ["mean matches per query / mean page", `${load.meanMatches.toLocaleString("en")} rows / ${load.meanPageKiB} KiB`],
  ];
  if (build) {
    rows.unshift(
      ["build: generateScaleEdition", `${s(build.generateMs)} s`],
      ["build: buildSnapshotPayload", `${s(build.payloadMs)} s`],
      ["build: writeSnapshotAtomic (encode + SHA-256 + write)", `${s(build.writeMs)} s`],
      ["build: snapshot size / peak RSS", `${mib(build.bytes).toLocaleString("en")} MiB / ${build.peakRssMiB.toLocaleString("en")} MiB`],
    );
  }
  const section = [
    `Last run: ${today()} on ${machine()}.`,
    `A generated edition of ${players.toLocaleString("en")} players (\`generateScaleEdition\`), snapshot ${mib(statSync(file).size).toLocaleString("en")} MiB${isBuiltNow ? ", built in this run" : `, built by an earlier run${build ? ` (${build.builtAt}; its build numbers are from then)` : ""} and cached in ${flags["cache-dir"]} (\`--rebuild\` rebuilds it)`}.`,
    "Loaded in a fresh process (the file is in the page cache); queries are the filter/sort/page mix (b) drawn against this edition, one at a time, after 50 warm-up queries.",
    "",
    table(["measure", "value"], rows),
  ].join("\n");
  process.stdout.write(`${section}\n`);
  if (!flags["no-readme"]) {
    writeResults("scale", { players, file, ...load, ...(build ? { build } : {}) });
    writeSection("scale", section);
    refreshTargets();
  }
}

if (flags.phase === "build") {
  process.stdout.write(`SCALE_JSON ${JSON.stringify(buildPhase(flags.file as string))}\n`);
} else if (flags.phase === "load") {
  process.stdout.write(`SCALE_JSON ${JSON.stringify(loadPhase(flags.file as string, Number(flags.queries)))}\n`);
} else {
  await main();
}
