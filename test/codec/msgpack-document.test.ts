import t from "tap";
import { decode } from "@msgpack/msgpack";
import { measureDocument, readDocument, readFirstValue, writeDocument } from "../../src/codec/msgpack-document.js";

/** `value` written at file offset `at` of a fresh SharedArrayBuffer, as a reader would get it. */
function fileOf(value: unknown, at = 0): Buffer {
  const length = measureDocument(value, at);
  const bytes = Buffer.from(new SharedArrayBuffer(at + length));
  t.equal(writeDocument(value, bytes, at), at + length, "writes exactly what it measured");
  return bytes;
}

const tree = {
  name: "Nikola Jokić — ½",
  long: "x".repeat(300),
  counts: [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 40, -1, -32, -33, -128, -129, -32768, -32769, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 40)],
  floats: [0.5, -2.25, 1e300],
  flags: [true, false, null],
  nested: { deeper: { bytes: Uint8Array.of(1, 2, 3), empty: new Uint32Array(0) }, list: [Int32Array.of(-1, 7), { n: 1 }] },
  columns: {
    u8: Uint8Array.of(255, 0, 9), i8: Int8Array.of(-5, 5), u16: Uint16Array.of(65535, 1), i16: Int16Array.of(-300, 300),
    u32: Uint32Array.of(4e9, 3), i32: Int32Array.of(-2e9, 2e9), f32: Float32Array.of(1.5, -0.25), f64: Float64Array.of(Math.PI, -1e-300),
  },
  manyKeys: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])),
};

t.test("any tree of plain values and typed arrays round-trips, at any starting offset", async (t) => {
  for (const at of [0, 1, 3, 125]) {
    const bytes = fileOf(tree, at);
    t.same(readDocument(bytes.subarray(at)), tree, `written at ${at}`);
  }
});

t.test("typed arrays come back as views of the source buffer, each on an 8-byte boundary (byte columns are read as 32-bit words too)", async (t) => {
  const bytes = fileOf(tree, 5);
  const back = readDocument(bytes.subarray(5)) as typeof tree;
  for (const [name, column] of Object.entries(back.columns)) {
    t.equal(column.buffer, bytes.buffer, `${name} views the shared buffer`);
    t.equal(column.byteOffset % 8, 0, `${name} starts on an 8-byte boundary, whatever its element type`);
  }
  back.columns.u32[1] = 42;
  t.equal(new Uint32Array(bytes.buffer, back.columns.u32.byteOffset, 2)[1], 42, "a write through the view lands in the file's bytes: no copy");
});

t.test("another decoder reads the same document: typed arrays as { type, length, pad, data }", async (t) => {
  const bytes = fileOf(tree, 3);
  const plain = decode(bytes.subarray(3)) as Record<string, unknown>;
  t.equal(plain.name, tree.name);
  t.same(plain.counts, tree.counts);
  const u32 = (plain.columns as Record<string, { type: string; length: number; pad: Uint8Array; data: Uint8Array }>).u32!;
  t.equal(u32.type, "uint32");
  t.equal(u32.length, 2);
  t.same([...new Uint32Array(Uint8Array.from(u32.data).buffer)], [4e9, 3]);
  t.ok(u32.pad.every((byte) => byte === 0), "padding is zeros");
});

t.test("equal trees give equal bytes", async (t) => {
  t.same(fileOf(tree, 7), fileOf(structuredClone(tree), 7));
});

t.test("what has no MessagePack form is refused naming where it is", async (t) => {
  t.throws(() => measureDocument({ a: { b: new Map() } }, 0), { message: /\$\.a\.b: cannot write a Map/ });
  t.throws(() => measureDocument({ a: [1n] }, 0), { message: /\$\.a\[0\]: cannot write a bigint/ });
  t.throws(() => measureDocument({ a: new BigInt64Array(1) }, 0), { message: /\$\.a: cannot write a BigInt64Array/ });
});

t.test("a bad typed array in a file is refused", async (t) => {
  const wrongLength = fileOf({ a: { type: "uint32", length: 3, pad: new Uint8Array(0), data: "" } });
  t.same(readDocument(wrongLength), { a: { type: "uint32", length: 3, pad: new Uint8Array(0), data: "" } }, "a map whose data is no bin is only a map");
  const bytes = fileOf({ a: Uint32Array.of(1, 2) });
  bytes[bytes.indexOf(Buffer.from("uint32")) + 4] = 0x31; // uint12
  t.throws(() => readDocument(bytes), { message: /unknown element type uint12/ });
});

t.test("only the first value is read by readFirstValue", async (t) => {
  const first = fileOf({ v: 1 });
  const both = Buffer.concat([first, Buffer.of(0xc1)]); // 0xc1 is never valid MessagePack
  t.same(readFirstValue(both), { value: { v: 1 }, end: first.length });
});
