// The query kernel: filter the candidate row ranges into the edition's scratch bit set, count,
// then produce one page either by walking the precomputed sort order (large match sets) or by
// sorting the few matched rows by (value, name rank) (small ones). Synchronous, no throws.

import { ERAS } from "../model/eras.js";
import type { Edition } from "../store/edition.js";
import { memoKey } from "../store/edition-memo.js";
import type { PlayerQuery, SortKey } from "./plan.js";
import { ABSENT_RATING } from "../model/attributes.js";

export interface QueryResult {
  total: number;
  rows: Uint32Array;
}

export function executeQuery(edition: Edition, query: PlayerQuery, offset: number, limit: number): QueryResult {
  const total = filterRows(edition, query);
  const wanted = Math.max(0, Math.min(limit, total - offset));
  if (wanted === 0) return { total, rows: new Uint32Array(0) };
  // Walking the order costs about (offset + limit) × rows / total steps; sorting the matches costs
  // total × log(total). Pick the cheaper.
  const walkCost = ((offset + wanted) * edition.rowCount) / total;
  const sortCost = total * Math.log2(total + 1) * 4;
  const rows = walkCost < sortCost ? walkSortOrder(edition, query, offset, wanted) : sortMatches(edition, query, total, offset, wanted);
  return { total, rows };
}

/**
 * Fills edition.scratch with the matching rows and returns how many there are. Three passes:
 *  1. the small columns read in row order over every candidate row (overall and positions, in a
 *     loop without the tests of absent filters; then the badge-tier mask, archetype and college
 *     codes on the rows of each word still set), branch-free: `value in [min, max]` is the sign bit of
 *     `(value - min) | (max - value)`, folded into a 0/1 bit with integer ops only, so no row's
 *     outcome has to be guessed by the CPU (at ~50 % selectivity mispredicted branches cost
 *     more than the reads) and no value leaves V8's small-integer range;
 *  2. the name search, when there is one: its matching rows (the name index's prefix tier) as a
 *     second bit set, intersected into the first a word at a time;
 *  3. each attribute bound and the badge in turn, a word of 32 rows at a time, skipping words
 *     with no row left, from column copies of the row-major attribute and badge tables (see
 *     attributeColumn), also branch-free.
 * ABSENT_RATING (255) fails every attribute bound (bounds are capped below it). The readable
 * version, per row: overall in range && (no position filter || positions & mask) && (no
 * archetype filter || archetype code equal) && (same for college) && name search matched &&
 * every attribute bound holds && badge test → set the row's bit.
 */
function filterRows(edition: Edition, query: PlayerQuery): number {
  const bits = edition.scratch;
  bits.fill(0);
  const { overall, positions, badgeTiers, tierMask } = edition.payload.columns;
  const { positionMask, minOverall, maxOverall, attributeBounds, badge, badgeTier, archetypeCode, collegeCode } = query;
  const archetypeCodes = edition.archetypes.codes;
  const collegeCodes = edition.colleges.codes;
  // A badge filter on an edition without badge lists matches nothing (planQuery refuses it first).
  if (badge >= 0 && badgeTiers === null) return 0;
  const hasPosition = positionMask !== 0;
  const tierBit = badge < 0 && badgeTier !== 0 ? 1 << (badgeTier - 1) : 0;
  const hasRareFilter = tierBit !== 0 || archetypeCode >= 0 || collegeCode >= 0;
  // Four rows per 32-bit read where a word of 32 rows is whole (see overallWordMatches); ratings
  // and bounds are at most 127, which the byte-lane arithmetic needs.
  const { overallWords, positionWords } = edition;
  const isFourAtATime = overallWords !== null && positionWords !== null && minOverall >= 0 && maxOverall <= 127 && minOverall <= maxOverall;
  const minLanes = Math.imul(minOverall, 0x01010101);
  const maxLanes = Math.imul(maxOverall, 0x01010101) | 0x80808080;
  const positionLanes = Math.imul(positionMask, 0x01010101);
  const ranges = candidateRanges(edition, query);
  if (ranges.length === 0) return 0;
  let firstRow = Number.POSITIVE_INFINITY;
  let endRow = 0;
  for (const [start, end] of ranges) {
    if (start >= end) continue;
    firstRow = Math.min(firstRow, start);
    endRow = Math.max(endRow, end);
    // A word of 32 rows is built in a local and stored once (a read-modify-write of the bit set
    // per row chains every row to the previous one's store).
    for (let row = start; row < end;) {
      const w = row >>> 5;
      const wordEnd = Math.min(end, (w + 1) * 32);
      let word = 0;
      // One loop per shape (the per-row tests of absent filters cost a third of a million-row
      // query): overall with or without the position mask, every row; the rare filters after,
      // on the rows of the word still matching.
      if (isFourAtATime && row === w * 32 && wordEnd === row + 32) {
        word = overallWordMatches(overallWords as Uint32Array, positionWords as Uint32Array, row >>> 2, minLanes, maxLanes, hasPosition ? positionLanes : 0);
        row = wordEnd;
      } else if (hasPosition) {
        for (; row < wordEnd; row++) {
          const rating = overall[row] as number;
          // (x & mask) is at most 31: adding 255 carries into bit 8 exactly when it is non-zero.
          word |= ((~((rating - minOverall) | (maxOverall - rating)) >>> 31) & ((((positions[row] as number) & positionMask) + 255) >>> 8)) << (row & 31);
        }
      } else {
        for (; row < wordEnd; row++) {
          const rating = overall[row] as number;
          word |= (~((rating - minOverall) | (maxOverall - rating)) >>> 31) << (row & 31);
        }
      }
      if (hasRareFilter && word !== 0) {
        for (let r = w * 32; r < wordEnd; r++) {
          if ((word & (1 << (r & 31))) === 0) continue;
          let isMatch = 1;
          if (tierBit !== 0) isMatch &= (((tierMask[r] as number) & tierBit) + 255) >>> 8;
          // Equal codes XOR to 0, and only 0 - 1 has the sign bit (codes stay far below 2^31).
          if (archetypeCode >= 0) isMatch &= (((archetypeCodes[r] as number) ^ archetypeCode) - 1) >>> 31;
          if (collegeCode >= 0) isMatch &= (((collegeCodes[r] as number) ^ collegeCode) - 1) >>> 31;
          if (isMatch === 0) word &= ~(1 << (r & 31));
        }
      }
      bits[w] = (bits[w] as number) | word;
    }
  }
  if (endRow === 0) return 0;
  const firstWord = firstRow >>> 5;
  const lastWord = (endRow - 1) >>> 5;
  if (query.search !== null) intersectSearch(edition, query.search, query.eraMask, firstWord, lastWord);
  const boundCount = attributeBounds.length;
  // Each attribute bound, then the badge, as a range test on one column: `badgeTier` alone means
  // any tier (1…255), with a badge the exact tier. Only words with rows still set are read.
  for (let b = 0; b <= boundCount; b++) {
    const bound = attributeBounds[b];
    if (bound === undefined && badge < 0) break;
    const column = bound !== undefined ? attributeColumn(edition, bound.column) : badgeColumn(edition, badge);
    const min = bound !== undefined ? bound.min : badgeTier === 0 ? 1 : badgeTier;
    // ABSENT_RATING never satisfies a bound, whatever its max (the API caps bounds at 99 anyway).
    const max = bound !== undefined ? Math.min(bound.max, ABSENT_RATING - 1) : badgeTier === 0 ? 255 : badgeTier;
    for (let w = firstWord; w <= lastWord; w++) {
      const word = bits[w] as number;
      if (word === 0) continue;
      const base = w * 32;
      const count = Math.min(32, column.length - base);
      let mask = 0;
      for (let i = 0; i < count; i++) {
        const value = column[base + i] as number;
        mask |= (~((value - min) | (max - value)) >>> 31) << i;
      }
      bits[w] = word & mask;
    }
  }
  let total = 0;
  for (let w = firstWord; w <= lastWord; w++) {
    // Population count of one word (bit-slicing; no intrinsic in JS).
    let x = bits[w] as number;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    x = (x + (x >>> 4)) & 0x0f0f0f0f;
    total += Math.imul(x, 0x01010101) >>> 24;
  }
  return total;
}

/**
 * The bits of 32 rows (eight 32-bit reads of four rows each, from `at`) whose overall is in
 * [min, max] and, with `positionLanes`, whose position mask meets it. Per byte lane b (≤ 127):
 * (b | 0x80) − min keeps bit 7 exactly when b ≥ min, (max | 0x80) − b exactly when b ≤ max, and
 * neither borrows from the next lane; (p & mask) + 0x7f sets bit 7 exactly when a position
 * matches. The four bit 7s are then gathered into four adjacent bits by one multiplication
 * (0x204081 moves lane j's bit to bit 21 + j without two terms meeting). Byte 0 is the first row
 * (little-endian, which Edition checks).
 */
function overallWordMatches(overall: Uint32Array, positions: Uint32Array, at: number, minLanes: number, maxLanes: number, positionLanes: number): number {
  let word = 0;
  for (let k = 0; k < 8; k++) {
    const x = overall[at + k] as number;
    let lanes = ((x | 0x80808080) - minLanes) & (maxLanes - x) & 0x80808080;
    if (positionLanes !== 0) lanes &= (((positions[at + k] as number) & positionLanes) + 0x7f7f7f7f) & 0x80808080;
    word |= ((Math.imul(lanes >>> 7, 0x204081) >>> 21) & 0xf) << (k * 4);
  }
  return word;
}

/** Keeps in edition.scratch (words firstWord … lastWord) only the rows the name search matches. */
function intersectSearch(edition: Edition, search: string, eraMask: number, firstWord: number, lastWord: number): void {
  const bits = edition.scratch;
  const mask = edition.scratchMask;
  mask.fill(0, firstWord, lastWord + 1);
  const matches = edition.nameIndex.prefixMatches(search, eraMask);
  for (let i = 0; i < matches.length; i++) {
    const row = matches[i] as number;
    mask[row >>> 5] = (mask[row >>> 5] as number) | (1 << (row & 31));
  }
  for (let w = firstWord; w <= lastWord; w++) bits[w] = (bits[w] as number) & (mask[w] as number);
}

/**
 * One attribute (badge) as a column of bytes by row: the snapshot stores the tables column-major
 * too. Reading a bound through the 43-byte row stride touched a new cache line per row: at a
 * million rows a filter pass cost 10–20 ms in memory traffic alone.
 */
function attributeColumn(edition: Edition, column: number): Uint8Array {
  return edition.payload.columns.attributeColumns.subarray(column * edition.rowCount, (column + 1) * edition.rowCount);
}

function badgeColumn(edition: Edition, badge: number): Uint8Array {
  return (edition.payload.columns.badgeColumns as Uint8Array).subarray(badge * edition.rowCount, (badge + 1) * edition.rowCount);
}

/** Era rows are contiguous and so are a team's: the scan only visits rows that can match. */
function candidateRanges(edition: Edition, query: PlayerQuery): [number, number][] {
  const ranges: [number, number][] = [];
  if (query.teamCodes !== null) {
    const era = edition.payload.columns.era;
    for (const code of query.teamCodes) {
      const team = edition.teams[code];
      if (team !== undefined && team.firstRow >= 0 && (query.eraMask & (1 << (era[team.firstRow] as number))) !== 0) ranges.push([team.firstRow, team.endRow]);
    }
    return ranges;
  }
  for (let code = 0; code < ERAS.length; code++) {
    if ((query.eraMask & (1 << code)) !== 0) ranges.push(edition.eraRange(ERAS[code] as (typeof ERAS)[number]));
  }
  return ranges;
}

/** The order to walk for a sort key, and how many of its rows have a value (absent rows follow). */
function sortOrderOf(edition: Edition, sortKey: SortKey): { order: Uint32Array; present: number } {
  const orders = edition.payload.sortOrders;
  if (sortKey === "name") return { order: orders.name, present: edition.rowCount };
  if (sortKey === "overall") return { order: orders.overall, present: edition.rowCount };
  return { order: orders.attributes[sortKey] as Uint32Array, present: orders.attributePresent[sortKey] as number };
}

/**
 * Where each value's run starts in a sort order: runStart[v] is the first position whose value is
 * at least v, runStart[256] the number of present rows. Found by binary search (~20 reads per
 * value) the first time a sort key is walked, then kept per edition (257 integers per key). A
 * descending walk then never reads a row's value: at a million rows those reads were random
 * accesses into the 43 MB attribute table, up to tens of milliseconds per query.
 */
const RUN_STARTS = memoKey<Map<SortKey, Uint32Array>>("query|run-starts");

function runStartsOf(edition: Edition, sortKey: "overall" | number, order: Uint32Array, present: number): Uint32Array {
  const byKey = edition.memo.of(RUN_STARTS, () => new Map());
  let starts = byKey.get(sortKey);
  if (starts === undefined) {
    const { overall, attributes } = edition.payload.columns;
    const width = edition.catalogue.attributeCount;
    const valueAt = sortKey === "overall"
      ? (i: number) => overall[order[i] as number] as number
      : (i: number) => attributes[(order[i] as number) * width + sortKey] as number;
    starts = new Uint32Array(257);
    for (let value = 0; value <= 256; value++) {
      let lo = value === 0 ? 0 : (starts[value - 1] as number);
      let hi = present;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (valueAt(mid) < value) lo = mid + 1;
        else hi = mid;
      }
      starts[value] = lo;
    }
    byKey.set(sortKey, starts);
  }
  return starts;
}

/**
 * Orders hold rows by (value asc, name asc) with absent values last. Descending walks the runs of
 * equal value from the highest, each run forwards, so ties stay in name order; absent rows come
 * last in both directions. Names are unique ranks, so descending by name is the order reversed.
 */
function walkSortOrder(edition: Edition, query: PlayerQuery, offset: number, wanted: number): Uint32Array {
  const bits = edition.scratch;
  const { order, present } = sortOrderOf(edition, query.sortKey);
  const page = new Uint32Array(wanted);
  let skip = offset;
  let taken = 0;
  // One loop per direction, the bit test inlined: this is the whole cost of a large-match page.
  if (!query.isDescending) {
    for (let i = 0; i < order.length; i++) {
      const row = order[i] as number;
      if (((bits[row >>> 5] as number) & (1 << (row & 31))) === 0) continue;
      if (skip > 0) { skip--; continue; }
      page[taken++] = row;
      if (taken === wanted) return page;
    }
    return page;
  }
  if (query.sortKey === "name") {
    for (let i = order.length - 1; i >= 0; i--) {
      const row = order[i] as number;
      if (((bits[row >>> 5] as number) & (1 << (row & 31))) === 0) continue;
      if (skip > 0) { skip--; continue; }
      page[taken++] = row;
      if (taken === wanted) return page;
    }
    return page;
  }
  const runStarts = runStartsOf(edition, query.sortKey, order, present);
  for (let value = 255; value >= -1; value--) {
    // value -1 stands for the absent rows after the present ones.
    const from = value < 0 ? present : (runStarts[value] as number);
    const to = value < 0 ? order.length : (runStarts[value + 1] as number);
    for (let i = from; i < to; i++) {
      const row = order[i] as number;
      if (((bits[row >>> 5] as number) & (1 << (row & 31))) === 0) continue;
      if (skip > 0) { skip--; continue; }
      page[taken++] = row;
      if (taken === wanted) return page;
    }
  }
  return page;
}

function sortMatches(edition: Edition, query: PlayerQuery, total: number, offset: number, wanted: number): Uint32Array {
  const bits = edition.scratch;
  const rows = edition.scratchRows.subarray(0, total);
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] as number;
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      rows[n++] = w * 32 + bit;
      word &= word - 1;
    }
  }
  const { columns } = edition.payload;
  const nameRank = columns.nameRank;
  if (query.sortKey === "name") {
    // Name ranks are unique: the rank is the whole key.
    if (query.isDescending) rows.sort((a, b) => (nameRank[b] as number) - (nameRank[a] as number));
    else rows.sort((a, b) => (nameRank[a] as number) - (nameRank[b] as number));
    return rows.slice(offset, offset + wanted);
  }
  // One number per row: (value key) * 2^32 + name rank, with absent values (255) after every
  // real one in both directions; a Float64Array sort then needs no comparator. Exact: keys stay
  // below 2^42, far inside a double's 2^53.
  const keys = new Float64Array(total);
  const column = query.sortKey;
  const width = edition.catalogue.attributeCount;
  for (let i = 0; i < total; i++) {
    const row = rows[i] as number;
    const value = column === "overall" ? (columns.overall[row] as number) : (columns.attributes[row * width + column] as number);
    const valueKey = value === ABSENT_RATING ? 512 : query.isDescending ? 255 - value : value;
    keys[i] = valueKey * 4294967296 + (nameRank[row] as number);
  }
  keys.sort();
  const page = new Uint32Array(Math.min(wanted, total - offset));
  for (let i = 0; i < page.length; i++) page[i] = edition.payload.sortOrders.name[(keys[offset + i] as number) % 4294967296] as number;
  return page;
}
