// The change events of the current edition: what moved week over week in its weekly history
// (overall, attributes, badges in the history's `changes` shape, players added and removed, and
// trades: a team change from one week to the next, as the history records each week's teams).
// Immutable, and a function of the snapshot alone: a process started after a trade (a restart, a
// new replica, a new worker) builds the same events as one that saw the trade happen, so an event
// is published once, under one number, with its own week's data.
//
// Sequence numbers are a function of the snapshot alone, so every replica (and every worker)
// numbers the same event the same way: day of the week's date × 2^21 + the event's position in
// that week (player-id order). A week's data never changes once a later week exists, so its
// numbers never change either.
//
// A player is one person across weeks by `_id` where it is stable, else by era and slug: a row
// that comes back under a new `_id` on another team (a generated id follows the team; the hosted
// service's upsert, keyed by slug, era and team, makes a new row) is one trade, not a removal and
// an addition (Reappearances).

import { ERAS, type Era } from "../model/eras.js";
import { teamKey, teamSlug } from "../model/player.js";
import type { Edition } from "./edition.js";
import type { EditionSet } from "./editions.js";
import { stringAt, stringCount, type StringTable } from "./string-table.js";
import { weekChanges, type WeekChanges } from "./week-changes.js";
import { ABSENT_RATING } from "../model/attributes.js";
import { NO_TEAM, type HistoryPayload, type HistoryWeek } from "./weekly-series.js";

/** Weeks of events kept in memory (the newest week is always kept whole). */
export const WEEKS_KEPT = 8;
/** Beyond the newest week, older weeks are kept while the total stays within this many events. */
export const MAX_EVENTS = 20_000;
/** Positions per week: a week holds at most this many events (2^21; a 1M-player edition fits). */
const SEQUENCE_WEEK = 2 ** 21;
/**
 * Rows of one era and slug beyond which none of them is matched as one person (each stays added
 * or removed): bounds the matching's work per row; real data holds a handful (a traded player's two rows).
 */
const MAX_NAMESAKES = 64;
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
  /** The team changed from the week before to this one (the history's teams of both weeks). */
  trade?: { from: TeamRef; to: TeamRef };
  /** The player's `_id` the week before, when his row came back under another one (a trade re-keyed). */
  previousPlayerId?: string;
}

/** A ChangeLog as one thread hands it to another (ChangeLog.toShared, ChangeLog.fromShared). */
export interface SharedChangeLog {
  readonly gameVersion: string;
  readonly checksum: string;
  readonly events: readonly LoggedEvent[];
  readonly published: readonly LoggedEvent[];
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

type Trade = { from: TeamRef; to: TeamRef };

/**
 * Whether the history records the teams of every week the log reads (the kept weeks and the one
 * before them): snapshots written before weeks held teams do not.
 */
function hasWeeklyTeams(edition: Edition): boolean {
  const history = edition.payload.history;
  const weeks = history?.weeks ?? [];
  return history?.teams !== undefined && weeks.length > 0 && weeks.slice(Math.max(0, weeks.length - WEEKS_KEPT - 1)).every((week) => week.team !== undefined);
}

/** The position of the first of `events` numbered from `base` on. */
function firstOfWeek(events: readonly LoggedEvent[], base: number): number {
  const at = events.findIndex((event) => event.seq >= base);
  return at < 0 ? events.length : at;
}

export class ChangeLog {
  /** Oldest first, by seq. */
  readonly events: readonly LoggedEvent[];
  /**
   * The events a swap publishes: those of this log the log it replaced did not hold as they are
   * (a new week's; on a rebuild dated the same day, that week's corrected ones). Empty for a log
   * built from a set as loaded.
   */
  readonly published: readonly LoggedEvent[];
  /** Event positions per topic (`player:<id>`, `player:<slug>`, `team:<slug>`, `era:<era>`), ascending. */
  private readonly byTopic = new Map<string, number[]>();
  readonly gameVersion: string;
  readonly checksum: string;

  private constructor(edition: Pick<Edition, "key" | "checksum"> | undefined, events: LoggedEvent[], published: readonly LoggedEvent[]) {
    this.events = events;
    this.published = published;
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

  /** The log of a set's current edition as loaded. */
  static of(set: EditionSet): ChangeLog {
    return new ChangeLog(set.current, eventsOf(set.current), []);
  }

  /** The log another thread derived (the supervisor's, posted to each worker: src/app/supervisor.ts), as it was there. */
  static fromShared(shared: SharedChangeLog): ChangeLog {
    return new ChangeLog({ key: shared.gameVersion, checksum: shared.checksum }, [...shared.events], shared.published);
  }

  /** What fromShared rebuilds this log from: plain data, posted to a worker thread. */
  toShared(): SharedChangeLog {
    return { gameVersion: this.gameVersion, checksum: this.checksum, events: this.events, published: this.published };
  }

  /**
   * The log after `next` replaces `previous`: the log of `next`'s snapshot, as `of` gives it (its
   * events are a function of its weekly history: each week's teams are recorded in it, so a trade
   * is an event of the week it happened in, whenever and wherever the log is built). Published:
   * for the same edition, the newest week's events this log did not hold as they are (a new week's;
   * on a rebuild dated the same day, that week's corrected ones); for another, all it does not hold.
   *
   * A history recorded before weeks held teams (older snapshot files) cannot say an older week's
   * team: then, as before, the weeks before the newest are kept as this log holds them (each
   * published once, with the data it had when its week was the newest) and no trade is seen.
   * The same log when the current edition did not change.
   */
  next(previous: EditionSet, next: EditionSet): ChangeLog {
    const before = previous.current;
    const after = next.current;
    if (before.checksum === after.checksum) return this;
    const weeks = keptWeeks(after);
    const newest = weeks.at(-1);
    if (before.key !== after.key || newest === undefined) {
      const events = eventsOf(after, before);
      return new ChangeLog(after, events, this.unheld(events));
    }
    if (hasWeeklyTeams(after)) {
      const events = eventsOf(after, before);
      return new ChangeLog(after, events, this.unheld(events.slice(firstOfWeek(events, weekBase(newest.date)))));
    }
    const newestEvents = weekEvents(after, before, (after.weekly?.weeks.length ?? 0) - 1, Reappearances.of(after));
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
    return new ChangeLog(after, [...older.reverse().flat(), ...newestEvents], this.unheld(newestEvents));
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

/** The topics an event is published on (a trade: both teams; a re-keyed player: both ids). */
export function topicsOf(event: ChangeEvent): string[] {
  const topics = [`player:${event.playerId}`];
  if (event.previousPlayerId !== undefined) topics.push(`player:${event.previousPlayerId}`);
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
  const rekeyed = Reappearances.of(edition);
  const byWeek: LoggedEvent[][] = [];
  let total = 0;
  // Newest first, so the limit drops the oldest weeks; the newest is kept whole.
  for (let w = weeks.length - 1; w >= Math.max(1, weeks.length - WEEKS_KEPT); w--) {
    const events = weekEvents(edition, before, w, rekeyed);
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

/** A history slot's rows of one era and slug in week w against week w − 1. */
interface Namesakes {
  /** In week w, not in w − 1. */
  added: number[];
  /** In w − 1, not in w. */
  removed: number[];
  /** In both. */
  stayed: number[];
}

/**
 * Players whose row came back under another `_id`: a player is one person by `_id` where it is
 * stable, else by era and slug (the history's `people`). In week w, for one era and slug:
 * - one row gone and one new, on another team: one person traded (his id follows the team);
 * - a current-era row new on another team beside the one row of that era and slug that stayed
 *   (the hosted service keeps the old row until a later scrape removes it): the same, traded
 *   when the new row appears; the old row's removal later sends nothing (the trade was sent).
 * Anything else (several rows on a side, the same team) stays added and removed: era and slug
 * cannot say who is who. All of it read from the history, so a function of the snapshot.
 */
class Reappearances {
  private slotsByKey: Map<string, number[]> | undefined;

  private constructor(
    private readonly weeks: readonly HistoryWeek[],
    private readonly people: NonNullable<HistoryPayload["people"]>,
    private readonly teams: StringTable,
    private readonly slots: number,
  ) {}

  /** Undefined when the history cannot say who a row is (no people, no teams: older snapshots). */
  static of(edition: Edition): Reappearances | undefined {
    const history = edition.payload.history;
    const weeks = edition.weekly?.weeks;
    if (history?.people === undefined || history.teams === undefined || weeks === undefined) return undefined;
    return new Reappearances(weeks, history.people, history.teams, stringCount(history.ids));
  }

  /** The slot whose row an added row of week w continues (traded under a new `_id`), if any. */
  previousOf(slot: number, w: number): number | undefined {
    const { added, removed, stayed } = this.namesakes(slot, w);
    if (added.length !== 1) return undefined;
    const team = this.teamKeyAt(w, slot);
    const previous = removed.length === 1 ? removed[0] : removed.length === 0 && stayed.length === 1 && this.isCurrent(slot) ? stayed[0] : undefined;
    if (previous === undefined || team === undefined) return undefined;
    const teamBefore = this.teamKeyAt(w - 1, previous);
    return teamBefore !== undefined && teamBefore !== team ? previous : undefined;
  }

  /**
   * Whether a row gone in week w is already told for: its player was traded under a new `_id`
   * this week, or earlier while this row lingered (the one row of its era and slug that stayed
   * appeared on another team beside it, and was told as its trade then).
   */
  isTold(slot: number, w: number): boolean {
    const { added, removed, stayed } = this.namesakes(slot, w);
    if (removed.length !== 1) return false;
    if (added.length === 1) return this.previousOf(added[0] as number, w) === slot;
    if (added.length > 0 || stayed.length !== 1 || !this.isCurrent(slot)) return false;
    const successor = stayed[0] as number;
    // The week the successor's row appeared (it has been there since, up to week w).
    let appeared = w - 1;
    while (appeared > 0 && this.isIn(appeared - 1, successor)) appeared--;
    return appeared > 0 && this.isIn(appeared - 1, slot) && this.previousOf(successor, appeared) === slot;
  }

  /** Those of the slot's era and slug (itself included); none matched past MAX_NAMESAKES. */
  private namesakes(slot: number, w: number): Namesakes {
    const found: Namesakes = { added: [], removed: [], stayed: [] };
    const slots = this.slotsOf(slot);
    if (slots.length > MAX_NAMESAKES) return found;
    for (const other of slots) {
      const before = this.isIn(w - 1, other);
      const now = this.isIn(w, other);
      if (before && now) found.stayed.push(other);
      else if (now) found.added.push(other);
      else if (before) found.removed.push(other);
    }
    return found;
  }

  /** The slots of the slot's era and slug (itself included), indexed on first use: one pass over the history's people. */
  private slotsOf(slot: number): readonly number[] {
    if (this.slotsByKey === undefined) {
      const index = new Map<string, number[]>();
      for (let i = 0; i < this.slots; i++) {
        const key = this.keyOf(i);
        const list = index.get(key);
        if (list) list.push(i);
        else index.set(key, [i]);
      }
      this.slotsByKey = index;
    }
    return this.slotsByKey.get(this.keyOf(slot)) ?? [slot];
  }

  private keyOf(slot: number): string {
    return `${this.people.eras[slot] as number}\u0000${stringAt(this.people.slugs, slot)}`;
  }

  private isCurrent(slot: number): boolean {
    return ERAS[this.people.eras[slot] as number] === "curr";
  }

  private isIn(w: number, slot: number): boolean {
    return (this.weeks[w] as HistoryWeek).overall[slot] !== ABSENT_RATING;
  }

  /** The slot's team in week w (spacing aside), undefined when that week recorded none. */
  private teamKeyAt(w: number, slot: number): string | undefined {
    const code = (this.weeks[w] as HistoryWeek).team?.[slot] ?? NO_TEAM;
    return code === NO_TEAM ? undefined : teamKey(stringAt(this.teams, code));
  }
}

/**
 * The events of week `w` of `edition`'s history (against week w − 1). Where the history records
 * each week's teams, an event's team is its own week's (a removed player's: the week before's),
 * its name, slug and era the history's, and a team change from week w − 1 to w is a trade of week
 * w: the log is a function of the snapshot alone. A row back under a new `_id` is its player's
 * one event (`rekeyed`: see Reappearances). Without weekly teams (snapshots written before), the
 * current rows name the player (`before`'s, the edition replaced, for a player gone) and no trade
 * is seen.
 */
function weekEvents(edition: Edition, before: Edition | undefined, w: number, rekeyed: Reappearances | undefined): LoggedEvent[] {
  const weekly = edition.weekly;
  const history = edition.payload.history;
  if (weekly === null || history === null || w < 1 || w >= weekly.weeks.length) return [];
  const { ids, teams, people } = history;
  const slots = stringCount(ids);
  const week = weekly.weeks[w] as HistoryWeek;
  const previous = weekly.weeks[w - 1] as HistoryWeek;
  const base = weekBase(week.date);
  const events: LoggedEvent[] = [];
  const teamAt = (of: HistoryWeek, slot: number): TeamRef | undefined => {
    const code = of.team?.[slot] ?? NO_TEAM;
    if (teams === undefined || code === NO_TEAM) return undefined;
    const team = stringAt(teams, code);
    return { team, slug: teamSlug(team) };
  };
  const info = (id: string, slot: number, isGone: boolean): PlayerInfo => {
    const current = isGone ? playerInfo(before, id) : playerInfo(edition, id);
    const team = teamAt(isGone ? previous : week, slot);
    if (team === undefined) return current;
    const who = people === undefined
      ? current
      : { name: stringAt(people.names, slot), slug: stringAt(people.slugs, slot), teamType: ERAS[people.eras[slot] as number] as Era };
    return { name: who.name, slug: who.slug, team: team.team, teamSlug: team.slug, teamType: who.teamType };
  };
  for (let slot = 0; slot < slots && events.length < SEQUENCE_WEEK - 1; slot++) {
    const isBefore = previous.overall[slot] !== ABSENT_RATING;
    const isNow = week.overall[slot] !== ABSENT_RATING;
    if (!isBefore && !isNow) continue;
    const id = stringAt(ids, slot);
    const common = { type: "change" as const, seq: base + events.length + 1, date: week.date, gameVersion: edition.key, playerId: id };
    // The slot this one continues: itself, or (a row back under a new _id) the row it replaces.
    const was = isBefore ? slot : rekeyed?.previousOf(slot, w);
    let event: ChangeEvent;
    if (was === undefined) {
      event = { ...common, kind: "added", ...info(id, slot, false), overall: { to: week.overall[slot] as number } };
    } else if (!isNow) {
      if (rekeyed?.isTold(slot, w)) continue;
      event = { ...common, kind: "removed", ...info(id, slot, true), overall: { from: previous.overall[slot] as number } };
    } else {
      const from = previous.overall[was] as number;
      const to = week.overall[slot] as number;
      const teamBefore = teamAt(previous, was);
      const teamNow = teamAt(week, slot);
      const trade = teamBefore !== undefined && teamNow !== undefined && teamKey(teamBefore.team) !== teamKey(teamNow.team) ? { from: teamBefore, to: teamNow } : undefined;
      const changes = weekChanges(edition.catalogue, weekly.attributeValues(previous, was), weekly.attributeValues(week, slot), weekly.badgeTiers(previous, was), weekly.badgeTiers(week, slot));
      const isMoved = from !== to || hasChanges(changes);
      if (!isMoved && trade === undefined) continue;
      event = isMoved
        ? { ...common, kind: "changed", ...info(id, slot, false), overall: { from, to }, changes }
        : { ...common, kind: "traded", ...info(id, slot, false), overall: { from, to } };
      if (trade !== undefined) event.trade = trade;
      if (was !== slot) event.previousPlayerId = stringAt(ids, was);
    }
    events.push(logged(event));
  }
  return events;
}

function hasChanges(changes: WeekChanges): boolean {
  if (Object.keys(changes.attributes).length > 0) return true;
  const { badges } = changes;
  return badges !== undefined && badges.added.length + badges.removed.length + badges.upgraded.length + badges.downgraded.length > 0;
}
