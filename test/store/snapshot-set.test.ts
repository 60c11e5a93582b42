// The supervisor's view of the data directory (loadSnapshotSet, watchSnapshotDir): the same files
// checked and refused as a serving thread's EditionSet, ordered alike, with no Edition built.

import t, { type Test } from "tap";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { encodeSnapshot } from "../../src/store/snapshot.js";
import { Edition } from "../../src/store/edition.js";
import { loadEditionSet, loadSnapshotSet, sharedSnapshotsOf, type SnapshotSet } from "../../src/store/editions.js";
import { watchSnapshotDir } from "../../src/store/reload.js";
import { randomEdition } from "../fixtures/random-edition.js";

function dataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), "courtside-snapshots-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test("loadSnapshotSet: the editions loadEditionSet loads, in its order, none of them an Edition", async (t) => {
  const dir = dataDir(t);
  writeEdition(dir, randomEdition(120, 3), "2026-11-20");
  writeEdition(dir, { ...randomEdition(80, 4, "archived"), gameVersion: "2K25" }, "2026-11-20");
  writeEdition(dir, { ...randomEdition(90, 5, "archived"), gameVersion: "2K26" }, "2026-11-20");
  const snapshots = loadSnapshotSet(dir);
  const editions = loadEditionSet(dir);
  t.same(snapshots.keys(), editions.keys(), "same order: current, then archives newest first");
  t.equal(snapshots.current.key, editions.current.key);
  t.same(snapshots.ordered.map((snapshot) => snapshot.checksum), editions.ordered.map((edition) => edition.checksum));
  t.notOk(snapshots.ordered.some((snapshot) => (snapshot as unknown) instanceof Edition), "no Edition built");
  t.same(sharedSnapshotsOf(snapshots).map(({ checksum }) => checksum), sharedSnapshotsOf(editions).map(({ checksum }) => checksum), "workers are handed the same snapshots");
});

t.test("loadSnapshotSet refuses what loadEditionSet refuses, in the same words", async (t) => {
  const empty = dataDir(t);
  t.throws(() => loadSnapshotSet(empty), { message: /holds no snapshots/ });
  const twoCurrent = dataDir(t);
  writeEdition(twoCurrent, randomEdition(50, 6), "2026-11-20");
  writeEdition(twoCurrent, { ...randomEdition(50, 7), gameVersion: "2K26" }, "2026-11-20");
  const words = (load: () => unknown) => {
    try {
      load();
      return "";
    } catch (error) {
      return (error as Error).message;
    }
  };
  t.match(words(() => loadSnapshotSet(twoCurrent)), /needs exactly one current edition, found 2/);
  t.equal(words(() => loadSnapshotSet(twoCurrent)), words(() => loadEditionSet(twoCurrent)));
});

t.test("watchSnapshotDir swaps in a rebuilt current edition and refuses a changed archive", async (t) => {
  const dir = dataDir(t);
  writeEdition(dir, randomEdition(100, 8), "2026-11-20");
  writeEdition(dir, { ...randomEdition(60, 9, "archived"), gameVersion: "2K26" }, "2026-11-20");
  let set: SnapshotSet = loadSnapshotSet(dir);
  const swapped: SnapshotSet[] = [];
  const watcher = watchSnapshotDir(dir, () => set, (next) => { set = next; swapped.push(next); }, () => undefined, 3_600_000);
  t.teardown(() => watcher.close());
  const before = set.current.checksum;

  writeEdition(dir, randomEdition(100, 10), "2026-11-27");
  t.same(watcher.check().map((event) => event.kind), ["loaded"]);
  t.equal(swapped.length, 1, "one swap");
  t.not(set.current.checksum, before, "the new current edition");
  t.notOk((set.current as unknown) instanceof Edition, "still no Edition");
  t.equal(set.byKey.get("2K26")?.checksum, swapped[0]?.byKey.get("2K26")?.checksum, "the archive carried over");

  writeFileSync(join(dir, "2K26.msgpack"), encodeSnapshot(buildSnapshotPayload({ ...randomEdition(40, 11, "archived"), gameVersion: "2K26" })));
  const refused = watcher.check();
  t.equal(refused[0]?.kind, "refused");
  t.match(refused[0]?.kind === "refused" ? refused[0].reason : "", /archives never change/);
  t.equal(swapped.length, 1, "nothing swapped");
});
