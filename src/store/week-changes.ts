// What moved between two consecutive weekly snapshots of one player: attributes (from → to) and
// badges (added, removed, upgraded, downgraded). Pure: it reads two weeks' values and returns
// plain objects, so it can be checked against an oracle over plain arrays.

import { BADGE_TIERS, type BadgeTier } from "../model/badges.js";
import type { Catalogue } from "../model/catalogue.js";
import { ABSENT_RATING } from "../model/attributes.js";

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

const tierOf = (code: number): BadgeTier => BADGE_TIERS[code - 1] as BadgeTier;

/**
 * In the edition's `catalogue`: `before`/`after`: one attribute value per column each
 * (ABSENT_RATING where absent); `tiersBefore`/`tiersAfter`: one tier code per badge each (0 none),
 * or undefined without lists. Badges are compared in name order, so every list reads alphabetically.
 */
export function weekChanges(
  catalogue: Catalogue, before: Uint8Array, after: Uint8Array, tiersBefore: Uint8Array | undefined, tiersAfter: Uint8Array | undefined,
): WeekChanges {
  const attributes: Record<string, { from: number; to: number }> = {};
  for (let column = 0; column < catalogue.attributeCount; column++) {
    const from = before[column] as number;
    const to = after[column] as number;
    if (from !== to && from !== ABSENT_RATING && to !== ABSENT_RATING) attributes[catalogue.attributeKeys[column] as string] = { from, to };
  }
  if (tiersBefore === undefined || tiersAfter === undefined) return { attributes };
  const badges: BadgeChanges = { added: [], removed: [], upgraded: [], downgraded: [] };
  for (const b of catalogue.badgesByName) {
    const from = tiersBefore[b] as number;
    const to = tiersAfter[b] as number;
    if (from === to) continue;
    const name = (catalogue.badges[b] as { name: string }).name;
    if (from === 0) badges.added.push({ name, tier: tierOf(to) });
    else if (to === 0) badges.removed.push({ name, tier: tierOf(from) });
    else if (to > from) badges.upgraded.push({ name, from: tierOf(from), to: tierOf(to) });
    else badges.downgraded.push({ name, from: tierOf(from), to: tierOf(to) });
  }
  return { attributes, badges };
}
