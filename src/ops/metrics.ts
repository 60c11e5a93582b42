// Prometheus metrics for the whole server: the supervisor asks every worker for its counters on
// each scrape and exposes their sum through prom-client on METRICS_PORT.

import { createServer, type Server } from "node:http";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { LATENCY_BUCKETS_SECONDS, type StatsSnapshot } from "./request-stats.js";

export interface MetricsSource {
  collect(): Promise<StatsSnapshot[]>;
  restarts(): number;
}

export function buildRegistry(source: MetricsSource): { registry: Registry; refresh: () => Promise<void> } {
  const registry = new Registry();
  const requests = new Counter({ name: "courtside_http_requests_total", help: "HTTP requests by route template and status", labelNames: ["route", "status"], registers: [registry] });
  const latency = new Histogram({ name: "courtside_http_request_duration_seconds", help: "Time from request to response written, by route template", labelNames: ["route"], buckets: [...LATENCY_BUCKETS_SECONDS], registers: [registry] });
  const rejected = new Counter({ name: "courtside_rate_limit_rejections_total", help: "Requests refused with 429, by bucket kind", labelNames: ["bucket"], registers: [registry] });
  const cache = new Counter({ name: "courtside_response_cache_lookups_total", help: "Response cache lookups by result", labelNames: ["result"], registers: [registry] });
  const hitRatio = new Gauge({ name: "courtside_response_cache_hit_ratio", help: "Response cache hits / lookups since start", registers: [registry] });
  const editions = new Gauge({ name: "courtside_editions_loaded", help: "Editions loaded (per worker, the same everywhere)", labelNames: ["gameVersion", "status"], registers: [registry] });
  const players = new Gauge({ name: "courtside_edition_players", help: "Players per loaded edition", labelNames: ["gameVersion"], registers: [registry] });
  const workers = new Gauge({ name: "courtside_workers", help: "Workers answering the scrape", registers: [registry] });
  const redis = new Gauge({ name: "courtside_redis_workers", help: "With REDIS_URL: workers by Redis state (shared = reaching Redis, local = answering alone)", labelNames: ["state"], registers: [registry] });
  const restarts = new Gauge({ name: "courtside_worker_restarts_total", help: "Workers restarted by the supervisor since start", registers: [registry] });

  const refresh = async () => {
    const snapshots = await source.collect();
    registry.resetMetrics();
    workers.set(snapshots.length);
    if (snapshots.some((snapshot) => snapshot.redis !== undefined)) {
      redis.set({ state: "shared" }, 0);
      redis.set({ state: "local" }, 0);
    }
    restarts.set(source.restarts());
    let hits = 0;
    let misses = 0;
    for (const snapshot of snapshots) {
      for (const [key, count] of Object.entries(snapshot.requests)) {
        const [route = "", status = ""] = key.split("\u0000");
        requests.inc({ route, status }, count);
      }
      for (const [route, histogram] of Object.entries(snapshot.latency)) {
        // Replay each bucket's count at its upper bound: the sum is then approximate, the buckets exact.
        histogram.buckets.forEach((count, i) => {
          const value = LATENCY_BUCKETS_SECONDS[i] ?? 2;
          for (let n = 0; n < count; n++) latency.observe({ route }, value);
        });
      }
      if (snapshot.redis !== undefined) redis.inc({ state: snapshot.redis });
      rejected.inc({ bucket: "key" }, snapshot.rateLimited.key);
      rejected.inc({ bucket: "address" }, snapshot.rateLimited.address);
      hits += snapshot.cache.hits;
      misses += snapshot.cache.misses;
    }
    cache.inc({ result: "hit" }, hits);
    cache.inc({ result: "miss" }, misses);
    hitRatio.set(hits + misses === 0 ? 0 : hits / (hits + misses));
    for (const edition of snapshots[0]?.editions ?? []) {
      editions.set({ gameVersion: edition.gameVersion, status: edition.status }, 1);
      players.set({ gameVersion: edition.gameVersion }, edition.players);
    }
  };
  return { registry, refresh };
}

export function startMetricsServer(host: string, port: number, source: MetricsSource): Promise<{ server: Server; port: number }> {
  const { registry, refresh } = buildRegistry(source);
  const server = createServer((request, response) => {
    if (request.url !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("metrics are at GET /metrics\n");
      return;
    }
    refresh()
      .then(() => registry.metrics())
      .then((text) => response.writeHead(200, { "content-type": registry.contentType }).end(request.method === "HEAD" ? undefined : text))
      .catch((error: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(`metrics unavailable: ${(error as Error).message}\n`));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port });
    });
  });
}
