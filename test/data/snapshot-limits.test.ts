import t from "tap";
import { closeSync, ftruncateSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSnapshotBytes } from "../../src/data/snapshot.js";
import { snapshotFileName, writeEdition } from "../../src/data/build-edition.js";
import { randomEdition } from "../fixtures/random-edition.js";

t.test("a 1 GiB sparse file is refused before it is read", async (t) => {
  const dir = t.testdir();
  const file = join(dir, "2K27.msgpack");
  const fd = openSync(file, "w");
  ftruncateSync(fd, 1024 ** 3);
  closeSync(fd);
  const before = process.memoryUsage().arrayBuffers;
  const started = performance.now();
  t.throws(() => readSnapshotBytes(file), /does not start with a snapshot header; refused before reading it/);
  t.ok(performance.now() - started < 500, `refused in ${(performance.now() - started).toFixed(1)} ms`);
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
