// What a handler returns: status, JSON bytes and how the response may be cached. The adapter
// adds rate-limit, caching and encoding headers; handlers never touch uWS.

import { ERROR_TABLE, type ApiError } from "../query/api-error.js";
import { hashBytes } from "../store/hash.js";

export interface Reply {
  status: number;
  body: Buffer;
  /** Set on cacheable replies: `Cache-Control: private, max-age=3600` and this weak ETag. */
  etag?: string;
  headers?: readonly (readonly [string, string])[];
  /** `Cache-Control: no-store` (health, readiness, errors). */
  isNoStore?: boolean;
  /** Replaces `no-store` on a reply without an ETag (the dashboard's `private, no-store`). */
  cacheControl?: string;
  /** Defaults to JSON; the API reference page and its assets set their own. */
  contentType?: string;
  /**
   * The body is a view of the thread's scratch buffer (src/store/scratch.ts), which the next render
   * overwrites: it may be written out now, and kept only as a copy (`ownedReply`).
   */
  isScratch?: boolean;
  /** A cached template (search): the byte offset where each request writes its 24-byte timestamp. */
  timestampAt?: number;
  /** Its representation header lines per coding (and for a 304), built once on first use. */
  headerLines?: { br?: string; gzip?: string; identity?: string; notModified?: string };
  /** Encoded bodies, filled once on first use and kept with a cached reply. */
  encoded?: { br?: Buffer; gzip?: Buffer };
}

export function weakEtag(hash: number, salt = 0): string {
  return `W/"${hash.toString(16).padStart(8, "0")}${salt === 0 ? "" : salt.toString(16).padStart(8, "0")}"`;
}

export function jsonReply(status: number, value: unknown, options: { isCacheable?: boolean; isNoStore?: boolean } = {}): Reply {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  return {
    status,
    body,
    ...(options.isCacheable ? { etag: weakEtag(hashBytes(body), body.length) } : {}),
    ...(options.isNoStore ? { isNoStore: true } : {}),
  };
}

export function successReply(data: unknown, meta: Record<string, unknown>, options: { isCacheable?: boolean } = {}): Reply {
  return jsonReply(200, { success: true, data, meta }, options);
}

export function errorReply(error: ApiError, requestId: string): Reply {
  const details = error.code === "INTERNAL_ERROR" ? { requestId } : error.details;
  return {
    ...jsonReply(error.status, {
      success: false,
      error: { code: error.code, message: error.message || ERROR_TABLE[error.code].message, ...(details ? { details } : {}) },
    }),
    isNoStore: true,
  };
}

/** The reply with a body of its own, for anything kept past this request (caches, memos). */
export function ownedReply(reply: Reply): Reply {
  if (reply.isScratch !== true) return reply;
  const { isScratch: _isScratch, ...rest } = reply;
  return { ...rest, body: Buffer.from(reply.body) };
}
