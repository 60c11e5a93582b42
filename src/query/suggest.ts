// "Did you mean" suggestions, bounded by construction: only for text of plausible length
// (SUGGEST_MAX_LENGTH), with an edit distance computed in a band that stops at its bound, over
// either a short fixed list (parameter names, badge slugs, team names) or, for player slugs, the
// candidates the name index finds (a trie walk), never the edition's every slug. A slug miss costs at
// most MAX_NAME_SEARCHES_PER_SLUG name searches and MAX_CANDIDATES_PER_SLUG candidates (each checked
// by one slug lookup and scored by one banded distance), whatever the text or the edition's size;
// workCounts counts both (test/http/bounded-work.test.ts).

import { ALL_ERAS_MASK } from "./plan.js";
import type { Edition } from "../store/edition.js";
import { workCounts } from "../store/work-counts.js";

/** Longer text gets no suggestion: nothing that long is a typo of a name, a slug or a parameter. */
export const SUGGEST_MAX_LENGTH = 64;
/** The widest edit distance ever searched (a 64-character text would otherwise allow 21). */
const MAX_BOUND = 8;
/** Player-name candidates read from the name index per slug miss. */
const SLUG_CANDIDATES = 20;
/** Words of a slug looked up in the name index (more only multiply the search's work). */
const SLUG_WORDS = 4;
/** Name searches per slug miss: every word together, then (when that finds nobody) each word alone. */
export const MAX_NAME_SEARCHES_PER_SLUG = 1 + SLUG_WORDS;
/** Candidate rows per slug miss: SLUG_CANDIDATES from the one search, or from each word's. */
export const MAX_CANDIDATES_PER_SLUG = SLUG_WORDS * SLUG_CANDIDATES;

let previousRow = new Int32Array(SUGGEST_MAX_LENGTH + 2);
let currentRow = new Int32Array(SUGGEST_MAX_LENGTH + 2);

/**
 * Levenshtein distance of `a` and `b` when it is at most `bound`, otherwise `bound + 1`: only the
 * cells within `bound` of the diagonal are computed, and it stops at the first row all over the
 * bound, so the cost is O(bound × length), never O(length²).
 */
export function boundedEditDistance(a: string, b: string, bound: number): number {
  const over = bound + 1;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > bound) return over;
  if (m + 2 > previousRow.length) {
    previousRow = new Int32Array(m + 2);
    currentRow = new Int32Array(m + 2);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= m; j++) previous[j] = j <= bound ? j : over;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - bound);
    const hi = Math.min(m, i + bound);
    // The cell left of the band: column 0 is i edits; any other lies outside the band.
    current[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let rowMin = current[lo - 1] as number;
    const code = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const substitute = (previous[j - 1] as number) + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const value = Math.min(substitute, (previous[j] as number) + 1, (current[j - 1] as number) + 1, over);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // The cell right of the band, read by the next row as "above".
    if (hi < m) current[hi + 1] = over;
    if (rowMin > bound) return over;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return Math.min(previous[m] as number, over);
}

/** The distance allowed for a text of this length: a third of it, at least 2, at most MAX_BOUND. */
function boundFor(length: number): number {
  return Math.min(MAX_BOUND, Math.max(2, Math.floor(length / 3)));
}

/**
 * The closest of a short fixed list (any case): within the bound for the text's length, or
 * containing the text; nearest first, then shorter, then in code order. Empty for text longer than
 * SUGGEST_MAX_LENGTH. The list must be a vocabulary (parameters, badges, teams), never the rows.
 */
export function closest(text: string, candidates: Iterable<string>, count = 3): string[] {
  const folded = text.toLowerCase();
  if (folded.length === 0 || folded.length > SUGGEST_MAX_LENGTH) return [];
  return nearest(folded, candidates, count, true);
}

/** `candidates` by distance to `folded` (capped at its bound), then length, then code order; with `isFiltered` only those within the bound or containing the text. */
function nearest(folded: string, candidates: Iterable<string>, count: number, isFiltered: boolean): string[] {
  const bound = boundFor(folded.length);
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    workCounts.candidatesScored++;
    const distance = boundedEditDistance(folded, lower, bound);
    if (!isFiltered || distance <= bound || lower.includes(folded)) scored.push({ candidate, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.candidate.length - b.candidate.length || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

/**
 * Player slugs close to `slug`, for a 404: the players the name index finds for the slug's words
 * (prefix and one-typo matches; each word alone when all of them together find nobody), as the
 * slugs of their names, checked to resolve, nearest to the text first. Empty for text longer than
 * SUGGEST_MAX_LENGTH.
 */
export function suggestSlugs(edition: Edition, slug: string, count = 3): string[] {
  const folded = slug.toLowerCase();
  if (folded.length === 0 || folded.length > SUGGEST_MAX_LENGTH) return [];
  const words = folded.split(/[^a-z0-9]+/).filter((word) => word.length > 0).slice(0, SLUG_WORDS);
  if (words.length === 0) return [];
  let rows = edition.nameIndex.search(words.join(" "), ALL_ERAS_MASK, SLUG_CANDIDATES).rows;
  if (rows.length === 0 && words.length > 1) {
    // A word past the index's one-typo rule (a swapped pair) hides the player: each word alone.
    rows = words.filter((word) => word.length >= 3).flatMap((word) => edition.nameIndex.search(word, ALL_ERAS_MASK, SLUG_CANDIDATES).rows);
  }
  const slugs = new Set<string>();
  for (const row of rows) {
    const nameSlug = edition.foldedName(row).replace(/ /g, "-");
    if (nameSlug.length > 0 && edition.rowsForSlug(nameSlug, ALL_ERAS_MASK).length > 0) slugs.add(nameSlug);
  }
  // Every candidate is already a name match: rank them all, drop none.
  return nearest(folded, slugs, count, false);
}
