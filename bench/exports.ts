// The exports' one-time cost (docs/exports.md), in process: for the current demo edition, the
// time to build its export table, render its CSV lines and encode the whole edition as CSV,
// Parquet and Arrow (then Brotli 9 and gzip, as the memo keeps them), and the bytes of each;
// then a filtered export's encode time per format (500 rows of the edition, median of 20).
//
// Usage: npm run build && node dist/bench/exports.js [--data-dir data]

import { parseArgs } from "node:util";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { loadEditionSet } from "../src/store/editions.js";
import { buildExportTable } from "../src/export/table.js";
import { csvLinesOf, encodeCsv } from "../src/export/csv.js";
import { encodeParquet, loadParquetWriter } from "../src/export/parquet.js";
import { encodeArrow } from "../src/export/arrow.js";
import { ensureDemoData } from "./demo-data.js";
import { machine, median } from "./report.js";

const { values: flags } = parseArgs({ options: { "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" } } });
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
edition.memo.set("export|table", table.value);
edition.memo.set("export|csv-lines", lines.value);
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
process.stdout.write([
  `${machine()}, Node ${process.version}. Edition ${edition.key}, ${edition.rowCount} players, ${table.value.columns.length} columns.`,
  `Export table built in ${table.ms.toFixed(0)} ms (every record parsed once); CSV lines rendered in ${lines.ms.toFixed(0)} ms.`,
  "",
  "| format | whole edition, encode ms | KiB | Brotli 9 | gzip 6 | filtered, encode ms |",
  "|---|---:|---:|---|---|---:|",
  ...rows,
  "",
].join("\n"));
