// The demo data: editions 2K20…2K27 derived from one seeded pool of people and rosters, and a
// scale edition of any size for benchmarks. Deterministic (same options, same output); never
// reads the clock or Math.random. The snapshot builder strips badge lists from archived editions.

import { countBadges, compareText, topBadges } from "../model/badge-summary.js";
import { BADGE_COUNT } from "../model/badges.js";
import { ERA_CODE, normaliseEditionKey } from "../model/eras.js";
import { DEMO_SOURCE, playerId, type EditionSource, type PlayerRecord } from "../model/player.js";
import { firstFridayOfSeptember, addDays, simulateWeeks, startOfDay, weeklyDates, type SeasonState } from "./demo/history.js";
import { formatInches } from "./demo/people.js";
import { playerImageUrl } from "./demo/pools.js";
import { Random, hashText, mixSeed } from "./demo/random.js";
import { archetypeOf, badgeList, badgeTiers, buildRatingVector, hotZonesOf, overallOf, toAttributes } from "./demo/ratings.js";
import { EDITION_YEARS, RosterBuilder, ageCurve, seasonStartOf, type RosterEntry } from "./demo/rosters.js";
import { buildScaleEdition } from "./demo/scale.js";

export const DEFAULT_DEMO_SEED = 2027;

export interface DemoOptions {
  seed?: number;
  /** The build day, YYYY-MM-DD: the current edition's last weekly snapshot and capture date. */
  asOf: string;
}

export interface ScaleOptions {
  players: number;
  seed?: number;
  gameVersion?: string;
}

/** Editions 2K20 … 2K27, oldest first; 2K27 is current and carries its weekly history up to asOf. */
export function generateDemoEditions(options: DemoOptions): EditionSource[] {
  const { asOf } = options;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || startOfDay(asOf) !== safeIso(asOf)) throw new RangeError(`asOf ${asOf} is not a YYYY-MM-DD date`);
  const seed = (options.seed ?? DEFAULT_DEMO_SEED) >>> 0;
  const rosters = new RosterBuilder(seed).build();
  const baseVectors = new Map<RosterEntry, Uint8Array>();
  const lastYear = EDITION_YEARS[EDITION_YEARS.length - 1];
  return EDITION_YEARS.map((year, e) => {
    const gameVersion = `2K${year}`;
    const rated = withUniqueSlugs(rosters[e] ?? []).map((entry) => ({ entry, state: launchState(entry, seed, e, baseVectors) }));
    const launch = firstFridayOfSeptember(seasonStartOf(year));
    if (year !== lastYear) {
      const capture = addDays(firstFridayOfSeptember(seasonStartOf(year) + 1), -14);
      const weeks = Math.floor((Date.parse(capture) - Date.parse(launch)) / (7 * 86_400_000));
      const players = rated.map(({ entry, state }, i) => {
        const updated = addDays(launch, 7 * Math.max(0, weeks - new Random(mixSeed(seed, 0x1a57, e, i)).int(0, 12)));
        return toRecord(entry, state, gameVersion, startOfDay(updated));
      });
      return { gameVersion, status: "archived", capturedAt: startOfDay(capture), source: DEMO_SOURCE, players: sortRecords(players), history: [] };
    }
    const dates = weeklyDates(launch, asOf);
    const history = simulateWeeks(rated.map(({ state }) => state), dates, new Random(mixSeed(seed, 0x3ee4, e)));
    const players = rated.map(({ entry, state }) => toRecord(entry, state, gameVersion, startOfDay(dates[state.lastChanged] ?? launch)));
    return { gameVersion, status: "current", capturedAt: startOfDay(asOf), source: DEMO_SOURCE, players: sortRecords(players), history };
  });
}

/** One current edition of exactly `players` players, mostly current rosters, without weekly history. */
export function generateScaleEdition(options: ScaleOptions): EditionSource {
  const gameVersion = normaliseEditionKey(options.gameVersion ?? "2K99");
  if (gameVersion === undefined) throw new RangeError(`gameVersion ${options.gameVersion ?? ""} is not 2K + two digits`);
  if (!Number.isSafeInteger(options.players) || options.players < 0) throw new RangeError(`players ${options.players} is not a count`);
  return buildScaleEdition(options.players, (options.seed ?? DEFAULT_DEMO_SEED) >>> 0, gameVersion);
}

function safeIso(date: string): string | undefined {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A slug already taken in the edition's era gets `-2`, `-3` …, in roster order. */
function withUniqueSlugs(entries: readonly RosterEntry[]): RosterEntry[] {
  const taken = new Set<string>();
  return entries.map((entry) => {
    let slug = entry.slug;
    for (let n = 2; taken.has(`${entry.teamType}:${slug}`); n++) slug = `${entry.slug}-${n}`;
    taken.add(`${entry.teamType}:${slug}`);
    return slug === entry.slug ? entry : { ...entry, slug, id: playerId(entry.teamType, entry.team, slug) };
  });
}

/**
 * The entry's ratings at the edition's launch. Current players follow their age curve with a
 * little form noise; classic and all-time entries keep one base vector with ±1 noise per edition.
 */
function launchState(entry: RosterEntry, seed: number, e: number, baseVectors: Map<RosterEntry, Uint8Array>): SeasonState {
  const { person } = entry;
  const random = new Random(mixSeed(seed, person.id, hashText(entry.team), e));
  const position = person.positions[0] ?? "SF";
  let vector: Uint8Array;
  if (entry.teamType === "curr") {
    // Stars age gracefully: half the usual decline.
    const curve = ageCurve(entry.age);
    const quality = person.peak + (person.isFamous && entry.age > 29 ? curve / 2 : curve) + 1.2 * random.normal();
    vector = buildRatingVector(person, quality, entry.age, entry.seasonEnd, random, 1.5);
  } else {
    let base = baseVectors.get(entry);
    if (base === undefined) {
      base = buildRatingVector(person, entry.quality, entry.age, entry.seasonEnd, new Random(mixSeed(seed, person.id, hashText(entry.team))), 1);
      baseVectors.set(entry, base);
    }
    vector = base.map((value) => {
      const roll = random.next();
      return Math.max(25, Math.min(99, roll < 0.06 ? value - 1 : roll < 0.12 ? value + 1 : value));
    });
  }
  const isYoung = entry.age <= 24;
  return {
    id: entry.id,
    position,
    heightIn: person.heightIn,
    badgeLuck: person.badgeLuck,
    hasAttributes: !entry.isUnscraped,
    trend: entry.teamType !== "curr" ? (random.chance(0.5) ? 1 : -1) : isYoung ? 1 : entry.age >= 32 ? -1 : random.chance(0.5) ? 1 : -1,
    changeRate: entry.teamType !== "curr" ? 0.015 : isYoung ? 0.25 : 0.18,
    vector,
    overall: overallOf(vector, position),
    lastChanged: 0,
  };
}

function toRecord(entry: RosterEntry, state: SeasonState, gameVersion: string, lastUpdated: string): PlayerRecord {
  const { person } = entry;
  const isScraped = state.hasAttributes;
  const tiers = new Uint8Array(BADGE_COUNT);
  if (isScraped) badgeTiers(state.vector, state.overall, person.heightIn, person.badgeLuck, tiers);
  const list = badgeList(tiers);
  return {
    _id: entry.id,
    name: person.name,
    slug: entry.slug,
    team: entry.team,
    teamType: entry.teamType,
    overall: state.overall,
    positions: [...person.positions],
    height: formatInches(person.heightIn),
    weight: `${person.weightLb} lbs`,
    ...(isScraped && person.wingspanIn !== undefined ? { wingspan: formatInches(person.wingspanIn) } : {}),
    ...(isScraped ? { archetype: archetypeOf(state.vector) } : {}),
    ...(person.college !== undefined ? { college: person.college } : {}),
    playerImage: playerImageUrl(person.name, entry.imageTag, gameVersion),
    teamImg: entry.teamImg,
    attributes: isScraped ? toAttributes(state.vector) : {},
    badges: { ...countBadges(list), list, top: topBadges(list) },
    ...(isScraped ? { hotZones: hotZonesOf(state.vector, person.zoneLuck) } : {}),
    lastUpdated,
  };
}

/** Era, team, overall (best first), name. */
function sortRecords(players: PlayerRecord[]): PlayerRecord[] {
  return players.sort((a, b) =>
    ERA_CODE[a.teamType] - ERA_CODE[b.teamType] || compareText(a.team, b.team) || b.overall - a.overall || compareText(a.name, b.name));
}

