// GET / and GET /api/health (no key, no token: what this service is and where to go next) and
// GET /api/stats (no key, per-address limit, publicly cacheable): one edition in numbers.

import { ERAS } from "../../model/eras.js";
import { compileParams, type ValuesOf } from "../../query/params.js";
import type { Edition } from "../../store/edition.js";
import { DOCS_PATH, OPENAPI_PATH } from "../describe/openapi.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, jsonReply, NO_STORE, successReply, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, text, timestamp } from "../describe/response-schemas.js";
import { resolveEdition } from "./edition-param.js";
import { packageVersion } from "../../assets.js";
import { uwsInfo } from "../uws.js";
import { adapterChoice } from "../adapter.js";

export const STATS_CACHE_CONTROL = "public, max-age=1800";
/** docs/compatibility.md#fidelity-rules: these routes ignore unknown parameters (cache busters), as the hosted service does. */
const noParams = compileParams({}, { ignoresUnknown: true });
const statsSchemas = {
  gameVersion: {
    type: "string", pattern: "^2[Kk]\\d{2}$", description: "Edition key (2K26, any case); default the current edition",
    "x-reason": "must be 2K followed by two digits, e.g. 2K26",
  },
} as const;
const statsParams = compileParams(statsSchemas, { ignoresUnknown: true });

const version = packageVersion();

const SERVICE = "Courtside";
const WELCOME = "Courtside: basketball video-game player ratings, a drop-in for the NBA 2K Ratings API";
const NOTE = "Every /api route but /api/versions, /api/stats, /api/public/players and /api/health needs an X-API-Key header; get a key at /dashboard";

function aboutData(context: RequestContext): Record<string, unknown> {
  const { editions } = context;
  return {
    service: SERVICE,
    version,
    status: "ok",
    current: editions.current.key,
    editions: editions.keys(),
    timestamp: new Date(context.now).toISOString(),
    links: { docs: DOCS_PATH, openapi: OPENAPI_PATH, versions: "/api/versions", health: "/api/health" },
  };
}

/**
 * docs/compatibility.md#fidelity-rules: the hosted service answers `/` and `/api/health` outside an envelope, so their keys
 * sit at the top level beside ours (`success`, `data`, `meta`).
 */
function root(context: RequestContext): Reply {
  return jsonReply(200, {
    success: true, data: aboutData(context), meta: {},
    service: SERVICE, version, message: WELCOME,
    links: { documentation: DOCS_PATH, getApiKey: "/dashboard", health: "/api/health", stats: "/api/stats", openapi: OPENAPI_PATH, versions: "/api/versions" },
    note: NOTE,
  }, { cacheControl: NO_STORE });
}

function health(context: RequestContext): Reply {
  return jsonReply(200, {
    success: true, data: aboutData(context), meta: {},
    status: "ok", timestamp: new Date(context.now).toISOString(), service: SERVICE, version,
    runtime: { node: process.versions.node, adapter: adapterChoice()?.name ?? null, uws: adapterChoice()?.name === "uws" ? uwsInfo()?.version ?? null : null },
  }, { cacheControl: NO_STORE });
}

function editionStats(edition: Edition): Record<string, unknown> {
  const overall = edition.payload.columns.overall;
  let sum = 0;
  for (let row = 0; row < edition.rowCount; row++) sum += overall[row] as number;
  const byType = Object.fromEntries(ERAS.map((era) => {
    const [start, end] = edition.eraRange(era);
    return [era, end - start];
  }));
  return {
    gameVersion: edition.key,
    totalPlayers: edition.rowCount,
    byType,
    uniqueTeams: edition.teams.filter((team) => team.playerCount > 0).length,
    // An integer, as the hosted service sends it (docs/compatibility.md#fidelity-rules); the exact mean beside it.
    avgOverall: edition.rowCount === 0 ? 0 : Math.round(sum / edition.rowCount),
    meanOverall: edition.rowCount === 0 ? 0 : sum / edition.rowCount,
    lastUpdated: edition.payload.meta.capturedAt,
  };
}

function stats(context: RequestContext<ValuesOf<typeof statsSchemas>>): Reply {
  const asked = context.values.gameVersion;
  const edition = asked === undefined ? context.editions.current : resolveEdition(context.editions, asked);
  return context.cached(cacheKey("/api/stats", edition, []), () =>
    successReply(editionStats(edition), { gameVersion: edition.key, ...dataSourceMeta(edition) }, { isCacheable: true, cacheControl: STATS_CACHE_CONTROL }));
}

const aboutDataSchema: JsonSchema = exactObject({
    service: { const: "Courtside" }, version: text("Service version"), status: { const: "ok" }, current: gameVersion,
    editions: arrayOf(gameVersion), timestamp: timestamp("Now, by the service's clock"),
    links: exactObject({ docs: text("API reference page"), openapi: text("OpenAPI document"), versions: text("Edition list"), health: text("This status") }),
});

const rootResponse: RouteResponse = {
  kind: "envelope",
  description: "What this service is, its editions and where to go next; the hosted service's keys (service, version, message, links, note) beside the envelope",
  data: aboutDataSchema,
  meta: exactObject({}),
  topLevel: {
    service: text("Service name"), version: text("Service version"), message: text("Welcome"),
    links: exactObject({
      documentation: text("API reference page"), getApiKey: text("Where to get a key"), health: text("Health"), stats: text("Statistics"),
      openapi: text("OpenAPI document"), versions: text("Edition list"),
    }),
    note: text("How to get a key"),
  },
};

const healthResponse: RouteResponse = {
  kind: "envelope",
  description: "Service status; the hosted service's keys (status, timestamp, service, version) beside the envelope",
  data: aboutDataSchema,
  meta: exactObject({}),
  topLevel: {
    status: { const: "ok" }, timestamp: timestamp("Now, by the service's clock"), service: text("Service name"), version: text("Service version"),
    runtime: exactObject({
      node: text("The Node.js version running the service"),
      adapter: { type: ["string", "null"], enum: ["uws", "node", null], description: "What serves HTTP: uws (uWebSockets.js) where its addon loads, else node (Node's own node:http); HTTP_ADAPTER forces one" },
      uws: { type: ["string", "null"], description: "The uWebSockets.js build serving HTTP (20.57.0, or 20.30.0 on Node 20 where glibc is older than 2.38); null on the node adapter" },
    }),
  },
};

export const aboutRoutes: RouteDefinition[] = [
  { method: "GET", path: "/", access: "probe", params: noParams, summary: "What this service is, its editions and where its documentation lives (no API key)", response: rootResponse, handle: root },
  { method: "GET", path: "/api/health", access: "probe", params: noParams, summary: "Service status, version and editions (no API key)", response: healthResponse, handle: health },
  {
    method: "GET", path: "/api/stats", access: "address", cacheControl: STATS_CACHE_CONTROL, params: statsParams, summary: "One edition in numbers: players per era, teams, average overall (no API key)",
    response: {
      kind: "envelope",
      description: "One edition in numbers",
      data: exactObject({
        gameVersion, totalPlayers: integer("Players of every era"),
        byType: exactObject({ curr: integer("Current rosters"), class: integer("Classic"), allt: integer("All-time") }),
        uniqueTeams: integer("Teams with players"), avgOverall: { type: "integer", description: "Mean overall, rounded (as the hosted service sends it)" },
        meanOverall: { type: "number", description: "The exact mean overall" },
        lastUpdated: text("When the edition's data was captured (ISO 8601)"),
      }),
      meta: exactObject({ gameVersion }),
    },
    handle: stats,
  },
];
