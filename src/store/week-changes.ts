// What moved between two consecutive weekly snapshots of one player: attributes (from → to) and
// badges (added, removed, upgraded, downgraded). Pure: it reads two weeks' values and returns
// plain objects, so it can be checked against an oracle over plain arrays.

import { ATTRIBUTE_COUNT, ATTRIBUTE_KEYS } from "../model/attributes.js";
import { BADGES, BADGE_TIERS, type BadgeTier } from "../model/badges.js";
import { compareText } from "../model/badge-summary.js";
import { ABSENT_RATING } from "../data/snapshot.js";

export interface BadgeChanges {
  added: { name: string; tier: BadgeTier }[];
  removed: { name: string; tier: BadgeTier }[];
  upgraded: { name: string; from: BadgeTier; to: BadgeTier }[];
  downgraded: { name: string; from: BadgeTier; to: BadgeTier }[];
}

export interface WeekChanges {
  /** Attributes held both weeks whose value changed. */
  attributes: Record<string, { from: number; to: number }>;
  /** Present only when both weeks kept badge lists. */
  badges?: BadgeChanges;
}

/** Badge columns in name order, so every change list reads alphabetically. */
const BADGES_BY_NAME: readonly number[] = BADGES.map((_, b) => b).sort((a, b) => compareText((BADGES[a] as { name: string }).name, (BADGES[b] as { name: string }).name));

const tierOf = (code: number): BadgeTier => BADGE_TIERS[code - 1] as BadgeTier;

/**
 * `before`/`after`: ATTRIBUTE_COUNT attribute values each (ABSENT_RATING where absent);
 * `tiersBefore`/`tiersAfter`: BADGE_COUNT tier codes each (0 none), or undefined without lists.
 */
export function weekChanges(before: Uint8Array, after: Uint8Array, tiersBefore: Uint8Array | undefined, tiersAfter: Uint8Array | undefined): WeekChanges {
  const attributes: Record<string, { from: number; to: number }> = {};
  for (let column = 0; column < ATTRIBUTE_COUNT; column++) {
    const from = before[column] as number;
    const to = after[column] as number;
    if (from !== to && from !== ABSENT_RATING && to !== ABSENT_RATING) attributes[ATTRIBUTE_KEYS[column] as string] = { from, to };
  }
  if (tiersBefore === undefined || tiersAfter === undefined) return { attributes };
  const badges: BadgeChanges = { added: [], removed: [], upgraded: [], downgraded: [] };
  for (const b of BADGES_BY_NAME) {
    const from = tiersBefore[b] as number;
    const to = tiersAfter[b] as number;
    if (from === to) continue;
    const name = (BADGES[b] as { name: string }).name;
    if (from === 0) badges.added.push({ name, tier: tierOf(to) });
    else if (to === 0) badges.removed.push({ name, tier: tierOf(from) });
    else if (to > from) badges.upgraded.push({ name, from: tierOf(from), to: tierOf(to) });
    else badges.downgraded.push({ name, from: tierOf(from), to: tierOf(to) });
  }
  return { attributes, badges };
}
