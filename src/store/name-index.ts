// The player-name search of one edition (CONTRACT §2): candidate retrieval from a FlexSearch
// forward index (prefix matches) and a trie of name words (one-edit typo matches), ranked in
// tiers. Built once per edition; a query is synchronous and never scans the rows or their names.
//
// Build at load or import FlexSearch's export from the snapshot? Measured on the 2-core dev
// machine (Node 20, other jobs running, so ranges; scratch bench, not kept):
//   build at load, the 8 demo editions (14,591 names): 95–134 ms for all 8 (the first, cold
//     round the slowest), 10–32 ms per edition.
//   build at load, 8 × 2,000 names (real 2K26 names plus first × last mixes): 107–314 ms for
//     all 8, 13–40 ms per edition, of which FlexSearch's forward index is ~11–16 ms, word
//     lists 2 ms, postings 2 ms, trie 1 ms. `resolution: 1` cut the FlexSearch part by a
//     quarter to a half.
//   import instead: FlexSearch's import takes 2–4 ms per edition, saving ~10 ms per edition
//     (~80 ms of the 1.5 s boot), but adds ~170 KB of export strings to every snapshot and ties
//     the snapshot format to FlexSearch's export format. Decision: build at load.
//   query, whole search with ranking, limit 50, p50 / p99: one name word 5–12 / 17–70 µs;
//     two words 7–23 / 14–100 µs (one 395 µs p99 under load); a typo'd word 4–8 / 5–12 µs;
//     `j` (381 matches) 16–19 / 71–122 µs; no match 2.6 / 3–6 µs.
//
// Matching rules, per query word (words come from foldName, so case, accents, apostrophes and
// punctuation never matter): a name word is every word of the folded name plus, for a
// hyphenated part of the display name, the parts written together (`gilgeousalexander`).
//   tier 1  the folded query is the folded full name (hyphenated parts apart or together);
//   tier 2  every query word is the start of some name word, any order (FlexSearch);
//   tier 3  every query word is within one letter (wrong, missing or extra) of the start of
//           some name word (trie walk). Words of 1–2 letters only match as starts (one edit
//           away from a 2-letter word is nearly everything); 3-letter words match a whole
//           name word within one edit or a start exactly; from 4 letters on, any start within
//           one edit (`jokc` → jokic, `antetokounpo` → antetokounmpo, `cury` → curry).
// Within a tier: overall descending, then name rank.

import { Encoder, Index } from "flexsearch";
import { foldAccents, foldName } from "../model/names.js";
import type { SnapshotPayload } from "../data/snapshot.js";

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
  /** FlexSearch over each row's name words, forward-tokenised: every word start is a key. */
  private readonly prefixIndex: Index;
  /** Folded full name (and its hyphen-joined form) → rows. */
  private readonly rowsByExactName: ReadonlyMap<string, readonly number[]>;

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

  // Scratch state of one query. Search is synchronous, so one set per index suffices; each
  // query leaves every array as it found it (zeroed) by resetting only the rows it touched.
  /** How many query words in a row have matched so far (a row counts for word w only if it matched words 0 … w-1). */
  private readonly wordsMatched: Uint8Array;
  private readonly tierOfRow: Uint8Array;
  private readonly touchedRows: Uint32Array;
  private readonly sortKeys: Float64Array;
  /** tokenStamp[t] === stamp: token t already applied for the current query word. */
  private readonly tokenStamp: Uint32Array;
  private stamp = 0;
  private touchedCount = 0;
  /** Rows the current word moved on (to end the query early when a word matches nothing). */
  private advancedCount = 0;
  private wordIndex = 0;
  private eraMask = 0;
  private queryCodes = new Uint8Array(128);
  private queryLength = 0;

  constructor(payload: SnapshotPayload) {
    const { searchNames, players } = payload;
    const n = searchNames.length;
    this.rowCount = n;
    this.era = payload.columns.era;
    this.overall = payload.columns.overall;
    this.nameRank = payload.columns.nameRank;
    this.rowByNameRank = payload.sortOrders.name;

    const wordsOfRow: string[][] = new Array<string[]>(n);
    const exact = new Map<string, number[]>();
    const addExact = (key: string, row: number): void => {
      const rows = exact.get(key);
      if (rows === undefined) exact.set(key, [row]);
      else if (rows[rows.length - 1] !== row) rows.push(row);
    };
    for (let row = 0; row < n; row++) {
      const folded = searchNames[row] ?? "";
      const { words, joined } = nameWords(players[row]?.name ?? folded, folded);
      wordsOfRow[row] = words;
      if (folded.length > 0) addExact(folded, row);
      if (joined !== folded && joined.length > 0) addExact(joined, row);
    }
    this.rowsByExactName = exact;

    this.prefixIndex = new Index({
      tokenize: "forward",
      // One score bucket: the ranking is ours, and fewer buckets build faster (see the top).
      resolution: 1,
      // Names arrive folded (a-z, 0-9, single spaces): FlexSearch must not transform them
      // further, or its idea of a word start would differ from ours. No cache: it runs timers.
      encoder: new Encoder({ normalize: false, split: " ", numeric: false, dedupe: false, cache: false }),
      cache: false,
    });
    for (let row = 0; row < n; row++) {
      const words = wordsOfRow[row] as string[];
      if (words.length > 0) this.prefixIndex.add(row, words.join(" "));
    }

    // Token dictionary and postings.
    const tokens = [...new Set(wordsOfRow.flat())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const tokenOf = new Map(tokens.map((token, t) => [token, t]));
    const lastRowOfToken = new Int32Array(tokens.length).fill(-1);
    this.postingStart = new Uint32Array(tokens.length + 1);
    for (let row = 0; row < n; row++) {
      for (const word of wordsOfRow[row] as string[]) {
        const t = tokenOf.get(word) as number;
        if (lastRowOfToken[t] === row) continue;
        lastRowOfToken[t] = row;
        (this.postingStart[t + 1] as number)++;
      }
    }
    for (let t = 0; t < tokens.length; t++) this.postingStart[t + 1] = (this.postingStart[t + 1] as number) + (this.postingStart[t] as number);
    this.postingRows = new Uint32Array(this.postingStart[tokens.length] as number);
    const fill = this.postingStart.slice(0, tokens.length);
    lastRowOfToken.fill(-1);
    for (let row = 0; row < n; row++) {
      for (const word of wordsOfRow[row] as string[]) {
        const t = tokenOf.get(word) as number;
        if (lastRowOfToken[t] === row) continue;
        lastRowOfToken[t] = row;
        this.postingRows[(fill[t] as number)++] = row;
      }
    }

    const trie = buildTrie(tokens);
    this.nodeChar = trie.nodeChar;
    this.firstChild = trie.firstChild;
    this.nextSibling = trie.nextSibling;
    this.subtreeFirst = trie.subtreeFirst;
    this.subtreeEnd = trie.subtreeEnd;
    this.tokenAtNode = trie.tokenAtNode;

    this.wordsMatched = new Uint8Array(n);
    this.tierOfRow = new Uint8Array(n);
    this.touchedRows = new Uint32Array(n);
    this.sortKeys = new Float64Array(n);
    this.tokenStamp = new Uint32Array(tokens.length);
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

    // Tier 2 from FlexSearch: every word a word start, in any order (its AND of forward keys).
    // It only promotes rows already matched, so its answer can never widen the match set.
    // A word that starts no name word at all (a typo) leaves tier 2 empty: no need to ask.
    const prefixRows = words.every((word) => this.startsSomeToken(word)) ? this.prefixIndex.search(words.join(" "), { limit: this.rowCount }) : [];
    for (const id of prefixRows) {
      // The ids are the row numbers added above.
      if (typeof id === "number" && this.tierOfRow[id] === TIER_TYPO) this.tierOfRow[id] = TIER_PREFIX;
    }
    // Tier 1: the whole name.
    for (const row of this.rowsByExactName.get(folded) ?? []) {
      if (this.tierOfRow[row] !== 0) this.tierOfRow[row] = TIER_EXACT;
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

  /** Whether `word` is the start of some name word: a walk down the trie without edits. */
  private startsSomeToken(word: string): boolean {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const code = word.charCodeAt(i);
      let child = this.firstChild[node] as number;
      while (child !== -1 && this.nodeChar[child] !== code) child = this.nextSibling[child] as number;
      if (child === -1) return false;
      node = child;
    }
    return true;
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
    const w = this.wordIndex;
    if (w === 0) {
      for (let p = this.postingStart[token] as number; p < end; p++) {
        const row = this.postingRows[p] as number;
        if (this.wordsMatched[row] !== 0 || ((this.eraMask >>> (this.era[row] as number)) & 1) === 0) continue;
        this.wordsMatched[row] = 1;
        this.touchedRows[this.touchedCount++] = row;
        this.advancedCount++;
      }
      return;
    }
    for (let p = this.postingStart[token] as number; p < end; p++) {
      const row = this.postingRows[p] as number;
      if (this.wordsMatched[row] === w) {
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

interface Trie {
  nodeChar: Uint8Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  subtreeFirst: Uint32Array;
  subtreeEnd: Uint32Array;
  tokenAtNode: Int32Array;
}

/** Tokens must be sorted and distinct: then children are appended in letter order and each subtree is a token range. */
function buildTrie(tokens: readonly string[]): Trie {
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
