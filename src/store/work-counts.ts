// Always-on counts of the per-request work a client's input can drive: handlers run, identifiers
// looked up, name searches and the postings they visit, suggestion candidates scored, pipelined requests held. Plain integer
// fields bumped in place (no allocation, nothing else on the request path), per thread, never
// reset. Tests read them to prove work bounds by counting, not by clocks
// (test/http/bounded-work.test.ts); nothing in the service branches on them.

export const workCounts = {
  /** Requests handed to a route's handler (past routing, the length limits, the key and the parameters). */
  handlerCalls: 0,
  /** Player identifiers looked up in an edition: slugs (Edition.rowsForSlug) and folded names (rowsWithFoldedName). */
  identifierLookups: 0,
  /** Name-index queries (NameIndex.search and prefixMatches) that reached the index. */
  nameSearches: 0,
  /** (name word, row) postings a name-index query visited. */
  postingsVisited: 0,
  /** Candidates a "did you mean" suggestion scored with a banded edit distance (query/suggest.ts). */
  candidatesScored: 0,
  /** Pipelined requests an HTTP adapter held for a later turn, or (node:http) until the client read its answers. */
  requestsHeld: 0,
};

export type WorkCounts = typeof workCounts;

/** A copy of the counts now, to compare with later (tests). */
export function workCountsNow(): WorkCounts {
  return { ...workCounts };
}
