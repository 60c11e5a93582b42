// Which format a bulk request asks for: `format=` when given, else the first of our media types
// its Accept header prefers (by q, then order), else JSON. An Accept naming none of ours (a
// browser's, `*/*`) gets JSON: nothing is refused for what Accept says.

import { ARROW_TYPE } from "./arrow.js";
import { CSV_TYPE } from "./csv.js";
import { PARQUET_TYPE } from "./parquet.js";

export const EXPORT_FORMATS = ["json", "csv", "parquet", "arrow"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Each export format's media type (what Accept names and Content-Type says) and file extension. */
export const EXPORT_MEDIA: Readonly<Record<Exclude<ExportFormat, "json">, { type: string; accept: string; extension: string }>> = {
  csv: { type: CSV_TYPE, accept: "text/csv", extension: "csv" },
  parquet: { type: PARQUET_TYPE, accept: PARQUET_TYPE, extension: "parquet" },
  arrow: { type: ARROW_TYPE, accept: ARROW_TYPE, extension: "arrows" },
};

const BY_MEDIA_TYPE: ReadonlyMap<string, ExportFormat> = new Map([
  ["application/json", "json"],
  ["text/csv", "csv"],
  [PARQUET_TYPE, "parquet"],
  ["application/x-parquet", "parquet"],
  [ARROW_TYPE, "arrow"],
]);

/** Longer Accept values are not read (JSON): a client may not make us parse a long header. */
const ACCEPT_MAX_LENGTH = 1024;

export function formatOf(format: string | undefined, accept: string): ExportFormat {
  if (format !== undefined) return format as ExportFormat;
  if (accept.length === 0 || accept.length > ACCEPT_MAX_LENGTH) return "json";
  let best: ExportFormat = "json";
  let bestQ = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...parameters] = part.split(";");
    const found = BY_MEDIA_TYPE.get(type.trim().toLowerCase());
    if (found === undefined) continue;
    let q = 1;
    for (const parameter of parameters) {
      const qMatch = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter);
      if (qMatch !== null) q = Number(qMatch[1]);
    }
    if (q > bestQ) {
      best = found;
      bestQ = q;
    }
  }
  return best;
}
