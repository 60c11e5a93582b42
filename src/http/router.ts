// The route table, matched once per request by path segments. Precedence is by position: at the
// first segment where two patterns differ in kind, the literal outranks the parameter
// (`/players/bulk` before `/players/:id`, `/players/slug/:slug` before `/players/:id/versions`);
// a path that matches with another method is a 405 with Allow, and nothing else is a 404.

import type { ErrorCode } from "../query/api-error.js";
import type { CompiledParams, ParamValues } from "../query/params.js";
import type { Reply } from "./reply.js";
import type { RequestContext } from "./context.js";
import type { ValidateFunction } from "ajv";

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
    /** Other media types the route answers instead of the envelope (the bulk routes' exports), whose bodies also answer byte ranges (206, 416). */
    exports?: Readonly<Record<string, JsonSchema>>;
  }
  | { kind: "body"; status?: 101; description: string; content: Readonly<Record<string, JsonSchema>> };

export type Method = "GET" | "POST" | "DELETE";

/** A POST route's body: its JSON Schema (documented in OpenAPI) and the validator made from it (call-route.ts routeBody). */
export interface RouteBody<B = unknown> {
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction<B>;
}
/**
 * key: X-API-Key and its token bucket; address: the per-address bucket; registration: the
 * per-address registration bucket (REGISTRATION_POLICY); probe: no key, the generous per-address
 * probe bucket (PROBE_POLICY). Every route has a limit.
 */
export type Access = "key" | "address" | "registration" | "probe";

/** `V`: the values its parameter schemas give (ValuesOf), what its handler reads; `B`: its body's shape. */
export interface RouteDefinition<V = ParamValues, B = unknown> {
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
  /** A POST body's schema and validator (routeBody): callRoute refuses a body that does not match; OpenAPI documents it. */
  body?: RouteBody<B>;
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
   * A browser's request is answered only from an allowed Origin (src/http/origins.ts: loopback
   * pages and MCP_ALLOWED_ORIGINS), else 403 ORIGIN_NOT_ALLOWED before the key is read.
   */
  checksOrigin?: boolean;
  /**
   * Synchronous for every read; a promise only where the route writes (keys), off the GET path.
   * A method, so a route typed by its own values sits in a table of any routes (the dispatcher
   * hands each handler the values its own `params` produced).
   */
  handle(context: RequestContext<V, B>): Reply | Promise<Reply>;
}

interface CompiledRoute {
  definition: RouteDefinition;
  segments: readonly string[];
}

/**
 * One position of the route table's patterns: the literal segments that continue from here, by
 * value, and the parameter edge (any non-empty segment). Patterns that end here are its routes,
 * in precedence order: they share one shape (parameter names aside) and differ only by method.
 */
interface Node {
  readonly literals: Map<string, Node>;
  param: Node | undefined;
  readonly routes: CompiledRoute[];
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

const newNode = (): Node => ({ literals: new Map(), param: undefined, routes: [] });

/**
 * The table as a tree of segments, walked once per request: each segment is a map lookup, and a
 * parameter edge is tried only after the literal below it failed. Depth first, literal first, is
 * the precedence order, so the first pattern reached that ends with the path is the one the
 * table ranks first; its routes say found or wrong method.
 */
export class Router {
  private readonly routes: CompiledRoute[];
  private readonly root: Node = newNode();

  constructor(definitions: readonly RouteDefinition[]) {
    this.routes = definitions
      .map((definition) => ({ definition, segments: definition.path.split("/").slice(1) }))
      // Array.prototype.sort is stable: equal precedence keeps table order.
      .sort((a, b) => comparePrecedence(a.segments, b.segments));
    for (const route of this.routes) {
      let node = this.root;
      for (const segment of route.segments) {
        if (isParam(segment)) {
          node = node.param ??= newNode();
        } else {
          let next = node.literals.get(segment);
          if (next === undefined) node.literals.set(segment, (next = newNode()));
          node = next;
        }
      }
      node.routes.push(route);
    }
  }

  get definitions(): RouteDefinition[] {
    return this.routes.map((route) => route.definition);
  }

  /** `segments` are already percent-decoded. HEAD is matched as GET. */
  match(method: string, segments: readonly string[]): RouteMatch {
    const routes = find(this.root, segments, 0);
    if (routes === undefined) return { kind: "not-found" };
    const wanted = method === "HEAD" ? "GET" : method;
    const allowed: Method[] = [];
    for (const route of routes) {
      if (route.definition.method === wanted) return { kind: "found", route: route.definition, pathParams: paramsOf(route.segments, segments) };
      if (!allowed.includes(route.definition.method)) allowed.push(route.definition.method);
    }
    return { kind: "wrong-method", allowed };
  }
}

/** The routes of the first pattern, in precedence order, that matches `segments` from `depth` on. */
function find(node: Node, segments: readonly string[], depth: number): CompiledRoute[] | undefined {
  if (depth === segments.length) return node.routes.length > 0 ? node.routes : undefined;
  const segment = segments[depth] as string;
  const literal = node.literals.get(segment);
  if (literal !== undefined) {
    const found = find(literal, segments, depth + 1);
    if (found !== undefined) return found;
  }
  return node.param !== undefined && segment.length > 0 ? find(node.param, segments, depth + 1) : undefined;
}

function paramsOf(pattern: readonly string[], segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const name = pattern[i] as string;
    if (isParam(name)) params[name.slice(1)] = segments[i] as string;
  }
  return params;
}
