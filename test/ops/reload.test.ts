import t from "tap";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startHarness } from "../http/harness.js";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { encodeSnapshot } from "../../src/store/snapshot.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { encodeSnapshotV2 } from "../fixtures/snapshot-v2-writer.js";
import type { ReloadEvent } from "../../src/store/reload.js";
import { recordsOf } from "../fixtures/records.js";

t.test("a new current snapshot is swapped in without a restart and ETags change", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const dataDir = join(h.dir, "data");
  const before = await h.get("/api/players?limit=5");
  const beforeBody = await before.json() as any;
  const etag = before.headers.get("etag")!;

  const next = randomEdition(400, 21);
  for (const player of next.players) player.overall = Math.min(99, player.overall + 10);
  writeEdition(dataDir, next, "2026-11-27");
  const events = h.service.reload.check();
  t.same(events.map((event) => event.kind), ["loaded"]);

  const after = await h.get("/api/players?limit=5");
  const afterBody = await after.json() as any;
  t.not(after.headers.get("etag"), etag, "the ETag follows the data");
  t.equal(afterBody.data[0].overall, beforeBody.data[0].overall + 10 > 99 ? 99 : beforeBody.data[0].overall + 10);
  t.equal((await h.get("/api/players?limit=5", { "if-none-match": etag })).status, 200, "the old ETag no longer matches");
  const history = await h.json(`/api/players/${afterBody.data[0]._id}/history`);
  t.ok(history.body.data.length >= 2, "the rebuilt current edition carried its weeks forward");
});

t.test("a corrupt, truncated, unknown-version or old-format file is refused with a reason and the old edition keeps serving", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const file = join(h.dir, "data", "2K27.msgpack");
  const good = readFileSync(file);
  const before = await (await h.get("/api/players?limit=3")).text();
  const refused: ReloadEvent[] = [];
  writeFileSync(file, good.subarray(0, good.length - 100));
  refused.push(...h.service.reload.check());
  t.equal(refused[0]?.kind, "refused");
  t.match(refused[0]?.kind === "refused" ? refused[0].reason : "", /truncated/);
  t.equal(await (await h.get("/api/players?limit=3")).text(), before, "still serving the old snapshot");
  const corrupt = Buffer.from(good);
  corrupt[corrupt.length - 50] = (corrupt[corrupt.length - 50]! + 1) % 256;
  writeFileSync(file, corrupt);
  const second = h.service.reload.check();
  t.match(second[0]?.kind === "refused" ? second[0].reason : "", /checksum/);
  t.equal(await (await h.get("/api/players?limit=3")).text(), before);
  const future = Buffer.from(good);
  future[future.indexOf(Buffer.from("version")) + 7] = 4; // the header's version, a positive fixint
  writeFileSync(file, future);
  const third = h.service.reload.check();
  t.match(third[0]?.kind === "refused" ? third[0].reason : "", /format version 4 is not the supported version 3/);
  t.equal(await (await h.get("/api/players?limit=3")).text(), before);
  writeFileSync(file, encodeSnapshotV2(randomEdition(30, 24)));
  const fourth = h.service.reload.check();
  t.same(fourth.map((event) => event.kind === "refused" && event.file), ["2K27.msgpack"]);
  t.match(fourth[0]?.kind === "refused" ? fourth[0].reason : "", /format version 2 is no longer read .*npm run build-index -- --upgrade/);
  t.equal(await (await h.get("/api/players?limit=3")).text(), before, "an old-format file leaves the serving edition serving");
  writeFileSync(file, good);
  t.same(h.service.reload.check(), [], "restoring the same content changes nothing");
});

t.test("an archived edition whose file changes is refused: archives never change", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const file = join(h.dir, "data", "2K26.msgpack");
  const before = await (await h.get("/api/versions/2K26/players?limit=3")).text();
  const other = { ...randomEdition(50, 99, "archived"), gameVersion: "2K26" };
  writeFileSync(file, encodeSnapshot(buildSnapshotPayload(other)));
  const events = h.service.reload.check();
  t.equal(events[0]?.kind, "refused");
  t.match(events[0]?.kind === "refused" ? events[0].reason : "", /archives never change/);
  t.equal(await (await h.get("/api/versions/2K26/players?limit=3")).text(), before);
});

t.test("a new archived edition dropped into the directory is added", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const dataDir = join(h.dir, "data");
  copyFileSync(join(dataDir, "2K26.msgpack"), join(dataDir, "tmp.bin"));
  writeEdition(dataDir, { ...randomEdition(30, 98, "archived"), gameVersion: "2K25" }, "2026-11-20");
  const events = h.service.reload.check();
  t.same(events.map((event) => event.kind), ["loaded"]);
  const versions = await (await fetch(`${h.base}/api/versions`)).json() as any;
  t.same(versions.data.map((entry: any) => entry.gameVersion), ["2K27", "2K26", "2K25"]);
});

t.test("a move to a new current edition across two files is applied once the directory is consistent, in either order", async (t) => {
  for (const order of ["new current first", "old current archived first"]) {
    const h = await startHarness();
    const dataDir = join(h.dir, "data");
    const before = await (await h.get("/api/players?limit=3")).text();
    const writeNewCurrent = () => writeEdition(dataDir, { ...randomEdition(60, 31), gameVersion: "2K28" }, "2026-11-27");
    // 2K27 as it stands, re-written as an archive.
    const archiveOldCurrent = () => writeFileSync(join(dataDir, "2K27.msgpack"), encodeSnapshot(buildSnapshotPayload({ ...randomEdition(40, 32, "archived"), gameVersion: "2K27" })));
    const [first, second] = order === "new current first" ? [writeNewCurrent, archiveOldCurrent] : [archiveOldCurrent, writeNewCurrent];
    first();
    const half = h.service.reload.check();
    t.same(half.map((event) => event.kind), ["refused"], `${order}: half a move is refused`);
    t.match(half[0]?.kind === "refused" ? half[0].reason : "", /current edition.*kept until the directory is consistent/, order);
    t.equal(await (await h.get("/api/players?limit=3")).text(), before, `${order}: the old set keeps serving`);
    t.same(h.service.reload.check(), [], `${order}: nothing changed, nothing said`);
    second();
    const whole = h.service.reload.check();
    t.same(whole.map((event) => event.kind).sort(), ["loaded", "loaded"], `${order}: both files are swapped in together`);
    const versions = await (await fetch(`${h.base}/api/versions`)).json() as any;
    t.same(versions.data.map((entry: any) => [entry.gameVersion, entry.status]), [["2K28", "current"], ["2K27", "archived"], ["2K26", "archived"]], order);
    const players = await h.json("/api/players?limit=1");
    t.equal(players.body.data[0]?._id !== undefined, true);
    t.equal(h.service.editions().current.key, "2K28", `${order}: 2K28 serves as current`);
    await h.close();
  }
});

t.test("the data directory is polled: a rebuilt current edition is served within a second", async (t) => {
  const h = await startHarness({ reloadIntervalMs: 200 });
  t.teardown(() => h.close());
  const next = randomEdition(400, 77);
  writeEdition(join(h.dir, "data"), next, "2026-11-27");
  const wanted = next.players.length;
  const started = Date.now();
  let total = 0;
  while (Date.now() - started < 2000) {
    total = ((await h.json("/api/players?era=all&limit=1")).body as any).meta.pagination.total;
    if (h.service.editions().current.checksum !== "" && recordsOf(h.service.editions().current).some((p) => p._id === next.players[0]!._id)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.ok(Date.now() - started < 1500, "picked up by the poll");
  t.equal(total, wanted);
});
