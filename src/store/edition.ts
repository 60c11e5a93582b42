// One edition in memory: the snapshot's columns and sort orders, plus what load derives from
// them (row ranges per era and team, slug and id maps, team stats, JSON fragments). Read-only
// after construction; the request path only looks things up here.

import { ERAS, ERA_CODE, type Era } from "../model/eras.js";
import { slugify } from "../model/names.js";
import type { EditionEntry, PlayerRecord, TeamRow } from "../model/player.js";
import { editionLabel } from "../model/eras.js";
import { readSnapshot, type SnapshotPayload, type TeamEntry } from "../data/snapshot.js";
import { buildBadgeHolders, type BadgeHolders } from "./badge-holders.js";
import { DictionaryColumn } from "./dictionary-column.js";
import { EAGER_ROW_LIMIT, RecordFragments } from "./fragments.js";
import { NameIndex } from "./name-index.js";
import { slotsOfRows, WeeklySeries } from "./weekly-series.js";

export interface TeamInfo extends TeamEntry {
  code: number;
  /** Rows of a team are contiguous: [firstRow, endRow). */
  firstRow: number;
  endRow: number;
  playerCount: number;
  averageRating: number;
}

export class Edition {
  readonly key: string;
  readonly players: readonly PlayerRecord[];
  readonly rowCount: number;
  /** Rows of each era are contiguous, by ERA_CODE: [eraStart[code], eraStart[code + 1]). */
  readonly eraStart: Uint32Array;
  readonly teams: readonly TeamInfo[];
  readonly fragments: RecordFragments;
  /** Player-name search (CONTRACT §2 ranking), built once here. */
  readonly nameIndex: NameIndex;
  /** Rows by slug, in era order (curr, class, allt). */
  readonly rowsBySlug: ReadonlyMap<string, readonly number[]>;
  readonly rowById: ReadonlyMap<string, number>;
  /** Rows by the slug of the name alone (`michael-jordan`), so one person's rosters are found together. */
  readonly rowsByNameSlug: ReadonlyMap<string, readonly number[]>;
  /** Memoised replies of this edition that must outlive the LRU (full bulk bodies, compressed once). */
  readonly memo = new Map<string, unknown>();
  /** Team codes by exact name and by slug (a name may exist in several eras). */
  readonly teamsByName: ReadonlyMap<string, readonly number[]>;
  readonly teamsBySlug: ReadonlyMap<string, readonly number[]>;
  /** Archetype and college per row as dictionary codes (the `archetype` and `college` filters). */
  readonly archetypes: DictionaryColumn;
  readonly colleges: DictionaryColumn;
  /** Scratch bit set for the query kernel; the kernel is synchronous, so one per edition suffices. */
  readonly scratch: Uint32Array;
  /** Second scratch bit set: a row set (the name search's matches) before it is intersected into scratch. */
  readonly scratchMask: Uint32Array;
  /** Scratch row list for the query kernel's collect-and-sort path. */
  readonly scratchRows: Uint32Array;
  /** The weekly history as per-player series and trending windows; null without history (archived editions). */
  readonly weekly: WeeklySeries | null;
  private holders: BadgeHolders | null | undefined;

  constructor(readonly payload: SnapshotPayload, readonly checksum: string) {
    this.key = payload.meta.gameVersion;
    this.players = payload.players;
    this.rowCount = payload.players.length;
    const { era, team, overall } = payload.columns;
    this.eraStart = new Uint32Array(ERAS.length + 1);
    for (let row = 0; row < this.rowCount; row++) (this.eraStart[(era[row] as number) + 1] as number)++;
    for (let code = 0; code < ERAS.length; code++) this.eraStart[code + 1] = (this.eraStart[code + 1] as number) + (this.eraStart[code] as number);

    const teamStats = payload.teams.map(() => ({ firstRow: -1, endRow: -1, sum: 0, count: 0 }));
    for (let row = 0; row < this.rowCount; row++) {
      const stats = teamStats[team[row] as number];
      if (!stats) continue;
      if (stats.firstRow < 0) stats.firstRow = row;
      stats.endRow = row + 1;
      stats.sum += overall[row] as number;
      stats.count += 1;
    }
    this.teams = payload.teams.map((entry, code) => {
      const stats = teamStats[code] as { firstRow: number; endRow: number; sum: number; count: number };
      return {
        ...entry, code, firstRow: stats.firstRow, endRow: stats.endRow, playerCount: stats.count,
        averageRating: stats.count === 0 ? 0 : Math.round((stats.sum / stats.count) * 10) / 10,
      };
    });
    this.teamsByName = groupBy(this.teams, (info) => info.teamName, (info) => info.code);
    this.teamsBySlug = groupBy(this.teams, (info) => info.slug, (info) => info.code);
    this.rowsBySlug = groupBy(this.players.map((player, row) => ({ player, row })), (entry) => entry.player.slug, (entry) => entry.row);
    this.rowById = new Map(this.players.map((player, row) => [player._id, row]));
    this.rowsByNameSlug = groupBy(this.players.map((player, row) => ({ player, row })), (entry) => slugify(entry.player.name), (entry) => entry.row);
    this.fragments = new RecordFragments(this.players, this.key);
    this.nameIndex = new NameIndex(payload);
    this.archetypes = new DictionaryColumn(this.rowCount, (row) => this.record(row).archetype);
    this.colleges = new DictionaryColumn(this.rowCount, (row) => this.record(row).college);
    this.scratch = new Uint32Array(Math.ceil(this.rowCount / 32) + 1);
    this.scratchMask = new Uint32Array(this.scratch.length);
    this.scratchRows = new Uint32Array(this.rowCount);
    const { history } = payload;
    this.weekly = history === null
      ? null
      : new WeeklySeries(history.weeks, slotsOfRows(history, this.rowCount, (id) => this.rowById.get(id)), payload.columns.nameRank);
    // Like the fragments: built at load up to EAGER_ROW_LIMIT rows, on first use above it.
    if (this.rowCount <= EAGER_ROW_LIMIT) this.holders = this.buildHolders();
  }

  /** Holders of every badge, best tier first (null where the edition keeps no badge lists). */
  get badgeHolders(): BadgeHolders | null {
    if (this.holders === undefined) this.holders = this.buildHolders();
    return this.holders;
  }

  private buildHolders(): BadgeHolders | null {
    const { badgeTiers, overall } = this.payload.columns;
    return badgeTiers === null ? null : buildBadgeHolders({ badgeTiers, overall }, this.payload.sortOrders.name);
  }

  /** One row's full record. Routes read records only through here (the store decides how they are kept). */
  record(row: number): PlayerRecord {
    return this.players[row] as PlayerRecord;
  }

  /**
   * The rows a slug names within the eras of `eraMask` (bit 1 << ERA_CODE per era), in era order.
   * A roster slug is exact: when a roster in scope has it, that roster alone, even if the slug is
   * also another person's name slug or this person's name slug (`shai-gilgeous-alexander` is the
   * current roster, not every Shai roster). Otherwise a name's own slug (`michael-jordan`) stands
   * for every roster of that name in scope. Empty when neither is found.
   */
  rowsForSlug(slug: string, eraMask: number): number[] {
    const era = this.payload.columns.era;
    const isInScope = (row: number) => ((eraMask >>> (era[row] as number)) & 1) === 1;
    const exact = (this.rowsBySlug.get(slug) ?? []).filter(isInScope);
    return exact.length > 0 ? exact : (this.rowsByNameSlug.get(slug) ?? []).filter(isInScope);
  }

  get isCurrent(): boolean {
    return this.payload.meta.status === "current";
  }

  /** Whether badge filters can be answered (archived snapshots keep counts, not lists). */
  get hasBadgeLists(): boolean {
    return this.payload.columns.badgeTiers !== null;
  }

  entry(): EditionEntry {
    const { meta } = this.payload;
    return {
      gameVersion: meta.gameVersion,
      label: editionLabel(meta.gameVersion),
      status: meta.status,
      playerCount: meta.playerCount,
      teamTypeCounts: meta.teamTypeCounts,
      capturedAt: meta.capturedAt,
      source: meta.source,
    };
  }

  teamRows(era: Era): TeamRow[] {
    return this.teams
      .filter((info) => info.teamType === era)
      .map(({ teamName, slug, teamType, playerCount, averageRating, logo }) => ({
        teamName, slug, teamType, playerCount, averageRating, ...(logo ? { logo } : {}),
      }))
      .sort((a, b) => (a.teamName < b.teamName ? -1 : a.teamName > b.teamName ? 1 : 0));
  }

  /** Exact full name first, then slug (of the text, so `Boston Celtics` and `boston-celtics` meet). */
  findTeams(nameOrSlug: string, era: Era | undefined): TeamInfo[] {
    const codes = this.teamsByName.get(nameOrSlug) ?? this.teamsBySlug.get(slugify(nameOrSlug)) ?? [];
    return codes.map((code) => this.teams[code] as TeamInfo).filter((info) => era === undefined || info.teamType === era);
  }

  eraRange(era: Era): [number, number] {
    const code = ERA_CODE[era];
    return [this.eraStart[code] as number, this.eraStart[code + 1] as number];
  }
}

export function loadEdition(file: string): Edition {
  const { payload, checksum } = readSnapshot(file);
  return new Edition(payload, checksum);
}

function groupBy<T, K, V>(items: readonly T[], keyOf: (item: T) => K, valueOf: (item: T) => V): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(valueOf(item));
    else groups.set(key, [valueOf(item)]);
  }
  return groups;
}
