// The tables an edition's routes read that are derived from its columns: the profile routes'
// (store/profile-tables.ts), the nearest-profile index of `similar` (store/profile-index.ts) and
// every row's nearest profiles (store/neighbour-tables.ts), the percentile route's
// (store/percentiles.ts), the badges and zones compare writes (store/compare-tables.ts). One mechanism
// (docs/design-decisions.md#derived-tables-one-mechanism): build-index stores them in the
// snapshot, and a file written before them gets them derived here once, when the edition is
// loaded (for the server, by the supervisor before any worker sees the payload), into
// SharedArrayBuffers, so every worker thread views one copy as it views the file's. The request
// path only reads them: nothing is built lazily, per thread or per request. Every Edition made
// from a payload that may lack them (a file, a new build) is made by editionOf.

import { buildNeighbourTables, profileShapeOf, storedProfileIndexOf } from "./attribute-profile.js";
import { buildCompareTables } from "./compare-tables.js";
import { Edition } from "./edition.js";
import { buildPercentileTables } from "./percentiles.js";
import { buildColumnProfileTables, buildProfileTables } from "./profile-tables.js";
import { readSnapshot, type SnapshotPayload } from "./snapshot.js";

/** Whether the payload holds every derived table (a file build-index wrote since they exist). */
export function hasDerivedTables(payload: SnapshotPayload): boolean {
  return payload.profileTables !== undefined && payload.profileIndex !== undefined && payload.percentiles !== undefined && payload.neighbours !== undefined
    && payload.compareTables !== undefined;
}

/**
 * The Edition over `payload`, with the derived tables it lacks filled into `payload` (computed from
 * that Edition: the builders read its teams, records and sort orders). build-index calls this on
 * every new payload (so the file stores them); loading on every file, where only an older one
 * lacks them. Tables the payload has are kept as they are (views of its file).
 */
export function editionOf(payload: SnapshotPayload, checksum: string, bytes?: Uint8Array): Edition {
  const edition = new Edition(payload, checksum, bytes);
  if (!hasDerivedTables(payload)) deriveMissingTables(edition, payload);
  return edition;
}

/** A snapshot file as one thread serves it (read, checked, its derived tables complete). */
export function loadEdition(file: string, maxBytes?: number): Edition {
  const { payload, checksum, bytes } = readSnapshot(file, maxBytes);
  return editionOf(payload, checksum, bytes);
}

function deriveMissingTables(edition: Edition, payload: SnapshotPayload): void {
  if (payload.profileTables === undefined) {
    payload.profileTables = inSharedMemory(buildProfileTables(edition, buildColumnProfileTables(edition, profileShapeOf(edition))));
  }
  // The index reads the spreads (the profile tables, above), through the edition.
  if (payload.profileIndex === undefined) payload.profileIndex = inSharedMemory(storedProfileIndexOf(edition));
  // The nearest profiles are a search of the index (above) per row.
  if (payload.neighbours === undefined) payload.neighbours = inSharedMemory(buildNeighbourTables(edition));
  if (payload.percentiles === undefined) {
    payload.percentiles = inSharedMemory(buildPercentileTables(edition, payload.profileTables.groupScores, profileShapeOf(edition).groups.length));
  }
  if (payload.compareTables === undefined) payload.compareTables = inSharedMemory(buildCompareTables(edition));
}

/** `tables` with every typed array copied into a SharedArrayBuffer: posted to a worker, it is shared, not copied. */
function inSharedMemory<T extends object>(tables: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tables)) {
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      const array = value as unknown as Uint8Array;
      // A Buffer (a string table's bytes) becomes a plain Uint8Array, as the file's are read.
      const Type = (Buffer.isBuffer(array) ? Uint8Array : array.constructor) as new (buffer: SharedArrayBuffer) => Uint8Array;
      const shared = new Type(new SharedArrayBuffer(array.byteLength));
      shared.set(array);
      copy[key] = shared;
    } else {
      copy[key] = value !== null && typeof value === "object" && !Array.isArray(value) ? inSharedMemory(value) : value;
    }
  }
  return copy as T;
}
