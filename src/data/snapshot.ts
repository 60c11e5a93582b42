// The snapshot file: a fixed header (magic, format version, payload length, SHA-256 of the
// payload) followed by the payload packed with msgpackr records. Writes are atomic (temp file +
// rename); reads refuse a truncated, corrupt or unknown-version file with a message naming it.

import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync, unlinkSync } from "node:fs";
import { basename } from "node:path";
import { Packr } from "msgpackr";
import type { Era, EditionStatus } from "../model/eras.js";
import type { PlayerRecord } from "../model/player.js";

export const SNAPSHOT_FORMAT_VERSION = 1;
const MAGIC = Buffer.from("COURTSDE", "latin1");
const HEADER_BYTES = MAGIC.length + 4 + 8 + 32;

export interface SnapshotMeta {
  gameVersion: string;
  status: EditionStatus;
  capturedAt: string;
  source: string;
  playerCount: number;
  teamTypeCounts: Record<Era, number>;
  /** SHA-256 of the players alone: equal content, equal hash, whatever the build date. */
  contentHash: string;
}

export interface TeamEntry {
  teamName: string;
  slug: string;
  teamType: Era;
  logo?: string;
}

export interface SnapshotColumns {
  overall: Uint8Array;
  era: Uint8Array;
  /** Position bit mask per row (PG=1 … C=16). */
  positions: Uint8Array;
  team: Uint16Array | Uint32Array;
  /** row * ATTRIBUTE_COUNT + column; ABSENT_RATING where the player lacks the attribute. */
  attributes: Uint8Array;
  /** row * BADGE_COUNT + badge → tier code (0 none); null where the source has no badge lists. */
  badgeTiers: Uint8Array | null;
  /** Bit (tier code - 1) set when the row holds at least one badge of that tier. */
  tierMask: Uint8Array;
  /** Position of the row in name order: the tie-break of every sort. */
  nameRank: Uint32Array;
}

export interface SortOrders {
  /** Rows by (overall asc, name asc); descending walks equal-value runs backwards. */
  overall: Uint32Array;
  name: Uint32Array;
  /** One per attribute column: rows with the attribute by (value asc, name asc), then rows without. */
  attributes: Uint32Array[];
  /** How many rows have each attribute (the absent rows follow them in its order). */
  attributePresent: Uint32Array;
}

/** The current edition's weekly snapshots, columnar, oldest week first. */
export interface HistoryPayload {
  ids: string[];
  weeks: HistoryWeek[];
}

export interface HistoryWeek {
  date: string;
  /** Per id: overall that week, ABSENT_RATING when the player was not in that week. */
  overall: Uint8Array;
  /** id * ATTRIBUTE_COUNT + column. */
  attributes: Uint8Array;
  /** id * 6: total, legendary, hallOfFame, gold, silver, bronze. */
  badgeCounts: Uint8Array;
  /**
   * id * BADGE_COUNT + badge → tier code (0 none), when every player of the week came with a badge
   * list; absent otherwise (and in snapshots written before it existed).
   */
  badgeTiers?: Uint8Array;
}

export interface SnapshotPayload {
  meta: SnapshotMeta;
  /** Row order: the row id of players[i] is i. */
  players: PlayerRecord[];
  teams: TeamEntry[];
  columns: SnapshotColumns;
  sortOrders: SortOrders;
  /** Folded display names by row: what the name index is built from. */
  searchNames: string[];
  history: HistoryPayload | null;
}

export const ABSENT_RATING = 255;

const packr = new Packr({ useRecords: true, moreTypes: true });

export class SnapshotError extends Error {
  constructor(readonly file: string, readonly reason: string) {
    super(`snapshot ${file}: ${reason}`);
    this.name = "SnapshotError";
  }
}

export function encodeSnapshot(payload: SnapshotPayload): Buffer {
  const body = packr.pack(payload);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(SNAPSHOT_FORMAT_VERSION, MAGIC.length);
  header.writeBigUInt64BE(BigInt(body.length), MAGIC.length + 4);
  createHash("sha256").update(body).digest().copy(header, MAGIC.length + 12);
  return Buffer.concat([header, body]);
}

/** The payload's SHA-256 as hex: the data version of an edition. */
export function snapshotChecksum(bytes: Buffer): string {
  return bytes.subarray(MAGIC.length + 12, HEADER_BYTES).toString("hex");
}

export function decodeSnapshot(file: string, bytes: Buffer): SnapshotPayload {
  const name = basename(file);
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SnapshotError(name, "not a Courtside snapshot (bad magic or shorter than its header)");
  }
  const version = bytes.readUInt32BE(MAGIC.length);
  if (version !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(name, `format version ${version} is not the supported version ${SNAPSHOT_FORMAT_VERSION}; rebuild it with build-index`);
  }
  const length = Number(bytes.readBigUInt64BE(MAGIC.length + 4));
  const body = bytes.subarray(HEADER_BYTES);
  if (body.length !== length) {
    throw new SnapshotError(name, `truncated or padded: payload is ${body.length} bytes, header says ${length}`);
  }
  const digest = createHash("sha256").update(body).digest();
  if (!digest.equals(bytes.subarray(MAGIC.length + 12, HEADER_BYTES))) {
    throw new SnapshotError(name, "checksum mismatch: the file is corrupt");
  }
  let payload: unknown;
  try {
    payload = packr.unpack(body);
  } catch (error) {
    throw new SnapshotError(name, `payload does not decode: ${(error as Error).message}`);
  }
  assertPayloadShape(name, payload);
  return payload;
}

export function readSnapshot(file: string): { payload: SnapshotPayload; checksum: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new SnapshotError(basename(file), `cannot be read: ${(error as Error).message}`);
  }
  return { payload: decodeSnapshot(file, bytes), checksum: snapshotChecksum(bytes) };
}

/** Temp file + rename, so a reader never sees half a snapshot. */
export function writeSnapshotAtomic(file: string, payload: SnapshotPayload): Buffer {
  const bytes = encodeSnapshot(payload);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, bytes);
    renameSync(temp, file);
  } catch (error) {
    try { unlinkSync(temp); } catch { /* the temp file may never have been created */ }
    throw error;
  }
  return bytes;
}

/** The checksum guards the bytes; this guards against a payload of the right format but wrong shape. */
function assertPayloadShape(name: string, payload: unknown): asserts payload is SnapshotPayload {
  const candidate = payload as Partial<SnapshotPayload> | null;
  const n = candidate?.players?.length;
  const ok =
    n !== undefined &&
    candidate?.meta?.playerCount === n &&
    candidate.columns?.overall instanceof Uint8Array && candidate.columns.overall.length === n &&
    candidate.columns.nameRank instanceof Uint32Array && candidate.columns.nameRank.length === n &&
    candidate.sortOrders?.overall instanceof Uint32Array && candidate.sortOrders.overall.length === n &&
    Array.isArray(candidate.teams) && Array.isArray(candidate.searchNames);
  if (!ok) throw new SnapshotError(name, "payload is missing columns or its counts disagree");
}
