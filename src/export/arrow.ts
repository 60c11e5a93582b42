// Arrow IPC stream, written by flechette: ratings Int16, badge counts Int32, category columns
// dictionary-encoded UTF-8 (Int32 indices), free text UTF-8; absent cells null. Built one column
// of at most SLICE_ROWS rows a slice (docs/exports.md#encoding-in-slices): a record batch per
// SLICE_ROWS rows, each dictionary shared by a column's batches; up to SLICE_ROWS rows, one batch,
// the bytes flechette's tableFromArrays and tableToIPC write for the whole table in one call.

import { Column, columnFromArray, dictionary, dictionaryContext, int16, int32, tableFromColumns, tableToIPC, utf8 } from "@uwdata/flechette";
import type { Cell, ExportKind, ExportTable } from "./table.js";
import { runNow, SLICE_ROWS, type Sliced } from "./slices.js";

export const ARROW_TYPE = "application/vnd.apache.arrow.stream";

/**
 * A column's type, made afresh for each stream (the encoder numbers dictionaries in its types).
 * A dictionary's id (0, in a context of its column's own) makes its batches share one dictionary.
 */
function arrowType(kind: ExportKind) {
  switch (kind) {
    case "rating": return int16();
    case "count": return int32();
    case "category": return dictionary(utf8(), int32(), false, 0);
    default: return utf8();
  }
}

/** The Arrow IPC stream of the given rows of a table, in their order. */
export function* arrowSlices(table: ExportTable, rows: ArrayLike<number>): Sliced<Buffer> {
  const columns: [string, Column<unknown>][] = [];
  for (let c = 0; c < table.columns.length; c++) {
    const { name, kind, cells } = table.columns[c] as ExportTable["columns"][number];
    const type = arrowType(kind);
    const dictionaries = dictionaryContext();
    const batches: Column<unknown>["data"][number][] = [];
    for (let first = 0; first < rows.length || first === 0; first += SLICE_ROWS) {
      if (c > 0 || first > 0) yield;
      const size = Math.min(SLICE_ROWS, rows.length - first);
      const data = new Array<Cell>(size);
      for (let i = 0; i < size; i++) data[i] = cells[rows[first + i] as number] as Cell;
      batches.push(...columnFromArray(data, type, {}, dictionaries).data);
    }
    columns.push([name, new Column(batches, type)]);
  }
  yield;
  const bytes = tableToIPC(tableFromColumns(columns), { format: "stream" });
  if (bytes === null) throw new Error("flechette wrote no Arrow stream");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The Arrow IPC stream of the given rows, at once (benchmarks). */
export function encodeArrow(table: ExportTable, rows: ArrayLike<number>): Buffer {
  return runNow(arrowSlices(table, rows));
}
