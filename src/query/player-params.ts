// Validated parameter values → an edition-independent player selection, then → a PlayerQuery
// in one edition's column terms (team codes, badge availability).

import { ATTRIBUTE_BY_PARAM_NAME, ATTRIBUTE_PARAM_NAMES } from "../model/attributes.js";
import { BADGE_INDEX_BY_SLUG, TIER_CODE, type BadgeTier } from "../model/badges.js";
import { ERA_CODE, type Era } from "../model/eras.js";
import { parsePositionMask } from "../model/positions.js";
import { foldName } from "../model/names.js";
import { keyOf } from "../store/dictionary-column.js";
import type { Edition } from "../store/edition.js";
import { ALL_FIELDS_MASK, FIELD_BIT, PLAYER_FIELDS, type PlayerField } from "../store/fragments.js";
import { invalidParameter } from "./api-error.js";
import { closest } from "./suggest.js";
import { paramWarning, type ParamValues, type ParamWarning } from "./params.js";
import { ALL_ERAS_MASK, type AttributeBound, type PlayerQuery, type SortKey } from "./plan.js";

export interface PlayerSelection {
  era: Era | "all";
  positionMask: number;
  team: string | undefined;
  /** Folded search text (foldName), archetype and college as given; undefined when not filtered. */
  search: string | undefined;
  archetype: string | undefined;
  college: string | undefined;
  minOverall: number;
  maxOverall: number;
  attributeBounds: AttributeBound[];
  badge: number;
  badgeTier: number;
  sortKey: SortKey;
  isDescending: boolean;
  fieldMask: number;
  /**
   * CONTRACT §9: a filter that can match nothing (an unknown position, badge or tier, minRating
   * over maxRating) answers an empty page with a warning, never a 400.
   */
  matchesNothing: boolean;
  /** Every applied filter as the client would write it, canonicalised (bulk's meta.filters, cache keys). */
  filters: Record<string, string | number>;
}

const SORT_NAMES: ReadonlyMap<string, SortKey> = new Map<string, SortKey>([
  ["overall", "overall"],
  ["name", "name"],
  ...[...ATTRIBUTE_BY_PARAM_NAME].map(([name, column]) => [name, column] as [string, SortKey]),
]);

export function selectPlayers(values: ParamValues, defaults: { era: Era | "all" }, warnings: ParamWarning[] = []): PlayerSelection {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  const number = (name: string) => (typeof values[name] === "number" ? (values[name] as number) : undefined);
  const filters: Record<string, string | number> = {};

  // era wins over its alias teamType when both are given; a team alone implies its own era.
  const team = text("team");
  const era = (text("era") ?? text("teamType") ?? (team === undefined ? defaults.era : "all")) as Era | "all";
  filters.era = era;
  if (team !== undefined) filters.team = team;

  const position = text("position");
  const parsedPosition = position === undefined ? undefined : parsePositionMask(position);
  // An unknown position (warned of when validated) matches nothing.
  let matchesNothing = position !== undefined && parsedPosition === undefined;
  const positionMask = parsedPosition ?? 0;
  if (position !== undefined) filters.position = position;

  // The search is matched folded (case, accents and punctuation never matter), so it is echoed
  // and keyed folded; archetype and college match in any case, so they are keyed lower-case.
  const searchText = text("search");
  const search = searchText === undefined ? undefined : foldName(searchText);
  if (search === "") throw invalidParameter("search", searchText, "must contain a letter or digit");
  if (search !== undefined) filters.search = search;
  const archetype = text("archetype");
  if (archetype !== undefined) filters.archetype = keyOf(archetype);
  const college = text("college");
  if (college !== undefined) filters.college = keyOf(college);

  // Ratings are whole numbers: a decimal bound compares exactly (75.5 keeps 76 and up).
  const minRating = number("minRating");
  const maxRating = number("maxRating");
  const minOverall = Math.ceil(minRating ?? 0);
  const maxOverall = Math.floor(maxRating ?? 99);
  if (minRating !== undefined) filters.minRating = minRating;
  if (maxRating !== undefined) filters.maxRating = maxRating;
  if (minRating !== undefined && maxRating !== undefined && minRating > maxRating) {
    warnings.push(paramWarning("minRating", String(minRating), `minRating is above maxRating (${maxRating}): nothing matches`, [String(maxRating)]));
  }
  if (minOverall > maxOverall) matchesNothing = true;

  // Every bound given is a bound, 0 and 99 included: it excludes the rows lacking the attribute,
  // so it is echoed (and keys the cache) whatever its value.
  const bounds = new Map<number, AttributeBound & { hasMin: boolean; hasMax: boolean }>();
  for (const [name, value] of Object.entries(values)) {
    const match = /^(.+)_(gte|lte)$/.exec(name);
    const column = match ? ATTRIBUTE_BY_PARAM_NAME.get(match[1] as string) : undefined;
    if (!match || column === undefined || typeof value !== "number") continue;
    const bound = bounds.get(column) ?? { column, min: 0, max: 99, hasMin: false, hasMax: false };
    if (match[2] === "gte") {
      bound.min = Math.max(bound.min, Math.ceil(value));
      bound.hasMin = true;
    } else {
      bound.max = Math.min(bound.max, Math.floor(value));
      bound.hasMax = true;
    }
    if (bound.min > bound.max && !matchesNothing) {
      warnings.push(paramWarning(name, String(value), `leaves an empty range for ${ATTRIBUTE_PARAM_NAMES[column]} (${bound.min} to ${bound.max}): nothing matches`));
      matchesNothing = true;
    }
    bounds.set(column, bound);
  }
  const attributeBounds: AttributeBound[] = [];
  for (const { column, min, max, hasMin, hasMax } of [...bounds.values()].sort((a, b) => a.column - b.column)) {
    const name = ATTRIBUTE_PARAM_NAMES[column] as string;
    if (hasMin) filters[`${name}_gte`] = min;
    if (hasMax) filters[`${name}_lte`] = max;
    attributeBounds.push({ column, min, max });
  }

  const badgeSlug = text("badge");
  const badge = badgeSlug === undefined ? -1 : (BADGE_INDEX_BY_SLUG.get(badgeSlug) ?? -1);
  if (badgeSlug !== undefined) filters.badge = badgeSlug;
  if (badgeSlug !== undefined && badge < 0) matchesNothing = true;
  const tier = text("badgeTier") as BadgeTier | undefined;
  const badgeTier = tier === undefined ? 0 : (TIER_CODE.get(tier) ?? 0);
  if (tier !== undefined) filters.badgeTier = tier;
  if (tier !== undefined && badgeTier === 0) matchesNothing = true;

  const { sortKey, isDescending, canonical } = parseSort(text("sort"), warnings);
  filters.sort = canonical;

  const fieldMask = parseFields(text("fields"));
  return { era, positionMask, team, search, archetype, college, minOverall, maxOverall, attributeBounds, badge, badgeTier, sortKey, isDescending, fieldMask, matchesNothing, filters };
}

/** `<field>:<direction>`: the direction in any case, anything but asc meaning desc (as the hosted service reads it). */
function parseSort(sort: string | undefined, warnings: ParamWarning[]): { sortKey: SortKey; isDescending: boolean; canonical: string } {
  if (sort === undefined) return { sortKey: "overall", isDescending: true, canonical: "overall:desc" };
  const colon = sort.indexOf(":");
  const name = (colon === -1 ? sort : sort.slice(0, colon)).trim();
  const direction = colon === -1 ? undefined : sort.slice(colon + 1).trim().toLowerCase();
  const sortKey = SORT_NAMES.get(name);
  if (sortKey === undefined) throw invalidParameter("sort", sort, `${name} is not a sortable field`, ["overall", "name", ...ATTRIBUTE_PARAM_NAMES]);
  // Without a direction, ratings sort best first and names alphabetically.
  const isDescending = direction === undefined || direction === "" ? sortKey !== "name" : direction !== "asc";
  if (direction !== undefined && direction !== "" && direction !== "asc" && direction !== "desc") {
    warnings.push(paramWarning("sort", sort, `the direction ${direction} is neither asc nor desc: read as desc`, closest(direction, ["asc", "desc"], 1)));
  }
  const canonicalName = typeof sortKey === "number" ? (ATTRIBUTE_PARAM_NAMES[sortKey] as string) : sortKey;
  return { sortKey, isDescending, canonical: `${canonicalName}:${isDescending ? "desc" : "asc"}` };
}

/** Comma-separated field names; spaces and empty entries are ignored, and nothing named at all means every field. */
export function parseFields(fields: string | undefined): number {
  if (fields === undefined) return ALL_FIELDS_MASK;
  let mask = 0;
  let named = 0;
  for (const entry of fields.split(",")) {
    const field = entry.trim();
    if (field === "") continue;
    named += 1;
    // hasOwn: `fields=constructor` must not find Object's members.
    const bit = Object.hasOwn(FIELD_BIT, field) ? FIELD_BIT[field as PlayerField] : undefined;
    if (bit === undefined) throw invalidParameter("fields", fields, `${field} is not a player field`, [...PLAYER_FIELDS]);
    mask |= bit;
  }
  return named === 0 ? ALL_FIELDS_MASK : mask;
}

/** Resolves the selection in one edition. A badge filter on an edition without badge lists is a 400. */
export function planQuery(edition: Edition, selection: PlayerSelection): PlayerQuery {
  if (selection.badge >= 0 && !edition.hasBadgeLists) {
    throw invalidParameter("badge", selection.filters.badge, `edition ${edition.key} is an archive that keeps badge counts, not badge lists, so it cannot filter by badge`);
  }
  const eraMask = selection.era === "all" ? ALL_ERAS_MASK : 1 << ERA_CODE[selection.era];
  // No team code at all matches no row: how a selection that matches nothing is asked.
  const teamCodes = selection.matchesNothing
    ? []
    : selection.team === undefined
      ? null
      : edition.findTeams(selection.team, undefined).map((team) => team.code);
  return {
    eraMask,
    positionMask: selection.positionMask,
    teamCodes,
    search: selection.search ?? null,
    archetypeCode: selection.archetype === undefined ? -1 : edition.archetypes.codeOf(selection.archetype),
    collegeCode: selection.college === undefined ? -1 : edition.colleges.codeOf(selection.college),
    minOverall: selection.minOverall,
    maxOverall: selection.maxOverall,
    attributeBounds: selection.attributeBounds,
    badge: selection.badge,
    badgeTier: selection.badgeTier,
    sortKey: selection.sortKey,
    isDescending: selection.isDescending,
  };
}

