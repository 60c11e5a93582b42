// One edition in memory: views over the snapshot's arrays (columns, sort orders, fragments,
// search index, lookups, derived tables), plus the little load derives from them (row ranges per
// era and team, team stats). A file written before the derived tables gets them from
// store/derived-tables.ts (editionOf), which loads every edition. The arrays may live in a SharedArrayBuffer that every worker thread views; what
// an Edition owns itself is per-thread and small (the kernel's scratch, the memo). Read-only
// after construction; the request path only looks things up here.

import { Catalogue } from "../model/catalogue.js";
import { ERAS, ERA_CODE, type Era } from "../model/eras.js";
import { slugify } from "../model/names.js";
import { DEMO_SOURCE, type EditionEntry, type PlayerField, type PlayerRecord, type TeamRow } from "../model/player.js";
import { editionLabel } from "../model/eras.js";
import type { LoadedPayload, SnapshotPayload } from "./snapshot.js";
import type { BadgeHolders } from "./badge-holders.js";
import { DictionaryColumn } from "./dictionary-column.js";
import { EditionMemo } from "./edition-memo.js";
import { RecordFragments } from "./fragments.js";
import { NameIndex } from "./name-index.js";
import { RowGroupMap, findString, rowsOfKey, stringAt } from "./string-table.js";
import { WeeklySeries } from "./weekly-series.js";
import type { TeamEntry } from "./edition-tables.js";
import { workCounts } from "./work-counts.js";

export interface TeamInfo extends TeamEntry {
  code: number;
  /** Rows of a team are contiguous: [firstRow, endRow). */
  firstRow: number;
  endRow: number;
  playerCount: number;
  /** The mean overall rounded to an integer, as the hosted service sends it (docs/compatibility.md#fidelity-rules). */
  averageRating: number;
  /** The exact mean overall (ours, beside the hosted service's rounded one). */
  meanOverall: number;
}

export class Edition {
  readonly key: string;
  readonly rowCount: number;
  /** The edition's attribute keys and badges, in column order (from its data, stored in its snapshot). */
  readonly catalogue: Catalogue;
  /** Rows of each era are contiguous, by ERA_CODE: [eraStart[code], eraStart[code + 1]). */
  readonly eraStart: Uint32Array;
  readonly teams: readonly TeamInfo[];
  readonly fragments: RecordFragments;
  /** Player-name search (docs/design-decisions.md#name-search-ranking ranking), built once here. */
  readonly nameIndex: NameIndex;
  /**
   * Rows by slug, in era order (curr, class, allt), then in the source's order (docs/data.md#source-values-kept-exactly:
   * several rows may share a slug; the row created first comes first, as the hosted service's
   * slug route answers it).
   */
  readonly rowsBySlug: RowGroupMap;
  readonly rowById: { get(id: string): number | undefined };
  /** Rows by the slug of the name alone (`michael-jordan`), so one person's rosters are found together. */
  readonly rowsByNameSlug: RowGroupMap;
  /** What this thread works out once for this edition and keeps with it (store/edition-memo.ts). */
  readonly memo = new EditionMemo();
  /** Team codes by exact name and by slug (a name may exist in several eras). */
  readonly teamsByName: ReadonlyMap<string, readonly number[]>;
  readonly teamsBySlug: ReadonlyMap<string, readonly number[]>;
  /** Archetype and college per row as dictionary codes (the `archetype` and `college` filters), stored in the snapshot. */
  readonly archetypes: DictionaryColumn;
  /**
   * The overall and position columns read four rows at a time (32-bit views of the same bytes,
   * for the query kernel's first pass); null where the machine is big-endian (the kernel then
   * reads them a row at a time).
   */
  readonly overallWords: Uint32Array | null;
  readonly positionWords: Uint32Array | null;
  readonly colleges: DictionaryColumn;
  private scratchBits: Uint32Array | undefined;
  private scratchRowList: Uint32Array | undefined;
  private scratchMaskBits: Uint32Array | undefined;
  /** The weekly history as per-player series and trending windows; null without history (archived editions). */
  readonly weekly: WeeklySeries | null;

  /** The snapshot's sections, every derived table among them (store/derived-tables.ts). */
  readonly payload: LoadedPayload;

  /**
   * `bytes`: the snapshot file the payload views, when it was loaded from one (what the supervisor
   * shares). A payload without the derived tables (a file written before them, or build-index's
   * new one) is completed by editionOf (store/derived-tables.ts), which builds its Edition with
   * this and then fills them into `payload` itself: the one place they are ever built.
   */
  constructor(payload: SnapshotPayload, readonly checksum: string, readonly bytes?: Uint8Array) {
    // Complete once editionOf has filled in what a payload lacks; nothing here reads the derived tables.
    this.payload = payload as LoadedPayload;
    this.key = payload.meta.gameVersion;
    this.rowCount = payload.meta.playerCount;
    this.catalogue = new Catalogue(payload.catalogue);
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
        averageRating: stats.count === 0 ? 0 : Math.round(stats.sum / stats.count),
        meanOverall: stats.count === 0 ? 0 : stats.sum / stats.count,
      };
    });
    this.teamsByName = groupBy(this.teams, (info) => info.teamName, (info) => info.code);
    this.teamsBySlug = groupBy(this.teams, (info) => info.slug, (info) => info.code);
    const { ids, slugs, nameSlugs } = payload.lookups;
    this.rowsBySlug = new RowGroupMap(slugs);
    this.rowsByNameSlug = new RowGroupMap(nameSlugs);
    this.rowById = {
      get: (id: string) => {
        const k = findString(ids.keys, id);
        return k < 0 ? undefined : ids.rows[ids.start[k] as number];
      },
    };
    this.fragments = new RecordFragments(payload.fragments);
    this.nameIndex = new NameIndex(payload.search, payload.columns, payload.sortOrders);
    this.archetypes = new DictionaryColumn(payload.dictionaries.archetype);
    this.overallWords = wordsOf(payload.columns.overall);
    this.positionWords = wordsOf(payload.columns.positions);
    this.colleges = new DictionaryColumn(payload.dictionaries.college);
    const { history } = payload;
    this.weekly = history === null ? null : new WeeklySeries(history.weeks, history.indexOfRow, payload.columns.nameRank, this.catalogue);
  }

  /** Holders of every badge, best tier first (null where the edition keeps no badge lists); computed at build time. */
  get badgeHolders(): BadgeHolders | null {
    return this.payload.badgeHolders;
  }

  /** Scratch bit set for the query kernel (per thread; the kernel is synchronous, so one per edition suffices). */
  get scratch(): Uint32Array {
    return (this.scratchBits ??= new Uint32Array(Math.ceil(this.rowCount / 32) + 1));
  }

  /** Second scratch bit set: a row set (the name search's matches) before it is intersected into scratch. */
  get scratchMask(): Uint32Array {
    return (this.scratchMaskBits ??= new Uint32Array(Math.ceil(this.rowCount / 32) + 1));
  }

  /** Scratch row list for the query kernel's collect-and-sort path. */
  get scratchRows(): Uint32Array {
    return (this.scratchRowList ??= new Uint32Array(this.rowCount));
  }

  /**
   * One row's full record, parsed from its stored fragments (a fresh object each call). Routes
   * read records only through here: nothing keeps a record object per row.
   */
  record(row: number): PlayerRecord {
    return JSON.parse(this.fragments.recordJson(row)) as PlayerRecord;
  }

  /**
   * One field of a row as the source gave it (undefined where the row lacks it), decoded from its
   * stored JSON alone: what a route reads when it needs a value, not the whole record.
   */
  field<K extends Exclude<PlayerField, "badges">>(row: number, field: K): PlayerRecord[K] | undefined {
    const json = this.fragments.valueJson(row, field);
    return json === undefined ? undefined : (JSON.parse(json) as PlayerRecord[K]);
  }

  /** The row's era (its `teamType`), from its column. */
  eraOf(row: number): Era {
    return ERAS[this.payload.columns.era[row] as number] as Era;
  }

  /** The row's folded display name (what name search and batch lookups compare). */
  foldedName(row: number): string {
    const k = this.payload.search.foldedOfRow[row] as number;
    return k < this.payload.search.folded.keys.offsets.length - 1 ? stringAt(this.payload.search.folded.keys, k) : "";
  }

  /** Rows whose folded display name is `folded`, ascending. */
  rowsWithFoldedName(folded: string): number[] {
    workCounts.identifierLookups++;
    return rowsOfKey(this.payload.search.folded, folded) ?? [];
  }

  /** The row's index in the weekly series (payload.history), or -1. */
  historyIndex(row: number): number {
    return this.payload.history?.indexOfRow[row] ?? -1;
  }

  /**
   * The rows a slug names within the eras of `eraMask` (bit 1 << ERA_CODE per era), in era order,
   * then source order (rowsBySlug).
   * A roster slug is exact: when a roster in scope has it, that roster alone, even if the slug is
   * also another person's name slug or this person's name slug (`shai-gilgeous-alexander` is the
   * current roster, not every Shai roster). Otherwise a name's own slug (`michael-jordan`) stands
   * for every roster of that name in scope. Empty when neither is found.
   */
  rowsForSlug(slug: string, eraMask: number): number[] {
    workCounts.identifierLookups++;
    const era = this.payload.columns.era;
    const isInScope = (row: number) => ((eraMask >>> (era[row] as number)) & 1) === 1;
    const exact = (this.rowsBySlug.get(slug) ?? []).filter(isInScope);
    return exact.length > 0 ? exact : (this.rowsByNameSlug.get(slug) ?? []).filter(isInScope);
  }

  get isCurrent(): boolean {
    return this.payload.meta.status === "current";
  }

  /** Built by the demo generator (`source: "demo"`): real names with invented ratings (docs/data.md#demo-data). */
  get isDemo(): boolean {
    return this.payload.meta.source === DEMO_SOURCE;
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
      .map(teamRowOf)
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

/** A team's wire row; the logo is always a string, "" when unknown (docs/compatibility.md#fidelity-rules). */
export function teamRowOf({ teamName, slug, teamType, playerCount, averageRating, meanOverall, logo }: TeamInfo): TeamRow {
  return { teamName, slug, teamType, playerCount, averageRating, meanOverall, logo: logo ?? "" };
}

const IS_LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * A byte column as 32-bit words (its whole words; the tail rows are read as bytes), or null on a
 * big-endian machine. A view where the column is 4-byte aligned (every file written since
 * 2026-11-25 aligns each array to 8 bytes); for an older file, a copy of this thread's own (one
 * byte a row), so the kernel keeps its four-rows-at-a-time pass.
 */
function wordsOf(column: Uint8Array): Uint32Array | null {
  if (!IS_LITTLE_ENDIAN) return null;
  if (column.byteOffset % 4 === 0) return new Uint32Array(column.buffer, column.byteOffset, column.length >>> 2);
  const words = new Uint32Array(column.length >>> 2);
  new Uint8Array(words.buffer).set(column.subarray(0, words.length * 4));
  return words;
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
