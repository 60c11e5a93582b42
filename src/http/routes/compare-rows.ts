// What /api/players/compare writes of each row beyond its columns and fragments: the badges it
// holds and its hot zones, read from the edition's stored compare tables (store/compare-tables.ts:
// built by build-index, shared by every worker), and its editionRatings, the source's history
// joined with every loaded edition's overall for its _id (a join across the loaded set, which no
// one file can store: made per request, for the two to four rows). A request parses no badge
// list and no zones.

import { BADGE_TIERS } from "../../model/badges.js";
import { displayLabel } from "../../model/labels.js";
import type { Edition } from "../../store/edition.js";
import { memoKey } from "../../store/edition-memo.js";
import type { EditionSet } from "../../store/editions.js";
import { stringAt, stringCount, type StringTable } from "../../store/string-table.js";
import { editionRatingsOf } from "./player-rows.js";

/** One badge a row holds, as compare lists it. */
export interface HeldBadgeText {
  /** The edition's badge (its catalogue slug, else the list's): one entry per key in the answer. */
  readonly key: string;
  /** Its name (the answer sorts by it on a tier tie). */
  readonly name: string;
  /** `{"name":…,"slug":…[,"category":…]`: the answer's entry up to its tiers, when this row is the first holder. */
  readonly head: string;
  /** The tier as JSON (`"Gold"`). */
  readonly tierText: string;
  /** BADGE_TIERS index: higher is better. */
  readonly tierRank: number;
}

/**
 * The stored tables' distinct strings as JS strings, per edition and thread: the edition's held
 * badges (a badge at a tier: a few hundred), zone keys with their answer heads, zone values (a
 * handful). Read by every compare; the per-row lists stay in the shared tables.
 */
interface CompareStrings {
  readonly badges: readonly HeldBadgeText[];
  /** Per zone key: `{"zone":…,"label":…,"values":[`. */
  readonly zoneHeads: readonly string[];
  readonly zoneValues: readonly string[];
}

const COMPARE_STRINGS = memoKey<CompareStrings>("compare|strings");
const strings = (table: StringTable) => Array.from({ length: stringCount(table) }, (_, i) => stringAt(table, i));

function compareStringsOf(edition: Edition): CompareStrings {
  return edition.memo.of(COMPARE_STRINGS, () => {
    const tables = edition.payload.compareTables;
    const keys = strings(tables.badgeKey);
    const names = strings(tables.badgeName);
    const heads = strings(tables.badgeHead);
    return {
      badges: keys.map((key, e) => {
        const tierRank = tables.badgeTier[e] as number;
        return { key, name: names[e] as string, head: heads[e] as string, tierText: JSON.stringify(BADGE_TIERS[tierRank]), tierRank };
      }),
      zoneHeads: strings(tables.zoneKeys).map((zone) => `{"zone":${JSON.stringify(zone)},"label":${JSON.stringify(displayLabel(zone))},"values":[`),
      zoneValues: strings(tables.zoneValues),
    };
  });
}

/** The badges `row` holds (each once, tier read by meaning), in its list's order. */
export function heldBadgesOf(edition: Edition, row: number): HeldBadgeText[] {
  const { badgeStart, rowBadges } = edition.payload.compareTables;
  const { badges } = compareStringsOf(edition);
  const held: HeldBadgeText[] = [];
  for (let at = badgeStart[row] as number; at < (badgeStart[row + 1] as number); at++) held.push(badges[rowBadges[at] as number] as HeldBadgeText);
  return held;
}

/**
 * The zones of `rows` as the answer lists them: every zone one of them has, first seen first (an
 * edition's data decides its vocabulary), each its head and every row's value (null where the row
 * lacks it), as `{"zone":…,"label":…,"values":[…]}`.
 */
export function zoneTexts(edition: Edition, rows: readonly number[]): string[] {
  const { zoneStart, zoneKey, zoneValue } = edition.payload.compareTables;
  const { zoneHeads, zoneValues } = compareStringsOf(edition);
  const zones = new Set<number>();
  for (const row of rows) for (let at = zoneStart[row] as number; at < (zoneStart[row + 1] as number); at++) zones.add(zoneKey[at] as number);
  const texts: string[] = [];
  for (const zone of zones) {
    let text = zoneHeads[zone] as string;
    rows.forEach((row, i) => {
      let value = "null";
      for (let at = zoneStart[row] as number; at < (zoneStart[row + 1] as number); at++) {
        if (zoneKey[at] === zone) {
          value = zoneValues[zoneValue[at] as number] as string;
          break;
        }
      }
      text += `${i === 0 ? "" : ","}${value}`;
    });
    texts.push(`${text}]}`);
  }
  return texts;
}

/** `row`'s editionRatings as JSON: the source's history with every loaded edition's overall for its _id. */
export function editionRatingsText(editions: EditionSet, edition: Edition, row: number): string {
  return JSON.stringify(editionRatingsOf(editions, edition, row));
}
