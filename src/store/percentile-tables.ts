// The percentile route's tables as the snapshot stores them (`payload.percentiles`): their layout,
// the cohort counts and the shape check a read applies. Built by store/percentiles.ts
// (buildPercentileTables), which also answers from them; this module knows no Edition, so the
// snapshot module can check them without depending on one.

import { ERAS } from "../model/eras.js";
import { POSITIONS } from "../model/positions.js";

export const COHORT_KINDS = ["position", "era", "all"] as const;
export type CohortKind = (typeof COHORT_KINDS)[number];

/** A row in no cohort of a kind: with `position`, a player whose list names no known position. */
export const NO_COHORT = 255;
/** A row whose list names no known position. */
export const NO_POSITION = 255;

/**
 * One cohort kind's sorted values, as build-index stores them. Metrics: the attribute columns, then
 * overall (ratings, bytes), and the groups (scores, doubles). Per metric the cohorts' values lie one
 * after the other, each run ascending: cohort c of rating metric m is ratings[ratingStart[m·(C+1) + c]
 * … ratingStart[m·(C+1) + c + 1]), and likewise for scores.
 */
export interface StoredCohortKind {
  cohortCount: number;
  /** Each row's cohort, NO_COHORT (255) where it is in none. */
  cohortOfRow: Uint8Array;
  /** Players per cohort. */
  cohortSize: Uint32Array;
  ratingStart: Uint32Array;
  ratings: Uint8Array;
  /** [(K + 1) × C]: metric · C + cohort → the run's mean, NaN where empty. */
  ratingMean: Float64Array;
  scoreStart: Uint32Array;
  scores: Float64Array;
  scoreMean: Float64Array;
}

/** What the percentile route reads of an edition (`payload.percentiles`): every cohort kind's runs and each row's primary position. */
export interface StoredPercentiles {
  /** POSITIONS index of each row's first known position, NO_POSITION (255) where none. */
  primaryPosition: Uint8Array;
  position: StoredCohortKind;
  era: StoredCohortKind;
  all: StoredCohortKind;
}

/** How many cohorts each kind has. */
export const COHORT_COUNT: Readonly<Record<CohortKind, number>> = { position: ERAS.length * POSITIONS.length, era: ERAS.length, all: 1 };

/** Whether a payload's stored percentile tables fit the edition (typed arrays of consistent lengths), so a request never reads past one. */
export function isPercentileTablesShape(tables: StoredPercentiles, rows: number, keyCount: number): boolean {
  if (!(tables?.primaryPosition instanceof Uint8Array) || tables.primaryPosition.length !== rows) return false;
  return COHORT_KINDS.every((kind) => {
    const k = tables[kind];
    const C = COHORT_COUNT[kind];
    if (k?.cohortCount !== C || !(k.scoreStart instanceof Uint32Array) || !(k.ratingStart instanceof Uint32Array)) return false;
    const groupCount = k.scoreStart.length / (C + 1);
    return k.cohortOfRow instanceof Uint8Array && k.cohortOfRow.length === rows && k.cohortOfRow.every((cohort) => cohort < C || cohort === NO_COHORT) &&
      k.cohortSize instanceof Uint32Array && k.cohortSize.length === C &&
      k.ratingStart.length === (keyCount + 1) * (C + 1) && k.ratings instanceof Uint8Array && k.ratingStart[k.ratingStart.length - 1] === k.ratings.length &&
      k.ratingMean instanceof Float64Array && k.ratingMean.length === (keyCount + 1) * C &&
      Number.isInteger(groupCount) && k.scores instanceof Float64Array && (k.scoreStart[k.scoreStart.length - 1] ?? 0) === k.scores.length &&
      k.scoreMean instanceof Float64Array && k.scoreMean.length === groupCount * C;
  });
}

