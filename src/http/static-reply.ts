// The pages the service serves itself (/docs, /dashboard, /explore): a file as a cacheable reply
// (ETag from its bytes; nosniff, as on every answer), a built page of src/web/ as such replies, and
// one lookup of a page's files that answers 404 naming them.

import { readBuiltFile, WEB_PAGE_FILE, WEB_PAGES, webFile, type WebPage } from "../assets.js";
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

/**
 * One page of src/web/ as `npm run build` wrote it: its HTML (with `headers`) and its files by the
 * names its URLs use, each read from dist/ (or the binary) on its first request, since a table
 * built only to be described never serves them.
 */
export function builtPage(page: WebPage, headers: readonly (readonly [string, string])[]): { html: () => Reply; assets: ReadonlyMap<string, () => Reply> } {
  const lazily = (file: string, contentType: string, fileHeaders: readonly (readonly [string, string])[] = []) => {
    let reply: Reply | undefined;
    return () => (reply ??= staticReply(readBuiltFile(webFile(page, file)), contentType, fileHeaders));
  };
  const { style, script } = WEB_PAGES[page];
  return {
    html: lazily(WEB_PAGE_FILE, "text/html; charset=utf-8", headers),
    assets: new Map([[style, lazily(style, "text/css; charset=utf-8")], [script, lazily(script, "text/javascript; charset=utf-8")]]),
  };
}
