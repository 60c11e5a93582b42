// Everything a handler may know about a request, read from uWS before any await.

import type { QueryParams } from "../query/query-string.js";
import type { ChangeLog } from "../store/change-log.js";
import type { EditionSet } from "../store/editions.js";
import type { ParamValues, ParamWarning } from "../query/params.js";
import type { Reply } from "./reply.js";

/** The 2026-07-28 MCP request headers as sent ("" when absent). */
export interface McpHeaders {
  protocolVersion: string;
  method: string;
  name: string;
}
import type { TakeResult, TokenBuckets } from "../limits/token-buckets.js";

/**
 * `V`: the route's typed values (ValuesOf its parameter schemas); code that knows no route sees
 * ParamValues. `B`: its body's shape (RouteBody), undefined on a route that takes none.
 */
export interface RequestContext<V = ParamValues, B = unknown> {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: QueryParams;
  /** The query validated against the route's schema, once: typed, defaults applied (validateParams). */
  values: V;
  /** docs/compatibility.md#fidelity-rules: what was read leniently; the dispatcher adds them to the answer's `meta.warnings`. */
  warnings: ParamWarning[];
  editions: EditionSet;
  /**
   * The current edition's change events (store/change-log.ts); undefined where the service keeps
   * none. A function: the log is built on its first use, so only the routes that read it pay for it.
   */
  changes: () => ChangeLog | undefined;
  requestId: string;
  /** The Accept header as sent ("" when absent): the bulk routes choose their export format by it. */
  accept?: string | undefined;
  /** The body as sent; `json` is what the route reads of it. */
  body: Buffer | undefined;
  /** The body parsed and validated against the route's schema by callRoute (call-route.ts); undefined on a route that takes none. */
  json: B;
  contentType: string;
  /** A POST's MCP headers as sent (POST /mcp); undefined where the caller has none (MCP over stdio, in-process calls). */
  mcpHeaders?: McpHeaders | undefined;
  /** Returns the cached reply for `key` (cacheKey: route, data versions, canonical values) or builds, stores and returns it. */
  cached: (key: string, build: () => Reply) => Reply;
  /** The cached reply for `key`, if any (a handler that builds across turns looks first, then stores with `cached`). */
  cachedReply?: ((key: string) => Reply | undefined) | undefined;
  /** Whether the client has gone: an answer built across turns (an export) stops then. */
  isAborted?: (() => boolean) | undefined;
  now: number;
  /** Admission's outcome: on keyed routes the verified key, its bucket and what is left in it. */
  caller: Admission | undefined;
}

export interface VerifiedKey { id: string; slot: number; rateLimit: number }

/** What admission decided: the bucket drawn from, and the verified key on keyed routes. */
export interface Admission {
  result: TakeResult;
  capacity: number;
  windowSeconds: number;
  policy: string;
  slot: number;
  /** The bucket set `slot` is in (a 304 refunds there). */
  buckets: TokenBuckets;
  key?: VerifiedKey;
  /** The key as presented, on keyed routes only: the key routes act on it, nothing logs it. */
  presentedKey?: string;
}
