// Parquet, written by hyparquet-writer: one row group, Snappy-compressed pages, dictionary
// encoding where it pays (the writer keeps a dictionary while it at least halves a column), no
// column statistics. Ratings are INT32 annotated INT_16, badge counts INT32, text UTF-8 strings;
// every column optional.
// (hyparquet-writer 0.17's explicit annotation of other integer widths writes files DuckDB 1.5
// rejects: INT_16 is the one test/export/exports.test.ts reads back with DuckDB.)
//
// The writer is loaded once, before the service listens (loadParquetWriter): a process whose
// module loader cannot resolve it (the TypeScript loader of the tests resolves no `./src/*.js`
// export pattern, which hyparquet-writer's imports of hyparquet use) answers Parquet with a 503
// and everything else as usual.

import type { ExportKind, ExportTable } from "./table.js";

export const PARQUET_TYPE = "application/vnd.apache.parquet";

type ParquetWriter = typeof import("hyparquet-writer");
let writer: ParquetWriter | undefined;
let loading: Promise<void> | undefined;

/** Loads hyparquet-writer once; resolves whether or not it loads (isParquetAvailable says). */
export function loadParquetWriter(): Promise<void> {
  loading ??= import("hyparquet-writer").then((module) => { writer = module; }, () => undefined);
  return loading;
}

export function isParquetAvailable(): boolean {
  return writer !== undefined;
}

/** The Parquet schema element of a column kind. */
function schemaElement(name: string, kind: ExportKind) {
  switch (kind) {
    case "rating": return { name, type: "INT32", converted_type: "INT_16", repetition_type: "OPTIONAL" } as const;
    case "count": return { name, type: "INT32", repetition_type: "OPTIONAL" } as const;
    default: return { name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" } as const;
  }
}

/** The Parquet file of the given rows of a table, in their order; throws when the writer is not loaded. */
export function encodeParquet(table: ExportTable, rows: ArrayLike<number>): Buffer {
  if (writer === undefined) throw new Error("the Parquet writer is not loaded");
  const columnData = table.columns.map((column) => {
    const data = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) data[i] = column.cells[rows[i] as number];
    return { name: column.name, data };
  });
  const schema = [
    { name: "root", num_children: table.columns.length },
    ...table.columns.map((column) => schemaElement(column.name, column.kind)),
  ];
  // No column statistics: one row group of at most an edition has nothing for a reader to skip,
  // and writing them was half the encode time (bench/README.md#exports-issue-34).
  const bytes = writer.parquetWriteBuffer({ columnData, schema, rowGroupSize: Math.max(1, rows.length), statistics: false, createdBy: "courtside" });
  return Buffer.from(bytes);
}
