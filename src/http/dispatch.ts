// The request pipeline, free of uWS: route (404/405) → API key (401) → rate limit (429) →
// parameters (400) → handler → conditional (304) → headers. One try/catch funnel turns an
// ApiError into its envelope and anything else into a 500 that reveals nothing. Handlers answer
// synchronously; the few that write (keys) return a promise, which takes the same funnel later.

import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { ApiError } from "../query/api-error.js";
import { checkLength } from "../query/limits.js";
import { parseQueryString } from "../query/query-string.js";
import type { ChangeLog } from "../store/change-log.js";
import type { EditionSet } from "../store/editions.js";
import { renderOwned } from "../store/scratch.js";
import { chooseEncoding, compressedLater, encodedBody, matchesIfNoneMatch, THREAD_COMPRESS_MIN_BYTES, type Encoding } from "./encoding.js";
import { checkOrigin } from "./origins.js";
import { byteRangeOf } from "./ranges.js";
import { callRoute } from "./call-route.js";
import { cacheControlOf, errorReply, isRepeatable, ownedReply, type Reply } from "./reply.js";
import type { RouteDefinition, Router } from "./router.js";
import type { Admission, McpHeaders } from "./context.js";
import type { RequestStats } from "../ops/request-stats.js";
import { rateLimitLines } from "../limits/token-buckets.js";
import { Admitter, type AdmissionOptions } from "./admission.js";

export interface IncomingRequest {
  method: string;
  url: string;
  rawQuery: string;
  apiKey: string;
  ifNoneMatch: string;
  acceptEncoding: string;
  /** The Accept header (the bulk routes' exports are chosen by it); "" when absent. */
  accept?: string;
  /** A Range header and its If-Range, read where a reply may answer ranges (src/http/ranges.ts). */
  range?: string;
  ifRange?: string;
  contentType: string;
  origin: string;
  /** A POST's Model Context Protocol headers (POST /mcp checks them against its message); absent on other methods. */
  mcpHeaders?: McpHeaders | undefined;
  /** The peer's address, read only when a route needs it (one syscall). */
  address(): string;
  body: Buffer | undefined;
  isBodyTooLarge: boolean;
  /** A request header that must not be believed (a second Content-Length): answered 400 before anything else. */
  badHeader?: string;
  /** Set by the adapter once the client has gone (an answer still being built may stop). */
  hasLeft?: boolean;
  /** The request head is over MAX_HEADERS_KB (measured by server.ts where uWS does not: 20.30); answered 431 and closed. */
  headBytesOverLimit?: number;
}

export interface Outgoing {
  status: number;
  /** Header lines `Name: value` joined by CRLF (no CRLF at either end); every value is ours, never raw client input. */
  headers: string;
  /** Null for HEAD and 304: the adapter then writes Content-Length itself and no body. */
  body: Buffer | null;
  contentLength: number;
  /** For the access log: the matched route template, or what was refused. */
  route: string;
  requestId: string;
  /** Draining: answer, then close the connection so the client reconnects elsewhere. */
  shouldClose?: boolean;
  /** The body is the scratch buffer: write it now, in one call, never streamed across ticks. */
  isScratch?: boolean;
  /** The KeyRegistry slot of the verified key that made the request, or -1 (for usage tracking). */
  keySlot: number;
}

/** Admission's buckets and key check (admission.ts), and what the dispatcher itself needs. */
export interface DispatchOptions extends AdmissionOptions {
  router: Router;
  editions: () => EditionSet;
  /** The change log that goes with `editions()` (swapped with it). */
  changes?: () => ChangeLog;
  now: () => number;
  /** 0 disables the response cache (benchmarks of the uncached path). */
  responseCacheBytes: number;
  corsOrigins: readonly string[];
  /** MCP_ALLOWED_ORIGINS: the browser origins a route that checks Origin (POST /mcp) answers besides loopback pages. */
  allowedOrigins?: readonly string[];
  isDraining: () => boolean;
  maxBodyBytes: number;
  onError?: (error: unknown, requestId: string) => void;
  stats?: RequestStats;
}

const JSON_TYPE = "application/json; charset=utf-8";
const EXPOSED_HEADERS = "ETag, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy";

type Limit = Admission;

/** What an upgrade request gets: the reserved value, or the answer that refuses it. */
export type UpgradeDecision<T> = { kind: "admitted"; value: T } | { kind: "refused"; outgoing: Outgoing };

/** GET /api/live as admission sees it: a keyed route. */
const LIVE_ROUTE = { path: "/api/live", access: "key" } as Pick<RouteDefinition, "path" | "access"> as RouteDefinition;

/** A request line already answered with a cacheable reply: its route and that reply. */
interface Answered { route: RouteDefinition; reply: Reply }

/** Request lines longer than this are not remembered (they are rare and would crowd the memo). */
const ANSWERED_MAX_LINE = 1024;

export class Dispatcher {
  private readonly cache: LRUCache<string, Reply> | undefined;
  /**
   * Request line (path + raw query) → its route and cacheable reply, for the data version in
   * `answeredFor`. A repeated GET then skips path decoding, routing, query parsing, validation and
   * key building and goes straight to the key check and rate limit. Only replies with an ETag go
   * in: those depend on nothing but the path, the query and the data.
   */
  private readonly answered: LRUCache<string, Answered> | undefined;
  private answeredFor: EditionSet | undefined;
  private readonly requestPrefix = randomBytes(3).toString("hex");
  private requestCount = 0;
  /** What handlers call for the change log: built on its first use, never by routes that do not read it. */
  private readonly changes = (): ChangeLog | undefined => this.options.changes?.();
  private readonly admission: Admitter;
  /** What a handler calls for the response cache: made once, not per request. */
  private readonly cachedOf = (key: string, build: () => Reply): Reply => this.cached(key, build);
  private readonly cachedReplyOf = (key: string): Reply | undefined => this.cache?.get(key);

  constructor(private readonly options: DispatchOptions) {
    this.admission = new Admitter(options);
    this.cache = options.responseCacheBytes > 0
      ? new LRUCache<string, Reply>({
        maxSize: options.responseCacheBytes,
        // Room for the identity body and its compressed variants, which are filled in later.
        sizeCalculation: (reply) => Math.max(1, reply.body.length * 2),
      })
      : undefined;
    // Its entries mostly share their replies with the cache above; counted alike, the two together
    // hold at most twice responseCacheBytes (when their contents drift fully apart).
    this.answered = options.responseCacheBytes > 0
      ? new LRUCache<string, Answered>({ maxSize: options.responseCacheBytes, sizeCalculation: ({ reply }, line) => reply.body.length * 2 + line.length + 1 })
      : undefined;
  }

  get cacheStats(): { size: number; bytes: number } {
    return { size: this.cache?.size ?? 0, bytes: this.cache?.calculatedSize ?? 0 };
  }

  /** The route table, in the router's (fixed) order: usage tracking numbers routes by it. */
  get routes(): readonly RouteDefinition[] {
    return this.options.router.definitions;
  }

  /**
   * Answers at once, except a key write (an asynchronous handler) and a keyed request whose token
   * must come from the buckets replicas share (REDIS_URL) when this replica holds none of them.
   */
  dispatch(request: IncomingRequest): Outgoing | Promise<Outgoing> {
    const requestId = `${this.requestPrefix}-${(++this.requestCount).toString(36)}`;
    const now = this.options.now();
    let route: RouteDefinition | undefined;
    try {
      if (request.headBytesOverLimit !== undefined) {
        const error = new ApiError("HEADERS_TOO_LARGE", { limit: request.headBytesOverLimit });
        return { ...this.respond(request, requestId, "(bad request)", errorReply(error, requestId, now), undefined), shouldClose: true };
      }
      if (request.method === "OPTIONS" && this.corsOrigin(request.origin) !== undefined) {
        return this.preflight(request, requestId);
      }
      if (request.badHeader !== undefined) {
        const error = new ApiError("INVALID_PARAMETER", { parameter: request.badHeader, reason: "given more than once" }, `The ${request.badHeader} header is given more than once`);
        return { ...this.respond(request, requestId, "(bad request)", errorReply(error, requestId, now), undefined), shouldClose: true };
      }
      const line = this.answeredLine(request);
      const answered = line === undefined ? undefined : this.answered?.get(line);
      if (answered !== undefined) {
        route = answered.route;
        const replay = (limit: Limit | undefined): Outgoing | Promise<Outgoing> => {
          if (this.options.stats) this.options.stats.cache.hits += 1;
          return this.answer(request, requestId, answered.route.path, answered.reply, limit);
        };
        const admitted = this.admission.admit(route, request, now);
        return admitted instanceof Promise ? this.admitLater(admitted, request, requestId, route.path, replay) : replay(admitted);
      }
      const segments = decodePath(request.url);
      const match = this.options.router.match(request.method, segments);
      if (match.kind === "not-found") throw new ApiError("NOT_FOUND", { path: request.url }, `No route for ${request.url}`);
      if (match.kind === "wrong-method") {
        const allowed = match.allowed.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
        const error = new ApiError("METHOD_NOT_ALLOWED", { allowed }, `${request.method} is not allowed on ${request.url}; use ${allowed.join(", ")}`);
        return this.respond(request, requestId, "(method not allowed)", { ...errorReply(error, requestId, now), headers: [["Allow", allowed.join(", ")]] }, undefined);
      }
      const matched = match.route;
      route = matched;
      if (matched.checksOrigin === true) checkOrigin(request.origin, this.options.allowedOrigins ?? []);
      const admitted = this.admission.admit(matched, request, now);
      if (admitted instanceof Promise) {
        return this.admitLater(admitted, request, requestId, matched.path, (limit) => this.handle(request, requestId, now, line, matched, match.pathParams, limit));
      }
      return this.handle(request, requestId, now, line, matched, match.pathParams, admitted);
    } catch (error) {
      const failed = this.failure(error, requestId, undefined);
      return this.respond(request, requestId, route?.path ?? "(unmatched)", failed.reply, failed.limit);
    }
  }

  /**
   * A WebSocket upgrade (GET /api/live): admitted as a keyed request (the key, one token), then
   * `reserve` (which may throw an ApiError, e.g. a connection cap) turns the admission into a value.
   * A refusal is the envelope to write instead of upgrading. Never throws or rejects.
   */
  upgrade<T>(request: IncomingRequest, reserve: (admission: Admission) => T): UpgradeDecision<T> | Promise<UpgradeDecision<T>> {
    const requestId = `${this.requestPrefix}-${(++this.requestCount).toString(36)}`;
    const refuse = (error: unknown, limit?: Limit): UpgradeDecision<T> => {
      const failed = this.failure(error, requestId, limit);
      return { kind: "refused", outgoing: this.respond(request, requestId, LIVE_ROUTE.path, failed.reply, failed.limit) };
    };
    const decide = (limit: Limit): UpgradeDecision<T> => {
      try {
        return { kind: "admitted", value: reserve(limit) };
      } catch (error) {
        return refuse(error, limit);
      }
    };
    if (this.options.isDraining()) return refuse(new ApiError("SERVICE_UNAVAILABLE"));
    try {
      const admitted = this.admission.admit(LIVE_ROUTE, request, this.options.now());
      if (admitted instanceof Promise) return admitted.then((limit) => decide(limit), (error: unknown) => refuse(error));
      return decide(admitted as Limit);
    } catch (error) {
      return refuse(error);
    }
  }

  /** Body and parameters (400) → handler (callRoute) → the answer, for a request already admitted. */
  private handle(request: IncomingRequest, requestId: string, now: number, line: string | undefined, route: RouteDefinition, pathParams: Record<string, string>, limit: Limit | undefined): Outgoing | Promise<Outgoing> {
    let reply: Reply;
    try {
      const handled = callRoute(route, {
        method: request.method, path: request.url, pathParams, query: parseQueryString(request.rawQuery), editions: this.options.editions(), changes: this.changes,
        requestId, accept: request.accept, body: request.body, contentType: request.contentType, mcpHeaders: request.mcpHeaders, now, caller: limit,
        cached: this.cachedOf, cachedReply: this.cache === undefined ? undefined : this.cachedReplyOf, isAborted: () => request.hasLeft === true,
        bodyOverLimit: request.isBodyTooLarge ? this.options.maxBodyBytes : undefined,
      });
      if (handled instanceof Promise) return this.settle(handled, request, requestId, route.path, limit);
      reply = handled;
      if (line !== undefined && isRepeatable(reply)) this.answered?.set(line, { route, reply });
    } catch (error) {
      ({ reply, limit } = this.failure(error, requestId, limit));
    }
    return this.answer(request, requestId, route.path, reply, limit);
  }

  /**
   * The answer, at once, or once a large body is compressed on zlib's threads (compressedLater):
   * no request holds the thread to compress. A scratch body is copied first (it is written later).
   */
  private answer(request: IncomingRequest, requestId: string, route: string, reply: Reply, limit: Limit | undefined): Outgoing | Promise<Outgoing> {
    if (request.method !== "GET" || reply.status !== 200 || reply.isPrecompressed === true
      || (reply.acceptsRanges === true && request.range !== undefined && request.range.length > 0)
      || (reply.etag !== undefined && matchesIfNoneMatch(request.ifNoneMatch, reply.etag))) {
      return this.respond(request, requestId, route, reply, limit);
    }
    const encoding = chooseEncoding(request.acceptEncoding);
    // A kept encoding is looked for before the body's length: a spliced reply (withTail) builds its identity body only when asked.
    if (encoding === "identity" || reply.encoded?.[encoding] !== undefined || reply.body.length < THREAD_COMPRESS_MIN_BYTES) return this.respond(request, requestId, route, reply, limit);
    const owned = ownedReply(reply);
    return (compressedLater(owned, encoding) ?? Promise.resolve()).then(() => this.respond(request, requestId, route, owned, limit));
  }

  /** A request waiting for the shared buckets: continues when they answer, through the same funnel. Never rejects. */
  private admitLater(admitted: Promise<Limit>, request: IncomingRequest, requestId: string, route: string, next: (limit: Limit) => Outgoing | Promise<Outgoing>): Promise<Outgoing> {
    // Several waiters are often let in at once (one answer from the shared store): each answer must
    // keep its own bytes until the socket writes it, after this tick, not share the scratch buffer.
    return admitted.then((limit) => keptOutgoing(next(limit)), (error: unknown) => {
      const failed = this.failure(error, requestId, undefined);
      return this.respond(request, requestId, route, failed.reply, failed.limit);
    });
  }

  /** An asynchronous handler's reply, through the same funnel. Never rejects. */
  private settle(handled: Promise<Reply>, request: IncomingRequest, requestId: string, route: string, limit: Limit | undefined): Promise<Outgoing> {
    return handled.then(
      // Written after this tick: a body rendered into scratch is copied now, before another render reuses it.
      (reply) => this.answer(request, requestId, route, ownedReply(reply), limit),
      (error: unknown) => {
        const failed = this.failure(error, requestId, limit);
        return this.respond(request, requestId, route, failed.reply, failed.limit);
      },
    );
  }

  /** The one place a thrown error becomes a reply: its envelope, or a 500 that is logged. */
  private failure(error: unknown, requestId: string, limit: Limit | undefined): { reply: Reply; limit: Limit | undefined } {
    if (!(error instanceof ApiError)) this.options.onError?.(error, requestId);
    const apiError = error instanceof ApiError ? error : new ApiError("INTERNAL_ERROR");
    if (apiError.code === "RATE_LIMIT_EXCEEDED" || apiError.code === "REGISTRATION_RATE_LIMIT") {
      if (limit === undefined) limit = (error as ApiError & { limit?: Limit }).limit;
      if (this.options.stats) this.options.stats.rateLimited[limit?.policy === "free" || limit?.policy === "custom" || limit?.policy === "owner" ? "key" : "address"] += 1;
    }
    return { reply: errorReply(apiError, requestId, this.options.now()), limit };
  }

  /** The memo key of a GET or HEAD, or undefined when the memo is off or the line too long. */
  private answeredLine(request: IncomingRequest): string | undefined {
    if (this.answered === undefined || (request.method !== "GET" && request.method !== "HEAD")) return undefined;
    const editions = this.options.editions();
    if (editions !== this.answeredFor) {
      // New data (a reload swapped the edition set): every remembered reply is stale.
      this.answered.clear();
      this.answeredFor = editions;
    }
    // An answer may depend on Accept (the bulk routes' exports): a request with one of its own is remembered apart.
    const accept = request.accept ?? "";
    const isPlainAccept = accept.length === 0 || accept === "*/*" || accept === "application/json";
    if (request.url.length + request.rawQuery.length + (isPlainAccept ? 0 : accept.length) > ANSWERED_MAX_LINE) return undefined;
    return isPlainAccept ? `${request.url}?${request.rawQuery}` : `${request.url}?${request.rawQuery}\n${accept}`;
  }

  private cached(key: string, build: () => Reply): Reply {
    if (!this.cache) return build();
    const hit = this.cache.get(key);
    if (this.options.stats) this.options.stats.cache[hit ? "hits" : "misses"] += 1;
    if (hit) return hit;
    // Rendered once, into bytes of its own that the cache keeps (never into scratch and copied out).
    const reply = renderOwned(build);
    if (reply.status !== 200) return reply;
    const owned = ownedReply(reply);
    this.cache.set(key, owned);
    return owned;
  }

  private respond(request: IncomingRequest, requestId: string, route: string, reply: Reply, limit: Limit | undefined): Outgoing {
    const isNotModified = reply.etag !== undefined && reply.status === 200 && matchesIfNoneMatch(request.ifNoneMatch, reply.etag);
    if (isNotModified && limit && limit.result.isAllowed) {
      // A 304 takes no token: give back the one taken on admission.
      if (limit.key !== undefined && this.options.sharedBuckets !== undefined) this.options.sharedBuckets.refund(limit.key.id, limit.slot, limit.capacity);
      else limit.buckets.refund(limit.slot, limit.capacity);
      limit = { ...limit, result: { ...limit.result, remaining: Math.min(limit.capacity, limit.result.remaining + 1) } };
    }
    let headers = `X-Request-Id: ${requestId}`;
    // A public answer may be kept and replayed by a shared cache to anyone: it never carries the
    // requester's own bucket (a refusal is no-store, so it keeps its headers and Retry-After).
    if (limit && !isPublic(reply)) {
      headers += rateLimitLines(limit.result, limit.capacity, limit.windowSeconds, limit.policy, this.options.now());
      if (!limit.result.isAllowed) headers += `\r\nRetry-After: ${limit.result.retryAfterSeconds}`;
    }
    const origin = this.corsOrigin(request.origin);
    if (origin !== undefined) headers += `\r\nAccess-Control-Allow-Origin: ${origin}\r\nAccess-Control-Expose-Headers: ${EXPOSED_HEADERS}`;
    // Whenever CORS is on the answer depends on Origin (with it, Access-Control-Allow-Origin; without, none), `*` included.
    if (this.options.corsOrigins.length > 0) headers += "\r\nVary: Origin";
    if (reply.headers) for (const [name, value] of reply.headers) headers += `\r\n${name}: ${value}`;
    const shouldClose = this.options.isDraining();
    const keySlot = limit?.key === undefined ? -1 : limit.key.slot;
    if (isNotModified) return { status: 304, headers: headers + representationLines(reply, undefined), body: null, contentLength: 0, route, requestId, shouldClose, keySlot };
    const isHead = request.method === "HEAD";
    // RFC 9110 §14.2: range handling is defined for GET only, so a HEAD is the whole body's (200, its length).
    if (!isHead && reply.acceptsRanges === true && reply.status === 200 && request.range !== undefined && request.range.length > 0) {
      // A byte range of the identity body (what DuckDB's httpfs reads a file by); If-Range with a
      // weak ETag never matches (RFC 9110 §13.1.5), so it gets the whole body below.
      const range = request.ifRange !== undefined && request.ifRange.length > 0 ? undefined : byteRangeOf(request.range, reply.body.length);
      if (range === "unsatisfiable") {
        headers += `${representationLines(reply, "identity")}\r\nContent-Range: bytes */${reply.body.length}`;
        return { status: 416, headers, body: null, contentLength: 0, route, requestId, shouldClose, keySlot };
      }
      if (range !== undefined) {
        const [first, last] = range;
        headers += `${representationLines(reply, "identity")}\r\nContent-Range: bytes ${first}-${last}/${reply.body.length}`;
        const part = reply.body.subarray(first, last + 1);
        return { status: 206, headers, body: part, contentLength: part.length, route, requestId, shouldClose, keySlot };
      }
    }
    const { body, encoding } = encodedBody(reply, reply.isPrecompressed === true ? "identity" : chooseEncoding(request.acceptEncoding));
    headers += representationLines(reply, encoding);
    return { status: reply.status, headers, body: isHead ? null : body, contentLength: body.length, route, requestId, shouldClose, isScratch: reply.isScratch === true && body === reply.body, keySlot };
  }

  private corsOrigin(origin: string): string | undefined {
    const { corsOrigins } = this.options;
    if (corsOrigins.length === 0 || origin.length === 0) return undefined;
    if (corsOrigins.includes("*")) return "*";
    return corsOrigins.includes(origin) ? origin : undefined;
  }

  private preflight(request: IncomingRequest, requestId: string): Outgoing {
    const origin = this.corsOrigin(request.origin) as string;
    return {
      status: 204,
      headers: `X-Request-Id: ${requestId}\r\nAccess-Control-Allow-Origin: ${origin}\r\nAccess-Control-Allow-Methods: GET, HEAD, POST, DELETE, OPTIONS`
        + "\r\nAccess-Control-Allow-Headers: X-API-Key, Content-Type, If-None-Match\r\nAccess-Control-Max-Age: 600\r\nVary: Origin",
      body: null,
      contentLength: 0,
      route: "(preflight)",
      requestId,
      keySlot: -1,
    };
  }
}

/**
 * The headers that describe the representation (caching, Vary, type, coding), as lines each after
 * a CRLF; `undefined` encoding for a 304, which stops before the type. The same for every answer
 * of a reply, so they are built once per reply and coding and kept on it.
 */
function representationLines(reply: Reply, encoding: Encoding | undefined): string {
  const slot = encoding ?? "notModified";
  const kept = reply.headerLines?.[slot];
  if (kept !== undefined) return kept;
  let lines = `\r\nCache-Control: ${cacheControlOf(reply)}`;
  if (reply.etag !== undefined) lines += `\r\nETag: ${reply.etag}`;
  lines += "\r\nVary: Accept-Encoding";
  if (reply.acceptsRanges === true) lines += "\r\nAccept-Ranges: bytes";
  if (encoding !== undefined) {
    // Every body is what its Content-Type says, never sniffed into something else (a JSON answer quoting markup).
    lines += `\r\nContent-Type: ${reply.contentType ?? JSON_TYPE}\r\nX-Content-Type-Options: nosniff`;
    if (encoding !== "identity") lines += `\r\nContent-Encoding: ${encoding}`;
  }
  (reply.headerLines ??= {})[slot] = lines;
  return lines;
}

function isPublic(reply: Reply): boolean {
  return /^\s*public\b/i.test(cacheControlOf(reply));
}

/**
 * An answer written after this tick (it waited for the shared buckets): a scratch body is copied,
 * since the next render reuses the scratch buffer before the socket writes this one. Rare: only
 * requests whose key has no leased token left wait.
 */
function keptOutgoing(outgoing: Outgoing | Promise<Outgoing>): Outgoing | Promise<Outgoing> {
  if (outgoing instanceof Promise || outgoing.isScratch !== true || outgoing.body === null) return outgoing;
  return { ...outgoing, body: Buffer.from(outgoing.body), isScratch: false };
}

/** `/api/teams/Boston%20Celtics/roster` → ["api", "teams", "Boston Celtics", "roster"]. */
function decodePath(url: string): string[] {
  let segments = url.split("/").slice(1);
  if (url.indexOf("%") !== -1) {
    try {
      segments = segments.map((segment) => decodeURIComponent(segment));
    } catch {
      throw new ApiError("INVALID_PARAMETER", { parameter: "path", value: url.slice(0, 200), reason: "malformed percent-encoding or invalid UTF-8" }, "The request path has malformed percent-encoding");
    }
  }
  // Before routing: no route, handler or suggestion ever sees a segment past the limit.
  for (const segment of segments) checkLength("pathSegment", "path segment", segment);
  return segments;
}
