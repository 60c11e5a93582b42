// Composition of the HTTP layer: the route table and the dispatcher over it.

import { Dispatcher, type DispatchOptions } from "./dispatch.js";
import { Router, type RouteDefinition } from "./router.js";
import { aboutRoutes } from "./routes/about.js";
import { badgeRoutes } from "./routes/badges.js";
import { batchRoutes } from "./routes/batch.js";
import { bulkRoutes } from "./routes/bulk.js";
import { changesRoutes } from "./routes/changes.js";
import { liveRoutes } from "./routes/live.js";
import { compareRoutes } from "./routes/compare.js";
import { dashboardRoutes } from "./routes/dashboard.js";
import { docsRoutes } from "./routes/docs.js";
import { exploreRoutes } from "./routes/explore.js";
import { historyRoutes } from "./routes/history.js";
import { keyRoutes, type KeyServices } from "./routes/keys.js";
import { playerIdRoutes } from "./routes/player-id.js";
import { publicRoutes } from "./routes/public-players.js";
import { playerRoutes } from "./routes/players.js";
import { searchRoutes } from "./routes/search.js";
import { serviceRoutes, type SharedStateSource } from "./routes/service.js";
import { similarRoutes } from "./routes/similar.js";
import { teamProfileRoutes } from "./routes/team-profile.js";
import { teamRoutes } from "./routes/teams.js";
import { trendingRoutes } from "./routes/trending.js";
import { versionedRoutes } from "./routes/versioned.js";

/**
 * Every route, the documentation routes included (they describe the whole table, themselves too).
 * Without `keys` the key routes are listed but cannot run: a table built only to be described.
 */
export function buildRoutes(isReady: () => boolean, keys?: KeyServices, sharedState?: SharedStateSource): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    ...playerRoutes, ...searchRoutes, ...bulkRoutes, ...batchRoutes, ...historyRoutes, ...playerIdRoutes, ...teamRoutes, ...versionedRoutes,
    ...trendingRoutes, ...changesRoutes, ...liveRoutes, ...badgeRoutes, ...publicRoutes, ...aboutRoutes, ...serviceRoutes(isReady, sharedState),
    ...keyRoutes(keys), ...dashboardRoutes(),
    ...similarRoutes, ...compareRoutes, ...teamProfileRoutes, ...exploreRoutes(),
  ];
  routes.push(...docsRoutes(() => routes));
  return routes;
}

export function createDispatcher(options: Omit<DispatchOptions, "router">, keys?: KeyServices, sharedState?: SharedStateSource): Dispatcher {
  const router = new Router(buildRoutes(() => !options.isDraining(), keys, sharedState));
  return new Dispatcher({ ...options, router });
}
