// The MCP tools (docs/mcp.md): each one is a REST route called in-process, never over HTTP. A
// tool's arguments are that route's query parameters (the same schemas, the same validation) plus
// its path parameters; its structured result is the route's envelope without `success`
// ({ data, meta }), so it equals what the REST answer carries; its text is a one-line summary.
// Bad arguments are the route's own 4xx error, returned as a tool error (isError) naming the
// argument, never a protocol failure. Used by POST /mcp (mcp.ts) and by `courtside mcp` (stdio).

import { LRUCache } from "lru-cache";
import { ApiError } from "../../query/api-error.js";
import { checkLength } from "../../query/limits.js";
import { addParameter, checkParameterCount } from "../../query/query-string.js";
import { ATTRIBUTE_BOUND_NAME, type ParamSchema } from "../../query/params.js";
import type { ChangeLog } from "../../store/change-log.js";
import type { EditionSet } from "../../store/editions.js";
import { callRoute } from "../call-route.js";
import { isRepeatable, sharedBodyOf, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";

/** What a tool needs of the service: the data, and (over HTTP) the dispatcher's reply cache. */
export interface ToolEnvironment {
  editions: () => EditionSet;
  changes: () => ChangeLog | undefined;
  cached: (key: string, build: () => Reply) => Reply;
  now: () => number;
  /** Whether answers may be remembered (the response cache is on): a repeated call's reply is then found by its tool and arguments. */
  remembers?: boolean;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * What a tool call came to: the route's reply, its result still to be read from it (read once per
 * kept body: `McpTools.read`), or the tool error it was refused with.
 */
export type ToolOutcome = { readonly spec: ToolSpec; readonly reply: Reply } | { readonly error: ToolResult };

/** A reply's tool result, and whether its envelope is exactly `{"success":true,"data":…}` with at most `meta` after `data` (so the structured result is the envelope's own text from `"data"` on). */
export interface ReadReply {
  readonly spec: ToolSpec;
  readonly result: ToolResult;
  readonly isPlain: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[]; patternProperties?: Record<string, unknown>; additionalProperties: boolean };
}

/** Bytes of replies remembered by tool and arguments (most are the response cache's own, held twice). */
const ANSWERED_BYTES = 32 * 1024 * 1024;
/** A call whose arguments are written longer than this is not remembered. */
const ANSWERED_KEY_MAX = 2_000;

const PATH_ARGUMENT = { type: "string", minLength: 1, maxLength: 200 } as const;

export interface ToolSpec {
  name: string;
  description: string;
  /** The route's method and path in the route table. */
  path: string;
  /** Path parameters taken as arguments (required), with their descriptions. */
  pathArgs?: Readonly<Record<string, string>>;
  /** Picks another route of the table from the arguments (get_player: id or slug, edition). */
  choose?: (args: Record<string, unknown>) => { path: string; pathArgs: Record<string, string> };
  /** The routes `choose` may pick (docs/mcp.md lists them). */
  choosesAmong?: readonly string[];
  /** Extra arguments of `choose` beside the route's query parameters. */
  extraArgs?: Readonly<Record<string, unknown>>;
  summarise: (result: { data: unknown; meta?: Record<string, unknown> }) => string;
}

/**
 * The first ten names of a list of players (`at` picks the player of a row), each name that
 * repeats in them followed by its era and team: "Stephen Curry (curr, Golden State Warriors)".
 */
const names = (data: unknown, at = (row: any): any => row): string => {
  const rows = Array.isArray(data) ? data : [];
  const listed = rows.slice(0, 10).map(at).filter((player) => typeof player?.name === "string");
  const seen = new Map<string, number>();
  for (const player of listed) seen.set(player.name, (seen.get(player.name) ?? 0) + 1);
  const named = listed.map((player) => {
    if ((seen.get(player.name) ?? 0) < 2) return player.name as string;
    const where = [player.teamType, player.team].filter((part) => typeof part === "string" && part.length > 0);
    return where.length > 0 ? `${player.name} (${where.join(", ")})` : player.name as string;
  });
  return named.join(", ") + (rows.length > 10 ? ", …" : "");
};
const count = (data: unknown): number => (Array.isArray(data) ? data.length : 0);
/** `1 player`, `3 players`. */
const players = (n: number): string => `${n} player${n === 1 ? "" : "s"}`;

const SPECS: readonly ToolSpec[] = [
  {
    name: "search_players", path: "/api/players/search",
    description: "Search players by name (ranked, typo-tolerant). Same parameters as GET /api/players/search.",
    summarise: ({ data }) => `${players(count(data))} match${count(data) === 1 ? "es" : ""}: ${names(data)}`,
  },
  {
    name: "find_players", path: "/api/players",
    description: "List players by filters (era teamType, team, position, rating and {attribute}_gte/_lte bounds, badge and tier, sort, limit). Same parameters as GET /api/players.",
    summarise: ({ data }) => `${players(count(data))}: ${names(data)}`,
  },
  {
    name: "get_player", path: "/api/players/:id",
    description: "One player in full, by id (current edition) or by slug (optionally of an edition, gameVersion). Same answer as GET /api/players/:id, /api/players/slug/:slug or /api/versions/:version/players/:slug.",
    choosesAmong: ["/api/players/:id", "/api/players/slug/:slug", "/api/versions/:version/players/:slug"],
    extraArgs: {
      id: { ...PATH_ARGUMENT, description: "The player's _id (the current edition)" },
      slug: { ...PATH_ARGUMENT, description: "The player's slug (a roster slug or the name's slug)" },
      gameVersion: { type: "string", minLength: 1, maxLength: 20, description: "An edition (2K26); with slug only" },
      teamType: { type: "string", enum: ["curr", "class", "allt"], description: "With slug: which era's roster" },
      team: { type: "string", maxLength: 100, description: "With slug, current edition: which team's roster (full name or slug)" },
    },
    choose: (args) => {
      const { id, slug, gameVersion } = args;
      if ((id === undefined) === (slug === undefined)) throw new ApiError("INVALID_PARAMETER", { parameter: "id", reason: "give exactly one of id and slug" }, "Give exactly one of id or slug");
      if (typeof id === "string") {
        if (gameVersion !== undefined) throw new ApiError("INVALID_PARAMETER", { parameter: "gameVersion", reason: "only with slug" }, "gameVersion goes with slug, not id (an _id names one edition's player)");
        return { path: "/api/players/:id", pathArgs: { id } };
      }
      if (typeof slug !== "string") throw new ApiError("INVALID_PARAMETER", { parameter: "slug", value: slug, reason: "must be a string" }, "slug must be a string");
      if (typeof gameVersion === "string") return { path: "/api/versions/:version/players/:slug", pathArgs: { version: gameVersion, slug } };
      if (gameVersion !== undefined) throw new ApiError("INVALID_PARAMETER", { parameter: "gameVersion", value: gameVersion, reason: "must be a string" }, "gameVersion must be a string such as 2K26");
      return { path: "/api/players/slug/:slug", pathArgs: { slug } };
    },
    summarise: ({ data }) => {
      const rows = Array.isArray(data) ? data : [data];
      return rows.map((row: any) => `${row?.name} (${row?.team}, ${row?.teamType}): overall ${row?.overall}`).join("; ");
    },
  },
  {
    name: "compare_players", path: "/api/players/compare",
    description: "Compare players side by side, attribute by attribute. Same parameters as GET /api/players/compare.",
    summarise: ({ data }) => `Compared ${names((data as any)?.players ?? data)}`,
  },
  {
    name: "similar_players", path: "/api/players/:id/similar", pathArgs: { id: "The player's _id" },
    description: "The players whose attribute profiles are closest to one player's. Same parameters as GET /api/players/:id/similar.",
    summarise: ({ data, meta }) => `${players(count(data))} most like ${(meta?.player as any)?.name}: ${names(data, (row) => row?.player)}`,
  },
  {
    name: "player_percentiles", path: "/api/players/:id/percentiles", pathArgs: { id: "The player's _id or slug" },
    description: "Where one player stands among its era and position (cohort=position, default), its era (era) or the whole edition (all): the percentile, cohort size and mean of overall, every attribute and every attribute group. Same parameters as GET /api/players/:id/percentiles.",
    summarise: ({ data }) => {
      const standing = data as any;
      const cohort = standing?.cohort ?? {};
      const among = [cohort.era, cohort.position, cohort.kind === "all" ? "every player" : undefined].filter((part) => typeof part === "string").join(" ");
      const top = [...(standing?.attributes ?? [])].filter((row: any) => typeof row?.percentile === "number")
        .sort((a: any, b: any) => b.percentile - a.percentile).slice(0, 3).map((row: any) => `${row.label} ${row.percentile}`);
      return `${standing?.player?.name} among ${cohort.size} (${among}): overall percentile ${standing?.overall?.percentile ?? "none"}${top.length > 0 ? `; highest: ${top.join(", ")}` : ""}`;
    },
  },
  {
    name: "team_profile", path: "/api/teams/:teamName/profile", pathArgs: { teamName: "Full team name or its slug" },
    description: "One team's profile: ratings, strengths, badges. Same parameters as GET /api/teams/:teamName/profile.",
    summarise: ({ data }) => `Profile of ${(data as any)?.team?.teamName ?? "the team"} (${(data as any)?.team?.teamType ?? "?"}, ${players((data as any)?.team?.playerCount ?? 0)})`,
  },
  {
    name: "team_roster", path: "/api/teams/:teamName/roster", pathArgs: { teamName: "Full team name or its slug" },
    description: "One team's full roster. Same parameters as GET /api/teams/:teamName/roster.",
    summarise: ({ data }) => `${players(count(data))}: ${names(data)}`,
  },
  {
    name: "player_history", path: "/api/players/:id/history", pathArgs: { id: "The player's _id" },
    description: "Weekly rating snapshots of one player, newest first, with what changed each week. Same parameters as GET /api/players/:id/history.",
    summarise: ({ data }) => `${count(data)} weekly snapshot${count(data) === 1 ? "" : "s"}`,
  },
  {
    name: "list_editions", path: "/api/versions",
    description: "The game editions served, current first. Same answer as GET /api/versions.",
    summarise: ({ data }) => `Editions: ${(Array.isArray(data) ? data : []).map((row: any) => row?.gameVersion).filter((key) => typeof key === "string").join(", ")}`,
  },
];

/** A parameter schema as a JSON Schema: our annotations (x-…) dropped; an integer may come as a number or a numeric string. */
function argumentSchema(schema: ParamSchema): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (!key.startsWith("x-")) plain[key] = value;
  return plain;
}

export class McpTools {
  readonly tools: McpTool[];
  private readonly specs = new Map<string, ToolSpec>();
  private readonly routes = new Map<string, RouteDefinition>();
  /**
   * A repeated question's answer comes back as the same cached reply (the dispatcher's response
   * cache): its tool result is read from it once (one JSON.parse, one summary), kept while the
   * reply is (a reload drops both).
   */
  private readonly reads = new WeakMap<Buffer, ReadReply>();
  /**
   * Replies to repeated calls by tool and arguments, as the dispatcher remembers a GET's by its
   * request line: for the data they were read from (a reload or a change-log update forgets them),
   * only what the route would answer again as it is (cacheable, not scratch, not a search page).
   */
  private readonly answered = new LRUCache<string, { spec: ToolSpec; reply: Reply }>({ maxSize: ANSWERED_BYTES, sizeCalculation: ({ reply }, key) => reply.body.length + key.length });
  private answeredFor: { editions: EditionSet; changes: ChangeLog | undefined } | undefined;

  constructor(routeTable: readonly RouteDefinition[]) {
    for (const route of routeTable) if (route.method === "GET") this.routes.set(route.path, route);
    this.tools = SPECS.map((spec) => {
      this.specs.set(spec.name, spec);
      const route = this.route(spec.path);
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [name, description] of Object.entries(spec.pathArgs ?? {})) {
        properties[name] = { ...PATH_ARGUMENT, description };
        required.push(name);
      }
      Object.assign(properties, spec.extraArgs ?? {});
      let hasBounds = false;
      for (const [name, schema] of Object.entries(route.params.schemas)) {
        if (ATTRIBUTE_BOUND_NAME.test(name) && schema["x-attribute-bound"] === true) {
          hasBounds = true;
          continue;
        }
        properties[name] ??= argumentSchema(schema);
        // Required by the route (q, ids): required of the tool too.
        if (schema["x-required"] !== undefined && !required.includes(name)) required.push(name);
      }
      const bound = route.params.anyBound;
      return {
        name: spec.name,
        description: spec.description,
        inputSchema: {
          type: "object", properties, ...(required.length > 0 ? { required } : {}),
          ...(hasBounds && bound !== undefined ? { patternProperties: { [ATTRIBUTE_BOUND_NAME.source]: argumentSchema(bound.schema) } } : {}),
          additionalProperties: false,
        },
      };
    });
  }

  /** The GET routes a tool answers from (docs/mcp.md's table). */
  routesOf(name: string): readonly string[] {
    const spec = this.specs.get(name);
    return spec === undefined ? [] : spec.choosesAmong ?? [spec.path];
  }

  private route(path: string): RouteDefinition {
    const route = this.routes.get(path);
    if (route === undefined) throw new Error(`MCP tool over ${path}: no such GET route in the table`);
    return route;
  }

  /** The tool's result (the SDK's answer over stdio, a resource's record). Never throws: a refusal is a tool error. */
  call(name: string, args: Record<string, unknown> | undefined, environment: ToolEnvironment, requestId: string): ToolResult {
    return this.resultOf(this.outcome(name, args, environment, requestId));
  }

  resultOf(outcome: ToolOutcome): ToolResult {
    if ("error" in outcome) return outcome.error;
    // A search page is its template with this request's timestamp: read as it is (the template's result holds a placeholder).
    return (outcome.reply.template === undefined ? this.read(outcome) : readReply(outcome.spec, outcome.reply.body, outcome.reply.status)).result;
  }

  /** The route's reply to a call, or the tool error naming what was wrong (unknown tool, bad argument, not found). Never throws. */
  outcome(name: string, args: Record<string, unknown> | undefined, environment: ToolEnvironment, requestId: string): ToolOutcome {
    const spec = this.specs.get(name);
    if (spec === undefined) return { error: toolError({ code: "UNKNOWN_TOOL", message: `No tool named ${name.slice(0, 100)}; the tools are ${SPECS.map((s) => s.name).join(", ")}` }) };
    try {
      if (environment.remembers !== true) return { spec, reply: this.run(spec, args ?? {}, environment, requestId) };
      const editions = environment.editions();
      const changes = environment.changes();
      if (this.answeredFor?.editions !== editions || this.answeredFor.changes !== changes) {
        this.answered.clear();
        this.answeredFor = { editions, changes };
      }
      const key = `${name}\n${JSON.stringify(args ?? {})}`;
      const known = key.length > ANSWERED_KEY_MAX ? undefined : this.answered.get(key);
      if (known !== undefined) return known;
      const reply = this.run(spec, args ?? {}, environment, requestId);
      if (key.length <= ANSWERED_KEY_MAX && isRepeatable(reply)) this.answered.set(key, { spec, reply });
      return { spec, reply };
    } catch (error) {
      if (error instanceof ApiError) return { error: toolError({ code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) }) };
      return { error: toolError({ code: "INTERNAL_ERROR", message: "Internal error" }) };
    }
  }

  /**
   * The reply's tool result, read once per body that is kept: a cached reply, or the template a
   * search page copies (its result then holds the template's placeholder timestamp: its summary
   * and shape are the page's, its meta is not). A scratch body is read per call.
   */
  read({ spec, reply }: { spec: ToolSpec; reply: Reply }): ReadReply {
    const kept = sharedBodyOf(reply);
    if (kept === undefined) return readReply(spec, reply.body, reply.status);
    const read = this.reads.get(kept);
    if (read?.spec === spec) return read;
    const fresh = readReply(spec, kept, reply.status);
    this.reads.set(kept, fresh);
    return fresh;
  }

  private run(spec: ToolSpec, args: Record<string, unknown>, environment: ToolEnvironment, requestId: string): Reply {
    // Before anything reads or echoes an argument: the checks a REST request's parameters pass.
    const texts = argumentTexts(args);
    const chosen = spec.choose?.(args) ?? { path: spec.path, pathArgs: {} as Record<string, string> };
    const route = this.route(chosen.path);
    const pathParams: Record<string, string> = { ...chosen.pathArgs };
    const query = new Map<string, string>();
    const taken = new Set([...Object.keys(spec.pathArgs ?? {}), ...Object.keys(spec.extraArgs ?? {})]);
    for (const name of Object.keys(spec.pathArgs ?? {})) {
      const value = args[name];
      if (typeof value !== "string" || value.length === 0) throw new ApiError("INVALID_PARAMETER", { parameter: name, value: texts.get(name) ?? null, reason: "required: a non-empty string" }, `${name} is required: a non-empty string`);
      pathParams[name] = value;
    }
    for (const value of Object.values(pathParams)) checkLength("pathSegment", "path segment", value);
    for (const [name, text] of texts) {
      // get_player's id, slug and gameVersion are path parameters; teamType and team go on as the route's.
      if (taken.has(name) && !(name in route.params.schemas)) continue;
      addParameter(query, name, text);
    }
    const reply = callRoute(route, {
      method: "GET", path: chosen.path, pathParams, query, editions: environment.editions(), changes: environment.changes, requestId,
      body: undefined, contentType: "", now: environment.now(), caller: undefined, cached: environment.cached,
    });
    if (reply instanceof Promise) throw new Error(`MCP tool over ${chosen.path}: the route is asynchronous`);
    return reply;
  }
}

const PLAIN_START = Buffer.from('{"success":true,"data":');

/** A route's reply as a tool result: its envelope without `success`, and the summary. */
function readReply(spec: ToolSpec, body: Buffer, status = 200): ReadReply {
  // Parsed at once: a scratch body is overwritten by the next render.
  const envelope = JSON.parse(body.toString("utf8")) as { success: boolean; data?: unknown; meta?: Record<string, unknown>; error?: Record<string, unknown> };
  if (envelope.success !== true) return { spec, result: toolError(envelope.error ?? { code: "ERROR", message: `status ${status}` }), isPlain: false };
  const structured: Record<string, unknown> = { data: envelope.data, ...(envelope.meta === undefined ? {} : { meta: envelope.meta }) };
  const keys = Object.keys(envelope);
  const isPlain = body.subarray(0, PLAIN_START.length).equals(PLAIN_START) && body[body.length - 1] === 0x7d
    && (keys.length === 2 || (keys.length === 3 && keys[2] === "meta"));
  return { spec, result: { content: [{ type: "text", text: spec.summarise(structured as { data: unknown; meta?: Record<string, unknown> }) }], structuredContent: structured }, isPlain };
}

/**
 * Each argument as the text a query string would carry, through the checks REST parameters pass
 * (query/query-string.ts: at most MAX_PARAMETERS, each name and value measured by checkLength; a
 * path argument then by the path segment's limit, as a REST path's), so an over-long name or value
 * is the same 400 INVALID_PARAMETER naming the limit, never echoed. A value that is not a string,
 * number or boolean is refused without being echoed.
 */
function argumentTexts(args: Record<string, unknown>): Map<string, string> {
  const names = Object.keys(args);
  checkParameterCount(names.length);
  const texts = new Map<string, string>();
  for (const name of names) {
    checkLength("parameterName", "parameter name", name);
    const value = args[name];
    if (value === undefined) continue;
    let text: string;
    if (typeof value === "string") text = value;
    else if (typeof value === "number" && Number.isFinite(value)) text = String(value);
    else if (typeof value === "boolean") text = String(value);
    else throw new ApiError("INVALID_PARAMETER", { parameter: name, value: null, reason: "must be a string or a number" }, `${name} must be a string or a number`);
    checkLength("parameterValue", name, text);
    texts.set(name, text);
  }
  return texts;
}

function toolError(error: Record<string, unknown>): ToolResult {
  const message = typeof error.message === "string" ? error.message : "The call was refused";
  return { content: [{ type: "text", text: `${String(error.code ?? "ERROR")}: ${message}` }], structuredContent: { error }, isError: true };
}
