// GET /api/players/:id (one player by _id), /api/players/:id/versions (its overall in every
// edition) and /api/players/:id/attribute/:attr (one attribute over the weekly snapshots).

import { ATTRIBUTE_BY_PARAM_NAME, ATTRIBUTE_INDEX, ATTRIBUTE_KEYS } from "../../model/attributes.js";
import { ERAS } from "../../model/eras.js";
import { invalidParameter } from "../../query/api-error.js";
import { compileParams, limitParam } from "../../query/params.js";
import type { HistoryWeek } from "../../data/snapshot.js";
import type { RequestContext } from "../context.js";
import { successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, era, exactObject, gameVersion, integer, ref, text } from "../response-schemas.js";
import { playerDetail, teamTypeOf } from "./players.js";
import { rowOfId, rowOfIdOrSlug } from "./player-ref.js";

const noParams = compileParams({});
const teamTypeParam = { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug", "x-normalise": "lower" } as const;
const versionsParams = compileParams({ teamType: teamTypeParam });
const attributeParams = compileParams({ teamType: teamTypeParam, limit: limitParam(100, 52) });

function playerById(context: RequestContext): Reply {
  const edition = context.editions.current;
  const row = rowOfId(edition, context.pathParams.id ?? "");
  // The detail joins editions (ratingHistory): keyed by every edition's data version.
  const key = `id|${context.editions.ordered.map((e) => e.checksum).join(",")}|${row}`;
  return context.cached(key, () =>
    successReply(playerDetail(context.editions, edition, row, false), { gameVersion: edition.key }, { isCacheable: true }));
}

function playerVersions(context: RequestContext): Reply {
  const edition = context.editions.current;
  const row = rowOfIdOrSlug(edition, context.pathParams.id ?? "", teamTypeOf(context.values));
  const key = `versions-of|${context.editions.ordered.map((e) => e.checksum).join(",")}|${row}`;
  return context.cached(key, () => {
    const player = edition.record(row);
    return successReply({
      playerId: player._id, name: player.name, slug: player.slug,
      currentVersion: edition.key, currentOverall: player.overall,
      ratingHistory: context.editions.ratingHistory(player._id),
    }, { gameVersion: edition.key, teamType: player.teamType, team: player.team }, { isCacheable: true });
  });
}

/** Accepted attribute names: every camelCase key, its snake_case name, an alias, or `overall`. */
const ALLOWED_ATTRIBUTES: readonly string[] = ["overall", ...ATTRIBUTE_KEYS];

/** The attribute's column (-1 for overall) and canonical key, or a 400 listing what is allowed. */
function attributeColumn(text: string): { column: number; key: string } {
  if (text === "overall") return { column: -1, key: "overall" };
  const column = ATTRIBUTE_INDEX.get(text) ?? ATTRIBUTE_BY_PARAM_NAME.get(text) ?? ATTRIBUTE_BY_PARAM_NAME.get(text.toLowerCase());
  if (column === undefined || column < 0) {
    throw invalidParameter("attr", text.slice(0, 100), "must be an attribute's camelCase key, its snake_case name, an alias, or overall", ALLOWED_ATTRIBUTES);
  }
  return { column, key: ATTRIBUTE_KEYS[column] as string };
}

function attributeSeries(context: RequestContext): Reply {
  const edition = context.editions.current;
  const { column, key } = attributeColumn(context.pathParams.attr ?? "");
  const row = rowOfIdOrSlug(edition, context.pathParams.id ?? "", teamTypeOf(context.values));
  const limit = (context.values.limit as number | undefined) ?? 52;
  return context.cached(`attribute|${edition.checksum}|${row}|${column}|${limit}`, () => {
    const weekly = edition.weekly;
    const slot = weekly?.slotOfRow[row] ?? -1;
    const points: { date: string; value: number }[] = [];
    if (weekly && slot >= 0) {
      for (const week of weekly.weeks as readonly HistoryWeek[]) {
        const value = weekly.value(week, slot, column);
        if (value !== undefined) points.push({ date: week.date, value });
      }
    }
    const page = points.slice(Math.max(0, points.length - limit));
    return successReply(page, { playerId: edition.record(row)._id, attribute: key, dataPoints: page.length }, { isCacheable: true });
  });
}

export const playerIdRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/:id", access: "key", params: noParams, summary: "One player in full by _id",
    response: { kind: "envelope", description: "One player in full, with hot zones and rating history", data: ref("Player"), meta: exactObject({ gameVersion }) },
    errors: ["INVALID_ID", "PLAYER_NOT_FOUND"],
    handle: playerById,
  },
  {
    method: "GET", path: "/api/players/:id/versions", access: "key", params: versionsParams, summary: "A player's overall in every edition, newest first",
    response: {
      kind: "envelope",
      description: "The player's overall in every edition holding its _id, newest first",
      data: exactObject({
        playerId: text("_id"), name: text("Name"), slug: text("Slug"), currentVersion: gameVersion, currentOverall: { type: "integer", minimum: 0, maximum: 99 },
        ratingHistory: arrayOf(exactObject({
          gameVersion, overall: { type: "integer", minimum: 0, maximum: 99 }, delta: { type: "integer", description: "Change since the previous edition holding it" },
        }, ["delta"])),
      }),
      meta: exactObject({ gameVersion, teamType: era, team: text("Full team name") }),
    },
    errors: ["PLAYER_NOT_FOUND"],
    handle: playerVersions,
  },
  {
    method: "GET", path: "/api/players/:id/attribute/:attr", access: "key", params: attributeParams,
    summary: "One attribute (or overall) over the current edition's weekly snapshots, oldest first",
    response: {
      kind: "envelope",
      description: "One attribute over the weekly snapshots, oldest first",
      data: arrayOf(exactObject({ date: { type: "string", format: "date" }, value: { type: "integer", minimum: 0, maximum: 99 } })),
      meta: exactObject({ playerId: text("_id"), attribute: text("The camelCase key (or overall)"), dataPoints: integer("Points returned") }),
    },
    errors: ["PLAYER_NOT_FOUND"],
    handle: attributeSeries,
  },
];
