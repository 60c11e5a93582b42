// The one writer of answers made of players' rows: a page (a run of rows in the envelope), a
// detail, or text that wraps and extends rows (similar, compare, the team profile, trending, badge
// holders, search). The text as the route writes it, each row's object copied from the fragment
// store; measured first, then written once: into the thread's scratch (the body is written out at
// once: cache off, or a request the cache does not keep), or into a buffer of its own inside
// `renderOwned` (a cache miss). No record parsed, no answer re-serialised, no pass over the body
// for its ETag: an answer with a cache key has the ETag folded from that key (keyedEtag), which
// names the answer as long as the rendering does.

import type { RecordFragments, RowShape } from "../store/fragments.js";
import { HASH_SEED, hashString } from "../store/hash.js";
import { scratchBuffer } from "../store/scratch.js";
import { weakEtag, type Reply } from "./reply.js";

const ROW = 0;
const RUN = 1;

export class FragmentBody {
  /** texts[i] goes before item i; the text after the last item is `pending`. */
  private readonly texts: string[] = [];
  /** Item i: a row (ROW) or a run `[row,row,…]` (RUN). */
  private readonly kinds: number[] = [];
  private readonly rows: number[] = [];
  private readonly runs: (ArrayLike<number> | undefined)[] = [];
  private readonly shapes: RowShape[] = [];
  /** Rows written without their closing brace (the route adds fields to them). */
  private readonly isOpen: boolean[] = [];
  private pending = "";

  constructor(private readonly fragments: RecordFragments) {}

  /** Appends JSON text as it is (the caller writes it valid: strings through JSON.stringify). */
  text(json: string): this {
    this.pending += json;
    return this;
  }

  /** Appends the row's object `{…}` in `shape`; `isOpen` leaves off its closing brace, for fields the caller adds. */
  row(row: number, shape: RowShape, isOpen = false): this {
    return this.item(ROW, row, undefined, shape, isOpen);
  }

  /** Appends the rows as an array `[{…},{…},…]` in `shape` (a page's data). */
  run(rows: ArrayLike<number>, shape: RowShape): this {
    return this.item(RUN, -1, rows, shape, false);
  }

  private item(kind: number, row: number, run: ArrayLike<number> | undefined, shape: RowShape, isOpen: boolean): this {
    this.texts.push(this.pending);
    this.pending = "";
    this.kinds.push(kind);
    this.rows.push(row);
    this.runs.push(run);
    this.shapes.push(shape);
    this.isOpen.push(isOpen);
    return this;
  }

  /**
   * The 200 reply. `key` is the answer's cache key (cacheKey: route, data versions, values), which
   * fixes the body as long as the rendering does: `renderVersion` is bumped when the route renders
   * the same data differently, so a client's kept ETag does not match a changed body. Without a
   * key (an answer nobody revalidates: a POST's) there is no ETag.
   */
  reply(key: string | undefined, renderVersion: number): Reply {
    const { texts, kinds, rows, runs, shapes, isOpen, fragments } = this;
    let length = Buffer.byteLength(this.pending);
    for (let i = 0; i < kinds.length; i++) {
      length += Buffer.byteLength(texts[i] as string);
      length += kinds[i] === RUN
        ? fragments.runLength(runs[i] as ArrayLike<number>, shapes[i] as RowShape)
        : fragments.rowLength(rows[i] as number, shapes[i] as RowShape) - (isOpen[i] ? 1 : 0);
    }
    const { buffer: body, isScratch } = scratchBuffer(length);
    let at = 0;
    for (let i = 0; i < kinds.length; i++) {
      at += body.write(texts[i] as string, at);
      if (kinds[i] === RUN) {
        at = fragments.writeRun(runs[i] as ArrayLike<number>, shapes[i] as RowShape, body, at);
        continue;
      }
      at = fragments.writeRow(rows[i] as number, shapes[i] as RowShape, body, at);
      if (isOpen[i]) at--;
    }
    at += body.write(this.pending, at);
    if (at !== length) throw new Error(`rendered ${at} bytes of ${length}`);
    return { status: 200, body, ...(key === undefined ? {} : { etag: keyedEtag(key, renderVersion, length) }), isScratch };
  }
}

/** A weak ETag of the answer a cache key names, rendered the `renderVersion` way, `length` bytes long. */
export function keyedEtag(key: string, renderVersion: number, length: number): string {
  return weakEtag(hashString(`${key}|${renderVersion}`, HASH_SEED), length);
}
