// The query kernel: filter the candidate row ranges into the edition's scratch bit set, count,
// then produce one page either by walking the precomputed sort order (large match sets) or by
// sorting the few matched rows by (value, name rank) (small ones). Synchronous, no throws.

import { ATTRIBUTE_COUNT } from "../model/attributes.js";
import { BADGE_COUNT } from "../model/badges.js";
import { ERAS } from "../model/eras.js";
import { ABSENT_RATING } from "../data/snapshot.js";
import type { Edition } from "../store/edition.js";
import type { PlayerQuery } from "./plan.js";

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

/** Fills edition.scratch with the matching rows and returns how many there are. */
function filterRows(edition: Edition, query: PlayerQuery): number {
  const bits = edition.scratch;
  bits.fill(0);
  const { overall, positions, attributes, badgeTiers, tierMask } = edition.payload.columns;
  const { positionMask, minOverall, maxOverall, attributeBounds, badge, badgeTier } = query;
  const boundCount = attributeBounds.length;
  const tierBit = badgeTier === 0 ? 0 : 1 << (badgeTier - 1);
  let total = 0;
  for (const [start, end] of candidateRanges(edition, query)) {
    for (let row = start; row < end; row++) {
      const rating = overall[row] as number;
      if (rating < minOverall || rating > maxOverall) continue;
      if (positionMask !== 0 && ((positions[row] as number) & positionMask) === 0) continue;
      let isMatch = true;
      for (let b = 0; b < boundCount; b++) {
        const bound = attributeBounds[b]!;
        const value = attributes[row * ATTRIBUTE_COUNT + bound.column] as number;
        if (value === ABSENT_RATING || value < bound.min || value > bound.max) { isMatch = false; break; }
      }
      if (!isMatch) continue;
      if (badge >= 0) {
        const tier = badgeTiers === null ? 0 : (badgeTiers[row * BADGE_COUNT + badge] as number);
        if (tier === 0 || (badgeTier !== 0 && tier !== badgeTier)) continue;
      } else if (tierBit !== 0 && ((tierMask[row] as number) & tierBit) === 0) {
        continue;
      }
      bits[row >>> 5] = (bits[row >>> 5] as number) | (1 << (row & 31));
      total++;
    }
  }
  return total;
}

/** Era rows are contiguous and so are a team's: the scan only visits rows that can match. */
function candidateRanges(edition: Edition, query: PlayerQuery): [number, number][] {
  if (query.teamCodes !== null) {
    return query.teamCodes
      .map((code) => edition.teams[code])
      .filter((team) => team !== undefined && (query.eraMask & (1 << edition.payload.columns.era[team.firstRow]!)) !== 0)
      .map((team) => [team!.firstRow, team!.endRow]);
  }
  return ERAS.flatMap((era, code) => ((query.eraMask & (1 << code)) !== 0 ? [edition.eraRange(era)] : []));
}

function isSet(bits: Uint32Array, row: number): boolean {
  return ((bits[row >>> 5] as number) & (1 << (row & 31))) !== 0;
}

/** The per-row sort value and the order to walk, for the query's sort key. */
function sortSource(edition: Edition, query: PlayerQuery): { order: Uint32Array; present: number; valueOf: (row: number) => number } {
  const { columns } = edition.payload;
  const orders = edition.payload.sortOrders;
  if (query.sortKey === "name") return { order: orders.name, present: edition.rowCount, valueOf: (row) => columns.nameRank[row] as number };
  if (query.sortKey === "overall") return { order: orders.overall, present: edition.rowCount, valueOf: (row) => columns.overall[row] as number };
  const column = query.sortKey;
  return {
    order: orders.attributes[column] as Uint32Array,
    present: orders.attributePresent[column] as number,
    valueOf: (row) => columns.attributes[row * ATTRIBUTE_COUNT + column] as number,
  };
}

/**
 * Orders hold rows by (value asc, name asc) with absent values last. Descending walks runs of
 * equal value from the end, each run forwards, so ties stay in name order; absent rows come last
 * in both directions.
 */
function walkSortOrder(edition: Edition, query: PlayerQuery, offset: number, wanted: number): Uint32Array {
  const bits = edition.scratch;
  const { order, present, valueOf } = sortSource(edition, query);
  const page = new Uint32Array(wanted);
  let seen = 0;
  let taken = 0;
  const visit = (row: number): boolean => {
    if (!isSet(bits, row)) return false;
    if (seen++ >= offset) page[taken++] = row;
    return taken === wanted;
  };
  if (!query.isDescending) {
    for (let i = 0; i < order.length; i++) if (visit(order[i] as number)) return page;
    return page;
  }
  let i = present - 1;
  while (i >= 0) {
    const value = valueOf(order[i] as number);
    let runStart = i;
    while (runStart > 0 && valueOf(order[runStart - 1] as number) === value) runStart--;
    for (let j = runStart; j <= i; j++) if (visit(order[j] as number)) return page;
    i = runStart - 1;
  }
  for (let j = present; j < order.length; j++) if (visit(order[j] as number)) return page;
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
  const { valueOf } = sortSource(edition, query);
  const nameRank = edition.payload.columns.nameRank;
  const isName = query.sortKey === "name";
  const direction = query.isDescending ? -1 : 1;
  // Absent attribute values (255) sort last whatever the direction.
  const keyOf = (row: number): number => {
    const value = valueOf(row);
    return !isName && value === ABSENT_RATING ? Number.POSITIVE_INFINITY : direction * value;
  };
  rows.sort((a, b) => keyOf(a) - keyOf(b) || (isName ? 0 : (nameRank[a] as number) - (nameRank[b] as number)));
  return rows.slice(offset, offset + wanted);
}
