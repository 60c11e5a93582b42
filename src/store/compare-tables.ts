// What /api/players/compare reads of each row beyond its columns and fragments, as the snapshot
// stores it (`payload.compareTables`): the badges the row holds (each once, its tier read by
// meaning) and its hot zones with their values, so a compare parses no badge list and no zones.
// Built by build-index from the records (derived once at load for a file written before it:
// store/derived-tables.ts), in shared memory like every derived table; the route writes its
// answer from these and the columns.
//
// Badges: the edition's distinct held badges (a badge at a tier, with the answer's head for it)
// once each, and per row the list of entries it holds, in its list's order. Zones: the edition's
// distinct zone keys and values (values as JSON: the source's value exactly as given), and per
// row its zones in its record's order, each a key and a value.

import { heldBadges } from "../model/badge-summary.js";
import { BADGE_TIERS } from "../model/badges.js";
import type { Catalogue } from "../model/catalogue.js";
import type { PlayerRecord } from "../model/player.js";
import { buildStringTable, stringCount, type StringTable } from "./string-table.js";

export interface StoredCompareTables {
  /** [E]: each held-badge entry's badge key (the edition's catalogue slug, else the list's). */
  badgeKey: StringTable;
  /** [E]: its name (the answer orders badges by it on a tier tie). */
  badgeName: StringTable;
  /** [E]: the answer's entry up to its tiers, `{"name":…,"slug":…[,"category":…]`. */
  badgeHead: StringTable;
  /** [E]: its tier, a BADGE_TIERS index. */
  badgeTier: Uint8Array;
  /** [R + 1]: row r holds the entries rowBadges[badgeStart[r] … badgeStart[r + 1]), in its list's order. */
  badgeStart: Uint32Array;
  rowBadges: Uint32Array;
  /** The edition's distinct zone keys, and its distinct zone values as JSON. */
  zoneKeys: StringTable;
  zoneValues: StringTable;
  /** [R + 1]: row r's zones, in its record's order, at zoneStart[r] … zoneStart[r + 1): a key and a value each. */
  zoneStart: Uint32Array;
  zoneKey: Uint32Array;
  zoneValue: Uint32Array;
}

/** What the tables are built from: an Edition, described here so the snapshot module need not import it. */
export interface CompareSource {
  readonly rowCount: number;
  readonly catalogue: Pick<Catalogue, "badges" | "badgeOf">;
  record(row: number): Pick<PlayerRecord, "badges" | "hotZones">;
}

/** Strings numbered in the order first seen. */
class Numbering {
  readonly strings: string[] = [];
  private readonly numbers = new Map<string, number>();
  of(text: string): number {
    let number = this.numbers.get(text);
    if (number === undefined) {
      number = this.strings.length;
      this.strings.push(text);
      this.numbers.set(text, number);
    }
    return number;
  }
}

export function buildCompareTables(source: CompareSource): StoredCompareTables {
  const n = source.rowCount;
  const entries = new Numbering();
  const badgeKey: string[] = [];
  const badgeName: string[] = [];
  const badgeHead: string[] = [];
  const badgeTier: number[] = [];
  const badgeStart = new Uint32Array(n + 1);
  const rowBadges: number[] = [];
  const zoneKeys = new Numbering();
  const zoneValues = new Numbering();
  const zoneStart = new Uint32Array(n + 1);
  const zoneKey: number[] = [];
  const zoneValue: number[] = [];
  for (let row = 0; row < n; row++) {
    const record = source.record(row);
    for (const badge of heldBadges(record.badges.list ?? [])) {
      const index = source.catalogue.badgeOf(badge.slug);
      const known = index === undefined ? undefined : source.catalogue.badges[index];
      const key = known?.slug ?? badge.slug;
      const category = badge.category ?? known?.category;
      const head = JSON.stringify({ name: badge.name, slug: key, ...(category === undefined ? {} : { category }) }).slice(0, -1);
      const tier = BADGE_TIERS.indexOf(badge.tier);
      const entry = entries.of(JSON.stringify([key, head, tier]));
      if (entry === badgeKey.length) {
        badgeKey.push(key);
        badgeName.push(badge.name);
        badgeHead.push(head);
        badgeTier.push(tier);
      }
      rowBadges.push(entry);
    }
    badgeStart[row + 1] = rowBadges.length;
    const hotZones = (record.hotZones ?? {}) as Record<string, unknown>;
    for (const zone of Object.keys(hotZones)) {
      zoneKey.push(zoneKeys.of(zone));
      zoneValue.push(zoneValues.of(JSON.stringify(hotZones[zone] ?? null)));
    }
    zoneStart[row + 1] = zoneKey.length;
  }
  return {
    badgeKey: buildStringTable(badgeKey), badgeName: buildStringTable(badgeName), badgeHead: buildStringTable(badgeHead), badgeTier: Uint8Array.from(badgeTier),
    badgeStart, rowBadges: Uint32Array.from(rowBadges),
    zoneKeys: buildStringTable(zoneKeys.strings), zoneValues: buildStringTable(zoneValues.strings),
    zoneStart, zoneKey: Uint32Array.from(zoneKey), zoneValue: Uint32Array.from(zoneValue),
  };
}

/**
 * Whether stored tables fit an edition of `rows` rows: every count agrees, the row ranges rise to
 * their lists' ends and every entry names a string the tables hold, so a request never reads past
 * one (a pass over the lists, once at load).
 */
export function isCompareTablesShape(tables: StoredCompareTables, rows: number): boolean {
  if (typeof tables !== "object" || tables === null) return false;
  const isTable = (table: StringTable) => table?.bytes instanceof Uint8Array && table.offsets instanceof Uint32Array && table.offsets.length >= 1;
  if (![tables.badgeKey, tables.badgeName, tables.badgeHead, tables.zoneKeys, tables.zoneValues].every(isTable)) return false;
  const entries = stringCount(tables.badgeKey);
  if (stringCount(tables.badgeName) !== entries || stringCount(tables.badgeHead) !== entries) return false;
  if (!(tables.badgeTier instanceof Uint8Array) || tables.badgeTier.length !== entries || tables.badgeTier.some((tier) => tier >= BADGE_TIERS.length)) return false;
  if (!(tables.rowBadges instanceof Uint32Array) || !isRanges(tables.badgeStart, rows, tables.rowBadges.length)) return false;
  if (tables.rowBadges.some((entry) => entry >= entries)) return false;
  if (!(tables.zoneKey instanceof Uint32Array) || !(tables.zoneValue instanceof Uint32Array) || tables.zoneValue.length !== tables.zoneKey.length) return false;
  if (!isRanges(tables.zoneStart, rows, tables.zoneKey.length)) return false;
  const keys = stringCount(tables.zoneKeys);
  const values = stringCount(tables.zoneValues);
  return !tables.zoneKey.some((key) => key >= keys) && !tables.zoneValue.some((value) => value >= values);
}

/** [rows + 1] starts from 0, never falling, ending at `length`. */
function isRanges(start: Uint32Array, rows: number, length: number): boolean {
  if (!(start instanceof Uint32Array) || start.length !== rows + 1 || start[0] !== 0 || start[rows] !== length) return false;
  for (let row = 0; row < rows; row++) if ((start[row] as number) > (start[row + 1] as number)) return false;
  return true;
}
