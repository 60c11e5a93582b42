// GET /api/players/:id/history: the current edition's weekly snapshots of one roster entry,
// newest first, each with what changed against the week before (store/week-changes.ts).
// `:id` is the _id or a slug (teamType narrows a slug).

import { ATTRIBUTE_COUNT, ATTRIBUTE_KEYS } from "../../model/attributes.js";
import { ERAS } from "../../model/eras.js";
import { TIER_COUNT_KEYS } from "../../model/badges.js";
import { ABSENT_RATING, type HistoryWeek } from "../../data/snapshot.js";
import { compileParams, limitParam } from "../../query/params.js";
import type { Edition } from "../../store/edition.js";
import { weekChanges } from "../../store/week-changes.js";
import type { RequestContext } from "../context.js";
import { successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { teamTypeOf } from "./players.js";
import { rowOfIdOrSlug } from "./player-ref.js";
import { arrayOf, exactObject, integer, ref, text } from "../response-schemas.js";

const historyParams = compileParams({
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug", "x-normalise": "lower" },
  limit: limitParam(100, 52),
});

function playerHistory(context: RequestContext): Reply {
  const edition = context.editions.current;
  const row = rowOfIdOrSlug(edition, context.pathParams.id ?? "", teamTypeOf(context.values));
  const limit = (context.values.limit as number | undefined) ?? 52;
  return context.cached(`history|${edition.checksum}|${row}|${limit}`, () => renderHistory(edition, row, limit));
}

function renderHistory(edition: Edition, row: number, limit: number): Reply {
  const player = edition.record(row);
  const weekly = edition.weekly;
  const slot = weekly?.slotOfRow[row] ?? -1;
  const weeks = weekly && slot >= 0 ? weekly.weeks.filter((week) => week.overall[slot] !== ABSENT_RATING) : [];
  const attributesOf = (week: HistoryWeek) => week.attributes.subarray(slot * ATTRIBUTE_COUNT, (slot + 1) * ATTRIBUTE_COUNT);
  const entries = weeks.map((week, w) => {
    const overall = week.overall[slot] as number;
    const previous = weeks[w - 1];
    const values = attributesOf(week);
    const attributes: Record<string, number> = {};
    ATTRIBUTE_KEYS.forEach((key, column) => {
      const value = values[column] as number;
      if (value !== ABSENT_RATING) attributes[key] = value;
    });
    const counts = week.badgeCounts.subarray(slot * 6, slot * 6 + 6);
    const badges: Record<string, number> = { total: counts[0] as number };
    TIER_COUNT_KEYS.forEach((key, k) => { badges[key] = counts[k + 1] as number; });
    const changes = previous === undefined || weekly === null
      ? undefined
      : weekChanges(attributesOf(previous), values, weekly.badgeTiers(previous, slot), weekly.badgeTiers(week, slot));
    return {
      date: week.date, gameVersion: edition.key, overall,
      ...(previous === undefined ? {} : { delta: overall - (previous.overall[slot] as number) }),
      attributes, badges,
      ...(changes === undefined ? {} : { changes }),
    };
  }).reverse();
  const page = entries.slice(0, limit);
  return successReply(page, { playerId: player._id, slug: player.slug, count: page.length, total: entries.length });
}

export const historyRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/:id/history", access: "key", params: historyParams, summary: "Weekly rating snapshots of one player, newest first, with what changed each week",
    response: {
      kind: "envelope",
      description: "Weekly rating snapshots, newest first",
      data: arrayOf(ref("RatingSnapshot")),
      meta: exactObject({ playerId: text("The player's _id"), slug: text("The player's slug"), count: integer("Snapshots returned"), total: integer("Snapshots held") }),
    },
    errors: ["PLAYER_NOT_FOUND"],
    handle: playerHistory,
  },
];
