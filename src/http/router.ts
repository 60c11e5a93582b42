// The route table, matched once per request by path segments. Precedence is by position: at the
// first segment where two patterns differ in kind, the literal outranks the parameter
// (`/players/bulk` before `/players/:id`, `/players/slug/:slug` before `/players/:id/versions`);
// a path that matches with another method is a 405 with Allow, and nothing else is a 404.

import type { ErrorCode } from "../query/api-error.js";
import type { CompiledParams, ParamValues } from "../query/params.js";
import type { Reply } from "./reply.js";
import type { RequestContext } from "./context.js";

export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What a route answers on success: the JSON envelope `{ success: true, data, meta? }` (200, or 201
 * for a creation), or a body outside it (this document, a page, a file), by media type.
 */
export type RouteResponse =
  | {
    kind: "envelope"; status?: 200 | 201; description: string; data: JsonSchema; meta?: JsonSchema;
    /** Keys beside the envelope's own (`/` and `/api/health` carry the hosted service's unenveloped keys there, docs/compatibility.md#fidelity-rules). */
    topLevel?: Readonly<Record<string, JsonSchema>>;
  }
  | { kind: "body"; status?: 101; description: string; content: Readonly<Record<string, JsonSchema>> };

export type Method = "GET" | "POST" | "DELETE";
/**
 * key: X-API-Key and its token bucket; address: the per-address bucket; registration: the
 * per-address registration bucket (REGISTRATION_POLICY); none: no limit at all.
 */
export type Access = "key" | "address" | "registration" | "none";

/** `V`: the values its parameter schemas give (ValuesOf), what its handler reads. */
export interface RouteDefinition<V = ParamValues> {
  method: Method;
  path: string;
  access: Access;
  params: CompiledParams<V>;
  summary: string;
  /**
   * The Cache-Control its cacheable replies carry when it is not the default `private, max-age=3600`
   * (the handler sets the same constant on its Reply; OpenAPI documents it from here).
   */
  cacheControl?: string;
  /** JSON Schema of a POST body (documented in OpenAPI; the handler validates with it). */
  bodySchema?: object;
  /**
   * What it answers on success, documented in OpenAPI and checked against real answers by
   * test/http/responses.test.ts (which fails for a route without one).
   */
  response?: RouteResponse;
  /** Error codes it answers with beyond those its access, path parameters and method imply. */
  errors?: readonly ErrorCode[];
  /**
   * The key's owner acting on it (usage, regenerate, revoke): a valid key is needed but no token from
   * its bucket, so a thief who empties the bucket cannot stop the owner; a small bucket of their own
   * per key (OWNER_POLICY) keeps them from being a way to flood.
   */
  isOwnerAction?: boolean;
  /**
   * Synchronous for every read; a promise only where the route writes (keys), off the GET path.
   * A method, so a route typed by its own values sits in a table of any routes (the dispatcher
   * hands each handler the values its own `params` produced).
   */
  handle(context: RequestContext<V>): Reply | Promise<Reply>;
}

interface CompiledRoute {
  definition: RouteDefinition;
  segments: readonly string[];
  /** The pattern with parameter names erased (`/api/players/:`): routes sharing it differ only by method. */
  shape: string;
}

export type RouteMatch =
  | { kind: "found"; route: RouteDefinition; pathParams: Record<string, string> }
  | { kind: "wrong-method"; allowed: Method[] }
  | { kind: "not-found" };

const isParam = (segment: string): boolean => segment.startsWith(":");

/**
 * Negative when `a` outranks `b`: at the first position where one has a literal and the other a
 * parameter; otherwise the shorter first (patterns of different lengths never match the same
 * path, but the order must be total for the sort to be one: without it a route appended late
 * could stay behind a parameter route it outranks).
 */
export function comparePrecedence(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const aParam = isParam(a[i] as string);
    const bParam = isParam(b[i] as string);
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return a.length - b.length;
}

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(definitions: readonly RouteDefinition[]) {
    this.routes = definitions
      .map((definition) => {
        const segments = definition.path.split("/").slice(1);
        return { definition, segments, shape: segments.map((segment) => (isParam(segment) ? ":" : segment)).join("/") };
      })
      // Array.prototype.sort is stable: equal precedence keeps table order.
      .sort((a, b) => comparePrecedence(a.segments, b.segments));
  }

  get definitions(): RouteDefinition[] {
    return this.routes.map((route) => route.definition);
  }

  /** `segments` are already percent-decoded. HEAD is matched as GET. */
  match(method: string, segments: readonly string[]): RouteMatch {
    const wanted = method === "HEAD" ? "GET" : method;
    const allowed: Method[] = [];
    let matchedShape: string | undefined;
    for (const route of this.routes) {
      // The first (most specific) matching pattern wins; another route adds methods only if it has the same pattern.
      if (matchedShape !== undefined && route.shape !== matchedShape) continue;
      const pathParams = matchSegments(route.segments, segments);
      if (!pathParams) continue;
      matchedShape ??= route.shape;
      if (route.definition.method === wanted) return { kind: "found", route: route.definition, pathParams };
      allowed.push(route.definition.method);
    }
    if (allowed.length === 0) return { kind: "not-found" };
    return { kind: "wrong-method", allowed: [...new Set(allowed)] };
  }
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = segments[i] as string;
    if (isParam(expected)) {
      if (actual.length === 0) return undefined;
      params[expected.slice(1)] = actual;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
