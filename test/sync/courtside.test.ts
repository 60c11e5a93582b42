import t, { type Test } from "tap";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { ERAS } from "../../src/model/eras.js";
import { startHarness } from "../http/harness.js";
import { fingerprint, requestsSince, runSync, startCourtside, type Courtside } from "./helpers.js";

const AS_OF = "2026-11-20";
const NEXT_WEEK = "2026-11-27";

interface Source {
  base: string;
  json(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

// Eight demo editions, two services and three syncs: on the shared two-core machine this file
// needs more than tap's 30 s default.
t.setTimeout(240_000);

/** Whole answers equal; on a difference, the first differing row is what the failure shows. */
async function sameAnswer(t: Test, source: Source, copy: Courtside, path: string): Promise<void> {
  const [expected, actual] = await Promise.all([source.json(path, { "accept-encoding": "identity" }), copy.json(path)]);
  t.equal(actual.status, 200, `${path} answers on the copy`);
  t.equal(expected.status, 200, `${path} answers on the source`);
  if (isDeepStrictEqual(actual.body, expected.body)) {
    t.pass(`${path}: ${Array.isArray(expected.body.data) ? expected.body.data.length : 1} rows equal, field for field`);
    return;
  }
  const rows: any[] = expected.body.data ?? [];
  const copied: any[] = actual.body.data ?? [];
  const first = rows.findIndex((row, i) => !isDeepStrictEqual(row, copied[i]));
  t.same({ count: copied.length, meta: actual.body.meta, firstDifferent: copied[first] }, { count: rows.length, meta: expected.body.meta, firstDifferent: rows[first] }, `${path} differs`);
}

async function compareEveryEdition(t: Test, source: Source, copy: Courtside): Promise<void> {
  await sameAnswer(t, source, copy, "/api/versions");
  const versions = (await source.json("/api/versions")).body.data as { gameVersion: string }[];
  for (const { gameVersion } of versions) {
    for (const era of ERAS) {
      await sameAnswer(t, source, copy, `/api/versions/${gameVersion}/players/bulk?era=${era}`);
      await sameAnswer(t, source, copy, `/api/versions/${gameVersion}/teams?era=${era}`);
    }
  }
  await sameAnswer(t, source, copy, "/api/players/bulk?era=all");
  for (const era of ERAS) await sameAnswer(t, source, copy, `/api/teams?era=${era}`);
}

t.test("a sync from a Courtside on the demo data copies every edition faithfully, then politely", async (t) => {
  const demo = generateDemoEditions({ asOf: AS_OF });
  const source = await startHarness({ sources: demo });
  t.teardown(() => source.close());
  const out = t.testdir({});
  const args = ["--from", source.base, "--out", out];

  const first = await runSync([...args, "--as-of", AS_OF], source.key);
  t.equal(first.code, 0, "exit code 0", { output: first.output });
  t.notOk(first.output.includes(source.key), "the key is never printed");
  t.match(first.output, /wrote \S+2K27\.msgpack \(current, 1,842 players/);
  t.match(first.output, /8 written, 0 unchanged, 0 not modified \(304\)/);
  t.match(first.output, /\(23 requests\)/, "the edition list, one bulk for the current edition, three per archive");

  const copy = await startCourtside(out);
  t.teardown(() => copy.close());

  await t.test("the copy answers every edition's bulk, the current bulk with badge lists, and the teams exactly as the source", async (t) => {
    await compareEveryEdition(t, source, copy);
    const current = (await copy.json("/api/players/bulk?era=all")).body.data as any[];
    t.ok(current.filter((row) => row.badges.list?.length > 0).length > 1000, "badge lists came along");
    const archived = (await copy.json("/api/versions/2K24/players/bulk?era=class")).body.data as any[];
    t.ok(archived.every((row) => row.badges.list === undefined && Array.isArray(row.badges.top)), "archives hold counts and top only");
  });

  await t.test("a second sync writes nothing and the source answers every bulk request with 304", async (t) => {
    const before = fingerprint(out);
    const stats = source.service.stats().requests;
    const second = await runSync([...args, "--as-of", AS_OF], source.key);
    t.equal(second.code, 0, "exit code 0", { output: second.output });
    t.match(second.output, /nothing changed at the source: every bulk answer was 304 Not Modified; wrote nothing/);
    t.equal(fingerprint(out), before, "the data directory is byte for byte as it was");
    t.same(requestsSince(stats, source.service.stats().requests), {
      "/api/versions 200": 1,
      "/api/players/bulk 304": 1,
      "/api/versions/:version/players/bulk 304": 21,
    }, "the source's access counts: the edition list, then only 304s");
  });

  await t.test("a change to the source's current edition is fetched alone and adds this week to the copy's history", async (t) => {
    const current = demo.find((edition) => edition.status === "current")!;
    const raised = new Set(current.players.filter((player) => player.overall < 99).slice(0, 10).map((player) => player._id));
    const next = { ...current, history: [], players: current.players.map((player) => (raised.has(player._id) ? { ...player, overall: player.overall + 1 } : player)) };
    writeEdition(join(source.dir, "data"), next, NEXT_WEEK);
    t.same(source.service.reload.check().map((event) => event.kind), ["loaded"]);

    const stats = source.service.stats().requests;
    const third = await runSync([...args, "--as-of", NEXT_WEEK], source.key);
    t.equal(third.code, 0, "exit code 0", { output: third.output });
    t.match(third.output, /1 written, 0 unchanged, 7 not modified \(304\)/);
    t.same(requestsSince(stats, source.service.stats().requests), {
      "/api/versions 200": 1,
      "/api/players/bulk 200": 1,
      "/api/versions/:version/players/bulk 304": 21,
    });

    t.same(copy.service.reload.check().map((event) => event.kind), ["loaded"], "the running copy hot-reloads what the sync wrote");
    await sameAnswer(t, source, copy, "/api/players/bulk?era=all");
    const [id] = raised;
    const history = (await copy.json(`/api/players/${id}/history`)).body;
    t.same(history.data.map((week: any) => week.date), [NEXT_WEEK, AS_OF], "one week per sync, newest first");
    t.equal(history.data[0].delta, 1, "the raise shows as this week's delta");
  });
});
