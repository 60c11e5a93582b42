// Tier counts and the top three badges, derived from a badge list.

import { BADGE_TIERS, COUNT_KEY_OF_TIER, type BadgeTier } from "./badges.js";
import type { BadgeCounts, BadgeEntry, TopBadge } from "./player.js";

export function countBadges(list: readonly { tier: BadgeTier }[]): BadgeCounts {
  const counts: BadgeCounts = { total: list.length, legendary: 0, hallOfFame: 0, gold: 0, silver: 0, bronze: 0 };
  for (const badge of list) counts[COUNT_KEY_OF_TIER[badge.tier]] += 1;
  return counts;
}

/** The three highest-tier badges, by tier then name. */
export function topBadges(list: readonly BadgeEntry[]): TopBadge[] {
  return [...list]
    .sort((a, b) => BADGE_TIERS.indexOf(b.tier) - BADGE_TIERS.indexOf(a.tier) || compareText(a.name, b.name))
    .slice(0, 3)
    .map(({ name, tier }) => ({ name, tier }));
}

/** Locale-free ordering so builds are identical on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
