// The change events of the current edition: what moved week over week in its weekly history
// (overall, attributes, badges in the history's `changes` shape, players added and removed),
// plus trades seen when a rebuilt current edition replaced the one before it. Immutable: a swap
// builds the next log from the one it replaces, keeping the events of the weeks before the newest
// as it holds them, so an event is published once, under one number, with its own week's data.
//
// Sequence numbers are a function of the snapshot alone, so every replica (and every worker)
// numbers the same event the same way: day of the week's date × 2^21 + the event's position in
// that week (history events in player-id order, then trade-only events in player-id order).
// A week's data never changes once a later week exists, so its numbers never change either.

import type { Era } from "../model/eras.js";
import type { Edition } from "./edition.js";
import type { EditionSet } from "./editions.js";
import { stringAt, stringCount } from "./string-table.js";
import { weekChanges, type WeekChanges } from "./week-changes.js";
import { ABSENT_RATING } from "../model/attributes.js";
import type { HistoryWeek } from "./weekly-series.js";

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

type Trade = { from: TeamRef; to: TeamRef };
/** The trades a swap found for one week, by player id. */
interface WeekTrades { readonly date: string; readonly byId: ReadonlyMap<string, Trade> }

export class ChangeLog {
  /** Oldest first, by seq. */
  readonly events: readonly LoggedEvent[];
  /**
   * The events a swap publishes: those of this log the log it replaced did not hold as they are
   * (a new week's; on a rebuild dated the same day, that week's corrected ones). Empty for a log
   * built from a set as loaded.
   */
  readonly published: readonly LoggedEvent[];
  /** The trades seen on swaps for the newest week (carried while a rebuild keeps that week's date). */
  private readonly trades: WeekTrades | undefined;
  /** Event positions per topic (`player:<id>`, `player:<slug>`, `team:<slug>`, `era:<era>`), ascending. */
  private readonly byTopic = new Map<string, number[]>();
  readonly gameVersion: string;
  readonly checksum: string;

  private constructor(edition: Edition | undefined, events: LoggedEvent[], trades: WeekTrades | undefined, published: readonly LoggedEvent[]) {
    this.events = events;
    this.published = published;
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
    return new ChangeLog(set.current, eventsOf(set.current), undefined, []);
  }

  /**
   * The log after `next` replaces `previous`. The same edition rebuilt: the weeks before the newest
   * are this log's events as they are (each published once, with the data it had when its week was
   * the newest: a later trade never rewrites them), and the newest week is computed from the new
   * snapshot with the trades this swap reveals (a player's team changed) — a trade is an event of
   * the week it is seen in. Another edition: all its kept weeks, computed. The same log when the
   * current edition did not change.
   */
  next(previous: EditionSet, next: EditionSet): ChangeLog {
    const before = previous.current;
    const after = next.current;
    if (before.checksum === after.checksum) return this;
    const weeks = keptWeeks(after);
    const newest = weeks.at(-1);
    if (before.key !== after.key || newest === undefined) {
      const events = eventsOf(after, before);
      return new ChangeLog(after, events, undefined, this.unheld(events));
    }
    const found = new Map(this.trades?.date === newest.date ? this.trades.byId : []);
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
    const trades = found.size > 0 ? { date: newest.date, byId: found } : undefined;
    const newestEvents = weekEvents(after, before, (after.weekly?.weeks.length ?? 0) - 1, trades?.byId);
    // The weeks before it, as this log holds them, newest first while within MAX_EVENTS.
    const keptDays = new Set(weeks.slice(0, -1).map((week) => dayOf(weekBase(week.date))));
    const older: LoggedEvent[][] = [];
    let total = newestEvents.length;
    for (let end = this.firstAfter(weekBase(newest.date) - 1); end > 0;) {
      const day = dayOf((this.events[end - 1] as LoggedEvent).seq);
      let start = end - 1;
      while (start > 0 && dayOf((this.events[start - 1] as LoggedEvent).seq) === day) start--;
      if (keptDays.has(day)) {
        if (total + (end - start) > MAX_EVENTS) break;
        total += end - start;
        older.push(this.events.slice(start, end));
      }
      end = start;
    }
    return new ChangeLog(after, [...older.reverse().flat(), ...newestEvents], trades, this.unheld(newestEvents));
  }

  /** Those of `events` this log does not hold as they are (by number and JSON). */
  private unheld(events: readonly LoggedEvent[]): LoggedEvent[] {
    const first = events[0];
    if (first === undefined) return [];
    const held = new Map<number, string>();
    for (let i = this.firstAfter(first.seq - 1); i < this.events.length; i++) {
      const logged = this.events[i] as LoggedEvent;
      held.set(logged.seq, logged.json);
    }
    return events.filter((logged) => held.get(logged.seq) !== logged.json);
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
   * Positions (in `events`) of the events after `since` on any of `topics`, ascending, each once:
   * read from the per-topic index, so the work follows the events that match, never the log.
   */
  positionsAfter(since: number, topics: Iterable<string>): number[] {
    const start = this.firstAfter(since);
    const positions: number[] = [];
    let lists = 0;
    for (const topic of topics) {
      const list = this.byTopic.get(topic);
      if (list === undefined) continue;
      for (let i = lowerBound(list, start); i < list.length; i++) positions.push(list[i] as number);
      lists += 1;
    }
    if (lists < 2) return positions;
    positions.sort((a, b) => a - b);
    return positions.filter((position, i) => i === 0 || position !== positions[i - 1]);
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

/** Every event of the kept weeks, oldest first, computed from `edition` (`before`: the edition it replaced, for the players gone). */
function eventsOf(edition: Edition, before?: Edition): LoggedEvent[] {
  const weeks = edition.weekly?.weeks ?? [];
  const byWeek: LoggedEvent[][] = [];
  let total = 0;
  // Newest first, so the limit drops the oldest weeks; the newest is kept whole.
  for (let w = weeks.length - 1; w >= Math.max(1, weeks.length - WEEKS_KEPT); w--) {
    const events = weekEvents(edition, before, w, undefined);
    if (w < weeks.length - 1 && total + events.length > MAX_EVENTS) break;
    total += events.length;
    byWeek.push(events);
  }
  return byWeek.reverse().flat();
}

/** The day number a sequence number's week is dated. */
function dayOf(seq: number): number {
  return Math.floor(seq / SEQUENCE_WEEK);
}

/** The events of week `w` of `edition`'s history (against week w − 1), with `trades` (by player id) as this week's. */
function weekEvents(edition: Edition, before: Edition | undefined, w: number, trades: ReadonlyMap<string, Trade> | undefined): LoggedEvent[] {
  const weekly = edition.weekly;
  const ids = edition.payload.history?.ids;
  if (weekly === null || ids === undefined || w < 1 || w >= weekly.weeks.length) return [];
  const slots = stringCount(ids);
  const week = weekly.weeks[w] as HistoryWeek;
  const previous = weekly.weeks[w - 1] as HistoryWeek;
  const base = weekBase(week.date);
  const events: LoggedEvent[] = [];
  const withEvent = new Set<string>();
  const info = (id: string, isGone: boolean) => (isGone ? playerInfo(before, id) : playerInfo(edition, id));
  for (let slot = 0; slot < slots && events.length < SEQUENCE_WEEK - 1; slot++) {
    const from = previous.overall[slot] as number;
    const to = week.overall[slot] as number;
    if (from === ABSENT_RATING && to === ABSENT_RATING) continue;
    const id = stringAt(ids, slot);
    const trade = trades?.get(id);
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
  for (const id of [...(trades?.keys() ?? [])].sort()) {
    if (withEvent.has(id)) continue;
    const trade = trades?.get(id) as Trade;
    const event: ChangeEvent = {
      type: "change", seq: base + events.length + 1, kind: "traded", date: week.date, gameVersion: edition.key, playerId: id,
      ...playerInfo(edition, id), overall: {}, trade,
    };
    const row = edition.rowById.get(id);
    if (row !== undefined) event.overall = { from: edition.payload.columns.overall[row] as number, to: edition.payload.columns.overall[row] as number };
    events.push(logged(event));
  }
  return events;
}

function hasChanges(changes: WeekChanges): boolean {
  if (Object.keys(changes.attributes).length > 0) return true;
  const { badges } = changes;
  return badges !== undefined && badges.added.length + badges.removed.length + badges.upgraded.length + badges.downgraded.length > 0;
}
