// What the in-process benchmarks share (parity.ts, miss-cost.ts, answers.ts): the real dispatcher
// without sockets, every request keyed with a rate limit no run reaches, and a URL as the
// dispatcher's incoming request (a GET without headers that change the answer).

import type { Dispatcher, IncomingRequest } from "../src/http/dispatch.js";
import { createDispatcher } from "../src/http/routes/route-table.js";
import { TokenBuckets } from "../src/limits/token-buckets.js";
import type { RequestStats } from "../src/ops/request-stats.js";
import type { EditionSet } from "../src/store/editions.js";

/** The two constructors a dispatcher is made with: this build's by default, another build's (answers.ts --against) when given. */
export interface DispatcherModules {
  createDispatcher: typeof createDispatcher;
  TokenBuckets: typeof TokenBuckets;
}

export const BENCH_KEY = "bench";

export interface BenchDispatcherOptions {
  /** Bytes of response cache; 0 turns it off. */
  cacheBytes: number;
  stats?: RequestStats;
  /** The clock (errors carry it as their timestamp); default Date.now. */
  now?: () => number;
  modules?: DispatcherModules;
}

/** The dispatcher over `editions`, every key accepted. */
export function benchDispatcher(editions: EditionSet, { cacheBytes, stats, now = Date.now, modules = { createDispatcher, TokenBuckets } }: BenchDispatcherOptions): Dispatcher {
  return modules.createDispatcher({
    editions: () => editions,
    keys: { verify: () => ({ id: BENCH_KEY, slot: 0, rateLimit: 1_000_000_000 }) },
    buckets: new modules.TokenBuckets(4, 4),
    registrationBuckets: new modules.TokenBuckets(0, 4),
    ownerBuckets: new modules.TokenBuckets(4, 1),
    now,
    responseCacheBytes: cacheBytes,
    corsOrigins: [],
    isDraining: () => false,
    maxBodyBytes: 65_536,
    ...(stats === undefined ? {} : { stats }),
  });
}

/** A GET of `path` (query string included) as the dispatcher receives it, with the bench key. */
export function benchRequest(path: string, ifNoneMatch = ""): IncomingRequest {
  const at = path.indexOf("?");
  return {
    method: "GET", url: at < 0 ? path : path.slice(0, at), rawQuery: at < 0 ? "" : path.slice(at + 1), apiKey: BENCH_KEY, ifNoneMatch,
    acceptEncoding: "", contentType: "", origin: "", address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
  };
}
