// Formats 1 and 2 → 3: an old file (written by the frozen writers, test/fixtures/snapshot-v1-writer.ts
// and snapshot-v2-writer.ts) is refused with the command that converts it; `build-index --upgrade DIR`
// reads every old snapshot of the directory back into its edition and rebuilds it in format 3 with
// the same content, archives and weekly history included; a format-3 file written before a derived
// table (the nearest-profile lists) gets it stored, the same bytes a new build stores.

import t from "tap";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBuildIndex } from "../../src/pipeline/build-index-cli.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { carryHistoryForward } from "../../src/pipeline/build-edition.js";
import { SnapshotError, readSnapshot, writeSnapshotAtomic } from "../../src/store/snapshot.js";
import { Edition } from "../../src/store/edition.js";
import { loadEdition } from "../../src/store/derived-tables.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { encodeSnapshotV1 } from "../fixtures/snapshot-v1-writer.js";
import { encodeSnapshotV2 } from "../fixtures/snapshot-v2-writer.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { recordsOf } from "../fixtures/records.js";

function quietIo() {
  const lines: string[] = [];
  return { io: { env: {}, stderr: { write: (text: string) => lines.push(text), isTTY: false } as unknown as NodeJS.WriteStream }, lines };
}

const current = randomEdition(120, 31);
const currentWithWeeks = { ...current, history: carryHistoryForward(carryHistoryForward([], { ...current, players: current.players.map((p) => ({ ...p, overall: Math.max(40, p.overall - 3) })) }, "2026-11-02"), current, "2026-11-09") };
const archived = { ...randomEdition(80, 32, "archived"), gameVersion: "2K26" };

const WRITERS = [[1, encodeSnapshotV1], [2, encodeSnapshotV2]] as const;

for (const [version, encode] of WRITERS) {
  t.test(`a format-${version} file is refused with the command that converts it`, async (t) => {
    const dir = t.testdir({});
    writeFileSync(join(dir, "2K27.msgpack"), encode(currentWithWeeks));
    let refusal: unknown;
    try {
      loadEdition(join(dir, "2K27.msgpack"));
    } catch (error) {
      refusal = error;
    }
    t.ok(refusal instanceof SnapshotError);
    const message = (refusal as Error).message;
    t.match(message, /2K27\.msgpack/);
    t.match(message, new RegExp(`format version ${version} is no longer read`));
    t.ok(message.includes(`npm run build-index -- --upgrade ${dir}`), message);
    t.throws(() => loadEditionSet(dir), /--upgrade/, "boot stops on it too");
  });

  t.test(`--upgrade rebuilds every format-${version} snapshot as format 3 with the same content, archives and weeks included`, async (t) => {
    const dir = t.testdir({});
    writeFileSync(join(dir, "2K27.msgpack"), encode(currentWithWeeks));
    writeFileSync(join(dir, "2K26.msgpack"), encode(archived));
    const { io, lines } = quietIo();
    t.equal(runBuildIndex(["--upgrade", dir], io), 0, lines.join(""));
    t.match(lines.join(""), /2 upgraded/);
    t.match(lines.join(""), new RegExp(`from format ${version} to format 3`));
    const set = loadEditionSet(dir);
    for (const [source, key] of [[currentWithWeeks, "2K27"], [archived, "2K26"]] as const) {
      const upgraded = set.byKey.get(key)!;
      const direct = new Edition(buildSnapshotPayload(source), "direct");
      t.same(upgraded.payload.meta, direct.payload.meta, `${key}: same meta (content hash included)`);
      t.same(recordsOf(upgraded), recordsOf(direct), `${key}: same records`);
      t.same(Buffer.from(upgraded.payload.fragments.bytes), Buffer.from(direct.payload.fragments.bytes), `${key}: same rendered bytes`);
    }
    const weeks = set.current.payload.history!.weeks;
    t.same(weeks.map((week) => week.date), ["2026-11-02", "2026-11-09"], "the weekly history survives");
    const direct = buildSnapshotPayload(currentWithWeeks).history!;
    t.same(weeks.map((week) => [...week.overall]), direct.weeks.map((week) => [...week.overall]));
    t.same(weeks.map((week) => [...week.attributes]), direct.weeks.map((week) => [...week.attributes]));

    const again = quietIo();
    const before = readFileSync(join(dir, "2K27.msgpack"));
    t.equal(runBuildIndex(["--upgrade", dir], again.io), 0);
    t.match(again.lines.join(""), /already format 3/);
    t.same(readFileSync(join(dir, "2K27.msgpack")), before, "a format-3 file is left as it is");
  });
}

t.test("--upgrade refuses a format-2 file whose rows do not read back to its content hash, and leaves it", async (t) => {
  const dir = t.testdir({});
  const bytes = encodeSnapshotV2(archived);
  // A different stored content hash, the file's digest made right again: only the row check can see it.
  const at = bytes.indexOf(Buffer.from('"contentHash\\":\\"'));
  t.ok(at > 0);
  const hashAt = at + '"contentHash\\":\\"'.length;
  bytes[hashAt] = bytes[hashAt] === 0x30 ? 0x31 : 0x30;
  createHash("sha256").update(bytes.subarray(56)).digest().copy(bytes, 20);
  writeFileSync(join(dir, "2K26.msgpack"), bytes);
  const { io, lines } = quietIo();
  t.equal(runBuildIndex(["--upgrade", dir], io), 1);
  t.match(lines.join(""), /refused .*2K26\.msgpack: its rows do not read back to the content hash/);
  t.same(readFileSync(join(dir, "2K26.msgpack")), bytes, "left as it was");
});

t.test("--upgrade refuses what it cannot convert and says so", async (t) => {
  const dir = t.testdir({ "2K25.msgpack": "not a snapshot" });
  const { io, lines } = quietIo();
  t.equal(runBuildIndex(["--upgrade", dir], io), 1);
  t.match(lines.join(""), /refused .*2K25\.msgpack/);
  const empty = t.testdir({});
  t.equal(runBuildIndex(["--upgrade", empty], quietIo().io), 1);
  t.equal(runBuildIndex(["--upgrade", dir, "--scale", "5"], quietIo().io), 2);
});

t.test("--upgrade stores the derived tables a format-3 file was written without (the nearest-profile lists, compare's tables), as a new build does", async (t) => {
  const dir = t.testdir({});
  const built = buildSnapshotPayload(current);
  const { neighbours, compareTables, ...older } = built;
  writeSnapshotAtomic(join(dir, "2K27.msgpack"), older);
  t.equal(readSnapshot(join(dir, "2K27.msgpack")).payload.neighbours, undefined, "written without the lists");
  t.equal(readSnapshot(join(dir, "2K27.msgpack")).payload.compareTables, undefined, "written without compare's tables");
  const { io, lines } = quietIo();
  t.equal(runBuildIndex(["--upgrade", dir], io), 0, lines.join(""));
  t.match(lines.join(""), /derived tables stored/);
  const stored = readSnapshot(join(dir, "2K27.msgpack")).payload.neighbours;
  t.same(Buffer.from(stored!.rows.buffer, stored!.rows.byteOffset, stored!.rows.byteLength), Buffer.from(neighbours!.rows.buffer, neighbours!.rows.byteOffset, neighbours!.rows.byteLength), "the lists a new build stores");
  const storedCompare = readSnapshot(join(dir, "2K27.msgpack")).payload.compareTables;
  const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  for (const name of ["badgeTier", "badgeStart", "rowBadges", "zoneStart", "zoneKey", "zoneValue"] as const) {
    t.same(bytesOf(storedCompare![name]), bytesOf(compareTables![name]), `compare's ${name}: what a new build stores`);
  }
  t.same(bytesOf(storedCompare!.badgeHead.bytes), bytesOf(compareTables!.badgeHead.bytes), "compare's badge heads: what a new build stores");
  const again = quietIo();
  t.equal(runBuildIndex(["--upgrade", dir], again.io), 0);
  t.match(again.lines.join(""), /already format 3/, "then it is current");
});
