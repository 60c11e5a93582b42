// `Range: bytes=…` (RFC 9110 §14): one range of a body whose length is known. What DuckDB's httpfs
// and other file readers send to read a remote Parquet file piece by piece.

/** `[first, last]` (inclusive) of a body of `length` bytes; "unsatisfiable" (416); undefined to send the whole body (200). */
export function byteRangeOf(header: string, length: number): readonly [number, number] | "unsatisfiable" | undefined {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  // Several ranges, another unit or a malformed value: the whole body, as RFC 9110 allows.
  if (match === null) return undefined;
  const [, firstText = "", lastText = ""] = match;
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
