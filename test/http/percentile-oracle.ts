// The naive percentile computation the percentile route is checked against: cohorts by filter
// over full records, percentiles by counting; and a driver asking the route for every player of
// an edition in every cohort kind.
import type { Test } from "tap";
import { ATTRIBUTE_GROUPS, GROUP_SCORE_KEYS } from "../../src/model/attributes.js";
import type { PlayerRecord } from "../../src/model/player.js";
import type { Harness } from "./harness.js";

type Json = any;
export const KINDS = ["position", "era", "all"] as const;
type Kind = (typeof KINDS)[number];

/** Every player of an edition in full, from bulk, era by era. */
export async function everyone(h: Harness, version: string): Promise<PlayerRecord[]> {
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
export async function checkEveryPlayer(t: Test, h: Harness, version: string, players: readonly PlayerRecord[]): Promise<number> {
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

