// The snapshot file, format 3: standard MessagePack that any decoder reads whole. Two values
// back to back: a header map (format name, format version, byte order, payload length, SHA-256
// of the payload as hex), then the payload map: meta, teams and dictionaries as ordinary maps,
// arrays and strings, and every typed array (columns, sort orders, fragments, search arrays,
// lookups, weekly series) as a map of its element type, length and a `bin` of its elements,
// aligned in the file for its element type (src/codec/msgpack-document.ts, which knows nothing of
// the sections: a new key in the payload needs no change to the format). Each section's shape is
// its structure's own (fragments.ts, name-index.ts, weekly-series.ts, edition-tables.ts, …): this
// module assembles them into one payload and owns only the file around it. Everything a request
// reads was computed at build time, so loading is: read the bytes (into a SharedArrayBuffer, so
// worker threads can share them), check the digest, decode the payload with msgpackr, whose bins
// are views of those bytes, and make typed-array views over them. No per-row objects are created.
//
// Writes are atomic (temp file + rename); reads refuse a truncated, corrupt or unknown-version
// file with a message naming it. A format-1 or format-2 file (before the file was MessagePack
// throughout) is refused with the command that converts it (snapshot-v1.ts and snapshot-v2.ts
// read them for that conversion). A file whose fragments were written with another slot layout
// than this version's (FRAGMENT_LAYOUT, derived from the player field list) is refused, naming
// both layouts: its rows would otherwise be served shifted by a slot.
//
// What a read costs is bounded by what the file can be, before it is read: its size (a stat)
// against MAX_SNAPSHOT_MB, the length its header declares against that size, and that length
// against its player count (at most PAYLOAD_BASE_BYTES + MAX_PAYLOAD_BYTES_PER_PLAYER a player,
// which the writer refuses to pass, so no file a builder wrote is ever refused for it).

import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import { REGISTRY_CATALOGUE, type StoredCatalogue } from "../model/catalogue.js";
import type { Era, EditionStatus } from "../model/eras.js";
import { measureDocument, readDocument, readFirstValue, writeDocument } from "../codec/msgpack-document.js";
import type { BadgeHolders } from "./badge-holders.js";
import type { StoredDictionary } from "./dictionary-column.js";
import type { LookupData, SnapshotColumns, SortOrders, TeamEntry } from "./edition-tables.js";
import { FRAGMENT_LAYOUT, type FragmentData } from "./fragments.js";
import type { SearchData } from "./name-index.js";
import type { StoredProfileIndex } from "./profile-index.js";
import { isProfileTablesShape, type StoredProfileTables } from "./profile-tables.js";
import { isPercentileTablesShape, type StoredPercentiles } from "./percentile-tables.js";
import { isNeighbourTablesShape, type StoredNeighbours } from "./neighbour-tables.js";
import { isCompareTablesShape, type StoredCompareTables } from "./compare-tables.js";
import type { HistoryPayload } from "./weekly-series.js";
import { DEFAULT_MAX_SNAPSHOT_BYTES } from "./snapshot-limit.js";

export const SNAPSHOT_FORMAT_VERSION = 3;
/** What the header's `format` says, so a MessagePack file of something else is not mistaken for a snapshot. */
export const SNAPSHOT_FORMAT_NAME = "courtside-snapshot";
/** Formats 1 and 2 began with these bytes, then a 32-bit big-endian version, the payload length (64 bits) and its SHA-256. */
const OLD_MAGIC = Buffer.from("COURTSDE", "latin1");
const OLD_HEADER_BYTES_V1 = OLD_MAGIC.length + 4 + 8 + 32;
/** Format 2 padded its header to 56 bytes, so its sections start 8-aligned. */
const OLD_HEADER_BYTES_V2 = 56;

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

export interface SnapshotPayload {
  meta: SnapshotMeta;
  /** The edition's attribute keys and badges, in column order: the widths of its attribute and badge tables. */
  catalogue: StoredCatalogue;
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
  /**
   * The nearest-profile index of `similar` (src/store/profile-index.ts), built offline; absent in
   * files written before it existed (derived once at load then: src/store/derived-tables.ts).
   */
  profileIndex?: StoredProfileIndex;
  /**
   * What the profile routes read (src/store/profile-tables.ts: spreads, standardised gaps, group
   * scores, team profiles), built offline; absent in files written before it existed (derived
   * once at load then: src/store/derived-tables.ts).
   */
  profileTables?: StoredProfileTables;
  /**
   * What the percentile route reads (src/store/percentile-tables.ts: every cohort kind's sorted runs,
   * each row's primary position), built offline; absent in files written before it existed
   * (derived once at load then: src/store/derived-tables.ts).
   */
  percentiles?: StoredPercentiles;
  /**
   * Every row's nearest profiles in the scopes `similar` is mostly asked for (src/store/neighbour-tables.ts),
   * built offline; absent in files written before it existed (derived once at load then:
   * src/store/derived-tables.ts).
   */
  neighbours?: StoredNeighbours;
  /**
   * The badges each row holds and its hot zones as compare writes them (src/store/compare-tables.ts),
   * built offline; absent in files written before it existed (derived once at load then:
   * src/store/derived-tables.ts).
   */
  compareTables?: StoredCompareTables;
}

/**
 * A payload as an Edition serves it: every derived table present, the file's own or, for a file
 * written before them, derived once at load (src/store/derived-tables.ts). The request path reads
 * these and never builds them (docs/design-decisions.md#derived-tables-one-mechanism).
 */
export interface LoadedPayload extends SnapshotPayload {
  profileIndex: StoredProfileIndex;
  profileTables: StoredProfileTables;
  percentiles: StoredPercentiles;
  neighbours: StoredNeighbours;
  compareTables: StoredCompareTables;
}

export const UPGRADE_COMMAND = "npm run build-index -- --upgrade DIR";

export class SnapshotError extends Error {
  constructor(readonly file: string, readonly reason: string) {
    super(`snapshot ${file}: ${reason}`);
    this.name = "SnapshotError";
  }
}

/**
 * The header map, always the same size: 0x85 (a map of five), then "format", "version",
 * "byteOrder", "length" (always a uint 64), "sha256" (always a str 8 of 64 hex digits).
 */
function headerOf(payloadLength: number, digestHex: string): Buffer {
  const parts: Buffer[] = [Buffer.of(0x85)];
  const str = (text: string) => parts.push(Buffer.concat([text.length < 32 ? Buffer.of(0xa0 | text.length) : Buffer.of(0xd9, text.length), Buffer.from(text, "latin1")]));
  str("format");
  str(SNAPSHOT_FORMAT_NAME);
  str("version");
  parts.push(Buffer.of(SNAPSHOT_FORMAT_VERSION));
  str("byteOrder");
  str("little");
  str("length");
  const length = Buffer.alloc(9);
  length[0] = 0xcf;
  length.writeBigUInt64BE(BigInt(payloadLength), 1);
  parts.push(length);
  str("sha256");
  str(digestHex);
  return Buffer.concat(parts);
}

const HEADER_BYTES = headerOf(0, "0".repeat(64)).length;
/** Enough to hold any header this or a later version writes; only the first value is read from it. */
const HEADER_READ_LIMIT = 4096;
/** The payload's meta (its first value) is looked for in this much of the file, then twice as much, up to META_READ_LIMIT. */
const META_READ_START = 64 * 1024;
const META_READ_LIMIT = 16 * 1024 ** 2;

/**
 * A payload holds at most PAYLOAD_BASE_BYTES plus this much a player: ~80 times what real editions
 * take (the 1,000,000-player scale edition is 3.2 KB a player; a year of weekly history adds ~5 KB).
 */
export const MAX_PAYLOAD_BYTES_PER_PLAYER = 256 * 1024;
export const PAYLOAD_BASE_BYTES = 64 * 1024 ** 2;

/** The most a payload of `playerCount` players may be: larger is refused by the writer, and unread by a reader. */
export function maxPayloadBytes(playerCount: number): number {
  return PAYLOAD_BASE_BYTES + playerCount * MAX_PAYLOAD_BYTES_PER_PLAYER;
}

function describeMaxPayload(playerCount: number): string {
  return `${maxPayloadBytes(playerCount)} bytes a payload of ${playerCount} players may be (${PAYLOAD_BASE_BYTES / 1024 ** 2} MiB + ${MAX_PAYLOAD_BYTES_PER_PLAYER / 1024} KiB a player)`;
}

export function encodeSnapshot(given: SnapshotPayload): Buffer {
  // Meta first, always: a reader finds the player count there without reading the rest.
  const { meta, ...sections } = given;
  const payload: SnapshotPayload = { meta, ...sections };
  // The payload's typed arrays are aligned for their offsets in the file, after the header.
  const payloadLength = measureDocument(payload, HEADER_BYTES);
  const { playerCount } = payload.meta;
  if (payloadLength > maxPayloadBytes(playerCount)) {
    throw new SnapshotError(`${payload.meta.gameVersion}.msgpack`, `its payload would be ${payloadLength} bytes, more than the ${describeMaxPayload(playerCount)}: its rows carry far more than any real edition's; not written`);
  }
  const bytes = Buffer.allocUnsafe(HEADER_BYTES + payloadLength);
  const end = writeDocument(payload, bytes, HEADER_BYTES);
  if (end !== bytes.length) throw new Error(`snapshot writer: measured ${bytes.length} bytes, wrote ${end}`);
  headerOf(payloadLength, digestOf(bytes.subarray(HEADER_BYTES)).toString("hex")).copy(bytes, 0);
  return bytes;
}

/** SHA-256 in pieces: one update takes at most 2 GiB, and a million-player payload is more. */
function digestOf(body: Uint8Array): Buffer {
  const hash = createHash("sha256");
  for (let at = 0; at < body.length; at += 1 << 30) hash.update(body.subarray(at, Math.min(body.length, at + (1 << 30))));
  return hash.digest();
}

interface SnapshotHeader {
  version: number;
  length: number;
  sha256: string;
  /** Where the payload starts. */
  end: number;
}

/** The header of a format-3 (or later) file; undefined when `bytes` do not start with one. */
function headerOfBytes(view: Buffer): SnapshotHeader | undefined {
  // A MessagePack map of 1–15 entries: what every header starts with (formats 1 and 2 start with `C`).
  if (view.length === 0 || (view[0] as number) < 0x81 || (view[0] as number) > 0x8f) return undefined;
  let first: { value: unknown; end: number };
  try {
    first = readFirstValue(view.subarray(0, Math.min(view.length, HEADER_READ_LIMIT)));
  } catch {
    return undefined;
  }
  const header = first.value as Partial<Record<string, unknown>> | null;
  if (header === null || typeof header !== "object" || header.format !== SNAPSHOT_FORMAT_NAME || typeof header.version !== "number") return undefined;
  return {
    version: header.version,
    length: typeof header.length === "number" ? header.length : -1,
    sha256: typeof header.sha256 === "string" ? header.sha256 : "",
    end: first.end,
  };
}

/** The payload's SHA-256 as hex: the data version of an edition. */
export function snapshotChecksum(bytes: Uint8Array): string {
  return headerOfBytes(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))?.sha256 ?? "";
}

/**
 * Checks a file's bytes (header, length, digest) and returns the payload as views into them.
 * The views share `bytes`' buffer: a SharedArrayBuffer handed to a worker stays one copy.
 */
export function decodeSnapshot(file: string, bytes: Uint8Array): SnapshotPayload {
  const name = basename(file);
  let view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const oldVersion = oldFormatVersionOf(view);
  if (oldVersion !== undefined) throw new SnapshotError(name, oldFormatRefusal(oldVersion, dirname(file)));
  const header = headerOfBytes(view);
  if (header === undefined) throw new SnapshotError(name, "not a Courtside snapshot (no snapshot header: not MessagePack, or shorter than its header)");
  if (header.version !== SNAPSHOT_FORMAT_VERSION) {
    throw new SnapshotError(name, `format version ${header.version} is not the supported version ${SNAPSHOT_FORMAT_VERSION}; rebuild it with build-index`);
  }
  const bodyLength = view.length - header.end;
  if (bodyLength !== header.length) {
    throw new SnapshotError(name, `truncated or padded: payload is ${bodyLength} bytes, header says ${header.length}`);
  }
  if (digestOf(view.subarray(header.end)).toString("hex") !== header.sha256) {
    throw new SnapshotError(name, "checksum mismatch: the file is corrupt");
  }
  // The writer aligned every typed array for its offset in the file: views need the file's first
  // byte on an 8-byte boundary of its buffer. Copy once if the caller's bytes are not.
  if (view.byteOffset % 8 !== 0) view = Buffer.from(view);
  let payload: unknown;
  try {
    payload = readDocument(view.subarray(header.end));
  } catch (error) {
    throw new SnapshotError(name, `payload does not decode: ${(error as Error).message}`);
  }
  // Format-3 files written before catalogues were stored held the registry's columns.
  if (typeof payload === "object" && payload !== null) (payload as { catalogue?: StoredCatalogue }).catalogue ??= REGISTRY_CATALOGUE.stored();
  assertPayloadShape(name, payload);
  assertFragmentLayout(name, payload.fragments.layout);
  return payload;
}

/**
 * The fragments' slot layout must be this version's: slots are found by index, so a file written
 * with another field list would serve every row shifted. A file without a recorded layout was
 * written before layouts were recorded, all of them with the layout FRAGMENT_LAYOUT still is, so
 * it is read as written with it. `expected` is for tests that play a later version.
 */
export function assertFragmentLayout(name: string, layout: unknown, expected: readonly string[] = FRAGMENT_LAYOUT): void {
  if (layout !== undefined && !(Array.isArray(layout) && layout.every((slot) => typeof slot === "string"))) {
    throw new SnapshotError(name, "its fragment layout is not a list of slot names");
  }
  const recorded: readonly string[] = layout ?? FRAGMENT_LAYOUT;
  if (recorded.length === expected.length && recorded.every((slot, i) => slot === expected[i])) return;
  throw new SnapshotError(name, `its fragment layout differs from this version's, so its rows cannot be read: the file has ${describeLayout(recorded)}, this version reads ${describeLayout(expected)}; rebuild it with build-index`);
}

function describeLayout(layout: readonly string[]): string {
  return `${layout.length} slots [${layout.join(", ")}]`;
}

/** The version a format-1 or format-2 file declares; undefined when `view` does not start like one. */
function oldFormatVersionOf(view: Buffer): number | undefined {
  return view.length >= OLD_MAGIC.length + 4 && view.subarray(0, OLD_MAGIC.length).equals(OLD_MAGIC) ? view.readUInt32BE(OLD_MAGIC.length) : undefined;
}

/**
 * A snapshot file's bytes in a SharedArrayBuffer (one read, no copy), whatever its format (1, 2 or
 * 3: the upgrade reads them all). Before the read, only its size and its first bytes are looked at
 * (refusalBeforeReading): a 3 GiB sparse file with a copied header costs a stat and 68 KiB.
 * Everything else is checked by the format's decoder.
 */
export function readSnapshotBytes(file: string, maxBytes = DEFAULT_MAX_SNAPSHOT_BYTES): Uint8Array {
  return readChecked(file, maxBytes, true);
}

function readChecked(file: string, maxBytes: number, isOldFormatRead: boolean): Uint8Array {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    const refusal = refusalBeforeReading(fd, size, maxBytes, isOldFormatRead, dirname(file));
    if (refusal !== undefined) throw new SnapshotError(basename(file), refusal);
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, Math.min(size - at, 1 << 30), at);
      if (read === 0) break;
      at += read;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(basename(file), `cannot be read: ${(error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Bytes `from` … `from + length` of the file (fewer at its end). */
function readAt(fd: number, from: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let at = 0;
  while (at < length) {
    const read = readSync(fd, bytes, at, length - at, from + at);
    if (read === 0) break;
    at += read;
  }
  return bytes.subarray(0, at);
}

/**
 * Why a file of `size` bytes must not be read whole, from its size and first bytes alone (each
 * reason ends "refused before reading it"); undefined when it may be. Formats 1 and 2 are only
 * read to be upgraded: elsewhere they are refused here with the command that converts them.
 */
function refusalBeforeReading(fd: number, size: number, maxBytes: number, isOldFormatRead: boolean, dir: string): string | undefined {
  const unread = (reason: string): string => `${reason}; refused before reading it`;
  if (size > maxBytes) {
    return unread(`it is ${size} bytes, over the ${maxBytes}-byte maximum for a snapshot (MAX_SNAPSHOT_MB=${Math.floor(maxBytes / 1024 ** 2)}; raise it if an edition is really this large)`);
  }
  const head = readAt(fd, 0, Math.min(size, HEADER_READ_LIMIT));
  const oldVersion = oldFormatVersionOf(head);
  if (oldVersion !== undefined) {
    if (!isOldFormatRead) return unread(oldFormatRefusal(oldVersion, dir));
    return oldFormatRefusalBeforeReading(fd, head, oldVersion, size);
  }
  const header = headerOfBytes(head);
  if (header === undefined) return unread("it does not start with a snapshot header");
  if (header.version !== SNAPSHOT_FORMAT_VERSION) return unread(oldFormatRefusal(header.version, dir));
  if (header.length < 0) return unread("its header declares no payload length");
  const declared = header.end + header.length;
  if (declared !== size) return unread(`${declared > size ? "it is truncated: " : ""}its header declares ${declared} bytes but the file has ${size}`);
  const playerCount = playerCountAt(fd, header.end, size);
  if (playerCount === undefined) return unread(`its payload does not start with its meta and player count (within its first ${META_READ_LIMIT} bytes)`);
  if (header.length > maxPayloadBytes(playerCount)) return unread(`its header declares a payload of ${header.length} bytes, more than the ${describeMaxPayload(playerCount)}`);
  return undefined;
}

/** The meta's playerCount of a format-3 payload starting at `start` (the writer puts meta first); undefined when it is not there. */
function playerCountAt(fd: number, start: number, size: number): number | undefined {
  const available = size - start;
  for (let window = Math.min(META_READ_START, available); ; window = Math.min(2 * window, available, META_READ_LIMIT)) {
    const meta = metaOf(readAt(fd, start, window));
    if (meta === undefined) return undefined;
    if (meta !== "more") {
      const count = meta["playerCount"];
      return typeof count === "number" && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
    }
    if (window >= available || window >= META_READ_LIMIT) return undefined;
  }
}

/** The value under the payload map's first key when that key is `meta`; "more" when `bytes` stop inside it. */
function metaOf(bytes: Buffer): Record<string, unknown> | "more" | undefined {
  // A map header (fixmap, map 16, map 32), then the key "meta" as a fixstr.
  const first = bytes[0];
  const keyAt = first === undefined ? -1 : first >= 0x81 && first <= 0x8f ? 1 : first === 0xde ? 3 : first === 0xdf ? 5 : -1;
  if (keyAt < 0) return bytes.length === 0 ? "more" : undefined;
  const key = Buffer.from("\xa4meta", "latin1");
  if (bytes.length < keyAt + key.length) return "more";
  if (!bytes.subarray(keyAt, keyAt + key.length).equals(key)) return undefined;
  try {
    const { value } = readFirstValue(bytes.subarray(keyAt + key.length));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
  } catch {
    // msgpackr cannot tell a value cut by the window from a corrupt one: a larger window decides.
    return "more";
  }
}

/** Why a file of another format version is not read: for formats 1 and 2, the command that converts them. */
function oldFormatRefusal(version: number, dir: string): string {
  if (version === 1 || version === 2) {
    return `format version ${version} is no longer read (this version reads format ${SNAPSHOT_FORMAT_VERSION}); convert the data directory with \`${UPGRADE_COMMAND.replace("DIR", dir || ".")}\``;
  }
  return `format version ${version} is not the supported version ${SNAPSHOT_FORMAT_VERSION}; rebuild it with build-index`;
}

/**
 * A format-1 or format-2 file about to be upgraded: `COURTSDE`, the version, the payload length
 * (64 bits), its SHA-256, then for format 2 padding to 56 bytes. The length must be the file's,
 * and for format 2 plausible for the player count its JSON directory states (format 1's records
 * cannot be read in part, so its size and length are what bound it).
 */
function oldFormatRefusalBeforeReading(fd: number, head: Buffer, version: number, size: number): string | undefined {
  const unread = (reason: string): string => `${reason}; refused before reading it`;
  const headerBytes = version === 1 ? OLD_HEADER_BYTES_V1 : version === 2 ? OLD_HEADER_BYTES_V2 : undefined;
  if (headerBytes === undefined) return undefined;
  if (head.length < headerBytes) return unread(`it is shorter than a format-${version} header`);
  const length = Number(head.readBigUInt64BE(OLD_MAGIC.length + 4));
  if (headerBytes + length !== size) return unread(`${headerBytes + length > size ? "it is truncated: " : ""}its header declares ${headerBytes + length} bytes but the file has ${size}`);
  if (version !== 2 || size < headerBytes + 4) return undefined;
  const directoryLength = readAt(fd, headerBytes, 4).readUInt32BE(0);
  if (directoryLength > Math.min(length - 4, META_READ_LIMIT)) return unread(`its directory declares ${directoryLength} bytes, more than its payload or ${META_READ_LIMIT} bytes`);
  let playerCount: unknown;
  try {
    const { tree } = JSON.parse(readAt(fd, headerBytes + 4, directoryLength).toString("utf8")) as { tree: string };
    playerCount = (JSON.parse(tree) as { meta?: { playerCount?: unknown } }).meta?.playerCount;
  } catch {
    return unread("its directory is not the JSON format 2 wrote");
  }
  if (typeof playerCount !== "number" || !Number.isSafeInteger(playerCount) || playerCount < 0) return unread("its directory states no player count");
  if (length > maxPayloadBytes(playerCount)) return unread(`its header declares a payload of ${length} bytes, more than the ${describeMaxPayload(playerCount)}`);
  return undefined;
}

/** A format-3 snapshot read and checked (a file of another format is refused before it is read). */
export function readSnapshot(file: string, maxBytes = DEFAULT_MAX_SNAPSHOT_BYTES): { payload: SnapshotPayload; checksum: string; bytes: Uint8Array } {
  const bytes = readChecked(file, maxBytes, false);
  return { payload: decodeSnapshot(file, bytes), checksum: snapshotChecksum(bytes), bytes };
}

/** The format version a file declares (0 when it is not a snapshot at all). */
export function snapshotVersionOf(bytes: Uint8Array): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return oldFormatVersionOf(view) ?? headerOfBytes(view)?.version ?? 0;
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
    Array.isArray(candidate.catalogue?.attributes) && Array.isArray(candidate.catalogue.badges) &&
    candidate.columns.attributeColumns instanceof Uint8Array && candidate.columns.attributeColumns.length === n * candidate.catalogue.attributes.length &&
    (candidate.columns.badgeTiers === null || (candidate.columns.badgeTiers instanceof Uint8Array && candidate.columns.badgeTiers.length === n * candidate.catalogue.badges.length)) &&
    candidate.sortOrders?.overall instanceof Uint32Array && candidate.sortOrders.overall.length === n &&
    candidate.fragments?.rowStart instanceof Float64Array && candidate.fragments.rowStart.length === n + 1 &&
    candidate.search?.foldedOfRow instanceof Uint32Array && candidate.search.foldedOfRow.length === n &&
    candidate.lookups?.ids?.rows instanceof Uint32Array && candidate.lookups.ids.rows.length === n &&
    (candidate.profileIndex === undefined || (candidate.profileIndex.rows instanceof Uint32Array && candidate.profileIndex.nodeStart instanceof Uint32Array &&
      candidate.profileIndex.rootOfEra instanceof Int32Array && candidate.profileIndex.boxLow instanceof Float32Array)) &&
    (candidate.profileTables === undefined || isProfileTablesShape(candidate.profileTables, n, candidate.catalogue.attributes.length, Array.isArray(candidate.teams) ? candidate.teams.length : -1)) &&
    (candidate.percentiles === undefined || isPercentileTablesShape(candidate.percentiles, n, candidate.catalogue.attributes.length)) &&
    (candidate.neighbours === undefined || isNeighbourTablesShape(candidate.neighbours, n)) &&
    (candidate.compareTables === undefined || isCompareTablesShape(candidate.compareTables, n)) &&
    Array.isArray(candidate.teams);
  if (!ok) throw new SnapshotError(name, "payload is missing columns or its counts disagree");
}
