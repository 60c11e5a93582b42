// Bulk export: GET /api/players/bulk (current edition, era default all) and
// GET /api/versions/:version/players/bulk (one edition, era default curr). At most 10,000 rows,
// overall desc then name. An unfiltered full-edition body is memoised on its edition so it is
// rendered and compressed once per edition, not per request and not subject to LRU eviction;
// it is compressed on zlib's threads, never on the request's.
// Both answer CSV, Parquet or Arrow instead (`format=` or Accept; docs/exports.md): the same rows,
// one flat typed row each, the whole edition (or era) encoded once and kept like the JSON body;
// an export not kept yet is encoded in bounded slices across event-loop turns.

import { executeQuery } from "../../query/execute.js";
import { compileParams, playerFilterParams, type ValuesOf } from "../../query/params.js";
import { appliedFilters, planQuery, selectPlayers, type PlayerSelection } from "../../query/player-params.js";
import type { Edition } from "../../store/edition.js";
import { memoKey } from "../../store/edition-memo.js";
import { renderOwned } from "../../store/scratch.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { brotliOptions, COMPRESS_MIN_BYTES, encodedBody, GZIP_OPTIONS } from "../encoding.js";
import { ownedReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { exactObject, filtersMeta, gameVersion, integer, playerRows, text, timestamp } from "../describe/response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";
import { playerPage } from "./player-rows.js";
import { brotliCompress, gzip } from "node:zlib";
import { arrowSlices } from "../../export/arrow.js";
import { csvSlices } from "../../export/csv.js";
import { EXPORT_FORMATS, EXPORT_MEDIA, formatOf, type ExportFormat } from "../../export/format.js";
import { isParquetAvailable, parquetSlices } from "../../export/parquet.js";
import { ExportAborted, kept, keptValue, Pacer, runSliced, type Sliced } from "../../export/slices.js";
import { tableOf } from "../../export/table.js";
import { ApiError, invalidParameter } from "../../query/api-error.js";
import { HASH_SEED, hashString, mixHash } from "../../store/hash.js";
import { weakEtag } from "../reply.js";

export const BULK_MAX_ROWS = 10_000;
/** Full bodies are compressed harder than per-request ones: it happens once per edition. */
const BULK_BROTLI_QUALITY = 9;

const FORMAT_PARAM = {
  type: "string",
  enum: EXPORT_FORMATS,
  "x-normalise": "lower",
  description: "json (default), csv, parquet or arrow (an Arrow IPC stream): one flat row per player, the columns of docs/exports.md. Without it, Accept chooses (text/csv, application/vnd.apache.parquet, application/vnd.apache.arrow.stream)",
} as const;

// Bulk is in one order (overall desc, then name): no sort.
function withoutSort<S extends { sort: unknown }>(schemas: S) {
  const { sort: _sort, ...rest } = schemas;
  return { ...rest, format: FORMAT_PARAM };
}

/** What the exports' bodies are, for the API description (the columns: docs/exports.md). */
const EXPORT_SCHEMAS = {
  [EXPORT_MEDIA.csv.type.split(";")[0] as string]: { type: "string", description: "format=csv: RFC 4180 CSV, UTF-8, a header row, one line per player (docs/exports.md)" },
  [EXPORT_MEDIA.parquet.type]: { type: "string", format: "binary", description: "format=parquet: a Parquet file, one row per player (docs/exports.md)" },
  [EXPORT_MEDIA.arrow.type]: { type: "string", format: "binary", description: "format=arrow: an Arrow IPC stream, one row per player (docs/exports.md)" },
};

/** The answer depends on Accept (JSON or an export): caches in between keep them apart. */
const VARY_ACCEPT = ["Vary", "Accept"] as const;

const bulkSchemas = withoutSort(playerFilterParams({ withAllEras: true, isAllErasDefault: true }));
const versionedBulkSchemas = withoutSort(playerFilterParams({ withAllEras: false }));
const bulkParams = compileParams(bulkSchemas);
const versionedBulkParams = compileParams(versionedBulkSchemas);
type BulkValues = ValuesOf<typeof bulkSchemas> | ValuesOf<typeof versionedBulkSchemas>;

/**
 * `meta.filters`: the hosted service's five keys, every one present (null when unset), then every
 * other filter applied, as parsed (docs/compatibility.md#fidelity-rules). `teamType` is the era applied (null for every era).
 */
function filtersOf(applied: Record<string, string | number>): Record<string, unknown> {
  const era = applied.era;
  return {
    teamType: era === undefined || era === "all" ? null : era,
    team: applied.team ?? null,
    minRating: applied.minRating ?? null,
    maxRating: applied.maxRating ?? null,
    position: applied.position ?? null,
    ...applied,
  };
}

function bulkReply(context: RequestContext<BulkValues>, edition: Edition, selection: PlayerSelection, isVersioned: boolean): Reply | Promise<Reply> {
  const format = formatOf(context.values.format, context.accept ?? "");
  const { sort: _sort, ...applied } = appliedFilters(selection);
  if (format !== "json") return exportReply(context, edition, selection, applied, format, isVersioned);
  const filters = filtersOf(applied);
  // Planned before the caches: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  const key = cacheKey(bulkRoute(isVersioned), edition, [applied, selection.fieldMask]);
  const build = (): Reply => {
    const { total, rows } = executeQuery(edition, query, 0, BULK_MAX_ROWS);
    const meta = isVersioned
      ? { gameVersion: edition.key, count: rows.length, total, filters, capturedAt: edition.payload.meta.capturedAt, source: edition.payload.meta.source }
      : { count: rows.length, total, filters };
    const page = playerPage(edition, rows, { fieldMask: selection.fieldMask, isVersioned }, meta, key);
    return { ...page, headers: [VARY_ACCEPT] };
  };
  // Only the era is set: the whole era (or edition) in full, the body most clients download.
  const isFullEdition = Object.keys(applied).length === 1 && selection.fieldMask === ALL_FIELDS_MASK;
  if (!isFullEdition) return context.cached(key, build);
  // Kept with the edition, apart from the LRU (bench/README.md, issue 33): evicted by ordinary
  // traffic, the body would be rendered and compressed again. The exports' path (issue 43): the
  // body rendered in one slice (at most BULK_MAX_ROWS rows, into bytes of its own), its Brotli and
  // gzip bodies made on zlib's threads while this one answers others (about 0.4 s of compression
  // for the demo's 1,842 rows, which it once did on the request), shared by every request waiting.
  const memoed = memoKey<Reply>(key);
  const keptReply = keptValue(edition.memo, memoed);
  if (keptReply !== undefined) return keptReply;
  return runExport(context, kept(edition.memo, memoed, function* () {
    const reply = ownedReply(renderOwned(build));
    yield* compressedSlices(reply);
    return reply;
  }));
}

function bulkRoute(isVersioned: boolean): string {
  return isVersioned ? "/api/versions/:version/players/bulk" : "/api/players/bulk";
}

/** The body of an export of `rows` (edition rows, in order), slice by slice (src/export/slices.ts). */
function* exportSlices(format: Exclude<ExportFormat, "json">, edition: Edition, rows: ArrayLike<number>): Sliced<Buffer> {
  switch (format) {
    case "csv": return yield* csvSlices(edition, rows);
    case "parquet": return yield* parquetSlices(yield* tableOf(edition), rows);
    case "arrow": return yield* arrowSlices(yield* tableOf(edition), rows);
  }
}

/** Bumped when an encoder's output changes for the same rows: the ETags of what clients kept change with it. */
const EXPORT_ENCODING_VERSION = 1;

/**
 * An export's ETag, folded from what its bytes are a function of (the edition, the format, the
 * rows in order, the encoders' version) instead of from its bytes: a filtered CSV is hundreds of
 * KiB, and hashing it cost more than building it (measured: mix (k), bench/README.md).
 */
function exportEtag(edition: Edition, format: string, rows: ArrayLike<number>, length: number): string {
  let hash = hashString(`${edition.checksum}|${format}|${EXPORT_ENCODING_VERSION}`, HASH_SEED);
  for (let i = 0; i < rows.length; i++) hash = mixHash(hash, rows[i] as number);
  return weakEtag(hash, length);
}

/**
 * CSV, Parquet or Arrow of the same rows as the JSON (overall desc, then name): the whole era or
 * edition when nothing else is filtered (encoded once and kept with the edition, like the JSON
 * body), else at most BULK_MAX_ROWS through the response cache. `X-Total-Count` says how many
 * matched. Byte ranges are answered (DuckDB reads a remote Parquet file by them).
 * A body kept (memo or cache) is answered at once; one to encode is encoded in slices across
 * event-loop turns (docs/exports.md#encoding-in-slices), so the worker answers other requests
 * meanwhile, and a client that leaves stops its encoding.
 */
function exportReply(context: RequestContext<BulkValues>, edition: Edition, selection: PlayerSelection, applied: Record<string, string | number>, format: Exclude<ExportFormat, "json">, isVersioned: boolean): Reply | Promise<Reply> {
  if (context.values.fields !== undefined) {
    throw invalidParameter("fields", context.values.fields, `an export (${format}) carries every column: fields= selects the fields of JSON rows only`);
  }
  if (format === "parquet" && !isParquetAvailable()) throw new ApiError("SERVICE_UNAVAILABLE", { format }, "Parquet is unavailable in this process: its writer did not load");
  const query = planQuery(edition, selection, context.warnings);
  const isFullEdition = Object.keys(applied).length === 1;
  const media = EXPORT_MEDIA[format];
  const key = cacheKey(bulkRoute(isVersioned), edition, [format, applied]);
  const memoed = memoKey<Reply>(key);
  const keptReply = isFullEdition ? keptValue(edition.memo, memoed) : context.cachedReply?.(key);
  if (keptReply !== undefined) return keptReply;
  function* build(limit: number): Sliced<Reply> {
    const { total, rows } = executeQuery(edition, query, 0, limit);
    // The rows are the edition's (executeQuery's may be scratch another request reuses): kept for the slices to come.
    const ownRows = Uint32Array.from(rows as ArrayLike<number>);
    const body = yield* exportSlices(format, edition, ownRows);
    const era = applied.era === undefined || applied.era === "all" ? "" : `-${applied.era}`;
    return {
      status: 200,
      body,
      etag: exportEtag(edition, format, ownRows, body.length),
      contentType: media.type,
      acceptsRanges: true,
      ...(format === "parquet" ? { isPrecompressed: true } : {}),
      headers: [VARY_ACCEPT, ["Content-Disposition", `attachment; filename="courtside-${edition.key}${era}-players.${media.extension}"`], ["X-Total-Count", String(total)]],
    };
  }
  if (!isFullEdition) return runExport(context, build(BULK_MAX_ROWS)).then((reply) => context.cached(key, () => reply));
  // The whole edition: one build, shared by every request waiting for it, then kept with the edition.
  return runExport(context, kept(edition.memo, memoed, function* () {
    const reply = yield* build(edition.rowCount);
    if (format !== "parquet") yield* compressedSlices(reply);
    return reply;
  }));
}

/** An export's slices across turns, stopped when the client goes (answered as a 503 nobody reads, and not logged as a failure). */
function runExport(context: RequestContext<BulkValues>, work: Sliced<Reply>): Promise<Reply> {
  return runSliced(work, new Pacer(context.isAborted)).catch((error: unknown) => {
    throw error instanceof ExportAborted ? new ApiError("SERVICE_UNAVAILABLE", {}, error.message) : error;
  });
}

/**
 * The whole edition's Brotli (9) and gzip bodies, compressed on libuv's threads (zlib's
 * asynchronous calls) while this thread answers other requests; encodedBody then finds them.
 */
function* compressedSlices(reply: Reply): Sliced<void> {
  if (reply.body.length < COMPRESS_MIN_BYTES) return;
  const done = { br: undefined as Buffer | undefined, gzip: undefined as Buffer | undefined, error: undefined as unknown };
  brotliCompress(reply.body, brotliOptions(BULK_BROTLI_QUALITY, reply.body.length), (error, body) => {
    if (error) done.error = error;
    else done.br = body;
  });
  gzip(reply.body, GZIP_OPTIONS, (error, body) => {
    if (error) done.error = error;
    else done.gzip = body;
  });
  while (done.br === undefined || done.gzip === undefined) {
    if (done.error !== undefined) throw done.error;
    yield;
  }
  reply.encoded = { br: done.br, gzip: done.gzip };
}

export const bulkRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/bulk", access: "key", params: bulkParams,
    summary: "Every matching player of the current edition in one call (one request against the rate limit)",
    response: {
      kind: "envelope",
      description: "Every matching player (at most 10,000), overall desc then name",
      data: playerRows,
      meta: exactObject({ count: integer("Rows returned"), total: integer("Players matching"), filters: filtersMeta }),
      exports: EXPORT_SCHEMAS,
    },
    handle: (context: RequestContext<ValuesOf<typeof bulkSchemas>>) => bulkReply(context, context.editions.current, selectPlayers(context.values, { era: "all" }, context.warnings), false),
  },
  {
    method: "GET", path: "/api/versions/:version/players/bulk", access: "key", params: versionedBulkParams,
    summary: "Every matching player of one edition in one call, at most 10,000 rows",
    response: {
      kind: "envelope",
      description: "Every matching player of one edition (at most 10,000), overall desc",
      data: playerRows,
      meta: exactObject({
        gameVersion, count: integer("Rows returned"), total: integer("Players matching"), filters: filtersMeta,
        capturedAt: timestamp("When the edition's data was captured"), source: text("Where the edition's data came from"),
      }),
      exports: EXPORT_SCHEMAS,
    },
    handle: (context: RequestContext<ValuesOf<typeof versionedBulkSchemas>>) => {
      const edition = resolveEdition(context.editions, context.pathParams.version ?? "");
      return bulkReply(context, edition, selectPlayers(context.values, { era: "curr" }, context.warnings), true);
    },
  },
];
