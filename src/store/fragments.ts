// Per-record JSON fragments, serialised once at build time into the snapshot (buildFragments):
// a page is a copy of byte ranges, never a JSON.stringify of fresh objects (http/fragment-body.ts
// writes every answer made of rows). Each fragment also has a fingerprint (`hashes`), stored by
// every file since format 1; answers no longer fold them (an ETag is folded from the answer's cache
// key: fragment-body.ts), so nothing reads them now. The one record a detail route needs is parsed
// back from its fragments (recordJson).

import { EXTRA_FIELDS_BIT, FIELD_BIT, PLAYER_FIELDS, type PlayerField, type PlayerRecord } from "../model/player.js";
import { hashBytes } from "./hash.js";

const BADGES_FIELD = PLAYER_FIELDS.indexOf("badges");
const GAME_VERSION_BIT = FIELD_BIT.gameVersion;
/**
 * Physical slots of a row: the fields before badges keep their index; badges is two slots,
 * `,"badges":{…counts, list` and `}`; then the fields after badges (hot zones among them: the
 * hosted service's rows carry them where it has them); then the pass-through fields (one slot,
 * `,"a":…,"b":…`); then `,"top":[…]`, which a versioned row copies between the two badges
 * slots. So the unversioned and versioned badges share the list's bytes (most of a row), and an
 * unversioned full row is still one copy.
 */
const BADGES_OPEN_SLOT = BADGES_FIELD;
const BADGES_CLOSE_SLOT = BADGES_FIELD + 1;
const EXTRA_SLOT = PLAYER_FIELDS.length + 1;
const TOP_SLOT = PLAYER_FIELDS.length + 2;
const SLOTS = PLAYER_FIELDS.length + 3;
/** The slot of a field other than badges. */
const slotOfField = (field: number) => (field < BADGES_FIELD ? field : field + 1);
/** Per row: where each slot starts, plus where the row ends. */
const STRIDE = SLOTS + 1;

/**
 * The slot layout by name, derived from the field list like the constants above: what a row's
 * fragments are, slot after slot. A snapshot records it (FragmentData.layout) and the loader
 * refuses a file whose layout differs (src/store/snapshot.ts), so a field added to the list never
 * serves an older file's rows shifted by a slot.
 */
export const FRAGMENT_LAYOUT: readonly string[] = fragmentLayoutOf(PLAYER_FIELDS);

/** The slot layout of a field list (with its badges split in two, then the pass-through fields and `top`), as the constants above lay it out. */
export function fragmentLayoutOf(fields: readonly string[]): string[] {
  const badges = fields.indexOf("badges");
  return [...fields.slice(0, badges), "badges", "badges:close", ...fields.slice(badges + 1), "extra", "badges:top"];
}

const FIELD_PREFIXES: readonly string[] = PLAYER_FIELDS.map((field) => `,${JSON.stringify(field)}:`);

export interface RowShape {
  fieldMask: number;
  /** Versioned rows carry badges with `top`, and `gameVersion` whatever `fields` says. */
  isVersioned: boolean;
}

/** A field selection in slot terms: the slots in wire order, and the same as runs of adjacent slots (copied in one go). */
interface SlotPlan {
  readonly slots: readonly number[];
  /** [firstSlot, endSlot) pairs, flattened, in wire order. */
  readonly runs: readonly number[];
}

/** Every row's JSON fragments as a snapshot stores them, serialised at build time (buildFragments). */
export interface FragmentData {
  bytes: Uint8Array;
  /** Where row r's fragments start in `bytes`, as a double (a file may pass 4 GiB of fragments one day). */
  rowStart: Float64Array;
  /** row * STRIDE + slot → start of the slot relative to the row's start; the last entry of a row is its length (16 bits unless a row passes 64 KiB). */
  slotStart: Uint16Array | Uint32Array;
  /** row * STRIDE + slot → FNV-1a of the fragment's `"field":value` bytes (without the comma); stored, no longer read (see above). */
  hashes: Uint32Array;
  /**
   * The slot layout the file was written with (FRAGMENT_LAYOUT then), checked at load. Files
   * written before it was recorded lack it: they were all written with the layout of 23 fields
   * that FRAGMENT_LAYOUT still is, and are read as such.
   */
  layout?: readonly string[];
}

/** Serialises every row's fragments (build time): one UTF-8 write per row into a growing buffer. */
export function buildFragments(players: readonly PlayerRecord[]): FragmentData {
  const n = players.length;
  const rowStart = new Float64Array(n + 1);
  let slotStart: Uint16Array | Uint32Array = new Uint16Array(n * STRIDE);
  const hashes = new Uint32Array(n * STRIDE);
  let bytes = Buffer.allocUnsafe(1024 * 1024);
  let used = 0;
  for (let row = 0; row < n; row++) {
    const player = players[row] as PlayerRecord;
    const { top, ...unversioned } = player.badges;
    const badgesJson = JSON.stringify(unversioned);
    const fragments: string[] = [];
    for (let field = 0; field < PLAYER_FIELDS.length; field++) {
      if (field === BADGES_FIELD) {
        fragments.push(`${FIELD_PREFIXES[field] as string}${badgesJson.slice(0, -1)}`, "}");
        continue;
      }
      const value = player[PLAYER_FIELDS[field] as PlayerField];
      fragments.push(value === undefined ? "" : `${FIELD_PREFIXES[field] as string}${JSON.stringify(value)}`);
    }
    let extra = "";
    for (const [name, value] of Object.entries(player.extra ?? {})) if (value !== undefined) extra += `,${JSON.stringify(name)}:${JSON.stringify(value)}`;
    fragments.push(extra);
    // The versioned badges are the unversioned object with `top` last.
    fragments.push(top === undefined ? "" : `${badgesJson.length > 2 ? "," : ""}"top":${JSON.stringify(top)}`);
    const text = fragments.join("");
    // A UTF-16 code unit never takes more than 3 bytes in UTF-8.
    if (used + text.length * 3 > bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, used + text.length * 3));
      bytes.copy(grown, 0, 0, used);
      bytes = grown;
    }
    rowStart[row] = used;
    // The byte budget is explicit: with the default (the rest of the buffer), a buffer past 2 GiB
    // makes Node's write see a length over 2^31 and write nothing, which built a 1,000,000-player
    // snapshot whose last ~70,000 rows were empty.
    const written = bytes.write(text, used, text.length * 3, "utf8");
    // UTF-8 is never shorter than the UTF-16 it encodes: fewer bytes means the write was cut.
    if (written < text.length) throw new RangeError(`row ${row}: wrote ${written} of ${text.length}+ bytes at offset ${used}`);
    const isAscii = written === text.length;
    const base = row * STRIDE;
    // Offsets within a row fit 16 bits unless a row passes 64 KiB: then the table widens once.
    if (written > 0xffff && slotStart instanceof Uint16Array) slotStart = Uint32Array.from(slotStart);
    let at = 0;
    for (let slot = 0; slot < SLOTS; slot++) {
      const fragment = fragments[slot] as string;
      slotStart[base + slot] = at;
      // All ASCII (the common case): byte lengths are string lengths.
      const size = isAscii ? fragment.length : Buffer.byteLength(fragment, "utf8");
      // The leading comma is not part of a fragment's fingerprint (the closing brace has none).
      const skip = size > 0 && fragment.charCodeAt(0) === 0x2c ? 1 : 0;
      hashes[base + slot] = hashBytes(bytes, used + at + skip, used + at + size);
      at += size;
    }
    slotStart[base + SLOTS] = at;
    used += written;
  }
  rowStart[n] = used;
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, used), rowStart, slotStart, hashes, layout: [...FRAGMENT_LAYOUT] };
}

export class RecordFragments {
  /**
   * Every fragment is stored as `,"field":value` (empty when the field is absent), slot after
   * slot. The leading comma is the separator: a row is `{` + its selected fragments with the very
   * first comma dropped + `}`, so adjacent selected slots are one copy and a full row is a single
   * copy instead of seventeen (measured: per-fragment copies were two thirds of render time).
   */
  private readonly bytes: Buffer;
  private readonly rowStart: Float64Array;
  /** row * STRIDE + slot → start relative to the row's start; slot SLOTS holds the row's length. */
  private readonly starts: Uint16Array | Uint32Array;
  constructor(data: FragmentData) {
    this.bytes = Buffer.from(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength);
    this.rowStart = data.rowStart;
    this.starts = data.slotStart;
  }

  /** The byte length of `[row,row,…]` in `shape` (what `writeRun` writes). */
  runLength(rows: ArrayLike<number>, shape: RowShape): number {
    const plan = this.planOf(shape);
    let length = 2 + Math.max(0, rows.length - 1);
    for (let i = 0; i < rows.length; i++) length += this.planLength(rows[i] as number, plan);
    return length;
  }

  /** Writes `[row,row,…]` in `shape` into `target` at `at` (room for `runLength` bytes); returns where it ends. */
  writeRun(rows: ArrayLike<number>, shape: RowShape, target: Buffer, at: number): number {
    const plan = this.planOf(shape);
    target[at++] = 0x5b; // [
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) target[at++] = 0x2c; // ,
      at = this.writePlan(rows[i] as number, plan, target, at);
    }
    target[at++] = 0x5d; // ]
    return at;
  }

  /** The byte length of the row's object `{…}` in `shape` (what `writeRow` writes). */
  rowLength(row: number, shape: RowShape): number {
    return this.planLength(row, this.planOf(shape));
  }

  /** Writes the row's object `{…}` in `shape` into `target` at `at` (room for `rowLength` bytes); returns where it ends. */
  writeRow(row: number, shape: RowShape, target: Buffer, at: number): number {
    return this.writePlan(row, this.planOf(shape), target, at);
  }

  private planLength(row: number, { runs }: SlotPlan): number {
    const { starts } = this;
    const base = row * STRIDE;
    let size = 0;
    for (let r = 0; r < runs.length; r += 2) size += (starts[base + (runs[r + 1] as number)] as number) - (starts[base + (runs[r] as number)] as number);
    // Braces, minus the first fragment's comma.
    return size === 0 ? 2 : size + 1;
  }

  private writePlan(row: number, { runs }: SlotPlan, body: Buffer, at: number): number {
    const { bytes, rowStart, starts } = this;
    const origin = rowStart[row] as number;
    const base = row * STRIDE;
    body[at++] = 0x7b; // {
    // The first byte written in a row is a fragment's leading comma: skip that one byte.
    let skip = 1;
    for (let r = 0; r < runs.length; r += 2) {
      const start = starts[base + (runs[r] as number)] as number;
      const end = starts[base + (runs[r + 1] as number)] as number;
      if (start === end) continue;
      at += bytes.copy(body, at, origin + start + skip, origin + end);
      skip = 0;
    }
    body[at++] = 0x7d; // }
    return at;
  }

  /**
   * The JSON text of one field's value as stored (`"Nikola Jokić"`, `["PG","SG"]`), or undefined
   * where the row lacks the field: what a route copies into an answer, or decodes (Edition.field)
   * when it needs the value, instead of reading the whole record. Not badges (two slots: rowJson).
   */
  valueJson(row: number, field: PlayerField): string | undefined {
    const index = PLAYER_FIELDS.indexOf(field);
    if (index === BADGES_FIELD) throw new RangeError("valueJson reads one slot: badges are two (read them with rowJson)");
    const origin = this.rowStart[row] as number;
    const slot = row * STRIDE + slotOfField(index);
    const start = this.starts[slot] as number;
    const end = this.starts[slot + 1] as number;
    if (start === end) return undefined;
    // `,"field":` is ASCII: its byte length is its string length.
    return this.bytes.toString("utf8", origin + start + (FIELD_PREFIXES[index] as string).length, origin + end);
  }

  /** One row as a JSON object string, for routes that add fields (hot zones, history) around it. */
  rowJson(row: number, shape: RowShape): string {
    const target = Buffer.allocUnsafe(this.rowLength(row, shape));
    return target.toString("utf8", 0, this.writeRow(row, shape, target, 0));
  }

  /** The row's full record as JSON (every field, badges with `top`, pass-through fields under `extra`): what Edition.record parses. */
  recordJson(row: number): string {
    const origin = this.rowStart[row] as number;
    const base = row * STRIDE;
    const slice = (from: number, to: number) =>
      this.bytes.toString("utf8", origin + (this.starts[base + from] as number), origin + (this.starts[base + to] as number));
    const extra = slice(EXTRA_SLOT, EXTRA_SLOT + 1);
    const text = slice(0, BADGES_CLOSE_SLOT) + slice(TOP_SLOT, TOP_SLOT + 1) + slice(BADGES_CLOSE_SLOT, EXTRA_SLOT)
      + (extra === "" ? "" : `,"extra":{${extra.slice(1)}}`);
    return `{${text.slice(1)}}`;
  }

  private readonly planCache = new Map<number, SlotPlan>();
  private planOf(shape: RowShape): SlotPlan {
    const key = shape.fieldMask * 2 + (shape.isVersioned ? 1 : 0);
    let plan = this.planCache.get(key);
    if (!plan) {
      const slots: number[] = [];
      const fieldMask = shape.isVersioned ? shape.fieldMask | GAME_VERSION_BIT : shape.fieldMask;
      for (let field = 0; field < PLAYER_FIELDS.length; field++) {
        if ((fieldMask & (1 << field)) === 0) continue;
        if (field === BADGES_FIELD) slots.push(...(shape.isVersioned ? [BADGES_OPEN_SLOT, TOP_SLOT, BADGES_CLOSE_SLOT] : [BADGES_OPEN_SLOT, BADGES_CLOSE_SLOT]));
        else slots.push(slotOfField(field));
      }
      if ((fieldMask & EXTRA_FIELDS_BIT) !== 0) slots.push(EXTRA_SLOT);
      const runs: number[] = [];
      for (const slot of slots) {
        if (runs.length > 0 && runs[runs.length - 1] === slot) runs[runs.length - 1] = slot + 1;
        else runs.push(slot, slot + 1);
      }
      plan = { slots, runs };
      this.planCache.set(key, plan);
    }
    return plan;
  }
}
