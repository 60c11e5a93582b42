// The snapshot file, format 2: a fixed header (magic, format version, payload length, SHA-256 of
// the payload), then the payload: a small JSON directory (meta, teams, dates) in which every
// typed array of the payload is a reference to a section, then the sections, each aligned to 8
// bytes. Everything a request reads was computed at build time (columns, sort orders, JSON
// fragments, search index, lookups, weekly series), so loading is: read the bytes (into a
// SharedArrayBuffer, so worker threads can share them), check the digest, parse the directory,
// make typed-array views. No per-row objects are created.
//
// Writes are atomic (temp file + rename); reads refuse a truncated, corrupt or unknown-version
// file with a message naming it. A format-1 file (msgpackr records of full player objects) is
// refused with the command that converts it.

import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Era, EditionStatus } from "../model/eras.js";
import type { BadgeHolders } from "../store/badge-holders.js";
import type { StoredDictionary } from "../store/dictionary-column.js";
import type { RowGroups, StringTable } from "../store/string-table.js";

export const SNAPSHOT_FORMAT_VERSION = 2;
const MAGIC = Buffer.from("COURTSDE", "latin1");
const DIGEST_AT = MAGIC.length + 12;
/** Magic, version, length, digest, padded to 8 so every section is aligned in the file's buffer. */
const HEADER_BYTES = 56;
const V1_HEADER_BYTES = 52;

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
  /** The same table column-major (column * rowCount + row): what the filter kernel scans. */
  attributeColumns: Uint8Array;
  /** row * BADGE_COUNT + badge → tier code (0 none); null where the source has no badge lists. */
  badgeTiers: Uint8Array | null;
  /** The same column-major (badge * rowCount + row). */
  badgeColumns: Uint8Array | null;
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

/** Every row's JSON fragments (src/store/fragments.ts), serialised at build time. */
export interface FragmentData {
  /** FRAGMENT_LAYOUT of the slots; absent in snapshots written before CONTRACT §9 (layout 1). */
  layout?: number;
  bytes: Uint8Array;
  /** Where row r's fragments start in `bytes`, as a double (a file may pass 4 GiB of fragments one day). */
  rowStart: Float64Array;
  /** row * STRIDE + slot → start of the slot relative to the row's start; the last entry of a row is its length (16 bits unless a row passes 64 KiB). */
  slotStart: Uint16Array | Uint32Array;
  /** row * STRIDE + slot → FNV-1a of the fragment's `"field":value` bytes (without the comma), for ETags. */
  hashes: Uint32Array;
}

/** A trie over sorted, distinct tokens; node 0 is the root, a node's subtree holds the tokens [subtreeFirst, subtreeEnd). */
export interface TrieData {
  nodeChar: Uint8Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  subtreeFirst: Uint32Array;
  subtreeEnd: Uint32Array;
  tokenAtNode: Int32Array;
}

/** The name search (src/store/name-index.ts), built at build time. */
export interface SearchData extends TrieData {
  /** Folded full names → rows; `foldedOfRow[row]` is the row's key in it. */
  folded: RowGroups;
  foldedOfRow: Uint32Array;
  /** Names with hyphenated parts written together (`shai gilgeousalexander`), where that differs. */
  joined: RowGroups;
  /** Distinct name words in sorted order; rows of token t are postingRows[postingStart[t] … postingStart[t + 1]). */
  postingStart: Uint32Array;
  postingRows: Uint32Array;
  // …and the trie over those tokens (TrieData).
}

/** Rows by id, by slug and by the slug of the name alone. */
export interface LookupData {
  ids: RowGroups;
  slugs: RowGroups;
  nameSlugs: RowGroups;
}

/** The current edition's weekly snapshots, columnar, oldest week first. */
export interface HistoryPayload {
  /** Player ids of the weekly series, sorted. */
  ids: StringTable;
  /** Per row of the edition: its index in `ids`, -1 when it has no weeks. */
  indexOfRow: Int32Array;
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
  teams: TeamEntry[];
  columns: SnapshotColumns;
  sortOrders: SortOrders;
  fragments: FragmentData;
  search: SearchData;
  lookups: LookupData;
  /** Archetype and college as dictionary-coded columns (the `archetype` and `college` filters). */
  dictionaries: { archetype: StoredDictionary; college: StoredDictionary };
  /** Holders of every badge, best tier first (src/store/badge-holders.ts); null without badge lists. */
  badgeHolders: BadgeHolders | null;
  history: HistoryPayload | null;
}

export const ABSENT_RATING = 255;

export const UPGRADE_COMMAND = "npm run build-index -- --upgrade DIR";

export class SnapshotError extends Error {
  constructor(readonly file: string, readonly reason: string) {
    super(`snapshot ${file}: ${reason}`);
    this.name = "SnapshotError";
  }
}

type Section = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
const SECTION_TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f64: Float64Array } as const;
type SectionType = keyof typeof SECTION_TYPES;
/** How a typed array appears in the directory JSON. */
interface SectionRef { $section: number }

function sectionTypeOf(value: unknown): SectionType | undefined {
  if (value instanceof Uint8Array) return "u8";
  if (value instanceof Uint16Array) return "u16";
  if (value instanceof Uint32Array) return "u32";
  if (value instanceof Int32Array) return "i32";
  if (value instanceof Float64Array) return "f64";
  return undefined;
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

export function encodeSnapshot(payload: SnapshotPayload): Buffer {
  const sections: Section[] = [];
  const table: [SectionType, number, number][] = [];
  const tree = JSON.stringify(payload, (_key, value: unknown) => {
    const type = sectionTypeOf(value);
    if (type === undefined) return value;
    sections.push(value as Section);
    return { $section: sections.length - 1 } satisfies SectionRef;
  });
  // Section offsets are relative to the payload; the directory's own length is not known until
  // they are, and they depend on it: lay out with a length bound, then pad the directory to it.
  let at = 0;
  const place = (start: number) => {
    at = start;
    table.length = 0;
    for (const section of sections) {
      table.push([sectionTypeOf(section) as SectionType, at, section.length]);
      at = align8(at + section.byteLength);
    }
  };
  let directory = Buffer.from(JSON.stringify({ tree, sections: table }));
  let start = align8(4 + directory.length);
  for (;;) {
    place(start);
    directory = Buffer.from(JSON.stringify({ tree, sections: table }));
    if (align8(4 + directory.length) <= start) break;
    start = align8(4 + directory.length) + 64;
  }
  const bodyLength = at;
  const bytes = Buffer.alloc(HEADER_BYTES + bodyLength);
  const body = bytes.subarray(HEADER_BYTES);
  body.writeUInt32BE(directory.length, 0);
  directory.copy(body, 4);
  body.fill(0x20, 4 + directory.length, start);
  sections.forEach((section, i) => {
    body.set(new Uint8Array(section.buffer, section.byteOffset, section.byteLength), (table[i] as [SectionType, number, number])[1]);
  });
  MAGIC.copy(bytes, 0);
  bytes.writeUInt32BE(SNAPSHOT_FORMAT_VERSION, MAGIC.length);
  bytes.writeBigUInt64BE(BigInt(bodyLength), MAGIC.length + 4);
  digestOf(body).copy(bytes, DIGEST_AT);
  return bytes;
}

/** SHA-256 in pieces: one update takes at most 2 GiB, and a million-player payload is more. */
function digestOf(body: Uint8Array): Buffer {
  const hash = createHash("sha256");
  for (let at = 0; at < body.length; at += 1 << 30) hash.update(body.subarray(at, Math.min(body.length, at + (1 << 30))));
  return hash.digest();
}

/** The payload's SHA-256 as hex: the data version of an edition. */
export function snapshotChecksum(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + DIGEST_AT, 32).toString("hex");
}

/**
 * Checks a file's bytes (header, length, digest) and returns the payload as views into them.
 * The views share `bytes`' buffer: a SharedArrayBuffer handed to a worker stays one copy.
 * `isVerified`: these very bytes were checked already (by the supervisor, before it shared them),
 * so the digest is not computed again.
 */
export function decodeSnapshot(file: string, bytes: Uint8Array, options: { isVerified?: boolean } = {}): SnapshotPayload {
  const name = basename(file);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < V1_HEADER_BYTES || !view.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SnapshotError(name, "not a Courtside snapshot (bad magic or shorter than its header)");
  }
  const version = view.readUInt32BE(MAGIC.length);
  if (version === 1) {
    throw new SnapshotError(name, `format version 1 is no longer read (this version reads format ${SNAPSHOT_FORMAT_VERSION}); convert the data directory with \`${UPGRADE_COMMAND.replace("DIR", dirname(file) || ".")}\``);
  }
  if (version !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(name, `format version ${version} is not the supported version ${SNAPSHOT_FORMAT_VERSION}; rebuild it with build-index`);
  }
  const length = Number(view.readBigUInt64BE(MAGIC.length + 4));
  const bodyLength = Math.max(0, view.length - HEADER_BYTES);
  if (bodyLength !== length) {
    throw new SnapshotError(name, `truncated or padded: payload is ${bodyLength} bytes, header says ${length}`);
  }
  const body = view.subarray(HEADER_BYTES);
  if (options.isVerified !== true && !digestOf(body).equals(view.subarray(DIGEST_AT, DIGEST_AT + 32))) {
    throw new SnapshotError(name, "checksum mismatch: the file is corrupt");
  }
  // Views need their element alignment: copy once if the caller's bytes are not 8-aligned.
  const base = body.byteOffset % 8 === 0 ? body : Buffer.from(body);
  let payload: unknown;
  try {
    const directoryLength = base.readUInt32BE(0);
    const { tree, sections } = JSON.parse(base.toString("utf8", 4, 4 + directoryLength)) as { tree: string; sections: [SectionType, number, number][] };
    payload = JSON.parse(tree, (_key, value: unknown) => {
      const ref = value as Partial<SectionRef> | null;
      if (ref === null || typeof ref !== "object" || typeof ref.$section !== "number") return value;
      const entry = sections[ref.$section];
      const Type = entry && SECTION_TYPES[entry[0]];
      if (!entry || !Type) throw new Error(`unknown section ${ref.$section}`);
      return new Type(base.buffer as ArrayBuffer, base.byteOffset + entry[1], entry[2]);
    });
  } catch (error) {
    throw new SnapshotError(name, `payload does not decode: ${(error as Error).message}`);
  }
  assertPayloadShape(name, payload);
  return payload;
}

/**
 * A snapshot file's bytes in a SharedArrayBuffer (one read, no copy): the buffer the supervisor
 * hands to every worker. Not checked here; decodeSnapshot checks.
 */
export function readSnapshotBytes(file: string): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, Math.min(size - at, 1 << 30), at);
      if (read === 0) break;
      at += read;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } catch (error) {
    throw new SnapshotError(basename(file), `cannot be read: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function readSnapshot(file: string): { payload: SnapshotPayload; checksum: string; bytes: Uint8Array } {
  const bytes = readSnapshotBytes(file);
  return { payload: decodeSnapshot(file, bytes), checksum: snapshotChecksum(bytes), bytes };
}

/** The format version a file declares (0 when it is not a snapshot at all). */
export function snapshotVersionOf(bytes: Uint8Array): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < V1_HEADER_BYTES || !view.subarray(0, MAGIC.length).equals(MAGIC)) return 0;
  return view.readUInt32BE(MAGIC.length);
}

/** Temp file + rename, so a reader never sees half a snapshot. */
export function writeSnapshotAtomic(file: string, payload: SnapshotPayload): Buffer {
  const bytes = encodeSnapshot(payload);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    // In pieces: one write takes at most 2 GiB, and a million-player snapshot is more.
    const fd = openSync(temp, "w");
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, Math.min(bytes.length - at, 1 << 30));
    } finally {
      closeSync(fd);
    }
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
  const n = candidate?.meta?.playerCount;
  const ok =
    typeof n === "number" &&
    candidate?.columns?.overall instanceof Uint8Array && candidate.columns.overall.length === n &&
    candidate.columns.nameRank instanceof Uint32Array && candidate.columns.nameRank.length === n &&
    candidate.columns.attributeColumns instanceof Uint8Array &&
    candidate.sortOrders?.overall instanceof Uint32Array && candidate.sortOrders.overall.length === n &&
    candidate.fragments?.rowStart instanceof Float64Array && candidate.fragments.rowStart.length === n + 1 &&
    candidate.search?.foldedOfRow instanceof Uint32Array && candidate.search.foldedOfRow.length === n &&
    candidate.lookups?.ids?.rows instanceof Uint32Array && candidate.lookups.ids.rows.length === n &&
    Array.isArray(candidate.teams);
  if (!ok) throw new SnapshotError(name, "payload is missing columns or its counts disagree");
}
