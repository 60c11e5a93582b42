// Every edition loaded from the data directory, the current one, and what spans editions
// (each roster entry's overall in every edition, for ratingHistory). Immutable: a reload builds
// a new EditionSet and swaps the reference.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { SnapshotError, type SnapshotPayload } from "../data/snapshot.js";
import { Edition, loadEdition } from "./edition.js";

export interface EditionRating {
  gameVersion: string;
  overall: number;
  delta?: number;
}

export class EditionSet {
  readonly byKey: ReadonlyMap<string, Edition>;
  /** Current first, then archived newest first. */
  readonly ordered: readonly Edition[];
  readonly current: Edition;
  /** Newest edition first: the order of a rating history. */
  private readonly newestFirst: readonly Edition[];

  constructor(editions: readonly Edition[]) {
    const currents = editions.filter((edition) => edition.isCurrent);
    if (currents.length !== 1) {
      throw new SnapshotError("data directory", `needs exactly one current edition, found ${currents.length} (${currents.map((e) => e.key).join(", ") || "none"})`);
    }
    this.current = currents[0] as Edition;
    const archived = editions.filter((edition) => !edition.isCurrent).sort((a, b) => (a.key < b.key ? 1 : -1));
    this.ordered = [this.current, ...archived];
    this.byKey = new Map(this.ordered.map((edition) => [edition.key, edition]));
    this.newestFirst = [...this.ordered].sort((a, b) => (a.key < b.key ? 1 : -1));
  }

  /** The roster entry's overall in every edition where its _id exists, newest first. */
  ratingHistory(id: string): readonly EditionRating[] {
    // A lookup per edition (a binary search of its id table): nothing is kept per player.
    const list: EditionRating[] = [];
    for (const edition of this.newestFirst) {
      const row = edition.rowById.get(id);
      if (row !== undefined) list.push({ gameVersion: edition.key, overall: edition.payload.columns.overall[row] as number });
    }
    list.forEach((entry, i) => {
      const older = list[i + 1];
      if (older) entry.delta = entry.overall - older.overall;
    });
    return list;
  }

  keys(): string[] {
    return this.ordered.map((edition) => edition.key);
  }
}

export function snapshotFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^2K\d{2}\.msgpack$/i.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** Loads every snapshot in `dir`; any refused file stops the boot with its name and reason. */
export function loadEditionSet(dir: string): EditionSet {
  const files = snapshotFiles(dir);
  if (files.length === 0) throw new SnapshotError(dir, "holds no snapshots (run npm run build-index)");
  return new EditionSet(files.map((file) => loadEdition(file)));
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

/** What a worker is handed: every edition of a set, as the supervisor loaded it once. */
export function sharedSnapshotsOf(set: EditionSet): SharedSnapshot[] {
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
  return new EditionSet(snapshots.map(({ payload, checksum, bytes }) => serving.get(checksum) ?? new Edition(payload, checksum, bytes)));
}
