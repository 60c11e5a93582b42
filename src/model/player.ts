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

/** A field of the list: whether every stored row has it, and (as a type only) what its value is. */
interface FieldSpec<Value, IsRequired extends boolean> {
  readonly isRequired: IsRequired;
  /** Never set: it carries the value's type to PlayerRecord. */
  readonly value?: Value;
}
const required = <Value>(): FieldSpec<Value, true> => ({ isRequired: true });
const optional = <Value>(): FieldSpec<Value, false> => ({ isRequired: false });

/**
 * The top-level fields of a player row, in wire order: the one list of them. The record type
 * (PlayerRecord), the names `fields=` accepts (PLAYER_FIELDS), their bits in a field mask
 * (FIELD_BIT), the names a source's pass-through fields may never take (RECORD_FIELD_NAMES) and
 * the slot layout of the pre-rendered fragments (FRAGMENT_LAYOUT in src/store/fragments.ts,
 * which snapshots record and their loader checks) all derive from it. A new field is one line
 * here, plus its JSON Schema (schemas.ts) and what importers read (src/pipeline/).
 */
export const PLAYER_FIELD_LIST = [
  ["_id", required<string>()],
  /** When the row was first seen, in ms since the epoch (a fraction kept as it came). */
  ["_creationTime", optional<number>()],
  ["name", required<string>()],
  ["slug", required<string>()],
  ["playerUrl", optional<string>()],
  ["team", required<string>()],
  ["teamType", required<Era>()],
  ["overall", required<number>()],
  /** As the source gives them (`["pg"]` stays so); knownPositions reads them by meaning. */
  ["positions", optional<string[]>()],
  /** As the source gives them (docs/data.md#source-values-kept-exactly): `6'8"` usually, but any text or number is kept. */
  ["height", optional<string | number>()],
  /** `250 lbs` usually; a source's `250` (a number) or `"250"` is kept as it is. */
  ["weight", optional<string | number>()],
  ["wingspan", optional<string | number>()],
  ["archetype", optional<string>()],
  ["college", optional<string>()],
  ["playerImage", optional<string>()],
  ["teamImg", optional<string>()],
  ["attributes", required<Attributes>()],
  ["badges", required<Badges>()],
  ["hotZones", optional<HotZones>()],
  ["gameVersion", optional<string>()],
  ["ratingHistory", optional<RatingHistoryEntry[]>()],
  ["lastUpdated", optional<string>()],
  /** ISO 8601: when the row was first seen. */
  ["createdAt", optional<string>()],
] as const;

type FieldEntry = (typeof PLAYER_FIELD_LIST)[number];
export type PlayerField = FieldEntry[0];
type ValueOf<Spec> = Spec extends FieldSpec<infer Value, boolean> ? Value : never;
type RequiredFields = { [Entry in FieldEntry as Entry[1]["isRequired"] extends true ? Entry[0] : never]: ValueOf<Entry[1]> };
type OptionalFields = { [Entry in FieldEntry as Entry[1]["isRequired"] extends true ? never : Entry[0]]?: ValueOf<Entry[1]> };

/** The field names in wire order; `fields=` selects among them. */
export const PLAYER_FIELDS: readonly PlayerField[] = PLAYER_FIELD_LIST.map(([field]) => field);
/** A field's bit in a field mask (bit i for the i-th field). */
export const FIELD_BIT: Readonly<Record<PlayerField, number>> = Object.fromEntries(
  PLAYER_FIELDS.map((field, i) => [field, 1 << i]),
) as Record<PlayerField, number>;
/** The source's pass-through fields (PlayerRecord.extra): in full rows only, never named by `fields=`. */
export const EXTRA_FIELDS_BIT = 1 << PLAYER_FIELDS.length;
export const ALL_FIELDS_MASK = (1 << (PLAYER_FIELDS.length + 1)) - 1;
export const SUMMARY_FIELDS_MASK = (["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg"] as const)
  .reduce((mask, field) => mask | FIELD_BIT[field], 0);

/**
 * A player as the build holds it: one roster entry of one edition, a field of PLAYER_FIELD_LIST
 * each. `gameVersion`, `ratingHistory`, `createdAt` and `_creationTime` are the source's where it
 * has them; the snapshot build fills in the rest (src/pipeline/build-snapshot.ts), so every
 * stored row has them. `extra` holds the source's other top-level fields, passed through under
 * their own names.
 */
export interface PlayerRecord extends RequiredFields, OptionalFields {
  extra?: Record<string, unknown>;
}

/** The record fields a source's pass-through fields may never override. */
export const RECORD_FIELD_NAMES: ReadonlySet<string> = new Set([...PLAYER_FIELDS, "extra"]);

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

/** The `source` of an edition the demo generator built: real names with invented ratings (docs/data.md#demo-data). */
export const DEMO_SOURCE = "demo";

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
  /**
   * The row's team that week, as given (a build that adds a week to the current edition's history
   * records the rows' team then); absent in histories recorded before weeks held teams.
   */
  team?: string;
  /** The row's name, slug and era, as last known (so a week's event names a player since gone); absent as `team` is. */
  name?: string;
  slug?: string;
  teamType?: Era;
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
