// The profile routes' precomputed tables (store/profile-tables.ts) give exactly the answers of the
// per-request computation they replaced, on every demo edition: every row's group scores, the
// contrasts of every row with others, and every team's profile answer (byte-equal data), whether
// the tables come from the snapshot or are derived at load (a file written without them);
// and the file keeps them through a write and a read.
import t from "tap";
import { GROUP_OF_ATTRIBUTE, GROUP_SCORE_KEYS, ABSENT_RATING } from "../../src/model/attributes.js";
import { heldBadges } from "../../src/model/badge-summary.js";
import { TIER_COUNT_KEYS } from "../../src/model/badges.js";
import { displayLabel } from "../../src/model/labels.js";
import { POSITIONS, knownPositions } from "../../src/model/positions.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import type { IncomingRequest, Outgoing } from "../../src/http/dispatch.js";
import { executeQuery } from "../../src/query/execute.js";
import { defaultQuery } from "../../src/query/plan.js";
import { attributeSpreadOf, contrastProfiles, contrastProfilesJson, groupScores, teamGroupMean } from "../../src/store/attribute-profile.js";
import { Edition, teamRowOf, type TeamInfo } from "../../src/store/edition.js";
import { editionOf } from "../../src/store/derived-tables.js";
import { EditionSet } from "../../src/store/editions.js";
import { decodeSnapshot, encodeSnapshot, type SnapshotPayload } from "../../src/store/snapshot.js";
import { mulberry32 } from "../fixtures/random-edition.js";
import { dispatcherOf } from "../fixtures/dispatcher.js";

const round1 = (value: number) => Math.round(value * 10) / 10;
const GROUP_SCORE_SET: ReadonlySet<string> = new Set(GROUP_SCORE_KEYS);

/** The per-request computation the tables replaced (the code the routes ran before issue 33), from the columns and records. */
class Naive {
  readonly keys: readonly string[];
  readonly profileColumns: number[];
  readonly groups: { group: string; columns: number[] }[];
  readonly stddev: number[];

  constructor(readonly edition: Edition) {
    this.keys = edition.catalogue.attributeKeys;
    this.profileColumns = this.keys.flatMap((key, column) => (GROUP_SCORE_SET.has(key) ? [] : [column]));
    const byGroup = new Map<string, number[]>();
    for (const column of this.profileColumns) {
      const group = GROUP_OF_ATTRIBUTE.get(this.keys[column] as string) ?? "other";
      byGroup.set(group, [...(byGroup.get(group) ?? []), column]);
    }
    this.groups = [...byGroup].map(([group, columns]) => ({ group, columns }));
    this.stddev = this.keys.map((_, column) => {
      let sum = 0;
      let sumOfSquares = 0;
      let count = 0;
      for (let row = 0; row < edition.rowCount; row++) {
        const value = this.value(row, column);
        if (value === undefined) continue;
        sum += value;
        sumOfSquares += value * value;
        count++;
      }
      return count < 2 ? 0 : Math.sqrt(Math.max(0, sumOfSquares / count - (sum / count) ** 2));
    });
  }

  value(row: number, column: number): number | undefined {
    const value = this.edition.payload.columns.attributes[row * this.keys.length + column] as number;
    return value === ABSENT_RATING ? undefined : value;
  }

  groupScores(row: number): number[] {
    return this.groups.map(({ columns }) => {
      let sum = 0;
      let count = 0;
      for (const column of columns) {
        const value = this.value(row, column);
        if (value !== undefined) { sum += value; count++; }
      }
      return count === 0 ? NaN : sum / count;
    });
  }

  contrast(row: number, other: number): unknown {
    const differences: { column: number; value: number; otherValue: number; z: number }[] = [];
    for (const column of this.profileColumns) {
      const stddev = this.stddev[column] as number;
      const value = this.value(row, column);
      const otherValue = this.value(other, column);
      if (value === undefined || otherValue === undefined || stddev <= 0) continue;
      differences.push({ column, value, otherValue, z: Math.abs(value - otherValue) / stddev });
    }
    const contrast = ({ column, value, otherValue }: { column: number; value: number; otherValue: number }) =>
      ({ attribute: this.keys[column] as string, label: displayLabel(this.keys[column] as string), value, otherValue });
    const ascending = [...differences].sort((a, b) => a.z - b.z || a.column - b.column);
    const descending = [...differences].sort((a, b) => b.z - a.z || a.column - b.column);
    return { agreesMost: ascending.slice(0, 3).map(contrast), differsMost: descending.slice(0, 3).map(contrast) };
  }

  teamGroupMeans(): Float64Array {
    const { edition } = this;
    const sums = new Float64Array(edition.teams.length * this.groups.length);
    const counts = new Uint32Array(sums.length);
    for (let row = 0; row < edition.rowCount; row++) {
      const base = (edition.payload.columns.team[row] as number) * this.groups.length;
      this.groupScores(row).forEach((score, g) => {
        if (Number.isNaN(score)) return;
        sums[base + g] = (sums[base + g] as number) + score;
        counts[base + g] = (counts[base + g] as number) + 1;
      });
    }
    return sums.map((sum, i) => ((counts[i] as number) === 0 ? NaN : sum / (counts[i] as number)));
  }

  /** The team profile's data and warnings, as team-profile.ts computed them per request. */
  teamProfile(team: TeamInfo, means: Float64Array): { data: unknown; warnings: unknown[] } {
    const { edition } = this;
    const { rows } = executeQuery(edition, { ...defaultQuery(), eraMask: 0b111, teamCodes: [team.code] }, 0, team.playerCount);
    const records = [...rows].map((row) => edition.record(row));
    const leaderOf = (i: number) => ({ _id: records[i]!._id, name: records[i]!.name, slug: records[i]!.slug });
    const attributes = this.keys.flatMap((attribute, column) => {
      let sum = 0;
      let holders = 0;
      let best = -1;
      let bestAt = -1;
      rows.forEach((row, i) => {
        const value = this.value(row, column);
        if (value === undefined) return;
        sum += value;
        holders++;
        if (value > best) { best = value; bestAt = i; }
      });
      return holders === 0 ? [] : [{ attribute, label: displayLabel(attribute), mean: round1(sum / holders), holders, best: { value: best, player: leaderOf(bestAt) } }];
    });
    const mean = (code: number, g: number) => means[code * this.groups.length + g] as number;
    const peers = edition.teams.filter((info) => info.teamType === team.teamType && info.playerCount > 0);
    const scores = [...rows].map((row) => this.groupScores(row));
    const groups = this.groups.flatMap(({ group }, g) => {
      const own = mean(team.code, g);
      if (Number.isNaN(own)) return [];
      let bestAt = -1;
      scores.forEach((score, i) => {
        const value = score[g] as number;
        if (!Number.isNaN(value) && (bestAt < 0 || value > (scores[bestAt]?.[g] as number))) bestAt = i;
      });
      const peerMeans = peers.map((info) => mean(info.code, g)).filter((value) => !Number.isNaN(value));
      return [{ group, label: displayLabel(group), mean: round1(own), best: { score: round1(scores[bestAt]?.[g] as number), player: leaderOf(bestAt) }, rank: 1 + peerMeans.filter((value) => value > own).length, of: peerMeans.length }];
    });
    const TIER_KEY: Record<string, string> = { Legendary: "legendary", "Hall of Fame": "hallOfFame", Gold: "gold", Silver: "silver", Bronze: "bronze" };
    const byTier: Record<string, number> = { total: 0, ...Object.fromEntries(TIER_COUNT_KEYS.map((key) => [key, 0])) };
    const byCategory: Record<string, Record<string, number>> = {};
    let hasLists = records.length > 0;
    for (const record of records) {
      byTier.total = (byTier.total as number) + record.badges.total;
      for (const key of TIER_COUNT_KEYS) byTier[key] = (byTier[key] as number) + record.badges[key];
      if (record.badges.list === undefined) { hasLists = false; continue; }
      for (const badge of heldBadges(record.badges.list)) {
        const category = badge.category ?? edition.catalogue.badges[edition.catalogue.badgeOf(badge.slug) ?? -1]?.category ?? "Other";
        const counts = (byCategory[category] ??= { total: 0, ...Object.fromEntries(TIER_COUNT_KEYS.map((key) => [key, 0])) });
        const tierKey = TIER_KEY[badge.tier];
        counts.total = (counts.total as number) + 1;
        if (tierKey !== undefined) counts[tierKey] = (counts[tierKey] as number) + 1;
      }
    }
    const primary: Record<string, number> = Object.fromEntries(POSITIONS.map((position) => [position, 0]));
    const any: Record<string, number> = Object.fromEntries(POSITIONS.map((position) => [position, 0]));
    for (const record of records) {
      const positions = knownPositions(record.positions);
      if (positions[0] !== undefined) primary[positions[0]] = (primary[positions[0]] ?? 0) + 1;
      for (const position of positions) any[position] = (any[position] ?? 0) + 1;
    }
    const warnings = hasLists || records.length === 0 ? [] : [{
      parameter: "teamName", value: team.teamName, message: `${edition.key} keeps badge counts, not badge lists, for this roster: badges.byCategory is left out`,
    }];
    return { data: { team: teamRowOf(team), attributes, groups, badges: { ...byTier, ...(hasLists ? { byCategory } : {}) }, positions: { primary, any } }, warnings };
  }
}

function get(dispatcher: ReturnType<typeof dispatcherOf>, url: string): { status: number; body: any } {
  const at = url.indexOf("?");
  const request: IncomingRequest = {
    method: "GET", url: at < 0 ? url : url.slice(0, at), rawQuery: at < 0 ? "" : url.slice(at + 1), apiKey: "test", ifNoneMatch: "",
    acceptEncoding: "", contentType: "", origin: "", address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
  };
  const outgoing = dispatcher.dispatch(request) as Outgoing;
  return { status: outgoing.status, body: JSON.parse((outgoing.body as Buffer).toString("utf8")) };
}

/** Float arrays equal bit for bit (NaN where NaN). */
function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.from(a).every((value, i) => Object.is(value, b[i]));
}

const payloads: SnapshotPayload[] = generateDemoEditions({ asOf: "2026-11-20" }).map((source) => buildSnapshotPayload(source));

t.test("every demo edition: the tables answer what the per-request computation answered", async (t) => {
  for (const stored of [true, false]) {
    // As build-index writes them (tables in the file), and as a file written before them (derived once, at load).
    const given = new Map<string, SnapshotPayload["profileTables"]>();
    const editions = new EditionSet(payloads.map((payload) => {
      if (stored) {
        given.set(payload.meta.gameVersion, payload.profileTables);
        return new Edition(payload, `stored-${payload.meta.gameVersion}`);
      }
      const { profileTables: _tables, percentiles: _percentiles, ...older } = payload;
      return editionOf(older, `older-${payload.meta.gameVersion}`);
    }));
    const dispatcher = dispatcherOf(editions);
    for (const edition of editions.ordered) {
      const label = `${edition.key} (${stored ? "tables in the snapshot" : "derived at load"})`;
      // Where the tables come from (changed with the per-thread lazy build's removal: an older file's are derived when it is loaded, into shared memory).
      if (stored) t.equal(edition.payload.profileTables, given.get(edition.key), `${label}: the snapshot's own tables, kept`);
      else t.ok(edition.payload.profileTables.groupScores.buffer instanceof SharedArrayBuffer, `${label}: derived at load, into shared memory`);
      const naive = new Naive(edition);
      let mismatched = 0;
      for (let row = 0; row < edition.rowCount; row++) if (!sameBits(groupScores(edition, row), naive.groupScores(row))) mismatched++;
      t.equal(mismatched, 0, `${label}: group scores of all ${edition.rowCount} rows`);

      const random = mulberry32(edition.rowCount);
      mismatched = 0;
      let pairs = 0;
      for (let row = 0; row < edition.rowCount; row++) {
        for (const other of [row + 1, Math.floor(random() * edition.rowCount), Math.floor(random() * edition.rowCount)]) {
          if (other >= edition.rowCount || other === row) continue;
          pairs++;
          const expected = naive.contrast(row, other) as { agreesMost: unknown; differsMost: unknown };
          const json = contrastProfilesJson(edition, row, other);
          if (JSON.stringify(contrastProfiles(edition, row, other)) !== JSON.stringify(expected) ||
            json.agreesMost !== JSON.stringify(expected.agreesMost) || json.differsMost !== JSON.stringify(expected.differsMost)) mismatched++;
        }
      }
      t.equal(mismatched, 0, `${label}: contrasts of ${pairs} pairs (every row with three others), as objects and as JSON`);
      t.ok(sameBits(attributeSpreadOf(edition).stddev, naive.stddev), `${label}: every column's spread`);

      // The similar search's squared standardised differences, for every target value and every byte value.
      const squaredGap = edition.payload.profileTables?.squaredGap;
      if (squaredGap !== undefined) {
        mismatched = 0;
        naive.profileColumns.forEach((column) => {
          const stddev = naive.stddev[column] as number;
          if (!(stddev > 0)) return;
          const scale = 1 / stddev;
          for (let target = 0; target < 256; target++) {
            for (let value = 0; value < 256; value++) {
              if (squaredGap[column * 511 + 255 - target + value] !== Math.fround(((value - target) * scale) ** 2)) mismatched++;
            }
          }
        });
        t.equal(mismatched, 0, `${label}: squared gaps equal ((value − target) / stddev)² for every pair of byte values`);
      }

      const means = naive.teamGroupMeans();
      t.ok(sameBits(Array.from({ length: means.length }, (_, i) => teamGroupMean(edition, Math.floor(i / naive.groups.length), i % naive.groups.length)), means), `${label}: every team's group means`);
      mismatched = 0;
      let withPlayers = 0;
      for (const team of edition.teams) {
        const { status, body } = get(dispatcher, `/api/versions/${edition.key}/teams/${encodeURIComponent(team.slug)}/profile?teamType=${team.teamType}`);
        const expected = naive.teamProfile(team, means);
        if (team.playerCount > 0) withPlayers++;
        const warnings = body.meta?.warnings ?? [];
        if (status !== 200 || JSON.stringify(body.data) !== JSON.stringify(expected.data) || JSON.stringify(warnings) !== JSON.stringify(expected.warnings)) mismatched++;
      }
      t.equal(mismatched, 0, `${label}: the profile answer of all ${edition.teams.length} teams (${withPlayers} with players)`);
    }
  }
});

t.test("a team profile the test can tell apart: the check above fails on a wrong table", async (t) => {
  const payload = payloads[payloads.length - 1] as SnapshotPayload;
  const tables = payload.profileTables!;
  const edition = new Edition({ ...payload, profileTables: { ...tables, teamGroupRank: tables.teamGroupRank.map((rank) => rank + 1) } }, "altered");
  const team = edition.teams.find((info) => info.playerCount > 0) as TeamInfo;
  const { body } = get(dispatcherOf(new EditionSet([edition])), `/api/teams/${encodeURIComponent(team.slug)}/profile?teamType=${team.teamType}`);
  const expected = new Naive(edition).teamProfile(team, new Naive(edition).teamGroupMeans());
  t.not(JSON.stringify(body.data), JSON.stringify(expected.data), "a rank off by one shows");
});

t.test("the snapshot keeps the tables through a write and a read", async (t) => {
  const payload = payloads[payloads.length - 1] as SnapshotPayload;
  const back = decodeSnapshot("profile-tables", encodeSnapshot(payload));
  const tables = payload.profileTables!;
  const read = back.profileTables!;
  t.ok(read, "stored");
  for (const key of Object.keys(tables) as (keyof typeof tables)[]) {
    const [a, b] = [tables[key], read[key]];
    if (ArrayBuffer.isView(a)) t.ok(sameBits(a as unknown as ArrayLike<number>, b as unknown as ArrayLike<number>) && a.constructor === b.constructor, `${key} read back bit for bit`);
  }
  t.same(read.teamCounts.offsets, tables.teamCounts.offsets, "team counts read back");
  t.same(Buffer.from(read.teamCounts.bytes), Buffer.from(tables.teamCounts.bytes));
});
