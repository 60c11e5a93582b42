// The record types of the wire and of the build: player, summary player, team, edition entry,
// weekly snapshot. A field with no value is absent, never null.

import { createHash } from "node:crypto";
import type { Attributes } from "./attributes.js";
import type { BadgeTier } from "./badges.js";
import type { Era, EditionStatus } from "./eras.js";
import { slugify } from "./names.js";

/**
 * One entry of a badge list, as the source gave it (docs/data.md#source-values-kept-exactly: its name as spelled, any key we
 * do not know passed through) with our `slug` where it had none. `category` is in 2kratings'
 * vocabulary (its badge pill, e.g. `Outside Scoring`); `description` and `imageUrl` where the
 * source has them.
 */
export interface BadgeEntry {
  name: string;
  slug: string;
  /** As the source writes it (docs/data.md#source-values-kept-exactly), usually one of BADGE_TIERS; heldBadges reads it by meaning. */
  tier: string;
  category?: string;
  description?: string;
  imageUrl?: string;
}

export interface TopBadge {
  name: string;
  /** As the source writes it; the top we derive from a list says BADGE_TIERS' names. */
  tier: string;
}

export interface BadgeCounts {
  total: number;
  legendary: number;
  hallOfFame: number;
  gold: number;
  silver: number;
  bronze: number;
}

/**
 * Counts as the source states them. The full list where the source has one (current editions),
 * whole: a hosted list names every badge twice (distinctBadges reads it once per badge); counts
 * and `top` otherwise.
 */
export interface Badges extends BadgeCounts {
  list?: BadgeEntry[];
  top?: TopBadge[];
}

/** The hosted service's zone names (docs/compatibility.md#fidelity-rules); a source may give any of them. */
export const HOT_ZONE_KEYS = [
  "leftCornerThree", "leftWingThree", "topKeyThree", "rightWingThree", "rightCornerThree", "leftElbow",
  "topKey", "rightElbow", "leftBaseline", "paint", "rightBaseline", "underBasket",
] as const;
export type HotZoneKey = (typeof HOT_ZONE_KEYS)[number];
/** The names our snapshots and exports used before the fidelity rules (docs/compatibility.md#fidelity-rules), read as the hosted ones. */
export const LEGACY_HOT_ZONE_KEYS: Readonly<Record<string, HotZoneKey>> = {
  leftCorner3: "leftCornerThree", leftWing3: "leftWingThree", top3: "topKeyThree", rightWing3: "rightWingThree", rightCorner3: "rightCornerThree",
};
export const HOT_ZONE_VALUES = ["hot", "cold", "neutral"] as const;
export type HotZoneValue = (typeof HOT_ZONE_VALUES)[number];
/**
 * Zones as the source gives them (docs/data.md#source-values-kept-exactly): usually HOT_ZONE_KEYS to HOT_ZONE_VALUES, but a
 * zone or a value spelled otherwise is kept under its own name, as it came.
 */
export type HotZones = Partial<Record<string, string>>;

/** One edition's overall in a player's rating history (newest first); `delta` against the next older entry. */
export interface RatingHistoryEntry {
  gameVersion: string;
  overall: number;
  delta?: number;
}

/**
 * A player as the build holds it: one roster entry of one edition. `gameVersion`,
 * `ratingHistory`, `createdAt` and `_creationTime` are the source's where it has them; the
 * snapshot build fills in the rest (src/data/build-snapshot.ts), so every stored row has them.
 * `extra` holds the source's other top-level fields, passed through under their own names.
 */
export interface PlayerRecord {
  _id: string;
  /** When the row was first seen, in ms since the epoch (a fraction kept as it came). */
  _creationTime?: number;
  name: string;
  slug: string;
  playerUrl?: string;
  team: string;
  teamType: Era;
  overall: number;
  /** As the source gives them (`["pg"]` stays so); knownPositions reads them by meaning. */
  positions?: string[];
  /** As the source gives them (docs/data.md#source-values-kept-exactly): `6'8"` usually, but any text or number is kept. */
  height?: string | number;
  /** `250 lbs` usually; a source's `250` (a number) or `"250"` is kept as it is. */
  weight?: string | number;
  wingspan?: string | number;
  archetype?: string;
  college?: string;
  playerImage?: string;
  teamImg?: string;
  attributes: Attributes;
  badges: Badges;
  hotZones?: HotZones;
  gameVersion?: string;
  ratingHistory?: RatingHistoryEntry[];
  lastUpdated?: string;
  /** ISO 8601: when the row was first seen. */
  createdAt?: string;
  extra?: Record<string, unknown>;
}

/** The record fields a source's pass-through fields may never override. */
export const RECORD_FIELD_NAMES: ReadonlySet<string> = new Set([
  "_id", "_creationTime", "name", "slug", "playerUrl", "team", "teamType", "overall", "positions", "height", "weight",
  "wingspan", "archetype", "college", "playerImage", "teamImg", "attributes", "badges", "hotZones", "gameVersion",
  "ratingHistory", "lastUpdated", "createdAt", "extra",
]);

export interface SummaryPlayer {
  _id: string;
  name: string;
  slug: string;
  team: string;
  teamType: Era;
  overall: number;
  positions?: string[];
  playerImage?: string;
  teamImg?: string;
}

export interface TeamRow {
  teamName: string;
  slug: string;
  teamType: Era;
  playerCount: number;
  /** Mean overall rounded to an integer (the hosted service's field). */
  averageRating: number;
  /** The exact mean overall. */
  meanOverall: number;
  /** The team's logo URL; "" when unknown. */
  logo: string;
}

export interface EditionEntry {
  gameVersion: string;
  label: string;
  status: EditionStatus;
  playerCount: number;
  teamTypeCounts: Record<Era, number>;
  capturedAt: string;
  source: string;
}

/** One week of the current edition: every player's overall, attributes and badge counts that week. */
export interface WeeklySnapshot {
  date: string;
  players: WeeklyPlayer[];
}

export interface WeeklyPlayer {
  _id: string;
  overall: number;
  attributes: Attributes;
  badges: BadgeCounts;
  /** The week's badges by name and tier, where the source has lists (week-over-week badge changes need them). */
  badgeList?: readonly { slug: string; tier: BadgeTier }[];
}

/** What the offline build turns into one snapshot file. */
export interface EditionSource {
  gameVersion: string;
  status: EditionStatus;
  capturedAt: string;
  source: string;
  players: PlayerRecord[];
  /** Oldest first; only the current edition has weeks. */
  history: WeeklySnapshot[];
  /**
   * Other editions the build knows (the data directory's), each answering a row's overall by
   * `_id`: the ratingHistory of a row whose source gave none. Not part of the content hash.
   */
  knownEditions?: readonly KnownEdition[];
}

export interface KnownEdition {
  gameVersion: string;
  overallOf(id: string): number | undefined;
}

/**
 * What groups rows into one team (docs/data.md#source-values-kept-exactly: each row's `team` is served as given): the name
 * with its runs of spaces as one and no leading or trailing space.
 */
export function teamKey(team: string): string {
  return team.replace(/\s+/g, " ").trim();
}

/** Team slug: `1995-96 Chicago Bulls` → `1995-96-chicago-bulls`. */
export function teamSlug(team: string): string {
  return slugify(team);
}

/** Current players `lebron-james`; classic and all-time players carry the team slug. */
export function playerSlug(name: string, teamType: Era, team: string): string {
  return teamType === "curr" ? slugify(name) : `${slugify(name)}-${teamSlug(team)}`;
}

/** What playerId generates: 24 lower-case hexadecimal characters. */
export const GENERATED_ID_PATTERN = /^[0-9a-f]{24}$/;
/**
 * Every id a row can hold: a generated one, or one kept from a source (the hosted service's
 * `j9733j4termyc8t88mx7bppk0n7vg467`), 1–64 characters of [A-Za-z0-9_-].
 */
export const PLAYER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Opaque id, stable across rebuilds and editions for the same (teamType, team, slug). */
export function playerId(teamType: Era, team: string, slug: string): string {
  // The team's spacing aside: a source's `Los Angeles  Lakers` (kept as given) makes the id it always made.
  return createHash("sha1").update(`${teamType}\u0000${teamKey(team)}\u0000${slug}`).digest("hex").slice(0, 24);
}

/**
 * A rating history (newest first) holding `gameVersion`: the given entries as they came, this
 * edition's overall where none names it, and a `delta` (against the next older entry) on every
 * entry that has an older one and came without.
 */
export function withEditionRating(history: readonly RatingHistoryEntry[], gameVersion: string, overall: number): RatingHistoryEntry[] {
  let list = [...history];
  if (!list.some((entry) => entry.gameVersion === gameVersion)) {
    const at = list.findIndex((entry) => entry.gameVersion < gameVersion);
    const own: RatingHistoryEntry = { gameVersion, overall };
    list = at < 0 ? [...list, own] : [...list.slice(0, at), own, ...list.slice(at)];
  }
  return list.map((entry, i) => {
    const older = list[i + 1];
    return entry.delta !== undefined || older === undefined ? entry : { ...entry, delta: entry.overall - older.overall };
  });
}
