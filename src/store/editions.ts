// Every edition loaded from the data directory, the current one, and what spans editions
// (each roster entry's overall in every edition, for ratingHistory). Immutable: a reload builds
// a new EditionSet and swaps the reference. The supervisor, which serves nothing, keeps a
// SnapshotSet instead: the same files, checked and ordered alike, without the per-edition indexes.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readSnapshot, SnapshotError, type SnapshotPayload } from "./snapshot.js";
import { Edition } from "./edition.js";
import { editionOf, hasDerivedTables, loadEdition } from "./derived-tables.js";
import { compareStrings, stringCount, type RowGroups } from "./string-table.js";

export interface EditionRating {
  gameVersion: string;
  overall: number;
  delta?: number;
}

/** What a set orders and looks up: an Edition, or a LoadedSnapshot where nothing is served. */
export interface SetMember {
  readonly key: string;
  readonly isCurrent: boolean;
  readonly checksum: string;
}

/** The editions of a data directory: exactly one current (else SnapshotError), first; then the archives, newest first. */
export class KeyedSet<T extends SetMember> {
  readonly byKey: ReadonlyMap<string, T>;
  /** Current first, then archived newest first. */
  readonly ordered: readonly T[];
  readonly current: T;

  constructor(editions: readonly T[]) {
    const currents = editions.filter((edition) => edition.isCurrent);
    if (currents.length !== 1) {
      throw new SnapshotError("data directory", `needs exactly one current edition, found ${currents.length} (${currents.map((e) => e.key).join(", ") || "none"})`);
    }
    this.current = currents[0] as T;
    const archived = editions.filter((edition) => !edition.isCurrent).sort((a, b) => (a.key < b.key ? 1 : -1));
    this.ordered = [this.current, ...archived];
    this.byKey = new Map(this.ordered.map((edition) => [edition.key, edition]));
  }

  keys(): string[] {
    return this.ordered.map((edition) => edition.key);
  }
}

export class EditionSet extends KeyedSet<Edition> {
  /** Newest edition first: the order of a rating history. */
  private readonly newestFirst: readonly Edition[];
  /**
   * Per edition, [R × E]: row · E + e → the first row holding the same `_id` in newestFirst[e]
   * (the edition itself included: a repeated _id names its first row, as a lookup would), −1 where
   * none does. A rating history reads it instead of looking the _id up in every edition.
   */
  private readonly sameIdRows: ReadonlyMap<Edition, Int32Array>;

  /** Some edition holds demo ratings: an answer that reads every edition (a rating history) says so (http/reply.ts dataSourceMeta). */
  readonly isDemo: boolean;

  constructor(editions: readonly Edition[]) {
    super(editions);
    this.newestFirst = [...this.ordered].sort((a, b) => (a.key < b.key ? 1 : -1));
    this.isDemo = this.ordered.some((edition) => edition.isDemo);
    const sameId = sameIdRowsOf(this.newestFirst.map((edition) => edition.payload.lookups.ids));
    this.sameIdRows = new Map(this.newestFirst.map((edition, e) => [edition, sameId[e] as Int32Array]));
  }

  /** The overall of `row`'s _id in every edition of the set holding it, newest first. */
  ratingHistory(edition: Edition, row: number): readonly EditionRating[] {
    const sameId = this.sameIdRows.get(edition);
    if (sameId === undefined) throw new RangeError(`edition ${edition.key} is not one of this set's`);
    const count = this.newestFirst.length;
    const list: EditionRating[] = [];
    for (let e = 0; e < count; e++) {
      const other = this.newestFirst[e] as Edition;
      const at = sameId[row * count + e] as number;
      if (at >= 0) list.push({ gameVersion: other.key, overall: other.payload.columns.overall[at] as number });
    }
    list.forEach((entry, i) => {
      const older = list[i + 1];
      if (older) entry.delta = entry.overall - older.overall;
    });
    return list;
  }
}

/**
 * sameIdRows for editions whose id tables are `tables` (newest first): each pair's sorted keys
 * merged once (bytes compared, nothing decoded), so a set of E editions of R rows costs
 * O(E² · R) comparisons at its construction and none a request.
 */
function sameIdRowsOf(tables: readonly RowGroups[]): Int32Array[] {
  const count = tables.length;
  return tables.map((own) => {
    const rows = own.rows.length;
    const sameId = new Int32Array(rows * count).fill(-1);
    tables.forEach((other, e) => {
      let j = 0;
      const otherKeys = stringCount(other.keys);
      for (let k = 0; k < stringCount(own.keys) && j < otherKeys; k++) {
        let order = compareStrings(own.keys, k, other.keys, j);
        while (order > 0 && ++j < otherKeys) order = compareStrings(own.keys, k, other.keys, j);
        if (order !== 0) continue;
        const first = other.rows[other.start[j] as number] as number;
        for (let at = own.start[k] as number; at < (own.start[k + 1] as number); at++) sameId[(own.rows[at] as number) * count + e] = first;
      }
    });
    return sameId;
  });
}

export function snapshotFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^2K\d{2}\.msgpack$/i.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** The snapshot files of `dir`, at least one (else SnapshotError). */
function bootFiles(dir: string): string[] {
  const files = snapshotFiles(dir);
  if (files.length === 0) throw new SnapshotError(dir, "holds no snapshots (run npm run build-index)");
  return files;
}

/** Loads every snapshot in `dir` (each at most `maxBytes`, MAX_SNAPSHOT_MB); any refused file stops the boot with its name and reason. */
export function loadEditionSet(dir: string, maxBytes?: number): EditionSet {
  return new EditionSet(bootFiles(dir).map((file) => loadEdition(file, maxBytes)));
}

/**
 * One loaded snapshot as it crosses threads: the payload the supervisor decoded, its checksum and
 * its bytes. Posting it copies only the payload's plain values (~30 KB an edition: meta, teams,
 * dictionaries); its typed arrays are views of the SharedArrayBuffer and stay one copy. So a worker
 * never decodes MessagePack: the decoder's code is neither compiled nor kept in each thread.
 */
export interface SharedSnapshot {
  payload: SnapshotPayload;
  checksum: string;
  bytes: Uint8Array;
}

/**
 * A snapshot file read and checked (readSnapshot) by a thread that only hands it on: none of an
 * Edition's indexes (names, slugs, teams, weekly series) are built, so the supervisor's heap holds
 * only the decoded payload, and each worker builds its Edition once.
 */
export class LoadedSnapshot implements SetMember, SharedSnapshot {
  constructor(readonly payload: SnapshotPayload, readonly checksum: string, readonly bytes: Uint8Array) {}

  get key(): string {
    return this.payload.meta.gameVersion;
  }

  get isCurrent(): boolean {
    return this.payload.meta.status === "current";
  }
}

export type SnapshotSet = KeyedSet<LoadedSnapshot>;

export function loadSnapshot(file: string, maxBytes?: number): LoadedSnapshot {
  const { payload, checksum, bytes } = readSnapshot(file, maxBytes);
  // A file written before the derived tables: editionOf derives them into its payload,
  // in shared memory, once here, so no worker builds them (docs/design-decisions.md#derived-tables-one-mechanism).
  // The Edition itself (its per-thread indexes) is dropped: the supervisor serves nothing.
  if (!hasDerivedTables(payload)) editionOf(payload, checksum, bytes);
  return new LoadedSnapshot(payload, checksum, bytes);
}

/** loadEditionSet for the supervisor: the same checks and refusals, no Edition built. */
export function loadSnapshotSet(dir: string, maxBytes?: number): SnapshotSet {
  return new KeyedSet(bootFiles(dir).map((file) => loadSnapshot(file, maxBytes)));
}

/** What a worker is handed: every snapshot of a set, as the supervisor loaded it once. */
export function sharedSnapshotsOf(set: KeyedSet<LoadedSnapshot | Edition>): SharedSnapshot[] {
  return set.ordered.map((edition) => {
    if (edition.bytes === undefined) throw new Error(`edition ${edition.key} was not loaded from a file`);
    return { payload: edition.payload, checksum: edition.checksum, bytes: edition.bytes };
  });
}

/**
 * A worker's EditionSet over snapshots another thread loaded and checked: views only. An edition with the checksum of one
 * `previous` already serves is kept as it is (its per-thread memo and scratch too).
 */
export function editionSetOfShared(snapshots: readonly SharedSnapshot[], previous?: EditionSet): EditionSet {
  const serving = new Map((previous?.ordered ?? []).map((edition) => [edition.checksum, edition]));
  return new EditionSet(snapshots.map(({ payload, checksum, bytes }) => serving.get(checksum) ?? editionOf(payload, checksum, bytes)));
}
