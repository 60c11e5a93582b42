// What a handler returns: status, JSON bytes and how the response may be cached. The adapter
// adds rate-limit, caching and encoding headers; handlers never touch uWS.

import { ERROR_TABLE, type ApiError } from "../query/api-error.js";
import type { ParamWarning } from "../query/params.js";
import { HASH_SEED, hashBytes, hashString } from "../store/hash.js";
import { bodyWithWarnings } from "./envelope-meta.js";

export interface Reply {
  status: number;
  body: Buffer;
  /** Set on cacheable replies: this weak ETag (If-None-Match → 304). */
  etag?: string;
  headers?: readonly (readonly [string, string])[];
  /**
   * The reply's Cache-Control value. Without it: `private, max-age=3600` when the reply has an
   * ETag, `no-store` otherwise (errors, health). Routes with their own policy (public, shorter)
   * set it here; the adapter writes it on the 200 and on its 304 alike.
   */
  cacheControl?: string;
  /** Defaults to JSON; the API reference page and its assets set their own. */
  contentType?: string;
  /**
   * The body is a view of the thread's scratch buffer (src/store/scratch.ts), which the next render
   * overwrites: it may be written out now, and kept only as a copy (`ownedReply`). What is to be kept
   * is rendered inside `renderOwned` instead (the response cache's misses, memos): never scratch.
   */
  isScratch?: boolean;
  /** A cached template (search) and each copy of it: the byte offset where each request writes its 24-byte timestamp. */
  timestampAt?: number;
  /**
   * This body is a copy of a cached template's (search) with the request's own bytes from
   * `timestampAt` on: the template's body, whose bytes before that are this one's (an MCP answer
   * keeps what it builds from them once per template).
   */
  template?: Buffer;
  /** A reply spliced onto a kept compressed head (encoding.ts `withTail`): its own bytes after the head. */
  tail?: Buffer;
  /** Its representation header lines per coding (and for a 304), built once on first use. */
  headerLines?: { br?: string; gzip?: string; identity?: string; notModified?: string };
  /** Answers `Range: bytes=…` (206, 416) on its identity body and says `Accept-Ranges: bytes` (the exports). */
  acceptsRanges?: boolean;
  /** Sent as it is whatever Accept-Encoding says (a Parquet file is compressed inside already). */
  isPrecompressed?: boolean;
  /** Encoded bodies, filled once on first use and kept with a cached reply. */
  encoded?: { br?: Buffer; gzip?: Buffer };
}

/**
 * Whether the reply may be answered again as it is to the same question (the dispatcher's memo by
 * request line, MCP's by tool and arguments): a cacheable 200 in bytes of its own, not a search
 * page (a copy of its template with the request's own timestamp).
 */
export function isRepeatable(reply: Reply): boolean {
  return reply.status === 200 && reply.etag !== undefined && reply.isScratch !== true && reply.template === undefined;
}

/** The bytes a reply shares with later ones, to key what is kept of it: a search page's template, else its body unless scratch. */
export function sharedBodyOf(reply: Reply): Buffer | undefined {
  return reply.template ?? (reply.isScratch === true ? undefined : reply.body);
}

export function weakEtag(hash: number, salt = 0): string {
  return `W/"${hash.toString(16).padStart(8, "0")}${salt === 0 ? "" : salt.toString(16).padStart(8, "0")}"`;
}

export const PRIVATE_CACHE_CONTROL = "private, max-age=3600";
export const NO_STORE = "no-store";

export interface ReplyOptions {
  /** Gives the reply an ETag folded from its body. */
  isCacheable?: boolean;
  /** See Reply.cacheControl. */
  cacheControl?: string;
}

export function jsonReply(status: number, value: unknown, options: ReplyOptions = {}): Reply {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  return {
    status,
    body,
    ...(options.isCacheable ? { etag: weakEtag(hashBytes(body), body.length) } : {}),
    ...(options.cacheControl === undefined ? {} : { cacheControl: options.cacheControl }),
  };
}

/** The Cache-Control value a reply is sent with. */
export function cacheControlOf(reply: Reply): string {
  return reply.cacheControl ?? (reply.etag === undefined ? NO_STORE : PRIVATE_CACHE_CONTROL);
}

/**
 * `meta.dataSource` (docs/data.md#demo-data): an answer built from a demo edition (generated
 * ratings, real names) says `"demo"`; one from real data carries no such field. Spread into a meta
 * object; `dataSourceText` is the same as JSON text for the renderers that write meta as text.
 */
export function dataSourceMeta(edition: { readonly isDemo: boolean }): { dataSource?: "demo" } {
  return edition.isDemo ? DEMO_META : NO_META;
}

/** `,"dataSource":"demo"` after a meta's other fields, or "". */
export function dataSourceText(edition: { readonly isDemo: boolean }): string {
  return edition.isDemo ? ',"dataSource":"demo"' : "";
}

const DEMO_META: { dataSource: "demo" } = { dataSource: "demo" };
const NO_META: { dataSource?: "demo" } = {};

export function successReply(data: unknown, meta: Record<string, unknown>, options: ReplyOptions = {}): Reply {
  return jsonReply(200, { success: true, data, meta }, options);
}

/** The success envelope around `dataJson`, data already written as JSON text (a stored row with fields of ours added): the bytes successReply would write for its value. */
export function successReplyJson(dataJson: string, meta: Record<string, unknown>, options: ReplyOptions = {}): Reply {
  const body = Buffer.from(`{"success":true,"data":${dataJson},"meta":${JSON.stringify(meta)}}`, "utf8");
  return {
    status: 200,
    body,
    ...(options.isCacheable ? { etag: weakEtag(hashBytes(body), body.length) } : {}),
    ...(options.cacheControl === undefined ? {} : { cacheControl: options.cacheControl }),
  };
}

/** An error's envelope; `timestamp` (ISO 8601) is when it was answered, as the hosted service says it (docs/compatibility.md#fidelity-rules). */
export function errorReply(error: ApiError, requestId: string, nowMs: number): Reply {
  const details = error.code === "INTERNAL_ERROR" ? { requestId } : error.details;
  return {
    ...jsonReply(error.status, {
      success: false,
      error: { code: error.code, message: error.message || ERROR_TABLE[error.code].message, ...(details ? { details } : {}), timestamp: new Date(nowMs).toISOString() },
    }),
    cacheControl: NO_STORE,
  };
}

/**
 * The reply with `meta.warnings` (docs/compatibility.md#fidelity-rules: what a lenient answer did not understand as sent),
 * written into the finished body as text (http/envelope-meta.ts: the body is not read again); the
 * ETag is the answer's own folded with the warnings (what was added to it), not a hash of the body.
 */
export function withWarnings(reply: Reply, warnings: readonly ParamWarning[]): Reply {
  if (warnings.length === 0 || reply.status !== 200 || (reply.contentType !== undefined && !reply.contentType.startsWith("application/json"))) return reply;
  const texts = warnings.map((warning) => JSON.stringify(warning));
  const body = bodyWithWarnings(reply.body, texts);
  if (body === undefined) return reply;
  return {
    status: reply.status,
    body,
    ...(reply.etag === undefined ? {} : { etag: weakEtag(hashString(`${reply.etag}|${texts.join(",")}`, HASH_SEED), body.length) }),
    ...(reply.headers === undefined ? {} : { headers: reply.headers }),
    ...(reply.cacheControl === undefined ? {} : { cacheControl: reply.cacheControl }),
    ...(reply.contentType === undefined ? {} : { contentType: reply.contentType }),
    // A per-request body (search's timestamp) stays per request: never remembered by request line.
    ...(reply.isScratch === true ? { isScratch: true } : {}),
  };
}

/** The reply with a body of its own, for anything kept past this request (caches, memos); a copy only if it was rendered into scratch. */
export function ownedReply(reply: Reply): Reply {
  if (reply.isScratch !== true) return reply;
  const { isScratch: _isScratch, ...rest } = reply;
  return { ...rest, body: Buffer.from(reply.body) };
}
