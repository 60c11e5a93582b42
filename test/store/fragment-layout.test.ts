// The fragment slot layout a snapshot records, and the refusal of a file written with another
// one: what keeps a field added to the player field list from serving older files' rows shifted
// by a slot (src/store/fragments.ts, src/store/snapshot.ts).

import t from "tap";
import { join } from "node:path";
import { PLAYER_FIELDS } from "../../src/model/player.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { FRAGMENT_LAYOUT, fragmentLayoutOf } from "../../src/store/fragments.js";
import { assertFragmentLayout, decodeSnapshot, encodeSnapshot, readSnapshot, SnapshotError, writeSnapshotAtomic } from "../../src/store/snapshot.js";
import { randomEdition } from "../fixtures/random-edition.js";

/** The layout of a later version whose field list has one more field (after createdAt). */
const LATER_LAYOUT = fragmentLayoutOf([...PLAYER_FIELDS, "jerseyNumber"]);

t.test("a snapshot records the slot layout its fragments were written with, derived from the field list", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(40, 5));
  const { fragments } = decodeSnapshot("layout.msgpack", encodeSnapshot(payload));
  t.same(fragments.layout, FRAGMENT_LAYOUT);
  t.equal(FRAGMENT_LAYOUT.length, PLAYER_FIELDS.length + 3, "every field a slot, badges two, then the pass-through fields and top");
  t.equal(fragments.slotStart.length, 40 * (FRAGMENT_LAYOUT.length + 1), "a row's slot table is one entry per slot plus its end");
  t.equal(LATER_LAYOUT.length, FRAGMENT_LAYOUT.length + 1);
});

t.test("a file written with another layout is refused, naming the file and both layouts", async (t) => {
  const dir = t.testdir({});
  const payload = buildSnapshotPayload(randomEdition(30, 6));
  const file = join(dir, "2K27.msgpack");
  writeSnapshotAtomic(file, { ...payload, fragments: { ...payload.fragments, layout: LATER_LAYOUT } });
  const error = (() => {
    try {
      readSnapshot(file);
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  t.ok(error instanceof SnapshotError, "refused with a SnapshotError");
  const message = (error as Error).message;
  t.match(message, /^snapshot 2K27\.msgpack: its fragment layout differs from this version's/);
  t.match(message, `the file has ${LATER_LAYOUT.length} slots [${LATER_LAYOUT.join(", ")}]`);
  t.match(message, `this version reads ${FRAGMENT_LAYOUT.length} slots [${FRAGMENT_LAYOUT.join(", ")}]`);
  t.match(message, /rebuild it with build-index/);
});

t.test("a version whose field list gained a field refuses today's snapshots, recorded layout or none", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(30, 7));
  const today = decodeSnapshot("today.msgpack", encodeSnapshot(payload));
  t.doesNotThrow(() => assertFragmentLayout("today.msgpack", today.fragments.layout));
  t.throws(() => assertFragmentLayout("today.msgpack", today.fragments.layout, LATER_LAYOUT), {
    name: "SnapshotError",
    message: `snapshot today.msgpack: its fragment layout differs from this version's, so its rows cannot be read: the file has ${FRAGMENT_LAYOUT.length} slots [${FRAGMENT_LAYOUT.join(", ")}], this version reads ${LATER_LAYOUT.length} slots [${LATER_LAYOUT.join(", ")}]; rebuild it with build-index`,
  });

  // A file from before layouts were recorded was written with today's layout: read by today's
  // version, refused by the later one like any file of today's layout.
  const { layout: _layout, ...unrecorded } = payload.fragments;
  const older = decodeSnapshot("older.msgpack", encodeSnapshot({ ...payload, fragments: unrecorded }));
  t.equal(older.fragments.layout, undefined, "no layout in the file");
  t.equal(older.meta.playerCount, 30, "read by today's version");
  t.throws(() => assertFragmentLayout("older.msgpack", older.fragments.layout, LATER_LAYOUT), { name: "SnapshotError", message: `the file has ${FRAGMENT_LAYOUT.length} slots` });
});

t.test("a recorded layout that is not a list of slot names is refused", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(10, 8));
  for (const layout of [42, ["_id", 7], "badges"]) {
    const bytes = encodeSnapshot({ ...payload, fragments: { ...payload.fragments, layout: layout as unknown as string[] } });
    t.throws(() => decodeSnapshot("odd.msgpack", bytes), { name: "SnapshotError", message: "snapshot odd.msgpack: its fragment layout is not a list of slot names" });
  }
});
