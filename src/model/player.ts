// The record types of the wire and of the build: player, summary player, team, edition entry,
// weekly snapshot. A field with no value is absent, never null.

import { createHash } from "node:crypto";
import type { Attributes } from "./attributes.js";
import type { BadgeCategory, BadgeTier } from "./badges.js";
import type { Era, EditionStatus } from "./eras.js";
import type { Position } from "./positions.js";
import { slugify } from "./names.js";

export interface BadgeEntry {
  name: string;
  slug: string;
  tier: BadgeTier;
  category: BadgeCategory;
}

export interface TopBadge {
  name: string;
  tier: BadgeTier;
}

export interface BadgeCounts {
  total: number;
  legendary: number;
  hallOfFame: number;
  gold: number;
  silver: number;
  bronze: number;
}

/** The full list where the source has one (current editions); counts and `top` otherwise. */
export interface Badges extends BadgeCounts {
  list?: BadgeEntry[];
  top?: TopBadge[];
}

export const HOT_ZONE_KEYS = [
  "leftCorner3", "leftWing3", "top3", "rightWing3", "rightCorner3", "leftElbow",
  "topKey", "rightElbow", "leftBaseline", "paint", "rightBaseline", "underBasket",
] as const;
export type HotZoneKey = (typeof HOT_ZONE_KEYS)[number];
export const HOT_ZONE_VALUES = ["hot", "cold", "neutral"] as const;
export type HotZoneValue = (typeof HOT_ZONE_VALUES)[number];
export type HotZones = Record<HotZoneKey, HotZoneValue>;

/** A player as the build holds it: one roster entry of one edition. */
export interface PlayerRecord {
  _id: string;
  name: string;
  slug: string;
  team: string;
  teamType: Era;
  overall: number;
  positions: Position[];
  height?: string;
  weight?: string;
  wingspan?: string;
  archetype?: string;
  college?: string;
  playerImage?: string;
  teamImg?: string;
  attributes: Attributes;
  badges: Badges;
  hotZones?: HotZones;
  lastUpdated?: string;
}

export interface SummaryPlayer {
  _id: string;
  name: string;
  slug: string;
  team: string;
  teamType: Era;
  overall: number;
  positions: Position[];
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
}

/** Team slug: `1995-96 Chicago Bulls` → `1995-96-chicago-bulls`. */
export function teamSlug(team: string): string {
  return slugify(team);
}

/** Current players `lebron-james`; classic and all-time players carry the team slug. */
export function playerSlug(name: string, teamType: Era, team: string): string {
  return teamType === "curr" ? slugify(name) : `${slugify(name)}-${teamSlug(team)}`;
}

/** What every `_id` looks like (playerId's output): 24 lower-case hexadecimal characters. */
export const PLAYER_ID_PATTERN = /^[0-9a-f]{24}$/;

/** Opaque id, stable across rebuilds and editions for the same (teamType, team, slug). */
export function playerId(teamType: Era, team: string, slug: string): string {
  return createHash("sha1").update(`${teamType}\u0000${team}\u0000${slug}`).digest("hex").slice(0, 24);
}
