// The per-edition tables the profile routes (similar, compare, team profile) read instead of
// standardising attributes per request: each attribute column's spread and its standardised gaps,
// every row's group scores, and every team's profile (per attribute and group: mean, holders, best
// and who holds it, the group's rank among the teams of its era; badge and position counts).
// build-index computes them (buildProfileTables) and stores them in the snapshot
// (`payload.profileTables`), so every worker thread views the same bytes; a snapshot written
// before they existed gets them derived once at load, into shared memory (store/derived-tables.ts,
// docs/design-decisions.md#derived-tables-one-mechanism): never by a thread on first use.
//
// Layouts (K attribute columns, the catalogue's; G attribute groups, attributeGroupsOf's order;
// R rows; T teams, by team code). A contrast's standardised gap, |a − b| / stddev, is one division:
// no table. Everything is exact: each value is computed with the same
// arithmetic, in the same order, as the per-request code it replaced, so answers are bit-equal.
// Other routes read them too: the percentile tables (store/percentiles.ts) are built from the group scores.

import { heldBadges } from "../model/badge-summary.js";
import { TIER_COUNT_KEYS } from "../model/badges.js";
import { ABSENT_RATING } from "../model/attributes.js";
import type { PlayerRecord } from "../model/player.js";
import { POSITIONS, knownPositions } from "../model/positions.js";
import type { Catalogue } from "../model/catalogue.js";
import type { Era } from "../model/eras.js";
import type { SnapshotColumns } from "./edition-tables.js";
import { buildStringTable, type StringTable } from "./string-table.js";

/** Gaps between two ratings a table covers: every byte value. */
export const GAP_COUNT = 256;
/** Signed differences a − b of two byte values, −255 … 255: a row of `squaredGap`. */
export const SIGNED_GAP_COUNT = 2 * GAP_COUNT - 1;

export interface StoredProfileTables {
  /** [K]: each column's mean over the rows that have it (NaN where none has). */
  mean: Float64Array;
  /** [K]: its population standard deviation (0 where fewer than two rows have it or all agree). */
  stddev: Float64Array;
  /**
   * [K × 511]: column · 511 + 255 + (a − b) → ((a − b) / stddev)² in float32 (what a similar search
   * sums; 0 where stddev is 0). Signed, so a search adds one offset per target column (column · 511
   * + 255 − target's value) to a row's value: no branch in its inner loop.
   */
  squaredGap: Float32Array;
  /** [R × G]: row · G + g → the row's group score: the mean of the group's attributes it has, NaN where none. */
  groupScores: Float64Array;
  /** [T × K]: team · K + column → players of the team holding the attribute. */
  teamHolders: Uint32Array;
  /** [T × K]: their mean value (unrounded; 0 where none holds it). */
  teamMean: Float64Array;
  /** [T × K]: the best value, and the row holding it (first in roster order: overall desc, then name); −1 where none. */
  teamBest: Int16Array;
  teamBestRow: Int32Array;
  /** [T × G]: the mean of the players' group scores (NaN where none has the group). */
  teamGroupMean: Float64Array;
  /** [T × G]: the row with the best group score (first in roster order), −1 where none; its rank among the teams of its era with players (1 + those with a higher mean) and how many have a mean. */
  teamGroupBestRow: Int32Array;
  teamGroupRank: Uint32Array;
  teamGroupOf: Uint32Array;
  /** [T]: `{"badges":…,"positions":…}` of the team's profile, as JSON. */
  teamCounts: StringTable;
  /** [T]: 1 where every player of the team has a badge list (and it has players). */
  teamHasLists: Uint8Array;
}

/** What the tables are built from: an Edition, described here so the snapshot module, which stores them, need not import it. */
export interface ProfileSource {
  readonly rowCount: number;
  readonly payload: { readonly columns: Pick<SnapshotColumns, "attributes" | "attributeColumns" | "team" | "overall" | "nameRank"> };
  /** By team code; a team's rows are contiguous, [firstRow, endRow). */
  readonly teams: readonly { code: number; teamType: Era; playerCount: number; firstRow: number; endRow: number }[];
  readonly catalogue: Pick<Catalogue, "badges" | "badgeOf">;
  record(row: number): PlayerRecord;
}

export interface ProfileColumns {
  keyCount: number;
  /** The attribute groups: their member columns, in column order. */
  groups: readonly { columns: readonly number[] }[];
}

/** The tables computed from the columns alone: all but the team counts, which read records. */
export type ColumnProfileTables = Omit<StoredProfileTables, "teamCounts" | "teamHasLists">;

/** Every table from the edition's columns but the team counts (a few passes over the rows). */
export function buildColumnProfileTables(edition: ProfileSource, shape: ProfileColumns): ColumnProfileTables {
  const { mean, stddev } = columnSpread(edition, shape.keyCount);
  const squaredGap = squaredGapTable(stddev);
  const groupScores = rowGroupScores(edition, shape);
  return {
    mean, stddev, squaredGap, groupScores,
    ...teamAttributeTables(edition, shape.keyCount),
    ...teamGroupTables(edition, shape.groups.length, groupScores),
  };
}

/** Every table, as build-index stores it: the column tables and each team's counts (every record read once). */
export function buildProfileTables(edition: ProfileSource, columnTables: ColumnProfileTables): StoredProfileTables {
  const counts = edition.teams.map((team) => teamCountsOf(edition, team.code));
  return {
    ...columnTables,
    teamCounts: buildStringTable(counts.map(({ json }) => json)),
    teamHasLists: Uint8Array.from(counts, ({ hasLists }) => (hasLists ? 1 : 0)),
  };
}

/** Whether a payload's stored tables fit the edition (typed arrays of the right lengths). */
export function isProfileTablesShape(tables: StoredProfileTables, rows: number, keyCount: number, teamCount: number): boolean {
  const groupCount = rows === 0 ? 0 : tables.groupScores?.length / rows;
  return tables.mean instanceof Float64Array && tables.mean.length === keyCount && tables.stddev instanceof Float64Array && tables.stddev.length === keyCount &&
    tables.squaredGap instanceof Float32Array && tables.squaredGap.length === keyCount * SIGNED_GAP_COUNT &&
    tables.groupScores instanceof Float64Array && Number.isInteger(groupCount) &&
    tables.teamHolders instanceof Uint32Array && tables.teamHolders.length === teamCount * keyCount &&
    tables.teamMean instanceof Float64Array && tables.teamMean.length === teamCount * keyCount &&
    tables.teamBest instanceof Int16Array && tables.teamBest.length === teamCount * keyCount &&
    tables.teamBestRow instanceof Int32Array && tables.teamBestRow.length === teamCount * keyCount &&
    tables.teamGroupMean instanceof Float64Array && tables.teamGroupBestRow instanceof Int32Array &&
    tables.teamGroupRank instanceof Uint32Array && tables.teamGroupOf instanceof Uint32Array &&
    tables.teamCounts?.offsets instanceof Uint32Array && tables.teamCounts.offsets.length === teamCount + 1 &&
    tables.teamHasLists instanceof Uint8Array && tables.teamHasLists.length === teamCount;
}

function columnSpread(edition: ProfileSource, keyCount: number): { mean: Float64Array; stddev: Float64Array } {
  const { attributeColumns } = edition.payload.columns;
  const rows = edition.rowCount;
  const mean = new Float64Array(keyCount);
  const stddev = new Float64Array(keyCount);
  for (let column = 0; column < keyCount; column++) {
    const base = column * rows;
    let sum = 0;
    let sumOfSquares = 0;
    let count = 0;
    for (let row = 0; row < rows; row++) {
      const value = attributeColumns[base + row] as number;
      if (value === ABSENT_RATING) continue;
      sum += value;
      sumOfSquares += value * value;
      count++;
    }
    mean[column] = count === 0 ? NaN : sum / count;
    stddev[column] = count < 2 ? 0 : Math.sqrt(Math.max(0, sumOfSquares / count - (sum / count) ** 2));
  }
  return { mean, stddev };
}

function squaredGapTable(stddev: Float64Array): Float32Array {
  const squaredGap = new Float32Array(stddev.length * SIGNED_GAP_COUNT);
  stddev.forEach((spread, column) => {
    if (!(spread > 0)) return;
    const scale = 1 / spread;
    // ((a − b) · scale)², as the search computed it per target before (same float32 values).
    for (let d = 1 - GAP_COUNT; d < GAP_COUNT; d++) squaredGap[column * SIGNED_GAP_COUNT + GAP_COUNT - 1 + d] = (d * scale) ** 2;
  });
  return squaredGap;
}

function rowGroupScores(edition: ProfileSource, { keyCount, groups }: ProfileColumns): Float64Array {
  const { attributes } = edition.payload.columns;
  const scores = new Float64Array(edition.rowCount * groups.length);
  for (let row = 0; row < edition.rowCount; row++) {
    const base = row * keyCount;
    groups.forEach(({ columns }, g) => {
      let sum = 0;
      let count = 0;
      for (const column of columns) {
        const value = attributes[base + column] as number;
        if (value !== ABSENT_RATING) { sum += value; count++; }
      }
      scores[row * groups.length + g] = count === 0 ? NaN : sum / count;
    });
  }
  return scores;
}

/** Whether `row` comes before `other` in roster order (overall desc, then name). */
function isEarlierInRoster(edition: ProfileSource, row: number, other: number): boolean {
  const { overall, nameRank } = edition.payload.columns;
  const a = overall[row] as number;
  const b = overall[other] as number;
  return a > b || (a === b && (nameRank[row] as number) < (nameRank[other] as number));
}

function teamAttributeTables(edition: ProfileSource, keyCount: number): Pick<StoredProfileTables, "teamHolders" | "teamMean" | "teamBest" | "teamBestRow"> {
  const { attributes } = edition.payload.columns;
  const size = edition.teams.length * keyCount;
  const teamHolders = new Uint32Array(size);
  const teamMean = new Float64Array(size);
  const teamBest = new Int16Array(size).fill(-1);
  const teamBestRow = new Int32Array(size).fill(-1);
  for (const team of edition.teams) {
    if (team.playerCount === 0) continue;
    const roster = rosterOrder(edition, team.firstRow, team.endRow, team.code);
    for (let column = 0; column < keyCount; column++) {
      const at = team.code * keyCount + column;
      // Summed in roster order, as the route summed its roster.
      let sum = 0;
      let holders = 0;
      let best = -1;
      let bestRow = -1;
      for (const row of roster) {
        const value = attributes[row * keyCount + column] as number;
        if (value === ABSENT_RATING) continue;
        sum += value;
        holders++;
        if (value > best) { best = value; bestRow = row; }
      }
      teamHolders[at] = holders;
      teamMean[at] = holders === 0 ? 0 : sum / holders;
      teamBest[at] = best;
      teamBestRow[at] = bestRow;
    }
  }
  return { teamHolders, teamMean, teamBest, teamBestRow };
}

/** The team's rows (contiguous, by team code) in roster order. */
function rosterOrder(edition: ProfileSource, firstRow: number, endRow: number, code: number): number[] {
  const { team } = edition.payload.columns;
  const rows: number[] = [];
  for (let row = firstRow; row < endRow; row++) if ((team[row] as number) === code) rows.push(row);
  return rows.sort((a, b) => (isEarlierInRoster(edition, a, b) ? -1 : isEarlierInRoster(edition, b, a) ? 1 : 0));
}

function teamGroupTables(edition: ProfileSource, groupCount: number, groupScores: Float64Array): Pick<StoredProfileTables, "teamGroupMean" | "teamGroupBestRow" | "teamGroupRank" | "teamGroupOf"> {
  const teamCount = edition.teams.length;
  const { team } = edition.payload.columns;
  // Means: summed over the edition's rows in row order (as the per-team means always were).
  const sums = new Float64Array(teamCount * groupCount);
  const counts = new Uint32Array(teamCount * groupCount);
  for (let row = 0; row < edition.rowCount; row++) {
    const base = (team[row] as number) * groupCount;
    for (let g = 0; g < groupCount; g++) {
      const score = groupScores[row * groupCount + g] as number;
      if (Number.isNaN(score)) continue;
      sums[base + g] = (sums[base + g] as number) + score;
      counts[base + g] = (counts[base + g] as number) + 1;
    }
  }
  const teamGroupMean = new Float64Array(teamCount * groupCount);
  for (let i = 0; i < teamGroupMean.length; i++) teamGroupMean[i] = (counts[i] as number) === 0 ? NaN : (sums[i] as number) / (counts[i] as number);

  const teamGroupBestRow = new Int32Array(teamCount * groupCount).fill(-1);
  const teamGroupRank = new Uint32Array(teamCount * groupCount);
  const teamGroupOf = new Uint32Array(teamCount * groupCount);
  for (const info of edition.teams) {
    const roster = info.playerCount === 0 ? [] : rosterOrder(edition, info.firstRow, info.endRow, info.code);
    const peers = edition.teams.filter((peer) => peer.teamType === info.teamType && peer.playerCount > 0);
    for (let g = 0; g < groupCount; g++) {
      const at = info.code * groupCount + g;
      let bestRow = -1;
      for (const row of roster) {
        const value = groupScores[row * groupCount + g] as number;
        if (!Number.isNaN(value) && (bestRow < 0 || value > (groupScores[bestRow * groupCount + g] as number))) bestRow = row;
      }
      teamGroupBestRow[at] = bestRow;
      const mean = teamGroupMean[at] as number;
      let above = 0;
      let of = 0;
      for (const peer of peers) {
        const peerMean = teamGroupMean[peer.code * groupCount + g] as number;
        if (Number.isNaN(peerMean)) continue;
        of++;
        if (peerMean > mean) above++;
      }
      teamGroupRank[at] = 1 + above;
      teamGroupOf[at] = of;
    }
  }
  return { teamGroupMean, teamGroupBestRow, teamGroupRank, teamGroupOf };
}

/** The category of a badge its source gave none. */
const UNCATEGORISED = "Other";

const TIER_KEY: Readonly<Record<string, (typeof TIER_COUNT_KEYS)[number]>> = {
  Legendary: "legendary", "Hall of Fame": "hallOfFame", Gold: "gold", Silver: "silver", Bronze: "bronze",
};

/**
 * One team's badge counts (by tier; by category and tier where every player has a badge list)
 * and players per position, as `{"badges":…,"positions":…}` JSON, from its records in roster order.
 */
export function teamCountsOf(edition: ProfileSource, code: number): { json: string; hasLists: boolean } {
  const info = edition.teams[code];
  const roster = info === undefined || info.playerCount === 0 ? [] : rosterOrder(edition, info.firstRow, info.endRow, code);
  const records: PlayerRecord[] = roster.map((row) => edition.record(row));
  const byTier: Record<string, number> = { total: 0, ...Object.fromEntries(TIER_COUNT_KEYS.map((key) => [key, 0])) };
  const byCategory: Record<string, Record<string, number>> = {};
  let hasLists = records.length > 0;
  for (const record of records) {
    byTier.total = (byTier.total as number) + record.badges.total;
    for (const key of TIER_COUNT_KEYS) byTier[key] = (byTier[key] as number) + record.badges[key];
    if (record.badges.list === undefined) { hasLists = false; continue; }
    // Each badge once per player (a hosted list names each twice); a category the entry lacks is the edition's.
    for (const badge of heldBadges(record.badges.list)) {
      const category = badge.category ?? edition.catalogue.badges[edition.catalogue.badgeOf(badge.slug) ?? -1]?.category ?? UNCATEGORISED;
      const counts = (byCategory[category] ??= { total: 0, ...Object.fromEntries(TIER_COUNT_KEYS.map((key) => [key, 0])) });
      const tierKey = TIER_KEY[badge.tier];
      counts.total = (counts.total as number) + 1;
      if (tierKey !== undefined) counts[tierKey] = (counts[tierKey] as number) + 1;
    }
  }

  const primary: Record<string, number> = Object.fromEntries(POSITIONS.map((position) => [position, 0]));
  const any: Record<string, number> = Object.fromEntries(POSITIONS.map((position) => [position, 0]));
  for (const record of records) {
    // Read by meaning (`pg` is PG); the source's list itself is served as given.
    const positions = knownPositions(record.positions);
    const first = positions[0];
    if (first !== undefined) primary[first] = (primary[first] ?? 0) + 1;
    for (const position of positions) any[position] = (any[position] ?? 0) + 1;
  }
  return { json: JSON.stringify({ badges: { ...byTier, ...(hasLists ? { byCategory } : {}) }, positions: { primary, any } }), hasLists };
}
