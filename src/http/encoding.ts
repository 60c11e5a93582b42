// Content negotiation: which encoding a client accepts, compressing once per cached reply, and
// whether an If-None-Match header matches our ETag in any of its forms.

import { brotliCompress, brotliCompressSync, gzip, gzipSync, constants, type BrotliOptions, type ZlibOptions } from "node:zlib";
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
  if (encoding === "identity" || reply.body.length < COMPRESS_MIN_BYTES) return { body: reply.body, encoding: "identity" };
  reply.encoded ??= {};
  if (encoding === "br") {
    reply.encoded.br ??= brotliCompressSync(reply.body, brotliOptions(brotliQuality, reply.body.length));
    return { body: reply.encoded.br, encoding };
  }
  reply.encoded.gzip ??= gzipSync(reply.body, GZIP_OPTIONS);
  return { body: reply.encoded.gzip, encoding };
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
