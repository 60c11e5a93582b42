// Reads the source's answers into what the build takes: the edition list, and the rows of one
// bulk answer as checked PlayerRecords (the JSON importer's record reader and the record schema).
// Tolerates the hosted service's quirks (absent fields, no pagination cursor, archived rows with
// badges.top and no list, badge lists naming every badge twice, a traded player's two rows
// sharing a slug); refuses anything partial or inconsistent with a SyncError.

import { readRecord } from "../data/import-json.js";
import { ImportError } from "../data/import-error.js";
import type { ImportReport } from "../data/import-report.js";
import { ERAS, normaliseEditionKey, type Era, type EditionStatus } from "../model/eras.js";
import type { PlayerRecord } from "../model/player.js";
import { SyncError } from "./sync-error.js";

/** The bulk routes' limit (docs/api.md): a bulk answer holds at most this many rows. */
export const SOURCE_BULK_CAP = 10_000;

/** One entry of the source's edition list, with what it may leave out left undefined. */
export interface SourceEdition {
  gameVersion: string;
  status: EditionStatus;
  playerCount: number | undefined;
  teamTypeCounts: Partial<Record<Era, number>>;
  capturedAt: string | undefined;
  source: string | undefined;
}

export interface BulkAnswer {
  rows: unknown[];
  capturedAt: string | undefined;
  source: string | undefined;
}

type Fields = Record<string, unknown>;

/** GET /api/versions: every edition, exactly one of them current. */
export function readEditionList(url: string, text: string): SourceEdition[] {
  const fail = (reason: string): never => {
    throw new SyncError(undefined, url, reason);
  };
  const { data, meta } = readEnvelope(undefined, url, text);
  if (!Array.isArray(data)) return fail("data is not a list of editions");
  const current = typeof meta["current"] === "string" ? normaliseEditionKey(meta["current"]) : undefined;
  const editions = data.map((item: unknown, i): SourceEdition => {
    if (!isObject(item)) return fail(`edition ${i} is not an object`);
    const rawKey = item["gameVersion"] ?? item["version"];
    const gameVersion = typeof rawKey === "string" ? normaliseEditionKey(rawKey) : undefined;
    if (gameVersion === undefined) return fail(`edition ${i} has no gameVersion shaped 2K + two digits (${JSON.stringify(rawKey)})`);
    const rawStatus = item["status"];
    const status: EditionStatus | undefined = rawStatus === "current" || rawStatus === "archived"
      ? rawStatus
      : rawStatus === undefined && current !== undefined ? (gameVersion === current ? "current" : "archived") : undefined;
    if (status === undefined) return fail(`edition ${gameVersion} has no status current or archived (${JSON.stringify(rawStatus)})`);
    const counts = isObject(item["teamTypeCounts"]) ? item["teamTypeCounts"] : {};
    return {
      gameVersion,
      status,
      playerCount: countOf(item["playerCount"]),
      teamTypeCounts: Object.fromEntries(ERAS.flatMap((era) => {
        const count = countOf(counts[era]);
        return count === undefined ? [] : [[era, count]];
      })),
      capturedAt: textOf(item["capturedAt"]),
      source: textOf(item["source"]),
    };
  });
  const currents = editions.filter((edition) => edition.status === "current");
  if (currents.length !== 1) fail(`the source lists ${currents.length} current editions (${currents.map((e) => e.gameVersion).join(", ") || "none"}); exactly one is needed`);
  const seen = new Set<string>();
  for (const edition of editions) {
    if (seen.has(edition.gameVersion)) fail(`the source lists ${edition.gameVersion} twice`);
    seen.add(edition.gameVersion);
  }
  return editions;
}

/**
 * One bulk answer: the envelope, and its rows against its own counts and the cap (more rows than
 * SOURCE_BULK_CAP is refused before any row is read: no real bulk answer holds them). Fewer rows than
 * `meta.total` is refused, not truncated: at the source's 10,000-row cap no other route can
 * page the rest within a handful of requests, so the sync stops and says so.
 */
export function readBulk(edition: string, url: string, text: string): BulkAnswer {
  const fail = (reason: string): never => {
    throw new SyncError(edition, url, reason);
  };
  const { data, meta } = readEnvelope(edition, url, text);
  if (!Array.isArray(data)) return fail("data is not a list of players");
  if (data.length > SOURCE_BULK_CAP) {
    fail(`the answer holds ${data.length.toLocaleString("en")} rows, more than the ${SOURCE_BULK_CAP.toLocaleString("en")} a bulk answer may hold; refused, not read`);
  }
  const pagination = isObject(meta["pagination"]) ? meta["pagination"] : {};
  const total = countOf(meta["total"]) ?? countOf(pagination["total"]);
  const count = countOf(meta["count"]);
  if (count !== undefined && count !== data.length) fail(`meta.count says ${count} rows, data holds ${data.length}`);
  if (total !== undefined && data.length < total) {
    fail(data.length >= SOURCE_BULK_CAP
      ? `the answer holds ${data.length} of ${total} players: the bulk route stops at ${SOURCE_BULK_CAP.toLocaleString("en")} rows, and a partial copy is refused`
      : `the answer holds ${data.length} of the ${total} players its meta.total announces`);
  }
  if (total !== undefined && data.length > total) fail(`the answer holds ${data.length} players, more than the ${total} its meta.total announces`);
  if (pagination["hasMore"] === true) fail("the answer says it has more pages (pagination.hasMore), which a bulk answer never has");
  return { rows: data, capturedAt: textOf(meta["capturedAt"]), source: textOf(meta["source"]) };
}

/**
 * The rows as records of one era (or any, for `all`), each read and checked as build-index reads
 * a JSON export; `capturedAt` dates the rows that carry no lastUpdated of their own.
 */
export function readPlayers(edition: string, url: string, rows: readonly unknown[], era: Era | "all", capturedAt: string, report?: ImportReport): PlayerRecord[] {
  return rows.map((row, i) => {
    const who = isObject(row) && typeof row["slug"] === "string" ? ` (${row["slug"]})` : "";
    let record: PlayerRecord;
    try {
      record = readRecord(`row ${i}`, undefined, row, { capturedAt, ...(report === undefined ? {} : { report }) });
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      throw new SyncError(edition, url, `row ${i}${who}${error.field === undefined ? "" : `, field ${error.field}`}: ${error.reason}`);
    }
    if (era !== "all" && record.teamType !== era) {
      throw new SyncError(edition, url, `row ${i}${who} has teamType ${record.teamType} in an answer for era ${era}`);
    }
    return record;
  });
}

function readEnvelope(edition: string | undefined, url: string, text: string): { data: unknown; meta: Fields } {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new SyncError(edition, url, `the body is not complete JSON (${(error as Error).message}); the answer was cut off or is not the API`);
  }
  if (!isObject(root)) throw new SyncError(edition, url, "the body is not an API envelope (an object with success and data)");
  if (root["success"] === false) {
    const error = isObject(root["error"]) ? root["error"] : {};
    const code = typeof error["code"] === "string" ? ` ${error["code"]}` : "";
    const message = typeof error["message"] === "string" ? `: ${error["message"]}` : "";
    throw new SyncError(edition, url, `the source answered success: false${code}${message}`);
  }
  if (root["success"] !== true) throw new SyncError(edition, url, "the body is not an API envelope (success is not true)");
  return { data: root["data"], meta: isObject(root["meta"]) ? root["meta"] : {} };
}

function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
