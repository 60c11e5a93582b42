// A current fixture edition with three weeks of history in which some overalls, attributes and
// badges move, and the plain-array oracles the parity tests check the routes against.

import { ATTRIBUTE_KEYS } from "../../src/model/attributes.js";
import { BADGES, BADGE_TIERS, type BadgeTier } from "../../src/model/badges.js";
import { compareText, countBadges } from "../../src/model/badge-summary.js";
import { foldName } from "../../src/model/names.js";
import type { EditionSource, PlayerRecord, WeeklyPlayer, WeeklySnapshot } from "../../src/model/player.js";
import { randomEdition } from "../fixtures/random-edition.js";

export const WEEK_DATES = ["2026-11-06", "2026-11-13", "2026-11-20"];

/** Week w (0 … 2) of player i: a third move their overall, some an attribute, some a badge. */
function weekOf(player: PlayerRecord, i: number, w: number): WeeklyPlayer {
  const back = WEEK_DATES.length - 1 - w;
  const step = i % 3 === 0 ? 1 : i % 3 === 1 ? -1 : 0;
  const overall = Math.max(0, Math.min(99, player.overall - step * back * ((i % 4) + 1)));
  const attributes = { ...player.attributes };
  if (i % 5 === 0 && attributes.speed !== undefined) attributes.speed = Math.max(0, attributes.speed - back);
  let list = (player.badges.list ?? []).map(({ slug, tier }) => ({ slug, tier: tier as BadgeTier }));
  if (i % 7 === 0 && back > 0 && list.length > 0) list = list.slice(1);
  if (i % 11 === 0 && back === 1 && list[0]) list = [{ slug: list[0].slug, tier: (BADGE_TIERS[Math.max(0, BADGE_TIERS.indexOf(list[0].tier) - 1)] as BadgeTier) }, ...list.slice(1)];
  return { _id: player._id, overall, attributes, badges: countBadges(list), badgeList: list };
}

export function historyEdition(): EditionSource {
  const source = randomEdition(400, 21);
  const history: WeeklySnapshot[] = WEEK_DATES.map((date, w) => ({ date, players: source.players.map((player, i) => weekOf(player, i, w)) }));
  // The edition's own ratings are the newest week's.
  const players = source.players.map((player, i) => {
    const last = history[WEEK_DATES.length - 1]!.players[i]!;
    return { ...player, overall: last.overall };
  });
  return { ...source, players, history };
}

/** The oracle of `changes` between two plain weekly entries. */
export function oracleChanges(before: WeeklyPlayer, after: WeeklyPlayer): { attributes: Record<string, { from: number; to: number }>; badges: Record<string, unknown[]> } {
  const attributes: Record<string, { from: number; to: number }> = {};
  for (const key of ATTRIBUTE_KEYS) {
    const from = before.attributes[key];
    const to = after.attributes[key];
    if (from !== undefined && to !== undefined && from !== to) attributes[key] = { from, to };
  }
  const tierOf = (entry: WeeklyPlayer, slug: string) => entry.badgeList?.find((badge) => badge.slug === slug)?.tier;
  const badges: Record<string, unknown[]> = { added: [], removed: [], upgraded: [], downgraded: [] };
  for (const badge of [...BADGES].sort((a, b) => compareText(a.name, b.name))) {
    const from = tierOf(before, badge.slug);
    const to = tierOf(after, badge.slug);
    if (from === to) continue;
    if (from === undefined) badges.added!.push({ name: badge.name, tier: to });
    else if (to === undefined) badges.removed!.push({ name: badge.name, tier: from });
    else if (BADGE_TIERS.indexOf(to) > BADGE_TIERS.indexOf(from)) badges.upgraded!.push({ name: badge.name, from, to });
    else badges.downgraded!.push({ name: badge.name, from, to });
  }
  return { attributes, badges };
}

/** Name order as the snapshot ranks names (folded, then raw, then _id). */
export function compareNames(a: PlayerRecord, b: PlayerRecord): number {
  return compareText(foldName(a.name), foldName(b.name)) || compareText(a.name, b.name) || compareText(a._id, b._id);
}
