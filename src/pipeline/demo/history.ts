// The current edition's season week by week: launch dates, weekly dates up to the as-of day,
// and small rating updates (most players unchanged in a week, some a few points up or down).
// Mutates the season states it is given; their final values are the edition's ratings.

import { countBadges, heldBadges } from "../../model/badge-summary.js";
import { BADGE_COUNT } from "../../model/badges.js";
import type { Attributes } from "../../model/attributes.js";
import type { BadgeCounts, WeeklyPlayer, WeeklySnapshot } from "../../model/player.js";
import type { Position } from "../../model/positions.js";
import type { Random } from "./random.js";
import { BASE_COUNT, badgeList, badgeTiers, overallOf, toAttributes } from "./ratings.js";

const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Editions launch on the first Friday of September. */
export function firstFridayOfSeptember(year: number): string {
  const first = Date.UTC(year, 8, 1);
  const weekday = new Date(first).getUTCDay();
  return isoDay(first + ((5 - weekday + 7) % 7) * DAY_MS);
}

export function addDays(date: string, days: number): string {
  return isoDay(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
}

/** `2026-09-04` → `2026-09-04T00:00:00.000Z`. */
export function startOfDay(date: string): string {
  return `${date}T00:00:00.000Z`;
}

/** One date a week from launch while not after asOf; just the launch when asOf precedes it. */
export function weeklyDates(launch: string, asOf: string): string[] {
  const dates = [launch];
  for (let next = addDays(launch, 7); next <= asOf; next = addDays(next, 7)) dates.push(next);
  return dates;
}

/** One player's season: ratings that move as the weeks go by. */
export interface SeasonState {
  readonly id: string;
  readonly position: Position;
  readonly heightIn: number;
  readonly badgeLuck: Int8Array;
  /** Without attributes (an unscraped rookie) only the overall moves. */
  readonly hasAttributes: boolean;
  /** +1 on the rise, −1 in decline: most updates go this way. */
  readonly trend: number;
  /** Chance of an update in any one week. */
  readonly changeRate: number;
  vector: Uint8Array;
  overall: number;
  /** Index of the last week with an update (0: launch). */
  lastChanged: number;
}

const POTENTIAL = BASE_COUNT - 1;
const NO_BADGES: BadgeCounts = { total: 0, legendary: 0, hallOfFame: 0, gold: 0, silver: 0, bronze: 0 };

/**
 * Snapshots for every date, oldest first; the first is the launch state. An unchanged player's
 * weekly entry is the same object as the week before (it is equal, and the history stays lean).
 */
export function simulateWeeks(states: readonly SeasonState[], dates: readonly string[], random: Random): WeeklySnapshot[] {
  const tiers = new Uint8Array(BADGE_COUNT);
  const snapshotOf = (state: SeasonState): WeeklyPlayer => {
    if (!state.hasAttributes) return { _id: state.id, overall: state.overall, attributes: {}, badges: { ...NO_BADGES }, badgeList: [] };
    badgeTiers(state.vector, state.overall, state.heightIn, state.badgeLuck, tiers);
    const attributes: Attributes = toAttributes(state.vector);
    const list = badgeList(tiers);
    return { _id: state.id, overall: state.overall, attributes, badges: countBadges(list), badgeList: heldBadges(list).map(({ slug, tier }) => ({ slug, tier })) };
  };
  let week = states.map(snapshotOf);
  const history: WeeklySnapshot[] = [{ date: dates[0] ?? "", players: week }];
  for (let w = 1; w < dates.length; w++) {
    week = states.map((state, i) => {
      const previous = week[i];
      if (previous !== undefined && !random.chance(state.changeRate)) return previous;
      update(state, random);
      state.lastChanged = w;
      return snapshotOf(state);
    });
    history.push({ date: dates[w] ?? "", players: week });
  }
  return history;
}

function update(state: SeasonState, random: Random): void {
  const step = (random.chance(0.7) ? state.trend : -state.trend) * random.int(1, 3);
  if (!state.hasAttributes) {
    state.overall = Math.max(40, Math.min(99, state.overall + Math.sign(step)));
    return;
  }
  const vector = state.vector;
  for (let n = random.int(4, 12); n > 0; n--) {
    const i = random.int(0, POTENTIAL - 1);
    vector[i] = Math.max(25, Math.min(99, (vector[i] ?? 0) + step));
  }
  const overall = overallOf(vector, state.position);
  vector[POTENTIAL] = Math.max(25, Math.min(99, (vector[POTENTIAL] ?? 0) + overall - state.overall));
  state.overall = overall;
}
