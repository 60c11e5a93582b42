// Validated parameter values → an edition-independent player selection (attributes and badges by
// name), then → a PlayerQuery in one edition's column terms: its catalogue's attribute columns and
// badges, its team codes, whether it keeps badge lists. Every edition has its own catalogue, so an
// attribute is known or not only once the edition is.

import { canonicalAttributeParam } from "../model/catalogue.js";
import { TIER_CODE } from "../model/badges.js";
import { ERA_CODE, type Era } from "../model/eras.js";
import { parsePositionMask } from "../model/positions.js";
import { foldName } from "../model/names.js";
import { keyOf } from "../store/dictionary-column.js";
import type { Edition } from "../store/edition.js";
import { invalidParameter, type ApiError } from "./api-error.js";
import { closest } from "./suggest.js";
import { paramWarning, type PlayerFilterValues, type ParamWarning } from "./params.js";
import { ALL_ERAS_MASK, type AttributeBound, type PlayerQuery, type SortKey } from "./plan.js";
import { ALL_FIELDS_MASK, FIELD_BIT, PLAYER_FIELDS, type PlayerField } from "../model/player.js";

/** A tier's code by any name a client may send (a name that is no tier finds none). */
const TIER_BY_NAME: ReadonlyMap<string, number> = TIER_CODE;

/** A bound on an attribute by its canonical snake_case name (an alias is resolved to it). */
export interface NamedAttributeBound {
  name: string;
  min: number;
  max: number;
  /** Which ends were given (a bound given is a bound, 0 and 99 included: echoed and keyed). */
  hasMin: boolean;
  hasMax: boolean;
}

/**
 * The filters, sort and fields of a player listing, each once, canonicalised: what plans the
 * query (planQuery), echoes it (bulk's meta.filters) and keys the cache (appliedFilters).
 */
export interface PlayerSelection {
  era: Era | "all";
  /** As validated (PG, guard; an unknown one as sent, matching nothing), and its position bits. */
  position: string | undefined;
  positionMask: number;
  team: string | undefined;
  /** Folded search text (foldName); undefined when not filtered. */
  search: string | undefined;
  /** Archetype and college keyed (they match in any case: keyOf); undefined when not filtered. */
  archetype: string | undefined;
  college: string | undefined;
  /** The overall bounds as sent (a decimal compares exactly: 75.5 keeps 76 and up). */
  minRating: number | undefined;
  maxRating: number | undefined;
  /** By canonical name, sorted by it; resolved to columns per edition (planQuery). */
  attributeBounds: NamedAttributeBound[];
  /** The badge as asked (a slug or a name, trimmed), resolved per edition; undefined when not filtered. */
  badge: string | undefined;
  /** The tier as validated (an unknown one as sent) and its code (0: none or unknown). */
  badgeTier: string | undefined;
  badgeTierCode: number;
  /** `overall`, `name`, or an attribute's canonical snake_case name (resolved per edition). */
  sortName: string;
  isDescending: boolean;
  fieldMask: number;
  /**
   * docs/compatibility.md#fidelity-rules: a filter that can match nothing (an unknown position, badge or tier, minRating
   * over maxRating) answers an empty page with a warning, never a 400.
   */
  matchesNothing: boolean;
  /** The sort parameter as sent (for the 400 of a field the edition lacks). */
  sortAsked?: string;
}

export function selectPlayers(values: PlayerFilterValues, defaults: { era: Era | "all" }, warnings: ParamWarning[] = []): PlayerSelection {
  // era wins over its alias teamType when both are given; a team alone implies its own era.
  const { team, position, minRating, maxRating, sort } = values;
  const era = values.era ?? values.teamType ?? (team === undefined ? defaults.era : "all");

  const parsedPosition = position === undefined ? undefined : parsePositionMask(position);
  // An unknown position (warned of when validated) matches nothing.
  let matchesNothing = position !== undefined && parsedPosition === undefined;

  // The search is matched folded (case, accents and punctuation never matter), so it is echoed
  // and keyed folded; archetype and college match in any case, so they are keyed lower-case.
  const search = values.search === undefined ? undefined : foldName(values.search);
  if (search === "") throw invalidParameter("search", values.search, "must contain a letter or digit");

  // Ratings are whole numbers: a decimal bound compares exactly (75.5 keeps 76 and up).
  if (minRating !== undefined && maxRating !== undefined && minRating > maxRating) {
    warnings.push(paramWarning("minRating", String(minRating), `minRating is above maxRating (${maxRating}): nothing matches`, [String(maxRating)]));
  }
  if (Math.ceil(minRating ?? 0) > Math.floor(maxRating ?? 99)) matchesNothing = true;

  // Every bound given is a bound, 0 and 99 included: it excludes the rows lacking the attribute,
  // so it is echoed (and keys the cache) whatever its value.
  const bounds = new Map<string, NamedAttributeBound>();
  for (const { parameter, attribute: asked, isLower, value } of values.bounds ?? []) {
    const attribute = canonicalAttributeParam(asked);
    const bound = bounds.get(attribute) ?? { name: attribute, min: 0, max: 99, hasMin: false, hasMax: false };
    if (isLower) {
      bound.min = Math.max(bound.min, Math.ceil(value));
      bound.hasMin = true;
    } else {
      bound.max = Math.min(bound.max, Math.floor(value));
      bound.hasMax = true;
    }
    if (bound.min > bound.max && !matchesNothing) {
      warnings.push(paramWarning(parameter, String(value), `leaves an empty range for ${attribute} (${bound.min} to ${bound.max}): nothing matches`));
      matchesNothing = true;
    }
    bounds.set(attribute, bound);
  }
  const attributeBounds = [...bounds.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const badgeTier = values.badgeTier;
  const badgeTierCode = badgeTier === undefined ? 0 : (TIER_BY_NAME.get(badgeTier) ?? 0);
  if (badgeTier !== undefined && badgeTierCode === 0) matchesNothing = true;

  const { sortName, isDescending } = parseSort(sort, warnings);
  return {
    era, position, positionMask: parsedPosition ?? 0, team, search,
    archetype: values.archetype === undefined ? undefined : keyOf(values.archetype),
    college: values.college === undefined ? undefined : keyOf(values.college),
    minRating, maxRating, attributeBounds, badge: values.badge?.trim(), badgeTier, badgeTierCode, sortName, isDescending,
    fieldMask: parseFields(values.fields), matchesNothing, ...(sort === undefined ? {} : { sortAsked: sort }),
  };
}

/**
 * Every applied filter as the client would write it, canonicalised (the search folded, archetype,
 * college and badge lower-case, bounds clamped to whole numbers), in one fixed order whatever the
 * query's: bulk's meta.filters and the cache keys of the listing routes. The sort comes last.
 */
export function appliedFilters(selection: PlayerSelection): Record<string, string | number> {
  const filters: Record<string, string | number> = { era: selection.era };
  if (selection.team !== undefined) filters.team = selection.team;
  if (selection.position !== undefined) filters.position = selection.position;
  if (selection.search !== undefined) filters.search = selection.search;
  if (selection.archetype !== undefined) filters.archetype = selection.archetype;
  if (selection.college !== undefined) filters.college = selection.college;
  if (selection.minRating !== undefined) filters.minRating = selection.minRating;
  if (selection.maxRating !== undefined) filters.maxRating = selection.maxRating;
  for (const { name, min, max, hasMin, hasMax } of selection.attributeBounds) {
    if (hasMin) filters[`${name}_gte`] = min;
    if (hasMax) filters[`${name}_lte`] = max;
  }
  if (selection.badge !== undefined) filters.badge = selection.badge.toLowerCase();
  if (selection.badgeTier !== undefined) filters.badgeTier = selection.badgeTier;
  filters.sort = `${selection.sortName}:${selection.isDescending ? "desc" : "asc"}`;
  return filters;
}

/**
 * `<field>:<direction>`: the direction in any case, anything but asc meaning desc (as the hosted
 * service reads it). The field is overall, name or an attribute's name (an alias read as its
 * attribute), checked against the edition by planQuery.
 */
function parseSort(sort: string | undefined, warnings: ParamWarning[]): { sortName: string; isDescending: boolean } {
  if (sort === undefined) return { sortName: "overall", isDescending: true };
  const colon = sort.indexOf(":");
  const name = (colon === -1 ? sort : sort.slice(0, colon)).trim();
  const direction = colon === -1 ? undefined : sort.slice(colon + 1).trim().toLowerCase();
  const sortName = name === "overall" || name === "name" ? name : canonicalAttributeParam(name);
  // Without a direction, ratings sort best first and names alphabetically.
  const isDescending = direction === undefined || direction === "" ? sortName !== "name" : direction !== "asc";
  if (direction !== undefined && direction !== "" && direction !== "asc" && direction !== "desc") {
    warnings.push(paramWarning("sort", sort, `the direction ${direction} is neither asc nor desc: read as desc`, closest(direction, ["asc", "desc"], 1)));
  }
  return { sortName, isDescending };
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

/**
 * Resolves the selection in one edition, in its catalogue's terms. An attribute (bound or sort)
 * the edition does not have is a 400 naming the edition and listing its attributes; a badge
 * filter on an edition without badge lists is a 400; a badge it does not have matches nothing
 * (docs/compatibility.md#fidelity-rules), said in `warnings`.
 */
export function planQuery(edition: Edition, selection: PlayerSelection, warnings: ParamWarning[] = []): PlayerQuery {
  const { catalogue } = edition;
  const attributeBounds: AttributeBound[] = selection.attributeBounds.map(({ name, min, max, hasMin }) => {
    const column = catalogue.columnOfParam(name);
    if (column === undefined) throw noSuchAttribute(edition, hasMin ? `${name}_gte` : `${name}_lte`, String(hasMin ? min : max), name);
    return { column, min, max };
  });
  let sortKey: SortKey;
  if (selection.sortName === "overall" || selection.sortName === "name") sortKey = selection.sortName;
  else {
    const column = catalogue.columnOfParam(selection.sortName);
    if (column === undefined) throw noSuchAttribute(edition, "sort", selection.sortAsked ?? selection.sortName, selection.sortName, ["overall", "name"]);
    sortKey = column;
  }
  let badge = -1;
  let matchesNothing = selection.matchesNothing;
  if (selection.badge !== undefined) {
    if (!edition.hasBadgeLists) {
      throw invalidParameter("badge", selection.badge, `edition ${edition.key} is an archive that keeps badge counts, not badge lists, so it cannot filter by badge`);
    }
    // By slug or by name, case and punctuation aside (docs/data.md#source-values-kept-exactly): `Handles For Days`, `handles_for_days`.
    badge = catalogue.badgeOf(selection.badge) ?? -1;
    if (badge < 0) {
      matchesNothing = true;
      const slugs = catalogue.badges.map((known) => known.slug);
      warnings.push(paramWarning("badge", selection.badge, `${selection.badge.slice(0, 100)} is not a badge of ${edition.key}: nothing matches it`, closest(selection.badge.toLowerCase(), slugs, 3)));
    }
  }
  const eraMask = selection.era === "all" ? ALL_ERAS_MASK : 1 << ERA_CODE[selection.era];
  // No team code at all matches no row: how a selection that matches nothing is asked.
  const teamCodes = matchesNothing
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
    minOverall: Math.ceil(selection.minRating ?? 0),
    maxOverall: Math.floor(selection.maxRating ?? 99),
    attributeBounds,
    badge,
    badgeTier: selection.badgeTierCode,
    sortKey,
    isDescending: selection.isDescending,
  };
}

/** 400: `attribute` is not one of the edition's (docs/data.md#every-edition-has-its-own-catalogue: every edition has its own), with the closest and the whole list. */
function noSuchAttribute(edition: Edition, parameter: string, value: string, attribute: string, others: readonly string[] = []): ApiError {
  const names = edition.catalogue.paramNames;
  const near = closest(attribute, names, 3);
  return invalidParameter(
    parameter, value,
    `${edition.key} has no attribute ${attribute.slice(0, 64)}${near.length > 0 ? ` (did you mean ${near.join(", ")}?)` : ""}; its ${names.length} attributes are in details.allowed`,
    [...others, ...names],
  );
}

