// The exports' one-time cost (docs/exports.md), in process: for the current demo edition, the
// time to build its export table, render its CSV lines and encode the whole edition as CSV,
// Parquet and Arrow (then Brotli 9 and gzip, as the memo keeps them), and the bytes of each;
// then a filtered export's encode time per format (500 rows of the edition, median of 20).
// Then the slices (docs/exports.md#encoding-in-slices) on a generated edition of --players players
// (default 12,000): the export table and CSV lines, and 461 and 10,000 rows in each format, run at
// once (median of 5) and across event-loop turns as a request runs them: wall time, slices, the
// longest slice (the longest the thread is held).
//
// Usage: npm run build && node dist/bench/exports.js [--data-dir data] [--players 12000]

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { loadEditionSet } from "../src/store/editions.js";
import { buildExportTable, exportTableSlices, TABLE_MEMO, type ExportTable } from "../src/export/table.js";
import { csvLinesOf, csvLinesSlices, csvSlices, encodeCsv, LINES_MEMO } from "../src/export/csv.js";
import { encodeParquet, loadParquetWriter, parquetSlices } from "../src/export/parquet.js";
import { arrowSlices, encodeArrow } from "../src/export/arrow.js";
import { Pacer, runNow, runSliced, type Sliced } from "../src/export/slices.js";
import { generateScaleEdition } from "../src/pipeline/demo.js";
import { writeEdition } from "../src/pipeline/build-edition.js";
import type { Edition } from "../src/store/edition.js";
import { ensureDemoData } from "./demo-data.js";
import { machine, median } from "./report.js";

const { values: flags } = parseArgs({ options: { "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" }, players: { type: "string", default: "12000" } } });
await loadParquetWriter();
const edition = loadEditionSet(ensureDemoData(flags["data-dir"])).current;
const all = Uint32Array.from({ length: edition.rowCount }, (_, row) => row);

const time = <T>(run: () => T): { value: T; ms: number } => {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
};

const table = time(() => buildExportTable(edition));
const lines = time(() => csvLinesOf(table.value));
edition.memo.set(TABLE_MEMO, table.value);
edition.memo.set(LINES_MEMO, lines.value);
const rows: string[] = [];
for (const [format, encode] of [
  ["csv", () => encodeCsv(edition, all)],
  ["parquet", () => encodeParquet(table.value, all)],
  ["arrow", () => encodeArrow(table.value, all)],
] as const) {
  const body = time(encode);
  const br = format === "parquet" ? undefined : time(() => brotliCompressSync(body.value, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
  const gz = format === "parquet" ? undefined : time(() => gzipSync(body.value, { level: 6 }));
  const sample = all.filter((_, i) => i % Math.ceil(edition.rowCount / 500) === 0);
  const filtered = median(Array.from({ length: 20 }, () => time(() => (format === "csv" ? encodeCsv(edition, sample) : format === "parquet" ? encodeParquet(table.value, sample) : encodeArrow(table.value, sample))).ms));
  rows.push(`| ${format} | ${body.ms.toFixed(1)} | ${(body.value.length / 1024).toFixed(0)} | ${br ? `${br.ms.toFixed(0)} ms → ${(br.value.length / 1024).toFixed(0)} KiB` : "not compressed again"} | ${gz ? `${gz.ms.toFixed(0)} ms → ${(gz.value.length / 1024).toFixed(0)} KiB` : ""} | ${filtered.toFixed(2)} (${sample.length} rows) |`);
}

// The slices, on a generated edition.
const players = Number(flags.players);
const scratch = mkdtempSync(join(tmpdir(), "courtside-exports-bench-"));
mkdirSync(join(scratch, "data"));
writeEdition(join(scratch, "data"), generateScaleEdition({ players }), "2026-11-20");
const large = loadEditionSet(join(scratch, "data")).current;
rmSync(scratch, { recursive: true, force: true });

/** An encoder run at once (median of `repeats`), then across turns: wall ms, slices, longest slice ms. */
async function sliced<T>(make: () => Sliced<T>, repeats = 5): Promise<{ nowMs: number; wallMs: number; slices: number; longestMs: number; value: T }> {
  const now = median(Array.from({ length: repeats }, () => time(() => runNow(make())).ms));
  const pacer = new Pacer();
  const started = performance.now();
  const value = await runSliced(make(), pacer);
  return { nowMs: now, wallMs: performance.now() - started, slices: pacer.slices, longestMs: pacer.longestMs, value };
}
const sliceRows: string[] = [];
const line = (what: string, run: { nowMs: number; wallMs: number; slices: number; longestMs: number }) =>
  sliceRows.push(`| ${what} | ${run.nowMs.toFixed(1)} | ${run.wallMs.toFixed(1)} | ${run.slices} | ${run.longestMs.toFixed(2)} |`);
const largeTable = await sliced(() => exportTableSlices(large), 1);
line(`export table, ${players.toLocaleString("en")} rows`, largeTable);
const largeLines = await sliced(() => csvLinesSlices(largeTable.value as ExportTable), 1);
line(`CSV lines, ${players.toLocaleString("en")} rows`, largeLines);
large.memo.set(TABLE_MEMO, largeTable.value);
large.memo.set(LINES_MEMO, largeLines.value);
for (const count of [461, 10_000]) {
  const rows = Uint32Array.from({ length: count }, (_, i) => Math.floor((i * large.rowCount) / count));
  const encoders: [string, () => Sliced<Buffer>][] = [
    ["CSV", () => csvSlices(large as Edition, rows)],
    ["Parquet", () => parquetSlices(largeTable.value, rows)],
    ["Arrow", () => arrowSlices(largeTable.value, rows)],
  ];
  for (const [format, make] of encoders) line(`${format}, ${count.toLocaleString("en")} rows`, await sliced(make));
}
for (const [format, make] of [["Parquet", () => parquetSlices(largeTable.value, Uint32Array.from({ length: large.rowCount }, (_, r) => r))], ["Arrow", () => arrowSlices(largeTable.value, Uint32Array.from({ length: large.rowCount }, (_, r) => r))]] as const) {
  line(`${format}, the whole edition (${players.toLocaleString("en")} rows)`, await sliced(make, 1));
}

process.stdout.write([
  `${machine()}, Node ${process.version}. Edition ${edition.key}, ${edition.rowCount} players, ${table.value.columns.length} columns.`,
  `Export table built in ${table.ms.toFixed(0)} ms (every record parsed once); CSV lines rendered in ${lines.ms.toFixed(0)} ms.`,
  "",
  "| format | whole edition, encode ms | KiB | Brotli 9 | gzip 6 | filtered, encode ms |",
  "|---|---:|---:|---|---|---:|",
  ...rows,
  "",
  `Slices, a generated edition of ${players.toLocaleString("en")} players (\`generateScaleEdition\`):`,
  "",
  "| work | at once, ms | across turns, wall ms | slices | longest slice, ms |",
  "|---|---:|---:|---:|---:|",
  ...sliceRows,
  "",
].join("\n"));
