// The player-name search of one edition (docs/design-decisions.md#name-search-ranking): candidates from a trie of name words
// (prefix and one-edit typo matches) over postings lists, ranked in tiers. The words, postings,
// trie and exact-name tables are computed at build time (buildSearchData) and stored in the
// snapshot as flat arrays; at load the index is views over them plus per-thread scratch arrays
// allocated on the first query. A query is synchronous and never scans the rows or their names.
//
// Format 1 rebuilt this at load, with a FlexSearch forward index for tier 2: ~10–30 ms per demo
// edition, ~10 s for a million names. Tier 2 ("every query word starts some name word") is a
// range of the sorted tokens per word (the subtree of the word's trie node), so it needs no
// second index.
//
//   query, whole search with ranking, limit 50, p50 / p99: one name word 5–12 / 17–70 µs;
//     two words 7–23 / 14–100 µs (one 395 µs p99 under load); a typo'd word 4–8 / 5–12 µs;
//     `j` (381 matches) 16–19 / 71–122 µs; no match 2.6 / 3–6 µs.
//
// Matching rules, per query word (words come from foldName, so case, accents, apostrophes and
// punctuation never matter): a name word is every word of the folded name plus, for a
// hyphenated part of the display name, the parts written together (`gilgeousalexander`).
//   tier 1  the folded query is the folded full name (hyphenated parts apart or together);
//   tier 2  every query word is the start of some name word, any order;
//   tier 3  every query word is within one letter (wrong, missing or extra) of the start of
//           some name word (trie walk). Words of 1–2 letters only match as starts (one edit
//           away from a 2-letter word is nearly everything); 3-letter words match a whole
//           name word within one edit or a start exactly; from 4 letters on, any start within
//           one edit (`jokc` → jokic, `antetokounpo` → antetokounmpo, `cury` → curry).
// Within a tier: overall descending, then name rank.

import { foldAccents, foldName } from "../model/names.js";
import type { PlayerRecord } from "../model/player.js";
import type { SnapshotColumns, SortOrders } from "./edition-tables.js";
import { buildRowGroups, rowsOfKey, type RowGroups } from "./string-table.js";
import { workCounts } from "./work-counts.js";

/** A trie over sorted, distinct tokens; node 0 is the root, a node's subtree holds the tokens [subtreeFirst, subtreeEnd). */
export interface TrieData {
  nodeChar: Uint8Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  subtreeFirst: Uint32Array;
  subtreeEnd: Uint32Array;
  tokenAtNode: Int32Array;
}

/** The name search as a snapshot stores it, built at build time (buildSearchData). */
export interface SearchData extends TrieData {
  /** Folded full names → rows; `foldedOfRow[row]` is the row's key in it. */
  folded: RowGroups;
  foldedOfRow: Uint32Array;
  /** Names with hyphenated parts written together (`shai gilgeousalexander`), where that differs. */
  joined: RowGroups;
  /** Distinct name words in sorted order; rows of token t are postingRows[postingStart[t] … postingStart[t + 1]). */
  postingStart: Uint32Array;
  postingRows: Uint32Array;
  // …and the trie over those tokens (TrieData).
}

export interface NameSearchResult {
  rows: number[];
  /** Every match in the era scope, not just the page. */
  total: number;
}

/** More words than this cannot come from a 100-character query anyway; the rest are ignored. */
const MAX_QUERY_WORDS = 64;
/** Sort key = ((tier * 256 + (255 - overall)) * 2^32) + nameRank: one numeric sort, no comparator. */
const RANK_SPAN = 2 ** 32;
const TIER_EXACT = 1;
const TIER_PREFIX = 2;
const TIER_TYPO = 3;
const NO_TOKEN = -1;
const NO_ROWS = new Uint32Array(0);

export class NameIndex {
  readonly rowCount: number;
  private readonly era: Uint8Array;
  private readonly overall: Uint8Array;
  private readonly nameRank: Uint32Array;
  private readonly rowByNameRank: Uint32Array;
  private readonly data: SearchData;

  /** Distinct name words, sorted, and their rows (CSR: rows of token t are postingRows[postingStart[t] … postingStart[t + 1])). */
  private readonly postingStart: Uint32Array;
  private readonly postingRows: Uint32Array;

  /** Trie over the sorted tokens; a node's subtree holds the tokens [subtreeFirst, subtreeEnd). */
  private readonly nodeChar: Uint8Array;
  private readonly firstChild: Int32Array;
  private readonly nextSibling: Int32Array;
  private readonly subtreeFirst: Uint32Array;
  private readonly subtreeEnd: Uint32Array;
  /** The token that ends at a node, or NO_TOKEN. */
  private readonly tokenAtNode: Int32Array;

  // Scratch state of one query, per thread (allocated on the first query). Search is synchronous,
  // so one set per index suffices; each query leaves every array as it found it (zeroed) by
  // resetting only the rows it touched.
  /** How many query words in a row have matched so far (a row counts for word w only if it matched words 0 … w-1). */
  private wordsMatched = new Uint8Array(0);
  private tierOfRow = new Uint8Array(0);
  private touchedRows = new Uint32Array(0);
  private sortKeys = new Float64Array(0);
  /** tokenStamp[t] === stamp: token t already applied for the current query word. */
  private tokenStamp = new Uint32Array(0);
  private stamp = 0;
  private touchedCount = 0;
  /** Rows the current word moved on (to end the query early when a word matches nothing). */
  private advancedCount = 0;
  private wordIndex = 0;
  private eraMask = 0;
  /** Tier-2 pass: only rows of this tier take part. */
  private requiredTier = 0;
  private queryCodes = new Uint8Array(128);
  private queryLength = 0;

  constructor(data: SearchData, columns: SnapshotColumns, sortOrders: SortOrders) {
    this.data = data;
    this.rowCount = columns.overall.length;
    this.era = columns.era;
    this.overall = columns.overall;
    this.nameRank = columns.nameRank;
    this.rowByNameRank = sortOrders.name;
    this.postingStart = data.postingStart;
    this.postingRows = data.postingRows;
    this.nodeChar = data.nodeChar;
    this.firstChild = data.firstChild;
    this.nextSibling = data.nextSibling;
    this.subtreeFirst = data.subtreeFirst;
    this.subtreeEnd = data.subtreeEnd;
    this.tokenAtNode = data.tokenAtNode;
  }

  private ensureScratch(): void {
    if (this.wordsMatched.length === this.rowCount && this.tokenStamp.length === this.postingStart.length - 1) return;
    this.wordsMatched = new Uint8Array(this.rowCount);
    this.tierOfRow = new Uint8Array(this.rowCount);
    this.touchedRows = new Uint32Array(this.rowCount);
    this.sortKeys = new Float64Array(this.rowCount);
    this.tokenStamp = new Uint32Array(Math.max(0, this.postingStart.length - 1));
  }

  /**
   * Rows matching `query` within the eras of `eraMask` (bit 1 << ERA_CODE per era), best first,
   * at most `limit` of them; `total` counts every match in scope.
   */
  search(query: string, eraMask: number, limit: number): NameSearchResult {
    const folded = foldName(query);
    if (folded.length === 0 || (eraMask & 0b111) === 0 || this.rowCount === 0) return { rows: [], total: 0 };
    let words = folded.split(" ");
    if (words.length > MAX_QUERY_WORDS) words = words.slice(0, MAX_QUERY_WORDS);
    workCounts.nameSearches++;
    this.ensureScratch();
    try {
      return this.rankMatches(words, folded, eraMask, limit);
    } finally {
      this.clearTouched();
    }
  }

  /**
   * Rows where every word of `query` is the start of some name word (tier 2's rule: the `search`
   * filter of the listing routes), within the eras of `eraMask`, unranked, in no set order. The
   * answer is a view of this index's scratch, valid until its next query: read it at once.
   */
  prefixMatches(query: string, eraMask: number): Uint32Array {
    const folded = foldName(query);
    if (folded.length === 0 || (eraMask & 0b111) === 0 || this.rowCount === 0) return NO_ROWS;
    let words = folded.split(" ");
    if (words.length > MAX_QUERY_WORDS) words = words.slice(0, MAX_QUERY_WORDS);
    workCounts.nameSearches++;
    this.ensureScratch();
    this.eraMask = eraMask;
    this.touchedCount = 0;
    try {
      for (let w = 0; w < words.length; w++) {
        this.wordIndex = w;
        this.nextStamp();
        this.loadQueryWord(words[w] as string);
        this.advancedCount = 0;
        // No edit allowed, whole subtrees taken: exactly "the word starts a name word".
        this.walk(0, 0, true, true);
        if (this.advancedCount === 0) return NO_ROWS;
      }
      // Keep the rows every word reached, compacting touchedRows in place while clearing their
      // scratch state (a kept row's slot is never ahead of the one being read).
      let kept = 0;
      for (let i = 0; i < this.touchedCount; i++) {
        const row = this.touchedRows[i] as number;
        if (this.wordsMatched[row] === words.length) this.touchedRows[kept++] = row;
        this.wordsMatched[row] = 0;
      }
      this.touchedCount = 0;
      return this.touchedRows.subarray(0, kept);
    } finally {
      this.clearTouched();
    }
  }

  private rankMatches(words: readonly string[], folded: string, eraMask: number, limit: number): NameSearchResult {
    this.eraMask = eraMask;
    this.touchedCount = 0;
    this.requiredTier = 0;

    // Every match, at the loosest tier (3): the rows that every word reaches within one edit.
    for (let w = 0; w < words.length; w++) {
      this.wordIndex = w;
      this.nextStamp();
      this.loadQueryWord(words[w] as string);
      this.advancedCount = 0;
      this.matchWord();
      if (this.advancedCount === 0) return { rows: [], total: 0 };
    }
    const wordCount = words.length;
    let total = 0;
    for (let i = 0; i < this.touchedCount; i++) {
      const row = this.touchedRows[i] as number;
      if (this.wordsMatched[row] === wordCount) {
        this.tierOfRow[row] = TIER_TYPO;
        total++;
      }
    }

    // Tier 2: every word the start of some name word, in any order. The tokens a word starts are
    // the subtree of its trie node; a second pass of the counting above, over those tokens and
    // only the rows already matched, so it can never widen the match set. A word that starts no
    // name word at all (a typo) leaves tier 2 empty.
    if (words.every((word) => this.startsSomeToken(word))) {
      for (let i = 0; i < this.touchedCount; i++) this.wordsMatched[this.touchedRows[i] as number] = 0;
      this.requiredTier = TIER_TYPO;
      for (let w = 0; w < wordCount; w++) {
        this.wordIndex = w;
        this.nextStamp();
        const node = this.nodeOf(words[w] as string);
        this.applyTokens(this.subtreeFirst[node] as number, this.subtreeEnd[node] as number);
      }
      this.requiredTier = 0;
      for (let i = 0; i < this.touchedCount; i++) {
        const row = this.touchedRows[i] as number;
        if (this.wordsMatched[row] === wordCount) this.tierOfRow[row] = TIER_PREFIX;
      }
    }
    // Tier 1: the whole name, apart or with hyphenated parts together.
    for (const rows of [rowsOfKey(this.data.folded, folded), rowsOfKey(this.data.joined, folded)]) {
      for (const row of rows ?? []) {
        if (this.tierOfRow[row] !== 0) this.tierOfRow[row] = TIER_EXACT;
      }
    }
    // One numeric sort of packed keys: tier, then overall desc, then name rank.
    let k = 0;
    for (let i = 0; i < this.touchedCount; i++) {
      const row = this.touchedRows[i] as number;
      const tier = this.tierOfRow[row] as number;
      if (tier === 0) continue;
      this.sortKeys[k++] = (tier * 256 + 255 - (this.overall[row] as number)) * RANK_SPAN + (this.nameRank[row] as number);
    }
    const keys = this.sortKeys.subarray(0, k).sort();
    const count = Math.min(Math.max(0, Math.floor(limit) || 0), k);
    const rows = new Array<number>(count);
    for (let i = 0; i < count; i++) rows[i] = this.rowByNameRank[(keys[i] as number) % RANK_SPAN] as number;
    return { rows, total };
  }

  /** Whether `word` is the start of some name word. */
  private startsSomeToken(word: string): boolean {
    return this.nodeOf(word) >= 0;
  }

  /** The trie node reached by `word` without edits (its subtree: the tokens it starts), or -1. */
  private nodeOf(word: string): number {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const code = word.charCodeAt(i);
      let child = this.firstChild[node] as number;
      while (child !== -1 && this.nodeChar[child] !== code) child = this.nextSibling[child] as number;
      if (child === -1) return -1;
      node = child;
    }
    return node;
  }

  /** Clears the scratch state of the rows this query touched. */
  private clearTouched(): void {
    for (let i = 0; i < this.touchedCount; i++) {
      const row = this.touchedRows[i] as number;
      this.wordsMatched[row] = 0;
      this.tierOfRow[row] = 0;
    }
    this.touchedCount = 0;
  }

  private nextStamp(): void {
    if (this.stamp === 0xffffffff) {
      this.tokenStamp.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
  }

  /** Query word → char codes in a reused buffer (the trie walk compares codes, not strings). */
  private loadQueryWord(word: string): void {
    if (word.length > this.queryCodes.length) this.queryCodes = new Uint8Array(word.length * 2);
    for (let i = 0; i < word.length; i++) this.queryCodes[i] = word.charCodeAt(i);
    this.queryLength = word.length;
  }

  /** Applies every token the current word reaches (see the rules at the top) to the rows. */
  private matchWord(): void {
    const length = this.queryLength;
    if (length <= 2) this.walk(0, 0, true, true);
    else if (length === 3) {
      this.walk(0, 0, true, true);
      this.walk(0, 0, false, false);
    } else this.walk(0, 0, false, true);
  }

  /**
   * Bounded edit distance over the trie: `node` has consumed i query letters with `isEdited`
   * edits spent (at most one). At the end of the word, `isPrefix` takes the whole subtree (the
   * word is a start of those tokens), otherwise only a token ending here or one letter on.
   */
  private walk(node: number, i: number, isEdited: boolean, isPrefix: boolean): void {
    if (i === this.queryLength) {
      if (isPrefix) {
        this.applyTokens(this.subtreeFirst[node] as number, this.subtreeEnd[node] as number);
        return;
      }
      this.applyToken(this.tokenAtNode[node] as number);
      if (!isEdited) {
        // The name word has one more letter at the end.
        for (let child = this.firstChild[node] as number; child !== -1; child = this.nextSibling[child] as number) {
          this.applyToken(this.tokenAtNode[child] as number);
        }
      }
      return;
    }
    const code = this.queryCodes[i] as number;
    for (let child = this.firstChild[node] as number; child !== -1; child = this.nextSibling[child] as number) {
      if (this.nodeChar[child] === code) this.walk(child, i + 1, isEdited, isPrefix);
      else if (!isEdited) this.walk(child, i + 1, true, isPrefix); // a wrong letter
      if (!isEdited) this.walk(child, i, true, isPrefix); // a missing letter in the query
    }
    if (!isEdited) this.walk(node, i + 1, true, isPrefix); // an extra letter in the query
  }

  private applyTokens(first: number, end: number): void {
    for (let t = first; t < end; t++) this.applyToken(t);
  }

  private applyToken(token: number): void {
    if (token === NO_TOKEN || this.tokenStamp[token] === this.stamp) return;
    this.tokenStamp[token] = this.stamp;
    const end = this.postingStart[token + 1] as number;
    workCounts.postingsVisited += end - (this.postingStart[token] as number);
    const w = this.wordIndex;
    if (w === 0 && this.requiredTier === 0) {
      for (let p = this.postingStart[token] as number; p < end; p++) {
        const row = this.postingRows[p] as number;
        if (this.wordsMatched[row] !== 0 || ((this.eraMask >>> (this.era[row] as number)) & 1) === 0) continue;
        this.wordsMatched[row] = 1;
        this.touchedRows[this.touchedCount++] = row;
        this.advancedCount++;
      }
      return;
    }
    const tier = this.requiredTier;
    for (let p = this.postingStart[token] as number; p < end; p++) {
      const row = this.postingRows[p] as number;
      if (this.wordsMatched[row] === w && (tier === 0 || this.tierOfRow[row] === tier)) {
        this.wordsMatched[row] = w + 1;
        this.advancedCount++;
      }
    }
  }
}

/**
 * The words a name is found by: the words of its folded form, plus each hyphenated part of the
 * display name written together; `joined` is the folded name with those parts together.
 * `Shai Gilgeous-Alexander` → words shai, gilgeous, alexander, gilgeousalexander; joined
 * `shai gilgeousalexander`.
 */
function nameWords(displayName: string, folded: string): { words: string[]; joined: string } {
  const words = folded.length === 0 ? [] : folded.split(" ");
  // Most names hold only letters, spaces, apostrophes and periods: nothing joins (and the
  // accent folding below is the costly part of building the index).
  if (!JOINING_MARK.test(displayName)) return { words, joined: folded };
  // The same steps as foldName, stopping before hyphens and other marks become spaces.
  const chunks = foldAccents(displayName).replace(/['’‘`´.]/g, "").split(/\s+/);
  const joinedChunks: string[] = [];
  for (const chunk of chunks) {
    const parts = chunk.split(/[^a-z0-9]+/).filter((part) => part.length > 0);
    if (parts.length === 0) continue;
    const together = parts.join("");
    joinedChunks.push(together);
    if (parts.length > 1 && !words.includes(together)) words.push(together);
  }
  return { words, joined: joinedChunks.join(" ") };
}

/** A character that foldName turns into a word break inside a whitespace-separated chunk (or an accent, which needs folding first). */
const JOINING_MARK = /[^A-Za-z0-9\s'’‘`´.]/;

/** Tokens must be sorted and distinct: then children are appended in letter order and each subtree is a token range. */
function buildTrie(tokens: readonly string[]): TrieData {
  const nodeChar: number[] = [0];
  const firstChild: number[] = [-1];
  const lastChild: number[] = [-1];
  const nextSibling: number[] = [-1];
  const subtreeFirst: number[] = [0];
  const subtreeEnd: number[] = [tokens.length];
  const tokenAtNode: number[] = [NO_TOKEN];
  const path: number[] = [0];
  let previous = "";
  tokens.forEach((token, t) => {
    let common = 0;
    while (common < token.length && common < previous.length && token.charCodeAt(common) === previous.charCodeAt(common)) common++;
    path.length = common + 1;
    for (let depth = 0; depth <= common; depth++) subtreeEnd[path[depth] as number] = t + 1;
    let node = path[common] as number;
    for (let i = common; i < token.length; i++) {
      const child = nodeChar.length;
      nodeChar.push(token.charCodeAt(i));
      firstChild.push(-1);
      lastChild.push(-1);
      nextSibling.push(-1);
      subtreeFirst.push(t);
      subtreeEnd.push(t + 1);
      tokenAtNode.push(NO_TOKEN);
      if (lastChild[node] === -1) firstChild[node] = child;
      else nextSibling[lastChild[node] as number] = child;
      lastChild[node] = child;
      path.push(child);
      node = child;
    }
    tokenAtNode[node] = t;
    previous = token;
  });
  return {
    nodeChar: Uint8Array.from(nodeChar),
    firstChild: Int32Array.from(firstChild),
    nextSibling: Int32Array.from(nextSibling),
    subtreeFirst: Uint32Array.from(subtreeFirst),
    subtreeEnd: Uint32Array.from(subtreeEnd),
    tokenAtNode: Int32Array.from(tokenAtNode),
  };
}

/** Build time: the words, postings, trie and exact-name tables of a roster in row order. */
export function buildSearchData(players: readonly PlayerRecord[], foldedNames: readonly string[]): SearchData {
  const n = players.length;
  const wordsOfRow: string[][] = new Array<string[]>(n);
  const joinedOfRow: (string | undefined)[] = new Array<string | undefined>(n);
  for (let row = 0; row < n; row++) {
    const folded = foldedNames[row] ?? "";
    const { words, joined } = nameWords(players[row]?.name ?? folded, folded);
    wordsOfRow[row] = words;
    joinedOfRow[row] = joined !== folded && joined.length > 0 ? joined : undefined;
  }
  const folded = buildRowGroups(foldedNames.map((name) => (name.length > 0 ? name : undefined)));
  // Every row's key in the folded table (an empty name gets the key after the last).
  const keyOf = new Map<string, number>();
  const keyCount = folded.keys.offsets.length - 1;
  const decoder = new TextDecoder();
  for (let k = 0; k < keyCount; k++) keyOf.set(decoder.decode(folded.keys.bytes.subarray(folded.keys.offsets[k], folded.keys.offsets[k + 1])), k);
  const foldedOfRow = Uint32Array.from(foldedNames, (name) => keyOf.get(name) ?? keyCount);

  // Token dictionary and postings.
  const tokens = [...new Set(wordsOfRow.flat())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const tokenOf = new Map(tokens.map((token, t) => [token, t]));
  const lastRowOfToken = new Int32Array(tokens.length).fill(-1);
  const postingStart = new Uint32Array(tokens.length + 1);
  for (let row = 0; row < n; row++) {
    for (const word of wordsOfRow[row] as string[]) {
      const t = tokenOf.get(word) as number;
      if (lastRowOfToken[t] === row) continue;
      lastRowOfToken[t] = row;
      (postingStart[t + 1] as number)++;
    }
  }
  for (let t = 0; t < tokens.length; t++) postingStart[t + 1] = (postingStart[t + 1] as number) + (postingStart[t] as number);
  const postingRows = new Uint32Array(postingStart[tokens.length] as number);
  const fill = postingStart.slice(0, tokens.length);
  lastRowOfToken.fill(-1);
  for (let row = 0; row < n; row++) {
    for (const word of wordsOfRow[row] as string[]) {
      const t = tokenOf.get(word) as number;
      if (lastRowOfToken[t] === row) continue;
      lastRowOfToken[t] = row;
      postingRows[(fill[t] as number)++] = row;
    }
  }
  return { folded, foldedOfRow, joined: buildRowGroups(joinedOfRow), postingStart, postingRows, ...buildTrie(tokens) };
}
