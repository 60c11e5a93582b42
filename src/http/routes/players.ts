// GET /api/players (cursor pages) and GET /api/players/slug/:slug (one player in full, `teamType`
// and `team` narrowing which roster).

import { ERA_CODE, ERAS, isEra, type Era } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import { suggestSlugs } from "../../query/suggest.js";
import { executeQuery } from "../../query/execute.js";
import { compileParams, CURSOR_PARAM, limitParam, playerFilterParams, type ParamValues } from "../../query/params.js";
import { planQuery, selectPlayers } from "../../query/player-params.js";
import { ALL_ERAS_MASK } from "../../query/plan.js";
import type { Edition } from "../../store/edition.js";
import type { EditionSet } from "../../store/editions.js";
import { withEditionRating, type RatingHistoryEntry } from "../../model/player.js";
import { ALL_FIELDS_MASK, type RowShape } from "../../store/fragments.js";
import { mixHash } from "../../store/hash.js";
import type { RequestContext } from "../context.js";
import { arrayOf, cursorPagination, era, exactObject, gameVersion, integer, playerRows, ref, text, type RouteResponse } from "../response-schemas.js";
import { successReply, weakEtag, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";

const DATA_PREFIX = Buffer.from('{"success":true,"data":');

/**
 * A page of player rows in the envelope, its ETag folded from the fragments it copied. Rendered
 * into the scratch buffer: whoever keeps the reply (the response cache, a memo) keeps a copy.
 */
export function playerPage(edition: Edition, rows: ArrayLike<number>, shape: RowShape, meta: Record<string, unknown>): Reply {
  const suffixText = `,"meta":${JSON.stringify(meta)}}`;
  const suffix = Buffer.from(suffixText);
  const { body, hash, isScratch } = edition.fragments.renderRows(rows, shape, DATA_PREFIX, suffix, true);
  let etagHash = hash;
  for (let i = 0; i < suffixText.length; i++) etagHash = mixHash(etagHash, suffixText.charCodeAt(i));
  return { status: 200, body, etag: weakEtag(etagHash, body.length), isScratch };
}

const listParams = compileParams({ ...playerFilterParams({ withAllEras: true }), limit: limitParam(100, 50), cursor: CURSOR_PARAM });

/**
 * `meta.pagination` of the cursor-paged routes, the hosted service's five fields (docs/compatibility.md#fidelity-rules:
 * `nextCursor` absent on the last page, not null) plus ours, `cursor` (this page's offset).
 */
export function cursorPaging(offset: number, count: number, limit: number, total: number): Record<string, unknown> {
  const next = offset + count;
  const hasMore = next < total;
  return { hasMore, ...(hasMore ? { nextCursor: String(next) } : {}), count, limit, total, cursor: String(offset) };
}

function listPlayers(context: RequestContext): Reply {
  const selection = selectPlayers(context.values, { era: "curr" }, context.warnings);
  const limit = (context.values.limit as number | undefined) ?? 50;
  const offset = Number(context.values.cursor ?? 0);
  const edition = context.editions.current;
  const key = `players|${edition.checksum}|${JSON.stringify(selection.filters)}|${selection.fieldMask}|${limit}|${offset}`;
  // Planned before the cache: what the edition lacks is a 400 or a warning on every request, not only the first.
  const query = planQuery(edition, selection, context.warnings);
  return context.cached(key, () => {
    const { total, rows } = executeQuery(edition, query, offset, limit);
    return playerPage(edition, rows, { fieldMask: selection.fieldMask, isVersioned: false }, {
      count: rows.length,
      pagination: cursorPaging(offset, rows.length, limit, total),
    });
  });
}

const slugParams = compileParams({
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: which roster's version of the player", "x-normalise": "lower", "x-empty": "refuse" },
  team: { type: "string", maxLength: 100, description: "Exact full team name, or its slug: which roster's version of the player (narrows like teamType)" },
});

/** Cached 1 hour like the other cacheable routes (docs/compatibility.md#fidelity-rules), private: a keyed answer. */
const SLUG_CACHE_CONTROL = "private, max-age=3600";

/** Rows with the slug, narrowed to an era when given; throws PLAYER_NOT_FOUND with a hint. */
export function rowsForSlug(edition: Edition, slug: string, era: Era | undefined): readonly number[] {
  const rows = edition.rowsForSlug(slug.toLowerCase(), era === undefined ? ALL_ERAS_MASK : 1 << ERA_CODE[era]);
  if (rows.length > 0) return rows;
  const similar = suggestSlugs(edition, slug, 3);
  throw new ApiError(
    "PLAYER_NOT_FOUND",
    {
      slug,
      ...(era ? { teamType: era } : {}),
      hint: similar.length > 0
        ? `No player ${slug}${era ? ` in ${era}` : ""} in ${edition.key}. Did you mean ${similar.join(", ")}? Search by name with /api/players/search?q=…`
        : `No player ${slug}${era ? ` in ${era}` : ""} in ${edition.key}. Search by name with /api/players/search?q=…`,
      ...(similar.length > 0 ? { suggestions: similar } : {}),
    },
    `No player with slug ${slug}`,
  );
}

/**
 * The full detail of one row: the row as stored (its `ratingHistory` the source's, as given), and
 * ours beside it, `editionRatings` (docs/data.md#source-values-kept-exactly): that history with the overall of every loaded
 * edition holding the same `_id` that it does not name yet, newest first.
 */
export function playerDetail(editions: EditionSet, edition: Edition, row: number, isVersioned: boolean): Record<string, unknown> {
  const base = JSON.parse(edition.fragments.rowJson(row, { fieldMask: ALL_FIELDS_MASK, isVersioned })) as Record<string, unknown> & { _id: string; ratingHistory?: RatingHistoryEntry[] };
  let editionRatings = base.ratingHistory ?? [];
  for (const entry of editions.ratingHistory(base._id)) editionRatings = withEditionRating(editionRatings, entry.gameVersion, entry.overall);
  return { ...base, editionRatings: editionRatings.map(({ gameVersion, overall, delta }) => ({ gameVersion, overall, ...(delta === undefined ? {} : { delta }) })) };
}

/** What `meta.variants` says of a row: enough to ask for it (`team=`, `teamType=`) or fetch it by `_id`. */
function variantOf(edition: Edition, row: number): { _id: string; teamType: string; team: string; slug: string } {
  const { _id, teamType, team, slug } = edition.record(row);
  return { _id, teamType, team, slug };
}

/** The rows on the team named (exact name or slug); nothing left is 404 PLAYER_NOT_FOUND, as the hosted service answers. */
function rowsOnTeam(edition: Edition, rows: readonly number[], slug: string, team: string, era: Era | undefined): readonly number[] {
  const codes = new Set(edition.findTeams(team, era).map((info) => info.code));
  const teamColumn = edition.payload.columns.team;
  const kept = rows.filter((row) => codes.has(teamColumn[row] as number));
  if (kept.length > 0) return kept;
  const rosters = rows.map((row) => edition.record(row).team as string);
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

function playerBySlug(context: RequestContext): Reply {
  const era = teamTypeOf(context.values);
  const edition = context.editions.current;
  const slug = context.pathParams.slug ?? "";
  const team = typeof context.values.team === "string" ? context.values.team : undefined;
  const found = rowsForSlug(edition, slug, era);
  const rows = team === undefined ? found : rowsOnTeam(edition, found, slug, team, era);
  // Cached server-side (the detail joins editions), keyed by every edition's data version.
  const key = `slug|${context.editions.ordered.map((e) => e.checksum).join(",")}|${rows.join(",")}`;
  return context.cached(key, () =>
    // The hosted way (docs/data.md#source-values-kept-exactly): the first row in source order after the narrowing (era
    // first: curr, class, allt); the rows it passed over are named in meta.variants.
    successReply(playerDetail(context.editions, edition, rows[0] as number, false), {
      gameVersion: edition.key,
      ...(rows.length > 1 ? { variants: rows.slice(1).map((row) => variantOf(edition, row)) } : {}),
    }, { isCacheable: true, cacheControl: SLUG_CACHE_CONTROL }));
}

export function teamTypeOf(values: ParamValues): Era | undefined {
  const text = values.teamType;
  return typeof text === "string" && isEra(text) ? text : undefined;
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

const slugResponse: RouteResponse = {
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
