// The naive oracle: plain objects, filter and sort, exactly as the contract words it.

import { ATTRIBUTE_KEYS } from "../../src/model/attributes.js";
import { BADGES, BADGE_TIERS } from "../../src/model/badges.js";
import { foldName } from "../../src/model/names.js";
import { ERAS } from "../../src/model/eras.js";
import { POSITION_BIT, knownPositions } from "../../src/model/positions.js";
import type { PlayerRecord } from "../../src/model/player.js";
import type { PlayerQuery } from "../../src/query/plan.js";

/** The texts behind the query's archetype and college codes, compared here as the contract words it. */
export interface OracleTexts {
  archetype?: string;
  college?: string;
}

/** The words a name is found by: its folded words, plus each hyphenated part written together. */
function nameWords(name: string): string[] {
  const words = foldName(name).split(" ");
  for (const chunk of name.split(/\s+/)) {
    const together = foldName(chunk).replace(/ /g, "");
    if (together.length > 0 && !words.includes(together)) words.push(together);
  }
  return words;
}

export function oracle(players: readonly PlayerRecord[], teamNames: (code: number) => string, query: PlayerQuery, texts: OracleTexts = {}): PlayerRecord[] {
  const searchWords = query.search === null ? [] : foldName(query.search).split(" ");
  const matches = players.filter((player) => {
    if ((query.eraMask & (1 << ERAS.indexOf(player.teamType))) === 0) return false;
    if (query.search !== null && !searchWords.every((word) => nameWords(player.name).some((nameWord) => nameWord.startsWith(word)))) return false;
    if (texts.archetype !== undefined && player.archetype?.toLowerCase() !== texts.archetype.toLowerCase()) return false;
    if (texts.college !== undefined && player.college?.toLowerCase() !== texts.college.toLowerCase()) return false;
    if (query.teamCodes !== null && !query.teamCodes.some((code) => teamNames(code) === `${player.teamType}/${player.team}`)) return false;
    if (player.overall < query.minOverall || player.overall > query.maxOverall) return false;
    if (query.positionMask !== 0 && !knownPositions(player.positions).some((position) => (POSITION_BIT[position] & query.positionMask) !== 0)) return false;
    for (const bound of query.attributeBounds) {
      const value = player.attributes[ATTRIBUTE_KEYS[bound.column]!];
      if (value === undefined || value < bound.min || value > bound.max) return false;
    }
    const list = player.badges.list ?? [];
    const tier = query.badgeTier === 0 ? undefined : BADGE_TIERS[query.badgeTier - 1];
    if (query.badge >= 0) {
      const held = list.find((badge) => badge.slug === BADGES[query.badge]!.slug);
      if (!held || (tier !== undefined && held.tier !== tier)) return false;
    } else if (tier !== undefined && !list.some((badge) => badge.tier === tier)) {
      return false;
    }
    return true;
  });
  const byName = (a: PlayerRecord, b: PlayerRecord) =>
    cmp(foldName(a.name), foldName(b.name)) || cmp(a.name, b.name) || cmp(a._id, b._id);
  const valueOf = (player: PlayerRecord): number | undefined =>
    query.sortKey === "overall" ? player.overall : query.sortKey === "name" ? 0 : player.attributes[ATTRIBUTE_KEYS[query.sortKey]!];
  return matches.sort((a, b) => {
    if (query.sortKey === "name") return query.isDescending ? byName(b, a) : byName(a, b);
    const va = valueOf(a);
    const vb = valueOf(b);
    if (va === undefined || vb === undefined) return (va === undefined ? 1 : 0) - (vb === undefined ? 1 : 0) || byName(a, b);
    return (query.isDescending ? vb - va : va - vb) || byName(a, b);
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
