import t, { type Test } from "tap";
import { closeSync, ftruncateSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { decodeSnapshot, encodeSnapshot, maxPayloadBytes, readSnapshot, readSnapshotBytes } from "../../src/store/snapshot.js";
import { DEFAULT_MAX_SNAPSHOT_BYTES, defaultMaxSnapshotBytes } from "../../src/store/snapshot-limit.js";
import { snapshotFileName, writeEdition } from "../../src/pipeline/build-edition.js";
import { startService } from "../../src/app/service.js";
import { loadEdition } from "../../src/store/derived-tables.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { encodeSnapshotV1 } from "../fixtures/snapshot-v1-writer.js";
import { encodeSnapshotV2 } from "../fixtures/snapshot-v2-writer.js";

t.test("a 1 GiB sparse file is refused before it is read", async (t) => {
  const dir = t.testdir();
  const file = join(dir, "2K27.msgpack");
  const fd = openSync(file, "w");
  ftruncateSync(fd, 1024 ** 3);
  closeSync(fd);
  const before = process.memoryUsage().arrayBuffers;
  t.throws(() => readSnapshotBytes(file), /does not start with a snapshot header; refused before reading it/);
  t.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024, "nothing the size of the file was allocated");
});

t.test("a snapshot whose header declares another length than the file has is refused before it is read", async (t) => {
  const dir = t.testdir();
  const source = randomEdition(50, 3);
  writeEdition(dir, source, "2026-11-20");
  const file = snapshotFileName(dir, source.gameVersion);
  const bytes = readFileSync(file);
  t.equal(readSnapshotBytes(file).length, bytes.length, "the file as written reads");
  writeFileSync(file, bytes.subarray(0, bytes.length - 10));
  t.throws(() => readSnapshotBytes(file), /its header declares \d+ bytes but the file has \d+; refused before reading it/);
  const fd = openSync(file, "r+");
  ftruncateSync(fd, 512 * 1024 ** 2);
  closeSync(fd);
  t.throws(() => readSnapshotBytes(file), /refused before reading it/, "a file grown past its header's length too");
});

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** `bytes` at the start of a sparse file of `size` bytes, with the 64-bit length at `lengthAt` (big-endian) set to `size - headerEnd`: a copied real header claiming the whole file. */
function forgeWholeFileLength(file: string, bytes: Buffer, size: number, lengthAt: number, headerEnd: number): void {
  const forged = Buffer.from(bytes);
  forged.writeBigUInt64BE(BigInt(size - headerEnd), lengthAt);
  writeFileSync(file, forged);
  const fd = openSync(file, "r+");
  ftruncateSync(fd, size);
  closeSync(fd);
}

/** What a refusal cost: it must not have allocated anything the size of the file. */
function measureRefusal(t: Test, read: () => unknown, reason: RegExp, label: string): void {
  const before = process.memoryUsage();
  t.throws(read, reason, label);
  const after = process.memoryUsage();
  t.ok(after.arrayBuffers - before.arrayBuffers < 64 * MIB && after.rss - before.rss < 256 * MIB,
    `${label}: nothing the size of the file was allocated (buffers +${((after.arrayBuffers - before.arrayBuffers) / MIB).toFixed(1)} MiB, resident +${((after.rss - before.rss) / MIB).toFixed(1)} MiB)`);
}

t.test("a copied real header declaring the whole of a 3 GiB file is refused from its player count, before the file is read", async (t) => {
  const dir = t.testdir();
  const source = randomEdition(50, 3);
  writeEdition(dir, source, "2026-11-20");
  const file = snapshotFileName(dir, source.gameVersion);
  const real = readFileSync(file);
  // The format-3 header: its "length" is the uint 64 (0xcf) after the key "length"; the payload starts after the 64 hex digits of sha256.
  const lengthAt = real.indexOf(Buffer.from("\xa6length\xcf", "latin1")) + 8;
  const headerEnd = real.indexOf(Buffer.from("\xa6sha256", "latin1")) + 7 + 2 + 64;
  forgeWholeFileLength(file, real, 3 * GIB, lengthAt, headerEnd);
  measureRefusal(t, () => readSnapshotBytes(file), /its header declares a payload of \d+ bytes, more than the \d+ bytes a payload of 50 players may be \(64 MiB \+ 256 KiB a player\); refused before reading it/, "format 3");
  measureRefusal(t, () => loadEdition(file), /more than the \d+ bytes a payload of 50 players may be/, "the server's load");
});

t.test("MAX_SNAPSHOT_MB bounds every read by the file's size alone, whatever its header says", async (t) => {
  const dir = t.testdir();
  const source = randomEdition(50, 4);
  writeEdition(dir, source, "2026-11-20");
  const file = snapshotFileName(dir, source.gameVersion);
  const size = statSync(file).size;
  t.equal(readSnapshotBytes(file, size).length, size, "a file exactly at the maximum is read");
  t.throws(() => readSnapshotBytes(file, size - 1), new RegExp(`it is ${size} bytes, over the ${size - 1}-byte maximum for a snapshot \\(MAX_SNAPSHOT_MB=\\d+; raise it if an edition is really this large\\); refused before reading it`));
  const fd = openSync(file, "r+");
  ftruncateSync(fd, 3 * GIB);
  closeSync(fd);
  measureRefusal(t, () => readSnapshotBytes(file, GIB), /it is 3221225472 bytes, over the 1073741824-byte maximum/, "a 3 GiB file under a 1 GiB maximum");

  const served = t.testdir();
  writeEdition(served, randomEdition(700, 4), "2026-11-20");
  t.ok(statSync(snapshotFileName(served, source.gameVersion)).size > MIB, "a snapshot over 1 MiB");
  const config = loadConfig([], { DATA_DIR: served, KEYS_FILE: join(served, "keys.json"), MAX_SNAPSHOT_MB: "1", PORT: "0", HOST: "127.0.0.1" });
  t.equal(config.maxSnapshotBytes, MIB);
  await t.rejects(startService(config), /over the 1048576-byte maximum for a snapshot \(MAX_SNAPSHOT_MB=1;/, "the service refuses to boot on it, naming the variable");
  t.throws(() => loadConfig(["--max-snapshot-mb", "0"], {}), /MAX_SNAPSHOT_MB must be a whole number of MiB from 1 to 1048576, not 0/);
  t.throws(() => loadConfig([], { MAX_SNAPSHOT_MB: "2G" }), /not 2G/);
  t.equal(loadConfig([], {}).maxSnapshotBytes, DEFAULT_MAX_SNAPSHOT_BYTES);
  t.equal(defaultMaxSnapshotBytes(24 * GIB), 6 * GIB, "a quarter of the memory");
  t.equal(defaultMaxSnapshotBytes(2 * GIB), 512 * MIB);
  t.equal(defaultMaxSnapshotBytes(256 * GIB), 8 * GIB, "at most 8 GiB");
});

t.test("formats 1 and 2: the declared length is checked against the file before it is read, and format 2's against its player count", async (t) => {
  const source = randomEdition(50, 5);
  for (const [version, encode, headerEnd] of [[1, encodeSnapshotV1, 52], [2, encodeSnapshotV2, 56]] as const) {
    const dir = t.testdir();
    const file = join(dir, "2K27.msgpack");
    const real = encode(source);
    writeFileSync(file, real);
    t.equal(readSnapshotBytes(file).length, real.length, `format ${version}: a real file reads (for the upgrade)`);
    writeFileSync(file, real.subarray(0, real.length - 10));
    t.throws(() => readSnapshotBytes(file), /it is truncated: its header declares \d+ bytes but the file has \d+; refused before reading it/, `format ${version}: truncated`);
    forgeWholeFileLength(file, real, 3 * GIB, 12, headerEnd);
    measureRefusal(t, () => readSnapshot(file), new RegExp(`format version ${version} is no longer read .*--upgrade .*; refused before reading it`), `format ${version} on the serving path`);
    if (version === 2) {
      measureRefusal(t, () => readSnapshotBytes(file), /its header declares a payload of \d+ bytes, more than the \d+ bytes a payload of 50 players may be/, "format 2 for the upgrade");
    } else {
      // Format 1's records cannot be read in part: its size against the maximum is what bounds it.
      measureRefusal(t, () => readSnapshotBytes(file, GIB), /over the 1073741824-byte maximum/, "format 1 for the upgrade");
    }
  }
});

t.test("the writer never writes what a reader would refuse as implausible", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(5, 6));
  t.equal(maxPayloadBytes(5), 64 * MIB + 5 * 256 * 1024);
  const bloated = { ...payload, meta: { ...payload.meta, playerCount: 0 }, fragments: { ...payload.fragments, bytes: new Uint8Array(65 * MIB) } };
  t.throws(() => encodeSnapshot(bloated), /its payload would be \d+ bytes, more than the 67108864 bytes a payload of 0 players may be \(64 MiB \+ 256 KiB a player\): .*not written/);
  const { meta, ...sections } = payload;
  const shuffled = { ...sections, meta };
  t.equal(decodeSnapshot("x.msgpack", encodeSnapshot(shuffled)).meta.playerCount, 5, "meta is written first whatever the payload's key order");
});
