// Arrow IPC stream, written by flechette: ratings Int16, badge counts Int32, category columns
// dictionary-encoded UTF-8 (Int32 indices), free text UTF-8; absent cells null.

import { dictionary, int16, int32, tableFromArrays, tableToIPC, utf8 } from "@uwdata/flechette";
import type { ExportKind, ExportTable } from "./table.js";

export const ARROW_TYPE = "application/vnd.apache.arrow.stream";

function arrowType(kind: ExportKind) {
  switch (kind) {
    case "rating": return int16();
    case "count": return int32();
    case "category": return dictionary(utf8(), int32());
    default: return utf8();
  }
}

/** The Arrow IPC stream of the given rows of a table, in their order. */
export function encodeArrow(table: ExportTable, rows: ArrayLike<number>): Buffer {
  const arrays: [string, unknown[]][] = [];
  const types: Record<string, ReturnType<typeof arrowType>> = {};
  for (const column of table.columns) {
    const data = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) data[i] = column.cells[rows[i] as number];
    arrays.push([column.name, data]);
    types[column.name] = arrowType(column.kind);
  }
  const bytes = tableToIPC(tableFromArrays(arrays, { types }), { format: "stream" });
  if (bytes === null) throw new Error("flechette wrote no Arrow stream");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
