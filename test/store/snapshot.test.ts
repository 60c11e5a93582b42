import t from "tap";
import { decodeMulti, encode } from "@msgpack/msgpack";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { decodeSnapshot, encodeSnapshot, readSnapshot, writeSnapshotAtomic, SnapshotError } from "../../src/store/snapshot.js";
import { writeEdition, isoWeekStart } from "../../src/pipeline/build-edition.js";
import { Edition } from "../../src/store/edition.js";
import { loadEdition } from "../../src/store/derived-tables.js";
import { findString } from "../../src/store/string-table.js";
import { REGISTRY_CATALOGUE } from "../../src/model/catalogue.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { recordsOf } from "../fixtures/records.js";
import { ALL_FIELDS_MASK, FIELD_BIT } from "../../src/model/player.js";

t.test("a snapshot round-trips to the same records and columns", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(200, 3));
  const back = decodeSnapshot("x.msgpack", encodeSnapshot(payload));
  t.same(recordsOf(new Edition(back, "x")), recordsOf(new Edition(payload, "x")));
  t.same(Buffer.from(back.fragments.bytes), Buffer.from(payload.fragments.bytes));
  t.same([...back.columns.attributes], [...payload.columns.attributes]);
  t.same([...back.sortOrders.attributes[5]!], [...payload.sortOrders.attributes[5]!]);
  t.ok(back.columns.nameRank instanceof Uint32Array);
});

t.test("the catalogue round-trips, and a format-3 file written before catalogues reads with the registry's it was built with", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(120, 9));
  const back = decodeSnapshot("x.msgpack", encodeSnapshot(payload));
  t.same(back.catalogue, payload.catalogue);
  t.equal(payload.catalogue.attributes.length * payload.meta.playerCount, payload.columns.attributes.length, "the attribute table is the catalogue's width");
  const { catalogue: _catalogue, ...withoutCatalogue } = payload;
  const old = decodeSnapshot("old.msgpack", encodeSnapshot(withoutCatalogue as typeof payload));
  t.same(old.catalogue, REGISTRY_CATALOGUE.stored());
  const narrow = { ...payload, catalogue: { attributes: payload.catalogue.attributes.slice(1), badges: payload.catalogue.badges } };
  t.throws(() => decodeSnapshot("narrow.msgpack", encodeSnapshot(narrow)), /missing columns or its counts disagree/, "a catalogue that disagrees with the table widths is refused");
});

/** `[row,row,…]` in `shape` as the fragments write it (runLength bytes, all of them written). */
function runJson(edition: Edition, rows: readonly number[], shape: { fieldMask: number; isVersioned: boolean }): string {
  const target = Buffer.alloc(edition.fragments.runLength(rows, shape));
  const end = edition.fragments.writeRun(rows, shape, target, 0);
  if (end !== target.length) throw new Error(`wrote ${end} of ${target.length} bytes`);
  return target.toString("utf8");
}

t.test("rendered rows parse back to the records", async (t) => {
  const source = randomEdition(50, 4);
  const edition = new Edition(buildSnapshotPayload(source), "x");
  const rows = Array.from({ length: edition.rowCount }, (_, row) => row);
  const parsed = JSON.parse(runJson(edition, rows, { fieldMask: ALL_FIELDS_MASK, isVersioned: false })) as Record<string, unknown>[];
  t.equal(parsed.length, 50);
  // docs/compatibility.md#fidelity-rules: hot zones are a field of every row that has them (they were detail-only before).
  const record = edition.record(0);
  const { top: _top, ...badges } = record.badges;
  t.same(parsed[0], { ...record, badges });
  // docs/compatibility.md#fidelity-rules: every row carries gameVersion, ratingHistory, createdAt and _creationTime.
  t.equal(parsed[0]?.["gameVersion"], "2K27");
  t.ok(Array.isArray(parsed[0]?.["ratingHistory"]) && typeof parsed[0]?.["createdAt"] === "string" && typeof parsed[0]?.["_creationTime"] === "number");
  const versioned = JSON.parse(runJson(edition, [0], { fieldMask: FIELD_BIT.name, isVersioned: true }));
  t.same(versioned, [{ name: edition.record(0).name, gameVersion: "2K27" }]);
  const empty = JSON.parse(runJson(edition, [0], { fieldMask: 0, isVersioned: true }));
  t.same(empty, [{ gameVersion: "2K27" }]);
});

t.test("every row's ratingHistory takes in the editions of the directory: the current one all of them, an archive the older ones", async (t) => {
  const dir = t.testdir({});
  const archived = { ...randomEdition(30, 7, "archived"), gameVersion: "2K26" };
  const current = randomEdition(30, 7);
  current.players[0]!.overall = archived.players[0]!.overall + 3;
  const newer = { ...randomEdition(30, 7, "archived"), gameVersion: "2K28" };
  writeEdition(dir, archived, "2026-11-20");
  writeEdition(dir, newer, "2026-11-20");
  const outcome = writeEdition(dir, current, "2026-11-20");
  t.equal(outcome.kind, "written");
  const id = current.players[0]!._id;
  const edition = loadEdition(join(dir, "2K27.msgpack"));
  t.same(edition.record(edition.rowById.get(id)!).ratingHistory, [
    { gameVersion: "2K28", overall: newer.players[0]!.overall, delta: newer.players[0]!.overall - current.players[0]!.overall },
    { gameVersion: "2K27", overall: current.players[0]!.overall, delta: 3 },
    { gameVersion: "2K26", overall: archived.players[0]!.overall },
  ]);
  const archive = loadEdition(join(dir, "2K26.msgpack"));
  t.same(archive.record(archive.rowById.get(id)!).ratingHistory, [{ gameVersion: "2K26", overall: archived.players[0]!.overall }], "an archive never takes in newer editions");
  t.equal(writeEdition(dir, archived, "2026-11-20").kind, "unchanged", "so rewriting it with the same rows is still no change");
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
  future[future.indexOf(Buffer.from("version")) + 7] = 99; // the positive fixint after the key
  expectRefusal(future, /format version 99/, "unknown version");
  expectRefusal(Buffer.from("hello"), /not a Courtside snapshot/, "not a snapshot");
  expectRefusal(Buffer.from(encode({ format: "something-else", version: 3 })), /not a Courtside snapshot/, "another MessagePack file");
  expectRefusal(bytes.subarray(0, 40), /not a Courtside snapshot/, "cut inside its header");
  const oldMagic = Buffer.alloc(64);
  oldMagic.write("COURTSDE");
  oldMagic.writeUInt32BE(7, 8);
  expectRefusal(oldMagic, /format version 7 is not the supported version 3/, "an old-style header of a version that never existed");
});

t.test("writes are atomic and leave no temp file", async (t) => {
  const dir = t.testdir({});
  const file = join(dir, "2K27.msgpack");
  writeSnapshotAtomic(file, buildSnapshotPayload(randomEdition(10, 9)));
  t.equal(readSnapshot(file).payload.meta.playerCount, 10);
  t.equal(loadEdition(file).rowCount, 10);
  t.match(decodeMulti(readFileSync(file)).next().value, { format: "courtside-snapshot", version: 3 }, "a MessagePack header first");
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
  const { generateDemoEditions } = await import("../../src/pipeline/demo.js");
  for (const source of generateDemoEditions({ asOf: "2026-11-20" })) {
    const payload = buildSnapshotPayload(source);
    const edition = new Edition(decodeSnapshot(`${source.gameVersion}.msgpack`, encodeSnapshot(payload)), "x");
    t.equal(edition.rowCount, source.players.length, source.gameVersion);
    const byId = new Map(source.players.map((player) => [player._id, player]));
    // Archived snapshots keep badge counts and top, not lists; `top` is compared apart.
    const withoutTop = (badges: object) => Object.fromEntries(Object.entries(badges).filter(([key]) => key !== "top"));
    let mismatches = 0;
    for (const stored of recordsOf(edition)) {
      // The fields every row now carries (docs/compatibility.md#fidelity-rules) are filled in by the build: checked, then set aside.
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

/** Every typed array of a decoded tree, by its path; the tree itself with each replaced by its type and length. */
function splitSections(value: unknown, path = "$", sections = new Map<string, Buffer>()): { directory: unknown; sections: Map<string, Buffer> } {
  const walk = (node: unknown, at: string): unknown => {
    if (ArrayBuffer.isView(node)) {
      const array = node as Uint8Array;
      sections.set(at, Buffer.from(array.buffer, array.byteOffset, array.byteLength));
      return { section: at, length: array.length };
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${at}[${i}]`));
    if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      // @msgpack/msgpack's reading of a typed array: the map the format writes.
      if (record.data instanceof Uint8Array && typeof record.type === "string") {
        const data = record.data;
        sections.set(at, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        return { section: at, length: record.length };
      }
      return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, walk(item, `${at}.${key}`)]));
    }
    return node;
  };
  return { directory: walk(value, path), sections };
}

t.test("every demo snapshot is standard MessagePack: msgpackr and @msgpack/msgpack read the same directory and the same bytes for every section", async (t) => {
  const { generateDemoEditions } = await import("../../src/pipeline/demo.js");
  for (const source of generateDemoEditions({ asOf: "2026-11-20" })) {
    const bytes = encodeSnapshot(buildSnapshotPayload(source));
    const ours = splitSections(decodeSnapshot(`${source.gameVersion}.msgpack`, bytes));
    const [header, payload] = [...decodeMulti(bytes)];
    t.match(header, { format: "courtside-snapshot", version: 3, byteOrder: "little" }, `${source.gameVersion}: the header map`);
    const theirs = splitSections(payload);
    t.same(theirs.directory, ours.directory, `${source.gameVersion}: same directory`);
    t.same([...theirs.sections.keys()], [...ours.sections.keys()]);
    let differing = 0;
    for (const [path, section] of ours.sections) if (!section.equals(theirs.sections.get(path)!)) differing++;
    t.equal(differing, 0, `${source.gameVersion}: same bytes in all ${ours.sections.size} sections`);
    t.ok(ours.sections.size > 60, "columns, sort orders, fragments, search, lookups, weeks…");
  }
});

t.test("loading is one read into a SharedArrayBuffer and views: every typed array of the payload is in the file's buffer", async (t) => {
  const dir = t.testdir({});
  const file = join(dir, "2K27.msgpack");
  writeSnapshotAtomic(file, buildSnapshotPayload(randomEdition(300, 21)));
  const { payload, bytes } = readSnapshot(file);
  t.ok(bytes.buffer instanceof SharedArrayBuffer);
  t.equal(payload.columns.overall.buffer, bytes.buffer, "a column IS the shared buffer");
  const { sections } = splitSections(payload);
  let elsewhere = 0;
  let misaligned = 0;
  const walk = (node: unknown): void => {
    if (ArrayBuffer.isView(node)) {
      const array = node as Uint32Array;
      if (array.buffer !== bytes.buffer) elsewhere++;
      if (array.byteOffset % array.BYTES_PER_ELEMENT !== 0) misaligned++;
    } else if (node !== null && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(payload);
  t.ok(sections.size > 60);
  t.equal(elsewhere, 0, "no typed array was copied out of the file's buffer");
  t.equal(misaligned, 0);
});

t.test("the container is generic: a section it has never heard of round-trips as a view", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(20, 22));
  const extended = { ...payload, catalogues: { attributes: [{ key: "newSkill", label: "New skill" }], perRow: new Uint16Array([1, 2, 3]) } };
  const back = decodeSnapshot("x.msgpack", encodeSnapshot(extended)) as typeof extended;
  t.same(back.catalogues.attributes, extended.catalogues.attributes);
  t.ok(back.catalogues.perRow instanceof Uint16Array);
  t.same([...back.catalogues.perRow], [1, 2, 3]);
});

/** Debian's python3 with python3-msgpack (another python3 first on PATH may lack the module). */
function pythonWithMsgpack(): string | undefined {
  for (const python of ["/usr/bin/python3", "python3"]) {
    try {
      execFileSync(python, ["-c", "import msgpack"], { stdio: "ignore" });
      return python;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const python = pythonWithMsgpack();
t.test("Python reads a snapshot with python3-msgpack alone (test/store/read-snapshot.py)", {
  skip: python === undefined ? "python3-msgpack is missing: install Debian's python3-msgpack (bash .ci/install-debian 'python3-msgpack:/usr/bin/python3 -c \"import msgpack\"') to run this test" : false,
}, async (t) => {
  if (python === undefined) return;
  const dir = t.testdir({});
  const file = join(dir, "2K27.msgpack");
  const payload = buildSnapshotPayload(randomEdition(250, 23));
  writeSnapshotAtomic(file, payload);
  const script = new URL("./read-snapshot.py", import.meta.url).pathname;
  const read = (column: string) => JSON.parse(execFileSync(python, [script, file, column], { encoding: "utf8" })) as { header: { version: number; sha256: string }; playerCount: number; type: string; length: number; first: number[]; sum: number };
  const overall = read("columns.overall");
  t.equal(overall.header.version, 3);
  t.equal(overall.header.sha256, readSnapshot(file).checksum, "the same digest, checked in Python");
  t.equal(overall.playerCount, 250);
  t.same({ type: overall.type, length: overall.length, first: overall.first, sum: overall.sum }, {
    type: "uint8", length: 250, first: [...payload.columns.overall.subarray(0, 10)], sum: payload.columns.overall.reduce((a, b) => a + b, 0),
  });
  const order = read("sortOrders.attributes.5");
  t.same({ type: order.type, first: order.first }, { type: "uint32", first: [...payload.sortOrders.attributes[5]!.subarray(0, 10)] });
  const rowStart = read("fragments.rowStart");
  t.same({ type: rowStart.type, length: rowStart.length, sum: rowStart.sum }, { type: "float64", length: 251, sum: payload.fragments.rowStart.reduce((a, b) => a + b, 0) });
});
