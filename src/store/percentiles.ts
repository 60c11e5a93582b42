// Where one player stands in a cohort of its edition: per attribute, attribute group and overall,
// its percentile (midpoint rank), the cohort's size and mean (docs/design-decisions.md#percentiles).
// Answered by binary search on per-cohort sorted values, never by scanning a cohort per request.
// The sorted values (every cohort kind's runs) and each row's primary position are tables of the
// snapshot (`payload.percentiles`): build-index computes them (buildPercentileTables, from the
// sort orders: no sort for ratings) and every worker thread views them in the shared file; a file
// written before them gets them derived once at load (docs/design-decisions.md#derived-tables-one-mechanism).
// Routes ask here; they never read the sorted values themselves.

import { ABSENT_RATING } from "../model/attributes.js";
import { ERAS, type Era } from "../model/eras.js";
import { FIELD_BIT } from "../model/player.js";
import { POSITIONS, knownPositions, type Position } from "../model/positions.js";
import { attributeGroupsOf, attributeKeysOf } from "./attribute-profile.js";
import type { Edition } from "./edition.js";

import { COHORT_COUNT, COHORT_KINDS, NO_COHORT, NO_POSITION, type CohortKind, type StoredCohortKind, type StoredPercentiles } from "./percentile-tables.js";

export { COHORT_KINDS, type CohortKind, type StoredCohortKind, type StoredPercentiles };

/** Which cohort of a kind: its era (position and era kinds) and primary position (position kind). */
export interface Cohort {
  kind: CohortKind;
  era: Era | undefined;
  position: Position | undefined;
  /** Players in the cohort (0 when the player is in none). */
  size: number;
}

/** One value's standing. Absent values (the player lacks the attribute, or no attribute of a group) have no percentile. */
export interface Standing {
  /** The player's value, undefined where it lacks it. */
  value: number | undefined;
  /** round((below + equal / 2) / n × 100) over the cohort's players that have the value; null without a value or a cohort. */
  percentile: number | null;
  /** The cohort's players that have the value (n). */
  size: number;
  /** Their mean, NaN when none has it. */
  mean: number;
}

export interface PlayerPercentiles {
  cohort: Cohort;
  overall: Standing;
  /** One per attribute column of the edition's catalogue, in column order. */
  attributes: Standing[];
  /** One per attribute group (attributeGroupsOf's order); the value is the group score. */
  groups: Standing[];
}

/** The row's primary position: the first known position of its list, as the hosted website takes it; undefined where none. */
export function primaryPositionOf(edition: Edition, row: number): Position | undefined {
  return POSITIONS[edition.payload.percentiles.primaryPosition[row] as number];
}

/**
 * Every cohort kind's tables of an edition (build-index stores them; a file written before them
 * gets them derived once at load, store/derived-tables.ts). `groupScores`: row · G + g → the row's
 * score in group g (the profile tables'), NaN where it has none.
 */
export function buildPercentileTables(edition: Edition, groupScores: Float64Array, groupCount: number): StoredPercentiles {
  const primaryPosition = primaryPositions(edition);
  const kind = (name: CohortKind): StoredCohortKind => kindTables(edition, cohortOfRows(edition, name, primaryPosition), groupScores, groupCount);
  return { primaryPosition, position: kind("position"), era: kind("era"), all: kind("all") };
}

function primaryPositions(edition: Edition): Uint8Array {
  // The position column is a bit mask of the known positions: with none or one, it is the
  // answer; with several (their order lost), the row's list is read from its fragment, once.
  const primary = new Uint8Array(edition.rowCount).fill(NO_POSITION);
  const shape = { fieldMask: FIELD_BIT.positions, isVersioned: false };
  const mask = edition.payload.columns.positions;
  for (let row = 0; row < edition.rowCount; row++) {
    const bits = mask[row] as number;
    if (bits === 0) continue;
    if ((bits & (bits - 1)) === 0) {
      primary[row] = 31 - Math.clz32(bits);
      continue;
    }
    const { positions } = JSON.parse(edition.fragments.rowJson(row, shape)) as { positions?: string[] };
    const first = knownPositions(positions)[0];
    if (first !== undefined) primary[row] = POSITIONS.indexOf(first);
  }
  return primary;
}

function cohortOfRows(edition: Edition, kind: CohortKind, primary: Uint8Array): { cohortOfRow: Uint8Array; cohortCount: number } {
  const { era } = edition.payload.columns;
  const cohortOfRow = new Uint8Array(edition.rowCount);
  switch (kind) {
    case "all":
      break;
    case "era":
      cohortOfRow.set(era);
      break;
    case "position":
      for (let row = 0; row < edition.rowCount; row++) {
        const position = primary[row] as number;
        cohortOfRow[row] = position === NO_POSITION ? NO_COHORT : (era[row] as number) * POSITIONS.length + position;
      }
      break;
  }
  return { cohortOfRow, cohortCount: COHORT_COUNT[kind] };
}

/** One pass per metric over the edition: every cohort of the kind at once (they share the arrays). */
function kindTables(edition: Edition, { cohortOfRow, cohortCount }: { cohortOfRow: Uint8Array; cohortCount: number }, rowScores: Float64Array, groupCount: number): StoredCohortKind {
  const C = cohortCount;
  const cohortSize = new Uint32Array(C);
  for (let row = 0; row < edition.rowCount; row++) {
    const cohort = cohortOfRow[row] as number;
    if (cohort !== NO_COHORT) cohortSize[cohort] = (cohortSize[cohort] as number) + 1;
  }

  // Ratings: each metric's rows ascending by value come from the snapshot's sort orders, so a
  // stable distribution by cohort leaves every cohort's run sorted.
  const { attributes: attributeBytes, overall } = edition.payload.columns;
  const { sortOrders } = edition.payload;
  const K = edition.catalogue.attributeKeys.length;
  const ratingMetrics = K + 1;
  const orderOf = (m: number): { order: Uint32Array; present: number } => m < K
    ? { order: sortOrders.attributes[m] as Uint32Array, present: sortOrders.attributePresent[m] as number }
    : { order: sortOrders.overall, present: edition.rowCount };
  const valueOf = (m: number, row: number): number => (m < K ? (attributeBytes[row * K + m] as number) : (overall[row] as number));

  const ratingStart = new Uint32Array(ratingMetrics * (C + 1));
  let total = 0;
  for (let m = 0; m < ratingMetrics; m++) {
    const { order, present } = orderOf(m);
    const base = m * (C + 1);
    for (let i = 0; i < present; i++) {
      const cohort = cohortOfRow[order[i] as number] as number;
      if (cohort !== NO_COHORT) ratingStart[base + cohort + 1] = (ratingStart[base + cohort + 1] as number) + 1;
    }
    ratingStart[base] = total;
    for (let c = 0; c < C; c++) ratingStart[base + c + 1] = (ratingStart[base + c + 1] as number) + (ratingStart[base + c] as number);
    total = ratingStart[base + C] as number;
  }
  const ratings = new Uint8Array(total);
  const ratingMean = new Float64Array(ratingMetrics * C);
  const cursor = new Uint32Array(C);
  for (let m = 0; m < ratingMetrics; m++) {
    const { order, present } = orderOf(m);
    const base = m * (C + 1);
    cursor.set(ratingStart.subarray(base, base + C));
    const sums = new Float64Array(C);
    for (let i = 0; i < present; i++) {
      const row = order[i] as number;
      const cohort = cohortOfRow[row] as number;
      if (cohort === NO_COHORT) continue;
      const value = valueOf(m, row);
      ratings[cursor[cohort] as number] = value;
      cursor[cohort] = (cursor[cohort] as number) + 1;
      sums[cohort] = (sums[cohort] as number) + value;
    }
    for (let c = 0; c < C; c++) {
      const n = (ratingStart[base + c + 1] as number) - (ratingStart[base + c] as number);
      ratingMean[m * C + c] = n === 0 ? NaN : (sums[c] as number) / n;
    }
  }

  // Group scores are means (fractions): gathered by cohort, then each run sorted.
  const scoreStart = new Uint32Array(groupCount * (C + 1));
  total = 0;
  for (let g = 0; g < groupCount; g++) {
    const base = g * (C + 1);
    for (let row = 0; row < edition.rowCount; row++) {
      const cohort = cohortOfRow[row] as number;
      if (cohort !== NO_COHORT && !Number.isNaN(rowScores[row * groupCount + g] as number)) scoreStart[base + cohort + 1] = (scoreStart[base + cohort + 1] as number) + 1;
    }
    scoreStart[base] = total;
    for (let c = 0; c < C; c++) scoreStart[base + c + 1] = (scoreStart[base + c + 1] as number) + (scoreStart[base + c] as number);
    total = scoreStart[base + C] as number;
  }
  const scores = new Float64Array(total);
  const scoreMean = new Float64Array(groupCount * C);
  for (let g = 0; g < groupCount; g++) {
    const base = g * (C + 1);
    cursor.set(scoreStart.subarray(base, base + C));
    for (let row = 0; row < edition.rowCount; row++) {
      const cohort = cohortOfRow[row] as number;
      const score = rowScores[row * groupCount + g] as number;
      if (cohort === NO_COHORT || Number.isNaN(score)) continue;
      scores[cursor[cohort] as number] = score;
      cursor[cohort] = (cursor[cohort] as number) + 1;
    }
    for (let c = 0; c < C; c++) {
      const run = scores.subarray(scoreStart[base + c] as number, scoreStart[base + c + 1] as number);
      run.sort();
      let sum = 0;
      for (let i = 0; i < run.length; i++) sum += run[i] as number;
      scoreMean[g * C + c] = run.length === 0 ? NaN : sum / run.length;
    }
  }
  return { cohortCount, cohortOfRow, cohortSize, ratingStart, ratings, ratingMean, scoreStart, scores, scoreMean };
}

/** First index in sorted[from, to) whose value is ≥ value (strictly > with `isUpper`). */
function bound(sorted: Uint8Array | Float64Array, from: number, to: number, value: number, isUpper: boolean): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid] as number;
    if (at < value || (isUpper && at === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The midpoint percentile of `value` in sorted[from, to): round((below + equal / 2) / n × 100). */
function standingIn(sorted: Uint8Array | Float64Array, from: number, to: number, value: number | undefined, mean: number): Standing {
  const size = to - from;
  if (value === undefined || size === 0) return { value, percentile: null, size, mean };
  const below = bound(sorted, from, to, value, false) - from;
  const equal = bound(sorted, from, to, value, true) - from - below;
  return { value, percentile: Math.round(((below + equal / 2) / size) * 100), size, mean };
}

/**
 * The row's standing in its cohort of `kind`, every attribute, group and overall. A value the
 * player lacks has no percentile; a cohort counts, per value, only the players that have it.
 * Work: two binary searches per value in the stored runs; nothing is built on the request path.
 */
export function playerPercentiles(edition: Edition, row: number, kind: CohortKind): PlayerPercentiles {
  const tables = edition.payload.percentiles[kind];
  const C = tables.cohortCount;
  const cohort = tables.cohortOfRow[row] as number;
  const K = attributeKeysOf(edition).length;
  const groupCount = attributeGroupsOf(edition).length;
  const { attributes: attributeBytes, overall, era } = edition.payload.columns;
  const eraOfRow = ERAS[era[row] as number];
  const described: Cohort = {
    kind,
    era: kind === "all" ? undefined : eraOfRow,
    position: kind === "position" ? primaryPositionOf(edition, row) : undefined,
    size: cohort === NO_COHORT ? 0 : (tables.cohortSize[cohort] as number),
  };
  const rating = (m: number, value: number | undefined): Standing => {
    if (cohort === NO_COHORT) return { value, percentile: null, size: 0, mean: NaN };
    const base = m * (C + 1) + cohort;
    return standingIn(tables.ratings, tables.ratingStart[base] as number, tables.ratingStart[base + 1] as number, value, tables.ratingMean[m * C + cohort] as number);
  };
  const attributes: Standing[] = new Array<Standing>(K);
  for (let m = 0; m < K; m++) {
    const value = attributeBytes[row * K + m] as number;
    attributes[m] = rating(m, value === ABSENT_RATING ? undefined : value);
  }
  const scores = edition.payload.profileTables.groupScores;
  const groups: Standing[] = new Array<Standing>(groupCount);
  for (let g = 0; g < groupCount; g++) {
    const score = scores[row * groupCount + g] as number;
    const value = Number.isNaN(score) ? undefined : score;
    if (cohort === NO_COHORT) { groups[g] = { value, percentile: null, size: 0, mean: NaN }; continue; }
    const base = g * (C + 1) + cohort;
    groups[g] = standingIn(tables.scores, tables.scoreStart[base] as number, tables.scoreStart[base + 1] as number, value, tables.scoreMean[g * C + cohort] as number);
  }
  return { cohort: described, overall: rating(K, overall[row] as number), attributes, groups };
}
