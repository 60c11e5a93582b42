// Writes one edition's snapshot, honouring the rules of the data directory: the current edition
// carries its weekly history forward (a second build in one week replaces that week), an archived
// edition is never rewritten with different content.

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { heldBadges } from "../model/badge-summary.js";
import { Catalogue } from "../model/catalogue.js";
import type { EditionSource, KnownEdition, WeeklySnapshot } from "../model/player.js";
import { findString } from "../store/string-table.js";
import { buildSnapshotPayload } from "./build-snapshot.js";
import { readSnapshot, SnapshotError, writeSnapshotAtomic, type SnapshotPayload } from "../store/snapshot.js";
import { historyToWeeks } from "../store/weekly-series.js";

export type WriteOutcome =
  | { kind: "written"; file: string; bytes: number; payload: SnapshotPayload }
  | { kind: "unchanged"; file: string }
  | { kind: "refused"; file: string; reason: string };

/** What writing an edition would do, decided without touching the directory. */
export type EditionPlan =
  | { kind: "write"; file: string; payload: SnapshotPayload }
  | { kind: "unchanged"; file: string }
  | { kind: "refused"; file: string; reason: string };

export function snapshotFileName(dir: string, gameVersion: string): string {
  return join(dir, `${gameVersion}.msgpack`);
}

/**
 * `asOf` dates this build's week when the source brings no history of its own; `maxSnapshotBytes`
 * (MAX_SNAPSHOT_MB) bounds the snapshots already in `dir` that are read.
 */
export function writeEdition(dir: string, source: EditionSource, asOf: string, maxSnapshotBytes?: number): WriteOutcome {
  const plan = planEdition(dir, source, asOf, maxSnapshotBytes);
  if (plan.kind !== "write") return plan;
  const bytes = writeSnapshotAtomic(plan.file, plan.payload);
  return { kind: "written", file: plan.file, bytes: bytes.length, payload: plan.payload };
}

/**
 * The payload writeEdition would write, or why it would not: callers that must decide about
 * several editions before writing any (sync) plan them all first.
 */
export function planEdition(dir: string, given: EditionSource, asOf: string, maxSnapshotBytes?: number): EditionPlan {
  const source: EditionSource = { ...given, knownEditions: given.knownEditions ?? knownEditionsIn(dir, given, maxSnapshotBytes) };
  const file = snapshotFileName(dir, source.gameVersion);
  const existing = existsSync(file) ? readSnapshot(file, maxSnapshotBytes).payload : undefined;
  if (existing?.meta.status === "archived") {
    const candidate = buildSnapshotPayload({ ...source, status: "archived", history: [] });
    if (candidate.meta.contentHash === existing.meta.contentHash && source.status === "archived") return { kind: "unchanged", file };
    return {
      kind: "refused",
      file,
      reason: `${source.gameVersion} is archived and archives never change; this build's content differs (remove the file to replace it deliberately)`,
    };
  }
  const history = source.status === "current" && source.history.length === 0
    ? carryHistoryForward(existing?.meta.status === "current" ? historyToWeeks(existing.history, new Catalogue(existing.catalogue)) : [], source, asOf)
    : source.status === "current" ? source.history : [];
  return { kind: "write", file, payload: buildSnapshotPayload({ ...source, history }) };
}

/** Keeps earlier weeks, drops any from the same ISO week as `asOf` (or later), adds this week. */
export function carryHistoryForward(weeks: readonly WeeklySnapshot[], source: EditionSource, asOf: string): WeeklySnapshot[] {
  const thisWeek = isoWeekStart(asOf);
  const kept = weeks.filter((week) => isoWeekStart(week.date) < thisWeek);
  const current: WeeklySnapshot = {
    date: asOf,
    // The rows' team (and name) now: the week's, kept as the history grows.
    players: source.players.map(({ _id, overall, attributes, badges, team, name, slug, teamType }) => ({
      _id, overall, attributes, team, name, slug, teamType,
      badges: { total: badges.total, legendary: badges.legendary, hallOfFame: badges.hallOfFame, gold: badges.gold, silver: badges.silver, bronze: badges.bronze },
      ...(badges.list ? { badgeList: heldBadges(badges.list).map(({ slug, tier }) => ({ slug, tier })) } : {}),
    })),
  };
  return [...kept, current];
}

/** The Monday of the ISO week holding a YYYY-MM-DD date, as YYYY-MM-DD. */
export function isoWeekStart(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day.toISOString().slice(0, 10);
}


/**
 * The other editions in `dir` whose overall the ratingHistory of a row whose source gave none
 * holds (docs/compatibility.md#fidelity-rules, docs/data.md#source-values-kept-exactly): for an archive only older ones, so an
 * archive rebuilt later still comes out the same; for the current edition every one. A file that
 * cannot be read is skipped here (loading it is where it is refused).
 */
export function knownEditionsIn(dir: string, source: EditionSource, maxSnapshotBytes?: number): KnownEdition[] {
  if (!existsSync(dir)) return [];
  const known: KnownEdition[] = [];
  for (const name of readdirSync(dir).filter((entry) => /^2K\d{2}\.msgpack$/i.test(entry)).sort().reverse()) {
    const gameVersion = name.slice(0, 4).toUpperCase();
    if (gameVersion === source.gameVersion || (source.status === "archived" && gameVersion > source.gameVersion)) continue;
    let payload: SnapshotPayload;
    try {
      payload = readSnapshot(join(dir, name), maxSnapshotBytes).payload;
    } catch (error) {
      if (error instanceof SnapshotError) continue;
      throw error;
    }
    const { ids } = payload.lookups;
    const { overall } = payload.columns;
    known.push({
      gameVersion,
      overallOf: (id) => {
        const k = findString(ids.keys, id);
        return k < 0 ? undefined : overall[ids.rows[ids.start[k] as number] as number];
      },
    });
  }
  return known;
}
