// Offline: one EditionSource → the snapshot payload a request reads (columns, dictionaries, sort
// orders, JSON fragments, search index, lookups, columnar weekly history), all flat arrays.
// Everything expensive happens here; loading is making views (src/store/snapshot.ts).

import { createHash } from "node:crypto";
import { BADGE_INDEX_BY_SLUG, COUNT_KEY_OF_TIER, LEGACY_BADGE_CATEGORIES, TIER_CODE, TIER_COUNT_KEYS } from "../model/badges.js";
import { catalogueOf, type Catalogue, type CatalogueSource } from "../model/catalogue.js";
import { compareText, heldBadges, topBadges } from "../model/badge-summary.js";
import { ERA_CODE, type Era } from "../model/eras.js";
import { POSITION_BIT, knownPositions } from "../model/positions.js";
import { foldName as foldNameOf, slugify } from "../model/names.js";
import {
  LEGACY_HOT_ZONE_KEYS, teamKey, teamSlug, withEditionRating, type BadgeEntry, type EditionSource, type HotZones, type KnownEdition, type PlayerRecord,
  type RatingHistoryEntry, type WeeklySnapshot,
} from "../model/player.js";
import { buildBadgeHolders } from "../store/badge-holders.js";
import { editionOf } from "../store/derived-tables.js";
import { DictionaryColumn } from "../store/dictionary-column.js";
import { buildFragments } from "../store/fragments.js";
import { buildSearchData } from "../store/name-index.js";
import { buildRowGroups, buildStringTable, sortUtf8 } from "../store/string-table.js";
import type { SnapshotPayload } from "../store/snapshot.js";
import { ABSENT_RATING } from "../model/attributes.js";
import type { SnapshotColumns, SortOrders, TeamEntry } from "../store/edition-tables.js";
import { NO_TEAM, type HistoryPayload } from "../store/weekly-series.js";

export function buildSnapshotPayload(source: EditionSource): SnapshotPayload {
  const isArchived = source.status === "archived";
  const players = source.players.map((player) => normaliseForEdition(player, isArchived)).sort(compareRows);
  const catalogue = catalogueOf(catalogueSources(players, source.history));
  const history = source.history.length > 0 ? buildHistory(source.history, players, catalogue) : null;
  const teams = buildTeams(players);
  const folded = players.map((player) => foldNameOf(player.name));
  const columns = buildColumns(players, teams, isArchived, folded, catalogue);
  const sortOrders = buildSortOrders(columns, catalogue.attributeCount);
  const records = completeRecords(players, source, history);
  const teamTypeCounts = { curr: 0, class: 0, allt: 0 };
  for (const player of players) teamTypeCounts[player.teamType] += 1;
  const payload: SnapshotPayload = {
    meta: {
      gameVersion: source.gameVersion,
      status: source.status,
      capturedAt: source.capturedAt,
      source: source.source,
      playerCount: players.length,
      teamTypeCounts,
      contentHash: contentHashOf(players),
    },
    catalogue: catalogue.stored(),
    teams,
    columns,
    sortOrders,
    fragments: buildFragments(records),
    search: buildSearchData(players, folded),
    lookups: {
      ids: buildRowGroups(players.map((player) => player._id)),
      slugs: buildRowGroups(players.map((player) => player.slug), sourceOrder(records)),
      nameSlugs: buildRowGroups(players.map((player) => slugify(player.name))),
    },
    dictionaries: {
      archetype: new DictionaryColumn(players.length, (row) => players[row]?.archetype).stored(),
      college: new DictionaryColumn(players.length, (row) => players[row]?.college).stored(),
    },
    badgeHolders: columns.badgeTiers === null ? null : buildBadgeHolders({ badgeTiers: columns.badgeTiers, overall: columns.overall, badgeCount: catalogue.badgeCount }, sortOrders.name),
    history,
  };
  // The derived tables (the profile routes' spreads, group scores and team profiles; the
  // nearest-profile index of `similar`, a second or so at a million rows; the percentile route's
  // sorted runs per cohort kind and primary positions): editionOf (an Edition over the payload) derives them
  // into it (store/derived-tables.ts), so the file stores them and no thread computes them.
  editionOf(payload, "build");
  return payload;
}

/** Every row's and every week's attributes and badge list: what the edition's catalogue is taken from. */
function* catalogueSources(players: readonly PlayerRecord[], weeks: readonly WeeklySnapshot[]): Generator<CatalogueSource> {
  for (const player of players) yield { attributes: player.attributes, ...(player.badges.list ? { badgeList: player.badges.list } : {}) };
  for (const week of weeks) for (const player of week.players) yield player;
}

/**
 * The fields every stored row carries (docs/compatibility.md#fidelity-rules), filled in only where the source left them
 * out (docs/data.md#source-values-kept-exactly: a value the source gives is served as given, `ratingHistory: []` included):
 * `gameVersion` (the edition's), `ratingHistory` (this edition's overall and that of every other
 * edition the build knows with the same `_id`), `createdAt` (the first week the weekly history
 * holds the row, else the edition's capture date) and `_creationTime` (the same in ms). Not part
 * of the content hash: a source that did not give them rebuilds to the same content.
 */
function completeRecords(players: readonly PlayerRecord[], source: EditionSource, history: HistoryPayload | null): PlayerRecord[] {
  return players.map((player, row) => {
    const createdAt = player.createdAt
      ?? (player._creationTime !== undefined ? new Date(player._creationTime).toISOString() : undefined)
      ?? firstSeen(history, row)
      ?? source.capturedAt;
    const creationTime = player._creationTime ?? Date.parse(createdAt);
    return {
      ...player,
      ...(Number.isFinite(creationTime) ? { _creationTime: creationTime } : {}),
      gameVersion: player.gameVersion ?? source.gameVersion,
      ratingHistory: player.ratingHistory ?? withKnownEditions(withEditionRating([], source.gameVersion, player.overall), player._id, source.knownEditions),
      createdAt,
    };
  });
}

/**
 * Rows in the order a slug's rows are listed (docs/data.md#source-values-kept-exactly): era (curr, class, allt, as the
 * slug route picks: docs/data.md#slugs-and-the-rows-that-share-one), then when each row was created, first first, then row. That is the hosted
 * service's own order: its slug route takes the first document of its `by_slug` index, and Convex
 * orders an index's equal keys by `_creationTime`. A row without one counts as created when it
 * was first seen (completeRecords).
 */
function sourceOrder(records: readonly PlayerRecord[]): number[] {
  const created = records.map((record) => record._creationTime ?? Infinity);
  return records.map((_, row) => row).sort((a, b) =>
    ERA_CODE[(records[a] as PlayerRecord).teamType] - ERA_CODE[(records[b] as PlayerRecord).teamType]
    || (created[a] as number) - (created[b] as number) || a - b);
}

/** The row's overall in every other edition the build knows with the same `_id`, where the history does not name that edition yet. */
function withKnownEditions(history: RatingHistoryEntry[], id: string, known: readonly KnownEdition[] | undefined): RatingHistoryEntry[] {
  let merged = history;
  for (const edition of known ?? []) {
    const overall = edition.overallOf(id);
    if (overall !== undefined) merged = withEditionRating(merged, edition.gameVersion, overall);
  }
  return merged;
}

/** The first week's date (as an ISO time) in which the weekly history holds the row. */
function firstSeen(history: HistoryPayload | null, row: number): string | undefined {
  const slot = history?.indexOfRow[row] ?? -1;
  if (history === null || slot < 0) return undefined;
  const week = history.weeks.find((candidate) => candidate.overall[slot] !== ABSENT_RATING);
  return week === undefined ? undefined : `${week.date}T00:00:00.000Z`;
}

/** Equal rosters give equal hashes; used to refuse rewriting an archive with other content. */
export function contentHashOf(players: readonly PlayerRecord[]): string {
  const hash = createHash("sha256");
  for (const player of players) hash.update(JSON.stringify(player));
  return hash.digest("hex");
}

/**
 * Archived editions hold counts and `top` only; every edition carries `top` for versioned rows.
 * Rows read back from snapshots written before docs/compatibility.md#fidelity-rules (an upgrade) get the hosted names of
 * hot zones and badge categories.
 */
function normaliseForEdition(player: PlayerRecord, isArchived: boolean): PlayerRecord {
  const { list, top, ...counts } = player.badges;
  const derivedTop = top ?? (list ? topBadges(list) : undefined);
  const badges = {
    ...counts,
    ...(list && !isArchived ? { list: list.map(withHostedCategory) } : {}),
    ...(derivedTop ? { top: derivedTop } : {}),
  };
  return { ...player, badges, ...(player.hotZones ? { hotZones: withHostedZoneNames(player.hotZones) } : {}) };
}

function withHostedZoneNames(zones: HotZones): HotZones {
  if (!Object.keys(zones).some((key) => key in LEGACY_HOT_ZONE_KEYS)) return zones;
  const renamed: HotZones = {};
  for (const [key, value] of Object.entries(zones)) renamed[(LEGACY_HOT_ZONE_KEYS[key] ?? key) as keyof HotZones] = value;
  return renamed;
}

function withHostedCategory(badge: BadgeEntry): BadgeEntry {
  const category = badge.category === undefined ? undefined : LEGACY_BADGE_CATEGORIES[badge.category];
  return category === undefined || BADGE_INDEX_BY_SLUG.get(badge.slug) === undefined ? badge : { ...badge, category };
}

function compareRows(a: PlayerRecord, b: PlayerRecord): number {
  return (
    ERA_CODE[a.teamType] - ERA_CODE[b.teamType] ||
    compareText(teamKey(a.team), teamKey(b.team)) ||
    compareText(a.team, b.team) ||
    compareText(a.name, b.name) ||
    compareText(a.slug, b.slug)
  );
}

/**
 * The teams: rows whose `team` differs only in spacing are one team (each row's `team` is served as
 * given; the team's name is ours, spaces tidied). The logo is its first row's `teamImg` where that
 * is an http(s) URL: a source's other image text stays data, never a link.
 */
function buildTeams(players: readonly PlayerRecord[]): TeamEntry[] {
  const byKey = new Map<string, TeamEntry>();
  for (const player of players) {
    const name = teamKey(player.team);
    const key = `${player.teamType}\u0000${name}`;
    const logo = player.teamImg !== undefined && HTTP_URL.test(player.teamImg) ? player.teamImg : undefined;
    if (!byKey.has(key)) byKey.set(key, { teamName: name, slug: teamSlug(name), teamType: player.teamType, ...(logo ? { logo } : {}) });
  }
  return [...byKey.values()];
}

const HTTP_URL = /^https?:\/\/\S+$/;

function buildColumns(players: readonly PlayerRecord[], teams: readonly TeamEntry[], isArchived: boolean, folded: readonly string[], catalogue: Catalogue): SnapshotColumns {
  const n = players.length;
  const { attributeCount, attributeKeys, badgeCount } = catalogue;
  const teamCode = new Map(teams.map((team, code) => [`${team.teamType}\u0000${team.teamName}`, code]));
  const columns: SnapshotColumns = {
    overall: new Uint8Array(n),
    era: new Uint8Array(n),
    positions: new Uint8Array(n),
    team: teams.length <= 0xffff ? new Uint16Array(n) : new Uint32Array(n),
    attributes: new Uint8Array(n * attributeCount).fill(ABSENT_RATING),
    attributeColumns: new Uint8Array(0),
    badgeTiers: isArchived ? null : new Uint8Array(n * badgeCount),
    badgeColumns: null,
    tierMask: new Uint8Array(n),
    nameRank: new Uint32Array(n),
  };
  players.forEach((player, row) => {
    columns.overall[row] = player.overall;
    columns.era[row] = ERA_CODE[player.teamType];
    columns.positions[row] = knownPositions(player.positions).reduce((mask, position) => mask | POSITION_BIT[position], 0);
    columns.team[row] = teamCode.get(`${player.teamType}\u0000${teamKey(player.team)}`) ?? 0;
    attributeKeys.forEach((key, column) => {
      const value = (player.attributes as Record<string, number | undefined>)[key];
      if (value !== undefined) columns.attributes[row * attributeCount + column] = value;
    });
    let tierMask = 0;
    for (const [tier, code] of TIER_CODE) if (player.badges[COUNT_KEY_OF_TIER[tier]] > 0) tierMask |= 1 << (code - 1);
    columns.tierMask[row] = tierMask;
    // Each badge once, at its first entry: a hosted list names every badge twice (docs/data.md#source-values-kept-exactly).
    for (const badge of heldBadges(player.badges.list ?? [])) {
      const index = catalogue.badgeOf(badge.slug);
      if (index !== undefined && columns.badgeTiers) columns.badgeTiers[row * badgeCount + index] = TIER_CODE.get(badge.tier) ?? 0;
    }
  });
  columns.attributeColumns = transpose(columns.attributes, n, attributeCount);
  columns.badgeColumns = columns.badgeTiers && transpose(columns.badgeTiers, n, badgeCount);
  // Folded once per row, not per comparison: the comparator runs n·log n times.
  const byName = players.map((_, row) => row).sort((a, b) => {
    const pa = players[a] as PlayerRecord;
    const pb = players[b] as PlayerRecord;
    return compareText(folded[a] as string, folded[b] as string) || compareText(pa.name, pb.name) || compareText(pa._id, pb._id);
  });
  byName.forEach((row, rank) => { columns.nameRank[row] = rank; });
  return columns;
}

/** A row-major table (row * width + column) as one column after another (column * rows + row). */
function transpose(table: Uint8Array, rowCount: number, width: number): Uint8Array {
  const columns = new Uint8Array(rowCount * width);
  for (let row = 0, at = 0; row < rowCount; row++) {
    for (let column = 0; column < width; column++, at++) columns[column * rowCount + row] = table[at] as number;
  }
  return columns;
}

/**
 * Every order is (value asc, name asc): the values are bytes, so a counting sort of the rows
 * taken in name order gives each order in O(n), no comparator.
 */
export function buildSortOrders(columns: SnapshotColumns, attributeCount: number): SortOrders {
  const n = columns.overall.length;
  const name = new Uint32Array(n);
  columns.nameRank.forEach((rank, row) => { name[rank] = row; });
  const byValue = (value: (row: number) => number): Uint32Array => {
    const start = new Uint32Array(257);
    for (let row = 0; row < n; row++) (start[value(row) + 1] as number)++;
    for (let v = 0; v < 256; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const row = name[i] as number;
      order[(start[value(row)] as number)++] = row;
    }
    return order;
  };
  const attributePresent = new Uint32Array(attributeCount);
  const attributes = Array.from({ length: attributeCount }, (_, column) => {
    const values = columns.attributeColumns.subarray(column * n, (column + 1) * n);
    // ABSENT_RATING (255) sorts after every real rating, so absent rows land at the end.
    const order = byValue((row) => values[row] as number);
    let present = 0;
    for (let row = 0; row < n; row++) if (values[row] !== ABSENT_RATING) present++;
    attributePresent[column] = present;
    return order;
  });
  return {
    overall: byValue((row) => columns.overall[row] as number),
    name,
    attributes,
    attributePresent,
  };
}

function buildHistory(weeks: readonly WeeklySnapshot[], players: readonly PlayerRecord[], catalogue: Catalogue): HistoryPayload {
  const { attributeCount, attributeKeys, badgeCount } = catalogue;
  const ids = [...new Set(weeks.flatMap((week) => week.players.map((player) => player._id)))].sort(compareText);
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const sorted = [...weeks].sort((a, b) => compareText(a.date, b.date));
  // The weeks' teams (as given), and each id's name, slug and era: the current row's, else the last week's naming it.
  const teamNames = sortUtf8([...new Set(sorted.flatMap((week) => week.players.flatMap((player) => (typeof player.team === "string" ? [player.team] : []))))]);
  const teamIndex = new Map(teamNames.map((team, i) => [team, i]));
  const known = new Map<string, { name: string; slug: string; teamType: Era }>();
  for (const week of sorted) {
    for (const { _id, name, slug, teamType } of week.players) if (name !== undefined && slug !== undefined && teamType !== undefined) known.set(_id, { name, slug, teamType });
  }
  for (const { _id, name, slug, teamType } of players) known.set(_id, { name, slug, teamType });
  const isNamed = ids.every((id) => known.has(id));
  const hasTeams = teamNames.length > 0 && teamNames.length < NO_TEAM;
  return {
    ids: buildStringTable(ids),
    indexOfRow: Int32Array.from(players, (player) => indexOf.get(player._id) ?? -1),
    ...(hasTeams ? { teams: buildStringTable(teamNames) } : {}),
    ...(hasTeams && isNamed ? {
      people: {
        names: buildStringTable(ids.map((id) => known.get(id)?.name as string)),
        slugs: buildStringTable(ids.map((id) => known.get(id)?.slug as string)),
        eras: Uint8Array.from(ids, (id) => ERA_CODE[known.get(id)?.teamType as Era]),
      },
    } : {}),
    weeks: sorted.map((week) => {
      const overall = new Uint8Array(ids.length).fill(ABSENT_RATING);
      const attributes = new Uint8Array(ids.length * attributeCount).fill(ABSENT_RATING);
      const badgeCounts = new Uint8Array(ids.length * 6);
      const hasLists = week.players.length > 0 && week.players.every((player) => player.badgeList !== undefined);
      const badgeTiers = hasLists ? new Uint8Array(ids.length * badgeCount) : undefined;
      const team = hasTeams && week.players.length > 0 && week.players.every((player) => typeof player.team === "string") ? new Uint16Array(ids.length).fill(NO_TEAM) : undefined;
      for (const player of week.players) {
        const i = indexOf.get(player._id) as number;
        overall[i] = player.overall;
        if (team) team[i] = teamIndex.get(player.team as string) as number;
        attributeKeys.forEach((key, column) => {
          const value = (player.attributes as Record<string, number | undefined>)[key];
          if (value !== undefined) attributes[i * attributeCount + column] = value;
        });
        badgeCounts[i * 6] = player.badges.total;
        TIER_COUNT_KEYS.forEach((key, k) => { badgeCounts[i * 6 + 1 + k] = player.badges[key]; });
        if (badgeTiers) {
          for (const badge of player.badgeList ?? []) {
            const index = catalogue.badgeOf(badge.slug);
            if (index !== undefined) badgeTiers[i * badgeCount + index] = TIER_CODE.get(badge.tier) ?? 0;
          }
        }
      }
      return { date: week.date, overall, attributes, badgeCounts, ...(badgeTiers ? { badgeTiers } : {}), ...(team ? { team } : {}) };
    }),
  };
}
