// GET /api/versions (no key), /health and /ready (no key, no limit, never cached).

import { compileParams } from "../../query/params.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, jsonReply, NO_STORE, successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, ref } from "../describe/response-schemas.js";

/** With REDIS_URL, what /ready says of it: shared, or answering alone while Redis is unreachable. */
export type SharedStateSource = () => "shared" | "local";

const DEGRADED_DETAIL = "redis unreachable: keys verified from this replica's last copy, rate limits local to this replica until it is back";

const noParams = compileParams({});

function versions(context: RequestContext): Reply {
  const { editions } = context;
  return context.cached(cacheKey("/api/versions", editions.ordered, []), () =>
    successReply(editions.ordered.map((edition) => edition.entry()), { count: editions.ordered.length, current: editions.current.key, ...dataSourceMeta(editions) }, { isCacheable: true }));
}

function readiness(context: RequestContext, sharedState: SharedStateSource | undefined): Reply {
  const data: Record<string, unknown> = { status: "ready", editions: context.editions.keys(), current: context.editions.current.key };
  // Still 200 while Redis is away: this replica answers every request, only less shared.
  if (sharedState !== undefined) data["redis"] = sharedState() === "shared" ? { status: "shared" } : { status: "degraded", detail: DEGRADED_DETAIL };
  return jsonReply(200, { success: true, data }, { cacheControl: NO_STORE });
}

export function serviceRoutes(isReady: () => boolean, sharedState?: SharedStateSource): RouteDefinition[] {
  return [
    {
      method: "GET", path: "/api/versions", access: "address", params: noParams, summary: "Game editions, current first (no API key)",
      response: {
        kind: "envelope",
        description: "The game editions, current first, then archived newest first",
        data: arrayOf(ref("EditionEntry")),
        meta: exactObject({ count: integer("Editions"), current: { ...gameVersion, description: "Key of the current edition" } }),
      },
      handle: versions,
    },
    {
      method: "GET", path: "/health", access: "probe", params: noParams, summary: "Liveness",
      response: { kind: "envelope", description: "The process is up", data: exactObject({ status: { const: "ok" } }) },
      handle: () => jsonReply(200, { success: true, data: { status: "ok" } }, { cacheControl: NO_STORE }),
    },
    {
      method: "GET", path: "/ready", access: "probe", params: noParams, summary: "Readiness: 503 while draining; with REDIS_URL, data.redis says shared or degraded",
      response: {
        kind: "envelope",
        description: "The editions are loaded and the service is not draining",
        data: exactObject({
          status: { const: "ready" }, editions: arrayOf(gameVersion), current: gameVersion,
          redis: exactObject({
            status: { enum: ["shared", "degraded"], description: "shared: Redis answers; degraded: unreachable, this replica answers alone (still 200)" },
            detail: { type: "string", description: "What degraded means, when it is" },
          }, ["detail"], "With REDIS_URL only: whether keys, limits and usage are shared with the other replicas right now"),
        }, ["redis"]),
      },
      handle: (context) => isReady()
        ? readiness(context, sharedState)
        : jsonReply(503, { success: false, error: { code: "SERVICE_UNAVAILABLE", message: "The service is shutting down", timestamp: new Date(context.now).toISOString() } }, { cacheControl: NO_STORE }),
    },
  ];
}
