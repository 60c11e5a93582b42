// The scale edition for benchmarks: any number of players, mostly on current rosters, no weekly
// history. Records share read-only ratings, badges and hot zones drawn from a few thousand
// prototypes, and names come from first × last combinations, so a million records stay lean.

import { countBadges, topBadges } from "../../model/badge-summary.js";
import { BADGE_COUNT } from "../../model/badges.js";
import type { Era } from "../../model/eras.js";
import { slugify } from "../../model/names.js";
import { DEMO_SOURCE, HOT_ZONE_KEYS, playerId, teamSlug, type EditionSource, type PlayerRecord } from "../../model/player.js";
import { POSITIONS } from "../../model/positions.js";
import { firstFridayOfSeptember, startOfDay } from "./history.js";
import { CLASSIC_SEASONS } from "./legends.js";
import { drawBody, drawSchool, drawStyle, formatInches, type NameStyle } from "./people.js";
import {
  CLASSIC_FIRST, CLASSIC_LAST, FRANCHISES, FREE_AGENCY, INTERNATIONAL_FIRST, INTERNATIONAL_LAST, MODERN_FIRST,
  MODERN_LAST, classicLogoUrl, currentLogoUrl, playerImageUrl, uniqueBySlug,
} from "./pools.js";
import { Random, mixSeed } from "./random.js";
import { archetypeOf, badgeList, badgeTiers, buildRatingVector, drawPersonal, hotZonesOf, overallOf, toAttributes } from "./ratings.js";
import { AGE_WEIGHTS, ageCurve, drawPeak, seasonStartOf } from "./rosters.js";

type Head = Pick<PlayerRecord, "overall" | "positions" | "height" | "weight" | "wingspan" | "archetype" | "college">;
type Tail = Pick<PlayerRecord, "attributes" | "badges" | "hotZones">;

interface Prototype {
  readonly head: Head;
  readonly tail: Tail;
}

interface Team {
  readonly name: string;
  readonly slug: string;
  readonly logo: string;
}

const SHARES: readonly (readonly [Era, number, number])[] = [["curr", 0.8, 12_288], ["class", 0.12, 2_048], ["allt", 0.08, 2_048]];

const FIRST = uniqueBySlug([...MODERN_FIRST, ...INTERNATIONAL_FIRST, ...CLASSIC_FIRST]);
const LAST = uniqueBySlug([...MODERN_LAST, ...INTERNATIONAL_LAST, ...CLASSIC_LAST]);
const COMBINATIONS = FIRST.length * LAST.length;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Stepping through the combinations by a stride coprime with their count visits each once per lap. */
const STRIDE = (() => {
  let stride = Math.floor(COMBINATIONS * 0.6180339887) | 1;
  while (gcd(stride, COMBINATIONS) !== 1) stride += 2;
  return stride;
})();

function team(name: string, logo: string): Team {
  return { name, slug: teamSlug(name), logo };
}

const FREE_AGENCY_TEAM = team(FREE_AGENCY, currentLogoUrl(FREE_AGENCY));

/** The era's teams; current players also go to Free Agency, 3 % of them. */
function teamsOf(era: Era): Team[] {
  switch (era) {
    case "curr":
      return FRANCHISES.map((name) => team(name, currentLogoUrl(name)));
    case "class":
      return CLASSIC_SEASONS.map(([season, name]) => team(`${season} ${name}`, classicLogoUrl(season, name)));
    case "allt":
      return FRANCHISES.map((name) => team(`All-Time ${name}`, currentLogoUrl(name)));
  }
}

function makePrototype(random: Random, era: Era, seasonStart: number): Prototype {
  const position = random.pick(POSITIONS);
  const body = drawBody(random, position, era !== "class" || random.chance(0.8));
  const subject = { ...body, style: drawStyle(random, position), personal: drawPersonal(random) };
  const age = era === "allt" ? 27 : 19 + random.weighted(AGE_WEIGHTS);
  const seasonEnd = era === "curr" ? seasonStart + 1 : random.int(1965, seasonStart);
  const quality = era === "curr" ? drawPeak(random, 79) + ageCurve(age)
    : era === "class" ? (random.chance(0.05) ? random.int(88, 99) : 72 + 6 * random.normal())
      : Math.max(79, Math.min(99, 84 + 4 * random.normal()));
  const vector = buildRatingVector(subject, quality, age, seasonEnd, random, 1.5);
  const overall = overallOf(vector, position);
  const isScraped = !(era === "curr" && age <= 20 && random.chance(0.05));
  const nameStyle: NameStyle = random.chance(0.2) ? "international" : era === "curr" ? "modern" : "classic";
  const college = drawSchool(random, nameStyle, seasonEnd - 1 - age);
  const tiers = new Uint8Array(BADGE_COUNT);
  if (isScraped) badgeTiers(vector, overall, body.heightIn, Int8Array.from({ length: BADGE_COUNT }, () => Math.round(2.5 * random.normal())), tiers);
  const list = badgeList(tiers);
  const zoneLuck = Int8Array.from(HOT_ZONE_KEYS, () => Math.round(4 * random.normal()));
  return {
    head: {
      overall,
      positions: [...body.positions],
      height: formatInches(body.heightIn),
      weight: `${body.weightLb} lbs`,
      ...(isScraped && body.wingspanIn !== undefined ? { wingspan: formatInches(body.wingspanIn) } : {}),
      ...(isScraped ? { archetype: archetypeOf(vector) } : {}),
      ...(college !== undefined ? { college } : {}),
    },
    tail: {
      attributes: isScraped ? toAttributes(vector) : {},
      badges: { ...countBadges(list), list, top: topBadges(list) },
      ...(isScraped ? { hotZones: hotZonesOf(vector, zoneLuck) } : {}),
    },
  };
}

/**
 * Exactly `count` players: 80 % current, 12 % classic, 8 % all-time. Within an era the i-th
 * player takes name combination (i · stride + offset) mod C, so a name repeats only once every
 * C players and its repeats get `-2`, `-3` … — slugs are unique without a lookup table.
 */
export function buildScaleEdition(count: number, seed: number, gameVersion: string): EditionSource {
  const random = new Random(mixSeed(seed, 0x5ca1e));
  const seasonStart = seasonStartOf(Number(gameVersion.slice(2)));
  const launch = startOfDay(firstFridayOfSeptember(seasonStart));
  const names: (string | undefined)[] = new Array<string | undefined>(COMBINATIONS);
  const nameSlugs: (string | undefined)[] = new Array<string | undefined>(COMBINATIONS);
  const images: (string | undefined)[] = new Array<string | undefined>(COMBINATIONS);
  const offset = seed % COMBINATIONS;
  const players: PlayerRecord[] = [];
  let assigned = 0;
  SHARES.forEach(([era, share, prototypeCount], s) => {
    const eraCount = s === SHARES.length - 1 ? count - assigned : Math.round(count * share);
    assigned += eraCount;
    const prototypes = Array.from({ length: Math.max(1, Math.min(eraCount, prototypeCount)) }, () => makePrototype(random, era, seasonStart));
    const teams = teamsOf(era);
    for (let i = 0; i < eraCount; i++) {
      const combination = (i * STRIDE + offset) % COMBINATIONS;
      const repeat = Math.floor(i / COMBINATIONS);
      let name = names[combination];
      let nameSlug = nameSlugs[combination];
      let image = images[combination];
      if (name === undefined || nameSlug === undefined || image === undefined) {
        name = `${FIRST[combination % FIRST.length] ?? ""} ${LAST[Math.floor(combination / FIRST.length)] ?? ""}`;
        nameSlug = slugify(name);
        image = playerImageUrl(name, "", gameVersion);
        names[combination] = name;
        nameSlugs[combination] = nameSlug;
        images[combination] = image;
      }
      const team = era === "curr" && random.chance(0.03) ? FREE_AGENCY_TEAM : random.pick(teams);
      const prototype = random.pick(prototypes);
      const base = era === "curr" ? nameSlug : `${nameSlug}-${team.slug}`;
      const slug = repeat === 0 ? base : `${base}-${repeat + 1}`;
      players.push({
        _id: playerId(era, team.name, slug), name, slug, team: team.name, teamType: era,
        ...prototype.head, playerImage: image, teamImg: team.logo, ...prototype.tail, lastUpdated: launch,
      });
    }
  });
  return { gameVersion, status: "current", capturedAt: launch, source: DEMO_SOURCE, players, history: [] };
}
