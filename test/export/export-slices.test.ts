// An export being encoded never holds the thread for long (docs/exports.md#encoding-in-slices):
// with one thread (the in-process service) and a 12,000-player edition, a small request sent while
// a 10,000-row Parquet export is being encoded is answered first; a client that leaves stops its
// export's encoding (nothing kept); the whole edition, over 10,000 rows, comes in several row
// groups and record batches that read back to the CSV's cells (Parquet with hyparquet, Arrow with
// apache-arrow). Ordering, never milliseconds.

import t from "tap";
import { register } from "node:module";
import { connect } from "node:net";
import { parse } from "csv-parse/sync";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { tableFromIPC } from "apache-arrow";
import { generateScaleEdition } from "../../src/pipeline/demo.js";
import { runNow, runSliced, Pacer, kept, sliceTurns, type Sliced } from "../../src/export/slices.js";
import { EditionMemo, memoKey } from "../../src/store/edition-memo.js";

// Before the service is imported: the tests' TypeScript loader needs help to resolve hyparquet-writer's imports.
register(new URL("../fixtures/hyparquet-resolve.mjs", import.meta.url));
const { startHarness } = await import("../http/harness.js");

const PLAYERS = 12_000;
const h = await startHarness({ sources: [generateScaleEdition({ players: PLAYERS, gameVersion: "2K27" })] });
t.teardown(() => h.close());

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A GET over a socket of its own: `sent` resolves when the request is in the kernel (the one-thread
 * service reads it at its next poll), `done` with the status and body once the body is all in.
 */
function rawGet(path: string): { sent: Promise<void>; done: Promise<{ status: number; head: string; body: Buffer }> } {
  const socket = connect(h.service.port, "127.0.0.1");
  const sent = new Promise<void>((resolve, reject) => {
    socket.once("connect", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${h.key}\r\n\r\n`, (error) => (error ? reject(error) : resolve())));
    socket.once("error", reject);
  });
  const done = new Promise<{ status: number; head: string; body: Buffer }>((resolve, reject) => {
    let data = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = data.subarray(0, end).toString("latin1");
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (data.length >= end + 4 + length) {
        socket.destroy();
        resolve({ status: Number(head.split(" ")[1]), head, body: data.subarray(end + 4, end + 4 + length) });
      }
    });
    socket.on("error", reject);
  });
  return { sent, done };
}

/** How many bulk requests the service has answered 200 (its request counters, kept as each answer is written). */
const bulkAnswered = () => h.service.stats().requests["/api/players/bulk\u0000200"] ?? 0;

t.test("a small request sent while a 10,000-row Parquet export is encoded is answered first", async (t) => {
  const before = bulkAnswered();
  const big = rawGet("/api/players/bulk?format=parquet&minRating=0");
  // Sent once the export's request is in the kernel: the service reads that one first.
  await big.sent;
  const small = await rawGet("/api/teams").done;
  t.equal(small.status, 200);
  t.equal(bulkAnswered(), before, "the small request was answered while the export was still being encoded");
  const { status, head, body } = await big.done;
  t.equal(status, 200);
  t.equal(bulkAnswered(), before + 1);
  t.equal(/x-total-count: (\d+)/i.exec(head)?.[1], String(PLAYERS), "X-Total-Count: every player matched");
  const file = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
  t.equal(parquetMetadata(file).row_groups.length, 1, "10,000 rows: one row group, as before");
  t.equal((await parquetReadObjects({ file })).length, 10_000, "capped at 10,000 rows");
});

t.test("32 exports under way cost a waiting small request one slice, not 32: the thread's exports take one slice a turn between them", async (t) => {
  const before = bulkAnswered();
  const exports = Array.from({ length: 32 }, (_, i) => rawGet(`/api/players/bulk?format=csv&minRating=${i}`));
  await Promise.all(exports.map((one) => one.sent));
  // Until every export has started (each has had a slice or two).
  const started = sliceTurns.granted;
  while (sliceTurns.granted < started + 64) await turn();
  t.equal(bulkAnswered(), before, "the exports are still being encoded");
  const granted = sliceTurns.granted;
  const small = rawGet("/api/teams");
  await small.sent;
  t.equal((await small.done).status, 200);
  const waited = sliceTurns.granted - granted;
  // One thread holds the test client and the service: a few turns pass between "sent" and the read.
  t.ok(waited <= 8, `the small request waited for ${waited} export slices (32 exports under way)`);
  t.ok(bulkAnswered() < before + 32, "answered while the exports were under way");
  for (const one of exports) t.equal((await one.done).status, 200);
  t.equal(bulkAnswered(), before + 32, "every export answered");
});

t.test("slices of encoders under way together: one slice a turn between them, round robin", async (t) => {
  const order: string[] = [];
  function* encoder(name: string, slices: number): Sliced<string> {
    for (let i = 0; i < slices; i++) {
      order.push(name);
      yield;
    }
    return name;
  }
  let perTurn = 0;
  let isRunning = true;
  let worst = 0;
  const granted = sliceTurns.granted;
  const watch = () => {
    const now = sliceTurns.granted;
    worst = Math.max(worst, now - perTurn);
    perTurn = now;
    if (isRunning) setImmediate(watch);
  };
  perTurn = granted;
  setImmediate(watch);
  const results = await Promise.all([runSliced(encoder("a", 5)), runSliced(encoder("b", 5)), runSliced(encoder("c", 5))]);
  isRunning = false;
  t.same(results, ["a", "b", "c"]);
  t.equal(order.join(""), "abcabcabcabcabc", "round robin");
  t.ok(worst <= 1, `at most one slice a turn (${worst})`);
});

/** The edition memo's entries for the bulk exports that are still being built. */
function buildingKeys(): string[] {
  return [...h.service.editions().current.memo.entries()].filter(([key, value]) => key.includes("bulk") && typeof value === "symbol").map(([key]) => key);
}

t.test("a client that leaves stops its export's encoding: nothing is kept, the next request builds it whole", async (t) => {
  const socket = connect(h.service.port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(`GET /api/players/bulk?format=arrow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${h.key}\r\n\r\n`);
  let building: string[] = [];
  while (building.length === 0) {
    await turn();
    building = buildingKeys();
  }
  t.equal(building.length, 1, "the whole edition's Arrow stream is being built");
  const key = memoKey<unknown>(building[0]!);
  socket.destroy();
  const memo = h.service.editions().current.memo;
  while (typeof memo.get(key) === "symbol") await turn();
  t.equal(memo.get(key), undefined, "its build stopped: nothing kept (a finished build would have kept the reply)");

  const again = await h.get("/api/players/bulk?format=arrow");
  t.equal(again.status, 200);
  t.equal(tableFromIPC(Buffer.from(await again.arrayBuffer())).numRows, PLAYERS, "the next request gets the whole edition");
  t.ok(memo.get(key) !== undefined && typeof memo.get(key) !== "symbol", "and it is kept");
});

t.test("over 10,000 rows: several row groups and record batches, every cell the CSV's", async (t) => {
  const csv = Buffer.from(await (await h.get("/api/players/bulk?format=csv")).arrayBuffer()).toString("utf8");
  const [header, ...records] = parse(csv) as string[][];
  t.equal(records.length, PLAYERS);
  const parquet = Buffer.from(await (await h.get("/api/players/bulk?format=parquet")).arrayBuffer());
  const file = parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.byteLength) as ArrayBuffer;
  t.equal(parquetMetadata(file).row_groups.length, 2, "row groups of 10,000 rows");
  const objects = await parquetReadObjects({ file }) as Record<string, unknown>[];
  const arrow = tableFromIPC(Buffer.from(await (await h.get("/api/players/bulk?format=arrow")).arrayBuffer()));
  t.equal(arrow.batches.length, 2, "record batches of 10,000 rows");
  const vectors = header!.map((column) => arrow.getChild(column)!);
  let mismatch = "";
  for (let r = 0; r < records.length && mismatch === ""; r++) {
    for (let c = 0; c < header!.length; c++) {
      const cell = records[r]![c]!;
      const fromParquet = objects[r]![header![c]!] ?? null;
      const fromArrow = vectors[c]!.get(r) ?? null;
      const expected = cell === "" ? null : cell;
      if (String(fromParquet ?? "") !== (expected ?? "") || String(fromArrow ?? "") !== (expected ?? "")) {
        mismatch = `row ${r} ${header![c]}: CSV ${JSON.stringify(cell)}, Parquet ${JSON.stringify(fromParquet)}, Arrow ${JSON.stringify(fromArrow)}`;
        break;
      }
    }
  }
  t.equal(mismatch, "", "every cell of both files is the CSV's");
});

t.test("slices: an abort ends the encoder (its finally runs, a kept build is forgotten)", async (t) => {
  const memo = new EditionMemo();
  const key = memoKey<string>("k");
  let slices = 0;
  function* work(): Sliced<string> {
    for (let i = 0; i < 10; i++) {
      slices++;
      yield;
    }
    return "built";
  }
  let aborted = false;
  const pacer = new Pacer(() => aborted);
  const running = runSliced(kept(memo, key, work), pacer);
  while (slices < 3) await turn();
  aborted = true;
  await t.rejects(running, { name: "ExportAborted" });
  t.ok(slices < 10, `stopped after ${slices} of 10 slices`);
  t.equal(memo.get(key), undefined, "nothing kept");
  t.equal(runNow(kept(memo, key, work)), "built", "a later build runs whole");
  t.equal(memo.get(key), "built");
});
