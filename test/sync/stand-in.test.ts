import t, { type Test } from "tap";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/data/build-edition.js";
import { readSnapshot } from "../../src/data/snapshot.js";
import { ERAS } from "../../src/model/eras.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { runSyncCli } from "../../src/sync/cli.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { fingerprint, runSync, startCourtside } from "./helpers.js";
import { STAND_IN_KEY, hostedDocuments, startStandIn, type StandIn, type StandInEdition } from "./stand-in.js";
import { recordsOfPayload } from "../fixtures/records.js";

// A dozen syncs, one of them waiting out a real 1 s Retry-After: more than tap's 30 s default when the machine is shared.
t.setTimeout(120_000);

const AS_OF = "2026-11-20";
const CURRENT_PATH = "/api/players/bulk";
const LAST_PATH = "/api/versions/2K24/players/bulk?teamType=allt";

/** The rows the stand-in serves for one edition, as it serves them (per era for an archive). */
function hostedRows(edition: StandInEdition): Record<string, any>[] {
  return edition.status === "current" ? hostedDocuments(edition, "all") : ERAS.flatMap((era) => hostedDocuments(edition, era));
}

/** A stored record as a route renders it: the pass-through fields under their own names. */
function asServed(record: PlayerRecord): Record<string, any> {
  const { extra, ...fields } = record;
  return { ...fields, ...extra };
}

/**
 * Every field the hosted row had, with the same value (key order aside) under the same name;
 * badge list entries may gain our `slug`, and nothing else may differ.
 */
export function checkKept(t: Test, hosted: Record<string, any>, served: Record<string, any> | undefined, label: string): number {
  if (served === undefined) {
    t.fail(`${label}: no row with _id ${hosted["_id"]}`);
    return 1;
  }
  let mismatches = 0;
  for (const [key, value] of Object.entries(hosted)) {
    const got = key === "badges" && value.list !== undefined
      ? { ...served[key], list: (served[key]?.list ?? []).map(({ slug: _slug, ...entry }: any) => entry) }
      : served[key];
    const want = key === "badges" ? { ...got, ...value } : value;
    if (JSON.stringify(canonical(got)) !== JSON.stringify(canonical(want))) {
      mismatches++;
      t.same(got, want, `${label} ${hosted["_id"]}: ${key}`);
    }
  }
  return mismatches;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

async function withStandIn(t: Test): Promise<StandIn> {
  const standIn = await startStandIn();
  t.teardown(() => standIn.close());
  return standIn;
}

/** A directory holding a first, complete sync from the stand-in. */
async function syncedDir(t: Test, standIn: StandIn): Promise<string> {
  const out = t.testdir({});
  const first = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(first.code, 0, "exit code 0", { output: first.output });
  return out;
}

t.test("the hosted service's wire shapes are copied whole: its ids, every field, absent fields, no nextCursor, archives with top and no list", async (t) => {
  const standIn = await withStandIn(t);
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(code, 0, "exit code 0", { output });
  t.notOk(output.includes(STAND_IN_KEY), "the key is never printed");
  t.match(output, /2K26: 62 rows; \d+ badge lists repeat entries \(\d+ each badge twice, \d+ only some\), kept; each badge counted once per player/, "what the sync met and kept, said once per edition");
  t.match(output, /2K26: .*2 slugs on two rows, kept/);
  t.match(output, /2K26: .*rows have no ratingHistory \(served with the editions we hold\); \d+ ratingHistory lists are \[\], kept/);

  const [current, plain, hosted] = standIn.editions as [StandInEdition, StandInEdition, StandInEdition];
  const origin = `sync of ${standIn.base}/`;
  const cases = [
    { edition: current, capturedAt: "2026-11-01T00:00:00.000Z", source: origin },
    // An entry with no capturedAt and an answer with none: the sync's own day dates the rows.
    { edition: plain, capturedAt: `${AS_OF}T00:00:00.000Z`, source: origin },
    { edition: hosted, capturedAt: "2025-09-01T00:00:00.000Z", source: "hosted" },
  ];
  for (const { edition, capturedAt, source } of cases) {
    const { payload } = readSnapshot(join(out, `${edition.gameVersion}.msgpack`));
    t.equal(payload.meta.status, edition.status);
    t.equal(payload.meta.capturedAt, capturedAt, `${edition.gameVersion} capturedAt`);
    t.equal(payload.meta.source, source, `${edition.gameVersion} source`);
    const byId = new Map(recordsOfPayload(payload).map((record) => [record._id, asServed(record)]));
    const rows = hostedRows(edition);
    t.equal(byId.size, rows.length, `${edition.gameVersion}: one row per source row`);
    t.equal(rows.reduce((sum, row) => sum + checkKept(t, row, byId.get(row["_id"]), edition.gameVersion), 0), 0, `${edition.gameVersion}: every row kept whole under its own _id`);
  }
  const { payload } = readSnapshot(join(out, "2K25.msgpack"));
  t.ok(recordsOfPayload(payload).every((player) => player.badges.list === undefined && Array.isArray(player.badges.top)), "archived rows keep top, have no list");
  t.ok(recordsOfPayload(payload).some((player) => player.height === undefined), "absent fields stay absent");
  t.ok(recordsOfPayload(readSnapshot(join(out, "2K26.msgpack")).payload).filter((player) => (player.badges.list?.length ?? 0) > 0).length > 10, "current badge lists are kept");
  t.equal(loadEditionSet(out).current.key, "2K26", "a server can load the copy");

  t.same(standIn.log.map((entry) => `${entry.status} ${entry.path}`), [
    "200 /api/versions",
    `200 ${CURRENT_PATH}`,
    ...["2K25", "2K24"].flatMap((key) => ERAS.map((era) => `200 /api/versions/${key}/players/bulk?teamType=${era}`)),
  ], "one request for the list, one for the current edition, one per era of each archive; the teams route is never needed");
  t.ok(standIn.log.slice(1).every((entry) => entry.key === STAND_IN_KEY && !entry.path.includes(STAND_IN_KEY)), "the key travels in X-API-Key only");
  t.equal(standIn.log[0]?.key, undefined, "the edition list is asked without the key");
  t.same(JSON.parse(readFileSync(join(out, "sync-state.json"), "utf8")).source, `${standIn.base}/`, "the ETags are kept beside the snapshots");
  t.same(readdirSync(out).sort(), ["2K24.msgpack", "2K25.msgpack", "2K26.msgpack", "sync-state.json"]);

  const before = fingerprint(out);
  standIn.log.length = 0;
  const again = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(again.code, 0, "exit code 0", { output: again.output });
  t.match(again.output, /nothing changed at the source/);
  t.equal(fingerprint(out), before, "nothing written");
  t.same(standIn.log.map((entry) => entry.status), [200, 304, 304, 304, 304, 304, 304, 304]);
  t.ok(standIn.log.slice(1).every((entry) => entry.ifNoneMatch !== undefined), "every bulk request was conditional");
});

t.test("synced into an empty directory and served: every stand-in row comes back whole under its own _id; a second sync writes nothing; no request the hosted service would refuse", async (t) => {
  const standIn = await withStandIn(t);
  const out = await syncedDir(t, standIn);
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  for (const edition of standIn.editions) {
    const served = new Map<string, Record<string, any>>();
    for (const era of ERAS) {
      const path = edition.status === "current" ? `/api/players/bulk?teamType=${era}` : `/api/versions/${edition.gameVersion}/players/bulk?teamType=${era}`;
      const { status, body } = await courtside.json(path);
      t.equal(status, 200, path);
      for (const row of body.data) served.set(row._id, row);
    }
    const rows = hostedRows(edition);
    t.equal(rows.reduce((sum, row) => sum + checkKept(t, row, served.get(row["_id"]), edition.gameVersion), 0), 0, `${edition.gameVersion}: every row, every field, the same value`);
    if (edition.status !== "current") continue;
    let detailMismatches = 0;
    for (const row of rows) {
      const { status, body } = await courtside.json(`/api/players/${row["_id"]}`);
      if (status !== 200) detailMismatches++;
      else detailMismatches += checkKept(t, row, body.data, `GET /api/players/${row["_id"]}`);
    }
    t.equal(detailMismatches, 0, "GET /api/players/<its id> answers every row, whole");
  }
  const current = hostedRows(standIn.editions[0]!);
  t.ok(current.some((row) => row["positions"] === undefined), "the stand-in has rows without positions");
  t.ok(current.some((row) => row["hotZones"] !== undefined && Object.keys(row["hotZones"]).length < 12), "and partial hot zones");
  t.ok(current.some((row) => row["attributes"]?.["clutchShooting"] !== undefined) && current.some((row) => row["badges"].list.some((badge: any) => badge.name === "Spark Plug")), "and an attribute and a badge the demo catalogue lacks");
  t.ok(current.every((row) => row["attributes"] === undefined || Object.keys(row["attributes"]).length <= 36), "and the 35 attribute keys of real 2K data (plus the unknown one)");
  // The shapes of the hosted service's real documents (issue 29, docs/data.md#source-values-kept-exactly).
  const lists = current.filter((row) => row["badges"].total > 0);
  t.ok(lists.some((row) => row["badges"].list.length === 2 * row["badges"].total), "badge lists that name every badge twice");
  t.ok(lists.some((row) => row["badges"].list.length > row["badges"].total && row["badges"].list.length < 2 * row["badges"].total), "and some with a partial second pass");
  const slugRows = new Map<string, Record<string, any>[]>();
  for (const row of current) slugRows.set(`${row["teamType"]}/${row["slug"]}`, [...(slugRows.get(`${row["teamType"]}/${row["slug"]}`) ?? []), row]);
  t.equal([...slugRows.values()].filter((rows) => rows.length === 2 && rows[0]!["team"] !== rows[1]!["team"]).length, 2, "two traded players, each on two rows of one slug");
  t.ok(current.some((row) => row["gameVersion"] === undefined && row["ratingHistory"] === undefined && row["badges"].list.every((entry: any) => entry.description === undefined && entry.imageUrl === undefined)), "older rows without gameVersion, ratingHistory or long badge entries");
  t.ok(current.some((row) => Array.isArray(row["ratingHistory"]) && row["ratingHistory"].length === 0), "a rookie's ratingHistory: []");
  t.ok(current.some((row) => row["badges"].list.some((entry: any) => entry.name === "Handles For Days")), "badge names as 2kratings spells them");
  for (const rows of slugRows.values()) {
    if (rows.length < 2) continue;
    const first = [...rows].sort((a, b) => a["_creationTime"] - b["_creationTime"])[0]!;
    const { body } = await courtside.json(`/api/players/slug/${first["slug"]}`);
    t.equal(body.data._id, first["_id"], `${first["slug"]}: the row created first`);
    t.same(body.meta.variants.map((variant: any) => variant._id), rows.filter((row) => row !== first).map((row) => row["_id"]), "the other named in meta.variants");
  }
  const before = fingerprint(out);
  standIn.log.length = 0;
  const again = await runSync(["--from", standIn.base, "--out", out, "--as-of", "2026-11-27"], STAND_IN_KEY);
  t.equal(again.code, 0, "exit code 0", { output: again.output });
  t.ok(standIn.log.slice(1).every((entry) => entry.status === 304), "every bulk answer is 304");
  t.equal(fingerprint(out), before, "nothing written");
  t.same(standIn.log.filter((entry) => entry.refused !== undefined), [], "no request the hosted service would refuse");
});

t.test("a synced edition's catalogue is its data's: its own attributes filter and sort, its own badges answer the badge routes, a key it lacks is a 400 naming it", async (t) => {
  const standIn = await withStandIn(t);
  const out = await syncedDir(t, standIn);
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  const current = hostedRows(standIn.editions[0]!);
  const clutch = current.filter((row) => (row["attributes"]?.["clutchShooting"] ?? -1) >= 75);
  t.ok(clutch.length > 0, "some stand-in rows have clutchShooting ≥ 75");

  const filtered = await courtside.json("/api/players?era=all&clutch_shooting_gte=75&limit=100");
  t.equal(filtered.status, 200, "a bound on the edition's own attribute is answered");
  t.same(filtered.body.data.map((row: any) => row._id).sort(), clutch.map((row) => row["_id"]).sort(), "exactly the rows with clutchShooting ≥ 75");
  t.same(filtered.body.meta.pagination.total, clutch.length);

  const sorted = await courtside.json("/api/players?era=all&sort=clutch_shooting:desc&limit=5");
  t.equal(sorted.status, 200);
  const values = sorted.body.data.map((row: any) => row.attributes.clutchShooting);
  const best = current.map((row) => row["attributes"]?.["clutchShooting"]).filter((value) => value !== undefined).sort((a, b) => b - a).slice(0, 5);
  t.same(values, best, "sorted by the edition's own attribute, best first");

  const lacking = await courtside.json("/api/players?outside_scoring_gte=50");
  t.equal(lacking.status, 400, "a demo attribute the synced edition lacks is refused");
  t.equal(lacking.body.error.code, "INVALID_PARAMETER");
  t.match(lacking.body.error.message, /2K26 has no attribute outside_scoring/, "naming the edition and the attribute");
  t.ok(lacking.body.error.details.allowed.includes("clutch_shooting") && lacking.body.error.details.allowed.length === 36, "listing its 36 attributes", { allowed: lacking.body.error.details.allowed });
  const lackingSort = await courtside.json("/api/players?sort=potential:desc");
  t.equal(lackingSort.status, 400, "and a sort on one");
  t.match(lackingSort.body.error.message, /2K26 has no attribute potential/);

  const badge = await courtside.json("/api/badges/spark-plug");
  t.equal(badge.status, 200, "a badge the demo catalogue lacks has its own route");
  t.equal(badge.body.data.category, "All Around", "with the category its source gives");
  t.equal(badge.body.data.imageUrl, "https://www.2kratings.com/wp-content/uploads/spark-plug.png");
  const holders = current.filter((row) => row["badges"].list?.some((entry: any) => entry.name === "Spark Plug"));
  t.equal(badge.body.data.holders.total, holders.length, "and its holders counted");
  const holderPage = await courtside.json("/api/badges/spark-plug/players?limit=100");
  t.same(holderPage.body.data.map((row: any) => row._id).sort(), holders.map((row) => row["_id"]).sort(), "the holders route lists them");
  const byBadge = await courtside.json("/api/players?era=all&badge=spark-plug&limit=100");
  t.same(byBadge.body.data.map((row: any) => row._id).sort(), holders.map((row) => row["_id"]).sort(), "and the badge filter finds them");
  const categories = await courtside.json("/api/badges/categories");
  t.ok(categories.body.data.some((entry: any) => entry.category === "All Around"), "its category is listed");
  const inCategory = await courtside.json("/api/badges?category=all%20around");
  t.same(inCategory.body.data.map((entry: any) => entry.slug), ["spark-plug"], "and filters the badge list, in any case");
});

t.test("the stand-in refuses what the hosted service refuses: era on the current bulk, unknown parameters, an unknown teamType", async (t) => {
  const standIn = await withStandIn(t);
  for (const path of ["/api/players/bulk?era=all", "/api/players/bulk?limit=5", "/api/versions/2K25/players/bulk?teamType=nba"]) {
    const response = await fetch(standIn.base + path, { headers: { "x-api-key": STAND_IN_KEY } });
    t.equal(response.status, 400, path);
  }
  t.equal(standIn.log.filter((entry) => entry.refused !== undefined).length, 3, "each is logged as refused");
});

t.test("a 429 with Retry-After: 1 is waited out and the sync completes", async (t) => {
  const standIn = await withStandIn(t);
  standIn.fail("/api/versions/2K25/players/bulk?teamType=class", "retry-after-1");
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(code, 0, "exit code 0", { output });
  t.match(output, /rate limited \(429\), waiting 1 s as the source asks/);
  t.same(standIn.log.filter((entry) => entry.path.endsWith("2K25/players/bulk?teamType=class")).map((entry) => entry.status), [429, 200]);
  t.ok(existsSync(join(out, "2K25.msgpack")));
});

t.test("failed connections are retried with backoff, and the sync completes", async (t) => {
  const standIn = await withStandIn(t);
  standIn.fail(CURRENT_PATH, "reset", 2);
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(code, 0, "exit code 0", { output });
  t.match(output, /connection was reset \(ECONNRESET\); retry 1 of 3 in/);
  t.match(output, /retry 2 of 3 in/);
  t.same(standIn.log.filter((entry) => entry.path === CURRENT_PATH).map((entry) => entry.status), [0, 0, 200]);
});

t.test("every failure exits non-zero naming the edition, the address and the reason, and leaves the data directory as it was", async (t) => {
  const cases: { name: string; path: string; fault: Parameters<StandIn["fail"]>[1]; times?: number; reason: RegExp }[] = [
    { name: "a truncated body", path: LAST_PATH, fault: "truncate", times: 4, reason: /body was cut off: \d+ of \d+ bytes arrived .*gave up after 4 attempts/ },
    { name: "a body that is not complete JSON", path: LAST_PATH, fault: "cut-json", reason: /not complete JSON/ },
    { name: "an envelope with success: false", path: LAST_PATH, fault: "success-false", reason: /success: false INTERNAL_ERROR: database unavailable/ },
    { name: "a row that fails validation", path: LAST_PATH, fault: "bad-row", reason: /row 0 \([a-z0-9-]+\), field overall: 104 is not an integer from 0 to 99/ },
    { name: "fewer rows than meta.total", path: LAST_PATH, fault: "short", reason: /holds \d+ of the \d+ players its meta.total announces/ },
    { name: "a 429 asking for longer than --max-wait", path: LAST_PATH, fault: "retry-after-long", reason: /rate limited \(429\): the source asks to wait 3600 s, and --max-wait leaves 300 s/ },
    { name: "an answer short of the edition list's count", path: LAST_PATH, fault: "drop-row", reason: /the edition list counts \d+ allt players, the bulk answers hold \d+; the source changed mid-sync or is inconsistent/ },
    { name: "a gateway that keeps failing", path: LAST_PATH, fault: "server-error", times: 4, reason: /HTTP 502 BAD_GATEWAY: upstream unavailable \(gave up after 4 attempts\)/ },
  ];
  for (const { name, path, fault, times, reason } of cases) {
    await t.test(name, async (t) => {
      const standIn = await withStandIn(t);
      const out = await syncedDir(t, standIn);
      // The source has changed, so a sync that got through would write.
      standIn.editions[0]!.players[0]!.overall = 50;
      standIn.bump();
      const before = fingerprint(out);
      standIn.fail(path, fault, times);
      const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", "2026-11-27"], STAND_IN_KEY);
      t.equal(code, 1, "exit code 1", { output });
      t.match(output, `failed: 2K24: ${standIn.base}${path}: `);
      t.match(output, reason);
      t.match(output, `nothing was written to ${out}`);
      t.notOk(output.includes(STAND_IN_KEY));
      t.equal(fingerprint(out), before, "the data directory is byte for byte as it was");
    });
  }

  await t.test("a wrong key (401), never retried and never printed", async (t) => {
    const standIn = await withStandIn(t);
    const out = await syncedDir(t, standIn);
    const before = fingerprint(out);
    standIn.log.length = 0;
    const wrong = "2k_wrongkey000000000000000000000000";
    const { code, output } = await runSync(["--from", standIn.base, "--out", out], wrong);
    t.equal(code, 1, "exit code 1", { output });
    t.match(output, `failed: 2K26: ${standIn.base}${CURRENT_PATH}: the source refused the key: HTTP 401 INVALID_API_KEY: Invalid API key [key]`);
    t.notOk(output.includes(wrong), "the key the source echoed is redacted");
    t.same(standIn.log.map((entry) => entry.status), [200, 401], "no retry after a 401");
    t.equal(fingerprint(out), before);
  });
});

t.test("an archive the source has changed is reported and not copied; the rest is written", async (t) => {
  const standIn = await withStandIn(t);
  const out = await syncedDir(t, standIn);
  const archive = readFileSync(join(out, "2K25.msgpack"));
  standIn.editions[1]!.players[0]!.overall = 40;
  standIn.editions[0]!.players[0]!.overall = 41;
  standIn.bump();
  for (const round of [1, 2]) {
    const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", "2026-11-27"], STAND_IN_KEY);
    t.equal(code, 1, "exit code 1", { output });
    t.match(output, /refused 2K25, not copied: 2K25 is archived and archives never change/, `reported on sync ${round}`);
    t.ok(readFileSync(join(out, "2K25.msgpack")).equals(archive), "the archive on disk is untouched");
  }
  t.equal(recordsOfPayload(readSnapshot(join(out, "2K26.msgpack")).payload).find((player) => player.slug === standIn.editions[0]!.players[0]!.slug && player.teamType === standIn.editions[0]!.players[0]!.teamType)?.overall, 41, "the current edition was copied");
});

t.test("an era whose ETag changed while the others answered 304 is fetched whole again; same players, nothing written", async (t) => {
  const standIn = await withStandIn(t);
  const out = await syncedDir(t, standIn);
  const before = fingerprint(out);
  const state = readFileSync(join(out, "sync-state.json"), "utf8");
  standIn.touch("/api/versions/2K25/players/bulk?teamType=class");
  standIn.touch(CURRENT_PATH);
  standIn.log.length = 0;
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", "2026-11-27"], STAND_IN_KEY);
  t.equal(code, 0, "exit code 0", { output });
  t.same(standIn.log.filter((entry) => entry.path.includes("2K25")).map((entry) => `${entry.status} ${entry.path.slice(-5)}`), [
    "304 =curr", "200 class", "304 =allt", "200 =curr", "200 =allt",
  ], "the two eras that answered 304 are asked again without If-None-Match");
  t.match(output, /2K25 unchanged: \S+ already holds the source's content/);
  t.match(output, /2K26 unchanged/, "a new ETag on the same players adds no week");
  t.match(output, /0 written, 2 unchanged, 1 not modified \(304\); wrote no snapshot, only the ETags/);
  t.not(readFileSync(join(out, "sync-state.json"), "utf8"), state, "the new ETags are remembered");
  t.same(readdirSync(out).sort(), ["2K24.msgpack", "2K25.msgpack", "2K26.msgpack", "sync-state.json"]);
  t.not(fingerprint(out), before);
  const third = await runSync(["--from", standIn.base, "--out", out, "--as-of", "2026-11-27"], STAND_IN_KEY);
  t.match(third.output, /nothing changed at the source/);
});

t.test("a sync that would leave two current editions writes nothing", async (t) => {
  const standIn = await withStandIn(t);
  const out = t.testdir({});
  writeEdition(out, randomEdition(20, 5), AS_OF);
  const before = fingerprint(out);
  const { code, output } = await runSync(["--from", standIn.base, "--out", out], STAND_IN_KEY);
  t.equal(code, 1, "exit code 1", { output });
  t.match(output, /would leave 2 current editions in the directory \(2K27 \(already in .*\), 2K26 \(from the source\)\)/);
  t.equal(fingerprint(out), before);
});

t.test("--edition copies only the editions named", async (t) => {
  const standIn = await withStandIn(t);
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--edition", "2k26", "--edition", "2K24"], STAND_IN_KEY);
  t.equal(code, 0, "exit code 0", { output });
  t.same(readdirSync(out).sort(), ["2K24.msgpack", "2K26.msgpack", "sync-state.json"]);
  t.notOk(standIn.log.some((entry) => entry.path.includes("2K25")));
  const unknown = await runSync(["--from", standIn.base, "--out", out, "--edition", "2K19"], STAND_IN_KEY);
  t.equal(unknown.code, 1);
  t.match(unknown.output, /2K19: .*the source has no edition 2K19 \(it lists 2K26, 2K25, 2K24\)/);
});

t.test("progress is a bar on a terminal and plain lines otherwise", async (t) => {
  const standIn = await withStandIn(t);
  let written = "";
  const plain = await runSync(["--from", standIn.base, "--out", t.testdir({})], STAND_IN_KEY);
  t.match(plain.output, /^sync: 1\/8 edition list: 2K26, 2K25, 2K24$/m);
  t.match(plain.output, /^sync: 2\/8 2K26 all: \d+ KiB$/m);
  t.notOk(plain.output.includes("\r"));
  const terminal = await runSync(["--from", standIn.base, "--out", t.testdir({})], STAND_IN_KEY, {
    stderr: { write: (text: string) => { written += text; return true; }, isTTY: true },
  });
  t.equal(terminal.code, 0);
  t.match(written, /\r\[#{24}\] 8\/8 2K24 allt/);
  t.match(written, /\nsynced 3 editions from /);
});

t.test("usage errors exit 2 and say what is wrong", async (t) => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [[], { COURTSIDE_SYNC_KEY: "k" }, /--from URL is required/],
    [["--from", "http://127.0.0.1:1"], {}, /no API key: set COURTSIDE_SYNC_KEY \(or give --key\)/],
    [["--from", "http://user:pw@127.0.0.1:1"], { COURTSIDE_SYNC_KEY: "k" }, /must not carry credentials/],
    [["--from", "ftp://127.0.0.1"], { COURTSIDE_SYNC_KEY: "k" }, /http or https/],
    [["--from", "http://127.0.0.1:1", "--edition", "26"], { COURTSIDE_SYNC_KEY: "k" }, /--edition 26 is not 2K \+ two digits/],
    [["--from", "http://127.0.0.1:1", "--max-wait", "soon"], { COURTSIDE_SYNC_KEY: "k" }, /--max-wait soon/],
    [["--from", "http://127.0.0.1:1", "--as-of", "2026-13-01"], { COURTSIDE_SYNC_KEY: "k" }, /--as-of 2026-13-01/],
    [["--from", "http://127.0.0.1:1", "--bogus"], { COURTSIDE_SYNC_KEY: "k" }, /bogus/],
  ];
  for (const [args, env, message] of cases) {
    let output = "";
    const code = await runSyncCli(args, env, { stderr: { write: (text: string) => { output += text; return true; } } });
    t.equal(code, 2, args.join(" "));
    t.match(output, message);
    t.match(output, /usage: sync --from URL/);
  }
  let help = "";
  t.equal(await runSyncCli(["--help"], {}, { stderr: { write: (text: string) => { help += text; return true; } } }), 0);
  t.match(help, /COURTSIDE_SYNC_KEY/);
});

t.test("a source that cannot be reached fails after its retries, naming the address", async (t) => {
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", "http://127.0.0.1:9", "--out", out, "--key", "x"], "unused");
  t.equal(code, 1, "exit code 1", { output });
  t.match(output, /failed: http:\/\/127\.0\.0\.1:9\/api\/versions: the connection was refused \(ECONNREFUSED\) \(gave up after 4 attempts\)/);
  t.same(readdirSync(out), []);
});
