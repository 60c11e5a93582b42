// The nearest profiles of `similar` as the snapshot stores them (`payload.neighbours`): every row's
// closest rows in the route's default scope (the row's own era, any position: ~60 % of load mix
// (i)'s `similar` URLs), in answer order, so such a request reads a list instead of searching the
// profile index. Built by store/attribute-profile.ts (buildNeighbourTables, one pass over the
// pairs of each era), which also answers from them; this module knows no Edition, so the snapshot
// module can check them without depending on one.
//
// A row's list holds NEIGHBOURS_KEPT rows: its era's closest exactly as the search ranks them
// (distance, ties by name), the row itself left out, NO_NEIGHBOUR after the last when the era has
// fewer. The first `limit` of it are the search's answer for that limit (limit ≤ NEIGHBOURS_KEPT).
// Any other scope (a position, another era, `era=all`) searches the index. Lists per position were
// tried and left out: they made the build ~4× dearer (a position's 50th nearest is far, so almost
// every pair enters some list) for a quarter of the URLs.
//
// Only editions of at most NEIGHBOUR_ROWS_MAX rows have lists (every real and demo edition): the
// build compares every pair of an era. A larger edition stores none (`kept` 0, no rows) and every
// `similar` of it searches the index, as before the lists: its file, build and load are as they were.

/** Rows kept per list: the route's largest `limit`. */
export const NEIGHBOURS_KEPT = 50;
/** The largest edition with stored lists (larger ones: none; rows fit 16 bits either way). */
export const NEIGHBOUR_ROWS_MAX = 4_096;
/** An entry past a list's end (no row: rows are fewer than NEIGHBOUR_ROWS_MAX). */
export const NO_NEIGHBOUR = 0xffff;

export interface StoredNeighbours {
  /** Rows per list: NEIGHBOURS_KEPT, or 0 for an edition of more than NEIGHBOUR_ROWS_MAX rows (no lists). */
  kept: number;
  /** [R × kept]: row · kept + i → the row's i-th nearest; past its list's end NO_NEIGHBOUR. Empty when `kept` is 0. */
  rows: Uint16Array;
}

/** The lists of an edition too large to have them. */
export const NO_NEIGHBOUR_TABLES: StoredNeighbours = { kept: 0, rows: new Uint16Array(0) };

/**
 * Whether a payload's stored lists fit the edition (a list per row, of the kept length, or none
 * above NEIGHBOUR_ROWS_MAX rows), so a request never reads past one. The entries are not scanned
 * here: a reader takes any entry that is no row of the edition for the end of its list.
 */
export function isNeighbourTablesShape(tables: StoredNeighbours, rows: number): boolean {
  if (!(tables?.rows instanceof Uint16Array)) return false;
  if (rows > NEIGHBOUR_ROWS_MAX) return tables.kept === 0 && tables.rows.length === 0;
  return tables.kept === NEIGHBOURS_KEPT && tables.rows.length === rows * NEIGHBOURS_KEPT;
}
