// Parquet, written by hyparquet-writer: row groups of up to SLICE_ROWS rows (one column chunk
// written a slice, docs/exports.md#encoding-in-slices), Snappy-compressed pages, dictionary
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

import type { Cell, ExportKind, ExportTable } from "./table.js";
import { runNow, SLICE_ROWS, type Sliced } from "./slices.js";

export const PARQUET_TYPE = "application/vnd.apache.parquet";

interface ParquetWriterModules {
  main: typeof import("hyparquet-writer");
  // The writer's own steps, to write a row group one column chunk a slice (parquetSlices):
  // the same calls, in the same order, as its ParquetWriter.write makes for one group.
  column: { writeColumn(options: { writer: unknown; column: unknown; pageData: unknown }): { chunk: unknown } };
  dremel: { encodeNestedValues(treePath: unknown[], rows: unknown[]): unknown };
  schema: { schemaPathResolver(schema: unknown[]): (path: string[]) => { element: unknown }[] };
}
let writer: ParquetWriterModules | undefined;
let loading: Promise<void> | undefined;

/** Loads hyparquet-writer once; resolves whether or not it loads (isParquetAvailable says). */
export function loadParquetWriter(): Promise<void> {
  loading ??= Promise.all([
    import("hyparquet-writer"),
    import("hyparquet-writer/src/column.js"),
    import("hyparquet-writer/src/dremel.js"),
    import("hyparquet-writer/src/schema.js"),
  ]).then(([main, column, dremel, schema]) => { writer = { main, column, dremel, schema } as ParquetWriterModules; }, () => undefined);
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

/**
 * The Parquet file of the given rows of a table, in their order, one column chunk of a row group
 * a slice: row groups of SLICE_ROWS rows (one group up to that many rows: a filtered export, or an
 * edition of at most that many players, is one group, as when the whole file was written in one
 * call). Throws when the writer is not loaded.
 */
export function* parquetSlices(table: ExportTable, rows: ArrayLike<number>): Sliced<Buffer> {
  if (writer === undefined) throw new Error("the Parquet writer is not loaded");
  const { main, column: columnModule, dremel, schema: schemaModule } = writer;
  const schema = [
    { name: "root", num_children: table.columns.length },
    ...table.columns.map((column) => schemaElement(column.name, column.kind)),
  ];
  const bytes = new main.ByteWriter();
  // No column statistics: a reader skips nothing in files this size,
  // and writing them was half the encode time (bench/README.md#exports-issue-34).
  const pq = new main.ParquetWriter({ writer: bytes, schema: schema as never, statistics: false, createdBy: "courtside" }) as unknown as WriterState;
  const resolveSchemaPath = schemaModule.schemaPathResolver(schema);
  const paths = table.columns.map((column) => resolveSchemaPath([column.name]));
  for (let first = 0; first < rows.length; first += SLICE_ROWS) {
    const size = Math.min(SLICE_ROWS, rows.length - first);
    const groupStart = bytes.offset;
    const chunks: { meta_data?: { total_uncompressed_size?: bigint } }[] = [];
    for (let c = 0; c < table.columns.length; c++) {
      if (first > 0 || c > 0) yield;
      const { name, cells } = table.columns[c] as ExportTable["columns"][number];
      const data = new Array<Cell>(size);
      for (let i = 0; i < size; i++) data[i] = cells[rows[first + i] as number] as Cell;
      const schemaPath = (paths[c] as { element: unknown }[]);
      const column = {
        columnName: name, element: schemaPath[schemaPath.length - 1]!.element, schemaPath: schemaPath.map((node) => node.element),
        codec: pq.codec, compressors: pq.compressors, stats: false, statisticsTruncateLength: undefined,
        pageSize: PAGE_SIZE, dictionarySize: undefined, columnIndex: false, offsetIndex: true, encoding: undefined, bloomFilter: undefined,
      };
      const result = columnModule.writeColumn({ writer: bytes, column, pageData: dremel.encodeNestedValues(schemaPath, data) });
      chunks.push(result.chunk as (typeof chunks)[number]);
      pq.pendingIndexes.push(result);
    }
    let totalByteSize = 0n;
    for (const { meta_data } of chunks) totalByteSize += meta_data?.total_uncompressed_size ?? 0n;
    pq.num_rows += BigInt(size);
    pq.row_groups.push({ columns: chunks, total_byte_size: totalByteSize, num_rows: BigInt(size), total_compressed_size: BigInt(bytes.offset - groupStart) });
  }
  yield;
  pq.finish();
  return Buffer.from(bytes.getBuffer());
}

/** The writer's page size (its default). */
const PAGE_SIZE = 1_048_576;

/** The ParquetWriter fields parquetSlices fills as its write() does. */
interface WriterState {
  codec: string;
  compressors: unknown;
  pendingIndexes: unknown[];
  row_groups: unknown[];
  num_rows: bigint;
  finish(): void;
}

/** The Parquet file of the given rows, at once (benchmarks). */
export function encodeParquet(table: ExportTable, rows: ArrayLike<number>): Buffer {
  return runNow(parquetSlices(table, rows));
}
