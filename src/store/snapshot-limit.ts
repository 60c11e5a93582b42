// How large a snapshot file may be before it is refused unread: MAX_SNAPSHOT_MB (serve's
// --max-snapshot-mb), read by every command that reads snapshots (serve, build-index, sync), with
// a default well under the machine's memory. Apart from snapshot.ts so the commands parse it
// without loading the codec.

import { totalmem } from "node:os";

const MIB = 1024 ** 2;
/** The default never passes this, however large the machine (the 1,000,000-player scale edition is 3 GiB). */
const DEFAULT_CEILING_BYTES = 8 * 1024 ** 3;
export const MAX_SNAPSHOT_MB_LIMIT = 1_048_576;

/**
 * A quarter of the memory this process may use (the machine's, or its cgroup's when smaller), at
 * most 8 GiB: a reload holds an edition's old and new bytes at once, beside everything else.
 */
export function defaultMaxSnapshotBytes(memoryBytes: number): number {
  return Math.min(DEFAULT_CEILING_BYTES, Math.floor(memoryBytes / 4 / MIB) * MIB);
}

function availableMemoryBytes(): number {
  // process.constrainedMemory is a cgroup's limit; Node 20 answers 2^64 (and later versions 0) when there is none.
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 && constrained < totalmem() ? constrained : totalmem();
}

export const DEFAULT_MAX_SNAPSHOT_BYTES = defaultMaxSnapshotBytes(availableMemoryBytes());

/** MAX_SNAPSHOT_MB as given (a whole number of MiB), else the default, in bytes; a RangeError names what is wrong. */
export function maxSnapshotBytesOf(text: string | undefined): number {
  if (text === undefined || text === "") return DEFAULT_MAX_SNAPSHOT_BYTES;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > MAX_SNAPSHOT_MB_LIMIT) {
    throw new RangeError(`MAX_SNAPSHOT_MB must be a whole number of MiB from 1 to ${MAX_SNAPSHOT_MB_LIMIT}, not ${text}`);
  }
  return value * MIB;
}
