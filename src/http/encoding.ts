// Content negotiation: which encoding a client accepts, compressing once per cached reply, and
// whether an If-None-Match header matches our ETag in any of its forms.

import { brotliCompressSync, gzipSync, constants, type BrotliOptions, type ZlibOptions } from "node:zlib";
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
