import t from "tap";
import { renderMetrics } from "../../src/ops/metrics.js";
import { LATENCY_BUCKETS_SECONDS, RequestStats, type StatsSnapshot } from "../../src/ops/request-stats.js";

const editions = [{ gameVersion: "2K26", status: "current", players: 600 }, { gameVersion: "2K25", status: "archived", players: 580 }];

function workerSnapshot(requests: [route: string, status: number, seconds: number][], redis?: "shared" | "local"): StatsSnapshot {
  const stats = new RequestStats();
  for (const [route, status, seconds] of requests) stats.record(route, status, seconds);
  stats.rateLimited.key += 2;
  stats.cache.hits += 3;
  stats.cache.misses += 1;
  return { ...stats.snapshot(editions), ...(redis ? { redis } : {}) };
}

const SAMPLE = /^[a-z_]+(\{([a-zA-Z]+="([^"\\\n]|\\["\\n])*",?)+\})? -?[0-9.e+-]+$/;

t.test("two workers' counters are summed into Prometheus's text format", (t) => {
  const text = renderMetrics([
    workerSnapshot([["/api/players", 200, 0.0002], ["/api/players", 200, 0.003], ["/api/teams", 404, 0.00005]]),
    workerSnapshot([["/api/players", 200, 2.5], ["/api/players", 429, 0.00001]]),
  ], 1);
  t.ok(text.endsWith("\n"));
  for (const line of text.trimEnd().split("\n")) if (!line.startsWith("#")) t.match(line, SAMPLE, line);
  t.match(text, /^courtside_http_requests_total\{route="\/api\/players",status="200"\} 3$/m);
  t.match(text, /^courtside_http_requests_total\{route="\/api\/players",status="429"\} 1$/m);
  t.match(text, /^courtside_http_requests_total\{route="\/api\/teams",status="404"\} 1$/m);
  t.match(text, /^courtside_rate_limit_rejections_total\{bucket="key"\} 4$/m);
  t.match(text, /^courtside_response_cache_lookups_total\{result="hit"\} 6$/m);
  t.match(text, /^courtside_response_cache_hit_ratio 0\.75$/m);
  t.match(text, /^courtside_workers 2$/m);
  t.match(text, /^courtside_worker_restarts_total 1$/m);
  t.match(text, /^courtside_editions_loaded\{gameVersion="2K25",status="archived"\} 1$/m);
  t.match(text, /^courtside_edition_players\{gameVersion="2K26"\} 600$/m);
  t.notMatch(text, /courtside_redis_workers\{/, "no Redis states without REDIS_URL");
  for (const name of ["courtside_http_requests_total", "courtside_http_request_duration_seconds", "courtside_workers"]) {
    t.match(text, new RegExp(`^# HELP ${name} .+\\n# TYPE ${name} (counter|gauge|histogram)$`, "m"), name);
  }
  t.end();
});

t.test("the latency histogram is cumulative, ends at +Inf with the count, and its sum is exact", (t) => {
  const text = renderMetrics([
    workerSnapshot([["/api/players", 200, 0.0002], ["/api/players", 200, 0.003]]),
    workerSnapshot([["/api/players", 200, 2.5], ["/api/players", 200, 0.0002]]),
  ], 0);
  const bucket = (le: string) => Number(new RegExp(`^courtside_http_request_duration_seconds_bucket\\{le="${le.replace("+", "\\+")}",route="/api/players"\\} (\\d+)$`, "m").exec(text)?.[1]);
  t.equal(bucket("0.0001"), 0);
  t.equal(bucket("0.00025"), 2);
  t.equal(bucket("0.005"), 3);
  t.equal(bucket(String(LATENCY_BUCKETS_SECONDS.at(-1))), 3, "2.5 s is past the last bound");
  t.equal(bucket("+Inf"), 4);
  t.match(text, /^courtside_http_request_duration_seconds_count\{route="\/api\/players"\} 4$/m);
  const sum = Number(/^courtside_http_request_duration_seconds_sum\{route="\/api\/players"\} (.+)$/m.exec(text)?.[1]);
  t.ok(Math.abs(sum - 2.5034) < 1e-9, `sum ${sum}`);
  t.end();
});

t.test("Redis states are counted per worker; label values are escaped", (t) => {
  const text = renderMetrics([workerSnapshot([["/a\"b\\c\nd", 200, 0.001]], "shared"), workerSnapshot([], "local"), workerSnapshot([], "local")], 0);
  t.match(text, /^courtside_redis_workers\{state="shared"\} 1$/m);
  t.match(text, /^courtside_redis_workers\{state="local"\} 2$/m);
  t.match(text, /^courtside_http_requests_total\{route="\/a\\"b\\\\c\\nd",status="200"\} 1$/m);
  t.end();
});

t.test("the workers' work counts are summed by kind", (t) => {
  const work = (n: number) => ({ handlerCalls: n, identifierLookups: 2 * n, nameSearches: 3 * n, postingsVisited: 4 * n, candidatesScored: 5 * n, requestsHeld: 6 * n });
  const text = renderMetrics([{ ...workerSnapshot([]), work: work(1) }, { ...workerSnapshot([]), work: work(10) }], 0);
  t.match(text, /^# TYPE courtside_work_total counter$/m);
  t.match(text, /^courtside_work_total\{kind="handler_calls"\} 11$/m);
  t.match(text, /^courtside_work_total\{kind="identifier_lookups"\} 22$/m);
  t.match(text, /^courtside_work_total\{kind="name_searches"\} 33$/m);
  t.match(text, /^courtside_work_total\{kind="postings_visited"\} 44$/m);
  t.match(text, /^courtside_work_total\{kind="candidates_scored"\} 55$/m);
  t.match(text, /^courtside_work_total\{kind="requests_held"\} 66$/m);
  t.end();
});
