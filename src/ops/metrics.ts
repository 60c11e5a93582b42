// Prometheus metrics for the whole server: the supervisor asks every worker for its counters on
// each scrape and writes their sum in Prometheus's text format (version 0.0.4) on METRICS_PORT.
// Written here rather than through a client library: a scrape is a sum of plain counters, and the
// histogram buckets are added as counts (a library's `observe` would replay every request ever
// served, on every scrape).

import { createServer, type Server } from "node:http";
import { LATENCY_BUCKETS_SECONDS, type StatsSnapshot } from "./request-stats.js";
import type { WorkCounts } from "../store/work-counts.js";

export interface MetricsSource {
  collect(): Promise<StatsSnapshot[]>;
  restarts(): number;
}

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type Labels = Readonly<Record<string, string>>;
type Sample = readonly [labels: Labels, value: number];

/** courtside_work_total's `kind` label of each work count. */
const WORK_KINDS: Readonly<Record<keyof WorkCounts, string>> = {
  handlerCalls: "handler_calls",
  identifierLookups: "identifier_lookups",
  nameSearches: "name_searches",
  postingsVisited: "postings_visited",
  candidatesScored: "candidates_scored",
  requestsHeld: "requests_held",
};

/** A label value as the text format wants it: backslash, double quote and line feed escaped. */
const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");

function sampleLine(name: string, labels: Labels, value: number): string {
  const pairs = Object.entries(labels).map(([label, text]) => `${label}="${escapeLabel(text)}"`);
  return `${name}${pairs.length > 0 ? `{${pairs.join(",")}}` : ""} ${Number.isFinite(value) ? value : 0}`;
}

function family(name: string, type: "counter" | "gauge", help: string, samples: readonly Sample[]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples.map(([labels, value]) => sampleLine(name, labels, value))];
}

/** Adds `value` to the sample of `key` (labels in a fixed order), keeping first-seen order. */
function add(samples: Map<string, [Labels, number]>, labels: Labels, value: number): void {
  const key = JSON.stringify(labels);
  const sample = samples.get(key);
  if (sample) sample[1] += value;
  else samples.set(key, [labels, value]);
}

/** What serves HTTP, as courtside_runtime_info's labels: the adapter (uws or node), the Node and uWS versions. */
export type RuntimeLabels = Readonly<{ adapter: string; node: string; uws: string }>;

/** The exposition of every worker's snapshot summed (`restarts`: the supervisor's own count). */
export function renderMetrics(snapshots: readonly StatsSnapshot[], restarts: number, runtime?: RuntimeLabels): string {
  const requests = new Map<string, [Labels, number]>();
  const latency = new Map<string, { buckets: number[]; sum: number; count: number }>();
  const rejected = { key: 0, address: 0 };
  let hits = 0;
  let misses = 0;
  const redis = new Map<string, number>();
  const work = new Map<keyof WorkCounts, number>();
  for (const snapshot of snapshots) {
    for (const [key, count] of Object.entries(snapshot.requests)) {
      const [route = "", status = ""] = key.split("\u0000");
      add(requests, { route, status }, count);
    }
    for (const [route, histogram] of Object.entries(snapshot.latency)) {
      let total = latency.get(route);
      if (!total) latency.set(route, (total = { buckets: new Array<number>(LATENCY_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0 }));
      histogram.buckets.forEach((count, i) => { total.buckets[i] = (total.buckets[i] ?? 0) + count; });
      total.sum += histogram.sum;
      total.count += histogram.count;
    }
    if (snapshot.redis !== undefined) {
      if (redis.size === 0) for (const state of ["shared", "local"]) redis.set(state, 0);
      redis.set(snapshot.redis, (redis.get(snapshot.redis) ?? 0) + 1);
    }
    if (snapshot.work !== undefined) {
      for (const kind of Object.keys(WORK_KINDS) as (keyof WorkCounts)[]) work.set(kind, (work.get(kind) ?? 0) + snapshot.work[kind]);
    }
    rejected.key += snapshot.rateLimited.key;
    rejected.address += snapshot.rateLimited.address;
    hits += snapshot.cache.hits;
    misses += snapshot.cache.misses;
  }

  const histogramName = "courtside_http_request_duration_seconds";
  const histogramLines = [`# HELP ${histogramName} Time from request to response written, by route template`, `# TYPE ${histogramName} histogram`];
  for (const [route, { buckets, sum, count }] of latency) {
    let cumulative = 0;
    buckets.forEach((n, i) => {
      cumulative += n;
      histogramLines.push(sampleLine(`${histogramName}_bucket`, { le: i < LATENCY_BUCKETS_SECONDS.length ? String(LATENCY_BUCKETS_SECONDS[i]) : "+Inf", route }, cumulative));
    });
    histogramLines.push(sampleLine(`${histogramName}_sum`, { route }, sum), sampleLine(`${histogramName}_count`, { route }, count));
  }
  const editions = snapshots[0]?.editions ?? [];
  return [
    ...family("courtside_http_requests_total", "counter", "HTTP requests by route template and status", [...requests.values()]),
    ...histogramLines,
    ...family("courtside_rate_limit_rejections_total", "counter", "Requests refused with 429, by bucket kind", [[{ bucket: "key" }, rejected.key], [{ bucket: "address" }, rejected.address]]),
    ...family("courtside_response_cache_lookups_total", "counter", "Response cache lookups by result", [[{ result: "hit" }, hits], [{ result: "miss" }, misses]]),
    ...family("courtside_response_cache_hit_ratio", "gauge", "Response cache hits / lookups since start", [[{}, hits + misses === 0 ? 0 : hits / (hits + misses)]]),
    ...family("courtside_editions_loaded", "gauge", "Editions loaded (per worker, the same everywhere)", editions.map((edition) => [{ gameVersion: edition.gameVersion, status: edition.status }, 1] as const)),
    ...family("courtside_edition_players", "gauge", "Players per loaded edition", editions.map((edition) => [{ gameVersion: edition.gameVersion }, edition.players] as const)),
    ...family("courtside_workers", "gauge", "Workers answering the scrape", [[{}, snapshots.length]]),
    ...family("courtside_redis_workers", "gauge", "With REDIS_URL: workers by Redis state (shared = reaching Redis, local = answering alone)", [...redis].map(([state, n]) => [{ state }, n] as const)),
    ...family("courtside_work_total", "counter", "Work driven by request input, by kind: handlers run, player identifiers looked up, name searches, postings they visited, suggestion candidates scored, pipelined requests held for later", [...work].map(([kind, n]) => [{ kind: WORK_KINDS[kind] }, n] as const)),
    ...family("courtside_worker_restarts_total", "gauge", "Workers restarted by the supervisor since start", [[{}, restarts]]),
    ...(runtime === undefined ? [] : family("courtside_runtime_info", "gauge", "What serves HTTP: the adapter (uws: uWebSockets.js; node: node:http), Node's version and uWS's (empty on node)", [[runtime, 1]])),
    "",
  ].join("\n");
}

export function startMetricsServer(host: string, port: number, source: MetricsSource, runtime?: RuntimeLabels): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (request.url !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("metrics are at GET /metrics\n");
      return;
    }
    source.collect()
      .then((snapshots) => renderMetrics(snapshots, source.restarts(), runtime))
      .then((text) => response.writeHead(200, { "content-type": METRICS_CONTENT_TYPE }).end(request.method === "HEAD" ? undefined : text))
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
