// `Range: bytes=…` (RFC 9110 §14): one range of a body whose length is known. What DuckDB's httpfs
// and other file readers send to read a remote Parquet file piece by piece.
//
// Read by a scanner that visits each character at most once, never a regular expression: the
// expression this replaced (`^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$`) backtracked cubically, so one
// header of spaces held a worker for seconds to minutes (issue 40). A header longer than
// RANGE_HEADER_MAX_LENGTH is not read at all: the whole body, as RFC 9110 §14.2 lets a server
// ignore any Range.

/** Longer Range values are ignored (the whole body); a real one is `bytes=` and two numbers, under 50 characters. */
export const RANGE_HEADER_MAX_LENGTH = 256;

/** What JavaScript's `\s` matches, so the scanner skips exactly the whitespace the expression did. */
function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a)
    || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/** `[first, last]` (inclusive) of a body of `length` bytes; "unsatisfiable" (416); undefined to send the whole body (200). */
export function byteRangeOf(header: string, length: number): readonly [number, number] | "unsatisfiable" | undefined {
  const spec = rangeSpecOf(header);
  // Several ranges, another unit, a malformed or an over-long value: the whole body, as RFC 9110 allows.
  if (spec === undefined) return undefined;
  const [firstText, lastText] = spec;
  if (firstText.length === 0) {
    // A suffix: the last N bytes.
    if (lastText.length === 0) return undefined;
    const suffix = Number(lastText);
    if (suffix === 0 || length === 0) return "unsatisfiable";
    return [Math.max(0, length - suffix), length - 1];
  }
  const first = Number(firstText);
  if (first >= length) return "unsatisfiable";
  const last = lastText.length === 0 ? length - 1 : Number(lastText);
  if (last < first) return undefined;
  return [first, Math.min(last, length - 1)];
}

/**
 * The two digit runs of `bytes = first - last` (either may be empty), whitespace allowed around
 * every part and `bytes` in any case; undefined for anything else. One pass, left to right.
 */
function rangeSpecOf(header: string): [first: string, last: string] | undefined {
  const end = header.length;
  if (end > RANGE_HEADER_MAX_LENGTH) return undefined;
  let at = 0;
  const skipSpaces = () => {
    while (at < end && isSpace(header.charCodeAt(at))) at++;
  };
  const digits = (): string => {
    const start = at;
    while (at < end && isDigit(header.charCodeAt(at))) at++;
    return header.slice(start, at);
  };
  skipSpaces();
  if (header.slice(at, at + 5).toLowerCase() !== "bytes") return undefined;
  at += 5;
  skipSpaces();
  if (header.charCodeAt(at) !== 0x3d /* = */) return undefined;
  at++;
  skipSpaces();
  const first = digits();
  skipSpaces();
  if (header.charCodeAt(at) !== 0x2d /* - */) return undefined;
  at++;
  skipSpaces();
  const last = digits();
  skipSpaces();
  return at === end ? [first, last] : undefined;
}
