// GET /api/players (cursor pages) and GET /api/players/slug/:slug (one player in full, `teamType`
// and `team` narrowing which roster).

import { ERAS, type Era } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import { executeQuery } from "../../query/execute.js";
import { compileParams, CURSOR_PARAM, limitParam, playerFilterParams, type ValuesOf } from "../../query/params.js";
import { appliedFilters, planQuery, selectPlayers } from "../../query/player-params.js";
import type { Edition } from "../../store/edition.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { arrayOf, cursorPagination, era, exactObject, gameVersion, integer, playerRows, ref, text } from "../describe/response-schemas.js";
import { dataSourceMeta, successReplyJson, type Reply } from "../reply.js";
import type { RouteDefinition, RouteResponse } from "../router.js";
import { cursorPaging, playerDetailJson, playerPage, rowsForSlug } from "./player-rows.js";

const listSchemas = { ...playerFilterParams({ withAllEras: true }), limit: limitParam(100, 50), cursor: CURSOR_PARAM };
const listParams = compileParams(listSchemas);

function listPlayers(context: RequestContext<ValuesOf<typeof listSchemas>>): Reply {
  const selection = selectPlayers(context.values, { era: "curr" }, context.warnings);
  const { limit, cursor: offset } = context.values;
  const edition = context.editions.current;
  const key = cacheKey("/api/players", edition, [appliedFilters(selection), selection.fieldMask, limit, offset]);
  // Planned before the cache: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  return context.cached(key, () => {
    const { total, rows } = executeQuery(edition, query, offset, limit);
    return playerPage(edition, rows, { fieldMask: selection.fieldMask, isVersioned: false }, {
      count: rows.length,
      pagination: cursorPaging(offset, rows.length, limit, total),
    }, key);
  });
}

export const slugSchemas = {
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: which roster's version of the player", "x-normalise": "lower", "x-empty": "refuse" },
  team: { type: "string", maxLength: 100, description: "Exact full team name, or its slug: which roster's version of the player (narrows like teamType)" },
} as const;
export const slugParams = compileParams(slugSchemas);

/** Cached 1 hour like the other cacheable routes (docs/compatibility.md#fidelity-rules), private: a keyed answer. */
const SLUG_CACHE_CONTROL = "private, max-age=3600";

/** What `meta.variants` says of a row: enough to ask for it (`team=`, `teamType=`) or fetch it by `_id`. */
function variantOf(edition: Edition, row: number): { _id: string; teamType: string; team: string; slug: string } {
  return { _id: edition.field(row, "_id") as string, teamType: edition.field(row, "teamType") as string, team: edition.field(row, "team") as string, slug: edition.field(row, "slug") as string };
}

/** The rows on the team named (exact name or slug); nothing left is 404 PLAYER_NOT_FOUND, as the hosted service answers. */
export function rowsOnTeam(edition: Edition, rows: readonly number[], slug: string, team: string, era: Era | undefined): readonly number[] {
  const codes = new Set(edition.findTeams(team, era).map((info) => info.code));
  const teamColumn = edition.payload.columns.team;
  const kept = rows.filter((row) => codes.has(teamColumn[row] as number));
  if (kept.length > 0) return kept;
  const rosters = rows.map((row) => edition.field(row, "team") as string);
  throw new ApiError(
    "PLAYER_NOT_FOUND",
    {
      slug, team: team.slice(0, 100), ...(era ? { teamType: era } : {}),
      hint: `${slug} is not on ${team.slice(0, 100)}${era ? ` in ${era}` : ""} in ${edition.key}; its rosters: ${rosters.join(", ")}`,
      suggestions: rosters,
    },
    `No player ${slug} on ${team.slice(0, 100)}`,
  );
}

function playerBySlug(context: RequestContext<ValuesOf<typeof slugSchemas>>): Reply {
  const { teamType: era, team } = context.values;
  const edition = context.editions.current;
  const slug = context.pathParams.slug ?? "";
  const found = rowsForSlug(edition, slug, era);
  return playerDetailReply(context, "/api/players/slug/:slug", team === undefined ? found : rowsOnTeam(edition, found, slug, team, era));
}

/**
 * One player of the current edition in full (GET /api/players/slug/:slug, and /api/players/:id by
 * an `_id` or a slug): the hosted way (docs/data.md#source-values-kept-exactly), the first of `rows`
 * (source order after the narrowing, era first: curr, class, allt); the rows it passed over are
 * named in meta.variants.
 */
export function playerDetailReply(context: RequestContext, route: string, rows: readonly number[]): Reply {
  const edition = context.editions.current;
  // Cached server-side (the detail joins editions), keyed by every edition's data version.
  const key = cacheKey(route, context.editions.ordered, [rows]);
  return context.cached(key, () =>
    successReplyJson(playerDetailJson(context.editions, edition, rows[0] as number, false), {
      gameVersion: edition.key,
      ...(rows.length > 1 ? { variants: rows.slice(1).map((row) => variantOf(edition, row)) } : {}),
      // The detail's ratingHistory reads every edition.
      ...dataSourceMeta(context.editions),
    }, { isCacheable: true, cacheControl: SLUG_CACHE_CONTROL }));
}

const listResponse: RouteResponse = {
  kind: "envelope",
  description: "A page of players",
  data: playerRows,
  meta: exactObject({
    count: integer("Rows on this page"),
    pagination: cursorPagination("Players matching the filters"),
  }),
};

export const slugResponse: RouteResponse = {
  kind: "envelope",
  description: "One player in full, with hot zones, the source's rating history and ours (editionRatings)",
  data: ref("Player"),
  meta: exactObject({
    gameVersion,
    variants: arrayOf(
      exactObject({ _id: text("That row's _id"), teamType: era, team: text("Full team name"), slug: text("That row's player slug") }),
      "Present when the slug names more than one row (a traded player's old and new row, a name's several rosters): the rows not answered, in source order",
    ),
  }, ["variants"]),
};

export const playerRoutes: RouteDefinition[] = [
  { method: "GET", path: "/api/players", access: "key", params: listParams, summary: "List, filter, sort and page players", response: listResponse, handle: listPlayers },
  { method: "GET", path: "/api/players/slug/:slug", access: "key", params: slugParams, summary: "One player in full by slug", response: slugResponse, errors: ["PLAYER_NOT_FOUND"], handle: playerBySlug },
];
