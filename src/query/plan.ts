// A validated player query, in column terms: what parse produces and execute consumes.

export interface AttributeBound {
  column: number;
  min: number;
  max: number;
}

/** `overall`, `name`, or an attribute column index. */
export type SortKey = "overall" | "name" | number;

export interface PlayerQuery {
  /** Bit (1 << ERA_CODE) per era in scope. */
  eraMask: number;
  /** Position bits; a row matches when it holds any of them. 0 = any position. */
  positionMask: number;
  /** Team codes in scope, or null for every team. */
  teamCodes: readonly number[] | null;
  /** Name search: every word the start of a name word (folded text), or null for no search. */
  search: string | null;
  /** Dictionary codes of the archetype and college wanted (Edition.archetypes / colleges), or -1 for any. */
  archetypeCode: number;
  collegeCode: number;
  minOverall: number;
  maxOverall: number;
  /** A row lacking the attribute never satisfies a bound on it. */
  attributeBounds: readonly AttributeBound[];
  /** Badge index, or -1. */
  badge: number;
  /** Tier code 1–5, or 0: with `badge` the exact tier held, alone "holds any badge of that tier". */
  badgeTier: number;
  sortKey: SortKey;
  isDescending: boolean;
}

export const ALL_ERAS_MASK = 0b111;

export function defaultQuery(): PlayerQuery {
  return {
    eraMask: 1, positionMask: 0, teamCodes: null, search: null, archetypeCode: -1, collegeCode: -1, minOverall: 0, maxOverall: 99,
    attributeBounds: [], badge: -1, badgeTier: 0, sortKey: "overall", isDescending: true,
  };
}
