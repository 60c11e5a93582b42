// An edition as one flat table for the exports (docs/exports.md): one row per player, typed
// columns in a fixed order (the registry's attributes and badges first, so every edition's columns
// line up; an edition's own attributes and badges appended). Built once per edition on first use
// from the stored records (BLOCK_ROWS of them a slice, so a large edition's first export does not
// hold the thread) and kept on the edition (its memo); every export format reads it.

import { ATTRIBUTE_KEYS } from "../model/attributes.js";
import { BADGES, BADGE_TIERS } from "../model/badges.js";
import { HOT_ZONE_KEYS, type PlayerRecord } from "../model/player.js";
import type { Edition } from "../store/edition.js";
import { memoKey } from "../store/edition-memo.js";
import { BLOCK_ROWS, kept, runNow, type Sliced } from "./slices.js";

/**
 * `text`: free text, mostly distinct (`_id`, `name`, `slug`); `category`: text with few distinct
 * values (dictionary-encoded in Parquet and Arrow); `rating`: an integer 0–99 (16-bit);
 * `count`: a badge count (32-bit). Absent cells are null (empty in CSV).
 */
export type ExportKind = "text" | "category" | "rating" | "count";
export type Cell = string | number | null;

export interface ExportColumn {
  readonly name: string;
  readonly kind: ExportKind;
  /** One cell per row of the edition, in row order. */
  readonly cells: readonly Cell[];
}

export interface ExportTable {
  readonly rowCount: number;
  readonly columns: readonly ExportColumn[];
}

/** The badge-count columns, after the attributes. */
export const BADGE_COUNT_COLUMNS = [
  ["badgesTotal", "total"], ["badgesLegendary", "legendary"], ["badgesHallOfFame", "hallOfFame"],
  ["badgesGold", "gold"], ["badgesSilver", "silver"], ["badgesBronze", "bronze"],
] as const;

/** `handles-for-days` → `badgeHandlesForDays`; `leftCornerThree` → `hotZoneLeftCornerThree`. */
export function prefixedName(prefix: string, name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
  return prefix + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

/** A value as given, written as text (a measure given as a number keeps its digits). */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : String(value);
}

/** The leading columns, before the attributes: their names and kinds, and how a record gives each. */
const LEADING: readonly (readonly [string, ExportKind, (record: PlayerRecord) => Cell])[] = [
  ["_id", "text", (r) => r._id],
  ["name", "text", (r) => r.name],
  ["slug", "text", (r) => r.slug],
  ["team", "category", (r) => r.team],
  ["teamType", "category", (r) => r.teamType],
  ["gameVersion", "category", (r) => r.gameVersion ?? null],
  ["overall", "rating", (r) => r.overall],
  ["positions", "category", (r) => (r.positions === undefined || r.positions.length === 0 ? null : r.positions.join("/"))],
  ["height", "category", (r) => textOf(r.height)],
  ["weight", "category", (r) => textOf(r.weight)],
  ["wingspan", "category", (r) => textOf(r.wingspan)],
  ["archetype", "category", (r) => textOf(r.archetype)],
  ["college", "category", (r) => textOf(r.college)],
];

/** The column names of an edition's export in order, and for each attribute and badge column what it reads. */
export interface ExportLayout {
  names: string[];
  attributeKeys: string[];
  badgeSlugs: string[];
}

/** The layout of an edition: the fixed columns, then its attributes and badges (registry's first), counts and zones. */
export function exportLayout(edition: Edition): ExportLayout {
  const { catalogue } = edition;
  const attributeKeys = [...ATTRIBUTE_KEYS, ...catalogue.attributeKeys.filter((key) => !(ATTRIBUTE_KEYS as readonly string[]).includes(key))];
  const registrySlugs = BADGES.map((badge) => badge.slug);
  const badgeSlugs = [...registrySlugs, ...catalogue.badges.map((badge) => badge.slug).filter((slug) => !registrySlugs.includes(slug))];
  const taken = new Set<string>();
  /** A name once: a second column that would take it (two badge slugs folding alike) gets a suffix. */
  const unique = (name: string): string => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
    taken.add(candidate);
    return candidate;
  };
  const names = [
    ...LEADING.map(([name]) => unique(name)),
    ...attributeKeys.map(unique),
    ...BADGE_COUNT_COLUMNS.map(([name]) => unique(name)),
    ...badgeSlugs.map((slug) => unique(prefixedName("badge", slug))),
    ...HOT_ZONE_KEYS.map((key) => unique(prefixedName("hotZone", key))),
  ];
  return { names, attributeKeys, badgeSlugs };
}

/** Every row of the edition as the export's table, BLOCK_ROWS records read a slice. */
export function* exportTableSlices(edition: Edition): Sliced<ExportTable> {
  const layout = exportLayout(edition);
  const { rowCount, catalogue } = edition;
  const { badgeTiers } = edition.payload.columns;
  type Fill = (record: PlayerRecord, row: number) => Cell;
  const fills: [ExportKind, Fill][] = [
    ...LEADING.map(([, kind, cellOf]): [ExportKind, Fill] => [kind, cellOf]),
    ...layout.attributeKeys.map((key): [ExportKind, Fill] => ["rating", (record) => (record.attributes as Record<string, number | undefined>)[key] ?? null]),
    ...BADGE_COUNT_COLUMNS.map(([, key]): [ExportKind, Fill] => ["count", (record) => record.badges[key] ?? null]),
    ...layout.badgeSlugs.map((slug): [ExportKind, Fill] => {
      const badge = catalogue.badgeOf(slug);
      return ["category", (_record, row) => {
        if (badgeTiers === null || badge === undefined) return null;
        const code = badgeTiers[row * catalogue.badgeCount + badge] as number;
        return code === 0 ? null : (BADGE_TIERS[code - 1] ?? null);
      }];
    }),
    ...HOT_ZONE_KEYS.map((key): [ExportKind, Fill] => ["category", (record) => textOf(record.hotZones?.[key])]),
  ];
  const columns: ExportColumn[] = fills.map(([kind], c) => ({ name: layout.names[c] as string, kind, cells: new Array<Cell>(rowCount) }));
  for (let first = 0; first < rowCount; first += BLOCK_ROWS) {
    if (first > 0) yield;
    const end = Math.min(rowCount, first + BLOCK_ROWS);
    for (let row = first; row < end; row++) {
      const record = edition.record(row);
      for (let c = 0; c < fills.length; c++) ((columns[c] as ExportColumn).cells as Cell[])[row] = (fills[c] as [ExportKind, Fill])[1](record, row);
    }
  }
  return { rowCount, columns };
}

/** Every row of the edition as the export's table, at once. */
export function buildExportTable(edition: Edition): ExportTable {
  return runNow(exportTableSlices(edition));
}

export const TABLE_MEMO = memoKey<ExportTable>("export|table");

/** The edition's export table, built (in slices) on its first use and kept with the edition. */
export function tableOf(edition: Edition): Sliced<ExportTable> {
  return kept(edition.memo, TABLE_MEMO, () => exportTableSlices(edition));
}
