// Reads the 2kratings-style CSV scrape into PlayerRecords, mapping columns by header name
// (the real files differ in column order). Every value is checked; a bad one stops the import,
// except an empty team: an unsigned player in a current-season scrape, imported as a free agent
// with a warning naming file and line.

import { ATTRIBUTE_KEYS, toSnakeCase, type AttributeKey, type Attributes } from "../model/attributes.js";
import { countBadges, topBadges } from "../model/badge-summary.js";
import { BADGES, parseBadgeTier, type BadgeDefinition } from "../model/badges.js";
import { eraOfTeamName } from "../model/eras.js";
import { playerId, playerSlug, type BadgeEntry, type PlayerRecord } from "../model/player.js";
import { isPosition, type Position } from "../model/positions.js";
import { describeErrors, isPlayerRecord } from "../model/schemas.js";
import { parseCsv, type CsvRow } from "./csv.js";
import { formatImportMessage, ImportError } from "./import-error.js";
import type { ImportReport } from "./import-report.js";

export interface ImportOptions {
  /** ISO 8601 time the source was scraped; becomes every record's `lastUpdated`. */
  capturedAt: string;
  /** Told of every value the importer defaulted, as `file line N, field F: what was done`. */
  warn?: (message: string) => void;
  /** Told of what the rows hold that is odd but kept, and of the slugs the importer made. */
  report?: ImportReport;
}

/** Where a scrape leaves an unsigned player's team empty (docs/data.md#the-data-model: offseason free agents). */
export const FREE_AGENCY = "Free Agency";

const REQUIRED_COLUMNS = ["name", "team", "overall", "position_1"] as const;

/**
 * Where the scrape's column names differ from the registry's snake_case names. The registry
 * names (`driving_layup`, `durability`, `outside_scoring` …) are accepted as well.
 */
const SCRAPE_ATTRIBUTE_COLUMNS: Readonly<Record<string, AttributeKey>> = {
  layup: "drivingLayup",
  overall_durability: "durability",
  group_outside_scoring: "outsideScoring",
  group_athleticism: "athleticism",
  group_inside_scoring: "insideScoring",
  group_playmaking: "playmaking",
  group_defense: "defending",
  group_rebounding: "rebounding",
};

const ATTRIBUTE_BY_COLUMN: ReadonlyMap<string, AttributeKey> = new Map([
  ...ATTRIBUTE_KEYS.map((key) => [toSnakeCase(key), key] as const),
  ...Object.entries(SCRAPE_ATTRIBUTE_COLUMNS),
]);

const BADGE_BY_COLUMN: ReadonlyMap<string, BadgeDefinition> = new Map(BADGES.map((badge) => [`badge_${badge.snake}`, badge]));

const MEASURE = /^\d+'\d{1,2}"$/;
const WHOLE_NUMBER = /^\d+$/;

/** Where each needed value sits in a row, resolved once from the header. */
interface ColumnLayout {
  header: readonly string[];
  name: number;
  team: number;
  overall: number;
  position1: number;
  position2: number | undefined;
  archetype: number | undefined;
  height: number | undefined;
  weight: number | undefined;
  wingspan: number | undefined;
  /** prior_to_nba first, then prior_to_wnba: the first non-empty one is the college. */
  college: number[];
  /** In registry order, so every record's attributes object has the same key order. */
  attributes: { key: AttributeKey; column: number }[];
  /** In catalogue order, so badge lists come out in catalogue order. */
  badges: { badge: BadgeDefinition; column: number }[];
}

/** The records of one scrape file; `file` names it in errors. */
export function importCsv(file: string, text: string, options: ImportOptions): PlayerRecord[] {
  const rows = parseCsv(file, text);
  const first = rows.next();
  if (first.done) throw new ImportError(file, undefined, undefined, "the file is empty: no header row");
  const layout = readHeader(file, first.value);

  const records: PlayerRecord[] = [];
  for (const row of rows) {
    // A blank line carries no data; refusing it would only punish a trailing empty line.
    if (row.cells.length === 1 && row.cells[0]?.trim() === "") continue;
    records.push(readRow(file, row, layout, options));
  }
  return records;
}

function readHeader(file: string, row: CsvRow): ColumnLayout {
  const header = row.cells.map((cell) => cell.trim());
  const columns = new Map<string, number>();
  header.forEach((name, column) => {
    // The scrape's leading index column has no name; unnamed columns are never read.
    if (name === "") return;
    if (columns.has(name)) throw new ImportError(file, row.line, name, "the column appears twice in the header");
    columns.set(name, column);
  });
  for (const name of REQUIRED_COLUMNS) {
    if (!columns.has(name)) throw new ImportError(file, row.line, name, `required column ${name} is missing from the header`);
  }

  const attributes: ColumnLayout["attributes"] = [];
  const badges: ColumnLayout["badges"] = [];
  const attributeColumn = new Map<AttributeKey, string>();
  for (const [name, column] of columns) {
    const key = ATTRIBUTE_BY_COLUMN.get(name);
    if (key !== undefined) {
      const other = attributeColumn.get(key);
      if (other !== undefined) throw new ImportError(file, row.line, name, `column ${other} already holds ${key}`);
      attributeColumn.set(key, name);
      attributes.push({ key, column });
    } else if (name.startsWith("badge_")) {
      const badge = BADGE_BY_COLUMN.get(name);
      // An unknown badge column would drop its data without a word: refuse it instead.
      if (badge === undefined) throw new ImportError(file, row.line, name, "no badge of the catalogue has this column name");
      badges.push({ badge, column });
    }
  }
  attributes.sort((a, b) => ATTRIBUTE_KEYS.indexOf(a.key) - ATTRIBUTE_KEYS.indexOf(b.key));
  badges.sort((a, b) => BADGES.indexOf(a.badge) - BADGES.indexOf(b.badge));

  const required = (name: string): number => columns.get(name) ?? -1;
  return {
    header,
    name: required("name"),
    team: required("team"),
    overall: required("overall"),
    position1: required("position_1"),
    position2: columns.get("position_2"),
    archetype: columns.get("archetype"),
    height: columns.get("height_feet"),
    weight: columns.get("weight_lbs"),
    wingspan: columns.get("wingspan_feet"),
    college: ["prior_to_nba", "prior_to_wnba"].flatMap((name) => columns.get(name) ?? []),
    attributes,
    badges,
  };
}

function readRow(file: string, row: CsvRow, layout: ColumnLayout, options: ImportOptions): PlayerRecord {
  const { cells, line } = row;
  const { header } = layout;
  if (cells.length !== header.length) {
    const field = cells.length < header.length ? columnLabel(header, cells.length) : undefined;
    throw new ImportError(file, line, field,
      `the row has ${cells.length} cells but the header has ${header.length} (a truncated or misquoted row)`);
  }
  // Our scrapers' own format, so its cells are tidied (spaces collapsed, positions upper-cased,
  // weights written `250 lbs`); a JSON source's values are kept exactly as given (import-json.ts).
  const cell = (column: number | undefined): string => (column === undefined ? "" : collapseSpaces(cells[column] ?? ""));
  const fail = (column: number, reason: string): never => {
    throw new ImportError(file, line, columnLabel(header, column), reason);
  };

  const name = cell(layout.name);
  if (name === "") fail(layout.name, "the name is empty");
  let team = cell(layout.team);
  if (team === "") {
    team = FREE_AGENCY;
    options.warn?.(formatImportMessage(file, line, columnLabel(header, layout.team), `the team is empty: imported as ${FREE_AGENCY} (era curr)`));
  }

  const overallText = cell(layout.overall);
  if (overallText === "") fail(layout.overall, "the overall rating is empty");
  const overall = parseRating(overallText) ?? fail(layout.overall, `${overallText} is not an integer from 0 to 99`);

  const positions: Position[] = [];
  for (const column of layout.position2 === undefined ? [layout.position1] : [layout.position1, layout.position2]) {
    const text = cell(column).toUpperCase();
    if (text === "") {
      if (column === layout.position1) fail(column, "the primary position is empty");
      continue;
    }
    if (!isPosition(text)) fail(column, `${cell(column)} is not a position (PG, SG, SF, PF or C)`);
    else if (!positions.includes(text)) positions.push(text);
  }

  const attributes: Attributes = {};
  for (const { key, column } of layout.attributes) {
    const text = cell(column);
    // An empty cell is a rating the scrape does not have, never a zero.
    if (text === "") continue;
    attributes[key] = parseRating(text) ?? fail(column, `${text} is not an integer from 0 to 99`);
  }

  const list: BadgeEntry[] = [];
  for (const { badge, column } of layout.badges) {
    const text = cell(column);
    if (text === "") continue;
    const tier = parseBadgeTier(text) ?? fail(column, `${text} is not a badge tier (bronze, silver, gold, hof or legendary)`);
    list.push({ name: badge.name, slug: badge.slug, tier, category: badge.category });
  }

  const optional = (column: number | undefined, pattern: RegExp, what: string): string | undefined => {
    const text = cell(column);
    if (text === "" || column === undefined) return undefined;
    return pattern.test(text) ? text : fail(column, `${text} is not ${what}`);
  };
  const height = optional(layout.height, MEASURE, `a height like 6'8"`);
  const pounds = optional(layout.weight, WHOLE_NUMBER, "a weight in whole pounds");
  const wingspan = optional(layout.wingspan, MEASURE, `a length like 7'0"`);
  const archetype = cell(layout.archetype);
  const college = layout.college.map(cell).find((text) => text !== "");

  const teamType = eraOfTeamName(team);
  const record = assembleRecord({
    name,
    slug: playerSlug(name, teamType, team),
    team,
    teamType,
    overall,
    positions,
    ...(height !== undefined && { height }),
    ...(pounds !== undefined && { weight: `${Number(pounds)} lbs` }),
    ...(wingspan !== undefined && { wingspan }),
    ...(archetype !== "" && { archetype }),
    ...(college !== undefined && { college }),
    attributes,
    badges: { ...countBadges(list), list, top: topBadges(list) },
    lastUpdated: options.capturedAt,
  });
  const checked = checkRecord(file, line, record);
  // A scrape has no slug column: every slug is ours, so a namesake's may be suffixed (settleSlugs).
  options.report?.markGeneratedSlug(checked);
  return checked;
}

// The helpers below are shared with import-json.ts, so both importers build and check records alike.

/**
 * The record with its `_id`, fields in the contract's order (so snapshots and JSON read the
 * same whichever importer made them); fields with no value stay absent.
 */
/** The record's fields with the optional ones allowed to be undefined: absent fields are dropped here, once. */
export type RecordFields = { [K in keyof Omit<PlayerRecord, "_id">]: undefined extends PlayerRecord[K] ? PlayerRecord[K] | undefined : PlayerRecord[K] };

export function assembleRecord(fields: RecordFields & { _id?: string | undefined }): PlayerRecord {
  const { _id, _creationTime, name, slug, playerUrl, team, teamType, overall, positions, height, weight, wingspan, archetype, college,
    playerImage, teamImg, attributes, badges, hotZones, gameVersion, ratingHistory, lastUpdated, createdAt, extra } = fields;
  return {
    _id: _id ?? playerId(teamType, team, slug),
    ...(_creationTime !== undefined && { _creationTime }),
    name,
    slug,
    ...(playerUrl !== undefined && { playerUrl }),
    team,
    teamType,
    overall,
    ...(positions !== undefined && { positions }),
    ...(height !== undefined && { height }),
    ...(weight !== undefined && { weight }),
    ...(wingspan !== undefined && { wingspan }),
    ...(archetype !== undefined && { archetype }),
    ...(college !== undefined && { college }),
    ...(playerImage !== undefined && { playerImage }),
    ...(teamImg !== undefined && { teamImg }),
    attributes,
    badges,
    ...(hotZones !== undefined && { hotZones }),
    ...(gameVersion !== undefined && { gameVersion }),
    ...(ratingHistory !== undefined && { ratingHistory }),
    ...(lastUpdated !== undefined && { lastUpdated }),
    ...(createdAt !== undefined && { createdAt }),
    ...(extra !== undefined && Object.keys(extra).length > 0 && { extra }),
  };
}

/** The schema is the last word: whatever slipped past the field checks is refused here, by row. */
export function checkRecord(file: string, line: number | undefined, record: PlayerRecord): PlayerRecord {
  if (isPlayerRecord(record)) return record;
  const [first] = isPlayerRecord.errors ?? [];
  const field = first?.instancePath ? first.instancePath.slice(1).replace(/\//g, ".") : undefined;
  throw new ImportError(file, line, field, `the record is not valid: ${describeErrors(isPlayerRecord.errors)}`);
}

/** A rating cell: a whole number from 0 to 99, or undefined. */
export function parseRating(text: string): number | undefined {
  if (!WHOLE_NUMBER.test(text)) return undefined;
  const value = Number(text);
  return value <= 99 ? value : undefined;
}

/** The scrape doubles spaces inside a few names (`Drew  Peterson`); one space is the name. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function columnLabel(header: readonly string[], column: number): string {
  const name = header[column];
  return name ? name : `column ${column + 1}`;
}
