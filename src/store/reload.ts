// Hot reload of the data directory: a polled look at every snapshot's identity (inode, size,
// mtime). A changed or new file is loaded beside the serving set and swapped in whole; a file
// that is refused (corrupt, truncated, an archive whose content changed) leaves the old set
// serving and says why. A change that spans files (a new current edition, and the old current
// rewritten as an archive) is half done after the first file: the editions read so far wait,
// checked and loaded, until a later file makes the set whole (one current edition), and are
// swapped in together with it.

import { statSync } from "node:fs";
import { basename } from "node:path";
import { SnapshotError } from "./snapshot.js";
import type { Edition } from "./edition.js";
import { loadEdition } from "./derived-tables.js";
import { EditionSet, KeyedSet, loadSnapshot, snapshotFiles, type LoadedSnapshot, type SetMember, type SnapshotSet } from "./editions.js";

export type ReloadEvent =
  | { kind: "loaded"; file: string; gameVersion: string; checksum: string }
  | { kind: "refused"; file: string; reason: string };

export interface ReloadWatcher {
  /** Looks now (the poll calls this too); returns what happened. */
  check(): ReloadEvent[];
  close(): void;
}

function identity(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** How a watched set is made: what one file loads into, and the set of them. */
interface SetKind<T extends SetMember, S extends KeyedSet<T>> {
  load(file: string, maxBytes?: number): T;
  setOf(members: T[]): S;
}

const EDITIONS: SetKind<Edition, EditionSet> = { load: loadEdition, setOf: (editions) => new EditionSet(editions) };
const SNAPSHOTS: SetKind<LoadedSnapshot, SnapshotSet> = { load: loadSnapshot, setOf: (snapshots) => new KeyedSet(snapshots) };

/** Watches `dir` for a thread that serves the editions (swaps in a new EditionSet). */
export function watchDataDir(
  dir: string,
  current: () => EditionSet,
  swap: (next: EditionSet) => void,
  onEvent: (event: ReloadEvent) => void,
  intervalMs = 500,
  maxBytes?: number,
): ReloadWatcher {
  return watchSet(EDITIONS, dir, current, swap, onEvent, intervalMs, maxBytes);
}

/** Watches `dir` for the supervisor, which hands snapshots on (swaps in a new SnapshotSet, builds no Edition). */
export function watchSnapshotDir(
  dir: string,
  current: () => SnapshotSet,
  swap: (next: SnapshotSet) => void,
  onEvent: (event: ReloadEvent) => void,
  intervalMs = 500,
  maxBytes?: number,
): ReloadWatcher {
  return watchSet(SNAPSHOTS, dir, current, swap, onEvent, intervalMs, maxBytes);
}

function watchSet<T extends SetMember, S extends KeyedSet<T>>(
  kind: SetKind<T, S>,
  dir: string,
  current: () => S,
  swap: (next: S) => void,
  onEvent: (event: ReloadEvent) => void,
  intervalMs: number,
  maxBytes: number | undefined,
): ReloadWatcher {
  const seen = new Map<string, string>();
  for (const file of snapshotFiles(dir)) seen.set(file, identity(file) ?? "");
  /** Editions read and checked, not swapped in yet, by file (beyond one check only while the set is not whole). */
  const waiting = new Map<string, { edition: T; file: string }>();
  const check = (): ReloadEvent[] => {
    const events: ReloadEvent[] = [];
    let files: string[];
    try {
      files = snapshotFiles(dir);
    } catch {
      return events;
    }
    let isChanged = false;
    for (const file of files) {
      const id = identity(file);
      if (id === undefined || seen.get(file) === id) continue;
      seen.set(file, id);
      // Whatever was read of this file before is stale now, whether or not the new content loads.
      waiting.delete(file);
      try {
        const edition = kind.load(file, maxBytes);
        const serving = current().byKey.get(edition.key);
        if (serving && serving.checksum === edition.checksum) continue;
        if (serving && !serving.isCurrent) {
          throw new SnapshotError(basename(file), `${edition.key} is an archive and archives never change; keeping the edition loaded at boot`);
        }
        waiting.set(file, { edition, file: basename(file) });
        isChanged = true;
      } catch (error) {
        events.push({ kind: "refused", file: basename(file), reason: error instanceof SnapshotError ? error.reason : (error as Error).message });
      }
    }
    if (isChanged) {
      const byKey = new Map(current().byKey);
      for (const { edition } of waiting.values()) byKey.set(edition.key, edition);
      try {
        swap(kind.setOf([...byKey.values()]));
        for (const { edition, file } of waiting.values()) events.push({ kind: "loaded", file, gameVersion: edition.key, checksum: edition.checksum });
        waiting.clear();
      } catch (error) {
        // Not whole yet: what was read waits for the next change (a refusal each time something changes, never per poll).
        for (const { file } of waiting.values()) events.push({ kind: "refused", file, reason: `${(error as Error).message}; kept until the directory is consistent` });
      }
    }
    for (const event of events) onEvent(event);
    return events;
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return { check, close: () => clearInterval(timer) };
}
