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
import { memoKey } from "./edition-memo.js";
import { GAP_COUNT, SIGNED_GAP_COUNT, type ProfileColumns, type StoredProfileTables } from "./profile-tables.js";
import { stringAt } from "./string-table.js";
import { NEIGHBOUR_ROWS_MAX, NEIGHBOURS_KEPT, NO_NEIGHBOUR, NO_NEIGHBOUR_TABLES, type StoredNeighbours } from "./neighbour-tables.js";
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
  /** The profile columns with a spread (the only ones a distance is over), column order. */
  spreadColumns: Int32Array;
  spread: AttributeSpread;
  /** The edition's precomputed tables (store/profile-tables.ts): views of the shared snapshot. */
  precomputed: StoredProfileTables;
  /** The nearest-profile index: the snapshot's, with this thread's search scratch (made on first use). */
  profileIndex: ProfileIndex | undefined;
  /** The reference scan's 256-entry table of one column's squared standardised differences (its scratch). */
  squared: Float32Array | undefined;
  /** The reference scan's scratch, one slot per row (only similarRowsByScan allocates it). */
  sums: Float32Array | undefined;
  counts: Uint16Array | undefined;
}

const PROFILE_TABLES = memoKey<ProfileTables>("attribute-profile|tables");
const GROUP_SCORE_SET: ReadonlySet<string> = new Set(GROUP_SCORE_KEYS);

function tables(edition: Edition): ProfileTables {
  return edition.memo.of(PROFILE_TABLES, () => {
    const { keys, profileColumns, groups } = profileShapeOf(edition);
    const precomputed = edition.payload.profileTables;
    return {
      keys, labels: keys.map((key) => displayLabel(key)), profileColumns, groups, precomputed,
      spreadColumns: Int32Array.from(profileColumns.filter((column) => (precomputed.stddev[column] as number) > 0)),
      contrastPrefixes: keys.map((key) => `{"attribute":${JSON.stringify(key)},"label":${JSON.stringify(displayLabel(key))},"value":`),
      spread: { mean: precomputed.mean, stddev: precomputed.stddev },
      profileIndex: undefined, squared: undefined, sums: undefined, counts: undefined,
    };
  });
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
 * Work: in a scope the snapshot stores the row's nearest for (its own era, with or without a
 * position; every era without one: store/neighbour-tables.ts), the first `limit` of those lists,
 * their distances recomputed; elsewhere a search of the edition's profile index
 * (store/profile-index.ts), which checks exactly only the rows it cannot prove farther than the
 * `limit`-th. Either way the answer is the scan's (similarRowsByScan), bit for bit.
 */
export function similarRows(edition: Edition, query: SimilarQuery): SimilarMatch[] {
  const built = tables(edition);
  const ownEraMask = 1 << (edition.payload.columns.era[query.row] as number);
  if (query.limit <= edition.payload.neighbours.kept && query.eraMask === ownEraMask && query.positionMask === 0) return storedMatches(edition, built, query);
  const target = profileTarget(edition, built, query);
  if (target === undefined) return [];
  const index = profileIndexOf(edition);
  const best = new BestMatches(query.limit, edition.payload.columns.nameRank);
  searchProfileIndex(index, edition, built.keys.length, target, () => best.kthDistance(), (row, distance, shared) => best.offer(row, distance, shared));
  return best.matches();
}

/** Set by profileDistance: the columns its distance was over. */
let distanceShared = 0;

/**
 * The distance of `other`'s profile from `row`'s exactly as the search and the scan compute it
 * (float32 sums of the squared standardised gaps over `row`'s spread columns `other` also holds,
 * in column order; the root mean square); the shared count in distanceShared.
 */
function profileDistance(edition: Edition, built: ProfileTables, row: number, other: number): number {
  const { attributes } = edition.payload.columns;
  const keyCount = built.keys.length;
  const { spreadColumns } = built;
  const { squaredGap } = built.precomputed;
  const base = row * keyCount;
  const otherBase = other * keyCount;
  let sum = 0;
  let shared = 0;
  for (let k = 0; k < spreadColumns.length; k++) {
    const column = spreadColumns[k] as number;
    const value = attributes[base + column] as number;
    if (value === ABSENT_RATING) continue;
    const otherValue = attributes[otherBase + column] as number;
    if (otherValue === ABSENT_RATING) continue;
    sum = Math.fround(sum + (squaredGap[column * SIGNED_GAP_COUNT + GAP_COUNT - 1 - value + otherValue] as number));
    shared++;
  }
  distanceShared = shared;
  return Math.sqrt(sum / shared);
}

/** The answer from the row's stored list (its own era, any position): the first `limit`, their distances recomputed. */
function storedMatches(edition: Edition, built: ProfileTables, query: SimilarQuery): SimilarMatch[] {
  const { kept, rows: lists } = edition.payload.neighbours;
  const rowCount = edition.rowCount;
  const start = query.row * kept;
  const matches: SimilarMatch[] = [];
  for (let i = 0; i < query.limit; i++) {
    const other = lists[start + i] as number;
    if (other >= rowCount) break;
    const distance = profileDistance(edition, built, query.row, other);
    matches.push({ row: other, shared: distanceShared, similarity: similarityOf(distance) });
  }
  return matches;
}

const similarityOf = (distance: number): number => Math.round((1 / (1 + distance)) * 10_000) / 10_000;

/**
 * Every row's nearest profiles in its own era (store/neighbour-tables.ts), each list exactly the
 * `kept` first of what a search of that scope answers; none above NEIGHBOUR_ROWS_MAX rows. Only
 * the pairs of an era are compared, each once: a pair's distance is the same both ways (the
 * columns both hold with a spread, summed in column order; a squared gap is the same for −d as for
 * d), computed as the scan computes it (float32 sums, one column after the other over the
 * column's rows) and offered to both rows' lists, each side's half-its-columns rule applied. A
 * list is a bounded max-heap over flat typed arrays: an offer no nearer than its farthest is
 * turned away at once, and nothing is allocated per pair.
 */
export function buildNeighbourTables(edition: Edition): StoredNeighbours {
  const rowCount = edition.rowCount;
  if (rowCount > NEIGHBOUR_ROWS_MAX) return NO_NEIGHBOUR_TABLES;
  const built = tables(edition);
  const kept = NEIGHBOURS_KEPT;
  const keyCount = built.keys.length;
  const { spreadColumns } = built;
  const { squaredGap } = built.precomputed;
  const { nameRank, attributes, attributeColumns } = edition.payload.columns;
  // Per row: the columns it holds with a spread (|C|), and the shared columns a candidate needs
  // (half of them); per spread column, the smallest and largest value a row holds.
  const held = new Uint16Array(rowCount);
  const needed = new Uint16Array(rowCount);
  const lowest = new Uint8Array(spreadColumns.length).fill(ABSENT_RATING);
  const highest = new Uint8Array(spreadColumns.length);
  for (let row = 0; row < rowCount; row++) {
    let count = 0;
    for (let k = 0; k < spreadColumns.length; k++) {
      const value = attributes[row * keyCount + (spreadColumns[k] as number)] as number;
      if (value === ABSENT_RATING) continue;
      count++;
      if (value < (lowest[k] as number)) lowest[k] = value;
      if (value > (highest[k] as number)) highest[k] = value;
    }
    held[row] = count;
    needed[row] = Math.ceil(count / 2);
  }

  // The heaps: row r's holds sizes[r] entries from r · kept, the farthest first. The functions
  // below take only integers (the distance offered is in offered[0]), so no call boxes a number.
  const heapRows = new Uint16Array(rowCount * kept);
  const heapDistances = new Float64Array(rowCount * kept);
  const sizes = new Uint8Array(rowCount);
  const offered = new Float64Array(1);
  /** Whether the entry at `at` ranks after (row, offered[0]): farther, or as far and later by name. */
  const isFartherThanOffered = (at: number, row: number): boolean => {
    const distance = heapDistances[at] as number;
    const offeredDistance = offered[0] as number;
    return distance > offeredDistance || (distance === offeredDistance && (nameRank[heapRows[at] as number] as number) > (nameRank[row] as number));
  };
  /** Whether the entry at `at` ranks after the one at `other`. */
  const isFartherThan = (at: number, other: number): boolean => {
    const distance = heapDistances[at] as number;
    const otherDistance = heapDistances[other] as number;
    return distance > otherDistance || (distance === otherDistance && (nameRank[heapRows[at] as number] as number) > (nameRank[heapRows[other] as number] as number));
  };
  /** Puts (row, offered[0]) at the root of the heap at `start` of `size` entries and sifts it down. */
  const siftDown = (start: number, size: number, row: number): void => {
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && isFartherThan(start + child + 1, start + child)) child++;
      if (!isFartherThanOffered(start + child, row)) break;
      heapRows[start + i] = heapRows[start + child] as number;
      heapDistances[start + i] = heapDistances[start + child] as number;
      i = child;
    }
    heapRows[start + i] = row;
    heapDistances[start + i] = offered[0] as number;
  };
  /** (row, offered[0]) offered to `list`'s heap. */
  const offer = (list: number, row: number): void => {
    const start = list * kept;
    const size = sizes[list] as number;
    if (size === kept) {
      if (isFartherThanOffered(start, row)) siftDown(start, kept, row);
      return;
    }
    // Not full: sift up (the farthest at the root).
    let i = size;
    sizes[list] = size + 1;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (isFartherThanOffered(start + parent, row)) break;
      heapRows[start + i] = heapRows[start + parent] as number;
      heapDistances[start + i] = heapDistances[start + parent] as number;
      i = parent;
    }
    heapRows[start + i] = row;
    heapDistances[start + i] = offered[0] as number;
  };

  const sums = new Float32Array(rowCount);
  const counts = new Uint16Array(rowCount);
  // Per byte value its squared gap from the row's value, 0 where absent (no branch in the sums).
  const squared = new Float32Array(256);
  const holds = new Uint16Array(256).fill(1);
  holds[ABSENT_RATING] = 0;
  for (let code = 0; code + 1 < edition.eraStart.length; code++) {
    const eraEnd = edition.eraStart[code + 1] as number;
    for (let row = edition.eraStart[code] as number; row < eraEnd; row++) {
      if (held[row] === 0) continue;
      // The era's rows after this one: their sums over this row's columns (the scan's,
      // similarRowsByScan), and the columns they share with it (all they hold, when it holds every one).
      const from = row + 1;
      const isComplete = held[row] === spreadColumns.length;
      sums.fill(0, from, eraEnd);
      if (isComplete) counts.set(held.subarray(from, eraEnd), from);
      else counts.fill(0, from, eraEnd);
      for (let k = 0; k < spreadColumns.length; k++) {
        const column = spreadColumns[k] as number;
        const value = attributes[row * keyCount + column] as number;
        if (value === ABSENT_RATING) continue;
        // Only the values the column holds are looked up (squared[ABSENT_RATING] stays 0).
        const offset = column * SIGNED_GAP_COUNT + GAP_COUNT - 1 - value;
        for (let other = lowest[k] as number; other <= (highest[k] as number); other++) squared[other] = squaredGap[offset + other] as number;
        if (isComplete) addSquaredGaps(sums, squared, attributeColumns, column * rowCount, from, eraEnd);
        else addSquaredGapsAndCounts(sums, counts, squared, holds, attributeColumns, column * rowCount, from, eraEnd);
      }
      const rowNeeds = needed[row] as number;
      for (let other = from; other < eraEnd; other++) {
        const shared = counts[other] as number;
        if (shared === 0) continue;
        offered[0] = Math.sqrt((sums[other] as number) / shared);
        if (shared >= rowNeeds) offer(row, other);
        if (shared >= (needed[other] as number)) offer(other, row);
      }
    }
  }

  // Each heap emptied farthest first into its list from the back: the list nearest first.
  const rows = new Uint16Array(rowCount * kept).fill(NO_NEIGHBOUR);
  for (let list = 0; list < rowCount; list++) {
    const start = list * kept;
    for (let size = sizes[list] as number; size > 0; size--) {
      rows[start + size - 1] = heapRows[start] as number;
      // The last entry to the root, sifted down over the rest.
      offered[0] = heapDistances[start + size - 1] as number;
      siftDown(start, size - 1, heapRows[start + size - 1] as number);
    }
  }
  return { kept, rows };
}

/** sums[r] += squared[values[base + r]] for r in [from, to): one column's squared gaps (float32 sums, as the scan's). */
function addSquaredGaps(sums: Float32Array, squared: Float32Array, values: Uint8Array, base: number, from: number, to: number): void {
  for (let r = from; r < to; r++) sums[r] = (sums[r] as number) + (squared[values[base + r] as number] as number);
}

/** addSquaredGaps, and counts[r] += holds[values[base + r]] (1 where the row holds the column). */
function addSquaredGapsAndCounts(sums: Float32Array, counts: Uint16Array, squared: Float32Array, holds: Uint16Array, values: Uint8Array, base: number, from: number, to: number): void {
  for (let r = from; r < to; r++) {
    const value = values[base + r] as number;
    sums[r] = (sums[r] as number) + (squared[value] as number);
    counts[r] = (counts[r] as number) + (holds[value] as number);
  }
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
    return this.kept.map(({ row, distance, shared }) => ({ row, shared, similarity: similarityOf(distance) }));
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
  pickContrasts(edition, built, row, other);
  const contrast = (column: number): AttributeContrast => ({
    attribute: built.keys[column] as string, label: built.labels[column] as string,
    value: attributes[row * keyCount + column] as number, otherValue: attributes[other * keyCount + column] as number,
  });
  return { agreesMost: Array.from(agreeColumns.subarray(0, contrastCount), contrast), differsMost: Array.from(differColumns.subarray(0, contrastCount), contrast) };
}

/** contrastProfiles as JSON, each list exactly as JSON.stringify writes it (from per-column fragments: what `similar` renders). */
export function contrastProfilesJson(edition: Edition, row: number, other: number): { agreesMost: string; differsMost: string } {
  const built = tables(edition);
  pickContrasts(edition, built, row, other);
  return { agreesMost: contrastJson(edition, built, row, other, agreeColumns), differsMost: contrastJson(edition, built, row, other, differColumns) };
}

function contrastJson(edition: Edition, built: ProfileTables, row: number, other: number, columns: Int32Array): string {
  const { attributes } = edition.payload.columns;
  const keyCount = built.keys.length;
  let text = "[";
  for (let i = 0; i < contrastCount; i++) {
    const column = columns[i] as number;
    text += `${i === 0 ? "" : ","}${built.contrastPrefixes[column] as string}${attributes[row * keyCount + column] as number},"otherValue":${attributes[other * keyCount + column] as number}}`;
  }
  return `${text}]`;
}

/** What pickContrasts found (per thread, overwritten by the next call): the columns of the (up to) three closest and three farthest, first first, and how many. */
const agreeColumns = new Int32Array(3);
const agreeGaps = new Float64Array(3);
const differColumns = new Int32Array(3);
const differGaps = new Float64Array(3);
let contrastCount = 0;

/**
 * contrastProfiles' two lists, into the scratch above, in one pass over the profile columns both
 * rows hold with a spread: the three smallest and the three largest standardised gaps, a later
 * column displacing a kept one only when strictly closer (or farther), so ties go to column order.
 */
function pickContrasts(edition: Edition, built: ProfileTables, row: number, other: number): void {
  const { attributes } = edition.payload.columns;
  const keyCount = built.keys.length;
  const { stddev } = built.precomputed;
  const { spreadColumns } = built;
  let n = 0;
  for (let k = 0; k < spreadColumns.length; k++) {
    const column = spreadColumns[k] as number;
    const value = attributes[row * keyCount + column] as number;
    const otherValue = attributes[other * keyCount + column] as number;
    if (value === ABSENT_RATING || otherValue === ABSENT_RATING) continue;
    const gap = Math.abs(value - otherValue) / (stddev[column] as number);
    // The smallest three: the kept ones larger than `gap` move down one (the last falls off).
    if (n < 3 || gap < (agreeGaps[2] as number)) {
      let i = n < 3 ? n : 2;
      while (i > 0 && gap < (agreeGaps[i - 1] as number)) { agreeGaps[i] = agreeGaps[i - 1] as number; agreeColumns[i] = agreeColumns[i - 1] as number; i--; }
      agreeGaps[i] = gap;
      agreeColumns[i] = column;
    }
    if (n < 3 || gap > (differGaps[2] as number)) {
      let i = n < 3 ? n : 2;
      while (i > 0 && gap > (differGaps[i - 1] as number)) { differGaps[i] = differGaps[i - 1] as number; differColumns[i] = differColumns[i - 1] as number; i--; }
      differGaps[i] = gap;
      differColumns[i] = column;
    }
    n++;
  }
  contrastCount = Math.min(n, 3);
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
