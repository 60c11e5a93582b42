// The change events of the current edition: what moved week over week in its weekly history
// (overall, attributes, badges in the history's `changes` shape, players added and removed),
// plus trades seen when a rebuilt current edition replaced the one before it. Immutable: a swap
// builds the next log from the one it replaces.
//
// Sequence numbers are a function of the snapshot alone, so every replica (and every worker)
// numbers the same event the same way: day of the week's date × 2^21 + the event's position in
// that week (history events in player-id order, then trade-only events in player-id order).
// A week's data never changes once a later week exists, so its numbers never change either.

import type { Era } from "../model/eras.js";
import { ABSENT_RATING, type HistoryWeek } from "../data/snapshot.js";
import type { Edition } from "./edition.js";
import type { EditionSet } from "./editions.js";
import { stringAt, stringCount } from "./string-table.js";
import { weekChanges, type WeekChanges } from "./week-changes.js";

/** Weeks of events kept in memory (the newest week is always kept whole). */
export const WEEKS_KEPT = 8;
/** Beyond the newest week, older weeks are kept while the total stays within this many events. */
export const MAX_EVENTS = 20_000;
/** Positions per week: a week holds at most this many events (2^21; a 1M-player edition fits). */
const SEQUENCE_WEEK = 2 ** 21;
const DAY_MS = 86_400_000;

export type ChangeKind = "changed" | "added" | "removed" | "traded";

export interface TeamRef { team: string; slug: string }

export interface ChangeEvent {
  type: "change";
  seq: number;
  kind: ChangeKind;
  /** The weekly snapshot's date (YYYY-MM-DD) the change appeared in. */
  date: string;
  gameVersion: string;
  playerId: string;
  name: string | null;
  slug: string | null;
  team: string | null;
  teamSlug: string | null;
  teamType: Era | null;
  /** from: the week before (absent when added), to: this week (absent when removed). */
  overall: { from?: number; to?: number };
  /** The history's `changes` of this week (changed events only). */
  changes?: WeekChanges;
  /** The team changed between the replaced edition and this one. */
  trade?: { from: TeamRef; to: TeamRef };
}

/** An event as kept: its number, the topics it is published on and its JSON, built once (no object graph). */
export interface LoggedEvent {
  readonly seq: number;
  readonly topics: readonly string[];
  readonly json: string;
}

function logged(event: ChangeEvent): LoggedEvent {
  return { seq: event.seq, topics: topicsOf(event), json: JSON.stringify(event) };
}

/** The first sequence number of the week dated `date` (YYYY-MM-DD). */
export function weekBase(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS) * SEQUENCE_WEEK;
}

/**
 * `since` as the client gives it: a sequence number, or an ISO date or date-time (events of
 * weeks dated after it). Returns the sequence number to read after, or undefined when unreadable.
 */
export function sinceSequence(since: string): number | undefined {
  if (/^\d{1,16}$/.test(since)) return Number(since);
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(since)) return undefined;
  const time = Date.parse(since.length === 10 ? `${since}T00:00:00Z` : since);
  if (!Number.isFinite(time)) return undefined;
  return (Math.floor(time / DAY_MS) + 1) * SEQUENCE_WEEK - 1;
}

interface PlayerInfo { name: string | null; slug: string | null; team: string | null; teamSlug: string | null; teamType: Era | null }

const NO_PLAYER: PlayerInfo = { name: null, slug: null, team: null, teamSlug: null, teamType: null };

/** Name, slug, team and era of a roster entry in an edition, read through the edition's own accessors. */
function playerInfo(edition: Edition | undefined, id: string): PlayerInfo {
  const row = edition?.rowById.get(id);
  if (edition === undefined || row === undefined) return NO_PLAYER;
  const record = edition.record(row);
  const code = edition.payload.columns.team[row] as number;
  return { name: record.name, slug: record.slug, team: record.team, teamSlug: edition.teams[code]?.slug ?? null, teamType: record.teamType };
}

function teamOf(edition: Edition, row: number): TeamRef | undefined {
  const info = edition.teams[edition.payload.columns.team[row] as number];
  return info === undefined ? undefined : { team: info.teamName, slug: info.slug };
}

export class ChangeLog {
  /** Oldest first, by seq. */
  readonly events: readonly LoggedEvent[];
  /** Trades seen on swaps, by week date then player id (carried into later logs while the week is kept). */
  private readonly trades: ReadonlyMap<string, ReadonlyMap<string, { from: TeamRef; to: TeamRef }>>;
  /** Event positions per topic (`player:<id>`, `player:<slug>`, `team:<slug>`, `era:<era>`), ascending. */
  private readonly byTopic = new Map<string, number[]>();
  readonly gameVersion: string;
  readonly checksum: string;

  private constructor(edition: Edition | undefined, events: LoggedEvent[], trades: ReadonlyMap<string, ReadonlyMap<string, { from: TeamRef; to: TeamRef }>>) {
    this.events = events;
    this.trades = trades;
    this.gameVersion = edition?.key ?? "";
    this.checksum = edition?.checksum ?? "";
    events.forEach(({ topics }, i) => {
      for (const topic of topics) {
        const list = this.byTopic.get(topic);
        if (list) list.push(i);
        else this.byTopic.set(topic, [i]);
      }
    });
  }

  /** The log of a set's current edition as loaded (no trades: those are seen only on a swap). */
  static of(set: EditionSet): ChangeLog {
    return new ChangeLog(set.current, eventsOf(set.current, undefined, new Map()), new Map());
  }

  /**
   * The log after `next` replaces `previous`: recomputed from the new current edition's weeks,
   * with the trades this swap reveals (same edition rebuilt, a player's team changed) added to its
   * newest week. The same log when the current edition did not change.
   */
  next(previous: EditionSet, next: EditionSet): ChangeLog {
    const before = previous.current;
    const after = next.current;
    if (before.checksum === after.checksum) return this;
    const trades = new Map<string, Map<string, { from: TeamRef; to: TeamRef }>>();
    const kept = new Set(keptWeeks(after).map((week) => week.date));
    if (before.key === after.key) for (const [date, byId] of this.trades) if (kept.has(date)) trades.set(date, new Map(byId));
    const newest = after.weekly?.weeks.at(-1)?.date;
    if (before.key === after.key && newest !== undefined) {
      const found = trades.get(newest) ?? new Map<string, { from: TeamRef; to: TeamRef }>();
      const ids = after.payload.lookups.ids.keys;
      for (let k = 0; k < stringCount(ids); k++) {
        const id = stringAt(ids, k);
        const row = after.rowById.get(id);
        const old = before.rowById.get(id);
        if (row === undefined || old === undefined) continue;
        const from = teamOf(before, old);
        const to = teamOf(after, row);
        if (from !== undefined && to !== undefined && from.slug !== to.slug) found.set(id, { from, to });
      }
      if (found.size > 0) trades.set(newest, found);
    }
    return new ChangeLog(after, eventsOf(after, before, trades), trades);
  }

  get newestSequence(): number {
    return this.events.at(-1)?.seq ?? 0;
  }

  get oldestSequence(): number {
    return this.events[0]?.seq ?? 0;
  }

  /** Index of the first event with seq > `since`. */
  firstAfter(since: number): number {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.events[middle] as LoggedEvent).seq > since) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * Events after `since` matching every filter given, oldest first, at most `limit` (and whether
   * more follow). Work is bounded by the smallest matching topic list, never the whole log.
   */
  query(since: number, filters: { era?: Era; team?: string; player?: string }, limit: number): { events: LoggedEvent[]; hasMore: boolean } {
    const lists: number[][] = [];
    if (filters.player !== undefined) lists.push(this.byTopic.get(`player:${filters.player}`) ?? []);
    if (filters.team !== undefined) lists.push(this.byTopic.get(`team:${filters.team}`) ?? []);
    if (filters.era !== undefined) lists.push(this.byTopic.get(`era:${filters.era}`) ?? []);
    const start = this.firstAfter(since);
    const events: LoggedEvent[] = [];
    if (lists.length === 0) {
      const end = Math.min(this.events.length, start + limit);
      for (let i = start; i < end; i++) events.push(this.events[i] as LoggedEvent);
      return { events, hasMore: end < this.events.length };
    }
    lists.sort((a, b) => a.length - b.length);
    const [smallest, ...others] = lists as [number[], ...number[][]];
    const sets = others.map((list) => new Set(list));
    let i = lowerBound(smallest, start);
    for (; i < smallest.length && events.length < limit; i++) {
      const position = smallest[i] as number;
      if (sets.every((set) => set.has(position))) events.push(this.events[position] as LoggedEvent);
    }
    let hasMore = false;
    for (; i < smallest.length && !hasMore; i++) hasMore = sets.every((set) => set.has(smallest[i] as number));
    return { events, hasMore };
  }
}

function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The topics an event is published on (a trade: both teams). */
export function topicsOf(event: ChangeEvent): string[] {
  const topics = [`player:${event.playerId}`];
  if (event.slug !== null) topics.push(`player:${event.slug}`);
  if (event.teamSlug !== null) topics.push(`team:${event.teamSlug}`);
  if (event.trade !== undefined && event.trade.from.slug !== event.teamSlug) topics.push(`team:${event.trade.from.slug}`);
  if (event.teamType !== null) topics.push(`era:${event.teamType}`);
  return topics;
}

/** The weeks whose events are kept: the newest WEEKS_KEPT that have a week before them. */
function keptWeeks(edition: Edition): HistoryWeek[] {
  const weeks = edition.weekly?.weeks ?? [];
  return weeks.slice(Math.max(1, weeks.length - WEEKS_KEPT));
}

/** Every event of the kept weeks, oldest first. */
function eventsOf(edition: Edition, before: Edition | undefined, trades: ReadonlyMap<string, ReadonlyMap<string, { from: TeamRef; to: TeamRef }>>): LoggedEvent[] {
  const weekly = edition.weekly;
  if (weekly === null) return [];
  const weeks = weekly.weeks;
  const ids = edition.payload.history?.ids;
  if (ids === undefined) return [];
  const slots = stringCount(ids);
  const byWeek: LoggedEvent[][] = [];
  let total = 0;
  // Newest first, so the limit drops the oldest weeks; the newest is kept whole.
  for (let w = weeks.length - 1; w >= Math.max(1, weeks.length - WEEKS_KEPT); w--) {
    const week = weeks[w] as HistoryWeek;
    const previous = weeks[w - 1] as HistoryWeek;
    const base = weekBase(week.date);
    const weekTrades = trades.get(week.date);
    const events: LoggedEvent[] = [];
    const withEvent = new Set<string>();
    const info = (id: string, isGone: boolean) => (isGone ? playerInfo(before, id) : playerInfo(edition, id));
    for (let slot = 0; slot < slots && events.length < SEQUENCE_WEEK - 1; slot++) {
      const from = previous.overall[slot] as number;
      const to = week.overall[slot] as number;
      if (from === ABSENT_RATING && to === ABSENT_RATING) continue;
      const id = stringAt(ids, slot);
      const trade = weekTrades?.get(id);
      let event: ChangeEvent;
      const common = { type: "change" as const, seq: base + events.length + 1, date: week.date, gameVersion: edition.key, playerId: id };
      if (from === ABSENT_RATING) {
        event = { ...common, kind: "added", ...info(id, false), overall: { to } };
      } else if (to === ABSENT_RATING) {
        event = { ...common, kind: "removed", ...info(id, true), overall: { from } };
      } else {
        const changes = weekChanges(edition.catalogue, weekly.attributeValues(previous, slot), weekly.attributeValues(week, slot), weekly.badgeTiers(previous, slot), weekly.badgeTiers(week, slot));
        if (from === to && trade === undefined && !hasChanges(changes)) continue;
        event = { ...common, kind: "changed", ...info(id, false), overall: { from, to }, changes };
      }
      if (trade !== undefined) event.trade = trade;
      withEvent.add(id);
      events.push(logged(event));
    }
    // Trades of players whose ratings did not move: after the week's history events, by id.
    for (const id of [...(weekTrades?.keys() ?? [])].sort()) {
      if (withEvent.has(id)) continue;
      const trade = weekTrades?.get(id) as { from: TeamRef; to: TeamRef };
      const event: ChangeEvent = {
        type: "change", seq: base + events.length + 1, kind: "traded", date: week.date, gameVersion: edition.key, playerId: id,
        ...playerInfo(edition, id), overall: {}, trade,
      };
      const row = edition.rowById.get(id);
      if (row !== undefined) event.overall = { from: edition.payload.columns.overall[row] as number, to: edition.payload.columns.overall[row] as number };
      events.push(logged(event));
    }
    if (w < weeks.length - 1 && total + events.length > MAX_EVENTS) break;
    total += events.length;
    byWeek.push(events);
  }
  return byWeek.reverse().flat();
}

function hasChanges(changes: WeekChanges): boolean {
  if (Object.keys(changes.attributes).length > 0) return true;
  const { badges } = changes;
  return badges !== undefined && badges.added.length + badges.removed.length + badges.upgraded.length + badges.downgraded.length > 0;
}
