// Strings stored flat: their UTF-8 bytes back to back and where each starts, so a million names
// or ids are two typed arrays in the snapshot instead of a million JS strings. A table built
// with `sorted` (byte order) can be searched without decoding anything but the answer.

export interface StringTable {
  bytes: Uint8Array;
  /** String i is bytes[offsets[i] … offsets[i + 1]). */
  offsets: Uint32Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The strings in byte order of their UTF-8 encodings (what `findString` searches by). */
export function sortUtf8(strings: readonly string[]): string[] {
  const encoded = strings.map((text) => Buffer.from(text, "utf8"));
  return strings.map((_, i) => i).sort((a, b) => Buffer.compare(encoded[a] as Buffer, encoded[b] as Buffer)).map((i) => strings[i] as string);
}

export function buildStringTable(strings: readonly string[]): StringTable {
  const encoded = strings.map((text) => Buffer.from(text, "utf8"));
  const offsets = new Uint32Array(strings.length + 1);
  let total = 0;
  encoded.forEach((bytes, i) => {
    total += bytes.length;
    offsets[i + 1] = total;
  });
  const bytes = new Uint8Array(total);
  encoded.forEach((chunk, i) => bytes.set(chunk, offsets[i] as number));
  return { bytes, offsets };
}

export function stringCount(table: StringTable): number {
  return table.offsets.length - 1;
}

export function stringAt(table: StringTable, i: number): string {
  return decoder.decode(table.bytes.subarray(table.offsets[i] as number, table.offsets[i + 1] as number));
}

/** bytes a[aStart, aStart + aLength) against b[bStart, bStart + bLength) in byte order: negative, 0 or positive. */
function compareBytes(a: Uint8Array, aStart: number, aLength: number, b: Uint8Array, bStart: number, bLength: number): number {
  const common = Math.min(aLength, bLength);
  for (let at = 0; at < common; at++) {
    const order = (a[aStart + at] as number) - (b[bStart + at] as number);
    if (order !== 0) return order;
  }
  return aLength - bLength;
}

/** String i of `a` against string j of `b` in byte order: negative, 0 or positive. */
export function compareStrings(a: StringTable, i: number, b: StringTable, j: number): number {
  const aStart = a.offsets[i] as number;
  const bStart = b.offsets[j] as number;
  return compareBytes(a.bytes, aStart, (a.offsets[i + 1] as number) - aStart, b.bytes, bStart, (b.offsets[j + 1] as number) - bStart);
}

let keyBytes = new Uint8Array(256);

/** Index of `key` in a table sorted by byte order, or -1. */
export function findString(table: StringTable, key: string): number {
  if (key.length * 3 > keyBytes.length) keyBytes = new Uint8Array(key.length * 3);
  const keyLength = encoder.encodeInto(key, keyBytes).written;
  const { bytes, offsets } = table;
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = offsets[mid] as number;
    const order = compareBytes(bytes, start, (offsets[mid + 1] as number) - start, keyBytes, 0, keyLength);
    if (order === 0) return mid;
    if (order < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** Keys → rows, stored flat: a sorted key table and the rows of key k at rows[start[k] … start[k + 1]). */
export interface RowGroups {
  keys: StringTable;
  start: Uint32Array;
  rows: Uint32Array;
}

/**
 * Groups rows by key, keys in byte order; within a key, rows in the order of `order` (every row
 * once; ascending when not given).
 */
export function buildRowGroups(keyOfRow: readonly (string | undefined)[], order?: readonly number[]): RowGroups {
  const groups = new Map<string, number[]>();
  const add = (row: number) => {
    const key = keyOfRow[row];
    if (key === undefined) return;
    const rows = groups.get(key);
    if (rows === undefined) groups.set(key, [row]);
    else rows.push(row);
  };
  if (order === undefined) for (let row = 0; row < keyOfRow.length; row++) add(row);
  else for (const row of order) add(row);
  return rowGroupsOf(groups);
}

export function rowGroupsOf(groups: ReadonlyMap<string, readonly number[]>): RowGroups {
  const keys = sortUtf8([...groups.keys()]);
  const start = new Uint32Array(keys.length + 1);
  let total = 0;
  keys.forEach((key, k) => {
    total += (groups.get(key) as readonly number[]).length;
    start[k + 1] = total;
  });
  const rows = new Uint32Array(total);
  keys.forEach((key, k) => rows.set(groups.get(key) as readonly number[], start[k] as number));
  return { keys: buildStringTable(keys), start, rows };
}

/** The rows of `key` (a fresh array, in the groups' order), or undefined when no row has it. */
export function rowsOfKey(groups: RowGroups, key: string): number[] | undefined {
  const k = findString(groups.keys, key);
  return k < 0 ? undefined : Array.from(groups.rows.subarray(groups.start[k] as number, groups.start[k + 1] as number));
}

/** A read-only map view over row groups (the shape routes used when these were Maps). */
export class RowGroupMap {
  constructor(private readonly groups: RowGroups) {}

  get(key: string): readonly number[] | undefined {
    return rowsOfKey(this.groups, key);
  }

  *keys(): IterableIterator<string> {
    const count = stringCount(this.groups.keys);
    for (let k = 0; k < count; k++) yield stringAt(this.groups.keys, k);
  }
}
