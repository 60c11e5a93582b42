// Reads player records in the public API's own shape (an array, or an envelope whose `data` is
// one) into PlayerRecords. Everything a row carries is kept (docs/compatibility.md#fidelity-rules): its `_id`, timestamps,
// rating history, partial hot zones, attribute keys and badges outside the demo catalogue, badge
// descriptions and images, and any other top-level field (passed through under its own name as
// `extra`). Every value is kept exactly as given (docs/data.md#source-values-kept-exactly): names and teams with their spaces,
// `pg` as `pg`, a weight of 250 as the number 250, `6-8` as `6-8`, any image text; what we read from
// them (a position set, a team's grouping key) is computed beside them, and the import report
// names the odd ones. Refused, at the record's line: no name or team, an overall outside 0–99, a
// non-object record or `attributes`, and a value of a type no field of its kind holds.

import { ATTRIBUTE_INDEX, ATTRIBUTE_KEYS, type Attributes, type GroupScoreKey } from "../model/attributes.js";
import { countBadges, heldBadges, topBadges } from "../model/badge-summary.js";
import {
  BADGES, BADGE_INDEX_BY_FOLDED_NAME, TIER_COUNT_KEYS, badgeSlug, foldBadgeName,
} from "../model/badges.js";
import { eraOfTeamName, isEra } from "../model/eras.js";
import {
  LEGACY_HOT_ZONE_KEYS, PLAYER_ID_PATTERN, RECORD_FIELD_NAMES, playerSlug, teamKey,
  type BadgeEntry, type Badges, type HotZones, type PlayerRecord, type RatingHistoryEntry, type TopBadge,
} from "../model/player.js";
import { assembleRecord, checkRecord, parseRating, type ImportOptions } from "./import-csv.js";
import { ImportError } from "./import-error.js";

/** The API's group-score abbreviations. */
const CATS: Readonly<Record<string, GroupScoreKey>> = {
  ins: "insideScoring", out: "outsideScoring", ply: "playmaking", def: "defending", ath: "athleticism", reb: "rebounding",
};

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** An attribute key of any edition: camelCase (`threePointShot`, `shotIQ`). */
const ATTRIBUTE_KEY = /^[a-z][A-Za-z0-9]*$/;
/** Fields the importer reads that are not record fields of their own: never passed through. */
const READ_FIELDS: ReadonlySet<string> = new Set(["cats"]);

type Fail = (field: string | undefined, reason: string) => never;

/** The records of one JSON file; `file` names it in errors. */
export function importJson(file: string, text: string, options: ImportOptions): PlayerRecord[] {
  // JSON.parse refuses a byte-order mark, which editors on some systems write.
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = findSyntaxError(body) ?? positionInMessage(message);
    throw new ImportError(file, offset === undefined ? undefined : lineAt(body, offset), undefined, `not valid JSON: ${message}`);
  }

  const isEnvelope = !Array.isArray(root);
  const items = Array.isArray(root) ? root : isObject(root) && Array.isArray(root["data"]) ? root["data"] : undefined;
  if (items === undefined) {
    throw new ImportError(file, undefined, undefined, "expected an array of player records, or an object whose data is one");
  }
  const lines = recordStartOffsets(body, isEnvelope).map((offset) => lineAt(body, offset));
  return items.map((item: unknown, i) => readRecord(file, lines[i], item, options));
}

/** One record in the API's shape, checked field by field and against the record schema; `file` and `line` name it in errors. */
export function readRecord(file: string, line: number | undefined, item: unknown, options: ImportOptions): PlayerRecord {
  const fail: Fail = (field, reason) => {
    throw new ImportError(file, line, field, reason);
  };
  if (!isObject(item)) return fail(undefined, "a player record must be an object");

  // As given, spaces included (docs/data.md#source-values-kept-exactly); search and slugs fold them away.
  const name = typeof item["name"] === "string" && item["name"].trim() !== "" ? item["name"] : fail("name", "the name is missing or empty");
  const team = typeof item["team"] === "string" && item["team"].trim() !== "" ? item["team"] : fail("team", "the team is missing or empty");
  const overall = readRating(item["overall"], "overall", fail);
  if (overall === undefined) return fail("overall", "the overall rating is missing");

  const teamType = typeof item["teamType"] === "string" && isEra(item["teamType"]) ? item["teamType"] : eraOfTeamName(teamKey(team));
  // The source's slug is kept even where it departs from ours (`lebron-james-12-13-miami-heat`),
  // and however many rows share it (docs/data.md#source-values-kept-exactly): it is the key existing clients already use.
  // Only a row without one (or with one no URL can hold) gets ours, and the report says so.
  const givenSlug = item["slug"];
  const isSlugGiven = typeof givenSlug === "string" && SLUG.test(givenSlug);
  const slug = isSlugGiven ? givenSlug : playerSlug(name, teamType, team);

  // Measures as given, text or number (a `6-8`, a weight of 250): the report names those not in our usual shape.
  const height = readMeasure(item["height"], "height", fail);
  const wingspan = readMeasure(item["wingspan"], "wingspan", fail);
  const weight = readMeasure(item["weight"], "weight", fail);
  const archetype = readText(item["archetype"], "archetype", fail);
  const college = readText(item["college"], "college", fail);
  // An http(s) URL, "", or any other text: kept as data (the report names it; pages never link it).
  const playerImage = readText(item["playerImage"], "playerImage", fail);
  const teamImg = readText(item["teamImg"], "teamImg", fail);
  const lastUpdated = readText(item["lastUpdated"], "lastUpdated", fail) ?? options.capturedAt;
  const hotZones = item["hotZones"] === undefined || item["hotZones"] === null ? undefined : readHotZones(item["hotZones"], fail);
  const _id = readId(item["_id"], fail);
  const creationTime = item["_creationTime"];
  if (creationTime !== undefined && creationTime !== null && (typeof creationTime !== "number" || !Number.isFinite(creationTime) || creationTime < 0)) {
    fail("_creationTime", `${JSON.stringify(creationTime)} is not a time in ms since 1970`);
  }
  const gameVersion = readText(item["gameVersion"], "gameVersion", fail);

  const record = assembleRecord({
    _id,
    _creationTime: typeof creationTime === "number" ? creationTime : undefined,
    name,
    slug,
    playerUrl: readText(item["playerUrl"], "playerUrl", fail),
    team,
    teamType,
    overall,
    positions: readPositions(item["positions"], fail),
    height,
    weight,
    wingspan,
    archetype,
    college,
    playerImage,
    teamImg,
    attributes: readAttributes(item["attributes"], item["cats"], fail),
    badges: readBadges(item["badges"], fail),
    hotZones,
    gameVersion,
    ratingHistory: item["ratingHistory"] === undefined || item["ratingHistory"] === null ? undefined : readRatingHistory(item["ratingHistory"], fail),
    lastUpdated,
    createdAt: readText(item["createdAt"], "createdAt", fail),
    extra: passThrough(item),
  });
  const checked = checkRecord(file, line, record);
  if (!isSlugGiven) {
    const unusable = givenSlug === undefined || givenSlug === null || givenSlug === "" ? undefined : typeof givenSlug === "string" ? givenSlug : JSON.stringify(givenSlug);
    options.report?.markGeneratedSlug(checked, unusable);
  }
  return checked;
}

/** A kept id: 1–64 characters of [A-Za-z0-9_-]; absent, null or empty gets the generated one. */
function readId(value: unknown, fail: Fail): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !PLAYER_ID_PATTERN.test(value)) {
    return fail("_id", `${JSON.stringify(value).slice(0, 80)} is not an id (1–64 characters of A–Z, a–z, 0–9, _ and -)`);
  }
  return value;
}

function readRatingHistory(value: unknown, fail: Fail): RatingHistoryEntry[] {
  if (!Array.isArray(value)) return fail("ratingHistory", "ratingHistory must be a list of { gameVersion, overall, delta? }");
  return value.map((entry: unknown, i) => {
    const field = `ratingHistory[${i}]`;
    if (!isObject(entry)) return fail(field, "an entry must be an object with gameVersion and overall");
    const gameVersion = entry["gameVersion"];
    if (typeof gameVersion !== "string" || gameVersion === "") return fail(`${field}.gameVersion`, "is missing or not text");
    const overall = entry["overall"];
    if (typeof overall !== "number" || !Number.isFinite(overall)) return fail(`${field}.overall`, `${JSON.stringify(overall)} is not a number`);
    const delta = entry["delta"];
    if (delta !== undefined && delta !== null && (typeof delta !== "number" || !Number.isFinite(delta))) return fail(`${field}.delta`, `${JSON.stringify(delta)} is not a number`);
    // As it came (docs/data.md#source-values-kept-exactly), keys we do not know included; a null delta is no delta.
    const { delta: _delta, ...kept } = entry;
    return { ...kept, gameVersion, overall, ...(typeof delta === "number" ? { delta } : {}) };
  });
}

/** The row's top-level fields that are not the record's own, as they came (null ones included). */
function passThrough(item: Record<string, unknown>): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (!RECORD_FIELD_NAMES.has(key) && !READ_FIELDS.has(key) && value !== undefined) extra[key] = value;
  }
  return Object.keys(extra).length > 0 ? extra : undefined;
}

/** A rating 0–99; null or absent is no rating. */
function readRating(value: unknown, field: string, fail: Fail): number | undefined {
  if (value === undefined || value === null) return undefined;
  const rating = typeof value === "number" && Number.isInteger(value) ? parseRating(String(value)) : undefined;
  return rating ?? fail(field, `${JSON.stringify(value)} is not an integer from 0 to 99`);
}

/** An optional text field, exactly as given ("" and spaces included); absent or null is no value; anything but a string is refused. */
function readText(value: unknown, field: string, fail: Fail): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : fail(field, `${JSON.stringify(value).slice(0, 80)} is not text`);
}

/** A height, wingspan or weight exactly as given: text (`6'8"`, `250 lbs`, `6-8`, "") or a number (250); absent or null is no value. */
function readMeasure(value: unknown, field: string, fail: Fail): string | number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return value;
  return fail(field, `${JSON.stringify(value).slice(0, 80)} is neither text nor a number`);
}

/**
 * The list exactly as given (`["pg"]`, `[]`, a third entry): knownPositions reads it for the
 * position filter, case and spaces aside, and the report names lists spelled otherwise than ours.
 */
function readPositions(value: unknown, fail: Fail): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return fail("positions", "positions must be a list of positions (PG, SG, SF, PF, C)");
  value.forEach((entry: unknown, i) => {
    if (typeof entry !== "string") fail(`positions[${i}]`, `${JSON.stringify(entry).slice(0, 80)} is not text`);
  });
  return [...(value as string[])];
}

/**
 * Attributes by key, plus the group scores from `cats`: the registry's keys in registry order, then
 * any other camelCase key the source has (a new game's attribute), in the source's order.
 */
function readAttributes(value: unknown, cats: unknown, fail: Fail): Attributes {
  const found = new Map<string, number>();
  if (value !== undefined && value !== null) {
    if (!isObject(value)) return fail("attributes", "attributes must be an object of ratings");
    for (const [key, rating] of Object.entries(value)) {
      const field = `attributes.${key}`;
      if (!ATTRIBUTE_KEY.test(key)) return fail(field, "is not a camelCase attribute key");
      const parsed = readRating(rating, field, fail);
      if (parsed !== undefined) found.set(key, parsed);
    }
  }
  if (cats !== undefined && cats !== null) {
    if (!isObject(cats)) return fail("cats", "cats must be an object of group scores");
    for (const [abbreviation, rating] of Object.entries(cats)) {
      const field = `cats.${abbreviation}`;
      const key = CATS[abbreviation] ?? fail(field, "is not a group score (ins, out, ply, def, ath, reb)");
      const parsed = readRating(rating, field, fail);
      if (parsed === undefined) continue;
      const other = found.get(key);
      if (other !== undefined && other !== parsed) fail(field, `${parsed} disagrees with attributes.${key} ${other}`);
      found.set(key, parsed);
    }
  }
  const attributes: Record<string, number> = {};
  for (const key of ATTRIBUTE_KEYS) {
    const rating = found.get(key);
    if (rating !== undefined) attributes[key] = rating;
  }
  for (const [key, rating] of found) if (!ATTRIBUTE_INDEX.has(key)) attributes[key] = rating;
  return attributes as Attributes;
}

/**
 * The badges object as the source states it (docs/data.md#source-values-kept-exactly): each count it gives is kept, even where
 * it disagrees with the list (the build reports that); a count it leaves out is taken from the
 * list's badges, each once. The list is kept whole (order, repeats, a partial second pass); `top`
 * is the source's, else the list's three best. Keys of the object we do not know pass through.
 */
function readBadges(value: unknown, fail: Fail): Badges {
  if (value === undefined || value === null) return countBadges([]);
  if (!isObject(value)) return fail("badges", "badges must be an object of tier counts");

  const list = value["list"] === undefined || value["list"] === null ? undefined : readBadgeList(value["list"], fail);
  const fromList = list === undefined ? undefined : countBadges(heldBadges(list));
  const counts = countBadges([]);
  for (const key of TIER_COUNT_KEYS) counts[key] = readCount(value[key], `badges.${key}`, fail) ?? fromList?.[key] ?? 0;
  counts.total = readCount(value["total"], "badges.total", fail) ?? TIER_COUNT_KEYS.reduce((total, key) => total + counts[key], 0);

  const top = value["top"] === undefined || value["top"] === null ? list && topBadges(list) : readTop(value["top"], fail);
  const others: Record<string, unknown> = {};
  for (const [key, kept] of Object.entries(value)) if (!BADGES_READ_KEYS.has(key) && kept !== undefined) others[key] = kept;
  return { ...others, ...counts, ...(list !== undefined && { list }), ...(top !== undefined && { top }) };
}

/** The keys of a badges object read above; any other passes through. */
const BADGES_READ_KEYS: ReadonlySet<string> = new Set(["total", ...TIER_COUNT_KEYS, "list", "top"]);

/** A count: absent or null is none; anything but a whole number ≥ 0 is refused. */
function readCount(raw: unknown, field: string, fail: Fail): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  return typeof raw === "number" && Number.isInteger(raw) && raw >= 0 ? raw : fail(field, `${JSON.stringify(raw)} is not a count`);
}

/**
 * The list whole, in the source's order, every entry as it came: its name as spelled (`Handles
 * For Days` stays so, though the registry writes `Handles for Days`), its category, description,
 * image and any other key; nothing is filled in (the edition's catalogue says what the source left
 * out, such as a category). We add `slug` where the entry has none: the registry's slug for a badge
 * it knows by folded name, else the name's own; it is what filters and holders match (folded, so
 * case and punctuation never matter). A badge named twice is kept twice (docs/data.md#source-values-kept-exactly).
 */
function readBadgeList(value: unknown, fail: Fail): BadgeEntry[] {
  if (!Array.isArray(value)) return fail("badges.list", "the badge list must be an array");
  return value.map((entry: unknown, i): BadgeEntry => {
    const field = `badges.list[${i}]`;
    if (!isObject(entry)) return fail(field, "a badge must be an object with a name and a tier");
    const name = entry["name"];
    if (typeof name !== "string" || badgeSlug(name) === "") return fail(`${field}.name`, `${JSON.stringify(name)} is not a badge name`);
    const known = BADGES[BADGE_INDEX_BY_FOLDED_NAME.get(foldBadgeName(name)) ?? -1];
    const given = entry["slug"];
    if (given !== undefined && given !== null && (typeof given !== "string" || badgeSlug(given) === "")) {
      return fail(`${field}.slug`, `${JSON.stringify(given).slice(0, 80)} is not a badge slug`);
    }
    // As written (`gold`, `HOF` included): heldBadges reads it by meaning wherever badges are indexed.
    const tier = typeof entry["tier"] === "string" ? entry["tier"] : fail(`${field}.tier`, `${JSON.stringify(entry["tier"] ?? null).slice(0, 80)} is not a badge tier`);
    const optional = (key: string): string | undefined => {
      const text = entry[key];
      if (text === undefined || text === null) return undefined;
      return typeof text === "string" ? text : fail(`${field}.${key}`, `${JSON.stringify(text).slice(0, 80)} is not text`);
    };
    const category = optional("category");
    const description = optional("description");
    const imageUrl = optional("imageUrl");
    const others: Record<string, unknown> = {};
    for (const [key, kept] of Object.entries(entry)) if (!BADGE_ENTRY_READ_KEYS.has(key) && kept !== undefined && kept !== null) others[key] = kept;
    return {
      ...others,
      name,
      slug: typeof given === "string" ? given : known?.slug ?? badgeSlug(name),
      tier,
      ...(category !== undefined && { category }),
      ...(description !== undefined && { description }),
      ...(imageUrl !== undefined && { imageUrl }),
    };
  });
}

/** The keys of a badge entry read above; any other passes through. */
const BADGE_ENTRY_READ_KEYS: ReadonlySet<string> = new Set(["name", "slug", "tier", "category", "description", "imageUrl"]);

function readTop(value: unknown, fail: Fail): TopBadge[] {
  if (!Array.isArray(value) || value.length > 3) return fail("badges.top", "top must be a list of at most three badges");
  return value.map((entry: unknown, i) => {
    const field = `badges.top[${i}]`;
    if (!isObject(entry)) return fail(field, "a badge must be an object with a name and a tier");
    // As spelled, spaces included (docs/data.md#source-values-kept-exactly).
    const name = typeof entry["name"] === "string" && entry["name"].trim() !== "" ? entry["name"] : fail(`${field}.name`, "the badge name is missing");
    const tier = typeof entry["tier"] === "string" ? entry["tier"] : fail(`${field}.tier`, `${JSON.stringify(entry["tier"] ?? null).slice(0, 80)} is not a badge tier`);
    return { name, tier };
  });
}

/**
 * The zones as given (docs/data.md#source-values-kept-exactly), usually the hosted service's 12 names, each hot, cold or
 * neutral; a zone or a value spelled otherwise is kept as it came (the report names it). Only our
 * own older exports' names (`leftCorner3`) are read as the hosted ones; a null zone is no zone.
 */
function readHotZones(value: unknown, fail: Fail): HotZones {
  if (!isObject(value)) return fail("hotZones", "hotZones must be an object of zones");
  const zones: HotZones = {};
  for (const [name, raw] of Object.entries(value)) {
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== "string") return fail(`hotZones.${name}`, `${JSON.stringify(raw).slice(0, 80)} is not text`);
    zones[LEGACY_HOT_ZONE_KEYS[name] ?? name] = raw;
  }
  return zones;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** 1-based line of a character offset; CRLF and a lone CR count as one line end each. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) line += 1;
  }
  return line;
}

/** Offsets at which each element of the records array starts (the root array, or the envelope's `data`). */
function recordStartOffsets(text: string, isEnvelope: boolean): number[] {
  interface Frame { isArray: boolean; expectsKey: boolean; key: string | undefined; isRecords: boolean; awaitsElement: boolean }
  const stack: Frame[] = [];
  const starts: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === " " || char === "\n" || char === "\r" || char === "\t") continue;
    const top = stack[stack.length - 1];
    if (top?.isRecords && top.awaitsElement && char !== "]") {
      starts.push(i);
      top.awaitsElement = false;
    }
    switch (char) {
      case '"': {
        const close = endOfString(text, i);
        if (top !== undefined && !top.isArray && top.expectsKey) top.key = JSON.parse(text.slice(i, close + 1)) as string; // a valid JSON string: the text parsed above
        i = close;
        break;
      }
      case "{":
      case "[": {
        const isArray = char === "[";
        const isRecords = isArray && (isEnvelope ? stack.length === 1 && top?.key === "data" : stack.length === 0);
        stack.push({ isArray, expectsKey: !isArray, key: undefined, isRecords, awaitsElement: isRecords });
        break;
      }
      case "}":
      case "]":
        stack.pop();
        break;
      case ":":
        if (top !== undefined) top.expectsKey = false;
        break;
      case ",":
        if (top?.isArray) top.awaitsElement = top.isRecords;
        else if (top !== undefined) top.expectsKey = true;
        break;
      default:
        break;
    }
  }
  return starts;
}

/** Offset of the quote closing the string that opens at `open`. */
function endOfString(text: string, open: number): number {
  let i = open + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i;
}

/** `… in JSON at position 17` → 17; Node's messages do not always carry it. */
function positionInMessage(message: string): number | undefined {
  const match = /at position (\d+)/.exec(message);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * Where the first syntax error of `text` is, found by walking the JSON grammar, because V8's
 * messages give no position for an unexpected token. At the end of the input, the offset of the
 * last non-blank character, so the line reported is one the file really has.
 */
function findSyntaxError(text: string): number | undefined {
  let i = 0;
  const fault = (at: number): never => {
    throw new SyntaxAt(Math.min(at, text.trimEnd().length - 1));
  };
  const skipBlanks = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i] ?? "")) i += 1;
  };
  const expect = (char: string): void => {
    skipBlanks();
    if (text[i] !== char) fault(i);
    i += 1;
  };
  const readString = (): void => {
    i += 1;
    for (;;) {
      if (i >= text.length) fault(i);
      const code = text.charCodeAt(i);
      if (code === 0x22) break;
      if (code < 0x20) fault(i);
      if (code === 0x5c) {
        const escape = text[i + 1] ?? "";
        if (escape === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fault(i);
          i += 6;
        } else if ('"\\/bfnrt'.includes(escape) && escape !== "") i += 2;
        else fault(i);
      } else i += 1;
    }
    i += 1;
  };
  const readValue = (): void => {
    skipBlanks();
    const char = text[i];
    if (char === "{") {
      i += 1;
      skipBlanks();
      if (text[i] === "}") {
        i += 1;
        return;
      }
      for (;;) {
        skipBlanks();
        if (text[i] !== '"') fault(i);
        readString();
        expect(":");
        readValue();
        skipBlanks();
        if (text[i] === ",") i += 1;
        else if (text[i] === "}") {
          i += 1;
          return;
        } else fault(i);
      }
    }
    if (char === "[") {
      i += 1;
      skipBlanks();
      if (text[i] === "]") {
        i += 1;
        return;
      }
      for (;;) {
        readValue();
        skipBlanks();
        if (text[i] === ",") i += 1;
        else if (text[i] === "]") {
          i += 1;
          return;
        } else fault(i);
      }
    }
    if (char === '"') return readString();
    const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
    if (literal !== undefined) {
      i += literal.length;
      return;
    }
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) fault(i);
    i = NUMBER.lastIndex;
  };

  try {
    readValue();
    skipBlanks();
    if (i < text.length) fault(i);
    return undefined;
  } catch (error) {
    if (error instanceof SyntaxAt) return Math.max(error.offset, 0);
    // Nesting deep enough to overflow the stack: fall back to the position in V8's message.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Thrown inside findSyntaxError only, to unwind the grammar walk to its caller. */
class SyntaxAt {
  readonly offset: number;
  constructor(offset: number) {
    this.offset = offset;
  }
}
