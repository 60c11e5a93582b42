// GET /api/versions (no key), /health and /ready (no key, no limit, never cached).

import { compileParams } from "../../query/params.js";
import type { RequestContext } from "../context.js";
import { jsonReply, NO_STORE, successReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, ref } from "../response-schemas.js";

const noParams = compileParams({});

function versions(context: RequestContext): Reply {
  const { editions } = context;
  return context.cached(`versions|${editions.ordered.map((edition) => edition.checksum).join(",")}`, () =>
    successReply(editions.ordered.map((edition) => edition.entry()), { count: editions.ordered.length, current: editions.current.key }, { isCacheable: true }));
}

export function serviceRoutes(isReady: () => boolean): RouteDefinition[] {
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
      method: "GET", path: "/health", access: "none", params: noParams, summary: "Liveness",
      response: { kind: "envelope", description: "The process is up", data: exactObject({ status: { const: "ok" } }) },
      handle: () => jsonReply(200, { success: true, data: { status: "ok" } }, { cacheControl: NO_STORE }),
    },
    {
      method: "GET", path: "/ready", access: "none", params: noParams, summary: "Readiness: 503 while draining",
      response: {
        kind: "envelope",
        description: "The editions are loaded and the service is not draining",
        data: exactObject({ status: { const: "ready" }, editions: arrayOf(gameVersion), current: gameVersion }),
      },
      handle: (context) => isReady()
        ? jsonReply(200, { success: true, data: { status: "ready", editions: context.editions.keys(), current: context.editions.current.key } }, { cacheControl: NO_STORE })
        : jsonReply(503, { success: false, error: { code: "SERVICE_UNAVAILABLE", message: "The service is shutting down" } }, { cacheControl: NO_STORE }),
    },
  ];
}
