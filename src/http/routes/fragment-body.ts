// A success body of text and players' rows, for answers that wrap or extend rows (similar, compare,
// the team profile's leaders): the text as the route writes it, each row's object copied from the
// fragment store. Measured first, then written once: into the thread's scratch (cache off), or
// into a buffer of its own inside `renderOwned` (a cache miss). No record parsed, no answer
// re-serialised, no hash of the body: the ETag is folded from the cache key that names the answer.

import type { RecordFragments, RowShape } from "../../store/fragments.js";
import { HASH_SEED, hashString } from "../../store/hash.js";
import { scratchBuffer } from "../../store/scratch.js";
import { weakEtag, type Reply } from "../reply.js";

export class FragmentBody {
  /** texts[i] goes before rows[i]; the text after the last row is `pending`. */
  private readonly texts: string[] = [];
  private readonly rows: number[] = [];
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
    this.texts.push(this.pending);
    this.pending = "";
    this.rows.push(row);
    this.shapes.push(shape);
    this.isOpen.push(isOpen);
    return this;
  }

  /**
   * The 200 reply. `key` is the answer's cache key (cacheKey: route, data versions, values), which
   * fixes the body as long as the rendering does: `renderVersion` is bumped when the route renders
   * the same data differently, so a client's kept ETag does not match a changed body.
   */
  reply(key: string, renderVersion: number): Reply {
    const { texts, rows, shapes, isOpen, fragments } = this;
    let length = Buffer.byteLength(this.pending);
    for (let i = 0; i < rows.length; i++) {
      length += Buffer.byteLength(texts[i] as string) + fragments.rowLength(rows[i] as number, shapes[i] as RowShape) - (isOpen[i] ? 1 : 0);
    }
    const { buffer: body, isScratch } = scratchBuffer(length);
    let at = 0;
    for (let i = 0; i < rows.length; i++) {
      at += body.write(texts[i] as string, at);
      at = fragments.writeRow(rows[i] as number, shapes[i] as RowShape, body, at);
      if (isOpen[i]) at--;
    }
    at += body.write(this.pending, at);
    if (at !== length) throw new Error(`rendered ${at} bytes of ${length}`);
    return { status: 200, body, etag: keyedEtag(key, renderVersion, length), isScratch };
  }
}

/** A weak ETag of the answer a cache key names, rendered the `renderVersion` way, `length` bytes long. */
export function keyedEtag(key: string, renderVersion: number, length: number): string {
  return weakEtag(hashString(`${key}|${renderVersion}`, HASH_SEED), length);
}
