// The attribute questions one edition answers from its columns: which attribute columns it has
// (the edition's own keys, in column order), a row's value of one (undefined where absent), the
// attribute groups, each column's spread (computed once per edition on first use), the nearest
// attribute profiles to one row (a search of the profile index, store/profile-index.ts) and every
// team's profile. Routes ask here; they never read the attribute bytes themselves. What a request
// reads is precomputed per edition (store/profile-tables.ts): build-index stores it in the
// snapshot, which every worker thread views; a file written before it gets it derived once at
// load (store/derived-tables.ts, docs/design-decisions.md#derived-tables-one-mechanism), never here.

import { GROUP_OF_ATTRIBUTE, GROUP_SCORE_KEYS, ABSENT_RATING } from "../model/attributes.js";
import { displayLabel } from "../model/labels.js";
import type { Edition } from "./edition.js";
import { GAP_COUNT, SIGNED_GAP_COUNT, type ProfileColumns, type StoredProfileTables } from "./profile-tables.js";
import { stringAt } from "./string-table.js";
import {
  buildProfileIndex, searchProfileIndex, storedPart, withScratch, type ProfileCandidate, type ProfileIndex, type ProfileTarget, type StoredProfileIndex,
} from "./profile-index.js";

/** The group of a key the registry does not know (an edition's own attribute). */
export const OTHER_GROUP = "other";

export interface AttributeGroupColumns {
  group: string;
  /** Column indices of the group's members, in column order. */
  columns: readonly number[];
}

export interface AttributeSpread {
  /** Per column, over the edition's rows that have it (NaN where none has). */
  mean: Float64Array;
  /** Population standard deviation per column (0 where fewer than two rows have it or all agree). */
  stddev: Float64Array;
}

export interface SimilarQuery {
  row: number;
  /** Bit (1 << ERA_CODE) per era in scope. */
  eraMask: number;
  /** Position bits; 0 = any position. */
  positionMask: number;
  limit: number;
}

export interface SimilarMatch {
  row: number;
  /** 1 / (1 + d), d the root mean square of the standardised differences over shared attributes. */
  similarity: number;
  /** How many attributes the two share (the columns d is over). */
  shared: number;
}

export interface AttributeContrast {
  attribute: string;
  /** Its display name (model/labels.ts). */
  label: string;
  value: number;
  otherValue: number;
}

/** The per-thread part of what the profile routes read of one edition (labels, scratch): set up once, on first use. */
interface ProfileTables {
  keys: readonly string[];
  /** Each column's display name. */
  labels: readonly string[];
  /** Each column's contrast as JSON up to its value: `{"attribute":…,"label":…,"value":`. */
  contrastPrefixes: readonly string[];
  groups: readonly AttributeGroupColumns[];
  /** The columns a profile compares: every attribute but the group scores (means of the others). */
  profileColumns: readonly number[];
  spread: AttributeSpread;
  /** The edition's precomputed tables (store/profile-tables.ts): views of the shared snapshot. */
  precomputed: StoredProfileTables;
  /** Contrast scratch: candidate columns and their standardised gaps. */
  contrastColumns: Int32Array;
  contrastGaps: Float64Array;
  /** The nearest-profile index: the snapshot's, with this thread's search scratch (made on first use). */
  profileIndex: ProfileIndex | undefined;
  /** The reference scan's 256-entry table of one column's squared standardised differences (its scratch). */
  squared: Float32Array | undefined;
  /** The reference scan's scratch, one slot per row (only similarRowsByScan allocates it). */
  sums: Float32Array | undefined;
  counts: Uint16Array | undefined;
}

const tablesOf = new WeakMap<Edition, ProfileTables>();
const GROUP_SCORE_SET: ReadonlySet<string> = new Set(GROUP_SCORE_KEYS);

function tables(edition: Edition): ProfileTables {
  let built = tablesOf.get(edition);
  if (built === undefined) {
    const { keys, profileColumns, groups } = profileShapeOf(edition);
    const precomputed = edition.payload.profileTables;
    built = {
      keys, labels: keys.map((key) => displayLabel(key)), profileColumns, groups, precomputed,
      contrastPrefixes: keys.map((key) => `{"attribute":${JSON.stringify(key)},"label":${JSON.stringify(displayLabel(key))},"value":`),
      spread: { mean: precomputed.mean, stddev: precomputed.stddev },
      contrastColumns: new Int32Array(keys.length), contrastGaps: new Float64Array(keys.length),
      profileIndex: undefined, squared: undefined, sums: undefined, counts: undefined,
    };
    tablesOf.set(edition, built);
  }
  return built;
}

/** The edition's attribute columns as the profiles group them: what the profile tables are laid out by (from the catalogue alone). */
export function profileShapeOf(edition: Pick<Edition, "catalogue">): ProfileColumns & { keys: readonly string[]; profileColumns: readonly number[]; groups: readonly AttributeGroupColumns[] } {
  const keys = edition.catalogue.attributeKeys;
  const profileColumns = keys.flatMap((key, column) => (GROUP_SCORE_SET.has(key) ? [] : [column]));
  const byGroup = new Map<string, number[]>();
  for (const column of profileColumns) {
    const group = GROUP_OF_ATTRIBUTE.get(keys[column] as string) ?? OTHER_GROUP;
    const members = byGroup.get(group);
    if (members) members.push(column);
    else byGroup.set(group, [column]);
  }
  const groups = [...byGroup].map(([group, columns]) => ({ group, columns }));
  return { keys, keyCount: keys.length, profileColumns, groups };
}

/** The edition's attribute keys in column order (its catalogue's). */
export function attributeKeysOf(edition: Edition): readonly string[] {
  return edition.catalogue.attributeKeys;
}

/** The row's value of attribute `column`, or undefined where the player lacks it. */
export function attributeValue(edition: Edition, row: number, column: number): number | undefined {
  const value = edition.payload.columns.attributes[row * attributeKeysOf(edition).length + column] as number;
  return value === ABSENT_RATING ? undefined : value;
}

/** The attribute groups of the edition (group scores excluded), registry order, unknown keys last as `other`. */
export function attributeGroupsOf(edition: Edition): readonly AttributeGroupColumns[] {
  return tables(edition).groups;
}

/** The columns profiles compare (every attribute but the six group scores). */
export function profileColumnsOf(edition: Edition): readonly number[] {
  return tables(edition).profileColumns;
}

export function attributeSpreadOf(edition: Edition): AttributeSpread {
  return tables(edition).spread;
}

/** The row's score in each group (attributeGroupsOf's order): the mean of the group's attributes it has, NaN where it has none. */
export function groupScores(edition: Edition, row: number): number[] {
  const { groups, precomputed } = tables(edition);
  return Array.from(precomputed.groupScores.subarray(row * groups.length, (row + 1) * groups.length));
}

/** The row's score in group `g` (attributeGroupsOf's order), NaN where it has none of the group's attributes. */
export function groupScore(edition: Edition, row: number, g: number): number {
  const { groups, precomputed } = tables(edition);
  return precomputed.groupScores[row * groups.length + g] as number;
}

/**
 * The `limit` rows whose profiles are closest to `query.row`'s, closest first (ties by name),
 * the row itself excluded. Distance: over the profile columns both rows have, each difference
 * divided by the column's standard deviation in the edition, the root mean square of those. A
 * candidate must share at least half the target's columns. Empty when the row has no attributes.
 * Work: a search of the edition's profile index (store/profile-index.ts, built on first use),
 * which checks exactly only the rows it cannot prove farther than the `limit`-th; the answer is
 * the scan's (similarRowsByScan), bit for bit.
 */
export function similarRows(edition: Edition, query: SimilarQuery): SimilarMatch[] {
  const built = tables(edition);
  const target = profileTarget(edition, built, query);
  if (target === undefined) return [];
  const index = profileIndexOf(edition);
  const best = new BestMatches(query.limit, edition.payload.columns.nameRank);
  searchProfileIndex(index, edition, built.keys.length, target, () => best.kthDistance(), (row, distance, shared) => best.offer(row, distance, shared));
  return best.matches();
}

/**
 * The edition's nearest-profile index: the snapshot's (built by build-index, or derived at load
 * for a file written without one: store/derived-tables.ts), with this thread's search scratch.
 */
export function profileIndexOf(edition: Edition): ProfileIndex {
  const built = tables(edition);
  return (built.profileIndex ??= withScratch(edition.payload.profileIndex));
}

/** The index of an edition, built from its columns (store/derived-tables.ts stores it in the payload). */
export function storedProfileIndexOf(edition: Edition): StoredProfileIndex {
  const built = tables(edition);
  return storedPart(buildProfileIndex(edition, built.profileColumns, built.spread.stddev, built.keys.length));
}

/** The target's columns and values, with the edition's squared standardised gaps; undefined when it has none. */
function profileTarget(edition: Edition, built: ProfileTables, query: SimilarQuery): ProfileTarget | undefined {
  const columns = Int32Array.from(built.profileColumns.filter((column) =>
    attributeValue(edition, query.row, column) !== undefined && (built.spread.stddev[column] as number) > 0));
  if (columns.length === 0) return undefined;
  const offsets = columns.map((column) => column * SIGNED_GAP_COUNT + GAP_COUNT - 1 - (attributeValue(edition, query.row, column) as number));
  return { row: query.row, columns, offsets, squaredGap: built.precomputed.squaredGap, eraMask: query.eraMask, positionMask: query.positionMask };
}

/** The best `limit` rows offered so far, closest first, ties by name. */
class BestMatches {
  private readonly kept: ProfileCandidate[] = [];

  constructor(private readonly limit: number, private readonly nameRank: Uint32Array) {}

  /** The `limit`-th distance kept, Infinity while fewer are. */
  kthDistance(): number {
    return this.kept.length < this.limit ? Infinity : (this.kept[this.kept.length - 1] as ProfileCandidate).distance;
  }

  offer(row: number, distance: number, shared: number): void {
    const { kept } = this;
    const last = kept[kept.length - 1];
    if (kept.length === this.limit && last !== undefined && !this.isCloser(distance, row, last)) return;
    let i = kept.length;
    while (i > 0 && this.isCloser(distance, row, kept[i - 1] as ProfileCandidate)) i--;
    kept.splice(i, 0, { row, distance, shared });
    if (kept.length > this.limit) kept.pop();
  }

  matches(): SimilarMatch[] {
    return this.kept.map(({ row, distance, shared }) => ({ row, shared, similarity: Math.round((1 / (1 + distance)) * 10_000) / 10_000 }));
  }

  private isCloser(distance: number, row: number, other: ProfileCandidate): boolean {
    return distance < other.distance || (distance === other.distance && (this.nameRank[row] as number) < (this.nameRank[other.row] as number));
  }
}

/**
 * similarRows by a plain scan of every row in scope: the reference the index is tested against
 * and the benchmark's "before". One pass per target column over the rows in scope (a byte load
 * and two adds per row, through 256-entry tables of the column's squared standardised
 * difference), then one pass keeping the best `limit`.
 */
export function similarRowsByScan(edition: Edition, query: SimilarQuery): SimilarMatch[] {
  const built = tables(edition);
  const { attributeColumns, positions, nameRank } = edition.payload.columns;
  const rows = edition.rowCount;
  const target = profileTarget(edition, built, query);
  if (target === undefined) return [];
  const sums = (built.sums ??= new Float32Array(rows));
  const counts = (built.counts ??= new Uint16Array(rows));
  const ranges = eraRanges(edition, query.eraMask);
  for (const [start, end] of ranges) { sums.fill(0, start, end); counts.fill(0, start, end); }

  const has = new Uint16Array(256);
  has.fill(1);
  has[ABSENT_RATING] = 0;
  // One pass per target column over the rows in scope. Measured against rows in blocks of 2,048
  // (sums and counts kept in L1 across the columns): the plain passes took 8.2 ms of CPU at
  // 80,000 rows in scope, the blocked ones 14.4 ms, with identical results.
  const squared = (built.squared ??= new Float32Array(256));
  target.columns.forEach((column, k) => {
    // ((value − target) / stddev)² per byte value, from the column's squared gaps; 0 where absent.
    for (let value = 0; value < 256; value++) squared[value] = target.squaredGap[(target.offsets[k] as number) + value] as number;
    squared[ABSENT_RATING] = 0;
    const base = column * rows;
    for (const [start, end] of ranges) {
      // for each row in scope: sums[row] += ((value - target) / stddev)², counts[row] += has value
      for (let row = start; row < end; row++) {
        const value = attributeColumns[base + row] as number;
        sums[row] = (sums[row] as number) + (squared[value] as number);
        counts[row] = (counts[row] as number) + (has[value] as number);
      }
    }
  });

  const needed = Math.ceil(target.columns.length / 2);
  const best = new BestMatches(query.limit, nameRank);
  for (const [start, end] of ranges) {
    for (let row = start; row < end; row++) {
      const shared = counts[row] as number;
      if (shared < needed || row === query.row) continue;
      if (query.positionMask !== 0 && ((positions[row] as number) & query.positionMask) === 0) continue;
      best.offer(row, Math.sqrt((sums[row] as number) / shared), shared);
    }
  }
  return best.matches();
}

/** The rows of the eras in the mask, as contiguous ranges. */
function eraRanges(edition: Edition, eraMask: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (let code = 0; code + 1 < edition.eraStart.length; code++) {
    if (((eraMask >>> code) & 1) === 0) continue;
    const start = edition.eraStart[code] as number;
    const end = edition.eraStart[code + 1] as number;
    if (end > start) ranges.push([start, end]);
  }
  return ranges;
}

/**
 * The three shared attributes where two rows agree most and the three where they differ most,
 * by the standardised difference |a − b| / stddev (ties in column order), over the edition's
 * stored spreads; no per-call sort.
 */
export function contrastProfiles(edition: Edition, row: number, other: number): { agreesMost: AttributeContrast[]; differsMost: AttributeContrast[] } {
  const built = tables(edition);
  const { attributes } = edition.payload.columns;
  const keyCount = built.keys.length;
  const { agrees, differs } = contrastColumns(edition, built, row, other);
  const contrast = (column: number): AttributeContrast => ({
    attribute: built.keys[column] as string, label: built.labels[column] as string,
    value: attributes[row * keyCount + column] as number, otherValue: attributes[other * keyCount + column] as number,
  });
  return { agreesMost: agrees.map(contrast), differsMost: differs.map(contrast) };
}

/** contrastProfiles as JSON, each list exactly as JSON.stringify writes it (from per-column fragments: what `similar` renders). */
export function contrastProfilesJson(edition: Edition, row: number, other: number): { agreesMost: string; differsMost: string } {
  const built = tables(edition);
  const { attributes } = edition.payload.columns;
  const keyCount = built.keys.length;
  const { agrees, differs } = contrastColumns(edition, built, row, other);
  const json = (columns: readonly number[]): string => {
    let text = "[";
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i] as number;
      text += `${i === 0 ? "" : ","}${built.contrastPrefixes[column] as string}${attributes[row * keyCount + column] as number},"otherValue":${attributes[other * keyCount + column] as number}}`;
    }
    return `${text}]`;
  };
  return { agreesMost: json(agrees), differsMost: json(differs) };
}

/** The columns of contrastProfiles' two lists. */
function contrastColumns(edition: Edition, built: ProfileTables, row: number, other: number): { agrees: number[]; differs: number[] } {
  const { attributes } = edition.payload.columns;
  const keyCount = built.keys.length;
  const { stddev } = built.precomputed;
  const { contrastColumns: columns, contrastGaps: gaps } = built;
  let n = 0;
  for (const column of built.profileColumns) {
    const value = attributes[row * keyCount + column] as number;
    const otherValue = attributes[other * keyCount + column] as number;
    const spread = stddev[column] as number;
    if (value === ABSENT_RATING || otherValue === ABSENT_RATING || !(spread > 0)) continue;
    columns[n] = column;
    gaps[n] = Math.abs(value - otherValue) / spread;
    n++;
  }
  // Candidates come in column order, so a later one displaces a kept one only when strictly closer (or farther).
  return { agrees: pickThree(columns, gaps, n, (a, b) => a < b), differs: pickThree(columns, gaps, n, (a, b) => a > b) };
}

/** The columns of the (up to) three candidates first by `isBefore` on their gaps, ties to the earlier candidate. */
function pickThree(columns: Int32Array, gaps: Float64Array, n: number, isBefore: (a: number, b: number) => boolean): number[] {
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    const g = gaps[i] as number;
    if (kept.length === 3 && !isBefore(g, gaps[kept[2] as number] as number)) continue;
    let at = kept.length;
    while (at > 0 && isBefore(g, gaps[kept[at - 1] as number] as number)) at--;
    kept.splice(at, 0, i);
    if (kept.length > 3) kept.pop();
  }
  return kept.map((i) => columns[i] as number);
}

/** The team's mean group score in group `g` (attributeGroupsOf's order), NaN where none of its players has the group. */
export function teamGroupMean(edition: Edition, teamCode: number, g: number): number {
  const { groups, precomputed } = tables(edition);
  return precomputed.teamGroupMean[teamCode * groups.length + g] ?? NaN;
}

export interface TeamAttributeSummary {
  /** Players of the team holding the attribute (0: none; the rest is then meaningless). */
  holders: number;
  /** Their mean value, unrounded. */
  mean: number;
  /** The best value and the row holding it, first in roster order (overall desc, then name). */
  best: number;
  bestRow: number;
}

/** The team's holders, mean and best of attribute `column`. */
export function teamAttributeSummary(edition: Edition, teamCode: number, column: number): TeamAttributeSummary {
  const { keys, precomputed } = tables(edition);
  const at = teamCode * keys.length + column;
  return {
    holders: precomputed.teamHolders[at] as number, mean: precomputed.teamMean[at] as number,
    best: precomputed.teamBest[at] as number, bestRow: precomputed.teamBestRow[at] as number,
  };
}

export interface TeamGroupStanding {
  /** The mean of its players' group scores; NaN where none has the group (the rest is then meaningless). */
  mean: number;
  /** The row with the best group score, first in roster order. */
  bestRow: number;
  /** 1 + the teams of its era (with players) with a higher mean, of `of` with a mean. */
  rank: number;
  of: number;
}

/** The team's standing in group `g` (attributeGroupsOf's order). */
export function teamGroupStanding(edition: Edition, teamCode: number, g: number): TeamGroupStanding {
  const { groups, precomputed } = tables(edition);
  const at = teamCode * groups.length + g;
  return {
    mean: precomputed.teamGroupMean[at] as number, bestRow: precomputed.teamGroupBestRow[at] as number,
    rank: precomputed.teamGroupRank[at] as number, of: precomputed.teamGroupOf[at] as number,
  };
}

/** The team's badge and position counts, `{"badges":…,"positions":…}` as JSON, and whether every player has a badge list. */
export function teamCounts(edition: Edition, teamCode: number): { json: string; hasLists: boolean } {
  const stored = edition.payload.profileTables;
  return { json: stringAt(stored.teamCounts, teamCode), hasLists: stored.teamHasLists[teamCode] === 1 };
}
