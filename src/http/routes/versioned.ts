// The per-edition routes: /api/versions/:version/players (offset pages), /players/:slug
// (variants across rosters) and /teams. Every row carries gameVersion and badges.top.

import { ERAS } from "../../model/eras.js";
import { executeQuery } from "../../query/execute.js";
import { compileParams, limitParam, OFFSET_PARAM, playerFilterParams, type ValuesOf } from "../../query/params.js";
import { appliedFilters, planQuery, selectPlayers } from "../../query/player-params.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, successReplyJson, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, boolean, era, exactObject, gameVersion, integer, playerRows, ref, text } from "../describe/response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { listTeams, teamsMeta, teamsParams, type TeamsValues } from "./teams.js";
import { playerDetailJson, playerPage, rowsForSlug } from "./player-rows.js";

const playersSchemas = { ...playerFilterParams({ withAllEras: true }), offset: OFFSET_PARAM, limit: limitParam(100, 50) };
const playersParams = compileParams(playersSchemas);

function versionedPlayers(context: RequestContext<ValuesOf<typeof playersSchemas>>): Reply {
  const edition = resolveEdition(context.editions, context.pathParams.version ?? "");
  const selection = selectPlayers(context.values, { era: "curr" }, context.warnings);
  const { limit, offset } = context.values;
  const key = cacheKey("/api/versions/:version/players", edition, [appliedFilters(selection), selection.fieldMask, limit, offset]);
  // Planned before the cache: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  return context.cached(key, () => {
    const { total, rows } = executeQuery(edition, query, offset, limit);
    return playerPage(edition, rows, { fieldMask: selection.fieldMask, isVersioned: true }, {
      gameVersion: edition.key, count: rows.length, total, hasMore: offset + rows.length < total, offset, limit,
    }, key);
  });
}

const slugSchemas = {
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows to one era's rosters", "x-normalise": "lower", "x-empty": "refuse" },
} as const;
const slugParams = compileParams(slugSchemas);

/**
 * One player of one edition. A roster slug is exact (that roster, an object); a name's own slug
 * that is no roster's slug (`michael-jordan`) finds every roster of that person: one roster gives
 * an object, several an array with meta.variants (see Edition.rowsForSlug).
 */
function versionedPlayer(context: RequestContext<ValuesOf<typeof slugSchemas>>): Reply {
  const edition = resolveEdition(context.editions, context.pathParams.version ?? "");
  const rows = rowsForSlug(edition, context.pathParams.slug ?? "", context.values.teamType);
  const key = cacheKey("/api/versions/:version/players/:slug", context.editions.ordered, [edition.key, rows]);
  return context.cached(key, () => {
    const details = rows.map((row) => playerDetailJson(context.editions, edition, row, true));
    if (details.length === 1) return successReplyJson(details[0] as string, { gameVersion: edition.key, ...dataSourceMeta(context.editions) }, { isCacheable: true });
    return successReplyJson(`[${details.join(",")}]`, {
      gameVersion: edition.key,
      count: details.length,
      variants: rows.map((row) => {
        return { teamType: edition.field(row, "teamType"), team: edition.field(row, "team"), _id: edition.field(row, "_id") };
      }),
      ...dataSourceMeta(context.editions),
    }, { isCacheable: true });
  });
}

export const versionedRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/versions/:version/players", access: "key", params: playersParams, summary: "Players of one edition, filtered, sorted, offset pages",
    response: {
      kind: "envelope",
      description: "A page of one edition's players",
      data: playerRows,
      meta: exactObject({
        gameVersion, count: integer("Rows on this page"), total: integer("Players matching"), hasMore: boolean("True when another page follows"),
        offset: integer("Rows skipped"), limit: integer("Page size"),
      }),
    },
    handle: versionedPlayers,
  },
  {
    method: "GET", path: "/api/versions/:version/players/:slug", access: "key", params: slugParams, summary: "One player of one edition: a roster slug is that roster, a name slug every roster of the name (meta.variants)",
    response: {
      kind: "envelope",
      description: "One player of one edition; an array with one entry per roster when the slug is on several",
      data: { oneOf: [ref("Player"), arrayOf(ref("Player"))] },
      meta: exactObject({
        gameVersion,
        count: integer("Rosters returned (with an array)"),
        variants: arrayOf(exactObject({ teamType: era, team: text("Full team name"), _id: text("That entry's _id (rows sharing a slug share team names only by chance)") }), "With an array: the roster of each entry, in order (era, then source order)"),
      }, ["count", "variants"]),
    },
    errors: ["PLAYER_NOT_FOUND"],
    handle: versionedPlayer,
  },
  {
    method: "GET", path: "/api/versions/:version/teams", access: "key", params: teamsParams, summary: "Teams of one edition, with logos",
    response: { kind: "envelope", description: "Teams of one era in one edition", data: arrayOf(ref("Team")), meta: teamsMeta({ gameVersion }) },
    handle: (context: RequestContext<TeamsValues>) => listTeams(context, resolveEdition(context.editions, context.pathParams.version ?? "").key),
  },
];
