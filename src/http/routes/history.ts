// GET /api/players/:id/history: the current edition's weekly snapshots of one roster entry,
// newest first. `:id` is the _id or a slug (teamType narrows a slug).

import { ATTRIBUTE_COUNT, ATTRIBUTE_KEYS } from "../../model/attributes.js";
import { ERAS } from "../../model/eras.js";
import { TIER_COUNT_KEYS } from "../../model/badges.js";
import { ABSENT_RATING, type HistoryPayload } from "../../data/snapshot.js";
import { compileParams, limitParam } from "../../query/params.js";
import type { Edition } from "../../store/edition.js";
import type { RequestContext } from "../context.js";
import { successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, exactObject, integer, ref, text } from "../response-schemas.js";
import { rowsForSlug, teamTypeOf } from "./players.js";

const historyParams = compileParams({
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug", "x-normalise": "lower" },
  limit: limitParam(100, 52),
});

function historyIndex(edition: Edition, history: HistoryPayload): Map<string, number> {
  let index = edition.memo.get("history-index") as Map<string, number> | undefined;
  if (!index) {
    index = new Map(history.ids.map((id, i) => [id, i]));
    edition.memo.set("history-index", index);
  }
  return index;
}

function playerHistory(context: RequestContext): Reply {
  const edition = context.editions.current;
  const idOrSlug = context.pathParams.id ?? "";
  const row = edition.rowById.get(idOrSlug) ?? rowsForSlug(edition, idOrSlug, teamTypeOf(context.values))[0] as number;
  const limit = (context.values.limit as number | undefined) ?? 52;
  return context.cached(`history|${edition.checksum}|${row}|${limit}`, () => renderHistory(edition, row, limit));
}

function renderHistory(edition: Edition, row: number, limit: number): Reply {
  const player = edition.record(row);
  const history = edition.payload.history;
  const i = player && history ? historyIndex(edition, history).get(player._id) : undefined;
  const weeks = history && i !== undefined
    ? history.weeks.filter((week) => week.overall[i] !== ABSENT_RATING)
    : [];
  const entries = weeks.map((week, w) => {
    const overall = week.overall[i as number] as number;
    const previous = weeks[w - 1]?.overall[i as number];
    const attributes: Record<string, number> = {};
    ATTRIBUTE_KEYS.forEach((key, column) => {
      const value = week.attributes[(i as number) * ATTRIBUTE_COUNT + column] as number;
      if (value !== ABSENT_RATING) attributes[key] = value;
    });
    const counts = week.badgeCounts.subarray((i as number) * 6, (i as number) * 6 + 6);
    const badges: Record<string, number> = { total: counts[0] as number };
    TIER_COUNT_KEYS.forEach((key, k) => { badges[key] = counts[k + 1] as number; });
    return { date: week.date, gameVersion: edition.key, overall, ...(previous === undefined ? {} : { delta: overall - previous }), attributes, badges };
  }).reverse();
  const page = entries.slice(0, limit);
  return successReply(page, { playerId: player?._id, slug: player?.slug, count: page.length, total: entries.length });
}

export const historyRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/:id/history", access: "key", params: historyParams, summary: "Weekly rating snapshots of one player, newest first",
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
