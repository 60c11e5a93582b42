// Composition of the HTTP layer: the route table and the dispatcher over it.

import { Dispatcher, type DispatchOptions } from "../dispatch.js";
import { Router, type RouteDefinition } from "../router.js";
import { aboutRoutes } from "./about.js";
import { badgeRoutes } from "./badges.js";
import { batchRoutes } from "./batch.js";
import { bulkRoutes } from "./bulk.js";
import { changesRoutes } from "./changes.js";
import { liveRoutes } from "./live.js";
import { mcpRoutes } from "./mcp.js";
import { compareRoutes } from "./compare.js";
import { dashboardRoutes } from "./dashboard.js";
import { docsRoutes } from "./docs.js";
import { exploreRoutes } from "./explore.js";
import { historyRoutes } from "./history.js";
import { keyRoutes, type KeyServices } from "./keys.js";
import { playerIdRoutes } from "./player-id.js";
import { percentileRoutes } from "./percentiles.js";
import { publicRoutes } from "./public-players.js";
import { playerRoutes } from "./players.js";
import { searchRoutes } from "./search.js";
import { serviceRoutes, type SharedStateSource } from "./service.js";
import { similarRoutes } from "./similar.js";
import { teamProfileRoutes } from "./team-profile.js";
import { teamRoutes } from "./teams.js";
import { trendingRoutes } from "./trending.js";
import { versionedRoutes } from "./versioned.js";

/**
 * Every route, the documentation routes included (they describe the whole table, themselves too).
 * Without `keys` the key routes are listed but cannot run: a table built only to be described.
 */
export function buildRoutes(isReady: () => boolean, keys?: KeyServices, sharedState?: SharedStateSource): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    ...playerRoutes, ...searchRoutes, ...bulkRoutes, ...batchRoutes, ...historyRoutes, ...playerIdRoutes, ...teamRoutes, ...versionedRoutes,
    ...trendingRoutes, ...changesRoutes, ...liveRoutes, ...badgeRoutes, ...publicRoutes, ...aboutRoutes, ...serviceRoutes(isReady, sharedState),
    ...keyRoutes(keys), ...dashboardRoutes(),
    ...similarRoutes, ...percentileRoutes, ...compareRoutes, ...teamProfileRoutes, ...exploreRoutes(),
  ];
  routes.push(...mcpRoutes(() => routes));
  routes.push(...docsRoutes(() => routes));
  return routes;
}

export function createDispatcher(options: Omit<DispatchOptions, "router">, keys?: KeyServices, sharedState?: SharedStateSource): Dispatcher {
  const router = new Router(buildRoutes(() => !options.isDraining(), keys, sharedState));
  return new Dispatcher({ ...options, router });
}
