// CSV (RFC 4180): a header row, then one line per row, CRLF-terminated, UTF-8 without a byte-order
// mark; a field holding a comma, a quote, CR or LF is quoted, its quotes doubled; an absent cell
// is empty. Each row's line is rendered once per edition, so an export (whole or filtered) is the
// header and its rows' lines copied in order.

import type { Edition } from "../store/edition.js";
import { memoKey } from "../store/edition-memo.js";
import { tableOf, type Cell, type ExportTable } from "./table.js";
import { BLOCK_ROWS, COPY_BYTES, kept, runNow, type Sliced } from "./slices.js";

export const CSV_TYPE = "text/csv; charset=utf-8; header=present";

/** A field as RFC 4180 writes it. */
export function csvField(cell: Cell): string {
  if (cell === null) return "";
  const text = typeof cell === "number" ? String(cell) : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line and every row's line, one buffer; row r is bytes [start[r], start[r + 1]). */
export interface CsvLines {
  header: Buffer;
  lines: Buffer;
  start: Uint32Array;
}

/** Every row's line, BLOCK_ROWS rows rendered a slice. */
export function* csvLinesSlices(table: ExportTable): Sliced<CsvLines> {
  const header = Buffer.from(table.columns.map((column) => csvField(column.name)).join(",") + "\r\n", "utf8");
  const parts: Buffer[] = [];
  const start = new Uint32Array(table.rowCount + 1);
  let offset = 0;
  for (let row = 0; row < table.rowCount; row++) {
    if (row > 0 && row % BLOCK_ROWS === 0) yield;
    let line = "";
    for (let c = 0; c < table.columns.length; c++) line += (c === 0 ? "" : ",") + csvField((table.columns[c] as { cells: readonly Cell[] }).cells[row] as Cell);
    const bytes = Buffer.from(line + "\r\n", "utf8");
    parts.push(bytes);
    start[row] = offset;
    offset += bytes.length;
  }
  start[table.rowCount] = offset;
  yield;
  return { header, lines: Buffer.concat(parts, offset), start };
}

export function csvLinesOf(table: ExportTable): CsvLines {
  return runNow(csvLinesSlices(table));
}

export const LINES_MEMO = memoKey<CsvLines>("export|csv-lines");

/** The edition's CSV lines (and its export table first), built in slices on first use and kept with the edition. */
export function linesOf(edition: Edition): Sliced<CsvLines> {
  return kept(edition.memo, LINES_MEMO, function* () {
    return yield* csvLinesSlices(yield* tableOf(edition));
  });
}

/** The CSV of the given rows of an edition, in their order: COPY_BYTES of lines copied a slice. */
export function* csvSlices(edition: Edition, rows: ArrayLike<number>): Sliced<Buffer> {
  const { header, lines, start } = yield* linesOf(edition);
  let length = header.length;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as number;
    length += (start[row + 1] as number) - (start[row] as number);
  }
  const body = Buffer.allocUnsafe(length);
  let offset = header.copy(body, 0);
  let sliceEnd = offset + COPY_BYTES;
  for (let i = 0; i < rows.length; i++) {
    if (offset >= sliceEnd) {
      yield;
      sliceEnd = offset + COPY_BYTES;
    }
    const row = rows[i] as number;
    offset += lines.copy(body, offset, start[row] as number, start[row + 1] as number);
  }
  return body;
}

/** The CSV of the given rows of an edition, at once (benchmarks). */
export function encodeCsv(edition: Edition, rows: ArrayLike<number>): Buffer {
  return runNow(csvSlices(edition, rows));
}
