import t from "tap";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSnapshotPayload } from "../../src/data/build-snapshot.js";
import { decodeSnapshot, encodeSnapshot, readSnapshot, writeSnapshotAtomic, SnapshotError } from "../../src/data/snapshot.js";
import { writeEdition, isoWeekStart } from "../../src/data/build-edition.js";
import { Edition, loadEdition } from "../../src/store/edition.js";
import { findString } from "../../src/store/string-table.js";
import { ALL_FIELDS_MASK, FIELD_BIT } from "../../src/store/fragments.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { recordsOf } from "../fixtures/records.js";

t.test("a snapshot round-trips to the same records and columns", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(200, 3));
  const back = decodeSnapshot("x.msgpack", encodeSnapshot(payload));
  t.same(recordsOf(new Edition(back, "x")), recordsOf(new Edition(payload, "x")));
  t.same(Buffer.from(back.fragments.bytes), Buffer.from(payload.fragments.bytes));
  t.same([...back.columns.attributes], [...payload.columns.attributes]);
  t.same([...back.sortOrders.attributes[5]!], [...payload.sortOrders.attributes[5]!]);
  t.ok(back.columns.nameRank instanceof Uint32Array);
});

t.test("rendered rows parse back to the records", async (t) => {
  const source = randomEdition(50, 4);
  const edition = new Edition(buildSnapshotPayload(source), "x");
  const rows = Array.from({ length: edition.rowCount }, (_, row) => row);
  const { body } = edition.fragments.renderRows(rows, { fieldMask: ALL_FIELDS_MASK, isVersioned: false }, Buffer.from('{"data":'), Buffer.from("}"));
  const parsed = JSON.parse(body.toString()).data as Record<string, unknown>[];
  t.equal(parsed.length, 50);
  // CONTRACT §9: hot zones are a field of every row that has them (they were detail-only before).
  const record = edition.record(0);
  const { top: _top, ...badges } = record.badges;
  t.same(parsed[0], { ...record, badges });
  // CONTRACT §9: every row carries gameVersion, ratingHistory, createdAt and _creationTime.
  t.equal(parsed[0]?.["gameVersion"], "2K27");
  t.ok(Array.isArray(parsed[0]?.["ratingHistory"]) && typeof parsed[0]?.["createdAt"] === "string" && typeof parsed[0]?.["_creationTime"] === "number");
  const versioned = JSON.parse(edition.fragments.renderRows([0], { fieldMask: FIELD_BIT.name, isVersioned: true }, Buffer.alloc(0), Buffer.alloc(0)).body.toString());
  t.same(versioned, [{ name: edition.record(0).name, gameVersion: "2K27" }]);
  const empty = JSON.parse(edition.fragments.renderRows([0], { fieldMask: 0, isVersioned: true }, Buffer.alloc(0), Buffer.alloc(0)).body.toString());
  t.same(empty, [{ gameVersion: "2K27" }]);
});

t.test("equal bodies hash equal and a changed field changes the hash", async (t) => {
  const a = new Edition(buildSnapshotPayload(randomEdition(30, 5)), "a");
  const source = randomEdition(30, 5);
  source.players[0]!.overall = 42;
  const b = new Edition(buildSnapshotPayload(source), "b");
  const shape = { fieldMask: ALL_FIELDS_MASK, isVersioned: false };
  const all = Array.from({ length: 30 }, (_, row) => row);
  const none = Buffer.alloc(0);
  t.equal(a.fragments.renderRows(all, shape, none, none).hash, new Edition(buildSnapshotPayload(randomEdition(30, 5)), "c").fragments.renderRows(all, shape, none, none).hash);
  t.not(a.fragments.renderRows(all, shape, none, none).hash, b.fragments.renderRows(all, shape, none, none).hash);
});

t.test("archived snapshots drop badge lists but keep counts and top", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(40, 6, "archived"));
  const withBadges = recordsOf(new Edition(payload, "x")).find((player) => player.badges.total > 0)!;
  t.equal(withBadges.badges.list, undefined);
  t.ok(withBadges.badges.top && withBadges.badges.top.length > 0);
  t.equal(payload.columns.badgeTiers, null);
});

t.test("a truncated, corrupt or unknown-version file is refused with its name and reason", async (t) => {
  const bytes = encodeSnapshot(buildSnapshotPayload(randomEdition(20, 8)));
  const expectRefusal = (candidate: Buffer, reason: RegExp, label: string) => {
    try {
      decodeSnapshot("/data/2K27.msgpack", candidate);
      t.fail(`${label} was accepted`);
    } catch (error) {
      t.ok(error instanceof SnapshotError, label);
      t.match((error as Error).message, /2K27\.msgpack/, `${label} names the file`);
      t.match((error as Error).message, reason, label);
    }
  };
  expectRefusal(bytes.subarray(0, bytes.length - 10), /truncated/, "truncated");
  const flipped = Buffer.from(bytes);
  flipped[flipped.length - 100] = (flipped[flipped.length - 100]! + 1) % 256;
  expectRefusal(flipped, /checksum/, "corrupt");
  const future = Buffer.from(bytes);
  future.writeUInt32BE(99, 8);
  expectRefusal(future, /format version 99/, "unknown version");
  expectRefusal(Buffer.from("hello"), /not a Courtside snapshot/, "not a snapshot");
});

t.test("writes are atomic and leave no temp file", async (t) => {
  const dir = t.testdir({});
  const file = join(dir, "2K27.msgpack");
  writeSnapshotAtomic(file, buildSnapshotPayload(randomEdition(10, 9)));
  t.equal(readSnapshot(file).payload.meta.playerCount, 10);
  t.equal(loadEdition(file).rowCount, 10);
  t.same(readFileSync(file).subarray(0, 8).toString(), "COURTSDE");
});

t.test("an archived edition is never rewritten with different content", async (t) => {
  const dir = t.testdir({});
  const archived = randomEdition(20, 10, "archived");
  t.equal(writeEdition(dir, archived, "2026-11-20").kind, "written");
  t.equal(writeEdition(dir, archived, "2026-11-27").kind, "unchanged");
  const changed = randomEdition(20, 11, "archived");
  const outcome = writeEdition(dir, changed, "2026-11-27");
  t.equal(outcome.kind, "refused");
  t.equal(readSnapshot(join(dir, "2K27.msgpack")).payload.meta.contentHash, buildSnapshotPayload(archived).meta.contentHash);
});

t.test("rebuilding the current edition carries weekly history forward, replacing this week's entry", async (t) => {
  const dir = t.testdir({});
  const first = randomEdition(15, 12);
  writeEdition(dir, first, "2026-11-02");
  const second = randomEdition(15, 12);
  second.players[0]!.overall = 50;
  writeEdition(dir, second, "2026-11-09");
  writeEdition(dir, second, "2026-11-11"); // same ISO week as the 9th: replaces it
  const history = readSnapshot(join(dir, "2K27.msgpack")).payload.history!;
  t.same(history.weeks.map((week) => week.date), ["2026-11-02", "2026-11-11"]);
  t.equal(isoWeekStart("2026-11-11"), "2026-11-09");
  const i = findString(history.ids, second.players[0]!._id);
  t.equal(history.weeks[1]!.overall[i], 50);
  t.not(history.weeks[0]!.overall[i], 50);
});

t.test("a file that is not readable names itself", async (t) => {
  const dir = t.testdir({ "2K20.msgpack": "" });
  writeFileSync(join(dir, "2K20.msgpack"), "");
  t.throws(() => readSnapshot(join(dir, "2K20.msgpack")), /2K20\.msgpack/);
  t.throws(() => readSnapshot(join(dir, "missing.msgpack")), /missing\.msgpack: cannot be read/);
});

t.test("every demo edition round-trips: generate → snapshot → load gives the same records", async (t) => {
  const { generateDemoEditions } = await import("../../src/data/demo.js");
  for (const source of generateDemoEditions({ asOf: "2026-11-20" })) {
    const payload = buildSnapshotPayload(source);
    const edition = new Edition(decodeSnapshot(`${source.gameVersion}.msgpack`, encodeSnapshot(payload)), "x");
    t.equal(edition.rowCount, source.players.length, source.gameVersion);
    const byId = new Map(source.players.map((player) => [player._id, player]));
    // Archived snapshots keep badge counts and top, not lists; `top` is compared apart.
    const withoutTop = (badges: object) => Object.fromEntries(Object.entries(badges).filter(([key]) => key !== "top"));
    let mismatches = 0;
    for (const stored of recordsOf(edition)) {
      // The fields every row now carries (CONTRACT §9) are filled in by the build: checked, then set aside.
      const { gameVersion, ratingHistory, createdAt, _creationTime, ...player } = stored;
      if (gameVersion !== source.gameVersion || !ratingHistory?.some((entry) => entry.gameVersion === source.gameVersion && entry.overall === player.overall)) mismatches++;
      if (typeof createdAt !== "string" || _creationTime !== Date.parse(createdAt)) mismatches++;
      const original = byId.get(player._id)!;
      const { list, ...counts } = original.badges;
      const expected = { ...original, badges: withoutTop(source.status === "archived" ? counts : { ...counts, list }) };
      if (canonical({ ...player, badges: withoutTop(player.badges) }) !== canonical(expected)) mismatches++;
      if (JSON.stringify(player.badges.top) !== JSON.stringify(original.badges.top)) mismatches++;
    }
    t.equal(mismatches, 0, `${source.gameVersion}: every record comes back as it went in`);
    if (source.status === "current") t.equal(edition.payload.history?.weeks.length, source.history.length, "with every week");
  }
});

/** JSON with every object's keys sorted: equal records whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => (inner !== null && typeof inner === "object" && !Array.isArray(inner)
    ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : inner));
}
