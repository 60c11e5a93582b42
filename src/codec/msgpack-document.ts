// A tree of plain objects, arrays, strings, numbers, booleans, null and typed arrays as standard
// MessagePack, with every typed array a `bin` whose bytes start on an 8-byte boundary, so a
// reader over the file's buffer makes typed-array views, never copies. Knows nothing of what a
// snapshot holds: any key, at any depth, round-trips (a new section needs no change here).
//
// A typed array is written as the map { type, length, pad, data }: `type` a numpy dtype name
// ("uint32"…), `length` its element count, `pad` 0–7 zero bytes (a bin) that put `data` on an
// 8-byte boundary of the file, `data` the elements as a bin, little-endian. Any MessagePack decoder reads it; the
// reader here (msgpackr) turns such maps back into typed arrays over the source buffer.

import { Unpackr } from "msgpackr/unpack";

type TypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
type TypedArrayConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray;

/** numpy dtype names, so a Python reader passes `type` straight to numpy.frombuffer. */
export const ELEMENT_TYPES: Readonly<Record<string, TypedArrayConstructor>> = {
  uint8: Uint8Array, int8: Int8Array, uint16: Uint16Array, int16: Int16Array,
  uint32: Uint32Array, int32: Int32Array, float32: Float32Array, float64: Float64Array,
};
const TYPE_NAME = new Map<unknown, string>(Object.entries(ELEMENT_TYPES).map(([name, Type]) => [Type, name]));
const TYPED_KEYS = ["type", "length", "pad", "data"] as const;
/** Every typed array's elements start on this boundary of the file (the widest element, float64). */
const DATA_ALIGNMENT = 8;
/** msgpack's largest bin (bin 32). */
const MAX_BIN = 2 ** 32 - 1;

const IS_LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export class DocumentError extends Error {}

function typeNameOf(value: ArrayBufferView): string | undefined {
  // Buffer and other Uint8Array subclasses are bytes too.
  return value instanceof Uint8Array ? "uint8" : TYPE_NAME.get(value.constructor);
}

/**
 * One pass over the tree, either measuring (`out` null) or writing. Offsets are absolute in the
 * file (`at` starts where the value starts), because alignment is of the file's buffer.
 */
class Writer {
  constructor(public at: number, readonly out: Buffer | null) {}

  value(value: unknown, path: string): void {
    if (value === null || value === undefined) return this.byte(0xc0);
    switch (typeof value) {
      case "boolean": return this.byte(value ? 0xc3 : 0xc2);
      case "number": return this.number(value);
      case "string": return this.string(value);
      case "object": break;
      default: throw new DocumentError(`${path}: cannot write a ${typeof value}`);
    }
    if (ArrayBuffer.isView(value)) return this.typed(value, path);
    if (Array.isArray(value)) {
      this.header(value.length, 0x90, 0xdc, 0xdd, 16);
      value.forEach((item, i) => this.value(item, `${path}[${i}]`));
      return;
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new DocumentError(`${path}: cannot write a ${(value as object).constructor.name}`);
    // As JSON does: a key whose value is undefined is left out.
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    this.header(entries.length, 0x80, 0xde, 0xdf, 16);
    for (const [key, item] of entries) {
      this.string(key);
      this.value(item, `${path}.${key}`);
    }
  }

  private typed(value: ArrayBufferView, path: string): void {
    const type = typeNameOf(value);
    if (type === undefined) throw new DocumentError(`${path}: cannot write a ${value.constructor.name}`);
    const array = value as TypedArray;
    if (array.byteLength > MAX_BIN) throw new DocumentError(`${path}: ${array.byteLength} bytes is more than a MessagePack bin holds`);
    this.header(TYPED_KEYS.length, 0x80, 0xde, 0xdf, 16);
    this.string("type");
    this.string(type);
    this.string("length");
    this.number(array.length);
    this.string("pad");
    // `pad` (bin 8: two bytes + k zeros), then the `data` key (5 bytes) and a bin 32 header
    // (5 bytes), then the elements: choose k so that they start on an 8-byte boundary, whatever
    // their type (a byte column is also read 4 rows at a time through a 32-bit view of it).
    const padding = (DATA_ALIGNMENT - ((this.at + 2 + 5 + 5) % DATA_ALIGNMENT)) % DATA_ALIGNMENT;
    this.byte(0xc4);
    this.byte(padding);
    if (this.out) this.out.fill(0, this.at, this.at + padding);
    this.at += padding;
    this.string("data");
    this.byte(0xc6);
    this.uint32(array.byteLength);
    if (this.out) this.out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), this.at);
    this.at += array.byteLength;
  }

  private number(value: number): void {
    if (!Number.isInteger(value) || Object.is(value, -0) || !Number.isSafeInteger(value)) {
      this.byte(0xcb);
      if (this.out) this.out.writeDoubleBE(value, this.at);
      this.at += 8;
    } else if (value >= 0) {
      if (value < 0x80) this.byte(value);
      else if (value <= 0xff) { this.byte(0xcc); this.byte(value); }
      else if (value <= 0xffff) { this.byte(0xcd); this.uint16(value); }
      else if (value <= 0xffffffff) { this.byte(0xce); this.uint32(value); }
      else { this.byte(0xcf); if (this.out) this.out.writeBigUInt64BE(BigInt(value), this.at); this.at += 8; }
    } else if (value >= -32) this.byte(value & 0xff);
    else if (value >= -0x80) { this.byte(0xd0); if (this.out) this.out.writeInt8(value, this.at); this.at += 1; }
    else if (value >= -0x8000) { this.byte(0xd1); if (this.out) this.out.writeInt16BE(value, this.at); this.at += 2; }
    else if (value >= -0x80000000) { this.byte(0xd2); if (this.out) this.out.writeInt32BE(value, this.at); this.at += 4; }
    else { this.byte(0xd3); if (this.out) this.out.writeBigInt64BE(BigInt(value), this.at); this.at += 8; }
  }

  private string(value: string): void {
    const length = Buffer.byteLength(value, "utf8");
    if (length < 32) this.byte(0xa0 | length);
    else if (length <= 0xff) { this.byte(0xd9); this.byte(length); }
    else this.header(length, -1, 0xda, 0xdb, 0);
    if (this.out) this.out.write(value, this.at, length, "utf8");
    this.at += length;
  }

  /** An array, map or long string header: the fix form below `fixLimit` (when it has one), else 16 or 32 bits. */
  private header(length: number, fix: number, code16: number, code32: number, fixLimit: number): void {
    if (fix >= 0 && length < fixLimit) this.byte(fix | length);
    else if (length <= 0xffff) { this.byte(code16); this.uint16(length); }
    else { this.byte(code32); this.uint32(length); }
  }

  private byte(value: number): void {
    if (this.out) this.out[this.at] = value;
    this.at += 1;
  }

  private uint16(value: number): void {
    if (this.out) this.out.writeUInt16BE(value, this.at);
    this.at += 2;
  }

  private uint32(value: number): void {
    if (this.out) this.out.writeUInt32BE(value, this.at);
    this.at += 4;
  }
}

/** How many bytes `value` takes when written at file offset `at`. */
export function measureDocument(value: unknown, at: number): number {
  assertLittleEndian();
  const writer = new Writer(at, null);
  writer.value(value, "$");
  return writer.at - at;
}

/** Writes `value` into `out` at `at` (a MessagePack value, every typed array aligned for the file offset); returns where it ends. */
export function writeDocument(value: unknown, out: Buffer, at: number): number {
  assertLittleEndian();
  const writer = new Writer(at, out);
  writer.value(value, "$");
  return writer.at;
}

function assertLittleEndian(): void {
  if (!IS_LITTLE_ENDIAN) throw new DocumentError("typed arrays are stored little-endian; this machine is big-endian");
}

/**
 * msgpackr as the reader: a `bin` comes back as a Buffer.subarray of the source (copyBuffers is
 * off), so over a Buffer made on a SharedArrayBuffer every bin is a view of that shared memory.
 * 64-bit integers come back as numbers; maps as plain objects.
 */
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: "number" });

/** The first MessagePack value of `bytes` and where it ends (only that value is read). */
export function readFirstValue(bytes: Buffer): { value: unknown; end: number } {
  let value: unknown;
  let end = -1;
  unpackr.unpackMultiple(bytes, (item: unknown, _start?: number, itemEnd?: number) => {
    value = item;
    end = itemEnd ?? -1;
    return false;
  });
  if (end < 0) throw new DocumentError("holds no MessagePack value");
  return { value, end };
}

/**
 * Decodes one MessagePack value that fills `bytes` and turns every typed-array map back into a
 * typed array viewing `bytes`' buffer. `bytes` must start on an 8-byte boundary of its buffer
 * wherever the writer's offsets did (the writer aligned to the file; pass the file's bytes).
 */
export function readDocument(bytes: Buffer): unknown {
  assertLittleEndian();
  return revive(unpackr.unpack(bytes) as unknown, "$");
}

function revive(value: unknown, path: string): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], `${path}[${i}]`);
    return value;
  }
  if (value instanceof Uint8Array) throw new DocumentError(`${path}: a bin outside a typed array`);
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && typeof record.type === "string") return typedArrayOf(record, path);
  for (const key of Object.keys(record)) record[key] = revive(record[key], `${path}.${key}`);
  return record;
}

function typedArrayOf(record: Record<string, unknown>, path: string): TypedArray {
  const { type, length, data } = record as { type: string; length: unknown; data: Uint8Array };
  const Type = ELEMENT_TYPES[type];
  if (Type === undefined) throw new DocumentError(`${path}: unknown element type ${type}`);
  const size = (Type as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  if (typeof length !== "number" || length * size !== data.byteLength) throw new DocumentError(`${path}: ${data.byteLength} bytes are not ${String(length)} ${type}`);
  if (data.byteOffset % size !== 0) throw new DocumentError(`${path}: ${type} data at byte ${data.byteOffset} is not aligned`);
  return new Type(data.buffer, data.byteOffset, length);
}
