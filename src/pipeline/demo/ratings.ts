// Ratings of the demo generator: a player's 37 base attributes from position, quality, style,
// height and age; the overall derived from them; badges, hot zones and archetype that fit.
// Pure functions over a Uint8Array in BASE_KEYS order; randomness comes in from the caller.

import { ATTRIBUTE_GROUPS, GROUP_SCORE_KEYS, type Attributes } from "../../model/attributes.js";
import { BADGES, BADGE_COUNT, BADGE_TIERS } from "../../model/badges.js";
import { HOT_ZONE_KEYS, type BadgeEntry, type HotZones, type HotZoneValue } from "../../model/player.js";
import type { Position } from "../../model/positions.js";
import type { Random } from "./random.js";

type BaseKey = (typeof ATTRIBUTE_GROUPS)[keyof typeof ATTRIBUTE_GROUPS][number];

/** The 37 base attributes in registry order; a rating vector holds one byte per key. */
export const BASE_KEYS: readonly BaseKey[] = Object.values(ATTRIBUTE_GROUPS).flat();
export const BASE_COUNT = BASE_KEYS.length;

export const STYLES = ["shoot", "slash", "post", "play", "perD", "intD", "reb", "athl"] as const;
export type Style = (typeof STYLES)[number];

type PerPosition = readonly [pg: number, sg: number, sf: number, pf: number, c: number];

/** Mean ratings by primary position of real players near overall 78 (2K26 launch scrape). */
const PROFILE: Readonly<Record<BaseKey, PerPosition>> = {
  closeShot: [84, 84, 81, 83, 87], midRangeShot: [78, 78, 75, 72, 71], threePointShot: [79, 80, 78, 75, 63],
  freeThrow: [81, 81, 77, 74, 70], shotIQ: [73, 74, 70, 72, 72], offensiveConsistency: [72, 74, 68, 69, 67],
  speed: [82, 79, 76, 72, 61], agility: [83, 81, 78, 74, 60], strength: [52, 51, 58, 66, 75], vertical: [76, 77, 78, 77, 71],
  stamina: [89, 88, 87, 87, 85], hustle: [84, 81, 83, 83, 87], durability: [81, 81, 81, 81, 81],
  drivingLayup: [81, 80, 77, 78, 73], standingDunk: [30, 36, 48, 60, 79], drivingDunk: [58, 69, 75, 76, 73],
  postHook: [38, 40, 50, 61, 71], postFade: [46, 48, 53, 62, 66], postControl: [43, 44, 54, 62, 71],
  drawFoul: [62, 61, 56, 59, 59], hands: [87, 85, 83, 83, 84],
  passAccuracy: [81, 72, 65, 64, 52], ballHandle: [84, 78, 72, 68, 50], speedWithBall: [81, 74, 70, 64, 44],
  passIQ: [81, 74, 66, 66, 59], passVision: [70, 54, 43, 46, 45],
  interiorDefense: [43, 49, 58, 67, 74], perimeterDefense: [71, 71, 71, 68, 50], steal: [60, 53, 51, 50, 46],
  block: [47, 48, 52, 59, 75], helpDefenseIQ: [68, 68, 68, 69, 74], passPerception: [68, 67, 67, 65, 59],
  defensiveConsistency: [60, 60, 61, 60, 63], offensiveRebound: [38, 40, 48, 53, 73], defensiveRebound: [51, 53, 57, 66, 79],
  intangibles: [70, 72, 67, 70, 69], potential: [83, 82, 80, 82, 82],
};

/** Rating points per overall point across all players (correlation × spread in the same scrape). */
const SLOPE: Readonly<Record<BaseKey, number>> = {
  closeShot: 0.85, midRangeShot: 0.6, threePointShot: 0.35, freeThrow: 0.35, shotIQ: 1.2, offensiveConsistency: 2.0,
  speed: 0.26, agility: 0.4, strength: 0.5, vertical: 0.25, stamina: 0.38, hustle: 0.5, durability: 0.1,
  drivingLayup: 0.8, standingDunk: 0.45, drivingDunk: 0.45, postHook: 0.8, postFade: 0.9, postControl: 0.9,
  drawFoul: 1.7, hands: 0.6, passAccuracy: 0.8, ballHandle: 0.65, speedWithBall: 0.32, passIQ: 0.9, passVision: 1.1,
  interiorDefense: 0.7, perimeterDefense: 0.65, steal: 0.2, block: 0.35, helpDefenseIQ: 0.9, passPerception: 0.9,
  defensiveConsistency: 1.2, offensiveRebound: 0.2, defensiveRebound: 0.6, intangibles: 1.1, potential: 0,
};

/** What a position is judged on: these rise faster with quality and weigh most in the overall. */
const KEY_SKILLS: Readonly<Record<Position, readonly BaseKey[]>> = {
  PG: ["ballHandle", "passAccuracy", "passIQ", "passVision", "speedWithBall", "threePointShot", "midRangeShot", "drivingLayup", "perimeterDefense", "steal", "speed"],
  SG: ["threePointShot", "midRangeShot", "freeThrow", "drivingLayup", "ballHandle", "perimeterDefense", "speed", "agility", "steal"],
  SF: ["threePointShot", "midRangeShot", "drivingLayup", "drivingDunk", "perimeterDefense", "strength", "vertical", "ballHandle"],
  PF: ["closeShot", "drivingLayup", "standingDunk", "postControl", "interiorDefense", "defensiveRebound", "block", "strength", "midRangeShot"],
  C: ["closeShot", "standingDunk", "postHook", "postControl", "interiorDefense", "block", "defensiveRebound", "offensiveRebound", "strength"],
};
const ALL_ROUND: readonly BaseKey[] = [
  "shotIQ", "offensiveConsistency", "drawFoul", "hands", "helpDefenseIQ", "passPerception", "defensiveConsistency", "intangibles",
];

/** Spread of a player's own offsets, in rating points (default 5). */
const SPREAD: Partial<Record<BaseKey, number>> = {
  offensiveConsistency: 7, drawFoul: 7, intangibles: 9, passVision: 6, defensiveConsistency: 8, standingDunk: 7,
  stamina: 2.5, durability: 3, hands: 4, threePointShot: 5.5, offensiveRebound: 6,
};

const TILT: Readonly<Record<Style, Partial<Record<BaseKey, number>>>> = {
  shoot: { threePointShot: 7, midRangeShot: 5, freeThrow: 5, shotIQ: 2, offensiveConsistency: 2, postHook: -3, standingDunk: -3 },
  slash: { drivingLayup: 5, drivingDunk: 8, vertical: 5, speed: 3, drawFoul: 5, threePointShot: -3 },
  post: { postHook: 8, postFade: 7, postControl: 8, strength: 4, closeShot: 3, speed: -3 },
  play: { passAccuracy: 6, passIQ: 6, passVision: 9, ballHandle: 6, speedWithBall: 5 },
  perD: { perimeterDefense: 8, steal: 6, passPerception: 5, defensiveConsistency: 5, agility: 2 },
  intD: { interiorDefense: 8, block: 8, helpDefenseIQ: 4, defensiveConsistency: 3 },
  reb: { offensiveRebound: 9, defensiveRebound: 8, hustle: 3, strength: 2 },
  athl: { speed: 5, agility: 5, vertical: 6, drivingDunk: 3, standingDunk: 3, speedWithBall: 3 },
};

/** Rating points per inch over the position's usual height. */
const PER_INCH: Partial<Record<BaseKey, number>> = {
  block: 1.5, defensiveRebound: 1.2, offensiveRebound: 1, interiorDefense: 1, standingDunk: 2,
  speed: -1, agility: -1.2, ballHandle: -0.6, speedWithBall: -0.8,
};

export const POSITION_HEIGHT: Readonly<Record<Position, number>> = { PG: 74.5, SG: 77, SF: 78.5, PF: 80, C: 82 };

const AGE_DECLINE = new Set<BaseKey>(["speed", "agility", "vertical", "speedWithBall", "drivingDunk"]);
const AGE_WISDOM = new Set<BaseKey>(["shotIQ", "passIQ", "helpDefenseIQ", "offensiveConsistency", "intangibles"]);

const THREE = BASE_KEYS.indexOf("threePointShot");
const POTENTIAL = BASE_KEYS.indexOf("potential");

function column(values: Partial<Record<BaseKey, number>>, fallback: number): Float64Array {
  return Float64Array.from(BASE_KEYS, (key) => values[key] ?? fallback);
}

function byPosition<T>(build: (position: Position, p: number) => T): Readonly<Record<Position, T>> {
  return { PG: build("PG", 0), SG: build("SG", 1), SF: build("SF", 2), PF: build("PF", 3), C: build("C", 4) };
}

const MEAN = byPosition((_, p) => Float64Array.from(BASE_KEYS, (key) => PROFILE[key][p] ?? 0));
const RISE = byPosition((position) => Float64Array.from(BASE_KEYS, (key) => SLOPE[key] + (KEY_SKILLS[position].includes(key) ? 0.5 : 0)));
const WEIGHT = byPosition((position) => Float64Array.from(BASE_KEYS, (key) =>
  key === "potential" ? 0 : KEY_SKILLS[position].includes(key) ? 3 : ALL_ROUND.includes(key) ? 2 : 1));
const SPREADS = column(SPREAD, 5);
const HEIGHT_EFFECT = column(PER_INCH, 0);
const TILTS = STYLES.map((style) => column(TILT[style], 0));

function clampRating(value: number, low: number, high: number): number {
  return value < low ? low : value > high ? high : Math.round(value);
}

function blend(vector: ArrayLike<number>, weights: Float64Array): number {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < BASE_COUNT; i++) {
    const weight = weights[i] ?? 0;
    sum += weight * (vector[i] ?? 0);
    total += weight;
  }
  return sum / total;
}

/** How fast the blend grows per point of lift along a position's growth direction. */
const RISE_BLEND = byPosition((position) => blend(RISE[position], WEIGHT[position]));
/** overall = a + b · blend, fitted so the position's typical player at quality 70 and 90 rates 70 and 90. */
const CALIBRATION = byPosition((position) => {
  const typical = (quality: number): Float64Array =>
    Float64Array.from(BASE_KEYS, (_, i) => clampRating((MEAN[position][i] ?? 0) + (RISE[position][i] ?? 0) * (quality - 78), 25, 99));
  const low = blend(typical(70), WEIGHT[position]);
  const high = blend(typical(90), WEIGHT[position]);
  const scale = 20 / (high - low);
  return { offset: 70 - scale * low, scale };
});

/** The overall a position-weighted blend of the base attributes gives, 40–99. */
export function overallOf(vector: ArrayLike<number>, position: Position): number {
  const { offset, scale } = CALIBRATION[position];
  return clampRating(offset + scale * blend(vector, WEIGHT[position]), 40, 99);
}

/** The same, from an attributes object (absent keys count as 0). */
export function overallFromAttributes(attributes: Attributes, position: Position): number {
  return overallOf(BASE_KEYS.map((key) => attributes[key] ?? 0), position);
}

export interface RatingSubject {
  readonly positions: readonly Position[];
  readonly heightIn: number;
  /** Style tilts by STYLES index, about −2…3. */
  readonly style: Float32Array;
  /** The player's own offsets by BASE_KEYS index, fixed for life. */
  readonly personal: Int8Array;
}

/**
 * A rating vector whose overall is this quality (rounded; a little less where ratings cap at
 * 99) for a player of this age, in the season ending `seasonEnd` (no three-point line before
 * 1980). `jitter` is the spread of this rating's own noise, in points.
 */
export function buildRatingVector(subject: RatingSubject, quality: number, age: number, seasonEnd: number, random: Random, jitter: number): Uint8Array {
  const [primary = "SF", secondary] = subject.positions;
  const mean = MEAN[primary];
  const other = secondary === undefined ? undefined : MEAN[secondary];
  const rise = RISE[primary];
  const inches = subject.heightIn - POSITION_HEIGHT[primary];
  const decline = age > 30 ? (age - 30) * 1.8 : 0;
  const wisdom = (Math.min(age, 31) - 26) * 0.8;
  const raw = new Float64Array(BASE_COUNT);
  for (let i = 0; i < BASE_COUNT; i++) {
    const key = BASE_KEYS[i] ?? "potential";
    let value = other === undefined ? (mean[i] ?? 0) : 0.75 * (mean[i] ?? 0) + 0.25 * (other[i] ?? 0);
    value += (HEIGHT_EFFECT[i] ?? 0) * inches + (subject.personal[i] ?? 0);
    for (let s = 0; s < TILTS.length; s++) value += (subject.style[s] ?? 0) * (TILTS[s]?.[i] ?? 0);
    if (AGE_DECLINE.has(key)) value -= decline;
    if (AGE_WISDOM.has(key)) value += wisdom;
    if (key === "durability" && age > 31) value -= age - 31;
    raw[i] = value;
  }
  raw[THREE] = (raw[THREE] ?? 0) - (seasonEnd < 1980 ? 14 : seasonEnd < 1995 ? 5 : 0);
  // Style, height and age only redistribute: lift along the position's growth direction until
  // the blend yields the quality, so the overall tracks the quality asked for.
  // A few more steps make up for ratings clamped at 99 and for the noise.
  const { offset, scale } = CALIBRATION[primary];
  for (let i = 0; i < BASE_COUNT; i++) raw[i] = (raw[i] ?? 0) + jitter * random.normal();
  const target = Math.max(40, Math.min(99, Math.round(quality)));
  const step = scale * RISE_BLEND[primary];
  let lift = (quality - offset - scale * blend(raw, WEIGHT[primary])) / step;
  const vector = new Uint8Array(BASE_COUNT);
  for (let attempt = 0; attempt < 4; attempt++) {
    for (let i = 0; i < BASE_COUNT; i++) vector[i] = clampRating((raw[i] ?? 0) + lift * (rise[i] ?? 0), 25, 99);
    const miss = target - overallOf(vector, primary);
    if (miss === 0) break;
    lift += miss / step;
  }
  settlePotential(vector, primary, age, random.int(0, 2));
  return vector;
}

/** Potential is the overall plus room to grow, so it is set after the rest. */
export function settlePotential(vector: Uint8Array, position: Position, age: number, extra: number): void {
  vector[POTENTIAL] = clampRating(overallOf(vector, position) + Math.max(0, 25 - age) * 1.5 + extra, 25, 99);
}

/** Draws a player's lifelong offsets. */
export function drawPersonal(random: Random): Int8Array {
  return Int8Array.from(SPREADS, (spread) => Math.round(spread * random.normal()));
}

const GROUP_INDEXES = GROUP_SCORE_KEYS.map((group) => ATTRIBUTE_GROUPS[group].map((key) => BASE_KEYS.indexOf(key)));

/** The attributes object: 37 base keys, then the six group scores (rounded group means). */
export function toAttributes(vector: Uint8Array): Attributes {
  const attributes: Attributes = {};
  BASE_KEYS.forEach((key, i) => {
    attributes[key] = vector[i] ?? 0;
  });
  GROUP_SCORE_KEYS.forEach((group, g) => {
    const members = GROUP_INDEXES[g] ?? [];
    let sum = 0;
    for (const i of members) sum += vector[i] ?? 0;
    attributes[group] = Math.round(sum / members.length);
  });
  return attributes;
}

/** Where a player with league-usual ratings would score. */
const BADGE_BASE = 69;

const BADGE_RULES: Readonly<Record<string, readonly (readonly [BaseKey, number])[]>> = {
  Deadeye: [["threePointShot", 0.6], ["shotIQ", 0.2], ["offensiveConsistency", 0.2]],
  "Limitless Range": [["threePointShot", 0.85], ["shotIQ", 0.15]],
  "Mini Marksman": [["threePointShot", 0.5], ["midRangeShot", 0.5]],
  "Set Shot Specialist": [["threePointShot", 0.5], ["freeThrow", 0.3], ["midRangeShot", 0.2]],
  "Shifty Shooter": [["midRangeShot", 0.4], ["threePointShot", 0.3], ["ballHandle", 0.3]],
  "Aerial Wizard": [["drivingDunk", 0.4], ["standingDunk", 0.3], ["vertical", 0.3]],
  "Float Game": [["drivingLayup", 0.6], ["closeShot", 0.4]],
  "Hook Specialist": [["postHook", 0.8], ["postControl", 0.2]],
  "Layup Mixmaster": [["drivingLayup", 0.7], ["agility", 0.3]],
  "Paint Prodigy": [["closeShot", 0.6], ["postControl", 0.2], ["strength", 0.2]],
  "Physical Finisher": [["drivingLayup", 0.5], ["strength", 0.5]],
  "Post Fade Phenom": [["postFade", 0.8], ["postControl", 0.2]],
  "Post Powerhouse": [["postControl", 0.5], ["strength", 0.5]],
  "Post-Up Poet": [["postControl", 0.6], ["postHook", 0.2], ["postFade", 0.2]],
  Posterizer: [["drivingDunk", 0.7], ["vertical", 0.3]],
  "Rise Up": [["standingDunk", 0.7], ["vertical", 0.3]],
  "Ankle Assassin": [["ballHandle", 0.7], ["agility", 0.3]],
  "Bail Out": [["passAccuracy", 0.6], ["passIQ", 0.4]],
  "Break Starter": [["passAccuracy", 0.5], ["defensiveRebound", 0.5]],
  Dimer: [["passAccuracy", 0.6], ["passVision", 0.4]],
  "Handles for Days": [["ballHandle", 0.7], ["speedWithBall", 0.3]],
  "Lightning Launch": [["speedWithBall", 0.6], ["speed", 0.4]],
  "Strong Handle": [["ballHandle", 0.6], ["strength", 0.4]],
  Unpluckable: [["ballHandle", 0.6], ["hands", 0.4]],
  "Versatile Visionary": [["passVision", 0.6], ["passIQ", 0.4]],
  Challenger: [["perimeterDefense", 0.8], ["helpDefenseIQ", 0.2]],
  Glove: [["steal", 0.8], ["passPerception", 0.2]],
  "High-Flying Denier": [["block", 0.6], ["vertical", 0.4]],
  "Immovable Enforcer": [["strength", 0.6], ["perimeterDefense", 0.4]],
  Interceptor: [["passPerception", 0.6], ["steal", 0.4]],
  "Off-Ball Pest": [["perimeterDefense", 0.6], ["hustle", 0.2], ["agility", 0.2]],
  "On-Ball Menace": [["perimeterDefense", 0.7], ["agility", 0.3]],
  "Paint Patroller": [["block", 0.6], ["interiorDefense", 0.4]],
  "Pick Dodger": [["perimeterDefense", 0.5], ["agility", 0.5]],
  "Post Lockdown": [["interiorDefense", 0.7], ["strength", 0.3]],
  "Boxout Beast": [["defensiveRebound", 0.5], ["offensiveRebound", 0.2], ["strength", 0.3]],
  "Rebound Chaser": [["offensiveRebound", 0.5], ["defensiveRebound", 0.5]],
  "Brick Wall": [["strength", 0.8], ["hustle", 0.2]],
  "Slippery Off-Ball": [["speed", 0.4], ["agility", 0.4], ["offensiveConsistency", 0.2]],
  "Pogo Stick": [["vertical", 0.6], ["hustle", 0.4]],
};

/** Mean of each base rating over the five positions: a badge asks for its ratings well above it. */
const LEAGUE_MEAN = Float64Array.from(BASE_KEYS, (key) => PROFILE[key].reduce((sum, value) => sum + value, 0) / 5);

const COMPILED_RULES = BADGES.map((badge) => {
  const rule = BADGE_RULES[badge.name];
  if (rule === undefined) throw new Error(`demo ratings: no rule for badge ${badge.name}`);
  const indexes = rule.map(([key]) => BASE_KEYS.indexOf(key));
  const weights = rule.map(([, weight]) => weight);
  const usual = indexes.reduce((sum, i, k) => sum + (weights[k] ?? 0) * (LEAGUE_MEAN[i] ?? 0), 0);
  return { indexes, weights, usual };
});
const MINI_MARKSMAN = BADGES.findIndex((badge) => badge.name === "Mini Marksman");
const scores = new Float64Array(BADGE_COUNT);
const byScore = Array.from({ length: BADGE_COUNT }, (_, b) => b);

/**
 * Tier codes (0 none, 1 Bronze … 5 Legendary) by BADGES index into `tiers`. A badge's score is
 * how far its ratings stand above the league's usual, lifted for better players; Hall of Fame
 * and Legendary tiers go to a player's few best badges only, more for the greatest.
 */
export function badgeTiers(vector: Uint8Array, overall: number, heightIn: number, luck: Int8Array, tiers: Uint8Array): void {
  const lift = 0.35 * (overall - 80);
  for (let b = 0; b < BADGE_COUNT; b++) {
    const rule = COMPILED_RULES[b];
    let score = 0;
    if (rule !== undefined) {
      for (let k = 0; k < rule.indexes.length; k++) score += (rule.weights[k] ?? 0) * (vector[rule.indexes[k] ?? 0] ?? 0);
      score += BADGE_BASE - rule.usual + lift + (luck[b] ?? 0);
    }
    if (b === MINI_MARKSMAN && heightIn > 76) score = 0;
    scores[b] = score;
    tiers[b] = score >= 96 ? 4 : score >= 90 ? 3 : score >= 84 ? 2 : score >= 78 ? 1 : 0;
  }
  let elite = overall >= 97 ? 5 : overall >= 93 ? 3 : overall >= 88 ? 1 : 0;
  byScore.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  for (const b of byScore) {
    if (tiers[b] !== 4) continue;
    if (elite > 0) {
      elite -= 1;
      if ((scores[b] ?? 0) >= 100 && overall >= 97) tiers[b] = 5;
    } else tiers[b] = 3;
  }
}

/** The badge list in catalogue order, one fresh entry per badge held. */
export function badgeList(tiers: Uint8Array): BadgeEntry[] {
  const list: BadgeEntry[] = [];
  BADGES.forEach((badge, b) => {
    const tier = BADGE_TIERS[(tiers[b] ?? 0) - 1];
    if (tier !== undefined) list.push({ name: badge.name, slug: badge.slug, tier, category: badge.category });
  });
  return list;
}

const ZONE_SOURCES: readonly (readonly [BaseKey, BaseKey, number])[] = HOT_ZONE_KEYS.map((zone) =>
  zone.endsWith("Three") ? ["threePointShot", "threePointShot", zone.includes("Corner") ? 2 : 0]
    : zone === "paint" ? ["closeShot", "closeShot", -4]
      : zone === "underBasket" ? ["closeShot", "drivingLayup", -2]
        : ["midRangeShot", "midRangeShot", 0]);
const ZONE_INDEXES = ZONE_SOURCES.map(([a, b, bonus]) => [BASE_KEYS.indexOf(a), BASE_KEYS.indexOf(b), bonus] as const);

/** Hot where the zone's shot rating (plus the player's own zone bias) is high, cold where low. */
export function hotZonesOf(vector: Uint8Array, zoneLuck: Int8Array): HotZones {
  const values: HotZoneValue[] = ZONE_INDEXES.map(([a, b, bonus], z) => {
    const rating = ((vector[a] ?? 0) + (vector[b] ?? 0)) / 2 + bonus + (zoneLuck[z] ?? 0);
    return rating >= 86 ? "hot" : rating <= 66 ? "cold" : "neutral";
  });
  const [leftCornerThree, leftWingThree, topKeyThree, rightWingThree, rightCornerThree, leftElbow, topKey, rightElbow, leftBaseline, paint, rightBaseline, underBasket] = values;
  const neutral = "neutral";
  return {
    leftCornerThree: leftCornerThree ?? neutral, leftWingThree: leftWingThree ?? neutral, topKeyThree: topKeyThree ?? neutral,
    rightWingThree: rightWingThree ?? neutral, rightCornerThree: rightCornerThree ?? neutral, leftElbow: leftElbow ?? neutral,
    topKey: topKey ?? neutral, rightElbow: rightElbow ?? neutral, leftBaseline: leftBaseline ?? neutral,
    paint: paint ?? neutral, rightBaseline: rightBaseline ?? neutral, underBasket: underBasket ?? neutral,
  };
}

const SKILLS: readonly (readonly [Style, readonly BaseKey[], number])[] = [
  ["shoot", ["threePointShot", "midRangeShot"], 74],
  ["slash", ["drivingLayup", "drivingDunk"], 74],
  ["post", ["postHook", "postControl", "postFade"], 55],
  ["play", ["passAccuracy", "ballHandle", "passVision"], 66],
  ["perD", ["perimeterDefense", "steal"], 61],
  ["intD", ["interiorDefense", "block"], 57],
  ["reb", ["offensiveRebound", "defensiveRebound"], 58],
];
const SKILL_INDEXES = SKILLS.map(([style, keys, baseline]) => [style, keys.map((key) => BASE_KEYS.indexOf(key)), baseline] as const);
const ARCHETYPE_NOUN: Readonly<Record<Style, string>> = {
  shoot: "Sharpshooter", slash: "Rim Attacker", post: "Post Scorer", play: "Floor General",
  perD: "Perimeter Lockdown", intD: "Lockdown Anchor", reb: "Board Hunter", athl: "Athlete",
};
const ARCHETYPE_ADJECTIVE: Readonly<Record<Style, string>> = {
  shoot: "Sharpshooting", slash: "Slashing", post: "Post-Scoring", play: "Playmaking",
  perD: "2-Way", intD: "Rim-Protecting", reb: "Glass-Cleaning", athl: "Athletic",
};

/** `Playmaking Shot Creator`, `Glass-Cleaning Lockdown Anchor`: the two skills furthest above the usual. */
export function archetypeOf(vector: Uint8Array): string {
  const ranked = SKILL_INDEXES.map(([style, indexes, baseline]) => {
    let sum = 0;
    for (const i of indexes) sum += vector[i] ?? 0;
    return { style, margin: sum / indexes.length - baseline };
  }).sort((a, b) => b.margin - a.margin);
  const [first, second, third] = ranked;
  if (first === undefined || second === undefined || third === undefined) return "Role Player";
  if (third.margin >= 10 && first.margin - third.margin <= 6) {
    return first.style === "play" || second.style === "play" ? "All-Around Playmaker" : "3-Level Scoring Threat";
  }
  const pair = new Set([first.style, second.style]);
  if (pair.has("shoot") && pair.has("perD")) return "3 & D Wing";
  if (pair.has("shoot") && pair.has("slash")) return "Inside-Out Scoring Threat";
  const noun = first.style === "shoot" && (vector[BASE_KEYS.indexOf("ballHandle")] ?? 0) >= 78 ? "Shot Creator" : ARCHETYPE_NOUN[first.style];
  return second.margin > 0 ? `${ARCHETYPE_ADJECTIVE[second.style]} ${noun}` : noun;
}

