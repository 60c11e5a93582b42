// GET /api/players/:id/history: the current edition's weekly snapshots of one roster entry,
// newest first, each with what changed against the week before (store/week-changes.ts).
// `:id` is the _id or a slug (teamType narrows a slug). docs/compatibility.md#fidelity-rules: each row is also a change
// record as the hosted service writes them (`_id, playerId, scrapedAt, gameVersion,
// previousOverall?, newOverall, overallDelta?, attributeChanges?, badgeChanges?, changeType`);
// an unknown player, or a gameVersion that is not the current edition, is 200 with `data: []`.

import { ERAS } from "../../model/eras.js";
import { TIER_COUNT_KEYS } from "../../model/badges.js";
import { compileParams, limitParam, type ValuesOf } from "../../query/params.js";
import type { Edition } from "../../store/edition.js";
import { weekChanges, type WeekChanges } from "../../store/week-changes.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, successReply, type Reply } from "../reply.js";
import { ApiError } from "../../query/api-error.js";
import type { RouteDefinition } from "../router.js";
import { rowOfIdOrSlug } from "./player-ref.js";
import { arrayOf, exactObject, integer, ref, text } from "../describe/response-schemas.js";
import { ABSENT_RATING } from "../../model/attributes.js";
import type { HistoryWeek } from "../../store/weekly-series.js";

const historySchemas = {
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt: narrows a slug", "x-normalise": "lower" },
  gameVersion: { type: "string", maxLength: 16, description: "Only this edition's records (the weekly history is the current edition's; another edition answers data: [])" },
  limit: limitParam(100, 52),
} as const;
const historyParams = compileParams(historySchemas, { ignoresUnknown: true });

/** The hosted service keeps history answers 5 minutes; ours are private (a keyed answer). */
export const HISTORY_CACHE_CONTROL = "private, max-age=300";

function playerHistory(context: RequestContext<ValuesOf<typeof historySchemas>>): Reply {
  const edition = context.editions.current;
  const id = context.pathParams.id ?? "";
  const { limit, gameVersion: asked } = context.values;
  let row: number | undefined;
  try {
    row = rowOfIdOrSlug(edition, id, context.values.teamType);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "PLAYER_NOT_FOUND") throw error;
  }
  const isOtherEdition = asked !== undefined && asked.toUpperCase() !== edition.key;
  if (row === undefined || isOtherEdition) {
    // As the hosted service answers an id it holds no history for: an empty list, not a 404.
    return successReply([], { playerId: id.slice(0, 100), count: 0, total: 0, ...dataSourceMeta(edition) }, { isCacheable: true, cacheControl: HISTORY_CACHE_CONTROL });
  }
  const found = row;
  return context.cached(cacheKey("/api/players/:id/history", edition, [found, limit]), () => renderHistory(edition, found, limit));
}

function renderHistory(edition: Edition, row: number, limit: number): Reply {
  const player = { _id: edition.field(row, "_id") as string, slug: edition.field(row, "slug") };
  const weekly = edition.weekly;
  const slot = weekly?.slotOfRow[row] ?? -1;
  const weeks = weekly && slot >= 0 ? weekly.weeks.filter((week) => week.overall[slot] !== ABSENT_RATING) : [];
  const { catalogue } = edition;
  const attributesOf = (week: HistoryWeek) => week.attributes.subarray(slot * catalogue.attributeCount, (slot + 1) * catalogue.attributeCount);
  const entries = weeks.map((week, w) => {
    const overall = week.overall[slot] as number;
    const previous = weeks[w - 1];
    const values = attributesOf(week);
    const attributes: Record<string, number> = {};
    catalogue.attributeKeys.forEach((key, column) => {
      const value = values[column] as number;
      if (value !== ABSENT_RATING) attributes[key] = value;
    });
    const counts = week.badgeCounts.subarray(slot * 6, slot * 6 + 6);
    const badges: Record<string, number> = { total: counts[0] as number };
    TIER_COUNT_KEYS.forEach((key, k) => { badges[key] = counts[k + 1] as number; });
    const changes = previous === undefined || weekly === null
      ? undefined
      : weekChanges(catalogue, attributesOf(previous), values, weekly.badgeTiers(previous, slot), weekly.badgeTiers(week, slot));
    const previousOverall = previous === undefined ? undefined : (previous.overall[slot] as number);
    return {
      ...changeRecord(player._id, week.date, edition.key, overall, previousOverall, changes),
      date: week.date, overall,
      ...(previousOverall === undefined ? {} : { delta: overall - previousOverall }),
      attributes, badges,
      ...(changes === undefined ? {} : { changes }),
    };
  }).reverse();
  const page = entries.slice(0, limit);
  return successReply(page, { playerId: player._id, slug: player.slug, count: page.length, total: entries.length, ...dataSourceMeta(edition) }, { isCacheable: true, cacheControl: HISTORY_CACHE_CONTROL });
}

/**
 * The hosted service's change record of one week: `initial` for the first week held, `update`
 * when the overall, an attribute or a badge moved, `unchanged` (ours: the hosted service writes no
 * record for such a week) otherwise. Optional fields are absent when nothing moved, as there.
 */
function changeRecord(playerId: string, date: string, gameVersion: string, overall: number, previousOverall: number | undefined, changes: WeekChanges | undefined): Record<string, unknown> {
  const attributeChanges = changes === undefined
    ? undefined
    : Object.fromEntries(Object.entries(changes.attributes).map(([key, { from, to }]) => [key, { prev: from, new: to }]));
  const badges = changes?.badges;
  const badgeChanges = badges === undefined || badges.added.length + badges.removed.length + badges.upgraded.length + badges.downgraded.length === 0
    ? undefined
    : {
      added: badges.added, removed: badges.removed,
      upgraded: badges.upgraded.map(({ name, from, to }) => ({ name, fromTier: from, toTier: to })),
      downgraded: badges.downgraded.map(({ name, from, to }) => ({ name, fromTier: from, toTier: to })),
    };
  const hasAttributeChanges = attributeChanges !== undefined && Object.keys(attributeChanges).length > 0;
  const overallDelta = previousOverall === undefined || previousOverall === overall ? undefined : overall - previousOverall;
  const changeType = previousOverall === undefined ? "initial" : overallDelta !== undefined || hasAttributeChanges || badgeChanges !== undefined ? "update" : "unchanged";
  return {
    _id: `${playerId}-${date}`,
    playerId,
    scrapedAt: `${date}T00:00:00.000Z`,
    gameVersion,
    ...(previousOverall === undefined ? {} : { previousOverall }),
    newOverall: overall,
    ...(overallDelta === undefined ? {} : { overallDelta }),
    ...(hasAttributeChanges ? { attributeChanges } : {}),
    ...(badgeChanges === undefined ? {} : { badgeChanges }),
    changeType,
  };
}

export const historyRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/:id/history", access: "key", params: historyParams, cacheControl: HISTORY_CACHE_CONTROL, summary: "Weekly rating snapshots of one player, newest first, with what changed each week",
    response: {
      kind: "envelope",
      description: "Weekly rating snapshots, newest first",
      data: arrayOf(ref("RatingSnapshot")),
      meta: exactObject({
        playerId: text("The player's _id (an unknown one as asked)"), slug: text("The player's slug (absent for an unknown player)"),
        count: integer("Snapshots returned"), total: integer("Snapshots held"),
      }, ["slug"]),
    },
    handle: playerHistory,
  },
];
