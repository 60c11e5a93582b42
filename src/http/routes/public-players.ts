// GET /api/public/players: for browser apps that must not hold a key. No key; the per-address
// bucket (60 a minute) limits it; full player records (docs/compatibility.md#fidelity-rules: the hosted route answers the
// same records as /api/players, copied from the same stored fragments), cursor pages like
// /api/players, publicly cacheable. CORS follows CORS_ORIGINS like every route.

import { executeQuery } from "../../query/execute.js";
import { compileParams, CURSOR_PARAM, limitParam, playerFilterParams, type ValuesOf } from "../../query/params.js";
import { appliedFilters, planQuery, selectPlayers } from "../../query/player-params.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, cursorPagination, exactObject, integer, ref } from "../describe/response-schemas.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";
import { cursorPaging, playerPage } from "./player-rows.js";

export const PUBLIC_CACHE_CONTROL = "public, max-age=3600";

const filters = playerFilterParams({ withAllEras: true });
const publicSchemas = {
  teamType: { ...filters.era, description: "Era: curr (default), class, allt, or all" },
  team: filters.team,
  position: filters.position,
  minRating: filters.minRating,
  maxRating: filters.maxRating,
  limit: limitParam(100, 50),
  cursor: CURSOR_PARAM,
};
const publicParams = compileParams(publicSchemas);

function publicPlayers(context: RequestContext<ValuesOf<typeof publicSchemas>>): Reply {
  const selection = { ...selectPlayers(context.values, { era: "curr" }, context.warnings), fieldMask: ALL_FIELDS_MASK };
  const { limit, cursor: offset } = context.values;
  const edition = context.editions.current;
  const key = cacheKey("/api/public/players", edition, [appliedFilters(selection), limit, offset]);
  // Planned before the cache: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  return context.cached(key, () => {
    const { total, rows } = executeQuery(edition, query, offset, limit);
    const page = playerPage(edition, rows, { fieldMask: ALL_FIELDS_MASK, isVersioned: false }, {
      count: rows.length,
      pagination: cursorPaging(offset, rows.length, limit, total),
    }, key);
    return { ...page, cacheControl: PUBLIC_CACHE_CONTROL };
  });
}

export const publicRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/public/players", access: "address", cacheControl: PUBLIC_CACHE_CONTROL, params: publicParams, summary: "Players in full for browser apps (no API key; 60 a minute per client address)",
    response: {
      kind: "envelope",
      description: "A page of full player records, as /api/players answers them",
      data: arrayOf(ref("Player")),
      meta: exactObject({ count: integer("Rows on this page"), pagination: cursorPagination("Players matching the filters") }),
    },
    handle: publicPlayers,
  },
];
