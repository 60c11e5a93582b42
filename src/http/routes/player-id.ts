// GET /api/players/:id (one player by _id), /api/players/:id/versions (its overall in every
// edition) and /api/players/:id/attribute/:attr (one attribute over the weekly snapshots).

import type { Catalogue } from "../../model/catalogue.js";
import { ERAS } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import { closest } from "../../query/suggest.js";
import { compileParams, limitParam, paramWarning, type ValuesOf } from "../../query/params.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, era, exactObject, gameVersion, integer, text, timestamp } from "../describe/response-schemas.js";
import { rowOfIdOrSlug, rowsOfIdOrSlug } from "./player-ref.js";
import { playerDetailReply, rowsOnTeam, slugParams, slugResponse, type slugSchemas } from "./players.js";
import type { HistoryWeek } from "../../store/weekly-series.js";

const teamTypeParam = { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug", "x-normalise": "lower" } as const;
// docs/compatibility.md#fidelity-rules: the hosted service ignores unknown parameters on these two routes.
const versionsSchemas = { teamType: teamTypeParam } as const;
const versionsParams = compileParams(versionsSchemas, { ignoresUnknown: true });
const attributeSchemas = { teamType: teamTypeParam, limit: limitParam(100, 52) } as const;
const attributeParams = compileParams(attributeSchemas, { ignoresUnknown: true });

/** By `_id` (the hosted service's only way), or by slug as GET /api/players/slug/:slug answers it (ours: a superset). */
function playerById(context: RequestContext<ValuesOf<typeof slugSchemas>>): Reply {
  const { teamType: era, team } = context.values;
  const edition = context.editions.current;
  const id = context.pathParams.id ?? "";
  const found = rowsOfIdOrSlug(edition, id, era);
  return playerDetailReply(context, "/api/players/:id", team === undefined ? found : rowsOnTeam(edition, found, id, team, era));
}

function playerVersions(context: RequestContext<ValuesOf<typeof versionsSchemas>>): Reply {
  const edition = context.editions.current;
  const row = rowOfIdOrSlug(edition, context.pathParams.id ?? "", context.values.teamType);
  const key = cacheKey("/api/players/:id/versions", context.editions.ordered, [row]);
  return context.cached(key, () => {
    const player = {
      _id: edition.field(row, "_id") as string, name: edition.field(row, "name"), slug: edition.field(row, "slug"), overall: edition.field(row, "overall"),
      teamType: edition.field(row, "teamType"), team: edition.field(row, "team"),
    };
    return successReply({
      playerId: player._id, name: player.name, slug: player.slug,
      currentVersion: edition.key, currentOverall: player.overall,
      ratingHistory: context.editions.ratingHistory(edition, row),
    }, {
      gameVersion: edition.key, teamType: player.teamType, team: player.team,
      // ratingHistory reads every edition: demo when any of them is.
      ...dataSourceMeta(context.editions),
    }, { isCacheable: true });
  });
}

/**
 * The attribute's column in the edition's catalogue (-1 for overall), or undefined for a name that
 * is none of its attributes. Accepted: a camelCase key, its snake_case name, an alias, or `overall`.
 */
function attributeColumn(catalogue: Catalogue, text: string): number | undefined {
  if (text === "overall") return -1;
  return catalogue.columnOfKey(text) ?? catalogue.columnOfParam(text) ?? catalogue.columnOfParam(text.toLowerCase());
}

/**
 * docs/compatibility.md#fidelity-rules: an unknown player or attribute is 200 with `data: []` (the hosted service finds no
 * points for it), with a warning for the attribute; meta echoes the path's id and attribute.
 */
function attributeSeries(context: RequestContext<ValuesOf<typeof attributeSchemas>>): Reply {
  const edition = context.editions.current;
  const id = (context.pathParams.id ?? "").slice(0, 100);
  const attribute = (context.pathParams.attr ?? "").slice(0, 100);
  const column = attributeColumn(edition.catalogue, attribute);
  let row: number | undefined;
  try {
    row = rowOfIdOrSlug(edition, id, context.values.teamType);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "PLAYER_NOT_FOUND") throw error;
  }
  if (column === undefined) {
    const names = ["overall", ...edition.catalogue.attributeKeys];
    context.warnings.push(paramWarning("attr", attribute, `${attribute} is not an attribute of ${edition.key}: no points`, closest(attribute, names, 3)));
  }
  if (row === undefined || column === undefined) {
    return successReply([], { playerId: id, attribute, dataPoints: 0, ...dataSourceMeta(edition) }, { isCacheable: true });
  }
  const found = row;
  const { limit } = context.values;
  return context.cached(cacheKey("/api/players/:id/attribute/:attr", edition, [found, column, limit, id, attribute]), () => {
    const weekly = edition.weekly;
    const slot = weekly?.slotOfRow[found] ?? -1;
    const points: { date: string; scrapedAt: string; value: number }[] = [];
    if (weekly && slot >= 0) {
      for (const week of weekly.weeks as readonly HistoryWeek[]) {
        const value = weekly.value(week, slot, column);
        if (value !== undefined) points.push({ date: week.date, scrapedAt: `${week.date}T00:00:00.000Z`, value });
      }
    }
    const page = points.slice(Math.max(0, points.length - limit));
    return successReply(page, {
      playerId: id, attribute, dataPoints: page.length,
      id: edition.field(found, "_id"), key: column < 0 ? "overall" : (edition.catalogue.attributeKeys[column] as string), ...dataSourceMeta(edition),
    }, { isCacheable: true });
  });
}

export const playerIdRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/:id", access: "key", params: slugParams, summary: "One player in full by _id, or by slug as /api/players/slug/:slug answers it",
    response: slugResponse,
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
      data: arrayOf(exactObject({
        date: { type: "string", format: "date" }, scrapedAt: timestamp("The week's snapshot time (its date, midnight UTC)"), value: { type: "integer", minimum: 0, maximum: 99 },
      })),
      meta: exactObject({
        playerId: text("The :id as asked"), attribute: text("The :attr as asked"), dataPoints: integer("Points returned"),
        id: text("The player's _id (absent for an unknown player or attribute)"), key: text("The attribute's camelCase key, or overall (absent for an unknown one)"),
      }, ["id", "key"]),
    },
    handle: attributeSeries,
  },
];
