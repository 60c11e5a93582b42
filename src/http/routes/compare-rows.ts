// What /api/players/compare writes of each row beyond its fragments (editionRatings, overall,
// held badges, hot zones), worked out once per edition and edition set, on the first compare
// in that edition, so a request parses no record and looks up no other edition. Per thread and
// derived from the snapshot's fragments and the loaded set; it must not hold anything a request
// changes. Size and first-use cost: bench/README.md "Issue 44: compare from rows worked out once".

import { heldBadges } from "../../model/badge-summary.js";
import { BADGE_TIERS } from "../../model/badges.js";
import { displayLabel } from "../../model/labels.js";
import { FIELD_BIT, type PlayerRecord } from "../../model/player.js";
import type { Edition } from "../../store/edition.js";
import { memoKey } from "../../store/edition-memo.js";
import type { EditionSet } from "../../store/editions.js";
import { editionRatingsOf } from "./player-rows.js";

/** One badge a row holds, as compare lists it. */
export interface HeldBadgeText {
  /** The edition's badge (its catalogue slug, else the list's): one entry per key in the answer. */
  key: string;
  /** Its name (the answer sorts by it on a tier tie). */
  name: string;
  /** `{"name":…,"slug":…[,"category":…]`: the answer's entry up to its tiers, when this row is the first holder. */
  head: string;
  /** The tier as JSON (`"Gold"`). */
  tierText: string;
  /** BADGE_TIERS index: higher is better. */
  tierRank: number;
}

export interface CompareRows {
  /** Per row: `editionRatings` as JSON (the source's history with every loaded edition's overall). */
  editionRatingsText: readonly string[];
  /** Per row: the record's overall. */
  overall: Float64Array;
  /** Per row: the badges it holds (each once, tier read by meaning), in its list's order. */
  badges: readonly (readonly HeldBadgeText[])[];
  /** Per row: its zones' keys, in its record's order (one array for every row with the same keys). */
  zones: readonly (readonly string[])[];
  /** Per row: each of its zones' value as JSON, in the order of `zones`. */
  zoneValues: readonly (readonly string[])[];
  /** Per zone key: `{"zone":…,"label":…,"values":[`. */
  zoneHeads: ReadonlyMap<string, string>;
}

/** What compare reads of a record besides its columns (the badge list is most of it). */
const READ_SHAPE = { fieldMask: FIELD_BIT._id | FIELD_BIT.overall | FIELD_BIT.badges | FIELD_BIT.hotZones | FIELD_BIT.ratingHistory, isVersioned: false };
const TIER_RANK: ReadonlyMap<string, number> = new Map(BADGE_TIERS.map((tier, i) => [tier, i]));

/** Per set the edition is in: editionRatings read every loaded edition, and a reload makes a new set. */
const COMPARE_ROWS = memoKey<WeakMap<EditionSet, CompareRows>>("compare|rows");

/** The edition's compare rows within `editions`, worked out on first use. */
export function compareRowsOf(editions: EditionSet, edition: Edition): CompareRows {
  const bySet = edition.memo.of(COMPARE_ROWS, () => new WeakMap());
  let rows = bySet.get(editions);
  if (rows === undefined) {
    rows = buildCompareRows(editions, edition);
    bySet.set(editions, rows);
  }
  return rows;
}

function buildCompareRows(editions: EditionSet, edition: Edition): CompareRows {
  // Equal texts kept once: heads and values repeat across thousands of rows.
  const interned = new Map<string, string>();
  const intern = (text: string): string => {
    const known = interned.get(text);
    if (known !== undefined) return known;
    interned.set(text, text);
    return text;
  };
  const editionRatingsText: string[] = [];
  const overall = new Float64Array(edition.rowCount);
  const badges: HeldBadgeText[][] = [];
  const zones: string[][] = [];
  const zoneValues: string[][] = [];
  // Rows share their badges (the same badge at the same tier) and their zone keys: each kept once.
  const heldOnce = new Map<string, HeldBadgeText>();
  const zonesOnce = new Map<string, string[]>();
  const zoneHeads = new Map<string, string>();
  for (let row = 0; row < edition.rowCount; row++) {
    const record = JSON.parse(edition.fragments.rowJson(row, READ_SHAPE)) as Pick<PlayerRecord, "_id" | "overall" | "badges" | "hotZones" | "ratingHistory">;
    editionRatingsText.push(JSON.stringify(editionRatingsOf(editions, record._id, record.ratingHistory)));
    overall[row] = record.overall;
    badges.push(heldBadges(record.badges.list ?? []).map((badge) => {
      const index = edition.catalogue.badgeOf(badge.slug);
      const known = index === undefined ? undefined : edition.catalogue.badges[index];
      const key = known?.slug ?? badge.slug;
      const category = badge.category ?? known?.category;
      const head = JSON.stringify({ name: badge.name, slug: key, ...(category === undefined ? {} : { category }) }).slice(0, -1);
      const tierText = JSON.stringify(badge.tier);
      const once = `${key}\u0000${head}\u0000${tierText}`;
      let held = heldOnce.get(once);
      if (held === undefined) {
        held = { key, name: badge.name, head, tierText, tierRank: TIER_RANK.get(badge.tier) ?? -1 };
        heldOnce.set(once, held);
      }
      return held;
    }));
    const hotZones = (record.hotZones ?? {}) as Record<string, string>;
    const ownKeys = Object.keys(hotZones);
    const joined = ownKeys.join("\u0000");
    const keys = zonesOnce.get(joined) ?? ownKeys;
    zonesOnce.set(joined, keys);
    zones.push(keys);
    zoneValues.push(keys.map((zone) => intern(JSON.stringify(hotZones[zone] ?? null))));
    for (const zone of keys) {
      if (!zoneHeads.has(zone)) zoneHeads.set(zone, `{"zone":${JSON.stringify(zone)},"label":${JSON.stringify(displayLabel(zone))},"values":[`);
    }
  }
  return { editionRatingsText, overall, badges, zones, zoneValues, zoneHeads };
}
