// The row tables of an edition as a snapshot stores them: its columns, its sort orders, its
// lookups by id and slug, and its teams. Built offline (src/pipeline/build-snapshot.ts), viewed
// at load (edition.ts).

import type { Era } from "../model/eras.js";
import type { RowGroups } from "./string-table.js";

export interface TeamEntry {
  teamName: string;
  slug: string;
  teamType: Era;
  logo?: string;
}

export interface SnapshotColumns {
  overall: Uint8Array;
  era: Uint8Array;
  /** Position bit mask per row (PG=1 … C=16). */
  positions: Uint8Array;
  team: Uint16Array | Uint32Array;
  /** row * attributeCount + column (the edition's catalogue); ABSENT_RATING where the player lacks the attribute. */
  attributes: Uint8Array;
  /** The same table column-major (column * rowCount + row): what the filter kernel scans. */
  attributeColumns: Uint8Array;
  /** row * badgeCount + badge (the catalogue's) → tier code (0 none); null where the source has no badge lists. */
  badgeTiers: Uint8Array | null;
  /** The same column-major (badge * rowCount + row). */
  badgeColumns: Uint8Array | null;
  /** Bit (tier code - 1) set when the row holds at least one badge of that tier. */
  tierMask: Uint8Array;
  /** Position of the row in name order: the tie-break of every sort. */
  nameRank: Uint32Array;
}

export interface SortOrders {
  /** Rows by (overall asc, name asc); descending walks equal-value runs backwards. */
  overall: Uint32Array;
  name: Uint32Array;
  /** One per attribute column: rows with the attribute by (value asc, name asc), then rows without. */
  attributes: Uint32Array[];
  /** How many rows have each attribute (the absent rows follow them in its order). */
  attributePresent: Uint32Array;
}

/** Rows by id, by slug and by the slug of the name alone. */
export interface LookupData {
  ids: RowGroups;
  slugs: RowGroups;
  nameSlugs: RowGroups;
}
