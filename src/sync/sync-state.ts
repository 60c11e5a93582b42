// The sync's memory beside the snapshots (`sync-state.json`): which source it copied and, per
// edition, the ETag of each request and the checksum of the snapshot those answers produced. An
// ETag is only sent while that snapshot is still the one on disk. The server's snapshot scanner
// reads only `2Kxx.msgpack`, so this file is never taken for an edition.

import { readFileSync } from "node:fs";
import { join } from "node:path";

export const SYNC_STATE_FILE = "sync-state.json";
const FORMAT = 1;

export interface EditionState {
  /** Checksum of the snapshot file the answers below produced. */
  snapshot: string;
  /** Request path (with query) → the ETag its last 200 carried. */
  etags: Record<string, string>;
}

export interface SyncState {
  format: typeof FORMAT;
  /** The source's root address: ETags of another source are never sent. */
  source: string;
  editions: Record<string, EditionState>;
}

export function syncStatePath(dir: string): string {
  return join(dir, SYNC_STATE_FILE);
}

/**
 * The state of the last sync into `dir`. Missing is a first sync; unreadable is reported and
 * treated the same (the ETags only save transfers, they decide nothing about the data).
 */
export function readSyncState(dir: string): { state: SyncState | undefined; problem: string | undefined } {
  let text: string;
  try {
    text = readFileSync(syncStatePath(dir), "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    return { state: undefined, problem: code === "ENOENT" ? undefined : `${SYNC_STATE_FILE} cannot be read (${String(code)})` };
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isSyncState(parsed)) return { state: parsed, problem: undefined };
  } catch {
    // falls through to the report below
  }
  return { state: undefined, problem: `${SYNC_STATE_FILE} is not a sync state of format ${FORMAT}; every edition is fetched in full` };
}

export function emptySyncState(source: string): SyncState {
  return { format: FORMAT, source, editions: {} };
}

export function syncStateText(state: SyncState): string {
  const editions = Object.fromEntries(Object.entries(state.editions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ ...state, editions }, null, 2)}\n`;
}

function isSyncState(value: unknown): value is SyncState {
  if (!isObject(value) || value["format"] !== FORMAT || typeof value["source"] !== "string" || !isObject(value["editions"])) return false;
  return Object.values(value["editions"]).every((entry) =>
    isObject(entry) && typeof entry["snapshot"] === "string" && isObject(entry["etags"])
    && Object.values(entry["etags"]).every((etag) => typeof etag === "string"));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
