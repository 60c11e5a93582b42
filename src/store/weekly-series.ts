// The current edition's weekly history as per-player series and trending windows, precomputed
// from the history payload: which history slot each row reads, and for every trending window
// (the weeks of the last `days` days) the players who moved, by |total change| desc then name.
// Routes look these up; nothing here renders JSON.

import { BADGE_TIERS, type BadgeTier } from "../model/badges.js";
import type { Catalogue } from "../model/catalogue.js";
import type { WeeklySnapshot } from "../model/player.js";
import { stringAt, stringCount, type StringTable } from "./string-table.js";
import { ABSENT_RATING } from "../model/attributes.js";
import { ERAS, type Era } from "../model/eras.js";

/** The current edition's weekly snapshots as a snapshot stores them: columnar, oldest week first. */
export interface HistoryPayload {
  /** Player ids of the weekly series, sorted. */
  ids: StringTable;
  /** Per row of the edition: its index in `ids`, -1 when it has no weeks. */
  indexOfRow: Int32Array;
  weeks: HistoryWeek[];
  /**
   * The teams the weeks name (each as given, sorted): what a week's `team` indexes. Absent in
   * snapshots written before weeks held teams (their change events then read the current rows).
   */
  teams?: StringTable;
  /**
   * Per id: name, slug and era as last known (the current row's, or the last week's that held the
   * player), so the events of a player since gone name him. Absent as `teams` is, or when a week
   * came without them.
   */
  people?: { names: StringTable; slugs: StringTable; eras: Uint8Array };
}

/** A week's `team` for an id not in that week. */
export const NO_TEAM = 0xffff;

export interface HistoryWeek {
  date: string;
  /** Per id: overall that week, ABSENT_RATING when the player was not in that week. */
  overall: Uint8Array;
  /** id * attributeCount + column (the edition's catalogue). */
  attributes: Uint8Array;
  /** id * 6: total, legendary, hallOfFame, gold, silver, bronze. */
  badgeCounts: Uint8Array;
  /**
   * id * badgeCount + badge → tier code (0 none), when every player of the week came with a badge
   * list; absent otherwise (and in snapshots written before it existed).
   */
  badgeTiers?: Uint8Array;
  /**
   * Per id: its team that week, an index into the history's `teams` (NO_TEAM when not in the
   * week); present when every player of the week came with a team (absent in snapshots written
   * before it existed).
   */
  team?: Uint16Array;
}

export const TRENDING_MAX_DAYS = 90;
const DAY_MS = 86_400_000;

/** The players who moved in one window, in trending order. */
export interface TrendingWindow {
  /** Index of the first week whose change counts (its baseline is the week before). */
  readonly firstWeek: number;
  readonly rows: Uint32Array;
  readonly totalDelta: Int16Array;
  /** Weeks in the window with a change of overall. */
  readonly changes: Uint8Array;
}

/**
 * row → its slot in the history's ids (-1 without weekly history), from the edition's _id lookup.
 * The snapshot stores this (`history.indexOfRow`); an Edition uses the stored one.
 */
export function slotsOfRows(history: HistoryPayload, rowCount: number, rowOfId: (id: string) => number | undefined): Int32Array {
  const slotOfRow = new Int32Array(rowCount).fill(-1);
  for (let slot = 0; slot < stringCount(history.ids); slot++) {
    const row = rowOfId(stringAt(history.ids, slot));
    if (row !== undefined) slotOfRow[row] = slot;
  }
  return slotOfRow;
}

export class WeeklySeries {
  readonly weeks: readonly HistoryWeek[];
  /** row → slot in the history's ids, -1 when the row has no weekly history. */
  readonly slotOfRow: Int32Array;
  /**
   * Built on a thread's first request for them (each costs a pass over the series; building all
   * of them was most of an Edition's construction): days that cover the same weeks share a window.
   */
  private readonly windowByFirstWeek = new Map<number, TrendingWindow>();
  /** days - 1 → its window, once asked for. */
  private readonly windowByDays: (TrendingWindow | undefined)[] = new Array(TRENDING_MAX_DAYS).fill(undefined);

  private readonly attributeCount: number;
  private readonly badgeCount: number;

  /**
   * `slotOfRow`: see slotsOfRows (or a snapshot that stores it); `nameRank`: each row's position in
   * name order; `catalogue`: the edition's, whose widths the weeks' tables have.
   */
  constructor(weeks: readonly HistoryWeek[], slotOfRow: Int32Array, private readonly nameRank: Uint32Array, catalogue: Catalogue) {
    this.weeks = weeks;
    this.slotOfRow = slotOfRow;
    this.attributeCount = catalogue.attributeCount;
    this.badgeCount = catalogue.badgeCount;
  }

  /** The window of the last `days` days (clamped to 1 … TRENDING_MAX_DAYS), counted back from the newest snapshot. */
  window(days: number): TrendingWindow {
    const clamped = Math.max(1, Math.min(TRENDING_MAX_DAYS, days));
    return this.windowByDays[clamped - 1] ?? (this.windowByDays[clamped - 1] = this.windowOfFirstWeek(this.firstWeekOf(clamped)));
  }

  private windowOfFirstWeek(firstWeek: number): TrendingWindow {
    let window = this.windowByFirstWeek.get(firstWeek);
    if (window === undefined) {
      window = this.buildWindow(firstWeek);
      this.windowByFirstWeek.set(firstWeek, window);
    }
    return window;
  }

  /** The newest snapshot's date, and the date of the baseline a window compares against. */
  dates(window: TrendingWindow): { from: string; to: string } {
    const last = this.weeks[this.weeks.length - 1];
    const baseline = this.weeks[Math.max(0, window.firstWeek - 1)];
    return { from: baseline?.date ?? "", to: last?.date ?? "" };
  }

  /** Overall of a slot in a week, undefined when the player was not in it. */
  overall(week: HistoryWeek, slot: number): number | undefined {
    const value = week.overall[slot] as number;
    return value === ABSENT_RATING ? undefined : value;
  }

  /** One attribute column (or -1: overall) of a slot in a week, undefined when absent. */
  value(week: HistoryWeek, slot: number, column: number): number | undefined {
    const value = column < 0 ? (week.overall[slot] as number) : (week.attributes[slot * this.attributeCount + column] as number);
    return value === ABSENT_RATING || week.overall[slot] === ABSENT_RATING ? undefined : value;
  }

  /** A slot's attribute values in a week (one per catalogue column, ABSENT_RATING where absent): what weekChanges compares. */
  attributeValues(week: HistoryWeek, slot: number): Uint8Array {
    return week.attributes.subarray(slot * this.attributeCount, (slot + 1) * this.attributeCount);
  }

  /** A slot's badge tier codes in a week (one per catalogue badge), undefined where the week has no lists. */
  badgeTiers(week: HistoryWeek, slot: number): Uint8Array | undefined {
    return week.badgeTiers?.subarray(slot * this.badgeCount, (slot + 1) * this.badgeCount);
  }

  /** First week dated after (newest date − days); never 0, since week 0 has nothing to compare against. */
  private firstWeekOf(days: number): number {
    const last = this.weeks[this.weeks.length - 1];
    if (!last) return 1;
    const since = Date.parse(`${last.date}T00:00:00Z`) - days * DAY_MS;
    let first = this.weeks.length;
    while (first > 1 && Date.parse(`${(this.weeks[first - 1] as HistoryWeek).date}T00:00:00Z`) > since) first--;
    return first;
  }

  private buildWindow(firstWeek: number): TrendingWindow {
    const { nameRank } = this;
    const moved: { row: number; total: number; changes: number }[] = [];
    for (let row = 0; row < this.slotOfRow.length; row++) {
      const slot = this.slotOfRow[row] as number;
      if (slot < 0) continue;
      let total = 0;
      let changes = 0;
      for (let w = firstWeek; w < this.weeks.length; w++) {
        const before = this.overall(this.weeks[w - 1] as HistoryWeek, slot);
        const after = this.overall(this.weeks[w] as HistoryWeek, slot);
        if (before === undefined || after === undefined || before === after) continue;
        total += after - before;
        changes += 1;
      }
      if (changes > 0) moved.push({ row, total, changes });
    }
    moved.sort((a, b) => Math.abs(b.total) - Math.abs(a.total) || (nameRank[a.row] as number) - (nameRank[b.row] as number));
    return {
      firstWeek,
      rows: Uint32Array.from(moved, (entry) => entry.row),
      totalDelta: Int16Array.from(moved, (entry) => entry.total),
      changes: Uint8Array.from(moved, (entry) => Math.min(255, entry.changes)),
    };
  }
}

/** The inverse of buildHistory (src/pipeline/build-snapshot.ts), so a rebuild of the current edition can carry its weeks forward. */
export function historyToWeeks(history: HistoryPayload | null, catalogue: Catalogue): WeeklySnapshot[] {
  if (!history) return [];
  return weeksFromColumns(Array.from({ length: stringCount(history.ids) }, (_, i) => stringAt(history.ids, i)), history.weeks, catalogue, history);
}

/**
 * Columnar weeks (one slot per id, the catalogue's widths) back into per-player weekly snapshots;
 * formats 1 and 2 (the registry's catalogue) are read through here too.
 */
export function weeksFromColumns(
  ids: readonly string[], weeks: readonly HistoryWeek[], catalogue: Catalogue, named: Pick<HistoryPayload, "teams" | "people"> = {},
): WeeklySnapshot[] {
  const { attributeCount, attributeKeys, badgeCount } = catalogue;
  const { teams, people } = named;
  return weeks.map((week) => ({
    date: week.date,
    players: ids.flatMap((_id, i) => {
      const overall = week.overall[i] as number;
      if (overall === ABSENT_RATING) return [];
      const attributes: Record<string, number> = {};
      attributeKeys.forEach((key, column) => {
        const value = week.attributes[i * attributeCount + column] as number;
        if (value !== ABSENT_RATING) attributes[key] = value;
      });
      const counts = week.badgeCounts;
      const badges = {
        total: counts[i * 6] as number, legendary: counts[i * 6 + 1] as number, hallOfFame: counts[i * 6 + 2] as number,
        gold: counts[i * 6 + 3] as number, silver: counts[i * 6 + 4] as number, bronze: counts[i * 6 + 5] as number,
      };
      const tiers = week.badgeTiers?.subarray(i * badgeCount, (i + 1) * badgeCount);
      const badgeList = tiers === undefined ? undefined : catalogue.badges.flatMap((badge, b) => {
        const code = tiers[b] as number;
        return code === 0 ? [] : [{ slug: badge.slug, tier: BADGE_TIERS[code - 1] as BadgeTier }];
      });
      const team = teams === undefined ? NO_TEAM : (week.team?.[i] ?? NO_TEAM);
      return [{
        _id, overall, attributes, badges, ...(badgeList ? { badgeList } : {}),
        ...(teams !== undefined && team !== NO_TEAM ? { team: stringAt(teams, team) } : {}),
        ...(people ? { name: stringAt(people.names, i), slug: stringAt(people.slugs, i), teamType: ERAS[people.eras[i] as number] as Era } : {}),
      }];
    }),
  }));
}
