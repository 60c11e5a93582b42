// Tier counts and the top three badges, derived from a badge list; and a list's badges once each.

import { BADGE_TIERS, COUNT_KEY_OF_TIER, foldBadgeName, parseBadgeTier, type BadgeTier } from "./badges.js";
import type { BadgeCounts, BadgeEntry, TopBadge } from "./player.js";

/** Tier counts of a list's entries, each tier read by meaning (`gold` is Gold); an entry whose tier names none is not counted. */
export function countBadges(list: readonly { tier: string }[]): BadgeCounts {
  const counts: BadgeCounts = { total: 0, legendary: 0, hallOfFame: 0, gold: 0, silver: 0, bronze: 0 };
  for (const badge of list) {
    const tier = tierOf(badge.tier);
    if (tier === undefined) continue;
    counts.total += 1;
    counts[COUNT_KEY_OF_TIER[tier]] += 1;
  }
  return counts;
}

/** A tier read by meaning; one already written as ours is taken as it is (the common case, without parsing). */
function tierOf(text: string): BadgeTier | undefined {
  return Object.hasOwn(COUNT_KEY_OF_TIER, text) ? text as BadgeTier : parseBadgeTier(text);
}

/** A badge a player holds, its tier read by meaning. */
export type HeldBadge = BadgeEntry & { tier: BadgeTier };

/**
 * The badges a list says a player holds, as whatever indexes badges reads them (docs/data.md#source-values-kept-exactly):
 * each once (distinctBadges), its tier read by meaning (`gold`, `HOF` are Gold, Hall of Fame);
 * an entry whose tier names no tier holds nothing. The list itself is served as given.
 */
export function heldBadges(list: readonly BadgeEntry[]): HeldBadge[] {
  const held: HeldBadge[] = [];
  for (const badge of list) {
    const tier = tierOf(badge.tier);
    if (tier !== undefined) held.push(tier === badge.tier ? badge as HeldBadge : { ...badge, tier });
  }
  return distinctBadges(held);
}

/**
 * Each badge of a list once, at its first entry (docs/data.md#source-values-kept-exactly): the hosted service's lists name
 * every badge twice (by tier, then again by category), and whatever indexes a badge (filters,
 * holders, profiles, week changes) counts a player once per badge. Matched by folded slug, so
 * spellings that differ in case or punctuation are one badge. The list itself is served whole.
 */
export function distinctBadges<T extends { slug: string }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  const distinct: T[] = [];
  for (const badge of list) {
    const key = foldBadgeName(badge.slug);
    if (seen.has(key)) continue;
    seen.add(key);
    distinct.push(badge);
  }
  return distinct;
}

/** How many entries of a list repeat an earlier one's badge (0 for a list that names each badge once). */
export function repeatedBadgeCount(list: readonly { slug: string }[]): number {
  return list.length - distinctBadges(list).length;
}

/** The three highest-tier badges, by tier then name, each badge once. */
export function topBadges(list: readonly BadgeEntry[]): TopBadge[] {
  return heldBadges(list)
    .sort((a, b) => BADGE_TIERS.indexOf(b.tier) - BADGE_TIERS.indexOf(a.tier) || compareText(a.name, b.name))
    .slice(0, 3)
    .map(({ name, tier }) => ({ name, tier }));
}

/** Locale-free ordering so builds are identical on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
