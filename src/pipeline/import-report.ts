// What an import or a sync met and kept without refusing it (docs/data.md#source-values-kept-exactly): real sources are messy
// (hosted badge lists name every badge twice, a traded player's two rows share a slug, old rows
// lack fields), and the person running the build hears about each kind once, counted, instead of
// either a refusal or silence. Also where the importers mark the slugs they made themselves, so
// only those are ever suffixed (settleSlugs). Knows nothing of files or printing.

import { repeatedBadgeCount, distinctBadges, countBadges, heldBadges } from "../model/badge-summary.js";
import { BADGE_TIERS, TIER_COUNT_KEYS, parseBadgeTier } from "../model/badges.js";
import { HOT_ZONE_KEYS, HOT_ZONE_VALUES, playerId, teamKey, type PlayerRecord } from "../model/player.js";
import { isPlainPositionList, knownPositions } from "../model/positions.js";
import { escapeUnprintable } from "../text/printable.js";

export class ImportReport {
  /** Records whose slug an importer made (the source gave none, or none a URL can hold). */
  private readonly generated = new WeakSet<PlayerRecord>();
  /** Source slugs no URL can hold, each replaced by a generated one. */
  readonly unusableSlugs: string[] = [];
  /** Generated slugs another row already had, and what they became. */
  readonly suffixed: { from: string; to: string }[] = [];
  /** Rows that replaced an earlier row of the same player (given again, or traded since). */
  replaced = 0;

  markGeneratedSlug(record: PlayerRecord, unusable?: string): void {
    this.generated.add(record);
    if (unusable !== undefined) this.unusableSlugs.push(unusable);
  }

  hasGeneratedSlug(record: PlayerRecord): boolean {
    return this.generated.has(record);
  }

  /**
   * One line per kind of oddity the records hold, counted (`50 rows`, `47 badge lists repeat
   * entries, kept`, `3 slugs on two rows, kept` …); the first line is always the row count.
   */
  lines(records: readonly PlayerRecord[]): string[] {
    const lines = [`${records.length.toLocaleString("en")} row${records.length === 1 ? "" : "s"}`];
    const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

    let twice = 0;
    let partly = 0;
    let countsDiffer = 0;
    let generated = 0;
    let noHistory = 0;
    let emptyHistory = 0;
    let noGameVersion = 0;
    for (const record of records) {
      const { list } = record.badges;
      if (list !== undefined) {
        const distinct = distinctBadges(list);
        if (repeatedBadgeCount(list) > 0) {
          if (list.length === 2 * distinct.length) twice++;
          else partly++;
        }
        const fromList = countBadges(heldBadges(list));
        if (record.badges.total !== fromList.total || TIER_COUNT_KEYS.some((key) => record.badges[key] !== fromList[key])) countsDiffer++;
      }
      if (this.generated.has(record)) generated++;
      if (record.ratingHistory === undefined) noHistory++;
      else if (record.ratingHistory.length === 0) emptyHistory++;
      if (record.gameVersion === undefined) noGameVersion++;
    }
    if (twice + partly > 0) {
      const how = partly === 0 ? "each badge twice" : twice === 0 ? "some badges twice" : `${twice} each badge twice, ${partly} only some`;
      lines.push(`${plural(twice + partly, "badge list repeats entries", "badge lists repeat entries")} (${how}), kept; each badge counted once per player`);
    }
    if (countsDiffer > 0) lines.push(`${plural(countsDiffer, "badge count differs", "badge counts differ")} from the badges its list names, kept as stated`);

    const rowsOfSlug = new Map<string, number>();
    for (const record of records) {
      const key = `${record.teamType}\u0000${record.slug}`;
      rowsOfSlug.set(key, (rowsOfSlug.get(key) ?? 0) + 1);
    }
    const shared = [...rowsOfSlug.values()].filter((rows) => rows > 1);
    if (shared.length > 0) {
      const most = Math.max(...shared);
      lines.push(`${plural(shared.length, "slug", "slugs")} on ${most === 2 ? "two rows" : `two to ${most} rows each`}, kept (the slug route answers the first, meta.variants names the others)`);
    }
    if (generated > 0) {
      const unusable = this.unusableSlugs.length === 0 ? "" : `; ${plural(this.unusableSlugs.length, "source slug", "source slugs")} no URL can hold replaced (${quoteSome(this.unusableSlugs)})`;
      lines.push(`${plural(generated, "row had no slug: generated", "rows had no slug: generated")}${unusable}`);
    }
    if (this.suffixed.length > 0) {
      lines.push(`${plural(this.suffixed.length, "generated slug was", "generated slugs were")} already taken, suffixed (${someOf(this.suffixed.map(({ from, to }) => `${from} → ${to}`))})`);
    }
    if (this.replaced > 0) lines.push(`${plural(this.replaced, "row replaced", "rows replaced")} an earlier row of the same player (given again, or traded since)`);
    if (noGameVersion > 0) lines.push(`${plural(noGameVersion, "row has", "rows have")} no gameVersion (served with the edition's)`);
    if (noHistory > 0) lines.push(`${plural(noHistory, "row has", "rows have")} no ratingHistory (served with the editions we hold)`);
    if (emptyHistory > 0) lines.push(`${plural(emptyHistory, "ratingHistory is", "ratingHistory lists are")} [], kept`);
    lines.push(...oddValueLines(records, plural));
    return lines;
  }
}

/**
 * Slugs settled (docs/data.md#source-values-kept-exactly): a source's slug is never changed, however many rows share it;
 * a slug an importer generated that another row already holds in its era (a source's slug, or an
 * earlier generated one) gets `-2`, `-3` …, and so does its id where that was generated from it.
 * `records` in input order; returns them in the same order.
 */
export function settleSlugs(records: readonly PlayerRecord[], report: ImportReport): PlayerRecord[] {
  const taken = new Set<string>();
  const key = (record: PlayerRecord, slug: string) => `${record.teamType}\u0000${slug}`;
  for (const record of records) if (!report.hasGeneratedSlug(record)) taken.add(key(record, record.slug));
  return records.map((record) => {
    if (!report.hasGeneratedSlug(record)) return record;
    if (!taken.has(key(record, record.slug))) {
      taken.add(key(record, record.slug));
      return record;
    }
    let suffix = 2;
    while (taken.has(key(record, `${record.slug}-${suffix}`))) suffix += 1;
    const slug = `${record.slug}-${suffix}`;
    taken.add(key(record, slug));
    report.suffixed.push({ from: record.slug, to: slug });
    // A generated id follows the slug; an id kept from the source is the source's to keep.
    const isGeneratedId = record._id === playerId(record.teamType, record.team, record.slug);
    const settled = { ...record, _id: isGeneratedId ? playerId(record.teamType, record.team, slug) : record._id, slug };
    report.markGeneratedSlug(settled);
    return settled;
  });
}

const MEASURE = /^\d+'\d{1,2}"$/;
const POUNDS = /^\d+ lbs$/;
const HTTP_URL = /^https?:\/\/\S+$/;
const isSpacedOddly = (text: string) => text !== teamKey(text);
const isOddImage = (text: string | undefined) => text !== undefined && text !== "" && !HTTP_URL.test(text);

/**
 * Values kept exactly as given though they are not in the shape our own data has (docs/data.md#source-values-kept-exactly):
 * each kind counted, with what it means for the filters that read it.
 */
function oddValueLines(records: readonly PlayerRecord[], plural: (n: number, one: string, many: string) => string): string[] {
  let names = 0;
  let teams = 0;
  let badgeNames = 0;
  let positionLists = 0;
  let unknownPositions = 0;
  let heights = 0;
  let wingspans = 0;
  let weights = 0;
  let numericWeights = 0;
  let images = 0;
  let zones = 0;
  let tiers = 0;
  let noTiers = 0;
  for (const record of records) {
    for (const badge of [...(record.badges.list ?? []), ...(record.badges.list === undefined ? record.badges.top ?? [] : [])]) {
      if ((BADGE_TIERS as readonly string[]).includes(badge.tier)) continue;
      tiers++;
      if (parseBadgeTier(badge.tier) === undefined) noTiers++;
    }
    for (const [zone, value] of Object.entries(record.hotZones ?? {})) {
      if (!(HOT_ZONE_KEYS as readonly string[]).includes(zone) || !(HOT_ZONE_VALUES as readonly (string | undefined)[]).includes(value)) zones++;
    }
    if (isSpacedOddly(record.name)) names++;
    if (isSpacedOddly(record.team)) teams++;
    for (const badge of record.badges.list ?? []) {
      if (isSpacedOddly(badge.name)) badgeNames++;
      if (isOddImage(badge.imageUrl)) images++;
    }
    // `top` is the list's three best where there is a list: its names are counted there.
    if (record.badges.list === undefined) for (const badge of record.badges.top ?? []) if (isSpacedOddly(badge.name)) badgeNames++;
    if (record.positions !== undefined && !isPlainPositionList(record.positions)) {
      positionLists++;
      unknownPositions += record.positions.filter((entry) => knownPositions([entry]).length === 0).length;
    }
    if (record.height !== undefined && !MEASURE.test(String(record.height))) heights++;
    if (record.wingspan !== undefined && !MEASURE.test(String(record.wingspan))) wingspans++;
    if (record.weight !== undefined && (typeof record.weight === "number" || !POUNDS.test(record.weight))) {
      weights++;
      if (typeof record.weight === "number") numericWeights++;
    }
    if (isOddImage(record.playerImage)) images++;
    if (isOddImage(record.teamImg)) images++;
  }
  const lines: string[] = [];
  const spaced = [[names, "name", "names"], [teams, "team", "teams"], [badgeNames, "badge name", "badge names"]] as const;
  const spacedParts = spaced.filter(([n]) => n > 0).map(([n, one, many]) => plural(n, one, many));
  if (spacedParts.length > 0) lines.push(`${spacedParts.join(", ")} with doubled, leading or trailing spaces, kept as given (search, teams and filters read them spaced once)`);
  if (positionLists > 0) {
    const unknown = unknownPositions === 0 ? "" : `; ${plural(unknownPositions, "entry names", "entries name")} no position, not filterable by position`;
    lines.push(`${plural(positionLists, "position list", "position lists")} not written as PG, SG, SF, PF or C once each, kept as given (the position filter reads them case- and space-insensitively${unknown})`);
  }
  if (heights > 0) lines.push(`${plural(heights, "height", "heights")} not like 6'8", kept as given`);
  if (wingspans > 0) lines.push(`${plural(wingspans, "wingspan", "wingspans")} not like 7'0", kept as given`);
  if (weights > 0) lines.push(`${plural(weights, "weight", "weights")} not like 250 lbs${numericWeights > 0 ? ` (${plural(numericWeights, "number", "numbers")})` : ""}, kept as given`);
  if (tiers > 0) {
    const none = noTiers === 0 ? "" : `; ${plural(noTiers, "of them names", "of them name")} no tier, not counted or filterable`;
    lines.push(`${plural(tiers, "badge tier", "badge tiers")} not written ${BADGE_TIERS.join(", ")}, kept as given (read case- and punctuation-insensitively${none})`);
  }
  if (zones > 0) lines.push(`${plural(zones, "hot zone is", "hot zones are")} not a hosted zone name with hot, cold or neutral, kept as given`);
  if (images > 0) lines.push(`${plural(images, "image address is", "image addresses are")} not http(s) URLs, kept as data (pages never use them as links)`);
  return lines;
}

function someOf(items: readonly string[]): string {
  return items.length <= 5 ? items.join(", ") : `${items.slice(0, 5).join(", ")} and ${items.length - 5} more`;
}

/** A source's own text, quoted, cut and escaped (docs/data.md#source-values-kept-exactly: what a source says is escaped before it is printed). */
function quoteSome(items: readonly string[]): string {
  return someOf(items.map((item) => escapeUnprintable(JSON.stringify(item.slice(0, 60)))));
}
