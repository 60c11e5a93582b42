// People of the demo data: name, body, school, playing style and lifelong rating offsets. A
// person is drawn once, from a stream of their own, and then appears on any number of rosters.

import { slugify } from "../../model/names.js";
import { isPosition, type Position } from "../../model/positions.js";
import { BADGE_COUNT } from "../../model/badges.js";
import { HOT_ZONE_KEYS } from "../../model/player.js";
import type { PersonSpec } from "./legends.js";
import {
  CLASSIC_COLLEGES, CLASSIC_FIRST, CLASSIC_LAST, CLUBS, COLLEGES, INTERNATIONAL_FIRST, INTERNATIONAL_LAST,
  MODERN_FIRST, MODERN_LAST, NAME_SUFFIXES, PREP_PATHS,
} from "./pools.js";
import { Random, mixSeed } from "./random.js";
import { POSITION_HEIGHT, STYLES, drawPersonal, type RatingSubject, type Style } from "./ratings.js";

export interface Body {
  readonly positions: readonly Position[];
  readonly heightIn: number;
  readonly weightLb: number;
  readonly wingspanIn: number | undefined;
}

export interface Person extends RatingSubject, Body {
  /** Creation order; seeds every stream of this person. */
  readonly id: number;
  readonly name: string;
  readonly college: string | undefined;
  readonly born: number;
  /** The overall at their best. */
  readonly peak: number;
  readonly retireAge: number;
  readonly isFamous: boolean;
  readonly badgeLuck: Int8Array;
  readonly zoneLuck: Int8Array;
}

export type NameStyle = "modern" | "international" | "classic";

const HEIGHT_RANGE: Readonly<Record<Position, readonly [number, number]>> = {
  PG: [72, 77], SG: [75, 79], SF: [77, 81], PF: [78, 82], C: [80, 85],
};
const BASE_WEIGHT: Readonly<Record<Position, number>> = { PG: 188, SG: 200, SF: 215, PF: 232, C: 252 };
const SECOND_POSITIONS: Readonly<Record<Position, readonly Position[]>> = {
  PG: ["SG"], SG: ["PG", "SF"], SF: ["SG", "PF"], PF: ["SF", "C"], C: ["PF"],
};
/** How likely each style leads, by position (STYLES order). */
const STYLE_WEIGHTS: Readonly<Record<Position, readonly number[]>> = {
  PG: [3, 3, 0, 4, 2, 0, 0, 1],
  SG: [4, 3, 0, 1, 3, 0, 0, 1],
  SF: [3, 3, 1, 1, 3, 0, 0, 2],
  PF: [2, 2, 2, 0.5, 0.5, 2, 3, 1],
  C: [1, 0.5, 2, 0.5, 0, 4, 4, 0.5],
};

/** `6'9"` ↔ 81 inches. */
export function formatInches(inches: number): string {
  return `${Math.floor(inches / 12)}'${inches % 12}"`;
}

function parseInches(text: string): number {
  const match = /^(\d+)'(\d{1,2})"$/.exec(text);
  if (match === null) throw new Error(`demo people: bad height ${text}`);
  return Number(match[1]) * 12 + Number(match[2]);
}

/** A body for the position: height in the position's range, weight and wingspan to match. */
export function drawBody(random: Random, primary: Position, hasWingspan: boolean): Body {
  const [low, high] = HEIGHT_RANGE[primary];
  const heightIn = Math.round((random.int(low, high) + random.int(low, high)) / 2);
  const seconds = SECOND_POSITIONS[primary];
  const positions: Position[] = random.chance(0.55) ? [primary, random.pick(seconds)] : [primary];
  const rawWeight = BASE_WEIGHT[primary] + (heightIn - POSITION_HEIGHT[primary]) * 7 + 12 * random.normal();
  const weightLb = random.chance(0.6) ? Math.round(rawWeight / 5) * 5 : Math.round(rawWeight);
  const wingspanIn = hasWingspan ? heightIn + Math.max(-2, Math.round(3 + 2.2 * random.normal())) : undefined;
  return { positions, heightIn, weightLb, wingspanIn };
}

/** Style tilts: one leading style, a second, small traces of the rest. */
export function drawStyle(random: Random, primary: Position): Float32Array {
  const style = Float32Array.from(STYLES, () => 0.35 * random.normal());
  const lead = random.weighted(STYLE_WEIGHTS[primary]);
  let second = random.weighted(STYLE_WEIGHTS[primary]);
  if (second === lead) second = (lead + 1 + random.int(0, STYLES.length - 2)) % STYLES.length;
  style[lead] = 1 + 1.5 * random.next();
  style[second] = 0.3 + random.next();
  return style;
}

function parseStyle(text: string): Float32Array {
  const style = new Float32Array(STYLES.length);
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i + 1 < words.length; i += 2) {
    const index = STYLES.findIndex((name: Style) => name === words[i]);
    if (index < 0) throw new Error(`demo people: unknown style ${words[i]}`);
    style[index] = Number(words[i + 1]);
  }
  return style;
}

function drawLuck(random: Random, length: number, spread: number): Int8Array {
  return Int8Array.from({ length }, () => Math.round(spread * random.normal()));
}

export function drawSchool(random: Random, nameStyle: NameStyle, born: number): string | undefined {
  if (nameStyle === "international") {
    const roll = random.next();
    return roll < 0.5 ? undefined : roll < 0.85 ? random.pick(CLUBS) : random.pick(COLLEGES);
  }
  if (nameStyle === "classic") return random.chance(0.97) ? random.pick(CLASSIC_COLLEGES) : undefined;
  return born >= 2001 && random.chance(0.06) ? random.pick(PREP_PATHS) : random.pick(COLLEGES);
}

export interface GenerateOptions {
  readonly nameStyle: NameStyle;
  readonly position: Position;
  readonly born: number;
  readonly peak: number;
  /** Wingspans were not measured in the early eras. */
  readonly hasWingspan?: boolean;
}

/** Every person of one generation run; names are unique by slug across the pool. */
export class PersonPool {
  private readonly seed: number;
  private readonly takenSlugs = new Set<string>();
  private readonly byName = new Map<string, Person>();
  private count = 0;

  constructor(seed: number) {
    this.seed = seed;
  }

  find(name: string): Person | undefined {
    return this.byName.get(name);
  }

  famous(spec: PersonSpec): Person {
    const [name, positionText, height, weightLb, school, born, peak, styleText] = spec;
    const positions = positionText.split(" ").filter(isPosition);
    const random = this.nextStream();
    const person: Person = {
      id: this.count - 1, name, positions, heightIn: parseInches(height), weightLb,
      wingspanIn: parseInches(height) + random.int(2, 6), college: school ?? undefined, born, peak,
      retireAge: 40, isFamous: true, style: parseStyle(styleText), personal: halve(drawPersonal(random)),
      badgeLuck: drawLuck(random, BADGE_COUNT, 1.5), zoneLuck: drawLuck(random, HOT_ZONE_KEYS.length, 3),
    };
    this.remember(person);
    return person;
  }

  generate(options: GenerateOptions): Person {
    const random = this.nextStream();
    const body = drawBody(random, options.position, options.hasWingspan ?? true);
    const person: Person = {
      id: this.count - 1, name: this.drawName(random, options.nameStyle), ...body,
      college: drawSchool(random, options.nameStyle, options.born), born: options.born, peak: options.peak,
      retireAge: 31 + random.int(0, 6) + (options.peak >= 85 ? 2 : 0), isFamous: false,
      style: drawStyle(random, options.position), personal: drawPersonal(random),
      badgeLuck: drawLuck(random, BADGE_COUNT, 2.5), zoneLuck: drawLuck(random, HOT_ZONE_KEYS.length, 4),
    };
    this.remember(person);
    return person;
  }

  private nextStream(): Random {
    this.count += 1;
    return new Random(mixSeed(this.seed, 0x9e0b1e, this.count - 1));
  }

  private remember(person: Person): void {
    this.takenSlugs.add(slugify(person.name));
    this.byName.set(person.name, person);
  }

  private drawName(random: Random, nameStyle: NameStyle): string {
    for (let attempt = 0; ; attempt++) {
      const name = `${drawFirst(random, nameStyle)} ${drawLast(random, nameStyle)}`;
      const full = attempt >= 12 || random.chance(0.02) ? `${name} ${random.pick(NAME_SUFFIXES)}` : name;
      if (!this.takenSlugs.has(slugify(full))) return full;
    }
  }
}

function drawFirst(random: Random, nameStyle: NameStyle): string {
  if (nameStyle === "international") return random.pick(INTERNATIONAL_FIRST);
  if (nameStyle === "classic") return random.pick(random.chance(0.8) ? CLASSIC_FIRST : MODERN_FIRST);
  return random.pick(MODERN_FIRST);
}

function drawLast(random: Random, nameStyle: NameStyle): string {
  if (nameStyle === "international") return random.pick(INTERNATIONAL_LAST);
  if (nameStyle === "classic") return random.pick(random.chance(0.7) ? CLASSIC_LAST : MODERN_LAST);
  return random.pick(MODERN_LAST);
}

/** Famous people keep their styles recognisable: half the usual personal noise. */
function halve(values: Int8Array): Int8Array {
  return values.map((value) => Math.round(value / 2));
}
