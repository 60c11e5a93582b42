// The OpenAPI 3.1 document, generated from the route table: query parameters from the same JSON
// Schemas ajv validates requests with, responses from each route's declared response (records
// from src/model/schemas.ts), error codes from the one error table. Pure: it reads definitions
// and returns a plain object; it serves nothing.

import { ERROR_TABLE, type ErrorCode } from "../../query/api-error.js";
import type { ParamSchema } from "../../query/params.js";
import { ADDRESS_POLICY, KEY_POLICY, OWNER_POLICY, REGISTRATION_POLICY } from "../../limits/token-buckets.js";
import { COMPONENT_SCHEMAS, envelopeSchema, ref } from "./response-schemas.js";
import type { Method, RouteDefinition } from "../router.js";

/** The paths of the documentation routes (served by routes/docs.ts), in route-table form. */
export const OPENAPI_PATH = "/api/openapi.json";
export const DOCS_PATH = "/docs";
export const DOCS_ASSET_PATH = "/docs/assets/:file";
export const LLMS_PATH = "/llms.txt";
export const LLMS_FULL_PATH = "/llms-full.txt";

type Schema = Record<string, unknown>;

/** Routes whose 200s carry an ETag, so If-None-Match can give a 304. */
const CACHEABLE_PATHS = [
  /^\/api\/players$/, /^\/api\/players\/bulk$/, /^\/api\/teams$/, /^\/api\/teams\/\{teamName\}\/roster$/, /^\/api\/versions(\/.*)?$/,
  /^\/api\/openapi\.json$/, /^\/docs(\/.*)?$/, /^\/llms(-full)?\.txt$/, /^\/dashboard(\/.*)?$/, /^\/explore(\/.*)?$/,
  /^\/api\/stats$/, /^\/api\/players\/\{id\}(\/versions|\/attribute\/\{attr\}|\/history)?$/,
  /^\/api\/players\/search$/, /^\/api\/players\/slug\/\{slug\}$/,
  /^\/api\/trending$/, /^\/api\/changes$/, /^\/api\/badges(\/.*)?$/, /^\/api\/public\/players$/,
  /^\/api\/players\/\{id\}\/(similar|percentiles)$/, /^\/api\/players\/compare$/, /^\/api\/teams\/\{teamName\}\/profile$/,
];

const PATH_PARAMS: Readonly<Record<string, Schema & { description: string }>> = {
  slug: { type: "string", description: "Player slug: lebron-james, michael-jordan-1995-96-chicago-bulls" },
  id: { type: "string", description: "The player's _id (24 hexadecimal characters) or its slug (lebron-james; where rows share it, the slug route's rule: teamType and team narrow it, meta.variants names the others)" },
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
  "X-RateLimit-Reset": { description: "When the bucket is full again, an ISO 8601 time (as the hosted service sends it; the seconds are RateLimit's t=)", schema: { type: "string", format: "date-time" } },
  "RateLimit-Policy": { description: 'IETF draft form of the policy, e.g. `"free";q=500;w=3600`', schema: { type: "string" } },
  RateLimit: { description: 'IETF draft form of the state, e.g. `"free";r=499;t=8`', schema: { type: "string" } },
  "Retry-After": { description: "Seconds until the next token", schema: { type: "integer" } },
  ETag: { description: "Weak validator; changes exactly when the body would", schema: { type: "string" } },
  "Cache-Control": { description: "`private, max-age=3600` on cacheable replies unless the route says otherwise, `no-store` on the rest", schema: { type: "string" } },
  "X-Content-Type-Options": { description: "`nosniff` on every answer with a body: it is what its Content-Type says", schema: { type: "string", enum: ["nosniff"] } },
  "Accept-Ranges": { description: "`bytes`: an export answers `Range: bytes=…` with a 206 (what DuckDB's httpfs reads a remote file by)", schema: { type: "string", enum: ["bytes"] } },
  "Content-Range": { description: "The bytes of a 206 (`bytes 0-3/52311`), or the length a 416 could not satisfy (`bytes */52311`)", schema: { type: "string" } },
  "X-Total-Count": { description: "How many players matched the export's filters (an export holds at most 10,000 of them unless it is a whole edition or era)", schema: { type: "integer" } },
};

const headerRefs = (names: readonly string[]): Record<string, Schema> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"] as const;

const TAGS = [
  { name: "players", description: "Players of the current edition: list, bulk, batch, one, history, search" },
  { name: "teams", description: "Teams and rosters of the current edition" },
  { name: "badges", description: "The badge catalogue and who holds each badge" },
  { name: "versions", description: "Game editions and their frozen (or live) data" },
  { name: "keys", description: "Register for a key, see its usage, regenerate or revoke it (also on the /dashboard page)" },
  { name: "service", description: "Liveness, readiness and this documentation" },
] as const;

const DESCRIPTION = [
  "Basketball video-game player ratings, teams, rosters and per-edition archives.",
  `**Authentication.** Send your key in the \`X-API-Key\` header. Routes marked with a lock need it; the others are limited to ${ADDRESS_POLICY.capacity} requests per minute per client address. Get a key on the \`/dashboard\` page or with \`POST /api/register\` (${REGISTRATION_POLICY.capacity} registrations per client address per hour); the operator may close registration and hand out keys instead.`,
  `**Rate limits.** A token bucket per key (free tier: ${KEY_POLICY.capacity} requests per hour, refilled continuously). Every keyed response carries \`X-RateLimit-*\` and \`RateLimit\`/\`RateLimit-Policy\` headers; a 429 adds \`Retry-After\`. A 304 takes no token.`,
  "**Caching.** Cacheable replies carry `Cache-Control: private, max-age=3600` (search and history: 300 s) and a weak `ETag`; send it back in `If-None-Match` for a 304.",
  "**Drop-in for the hosted service's clients.** As the hosted NBA 2K Ratings API does: an empty value is an absent one (`team=`; but `limit=` is a 400); numbers may carry spaces or decimals (`minRating=75.5` compares exactly, `limit=2.5` is 2); a `sort` direction is read in any case, anything but asc meaning desc; `fields` may hold spaces and empty entries; an unknown `position`, `badge`, `badgeTier`, badge `category` or `tier`, and `minRating` over `maxRating`, answer 200 with an empty page; `cursor=abc` reads as 0. What was read leniently is said in `meta.warnings: [{ parameter, value, message, suggestions? }]`. Unknown parameters are ignored (with a warning, silently for names starting with `_`, such as the cache buster `?_=…`) on `/`, `/api/health`, `/api/stats`, `/api/dashboard/usage`, `/api/players/{id}/history`, `/attribute/{attr}`, `/versions`, `/api/trending`, the badge routes and the batch route's query; elsewhere they are a 400.",
  "**Exports.** `GET /api/players/bulk` and `GET /api/versions/{version}/players/bulk` also answer CSV, Parquet or an Arrow IPC stream (`format=csv|parquet|arrow`, or `Accept: text/csv`, `application/vnd.apache.parquet`, `application/vnd.apache.arrow.stream`): one flat, typed row per player with every attribute, badge tier and hot zone as a column, in a fixed order (docs/exports.md). Same filters, key and token as the JSON; `ETag`/304 alike; byte ranges (`Range`, 206, 416) for remote readers such as DuckDB; pandas reads the CSV URL directly: `pd.read_csv(url, storage_options={\"X-API-Key\": key})`.",
  "**Errors.** Every error is `{ success: false, error: { code, message, details?, timestamp } }` (`timestamp`: when it was answered, ISO 8601). Checks run in this order: route (404, or 405 with an `Allow` header for a known path and another method) → API key (401) → rate limit (429) → parameters (400). An unknown query parameter is a 400 `UNKNOWN_PARAMETERS` with a suggestion the route accepts: the hosted service's names (`page`, `offset`, `skip` → `cursor`, or `offset` where pages are offsets; `per_page`, `pagesize`, `page_size`, `count` → `limit`; `rating`, `overall`, `min_rating` → `minRating`; `max_rating` → `maxRating`; `type`, `roster_type`, `team_type`, `roster` → `teamType`; `pos`, `positions` → `position`; `team_name`, `teamname` → `team`; `query` → `q` or the `search` filter; `name`, `player`, `search` where it is no filter → `/api/players/search`), otherwise the closest valid name.",
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
      examples: errorExampleComponents(),
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
      const parameter = queryParameter(name, schema);
      return shared.get(name)?.key === JSON.stringify(parameter) ? { $ref: `#/components/parameters/${name}` } : parameter;
    }),
    ...(isCacheable ? [{ name: "If-None-Match", in: "header", required: false, description: "An ETag from an earlier reply; a match gives 304", schema: { type: "string" } }] : []),
  ];
  const bodySchema = route.body?.schema;
  return {
    operationId: operationId(route.method, path),
    summary: route.summary,
    description: describeAccess(route, isCacheable),
    tags: [tagOf(path)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(bodySchema !== undefined
      ? {
        requestBody: {
          required: true,
          description: "JSON, at most 64 KiB",
          content: { "application/json": { schema: withoutId(bodySchema) } },
        },
      }
      : {}),
    ...(route.access === "key" ? { security: [{ ApiKey: [] }] } : {}),
    responses: responses(route, pathNames, isCacheable),
  };
}

function withoutId(schema: object): Schema {
  const copy = JSON.parse(JSON.stringify(schema)) as Schema;
  delete copy.$id;
  return copy;
}

/** Required where its schema says so (`x-required`: absent or blank is a 400 MISSING_PARAMETER). */
function isRequiredParam(schema: ParamSchema): boolean {
  return schema["x-required"] !== undefined;
}

function queryParameter(name: string, schema: ParamSchema): Schema {
  const isRequired = isRequiredParam(schema);
  const isCaseInsensitive = schema["x-normalise"] !== undefined && schema["x-normalise"] !== "cursor" && !/any case/i.test(schema.description);
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
      ...(schema.minLength === undefined ? {} : { minLength: schema.minLength }),
      ...(schema.maxLength === undefined ? {} : { maxLength: schema.maxLength }),
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
      const parameter = queryParameter(name, schema);
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
  const access = route.access === "key" && route.isOwnerAction === true
    ? `Needs an API key but no token from its bucket (an emptied bucket cannot lock its owner out); limited to ${OWNER_POLICY.capacity} requests per minute per key (policy \`"owner"\`).`
    : route.access === "key"
    ? "Needs an API key; takes one token from its bucket."
    : route.access === "address"
      ? `No API key; limited to ${ADDRESS_POLICY.capacity} requests per minute per client address.`
      : route.access === "registration"
        ? `No API key; limited to ${REGISTRATION_POLICY.capacity} registrations per hour per client address (policy \`"registration"\`).`
        : "No API key and no rate limit.";
  const bounds = Object.keys(route.params.schemas).some((name) => /_(gte|lte)$/.test(name))
    ? " `{attribute}_gte` / `{attribute}_lte` bound any attribute by its snake_case name or alias (three_ball, dunk, layup, defense, mid_range). The parameters listed are the demo data's 43 attributes; every edition has its own catalogue, taken from its data (real 2K data has 35 keys, a newer game may add others): any attribute of the edition can be bounded and sorted on, and one it lacks is a 400 naming the edition and listing its attributes."
    : "";
  const caching = !isCacheable ? "" : route.cacheControl === undefined ? " Cacheable for an hour with an ETag." : ` Sent with \`Cache-Control: ${route.cacheControl}\` and an ETag.`;
  return `${access}${caching}${bounds}`;
}

function tagOf(path: string): string {
  if (path.startsWith("/api/versions")) return "versions";
  if (path.startsWith("/api/players") || path === "/api/trending" || path === "/api/public/players") return "players";
  if (path.startsWith("/api/badges")) return "badges";
  if (path.startsWith("/api/teams")) return "teams";
  if (path.startsWith("/api/keys") || path.startsWith("/api/register") || path.startsWith("/api/dashboard") || path.startsWith("/dashboard")) return "keys";
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

/** The success status and its content; a route that declares none gets a placeholder the drift test refuses. */
function success(route: RouteDefinition): { status: number; description: string; content: Record<string, Schema> } {
  const response = route.response;
  if (response === undefined) {
    return { status: 200, description: route.summary, content: { "application/json": { schema: { description: `Undocumented: ${route.summary}` } } } };
  }
  if (response.kind === "body") {
    return { status: response.status ?? 200, description: response.description, content: Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema }])) };
  }
  const exported = Object.entries(response.exports ?? {}).map(([type, schema]) => [type, { schema }]);
  return { status: response.status ?? 200, description: response.description, content: { "application/json": { schema: envelopeSchema(response) }, ...Object.fromEntries(exported) } };
}

function responses(route: RouteDefinition, pathNames: readonly string[], isCacheable: boolean): Record<string, Schema> {
  const limitHeaders = [...RATE_LIMIT_HEADERS];
  // A public answer (a shared cache may replay it to anyone) carries no requester's bucket; its refusals do.
  const answerLimitHeaders = /^\s*public\b/i.test(route.cacheControl ?? "") ? [] : limitHeaders;
  const { status, description, content } = success(route);
  const result: Record<string, Schema> = {
    [status]: {
      description,
      headers: headerRefs(["X-Request-Id", "Cache-Control", "X-Content-Type-Options", ...(isCacheable ? ["ETag"] : []), ...answerLimitHeaders]),
      content,
    },
  };
  const exportTypes = route.response?.kind === "envelope" ? Object.keys(route.response.exports ?? {}) : [];
  if (exportTypes.length > 0) {
    result[200] = { ...result[200], headers: { ...(result[200] as { headers: Record<string, Schema> }).headers, ...headerRefs(["Accept-Ranges", "X-Total-Count"]) } };
    result[206] = {
      description: "Partial Content: one byte range of an export (`Range: bytes=first-last`, `bytes=first-` or `bytes=-suffix`), of its identity body; several ranges get the whole body (200)",
      headers: headerRefs(["X-Request-Id", "Content-Range", "Accept-Ranges", "ETag", "Cache-Control", ...answerLimitHeaders]),
      content: Object.fromEntries(exportTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
    };
    result[416] = {
      description: "Range Not Satisfiable: the range starts at or past the export's end; no body",
      headers: headerRefs(["X-Request-Id", "Content-Range", ...answerLimitHeaders]),
    };
  }
  if (isCacheable) {
    result[304] = {
      description: "Not Modified: If-None-Match matched the ETag; no body, and no token taken",
      headers: headerRefs(["X-Request-Id", "ETag", "Cache-Control", ...answerLimitHeaders]),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(route, pathNames)) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    // Refusals before admission (a bad key, draining, a crash) carry no bucket state.
    const hasLimitHeaders = status !== 401 && status !== 500 && status !== 503;
    result[status] = {
      description: codes.join(", "),
      headers: headerRefs(["X-Request-Id", "X-Content-Type-Options", ...(hasLimitHeaders ? limitHeaders : []), ...(status === 429 ? ["Retry-After"] : [])]),
      content: {
        "application/json": {
          schema: { allOf: [ref("ErrorEnvelope"), { properties: { error: { properties: { code: { enum: codes } } } } }] },
          // One example per code of this status (a viewer's sample of the schema would show the table's first code everywhere).
          examples: errorExamples(codes),
        },
      },
    };
  }
  return result;
}

/** When the examples' errors were answered: fixed, so the document (and its ETag) does not change by the clock. */
const EXAMPLE_TIMESTAMP = "2026-11-22T12:00:00.000Z";

/** Each error code's example envelope, with its table message (components.examples, named by the code). */
function errorExampleComponents(): Record<string, Schema> {
  return Object.fromEntries((Object.keys(ERROR_TABLE) as ErrorCode[]).map((code) => [code, {
    summary: code,
    value: { success: false, error: { code, message: ERROR_TABLE[code].message, timestamp: EXAMPLE_TIMESTAMP } },
  }]));
}

/** The examples of one error status: its codes' envelopes. */
const errorExamples = (codes: readonly ErrorCode[]): Record<string, Schema> =>
  Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));

/**
 * The error codes one route can answer with: those its access, parameters and method imply, and
 * the ones it declares (what a path parameter names may not exist: PLAYER_NOT_FOUND, …).
 */
function errorCodes(route: RouteDefinition, pathNames: readonly string[]): ErrorCode[] {
  const codes: ErrorCode[] = ["UNKNOWN_PARAMETERS", "INVALID_PARAMETER", ...(route.errors ?? [])];
  if (Object.values(route.params.schemas).some(isRequiredParam)) codes.push("MISSING_PARAMETER");
  if (pathNames.includes("version")) codes.push("INVALID_VERSION", "VERSION_NOT_FOUND");
  if ("gameVersion" in route.params.schemas) codes.push("VERSION_NOT_FOUND");
  if (route.body !== undefined) codes.push("INVALID_JSON", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE");
  if (route.access === "registration") codes.push("KEY_LIMIT_EXCEEDED", "REGISTRATION_CLOSED", "REGISTRATION_RATE_LIMIT");
  if (route.access === "key") codes.push("MISSING_API_KEY", "INVALID_API_KEY");
  if (route.access === "key" || route.access === "address") codes.push("RATE_LIMIT_EXCEEDED");
  codes.push("INTERNAL_ERROR");
  if (route.access !== "probe" || route.path === "/ready") codes.push("SERVICE_UNAVAILABLE");
  // In the table's order, each once (a route may list a code its shape already implies).
  return (Object.keys(ERROR_TABLE) as ErrorCode[]).filter((code) => codes.includes(code));
}
