// The OpenAPI 3.1 document, generated from the route table: query parameters from the same JSON
// Schemas ajv validates requests with, records from src/model/schemas.ts, error codes from the
// one error table. Pure: it reads definitions and returns a plain object; it serves nothing.

import { ERAS } from "../model/eras.js";
import { badgeCountsSchema, editionEntrySchema, playerSchema } from "../model/schemas.js";
import { ERROR_TABLE, type ErrorCode } from "../query/api-error.js";
import type { ParamSchema } from "../query/params.js";
import { ADDRESS_POLICY, KEY_POLICY } from "./token-buckets.js";
import type { Method, RouteDefinition } from "./router.js";

/** The paths of the documentation routes (served by routes/docs.ts), in route-table form. */
export const OPENAPI_PATH = "/api/openapi.json";
export const DOCS_PATH = "/docs";
export const DOCS_ASSET_PATH = "/docs/assets/:file";

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: string): Schema => ({ type: "array", items: ref(name) });
const object = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: "object",
  properties,
  ...(description === undefined ? {} : { description }),
});
const integer = (description: string): Schema => ({ type: "integer", minimum: 0, description });
const text = (description: string): Schema => ({ type: "string", description });

/** A record schema from src/model as a mutable, `$id`-free copy (an `$id` would rebase `$ref`s). */
function fromModel(schema: object, description: string, extraProperties: Record<string, Schema> = {}): Schema {
  // JSON round trip: the model schemas are deep-readonly `as const` literals sharing arrays.
  const copy = JSON.parse(JSON.stringify(schema)) as Schema & { properties: Record<string, Schema> };
  delete copy.$id;
  return { description, ...copy, properties: { ...copy.properties, ...extraProperties } };
}

const playerProperties = playerSchema.properties;
const pick = (names: readonly (keyof typeof playerProperties)[]): Record<string, Schema> =>
  Object.fromEntries(names.map((name) => [name, JSON.parse(JSON.stringify(playerProperties[name])) as Schema]));

const gameVersion: Schema = { type: "string", pattern: "^2K\\d{2}$", description: "Edition key, e.g. 2K26", examples: ["2K26"] };
const variants: Schema = {
  type: "array",
  description: "Present when the slug exists on more than one roster: one entry per roster",
  items: object({ teamType: { enum: ERAS }, team: text("Full team name") }),
};

/** Examples for the patterned fields: the UI's examples generated from their patterns read as noise. */
const PLAYER_EXAMPLES: Readonly<Record<string, string>> = {
  name: "LeBron James", slug: "lebron-james", team: "Los Angeles Lakers", height: `6'9"`, weight: "250 lbs", wingspan: `7'0"`,
};

const COMPONENT_SCHEMAS: Record<string, Schema> = {
  Player: fromModel(
    playerSchema,
    "A player record. `fields` trims it to the fields asked for; a field with no value is omitted, never null.",
    {
      ...Object.fromEntries(Object.entries(PLAYER_EXAMPLES).map(([name, example]) => [
        name,
        { ...(playerProperties[name as keyof typeof playerProperties] as Schema), examples: [example] },
      ])),
      gameVersion: { ...gameVersion, description: "On every row returned by a versioned route" },
      ratingHistory: {
        type: "array",
        description: "Single-player routes only: the overall in every edition holding this _id, newest first",
        items: object({ gameVersion, overall: { type: "integer", minimum: 0, maximum: 99 }, delta: { type: "integer" } }),
      },
    },
  ),
  SummaryPlayer: {
    type: "object",
    description: "A search result",
    required: ["_id", "name", "slug", "team", "teamType", "overall", "positions"],
    properties: pick(["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg"]),
  },
  Team: {
    type: "object",
    required: ["teamName", "slug", "teamType", "playerCount", "averageRating"],
    properties: {
      teamName: text("Full team name: Boston Celtics, 1995-96 Chicago Bulls, All-Time Chicago Bulls, Free Agency"),
      slug: text("Lower-case hyphenated team name, accepted wherever a team name is"),
      teamType: { enum: ERAS },
      playerCount: integer("Players on the roster"),
      averageRating: { type: "number", description: "Mean overall, one decimal" },
      logo: { type: "string", format: "uri" },
    },
  },
  BadgeCounts: fromModel(badgeCountsSchema, "Badge counts per tier"),
  EditionEntry: fromModel(editionEntrySchema, "One game edition: `current` follows the live data, `archived` never changes"),
  RatingSnapshot: {
    type: "object",
    description: "One weekly snapshot of a player's ratings in the current edition",
    properties: {
      date: { type: "string", format: "date" },
      gameVersion,
      overall: { type: "integer", minimum: 0, maximum: 99 },
      delta: { type: "integer", description: "Change of overall since the previous snapshot" },
      attributes: JSON.parse(JSON.stringify(playerProperties.attributes)) as Schema,
      badges: ref("BadgeCounts"),
      changes: {
        type: "object",
        description: "What moved since the week before (absent on the first week); `badges` only where both weeks kept badge lists",
        properties: {
          attributes: { type: "object", additionalProperties: object({ from: { type: "integer" }, to: { type: "integer" } }) },
          badges: object({
            added: { type: "array", items: object({ name: text("Badge"), tier: text("Tier") }) },
            removed: { type: "array", items: object({ name: text("Badge"), tier: text("Tier it had") }) },
            upgraded: { type: "array", items: object({ name: text("Badge"), from: text("Tier"), to: text("Tier") }) },
            downgraded: { type: "array", items: object({ name: text("Badge"), from: text("Tier"), to: text("Tier") }) },
          }),
        },
      },
    },
  },
  TrendingPlayer: {
    type: "object",
    required: ["playerId", "totalDelta", "changes", "player"],
    properties: {
      playerId: text("The player's _id"),
      totalDelta: { type: "integer", description: "Sum of the overall's weekly changes in the window" },
      changes: integer("Weeks in the window in which the overall changed"),
      player: { type: "object", properties: pick(["_id", "name", "slug", "team", "teamType", "overall", "playerImage"]) },
    },
  },
  Badge: {
    type: "object",
    required: ["name", "slug", "category", "description", "holders"],
    properties: {
      name: text("Badge name, e.g. Post-Up Poet"),
      slug: text("Lower-case hyphenated name, e.g. post-up-poet"),
      category: text("Shooting, Finishing, Playmaking, Defense, Rebounding or General"),
      description: text("What the badge boosts"),
      holders: ref("BadgeCounts"),
    },
  },
  BadgeHolder: {
    type: "object",
    required: ["_id", "name", "slug", "team", "teamType", "overall", "badgeTier"],
    properties: {
      ...pick(["_id", "name", "slug", "team", "teamType", "overall", "playerImage"]),
      badgeTier: { enum: ["Bronze", "Silver", "Gold", "Hall of Fame", "Legendary"] },
    },
  },
  PublicPlayer: {
    type: "object",
    description: "A summary player plus height",
    required: ["_id", "name", "slug", "team", "teamType", "overall", "positions"],
    properties: pick(["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg", "height"]),
  },
  ErrorCode: {
    type: "string",
    enum: Object.keys(ERROR_TABLE),
    description: Object.entries(ERROR_TABLE).map(([code, { status, message }]) => `${code} (${status}): ${message}`).join("\n\n"),
  },
  ErrorEnvelope: {
    type: "object",
    required: ["success", "error"],
    properties: {
      success: { const: false },
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: ref("ErrorCode"),
          message: text("What went wrong, for people"),
          details: { type: "object", description: "For some codes: the parameter, value, reason, allowed values, suggestions, hint" },
        },
      },
    },
  },
};

interface Payload {
  description: string;
  data: Schema;
  meta?: Schema;
}

const filtersMeta: Schema = { type: "object", description: "Every filter applied, as parsed" };

/** What the 200 of each known route carries, keyed by `METHOD /path/{param}`. */
const PAYLOADS: Readonly<Record<string, Payload>> = {
  "GET /api/players": {
    description: "A page of players",
    data: arrayOf("Player"),
    meta: object({
      count: integer("Rows on this page"),
      pagination: object({
        total: integer("Players matching the filters"),
        limit: integer("Page size"),
        cursor: text("The offset of this page"),
        nextCursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page" },
        hasMore: { type: "boolean" },
      }),
    }),
  },
  "GET /api/players/bulk": {
    description: "Every matching player (at most 10,000), overall desc then name",
    data: arrayOf("Player"),
    meta: object({ count: integer("Rows returned"), total: integer("Players matching"), filters: filtersMeta }),
  },
  "POST /api/players/batch": {
    description: "The resolved players in request order, without duplicates",
    data: arrayOf("Player"),
    meta: object({
      requested: integer("Identifiers sent"),
      matched: integer("Identifiers resolved"),
      unmatched: {
        type: "array",
        items: object({
          query: text("The name or slug as sent"),
          reason: { enum: ["not_found", "ambiguous"] },
          candidates: { type: "array", items: { type: "string" }, description: "For ambiguous names: the closest names" },
        }),
      },
    }),
  },
  "GET /api/players/slug/{slug}": {
    description: "One player in full, with hot zones and rating history",
    data: ref("Player"),
    meta: object({ gameVersion, variants }),
  },
  "GET /api/players/{id}/history": {
    description: "Weekly rating snapshots, newest first",
    data: arrayOf("RatingSnapshot"),
    meta: object({ playerId: text("The player's _id"), slug: text("The player's slug"), count: integer("Snapshots returned"), total: integer("Snapshots held") }),
  },
  "GET /api/players/search": {
    description: "Players ranked by how well their name matches",
    data: arrayOf("SummaryPlayer"),
    meta: object({
      count: integer("Results returned"),
      total: integer("Names matching"),
      truncated: { type: "boolean", description: "True when more matches exist beyond limit" },
      timestamp: { type: "string", format: "date-time" },
    }),
  },
  "GET /api/teams": {
    description: "Teams of one era, by name",
    data: arrayOf("Team"),
    meta: object({ count: integer("Teams returned"), teamType: { enum: ERAS } }),
  },
  "GET /api/teams/{teamName}/roster": {
    description: "The team's players, overall desc",
    data: arrayOf("Player"),
    meta: object({
      team: text("Full team name"), slug: text("Team slug"), teamType: { enum: ERAS }, count: integer("Players"),
      averageRating: { type: "number" }, logo: { type: "string", format: "uri" },
    }),
  },
  "GET /api/versions": {
    description: "The game editions, current first, then archived newest first",
    data: arrayOf("EditionEntry"),
    meta: object({ count: integer("Editions"), current: { ...gameVersion, description: "Key of the current edition" } }),
  },
  "GET /api/versions/{version}/players": {
    description: "A page of one edition's players",
    data: arrayOf("Player"),
    meta: object({
      gameVersion, count: integer("Rows on this page"), total: integer("Players matching"), hasMore: { type: "boolean" },
      offset: integer("Rows skipped"), limit: integer("Page size"),
    }),
  },
  "GET /api/versions/{version}/players/bulk": {
    description: "Every matching player of one edition (at most 10,000), overall desc",
    data: arrayOf("Player"),
    meta: object({
      gameVersion, count: integer("Rows returned"), total: integer("Players matching"), filters: filtersMeta,
      capturedAt: { type: "string", format: "date-time", description: "When the edition's data was captured" },
      source: text("Where the edition's data came from"),
    }),
  },
  "GET /api/versions/{version}/players/{slug}": {
    description: "One player of one edition; an array with one entry per roster when the slug is on several",
    data: { oneOf: [ref("Player"), arrayOf("Player")] },
    meta: object({ gameVersion, variants }),
  },
  "GET /api/versions/{version}/teams": {
    description: "Teams of one era in one edition",
    data: arrayOf("Team"),
    meta: object({ count: integer("Teams returned"), teamType: { enum: ERAS }, gameVersion }),
  },
  "GET /": {
    description: "What this service is, its editions and where to go next",
    data: object({
      service: { const: "Courtside" }, version: text("Service version"), status: { const: "ok" }, current: gameVersion,
      editions: { type: "array", items: gameVersion }, timestamp: { type: "string", format: "date-time" },
      links: object({ docs: text("API reference page"), openapi: text("This document"), versions: text("Edition list"), health: text("This status") }),
    }),
  },
  "GET /api/stats": {
    description: "One edition in numbers",
    data: object({
      gameVersion, totalPlayers: integer("Players of every era"), byType: object({ curr: integer("Current rosters"), class: integer("Classic"), allt: integer("All-time") }),
      uniqueTeams: integer("Teams with players"), avgOverall: { type: "number", description: "Mean overall, one decimal" },
      lastUpdated: { type: "string", format: "date-time", description: "When the edition's data was captured" },
    }),
    meta: object({ gameVersion }),
  },
  "GET /api/players/{id}": {
    description: "One player in full, with hot zones and rating history",
    data: ref("Player"),
    meta: object({ gameVersion }),
  },
  "GET /api/players/{id}/versions": {
    description: "The player's overall in every edition holding its _id, newest first",
    data: object({
      playerId: text("_id"), name: text("Name"), slug: text("Slug"), currentVersion: gameVersion, currentOverall: { type: "integer", minimum: 0, maximum: 99 },
      ratingHistory: {
        type: "array",
        items: object({ gameVersion, overall: { type: "integer", minimum: 0, maximum: 99 }, delta: { type: "integer", description: "Change since the previous edition holding it" } }),
      },
    }),
    meta: object({ gameVersion, teamType: { enum: ERAS }, team: text("Full team name") }),
  },
  "GET /api/players/{id}/attribute/{attr}": {
    description: "One attribute over the weekly snapshots, oldest first",
    data: { type: "array", items: object({ date: { type: "string", format: "date" }, value: { type: "integer", minimum: 0, maximum: 99 } }) },
    meta: object({ playerId: text("_id"), attribute: text("The camelCase key (or overall)"), dataPoints: integer("Points returned") }),
  },
  "GET /api/trending": {
    description: "Players whose overall moved in the window, by |totalDelta| desc then name",
    data: arrayOf("TrendingPlayer"),
    meta: object({
      count: integer("Players returned"), days: integer("Window in days"), teamType: { enum: [...ERAS, "all"] }, direction: { enum: ["up", "down", "both"] },
      from: { type: ["string", "null"], format: "date", description: "Date of the snapshot the window compares against" },
      to: { type: ["string", "null"], format: "date", description: "Date of the newest snapshot" },
    }),
  },
  "GET /api/badges": {
    description: "Every badge with holders per tier, by category then name",
    data: arrayOf("Badge"),
    meta: object({ gameVersion, count: integer("Badges returned"), category: text("The category filter, when given") }),
  },
  "GET /api/badges/categories": {
    description: "Badge categories, by name",
    data: { type: "array", items: object({ category: text("Category"), count: integer("Badges in it") }) },
    meta: object({ gameVersion, count: integer("Categories") }),
  },
  "GET /api/badges/{slug}": { description: "One badge", data: ref("Badge"), meta: object({ gameVersion }) },
  "GET /api/badges/{slug}/players": {
    description: "The badge's holders: best tier first, then overall desc, then name",
    data: arrayOf("BadgeHolder"),
    meta: object({
      gameVersion, badge: text("Badge slug"), tier: text("The tier filter, or all"), teamType: { enum: ERAS }, count: integer("Rows on this page"),
      pagination: object({
        total: integer("Holders matching"), limit: integer("Page size"), cursor: text("The offset of this page"),
        nextCursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page" }, hasMore: { type: "boolean" },
      }),
    }),
  },
  "GET /api/public/players": {
    description: "A page of summary players with height",
    data: arrayOf("PublicPlayer"),
    meta: object({
      count: integer("Rows on this page"),
      pagination: object({
        total: integer("Players matching the filters"), limit: integer("Page size"), cursor: text("The offset of this page"),
        nextCursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page" }, hasMore: { type: "boolean" },
      }),
    }),
  },
  "GET /health": { description: "The process is up", data: object({ status: { const: "ok" } }) },
  "GET /ready": {
    description: "The editions are loaded and the service is not draining",
    data: object({ status: { const: "ready" }, editions: { type: "array", items: gameVersion }, current: gameVersion }),
  },
};

/** Routes whose 200s carry an ETag, so If-None-Match can give a 304. */
const CACHEABLE_PATHS = [
  /^\/api\/players$/, /^\/api\/players\/bulk$/, /^\/api\/teams$/, /^\/api\/teams\/\{teamName\}\/roster$/, /^\/api\/versions(\/.*)?$/,
  /^\/api\/openapi\.json$/, /^\/docs(\/.*)?$/, /^\/api\/stats$/, /^\/api\/players\/\{id\}(\/versions|\/attribute\/\{attr\})?$/,
  /^\/api\/trending$/, /^\/api\/badges(\/.*)?$/, /^\/api\/public\/players$/,
];

const PATH_PARAMS: Readonly<Record<string, Schema & { description: string }>> = {
  slug: { type: "string", description: "Player slug: lebron-james, michael-jordan-1995-96-chicago-bulls" },
  id: { type: "string", description: "The player's _id (24 hexadecimal characters); on /versions, /history and /attribute also its slug" },
  attr: { type: "string", description: "An attribute's camelCase key (threePointShot), snake_case name (three_point_shot), alias (three_ball) or overall" },
  teamName: { type: "string", description: "Full team name (Boston Celtics) or team slug (boston-celtics)" },
  version: { type: "string", pattern: "^2[Kk]\\d{2}$", description: "Edition key: 2K and two digits, any case (2K26)" },
  file: { type: "string", description: "File name of a bundled asset" },
};

const HEADERS: Record<string, Schema> = {
  "X-Request-Id": { description: "Identifies the request in the service's log", schema: { type: "string" } },
  "X-RateLimit-Limit": {
    description: `Capacity of the token bucket: ${KEY_POLICY.capacity} per hour per key on the free tier (the key's own limit on others); ${ADDRESS_POLICY.capacity} per minute per client address on routes without a key`,
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Tokens left in the bucket", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) when the bucket is full again", schema: { type: "integer" } },
  "RateLimit-Policy": { description: 'IETF draft form of the policy, e.g. `"free";q=500;w=3600`', schema: { type: "string" } },
  RateLimit: { description: 'IETF draft form of the state, e.g. `"free";r=499;t=8`', schema: { type: "string" } },
  "Retry-After": { description: "Seconds until the next token", schema: { type: "integer" } },
  ETag: { description: "Weak validator; changes exactly when the body would", schema: { type: "string" } },
  "Cache-Control": { description: "`private, max-age=3600` on cacheable replies unless the route says otherwise, `no-store` on the rest", schema: { type: "string" } },
};

const headerRefs = (names: readonly string[]): Record<string, Schema> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"] as const;

const TAGS = [
  { name: "players", description: "Players of the current edition: list, bulk, batch, one, history, search" },
  { name: "teams", description: "Teams and rosters of the current edition" },
  { name: "badges", description: "The badge catalogue and who holds each badge" },
  { name: "versions", description: "Game editions and their frozen (or live) data" },
  { name: "service", description: "Liveness, readiness and this documentation" },
] as const;

const DESCRIPTION = [
  "Basketball video-game player ratings, teams, rosters and per-edition archives.",
  `**Authentication.** Send your key in the \`X-API-Key\` header. Routes marked with a lock need it; the others are limited to ${ADDRESS_POLICY.capacity} requests per minute per client address.`,
  `**Rate limits.** A token bucket per key (free tier: ${KEY_POLICY.capacity} requests per hour, refilled continuously). Every keyed response carries \`X-RateLimit-*\` and \`RateLimit\`/\`RateLimit-Policy\` headers; a 429 adds \`Retry-After\`. A 304 takes no token.`,
  "**Caching.** Cacheable replies carry `Cache-Control: private, max-age=3600` and a weak `ETag`; send it back in `If-None-Match` for a 304.",
  "**Errors.** Every error is `{ success: false, error: { code, message, details? } }`. Checks run in this order: route (404, or 405 with an `Allow` header for a known path and another method) → API key (401) → rate limit (429) → parameters (400). An unknown query parameter is a 400 `UNKNOWN_PARAMETERS` naming the closest valid one.",
  "**Protocol.** HEAD works wherever GET does. Bodies over 1 KiB are compressed with brotli or gzip by `Accept-Encoding`.",
].join("\n\n");

export function buildOpenApi(routes: readonly RouteDefinition[], info: { version: string }): object {
  const sorted = [...routes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.method < b.method ? -1 : 1));
  const sharedParameters = shareableParameters(sorted);
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of sorted) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, path, sharedParameters);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Courtside player ratings API", version: info.version, description: DESCRIPTION },
    servers: [{ url: "/" }],
    tags: TAGS,
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      parameters: Object.fromEntries([...sharedParameters].map(([name, { parameter }]) => [name, parameter])),
      headers: HEADERS,
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "`2k_` and 32 lower-case letters and digits" },
      },
    },
  };
}

/** `/api/teams/:teamName/roster` → `/api/teams/{teamName}/roster`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function operation(route: RouteDefinition, path: string, shared: ReadonlyMap<string, SharedParameter>): Schema {
  const isCacheable = CACHEABLE_PATHS.some((pattern) => pattern.test(path));
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const parameters: Schema[] = [
    ...pathNames.map((name) => {
      const { description, ...schema } = PATH_PARAMS[name] ?? { type: "string", description: name };
      return { name, in: "path", required: true, description, schema };
    }),
    ...Object.entries(route.params.schemas).map(([name, schema]) => {
      const parameter = queryParameter(route, name, schema);
      return shared.get(name)?.key === JSON.stringify(parameter) ? { $ref: `#/components/parameters/${name}` } : parameter;
    }),
    ...(isCacheable ? [{ name: "If-None-Match", in: "header", required: false, description: "An ETag from an earlier reply; a match gives 304", schema: { type: "string" } }] : []),
  ];
  const bodySchema = (route as { bodySchema?: object }).bodySchema;
  return {
    operationId: operationId(route.method, path),
    summary: route.summary,
    description: describeAccess(route, isCacheable),
    tags: [tagOf(path)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.method === "POST"
      ? {
        requestBody: {
          required: true,
          description: "JSON, at most 64 KiB",
          content: { "application/json": { schema: bodySchema === undefined ? { type: "object" } : withoutId(bodySchema) } },
        },
      }
      : {}),
    ...(route.access === "key" ? { security: [{ ApiKey: [] }] } : {}),
    responses: responses(route, path, pathNames, isCacheable),
  };
}

function withoutId(schema: object): Schema {
  const copy = JSON.parse(JSON.stringify(schema)) as Schema;
  delete copy.$id;
  return copy;
}

/**
 * Marked on the schema or in the compiled params' `required` list when a route declares it; `q`
 * (the search text) is required by the contract even where the handler checks it itself.
 */
function isRequiredParam(route: RouteDefinition, name: string, schema: ParamSchema): boolean {
  return name === "q"
    || (schema as { required?: unknown }).required === true
    || ((route.params as { required?: readonly string[] }).required?.includes(name) ?? false);
}

function queryParameter(route: RouteDefinition, name: string, schema: ParamSchema): Schema {
  const isRequired = isRequiredParam(route, name, schema);
  const isCaseInsensitive = schema["x-normalise"] !== undefined && !/any case/i.test(schema.description);
  return {
    name,
    in: "query",
    required: isRequired,
    description: isCaseInsensitive ? `${schema.description} (any case)` : schema.description,
    schema: {
      type: schema.type,
      ...(schema.enum ? { enum: [...schema.enum] } : {}),
      ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
      ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
      ...(schema.pattern === undefined ? {} : { pattern: schema.pattern }),
      ...(schema.default === undefined ? {} : { default: schema.default }),
    },
  };
}

interface SharedParameter { key: string; parameter: Schema }

/** A query parameter identical on two or more routes goes to components.parameters once. */
function shareableParameters(routes: readonly RouteDefinition[]): Map<string, SharedParameter> {
  const seen = new Map<string, { keys: Set<string>; uses: number; parameter: Schema }>();
  for (const route of routes) {
    for (const [name, schema] of Object.entries(route.params.schemas)) {
      const parameter = queryParameter(route, name, schema);
      const entry = seen.get(name) ?? { keys: new Set<string>(), uses: 0, parameter };
      entry.keys.add(JSON.stringify(parameter));
      entry.uses++;
      seen.set(name, entry);
    }
  }
  const shared = new Map<string, SharedParameter>();
  for (const [name, { keys, uses, parameter }] of seen) {
    if (keys.size === 1 && uses > 1 && /^[A-Za-z0-9._-]+$/.test(name)) shared.set(name, { key: [...keys][0] as string, parameter });
  }
  return shared;
}

function describeAccess(route: RouteDefinition, isCacheable: boolean): string {
  const access = route.access === "key"
    ? "Needs an API key; takes one token from its bucket."
    : route.access === "address"
      ? `No API key; limited to ${ADDRESS_POLICY.capacity} requests per minute per client address.`
      : "No API key and no rate limit.";
  const bounds = Object.keys(route.params.schemas).some((name) => /_(gte|lte)$/.test(name))
    ? " `{attribute}_gte` / `{attribute}_lte` bound any attribute by its snake_case name or alias (three_ball, dunk, layup, defense, mid_range)."
    : "";
  const caching = !isCacheable ? "" : route.cacheControl === undefined ? " Cacheable for an hour with an ETag." : ` Sent with \`Cache-Control: ${route.cacheControl}\` and an ETag.`;
  return `${access}${caching}${bounds}`;
}

function tagOf(path: string): string {
  if (path.startsWith("/api/versions")) return "versions";
  if (path.startsWith("/api/players") || path === "/api/trending" || path === "/api/public/players") return "players";
  if (path.startsWith("/api/badges")) return "badges";
  if (path.startsWith("/api/teams")) return "teams";
  return "service";
}

/**
 * `getPlayersById` for `GET /api/players/{id}`: the `api` prefix is dropped, except where that
 * would collide with a route outside /api (`/api/health` beside `/health` → `getApiHealth`);
 * `/` is `getRoot`.
 */
function operationId(method: Method, path: string): string {
  if (path === "/") return `${method.toLowerCase()}Root`;
  const id = operationIdFromWords(method, path, true);
  return path.startsWith("/api/") && OUTSIDE_API_PATHS.has(path.slice(4)) ? operationIdFromWords(method, path, false) : id;
}

/** Paths served outside /api whose short operationId an /api twin must not take. */
const OUTSIDE_API_PATHS: ReadonlySet<string> = new Set(["/health", "/ready", DOCS_PATH]);

function operationIdFromWords(method: Method, path: string, isApiDropped: boolean): string {
  const words = path.split("/").filter((segment) => segment.length > 0 && (!isApiDropped || segment !== "api")).map((segment) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    const word = (name ?? segment).replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase());
    return (name === undefined ? "" : "By") + word.charAt(0).toUpperCase() + word.slice(1);
  });
  return method.toLowerCase() + words.join("");
}

function successContent(route: RouteDefinition, path: string): Record<string, Schema> {
  if (path === openApiPath(OPENAPI_PATH)) return { "application/json": { schema: { type: "object", description: "This OpenAPI 3.1 document, not in the envelope" } } };
  if (path === openApiPath(DOCS_PATH)) return { "text/html": { schema: { type: "string" } } };
  if (path === openApiPath(DOCS_ASSET_PATH)) {
    return { "text/css": { schema: { type: "string" } }, "text/javascript": { schema: { type: "string" } }, "image/png": { schema: {} } };
  }
  const payload = PAYLOADS[`${route.method} ${path === "/api/health" ? "/" : path}`];
  const data = payload?.data ?? { description: `The route's payload: ${route.summary}` };
  const meta = payload?.meta ?? { type: "object", description: "Per-route information: counts, pagination, echoes of the query" };
  const hasMeta = payload === undefined || payload.meta !== undefined;
  return {
    "application/json": {
      schema: {
        type: "object",
        required: hasMeta ? ["success", "data", "meta"] : ["success", "data"],
        properties: { success: { const: true }, data, ...(hasMeta ? { meta } : {}) },
      },
    },
  };
}

function responses(route: RouteDefinition, path: string, pathNames: readonly string[], isCacheable: boolean): Record<string, Schema> {
  const isLimited = route.access !== "none";
  const limitHeaders = isLimited ? [...RATE_LIMIT_HEADERS] : [];
  const result: Record<string, Schema> = {
    200: {
      description: PAYLOADS[`${route.method} ${path}`]?.description ?? route.summary,
      headers: headerRefs(["X-Request-Id", "Cache-Control", ...(isCacheable ? ["ETag"] : []), ...limitHeaders]),
      content: successContent(route, path),
    },
  };
  if (isCacheable) {
    result[304] = {
      description: "Not Modified: If-None-Match matched the ETag; no body, and no token taken",
      headers: headerRefs(["X-Request-Id", "ETag", "Cache-Control", ...limitHeaders]),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(route, pathNames)) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    // Refusals before admission (a bad key, draining, a crash) carry no bucket state.
    const hasLimitHeaders = isLimited && status !== 401 && status !== 500 && status !== 503;
    result[status] = {
      description: codes.join(", "),
      headers: headerRefs(["X-Request-Id", ...(hasLimitHeaders ? limitHeaders : []), ...(status === 429 ? ["Retry-After"] : [])]),
      content: {
        "application/json": {
          schema: { allOf: [ref("ErrorEnvelope"), { properties: { error: { properties: { code: { enum: codes } } } } }] },
        },
      },
    };
  }
  return result;
}

/** The error codes one route can answer with, from its access, parameters and method. */
function errorCodes(route: RouteDefinition, pathNames: readonly string[]): ErrorCode[] {
  const codes: ErrorCode[] = ["UNKNOWN_PARAMETERS", "INVALID_PARAMETER"];
  if (Object.entries(route.params.schemas).some(([name, schema]) => isRequiredParam(route, name, schema))) codes.push("MISSING_PARAMETER");
  if (pathNames.includes("version")) codes.push("INVALID_VERSION", "VERSION_NOT_FOUND");
  if ("gameVersion" in route.params.schemas) codes.push("VERSION_NOT_FOUND");
  if (route.path === "/api/players/:id") codes.push("INVALID_ID");
  if (route.method === "POST") codes.push("INVALID_JSON", "VALIDATION_ERROR", "TOO_MANY_IDENTIFIERS", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE");
  if (route.access === "key") codes.push("MISSING_API_KEY", "INVALID_API_KEY");
  if (route.path.startsWith("/api/badges/:slug")) codes.push("BADGE_NOT_FOUND");
  else if (pathNames.includes("slug") || pathNames.includes("id")) codes.push("PLAYER_NOT_FOUND");
  if (pathNames.includes("teamName")) codes.push("TEAM_NOT_FOUND");
  if (pathNames.some((name) => !["slug", "id", "teamName", "version", "attr"].includes(name))) codes.push("NOT_FOUND");
  if (route.access !== "none") codes.push("RATE_LIMIT_EXCEEDED");
  codes.push("INTERNAL_ERROR");
  if (route.access !== "none" || route.path === "/ready") codes.push("SERVICE_UNAVAILABLE");
  return codes;
}
