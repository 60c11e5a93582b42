// Bulk export: GET /api/players/bulk (current edition, era default all) and
// GET /api/versions/:version/players/bulk (one edition, era default curr). At most 10,000 rows,
// overall desc then name. An unfiltered full-edition body is memoised on its edition so it is
// rendered and compressed once per edition, not per request and not subject to LRU eviction.
// Both answer CSV, Parquet or Arrow instead (`format=` or Accept; docs/exports.md): the same rows,
// one flat typed row each, the whole edition (or era) encoded once and kept like the JSON body.

import { executeQuery } from "../../query/execute.js";
import { compileParams, playerFilterParams } from "../../query/params.js";
import { planQuery, selectPlayers, type PlayerSelection } from "../../query/player-params.js";
import type { Edition } from "../../store/edition.js";
import type { RequestContext } from "../context.js";
import { encodedBody } from "../encoding.js";
import { ownedReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { exactObject, filtersMeta, gameVersion, integer, playerRows, text, timestamp } from "../describe/response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";
import { playerPage } from "./player-rows.js";
import { encodeArrow } from "../../export/arrow.js";
import { encodeCsv } from "../../export/csv.js";
import { EXPORT_FORMATS, EXPORT_MEDIA, formatOf, type ExportFormat } from "../../export/format.js";
import { encodeParquet, isParquetAvailable } from "../../export/parquet.js";
import { exportTableOf } from "../../export/table.js";
import { ApiError, invalidParameter } from "../../query/api-error.js";
import { HASH_SEED, hashString, mixHash } from "../../store/hash.js";
import { weakEtag } from "../reply.js";
import type { ParamSchema } from "../../query/params.js";

export const BULK_MAX_ROWS = 10_000;
/** Full bodies are compressed harder than per-request ones: it happens once per edition. */
const BULK_BROTLI_QUALITY = 9;

const FORMAT_PARAM: ParamSchema = {
  type: "string",
  enum: EXPORT_FORMATS,
  "x-normalise": "lower",
  description: "json (default), csv, parquet or arrow (an Arrow IPC stream): one flat row per player, the columns of docs/exports.md. Without it, Accept chooses (text/csv, application/vnd.apache.parquet, application/vnd.apache.arrow.stream)",
};

function withoutSort(schemas: ReturnType<typeof playerFilterParams>) {
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

const bulkParams = compileParams(withoutSort(playerFilterParams({ withAllEras: true })));
const versionedBulkParams = compileParams(withoutSort(playerFilterParams({ withAllEras: false })));

/**
 * `meta.filters`: the hosted service's five keys, every one present (null when unset), then every
 * other filter applied, as parsed (docs/compatibility.md#fidelity-rules). `teamType` is the era applied (null for every era).
 */
function filtersOf(selection: PlayerSelection): Record<string, unknown> {
  const { sort: _sort, ...applied } = selection.filters;
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

function bulkReply(context: RequestContext, edition: Edition, selection: PlayerSelection, isVersioned: boolean): Reply {
  const format = formatOf(typeof context.values.format === "string" ? context.values.format : undefined, context.accept ?? "");
  if (format !== "json") return exportReply(context, edition, selection, format, isVersioned);
  const { sort: _sort, ...applied } = selection.filters;
  const canonical = JSON.stringify(applied);
  const filters = filtersOf(selection);
  // Planned before the caches: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  const build = (): Reply => {
    const { total, rows } = executeQuery(edition, query, 0, BULK_MAX_ROWS);
    const meta = isVersioned
      ? { gameVersion: edition.key, count: rows.length, total, filters, capturedAt: edition.payload.meta.capturedAt, source: edition.payload.meta.source }
      : { count: rows.length, total, filters };
    const page = playerPage(edition, rows, { fieldMask: selection.fieldMask, isVersioned }, meta);
    return { ...page, headers: [VARY_ACCEPT] };
  };
  // Only the era is set: the whole era (or edition) in full, the body most clients download.
  const isFullEdition = Object.keys(applied).length === 1 && selection.fieldMask === ALL_FIELDS_MASK;
  if (!isFullEdition) return context.cached(`bulk|${edition.checksum}|${isVersioned}|${canonical}|${selection.fieldMask}`, build);
  const memoKey = `bulk|${isVersioned}|${canonical}`;
  let reply = edition.memo.get(memoKey) as Reply | undefined;
  if (!reply) {
    reply = ownedReply(build());
    encodedBody(reply, "br", BULK_BROTLI_QUALITY);
    encodedBody(reply, "gzip");
    edition.memo.set(memoKey, reply);
  }
  return reply;
}

/** The body of an export of `rows` (edition rows, in order). */
function encodeExport(format: Exclude<ExportFormat, "json">, edition: Edition, rows: ArrayLike<number>): Buffer {
  switch (format) {
    case "csv": return encodeCsv(edition, rows);
    case "parquet": return encodeParquet(exportTableOf(edition), rows);
    case "arrow": return encodeArrow(exportTableOf(edition), rows);
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
 */
function exportReply(context: RequestContext, edition: Edition, selection: PlayerSelection, format: Exclude<ExportFormat, "json">, isVersioned: boolean): Reply {
  if (context.values.fields !== undefined) {
    throw invalidParameter("fields", context.values.fields, `an export (${format}) carries every column: fields= selects the fields of JSON rows only`);
  }
  if (format === "parquet" && !isParquetAvailable()) throw new ApiError("SERVICE_UNAVAILABLE", { format }, "Parquet is unavailable in this process: its writer did not load");
  const { sort: _sort, ...applied } = selection.filters;
  const query = planQuery(edition, selection, context.warnings);
  const isFullEdition = Object.keys(applied).length === 1;
  const media = EXPORT_MEDIA[format];
  const build = (limit: number): Reply => {
    const { total, rows } = executeQuery(edition, query, 0, limit);
    const body = encodeExport(format, edition, rows);
    const era = applied.era === undefined || applied.era === "all" ? "" : `-${applied.era}`;
    return {
      status: 200,
      body,
      etag: exportEtag(edition, format, rows, body.length),
      contentType: media.type,
      acceptsRanges: true,
      ...(format === "parquet" ? { isPrecompressed: true } : {}),
      headers: [VARY_ACCEPT, ["Content-Disposition", `attachment; filename="courtside-${edition.key}${era}-players.${media.extension}"`], ["X-Total-Count", String(total)]],
    };
  };
  const canonical = JSON.stringify(applied);
  if (!isFullEdition) return context.cached(`bulk|${format}|${edition.checksum}|${isVersioned}|${canonical}`, () => build(BULK_MAX_ROWS));
  const memoKey = `bulk|${format}|${canonical}`;
  let reply = edition.memo.get(memoKey) as Reply | undefined;
  if (!reply) {
    reply = build(edition.rowCount);
    if (format !== "parquet") {
      encodedBody(reply, "br", BULK_BROTLI_QUALITY);
      encodedBody(reply, "gzip");
    }
    edition.memo.set(memoKey, reply);
  }
  return reply;
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
    handle: (context) => bulkReply(context, context.editions.current, selectPlayers(context.values, { era: "all" }, context.warnings), false),
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
    handle: (context) => {
      const edition = resolveEdition(context.editions, context.pathParams.version ?? "");
      return bulkReply(context, edition, selectPlayers(context.values, { era: "curr" }, context.warnings), true);
    },
  },
];
