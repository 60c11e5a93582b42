// Per-worker request statistics in plain counters (nothing but additions on the request path): the
// supervisor collects a snapshot from every worker on scrape and exposes the sum.

import type { WorkCounts } from "../store/work-counts.js";

export const LATENCY_BUCKETS_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const;

export interface StatsSnapshot {
  /** `${route}\u0000${status}` → count. */
  requests: Record<string, number>;
  /** Cumulative-free bucket counts (one per bound, plus +Inf last), per route. */
  latency: Record<string, { buckets: number[]; sum: number; count: number }>;
  rateLimited: { key: number; address: number };
  cache: { hits: number; misses: number };
  editions: { gameVersion: string; status: string; players: number }[];
  /** With REDIS_URL: whether this worker reaches Redis. */
  redis?: "shared" | "local";
  /** The worker's counts of input-driven work (src/store/work-counts.ts). */
  work?: WorkCounts;
}

interface RouteStats {
  /** Status → count. */
  statuses: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

export class RequestStats {
  /** By route template: a constant string, so its hash is computed once, not per request. */
  private readonly routes = new Map<string, RouteStats>();
  readonly rateLimited = { key: 0, address: 0 };
  readonly cache = { hits: 0, misses: 0 };

  record(route: string, status: number, seconds: number): void {
    let stats = this.routes.get(route);
    if (!stats) {
      stats = { statuses: new Map(), buckets: new Array<number>(LATENCY_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0 };
      this.routes.set(route, stats);
    }
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS_SECONDS.length && seconds > (LATENCY_BUCKETS_SECONDS[bucket] as number)) bucket++;
    stats.buckets[bucket] = (stats.buckets[bucket] as number) + 1;
    stats.sum += seconds;
    stats.count += 1;
  }

  snapshot(editions: StatsSnapshot["editions"]): StatsSnapshot {
    return {
      requests: Object.fromEntries([...this.routes].flatMap(([route, stats]) => [...stats.statuses].map(([status, count]) => [`${route}\u0000${status}`, count]))),
      latency: Object.fromEntries([...this.routes].map(([route, h]) => [route, { buckets: [...h.buckets], sum: h.sum, count: h.count }])),
      rateLimited: { ...this.rateLimited },
      cache: { ...this.cache },
      editions,
    };
  }
}
