// Bulk export: GET /api/players/bulk (current edition, era default all) and
// GET /api/versions/:version/players/bulk (one edition, era default curr). At most 10,000 rows,
// overall desc then name. An unfiltered full-edition body is memoised on its edition so it is
// rendered and compressed once per edition, not per request and not subject to LRU eviction.

import { executeQuery } from "../../query/execute.js";
import { compileParams, playerFilterParams, type ValuesOf } from "../../query/params.js";
import { appliedFilters, planQuery, selectPlayers, type PlayerSelection } from "../../query/player-params.js";
import type { Edition } from "../../store/edition.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { encodedBody } from "../encoding.js";
import { ownedReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { exactObject, filtersMeta, gameVersion, integer, playerRows, text, timestamp } from "../describe/response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";
import { playerPage } from "./player-rows.js";

export const BULK_MAX_ROWS = 10_000;
/** Full bodies are compressed harder than per-request ones: it happens once per edition. */
const BULK_BROTLI_QUALITY = 9;

// Bulk is in one order (overall desc, then name): no sort.
const { sort: _sort, ...bulkSchemas } = playerFilterParams({ withAllEras: true });
const { sort: _versionedSort, ...versionedBulkSchemas } = playerFilterParams({ withAllEras: false });
const bulkParams = compileParams(bulkSchemas);
const versionedBulkParams = compileParams(versionedBulkSchemas);

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

function bulkReply(context: RequestContext, edition: Edition, selection: PlayerSelection, isVersioned: boolean): Reply {
  const { sort: _sort, ...applied } = appliedFilters(selection);
  const filters = filtersOf(applied);
  // Planned before the caches: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  const build = (): Reply => {
    const { total, rows } = executeQuery(edition, query, 0, BULK_MAX_ROWS);
    const meta = isVersioned
      ? { gameVersion: edition.key, count: rows.length, total, filters, capturedAt: edition.payload.meta.capturedAt, source: edition.payload.meta.source }
      : { count: rows.length, total, filters };
    return playerPage(edition, rows, { fieldMask: selection.fieldMask, isVersioned }, meta);
  };
  // Only the era is set: the whole era (or edition) in full, the body most clients download.
  const isFullEdition = Object.keys(applied).length === 1 && selection.fieldMask === ALL_FIELDS_MASK;
  const key = cacheKey(isVersioned ? "/api/versions/:version/players/bulk" : "/api/players/bulk", edition, [applied, selection.fieldMask]);
  if (!isFullEdition) return context.cached(key, build);
  // Kept apart from the LRU (bench/README.md, issue 33): evicted by ordinary traffic, the body
  // would be rendered and compressed again, about 1.6 s of a worker's time each time.
  let reply = edition.memo.get(key) as Reply | undefined;
  if (!reply) {
    reply = ownedReply(build());
    encodedBody(reply, "br", BULK_BROTLI_QUALITY);
    encodedBody(reply, "gzip");
    edition.memo.set(key, reply);
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
    },
    handle: (context: RequestContext<ValuesOf<typeof versionedBulkSchemas>>) => {
      const edition = resolveEdition(context.editions, context.pathParams.version ?? "");
      return bulkReply(context, edition, selectPlayers(context.values, { era: "curr" }, context.warnings), true);
    },
  },
];
