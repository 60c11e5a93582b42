// GET /api/players/:id/percentiles: every player of two demo editions, a tie-heavy fixture and
// the real 2K26 samples, in every cohort kind, checked against a naive computation over full
// records (cohort by filter, percentile by counting); and bad input as the other player routes.
import t from "tap";
import type { Test } from "tap";
import { fileURLToPath } from "node:url";
import { ATTRIBUTE_GROUPS, GROUP_SCORE_KEYS } from "../../src/model/attributes.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { importFiles } from "../../src/pipeline/import.js";
import type { EditionSource, PlayerRecord } from "../../src/model/player.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { startHarness, type Harness } from "./harness.js";

type Json = any;
const KINDS = ["position", "era", "all"] as const;
type Kind = (typeof KINDS)[number];

/** Every player of an edition in full, from bulk, era by era. */
async function everyone(h: Harness, version: string): Promise<PlayerRecord[]> {
  const players: PlayerRecord[] = [];
  for (const era of ["curr", "class", "allt"]) {
    const { status, body } = await h.json(`/api/versions/${version}/players/bulk?era=${era}`);
    if (status !== 200) throw new Error(`bulk ${status}`);
    players.push(...(body.data as PlayerRecord[]));
  }
  return players;
}

/** The first entry of the list that is a position, read as the position filter reads it. */
function primaryOf(p: PlayerRecord): string | undefined {
  return (p.positions ?? []).map((entry) => entry.trim().toUpperCase()).find((entry) => ["PG", "SG", "SF", "PF", "C"].includes(entry));
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The naive standing of `value` among `values` (the cohort's values, absent ones already left out). */
function naiveStanding(values: readonly number[], value: number | undefined): { percentile: number | null; cohortSize: number; cohortMean: number | null } {
  const n = values.length;
  const cohortMean = n === 0 ? null : round1(mean(values));
  if (value === undefined || n === 0) return { percentile: null, cohortSize: n, cohortMean };
  let below = 0;
  let equal = 0;
  for (const v of values) {
    if (v < value) below++;
    else if (v === value) equal++;
  }
  return { percentile: Math.round(((below + equal / 2) / n) * 100), cohortSize: n, cohortMean };
}

const KNOWN_KEYS = new Set<string>([...Object.values(ATTRIBUTE_GROUPS).flat(), ...GROUP_SCORE_KEYS]);

/** A group's score: the mean of its members the player has (members: the registry's; `other`, what the registry does not know). */
function groupScore(p: PlayerRecord, group: string): number | undefined {
  const attributes = p.attributes as Record<string, number>;
  const members = group === "other" ? Object.keys(attributes).filter((key) => !KNOWN_KEYS.has(key)) : ((ATTRIBUTE_GROUPS as Record<string, readonly string[]>)[group] ?? []);
  const values = members.map((key) => attributes[key]).filter((v): v is number => v !== undefined);
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

function cohortOf(players: readonly PlayerRecord[], target: PlayerRecord, kind: Kind): PlayerRecord[] {
  if (kind === "all") return [...players];
  if (kind === "era") return players.filter((p) => p.teamType === target.teamType);
  const primary = primaryOf(target);
  return primary === undefined ? [] : players.filter((p) => p.teamType === target.teamType && primaryOf(p) === primary);
}

/** A cohort's values per metric (`overall`, an attribute, `group:<name>`), absent ones left out: gathered once per cohort, counted per answer. */
type CohortValues = { size: number; valuesOf: (metric: string) => number[] };

function cohortValues(players: readonly PlayerRecord[], target: PlayerRecord, kind: Kind, memo: Map<string, CohortValues>): CohortValues {
  const key = kind === "all" ? "all" : kind === "era" ? `era|${target.teamType}` : `position|${target.teamType}|${primaryOf(target) ?? "-"}`;
  let found = memo.get(key);
  if (found === undefined) {
    const cohort = cohortOf(players, target, kind);
    const byMetric = new Map<string, number[]>();
    const valuesOf = (metric: string): number[] => {
      let values = byMetric.get(metric);
      if (values === undefined) {
        values = cohort.map((p) => valueOf(p, metric)).filter((v): v is number => v !== undefined);
        byMetric.set(metric, values);
      }
      return values;
    };
    found = { size: cohort.length, valuesOf };
    memo.set(key, found);
  }
  return found;
}

function valueOf(p: PlayerRecord, metric: string): number | undefined {
  if (metric === "overall") return p.overall;
  if (metric.startsWith("group:")) return groupScore(p, metric.slice(6));
  return (p.attributes as Record<string, number>)[metric];
}

/** Checks one answer against the naive computation: one failed assertion naming what differs. */
function checkAnswer(t: Test, players: readonly PlayerRecord[], target: PlayerRecord, kind: Kind, body: Json, memo: Map<string, CohortValues>): void {
  const cohort = cohortValues(players, target, kind, memo);
  const data = body.data;
  const problems: string[] = [];
  const expectSame = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${what}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
  };
  expectSame("player", data.player._id, target._id);
  expectSame("cohort size", data.cohort.size, cohort.size);
  expectSame("cohort era", data.cohort.era, kind === "all" ? undefined : target.teamType);
  if (kind === "position") expectSame("cohort position", data.cohort.position, primaryOf(target) ?? null);
  expectSame("overall", data.overall, { value: target.overall, ...naiveStanding(cohort.valuesOf("overall"), cohort.size === 0 ? undefined : target.overall) });
  const answered = new Set((data.attributes as Json[]).map((row) => row.attribute));
  for (const key of Object.keys(target.attributes)) if (!answered.has(key)) problems.push(`attribute ${key} missing`);
  for (const row of data.attributes as Json[]) {
    const own = valueOf(target, row.attribute);
    expectSame(row.attribute, { value: row.value, percentile: row.percentile, cohortSize: row.cohortSize, cohortMean: row.cohortMean }, { value: own ?? null, ...naiveStanding(cohort.valuesOf(row.attribute), own) });
  }
  for (const row of data.groups as Json[]) {
    const own = groupScore(target, row.group);
    const expected = naiveStanding(cohort.valuesOf(`group:${row.group}`), own);
    expectSame(`${row.group} score`, row.value, own === undefined ? null : round1(own));
    expectSame(`${row.group} percentile`, row.percentile, expected.percentile);
    expectSame(`${row.group} size`, row.cohortSize, expected.cohortSize);
    // A mean of fractions: summed in another order, it may differ in the last bit (and so by a rounding step).
    if (!(row.cohortMean === expected.cohortMean || Math.abs(row.cohortMean - (expected.cohortMean as number)) <= 0.1 + 1e-9)) problems.push(`${row.group} mean ${row.cohortMean} ≠ ${expected.cohortMean}`);
  }
  if (problems.length > 0) t.fail(`${target._id} ${kind}: ${problems.slice(0, 5).join("; ")}`);
}

/** Every player of the edition in every cohort kind, a few requests in flight at a time; returns how many answers were checked. */
async function checkEveryPlayer(t: Test, h: Harness, version: string, players: readonly PlayerRecord[]): Promise<number> {
  const jobs = players.flatMap((p) => KINDS.map((kind) => [p, kind] as const));
  const memo = new Map<string, CohortValues>();
  let next = 0;
  let checked = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const [p, kind] = jobs[next++] as (typeof jobs)[number];
      const { status, body } = await h.json(`/api/versions/${version}/players/${p._id}/percentiles?cohort=${kind}`);
      if (status !== 200) { t.fail(`${p._id} ${kind}: ${status}`); continue; }
      checkAnswer(t, players, p, kind, body, memo);
      checked++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // Every attribute of the edition, held by anyone, is answered for everyone (null where lacking).
  const listed = (await h.json(`/api/versions/${version}/players/${players[0]?._id}/percentiles`)).body.data.attributes.map((row: Json) => row.attribute);
  t.same(listed.filter((key: string) => !new Set(players.flatMap((p) => Object.keys(p.attributes))).has(key)), [], `${version}: no attribute nobody has`);
  t.same([...new Set(players.flatMap((p) => Object.keys(p.attributes)))].filter((key) => !listed.includes(key)), [], `${version}: every attribute anyone has`);
  return checked;
}

t.test("two demo editions and a tie-heavy fixture: every player, every cohort kind, as the naive computation", async (t) => {
  const demo = generateDemoEditions({ asOf: "2026-11-20" });
  const current = demo.find((edition) => edition.status === "current") as EditionSource;
  const archived = demo.find((edition) => edition.gameVersion === "2K26") as EditionSource;
  // Values 60–71 (ties everywhere), 5 % of attributes absent, rookies with none.
  const ties = { ...randomEdition(400, 31, "archived"), gameVersion: "2K19" };
  const h = await startHarness({ sources: [current, archived, ties] });
  t.teardown(() => h.close());
  for (const version of [current.gameVersion, "2K26", "2K19"]) {
    const players = await everyone(h, version);
    const checked = await checkEveryPlayer(t, h, version, players);
    t.equal(checked, players.length * 3, `${version}: ${players.length} players × 3 cohorts checked`);
  }
  const rookies = (await everyone(h, "2K19")).filter((p) => Object.keys(p.attributes).length === 0);
  t.ok(rookies.length > 0, "the fixture has players without attributes (their percentiles are null)");
  const rookie = (await h.json(`/api/versions/2K19/players/${rookies[0]?._id}/percentiles`)).body.data;
  t.ok(rookie.attributes.every((row: Json) => row.value === null && row.percentile === null), "a player without attributes has no attribute percentile");
  t.type(rookie.overall.percentile, "number", "but has an overall percentile");
});

t.test("on the real 2K26 samples: every player, every cohort kind", async (t) => {
  const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
  const capturedAt = "2025-08-01T00:00:00.000Z";
  const current: EditionSource = { gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players: importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt }), history: [] };
  const h = await startHarness({ sources: [current] });
  t.teardown(() => h.close());
  const players = await everyone(h, "2K26");
  t.equal(await checkEveryPlayer(t, h, "2K26", players), players.length * 3);
  const curry = (await h.json("/api/players/stephen-curry/percentiles?teamType=curr")).body.data;
  t.equal(curry.cohort.position, "PG");
  t.ok(curry.attributes.find((row: Json) => row.attribute === "threePointShot").percentile >= 95, "Curry's three-point shot is near the top of current point guards");
});

t.test("the route as the other player routes: id or slug, teamType, team, gameVersion, the versioned prefix, ETag; bad input", async (t) => {
  const demo = generateDemoEditions({ asOf: "2026-11-20" });
  const current = demo.find((edition) => edition.status === "current") as EditionSource;
  const archived = demo.find((edition) => edition.gameVersion === "2K26") as EditionSource;
  // A player whose list names no known position: no position cohort (a warning), but an era one.
  const odd = { ...(current.players[0] as PlayerRecord), positions: ["Wing"] };
  const h = await startHarness({ sources: [{ ...current, players: [odd, ...current.players.slice(1)] }, archived] });
  t.teardown(() => h.close());
  const players = await everyone(h, current.gameVersion);
  const target = players.find((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 30) as PlayerRecord;

  const byId = await h.json(`/api/players/${target._id}/percentiles`);
  t.equal(byId.status, 200);
  t.equal(byId.body.data.cohort.kind, "position", "position is the default cohort");
  t.equal(byId.body.meta.gameVersion, current.gameVersion);
  t.match(byId.body.meta.method, /below \+ equal \/ 2/);
  t.ok(byId.headers.get("etag"), "cacheable with an ETag");
  t.equal((await h.get(`/api/players/${target._id}/percentiles`, { "if-none-match": byId.headers.get("etag") as string })).status, 304);
  const bySlug = await h.json(`/api/players/${target.slug}/percentiles?teamType=curr`);
  t.same(bySlug.body.data, byId.body.data, "a slug narrowed by teamType is the same player");
  const byTeam = await h.json(`/api/players/${target.slug}/percentiles?team=${encodeURIComponent(target.team)}`);
  t.same(byTeam.body.data, byId.body.data, "team= narrows as on /api/players/slug/:slug");
  const upper = await h.json(`/api/players/${target._id}/percentiles?cohort=ERA`);
  t.equal(upper.body.data.cohort.kind, "era", "cohort is read in any case");

  const old = (await everyone(h, "2K26")).find((p) => Object.keys(p.attributes).length > 30) as PlayerRecord;
  const byParam = await h.json(`/api/players/${old._id}/percentiles?gameVersion=2k26&cohort=all`);
  const byPrefix = await h.json(`/api/versions/2K26/players/${old._id}/percentiles?cohort=all`);
  t.equal(byParam.status, 200);
  t.equal(byParam.body.meta.gameVersion, "2K26");
  t.same(byPrefix.body, byParam.body, "gameVersion= answers as the versioned prefix does");

  const noPosition = await h.json(`/api/players/${odd._id}/percentiles`);
  t.equal(noPosition.status, 200);
  t.same(noPosition.body.data.cohort, { kind: "position", era: odd.teamType, position: null, size: 0 });
  t.equal(noPosition.body.data.overall.percentile, null);
  t.equal(noPosition.body.meta.warnings[0].parameter, "cohort");
  t.type((await h.json(`/api/players/${odd._id}/percentiles?cohort=era`)).body.data.overall.percentile, "number", "its era cohort answers");

  const cases: [string, number, string][] = [
    [`/api/players/${target._id}/percentiles?cohort=team`, 400, "INVALID_PARAMETER"],
    [`/api/players/${target._id}/percentiles?teamType=future`, 400, "INVALID_PARAMETER"],
    [`/api/players/${target._id}/percentiles?gameVersion=2K99`, 404, "VERSION_NOT_FOUND"],
    [`/api/players/${target._id}/percentiles?gameVersion=26`, 400, "INVALID_PARAMETER"],
    [`/api/versions/2K9/players/${target._id}/percentiles`, 400, "INVALID_VERSION"],
    [`/api/versions/2K99/players/${target._id}/percentiles`, 404, "VERSION_NOT_FOUND"],
    ["/api/players/nobody-at-all/percentiles", 404, "PLAYER_NOT_FOUND"],
    [`/api/players/${target._id}/percentiles?teamType=allt`, 404, "PLAYER_NOT_FOUND"],
    [`/api/players/${target.slug}/percentiles?team=Nowhere%20Team`, 404, "PLAYER_NOT_FOUND"],
  ];
  for (const [path, status, code] of cases) {
    const response = await h.json(path);
    t.equal(response.status, status, path);
    t.equal(response.body.success, false, `${path}: the error envelope`);
    t.equal(response.body.error?.code, code, path);
  }
  const miss = await h.json(`/api/players/${target.slug.slice(0, -1)}x/percentiles`);
  t.ok(miss.body.error.details.suggestions.includes(target.slug), "an unknown slug is answered with suggestions, as on /similar");
  const unkeyed = await fetch(`${h.base}/api/players/${target._id}/percentiles`);
  t.equal(unkeyed.status, 401, "a key is needed");
});
