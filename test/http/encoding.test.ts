import t from "tap";
import { chooseEncoding, compressedHead, withTail } from "../../src/http/encoding.js";

t.test("Accept-Encoding: br before gzip, q=0 refuses, * accepts both, answers stay the same when asked again", async (t) => {
  const cases: [string, string][] = [
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br; q=0.0, gzip;q=0", "identity"],
    ["*", "br"],
    ["deflate", "identity"],
    ["GZIP;Q=1", "gzip"],
  ];
  for (let round = 0; round < 3; round++) {
    for (const [header, expected] of cases) t.equal(chooseEncoding(header), expected, `${JSON.stringify(header)} (round ${round})`);
  }
});

t.test("many distinct or very long values are still parsed right (the memo of recent values is bounded)", async (t) => {
  for (let i = 0; i < 1000; i++) {
    const header = i % 2 === 0 ? `gzip;q=0.5, coding-${i}` : `br;q=0, coding-${i}`;
    t.equal(chooseEncoding(header), i % 2 === 0 ? "gzip" : "identity", header);
  }
  t.equal(chooseEncoding(`${"x".repeat(5000)}, br`), "br", "a 5,000-character value");
  t.equal(chooseEncoding(`${"x".repeat(5000)}, br;q=0`), "identity");
  t.equal(chooseEncoding("gzip, deflate, br"), "br", "a common value after the memo was cleared");
});

t.test("a kept compressed head with a tail appended decodes to head and tail in each encoding, up to the largest tail", async (t) => {
  const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
  const { spawnSync } = await import("node:child_process");
  const head = Buffer.from(JSON.stringify({ rows: Array.from({ length: 400 }, (_, i) => ({ i, name: `player ${i}`, ü: "é" })) }).slice(0, -1));
  for (const size of [1, 2, 300, 65_535]) {
    const tail = Buffer.from(`,"tail":"${"x".repeat(Math.max(0, size - 11))}"}`.slice(-size));
    const reply = withTail(compressedHead(head), tail);
    const whole = Buffer.concat([head, tail]);
    t.ok(reply.body.equals(whole), `${size}-byte tail: the identity body`);
    t.ok(brotliDecompressSync(reply.encoded!.br!).equals(whole), `${size}-byte tail: Brotli`);
    t.ok(gunzipSync(reply.encoded!.gzip!).equals(whole), `${size}-byte tail: gzip`);
    // Another decoder than zlib's own: Python's gzip module reads the stored block and the trailer's CRC and length.
    const python = spawnSync("python3", ["-c", "import gzip,sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))"], { input: reply.encoded!.gzip!, maxBuffer: 1 << 24 });
    t.ok(python.status === 0 && python.stdout.equals(whole), `${size}-byte tail: gzip as Python reads it`);
  }
  t.throws(() => withTail(compressedHead(head), Buffer.alloc(0)), RangeError, "an empty tail");
  t.throws(() => withTail(compressedHead(head), Buffer.alloc(65_536)), RangeError, "a tail past one stored block");
});
