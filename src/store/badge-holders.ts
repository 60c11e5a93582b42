// Who holds each badge, precomputed from the edition's columns (badge tiers, overall, name order):
// per badge one run of rows, best tier first, then overall desc, then name. The badge routes only
// slice these runs. Built in two linear passes (no sort), so it can move into the snapshot later.

import { BADGE_TIERS } from "../model/badges.js";

/** Tier groups per badge, best first: Legendary … Bronze. */
export const TIER_GROUPS = BADGE_TIERS.length;
const STRIDE = TIER_GROUPS + 1;

export interface BadgeHolders {
  /** Holder rows of badge 0, then badge 1, …; within a badge, tier groups best first, each by overall desc then name. */
  readonly rows: Uint32Array;
  /**
   * badge * STRIDE + g → start of tier group g (0 = Legendary … 4 = Bronze) in `rows`;
   * badge * STRIDE + TIER_GROUPS → the end of the badge's run.
   */
  readonly groupStart: Uint32Array;
}

export interface HolderColumns {
  /** row * badgeCount + badge → tier code (0 none, 1 Bronze … 5 Legendary). */
  badgeTiers: Uint8Array;
  overall: Uint8Array;
  /** The edition's badges (its catalogue's). */
  badgeCount: number;
}

/** Tier code (1 Bronze … 5 Legendary) → its group (0 = Legendary … 4 = Bronze). */
export function groupOfTierCode(code: number): number {
  return TIER_GROUPS - code;
}

/** `rowsByName`: every row in name order (the snapshot's name sort order). */
export function buildBadgeHolders(columns: HolderColumns, rowsByName: Uint32Array): BadgeHolders {
  const { badgeTiers, overall, badgeCount } = columns;
  // Rows by overall desc, then name: a stable counting sort of the name order on 100 overall values.
  const perOverall = new Uint32Array(101);
  for (let i = 0; i < rowsByName.length; i++) (perOverall[99 - Math.min(99, overall[rowsByName[i] as number] as number) + 1] as number)++;
  for (let v = 1; v <= 100; v++) perOverall[v] = (perOverall[v] as number) + (perOverall[v - 1] as number);
  const byOverall = new Uint32Array(rowsByName.length);
  for (let i = 0; i < rowsByName.length; i++) {
    const row = rowsByName[i] as number;
    byOverall[(perOverall[99 - Math.min(99, overall[row] as number)] as number)++] = row;
  }
  // Count per (badge, group), then lay the runs out and fill them in that order.
  const groupStart = new Uint32Array(badgeCount * STRIDE);
  const counts = new Uint32Array(badgeCount * TIER_GROUPS);
  for (let row = 0; row < rowsByName.length; row++) {
    const base = row * badgeCount;
    for (let badge = 0; badge < badgeCount; badge++) {
      const code = badgeTiers[base + badge] as number;
      if (code !== 0) (counts[badge * TIER_GROUPS + groupOfTierCode(code)] as number)++;
    }
  }
  let at = 0;
  for (let badge = 0; badge < badgeCount; badge++) {
    for (let group = 0; group < TIER_GROUPS; group++) {
      groupStart[badge * STRIDE + group] = at;
      at += counts[badge * TIER_GROUPS + group] as number;
    }
    groupStart[badge * STRIDE + TIER_GROUPS] = at;
  }
  const rows = new Uint32Array(at);
  const next = new Uint32Array(badgeCount * TIER_GROUPS);
  for (let badge = 0; badge < badgeCount; badge++) {
    for (let group = 0; group < TIER_GROUPS; group++) next[badge * TIER_GROUPS + group] = groupStart[badge * STRIDE + group] as number;
  }
  for (let i = 0; i < byOverall.length; i++) {
    const row = byOverall[i] as number;
    const base = row * badgeCount;
    for (let badge = 0; badge < badgeCount; badge++) {
      const code = badgeTiers[base + badge] as number;
      if (code !== 0) rows[(next[badge * TIER_GROUPS + groupOfTierCode(code)] as number)++] = row;
    }
  }
  return { rows, groupStart };
}

/** [start, end) in `holders.rows` of one badge, or of one tier group of it. */
export function holderRange(holders: BadgeHolders, badge: number, group?: number): [number, number] {
  const base = badge * STRIDE;
  if (group === undefined) return [holders.groupStart[base] as number, holders.groupStart[base + TIER_GROUPS] as number];
  return [holders.groupStart[base + group] as number, holders.groupStart[base + group + 1] as number];
}

/** Holders per tier, in the wire's badge-count shape. */
export function holderCounts(holders: BadgeHolders, badge: number): { total: number; legendary: number; hallOfFame: number; gold: number; silver: number; bronze: number } {
  const size = (group: number) => {
    const [start, end] = holderRange(holders, badge, group);
    return end - start;
  };
  const [start, end] = holderRange(holders, badge);
  return { total: end - start, legendary: size(0), hallOfFame: size(1), gold: size(2), silver: size(3), bronze: size(4) };
}
