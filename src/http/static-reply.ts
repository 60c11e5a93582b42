// The pages the service serves itself (/docs, /dashboard, /explore): a file as a cacheable reply
// (ETag from its bytes; nosniff, as on every answer), and one lookup of a page's files that answers 404 naming them.

import { ApiError } from "../query/api-error.js";
import { hashBytes } from "../store/hash.js";
import { weakEtag, type Reply } from "./reply.js";

export function staticReply(body: Buffer, contentType: string, headers: readonly (readonly [string, string])[] = []): Reply {
  return { status: 200, body, etag: weakEtag(hashBytes(body), body.length), contentType, ...(headers.length > 0 ? { headers } : {}) };
}

/** The page file named `file`, or 404 NOT_FOUND (for `path`) listing the files the page has. */
export function pageAsset<T>(assets: ReadonlyMap<string, T>, file: string, path: string): T {
  const asset = assets.get(file);
  if (asset === undefined) throw new ApiError("NOT_FOUND", { path }, `No asset ${file}; the page uses ${[...assets.keys()].join(", ")}`);
  return asset;
}
