// Who plays where in each demo edition: current rosters simulated edition to edition (ageing,
// retirements, trades, free agency, drafts), classic team-seasons and all-time teams built once
// and shared by every edition. No ratings here; ratings.ts turns entries into numbers.

import type { Era } from "../../model/eras.js";
import { playerId, playerSlug } from "../../model/player.js";
import { POSITIONS, type Position } from "../../model/positions.js";
import { ALL_TIME_STARS, CLASSIC_SEASONS, CURRENT_STINTS, FAMOUS_PEOPLE } from "./legends.js";
import { PersonPool, type NameStyle, type Person } from "./people.js";
import { FRANCHISES, FREE_AGENCY, classicLogoUrl, currentLogoUrl } from "./pools.js";
import { Random, mixSeed } from "./random.js";

/** Edition years: 20 = 2K20 (season 2019-20) … 27 = 2K27 (season 2026-27). */
export const EDITION_YEARS = [20, 21, 22, 23, 24, 25, 26, 27] as const;

/** The calendar year a 2K edition's season starts in: 2K27 → 2026. */
export function seasonStartOf(year: number): number {
  return 1999 + year;
}

export interface RosterEntry {
  readonly person: Person;
  readonly teamType: Era;
  readonly team: string;
  readonly teamImg: string;
  /** Tag in the portrait's file name: empty for current rosters, the season or team otherwise. */
  readonly imageTag: string;
  readonly slug: string;
  readonly id: string;
  /** Last calendar year of the season the ratings depict. */
  readonly seasonEnd: number;
  /** The overall the entry aims at: fixed for classic and all-time entries, per edition for current ones. */
  readonly quality: number;
  /** The player's age in that season. */
  readonly age: number;
  /** A rookie the source has not fully scraped yet: an overall, no attributes, no badges. */
  readonly isUnscraped: boolean;
}

function makeEntry(
  person: Person, teamType: Era, team: string, teamImg: string, imageTag: string,
  seasonEnd: number, quality: number, isUnscraped: boolean,
): RosterEntry {
  const slug = playerSlug(person.name, teamType, team);
  const age = teamType === "allt" ? 27 : seasonEnd - 1 - person.born;
  return { person, teamType, team, teamImg, imageTag, slug, id: playerId(teamType, team, slug), seasonEnd, quality, age, isUnscraped };
}

/** Overall change by age, relative to the peak. */
export function ageCurve(age: number): number {
  if (age <= 25) return -Math.max(0, 25 - age) * 1.4;
  if (age <= 29) return 0;
  if (age <= 38) return -([0.5, 1.5, 2.5, 3.5, 5, 6.5, 8, 9.5, 11][age - 30] ?? 11);
  return -11 - 1.5 * (age - 38);
}

const MIN_ROSTER = 14;
export const AGE_WEIGHTS = [2, 4, 6, 8, 9, 9, 9, 8, 8, 7, 6, 5, 4, 3, 2, 2, 1]; // ages 19…35

export function drawPeak(random: Random, base: number): number {
  if (random.chance(0.03)) return random.int(88, 95);
  return Math.max(62, Math.min(95, Math.round(base + 4.5 * random.normal())));
}

/** The least-filled position (ties broken at random) keeps rosters balanced. */
function neededPosition(random: Random, roster: readonly Person[]): Position {
  const counts = POSITIONS.map((position) => roster.filter((person) => person.positions[0] === position).length);
  return POSITIONS[random.weighted(counts.map((count) => Math.max(0.2, 4 - count)))] ?? "SF";
}

interface AllTimeItem {
  readonly entry: RosterEntry;
  /** On the team in editions since ≤ year < until. */
  readonly since: number;
  readonly until: number;
}

export class RosterBuilder {
  readonly pool: PersonPool;
  private readonly random: Random;
  private readonly classicFranchise = new Map<string, string>();

  constructor(seed: number) {
    this.pool = new PersonPool(seed);
    this.random = new Random(mixSeed(seed, 0x0c0de));
    for (const spec of FAMOUS_PEOPLE) this.pool.famous(spec);
  }

  /** Every edition's entries, 2K20 first; within an edition current, classic, then all-time. */
  build(): RosterEntry[][] {
    const current = this.simulateCurrent();
    const classic = this.buildClassic();
    const allTime = this.buildAllTime(classic);
    return EDITION_YEARS.map((year, e) => [
      ...(current[e] ?? []),
      ...classic.filter((entry) => entry.seasonEnd <= seasonStartOf(year)),
      ...allTime.filter((item) => item.since <= year && year < item.until).map((item) => item.entry),
    ]);
  }

  private newCurrentPlayer(position: Position, born: number, base: number): Person {
    const nameStyle: NameStyle = this.random.chance(0.25) ? "international" : "modern";
    return this.pool.generate({ nameStyle, position, born, peak: drawPeak(this.random, base) });
  }

  private simulateCurrent(): RosterEntry[][] {
    const random = this.random;
    const teamOf = new Map<Person, string>();
    const firstEdition = new Map<Person, number>();
    const stints = CURRENT_STINTS.map(([name, teams]) => [this.person(name), teams] as const);
    return EDITION_YEARS.map((year, e) => {
      const start = seasonStartOf(year);
      for (const [person, teams] of stints) {
        const team = teams.filter(([from]) => from <= year).at(-1)?.[1];
        if (team === undefined) continue;
        teamOf.set(person, team);
        if (!firstEdition.has(person)) firstEdition.set(person, e);
      }
      if (e > 0) this.moveOn(teamOf, start);
      const rosters = new Map<string, Person[]>([...FRANCHISES, FREE_AGENCY].map((team) => [team, []]));
      for (const [person, team] of teamOf) rosters.get(team)?.push(person);
      const freeAgents = rosters.get(FREE_AGENCY) ?? [];
      const strength = (person: Person): number => person.peak + ageCurve(start - person.born);
      for (const team of FRANCHISES) this.fillRoster(rosters.get(team) ?? [], freeAgents, strength, e, start);
      this.trimFreeAgency(freeAgents, start);
      teamOf.clear();
      const entries: RosterEntry[] = [];
      for (const [team, roster] of rosters) {
        const teamImg = currentLogoUrl(team);
        let hasUnscraped = team === FREE_AGENCY;
        for (const person of roster) {
          teamOf.set(person, team);
          if (!firstEdition.has(person)) firstEdition.set(person, e);
          const age = start - person.born;
          const isRookie = !person.isFamous && firstEdition.get(person) === e && age <= (e === 0 ? 20 : 22);
          const isUnscraped = !hasUnscraped && isRookie && random.chance(0.2);
          hasUnscraped ||= isUnscraped;
          entries.push(makeEntry(person, "curr", team, teamImg, "", start + 1, 0, isUnscraped));
        }
      }
      return entries;
    });
  }

  /** Drafts (after the first edition), then cuts the weakest or signs free agents and newcomers up to 14–18. */
  private fillRoster(roster: Person[], freeAgents: Person[], strength: (person: Person) => number, e: number, start: number): void {
    const random = this.random;
    const target = MIN_ROSTER + random.weighted([1, 2, 4, 4, 2]);
    const picks = e === 0 ? 0 : Math.max(1, Math.min(2, target - roster.length));
    for (let n = 0; n < picks; n++) roster.push(this.newCurrentPlayer(neededPosition(random, roster), start - random.int(19, 22), 78));
    while (roster.length > target) {
      const cut = roster.filter((person) => !person.isFamous).sort((a, b) => strength(a) - strength(b))[0];
      if (cut === undefined) break;
      roster.splice(roster.indexOf(cut), 1);
      freeAgents.push(cut);
    }
    while (roster.length < target) {
      const signing = freeAgents.length > 0 && random.chance(0.5)
        ? freeAgents.filter((person) => !person.isFamous).sort((a, b) => strength(b) - strength(a))[0]
        : undefined;
      if (signing !== undefined) {
        freeAgents.splice(freeAgents.indexOf(signing), 1);
        roster.push(signing);
      } else {
        const age = e === 0 ? 19 + random.weighted(AGE_WEIGHTS) : random.int(22, 30);
        roster.push(this.newCurrentPlayer(neededPosition(random, roster), start - age, 78));
      }
    }
  }

  /** Free Agency keeps 12–24 players: the oldest leave the league, veterans arrive when it runs thin. */
  private trimFreeAgency(freeAgents: Person[], start: number): void {
    const random = this.random;
    const limit = random.int(14, 24);
    while (freeAgents.length > limit) {
      const oldest = freeAgents.filter((person) => !person.isFamous).sort((a, b) => a.born - b.born)[0];
      if (oldest === undefined) break;
      freeAgents.splice(freeAgents.indexOf(oldest), 1);
    }
    for (let target = random.int(12, 20); freeAgents.length < target;) {
      freeAgents.push(this.newCurrentPlayer(neededPosition(random, freeAgents), start - random.int(24, 34), 74));
    }
  }

  /** Between editions: retirements, trades, waivers and free-agent signings. */
  private moveOn(teamOf: Map<Person, string>, start: number): void {
    const random = this.random;
    for (const [person, team] of [...teamOf]) {
      if (person.isFamous) continue;
      const age = start - person.born;
      const roll = random.next();
      if (age > person.retireAge) teamOf.delete(person);
      else if (team === FREE_AGENCY) {
        if (roll < 0.4) teamOf.set(person, random.pick(FRANCHISES));
        else if (roll < 0.6 || age >= 33) teamOf.delete(person);
      } else if (roll < 0.15) teamOf.set(person, random.pick(FRANCHISES.filter((other) => other !== team)));
      else if (roll < 0.19) teamOf.set(person, FREE_AGENCY);
    }
  }

  private person(name: string): Person {
    const person = this.pool.find(name);
    if (person === undefined) throw new Error(`demo rosters: ${name} is not among the famous people`);
    return person;
  }

  private buildClassic(): RosterEntry[] {
    const random = this.random;
    const entries: RosterEntry[] = [];
    const pastFillers = new Map<string, { person: Person; quality: number; seasonEnd: number }[]>();
    for (const [season, teamName, renamedTo, stars] of CLASSIC_SEASONS) {
      const start = Number(season.slice(0, 4));
      const seasonEnd = start + 1;
      const franchise = renamedTo ?? teamName;
      const team = `${season} ${teamName}`;
      const teamImg = classicLogoUrl(season, teamName);
      const members = stars.map(([name, quality]) => ({ person: this.person(name), quality }));
      const size = Math.max(members.length + 3, 8 + random.weighted([1, 1, 2, 3, 6, 8]));
      const recent = (pastFillers.get(franchise) ?? []).filter((filler) => Math.abs(filler.seasonEnd - seasonEnd) <= 3);
      const fillers: { person: Person; quality: number; seasonEnd: number }[] = [];
      while (members.length < size) {
        const reused = random.chance(0.35) ? recent.find((filler) => !members.some((member) => member.person === filler.person)) : undefined;
        let member: { person: Person; quality: number };
        if (reused !== undefined) member = { person: reused.person, quality: Math.min(86, Math.max(60, reused.quality + random.int(-2, 2))) };
        else {
          const quality = members.length < 3 ? random.int(80, 85) : Math.max(60, Math.min(84, Math.round(72 + 5 * random.normal())));
          const nameStyle: NameStyle = random.chance(start >= 2005 ? 0.2 : start >= 1990 ? 0.12 : 0.02) ? "international"
            : start < 1985 || (start < 2005 && random.chance(0.5)) ? "classic" : "modern";
          const person = this.pool.generate({
            nameStyle, position: neededPosition(random, members.map((m) => m.person)), born: start - random.int(21, 34),
            peak: quality, hasWingspan: start >= 1980 || random.chance(0.3),
          });
          member = { person, quality };
        }
        members.push(member);
        fillers.push({ ...member, seasonEnd });
      }
      pastFillers.set(franchise, [...(pastFillers.get(franchise) ?? []), ...fillers]);
      for (const { person, quality } of members) {
        entries.push(makeEntry(person, "class", team, teamImg, season, seasonEnd, quality, false));
      }
      this.classicFranchise.set(team, franchise);
    }
    return entries;
  }

  /** All-time entries, each with the first edition year that has it (later stars push out the last fillers). */
  private buildAllTime(classic: readonly RosterEntry[]): AllTimeItem[] {
    const random = this.random;
    const result: AllTimeItem[] = [];
    for (const franchise of FRANCHISES) {
      const team = `All-Time ${franchise}`;
      const teamImg = currentLogoUrl(franchise);
      const tag = `All-Time-${franchise}`;
      const stars = (ALL_TIME_STARS[franchise] ?? []).map(([name, quality, since]) => ({ person: this.person(name), quality, since: since ?? 20 }));
      const size = Math.max(stars.length, 14 + random.weighted([1, 3, 4, 4]));
      const onTeam = new Set(stars.map((star) => star.person));
      const candidates = classic
        .filter((entry) => !entry.person.isFamous && this.classicFranchise.get(entry.team) === franchise)
        .sort((a, b) => b.quality - a.quality);
      const fillers: { person: Person; quality: number }[] = [];
      const openings = size - stars.filter((star) => star.since <= 20).length;
      while (fillers.length < openings) {
        const reused = random.chance(0.55) ? candidates.find((entry) => !onTeam.has(entry.person)) : undefined;
        let filler: { person: Person; quality: number };
        if (reused !== undefined) filler = { person: reused.person, quality: Math.min(90, Math.max(80, reused.quality + 6)) };
        else {
          const quality = Math.max(79, Math.min(90, Math.round(84 + 3 * random.normal())));
          const nameStyle: NameStyle = random.chance(0.15) ? "international" : random.chance(0.6) ? "classic" : "modern";
          const position = neededPosition(random, [...onTeam]);
          filler = { person: this.pool.generate({ nameStyle, position, born: random.int(1940, 1996), peak: quality }), quality };
        }
        onTeam.add(filler.person);
        fillers.push(filler);
      }
      for (const star of stars) {
        result.push({ entry: makeEntry(star.person, "allt", team, teamImg, tag, star.person.born + 28, star.quality, false), since: star.since, until: 99 });
      }
      // The k-th filler from the end leaves in the edition where the k-th late star arrives.
      const arrivals = stars.map((star) => star.since).filter((since) => since > 20).sort((a, b) => a - b);
      fillers.forEach((filler, i) => {
        const fromEnd = fillers.length - 1 - i;
        const until = arrivals[fromEnd] ?? 99;
        const entry = makeEntry(filler.person, "allt", team, teamImg, tag, filler.person.born + 28, filler.quality, false);
        result.push({ entry, since: 20, until });
      });
    }
    return result;
  }
}
