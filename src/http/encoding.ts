// Content negotiation: which encoding a client accepts, compressing once per cached reply, and
// whether an If-None-Match header matches our ETag in any of its forms.

import { brotliCompress, brotliCompressSync, crc32, deflateRawSync, gzip, gzipSync, constants, type BrotliOptions, type ZlibOptions } from "node:zlib";
import type { Reply } from "./reply.js";

export const COMPRESS_MIN_BYTES = 1024;
export type Encoding = "br" | "gzip" | "identity";

/** Accept-Encoding values seen lately and their choice: clients send the same few over and over. */
const chosen = new Map<string, Encoding>();
const CHOSEN_MAX = 256;
/** Longer values are parsed every time: remembering them would let a client pin memory. */
const CHOSEN_MAX_LENGTH = 256;

/** `br` before `gzip` when both are acceptable; a `q=0` refuses a coding. */
export function chooseEncoding(acceptEncoding: string): Encoding {
  if (acceptEncoding.length === 0) return "identity";
  if (acceptEncoding.length > CHOSEN_MAX_LENGTH) return parseAcceptEncoding(acceptEncoding);
  let encoding = chosen.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(acceptEncoding);
    if (chosen.size >= CHOSEN_MAX) chosen.clear();
    chosen.set(acceptEncoding, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  let hasBr = false;
  let hasGzip = false;
  for (const part of acceptEncoding.split(",")) {
    const [token = "", ...parameters] = part.trim().toLowerCase().split(";");
    const isRefused = parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
    if (isRefused) continue;
    if (token === "br") hasBr = true;
    else if (token === "gzip" || token === "x-gzip") hasGzip = true;
    else if (token === "*") { hasBr = true; hasGzip = true; }
  }
  return hasBr ? "br" : hasGzip ? "gzip" : "identity";
}

/** How every Brotli body is compressed (here, and on zlib's threads for a whole-edition export). */
export function brotliOptions(quality: number, sizeHint: number): BrotliOptions {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } };
}

/** How every gzip body is compressed. */
export const GZIP_OPTIONS: Readonly<ZlibOptions> = { level: 6 };

/**
 * Bodies at least this large are compressed on zlib's threads while the request waits, never on
 * the request's thread (a CSV export, a page of 10,000 bulk rows: tens of milliseconds to seconds
 * of Brotli). Below it a body compresses in well under a millisecond or two, inline.
 */
export const THREAD_COMPRESS_MIN_BYTES = 256 * 1024;

/** Compressions under way on zlib's threads, per reply and encoding: requests that need the same one wait for it together. */
const underWay = new WeakMap<Reply, { br?: Promise<void>; gzip?: Promise<void> }>();

/**
 * A promise settled once `reply`'s body under `encoding` is compressed and kept (encodedBody then
 * finds it), or undefined when there is nothing to wait for: identity, a small body, already kept.
 * A compression that fails leaves nothing kept; encodedBody then compresses inline.
 */
export function compressedLater(reply: Reply, encoding: Encoding, brotliQuality = 4): Promise<void> | undefined {
  if (encoding === "identity" || reply.body.length < THREAD_COMPRESS_MIN_BYTES || reply.encoded?.[encoding] !== undefined) return undefined;
  let pending = underWay.get(reply);
  if (pending === undefined) underWay.set(reply, (pending = {}));
  const kept = pending;
  return (kept[encoding] ??= new Promise<void>((resolve) => {
    const done = (error: Error | null, body: Buffer) => {
      if (error === null) (reply.encoded ??= {})[encoding] = body;
      delete kept[encoding];
      resolve();
    };
    if (encoding === "br") brotliCompress(reply.body, brotliOptions(brotliQuality, reply.body.length), done);
    else gzip(reply.body, GZIP_OPTIONS, done);
  }));
}

/** The bytes to send for a reply under an encoding; compressed variants are computed once and kept. */
export function encodedBody(reply: Reply, encoding: Encoding, brotliQuality = 4): { body: Buffer; encoding: Encoding } {
  if (encoding === "identity") return { body: reply.body, encoding };
  // Kept (or made on demand: withTail) before the body is looked at, which a spliced reply builds only when asked.
  const kept = reply.encoded?.[encoding];
  if (kept !== undefined) return { body: kept, encoding };
  if (reply.body.length < COMPRESS_MIN_BYTES) return { body: reply.body, encoding: "identity" };
  reply.encoded ??= {};
  if (encoding === "br") {
    reply.encoded.br ??= brotliCompressSync(reply.body, brotliOptions(brotliQuality, reply.body.length));
    return { body: reply.encoded.br, encoding };
  }
  reply.encoded.gzip ??= gzipSync(reply.body, GZIP_OPTIONS);
  return { body: reply.encoded.gzip, encoding };
}

/**
 * A body whose long head is the same for many answers and whose short tail is each answer's own
 * (an MCP tool result from a cached reply, then the caller's JSON-RPC id): the head is compressed
 * once, flushed to a byte boundary without ending the stream, and each answer appends its tail to
 * it, so an answer costs a copy and its tail's bytes instead of compressing it whole.
 * Both encodings stay single, standard streams: gzip's deflate continues with the tail in a final
 * stored block (RFC 1951 §3.2.4: the flush left the stream at a byte boundary), under one header
 * and a CRC-32 continued over the tail; Brotli's continues with an uncompressed meta-block holding
 * the tail (RFC 7932 §9.2) and the empty last one.
 */
export interface CompressedHead {
  readonly head: Buffer;
  readonly br: Buffer;
  readonly deflate: Buffer;
  readonly crc: number;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** A deflate stored block holds at most 65,535 bytes (a Brotli meta-block with MNIBBLES = 4, 65,536). */
const TAIL_MAX = 65_535;
/** ISLAST = 1, ISLASTEMPTY = 1: the end of a Brotli stream. */
const BROTLI_END = Buffer.from([0x03]);

export function compressedHead(head: Buffer, brotliQuality = 4): CompressedHead {
  return {
    head,
    br: brotliCompressSync(head, { ...brotliOptions(brotliQuality, head.length), finishFlush: constants.BROTLI_OPERATION_FLUSH }),
    deflate: deflateRawSync(head, { ...GZIP_OPTIONS, finishFlush: constants.Z_SYNC_FLUSH }),
    crc: crc32(head),
  };
}

/**
 * Compressed heads kept per shared body (a cached reply, a search template), under a slot each (an
 * MCP answer's era), from the body's second use: a body seen once may be one request's alone (a
 * reply with warnings), and is then compressed whole like any.
 */
export class KeptHeads<Slot extends string> {
  private readonly kept = new WeakMap<Buffer, Partial<Record<Slot, CompressedHead>> | null>();

  /** The head `headOf` gives, compressed, kept under `body` and `slot`; undefined at the body's first use. */
  get(body: Buffer, slot: Slot, headOf: () => Buffer): CompressedHead | undefined {
    const heads = this.kept.get(body);
    if (heads === undefined) {
      this.kept.set(body, null);
      return undefined;
    }
    const slots: Partial<Record<Slot, CompressedHead>> = heads ?? {};
    if (heads === null) this.kept.set(body, slots);
    return slots[slot] ??= compressedHead(headOf());
  }
}

/** What a spliced reply says besides its body (status 200 and JSON unless given). */
export type SplicedFields = Partial<Omit<Reply, "body" | "encoded" | "tail" | "isScratch">>;

/**
 * A reply of the whole (head and tail): each of its bodies is made when first asked for, so an
 * answer pays only for the one its client takes; the identity body, a copy of the whole, only for a
 * client that takes neither encoding.
 */
export function withTail(compressed: CompressedHead, tail: Buffer, fields: SplicedFields = {}): Reply {
  if (tail.length === 0 || tail.length > TAIL_MAX) throw new RangeError(`a spliced tail is 1 to ${TAIL_MAX} bytes, not ${tail.length}`);
  return new SplicedReply(compressed, tail, fields);
}

class SplicedReply implements Reply {
  status = 200;
  contentType = "application/json";
  readonly encoded: SplicedEncodings;
  #body: Buffer | undefined;

  constructor(private readonly compressed: CompressedHead, readonly tail: Buffer, fields: SplicedFields) {
    Object.assign(this, fields);
    this.encoded = new SplicedEncodings(compressed, tail, compressed.head.length + tail.length);
  }

  get body(): Buffer {
    return this.#body ??= Buffer.concat([this.compressed.head, this.tail]);
  }
}

class SplicedEncodings {
  #br: Buffer | undefined;
  #gzip: Buffer | undefined;

  constructor(private readonly compressed: CompressedHead, private readonly tail: Buffer, private readonly bodyLength: number) {}

  get br(): Buffer {
    if (this.#br !== undefined) return this.#br;
    // ISLAST 0, MNIBBLES 0 (four nibbles), MLEN - 1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte.
    const bits = ((this.tail.length - 1) << 3) | (1 << 19);
    const metaBlock = Buffer.from([bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff]);
    return this.#br = Buffer.concat([this.compressed.br, metaBlock, this.tail, BROTLI_END]);
  }

  get gzip(): Buffer {
    if (this.#gzip !== undefined) return this.#gzip;
    const length = this.tail.length;
    // BFINAL 1, BTYPE 00 (stored), then LEN and its one's complement NLEN, little-endian.
    const stored = Buffer.from([0x01, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff]);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(this.tail, this.compressed.crc), 0);
    trailer.writeUInt32LE(this.bodyLength % 0x1_0000_0000, 4);
    return this.#gzip = Buffer.concat([GZIP_HEADER, this.compressed.deflate, stored, this.tail, trailer]);
  }
}

/**
 * `*`, a comma-separated list, weak or strong forms, and the `-gzip`/`-br` suffixes some proxies
 * append inside the quotes all match the same (weak) ETag.
 */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.length === 0) return false;
  const ours = opaqueTag(etag);
  for (const candidate of header.split(",")) {
    const trimmed = candidate.trim();
    if (trimmed === "*") return true;
    if (opaqueTag(trimmed) === ours) return true;
  }
  return false;
}

function opaqueTag(tag: string): string {
  return tag.replace(/^W\//, "").replace(/^"|"$/g, "").replace(/-(gzip|br)$/, "");
}
