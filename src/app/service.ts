// Assembles one running service from a Config: editions (hot-reloaded), keys and their writer,
// buckets, usage rings, dispatcher, uWS server, request stats and access logs. Used by each worker
// thread and by the HTTP tests (port 0, injected clock). Touches no process state.

import { localKeyWriter, type KeyWriter } from "../keys/key-writer.js";
import { loadEditionSet, type EditionSet } from "../store/editions.js";
import { ChangeLog } from "../store/change-log.js";
import { watchDataDir, type ReloadEvent, type ReloadWatcher } from "../store/reload.js";
import { workCountsNow } from "../store/work-counts.js";
import { createDispatcher } from "../http/routes/route-table.js";
import type { Dispatcher } from "../http/dispatch.js";
import { startServer, type HttpServer } from "../http/adapter.js";
import { ADDRESS_SLOTS, KEY_SLOTS, PROBE_SLOTS, REGISTRATION_SLOTS, TokenBuckets, type SharedKeyBuckets } from "../limits/token-buckets.js";
import { LiveConnectionCounts } from "../limits/live-connections.js";
import type { RedisLink } from "../redis/link.js";
import { UsageRings, type UsageSource } from "../limits/usage-rings.js";
import { RequestStats, type StatsSnapshot } from "../ops/request-stats.js";
import type { Logger } from "../ops/log.js";
import type { Config } from "../config.js";
import { KeyChanges, KeyRegistry } from "../keys/key-registry.js";
import { loadParquetWriter } from "../export/parquet.js";

const DRAIN_QUIET_MS = 150;
/** At boot, how long to wait for Redis before starting alone (keys from the keys file). */
const REDIS_BOOT_WAIT_MS = 3_000;

export interface Service {
  readonly port: number;
  readonly dispatcher: Dispatcher;
  readonly keys: KeyRegistry;
  readonly usage: UsageRings;
  readonly reload: ReloadWatcher;
  editions(): EditionSet;
  /** The current edition's change events, swapped with the editions. */
  changes(): ChangeLog;
  /** Swaps the whole set at once (a worker handed a reloaded set by the supervisor, with its change log when derived there). */
  replaceEditions(next: EditionSet, changes?: ChangeLog): void;
  stats(): StatsSnapshot;
  /** With REDIS_URL: whether Redis is reachable now; undefined without it. */
  sharedState(): "shared" | "local" | undefined;
  /** /ready turns 503, the listen socket closes, in-flight requests finish; resolves when none are left or after `graceMs`. */
  drain(graceMs?: number): Promise<void>;
  close(): void;
}

export interface ServiceOptions {
  now?: () => number;
  buckets?: TokenBuckets;
  registrationBuckets?: TokenBuckets;
  /** Per address, for the routes that need no key (PROBE_POLICY). */
  probeBuckets?: TokenBuckets;
  /** Per key, for the owner routes (OWNER_POLICY). */
  ownerBuckets?: TokenBuckets;
  /** Views of the supervisor's shared memory; a single-thread service allocates its own. */
  usageBuffer?: SharedArrayBuffer;
  keyChanges?: KeyChanges;
  /** Where key writes go: the supervisor thread for workers; this thread by default. */
  keyWriter?: KeyWriter;
  logger?: Logger;
  /** How often the data directory is looked at for new snapshots (ms). */
  reloadIntervalMs?: number;
  onReload?: (event: ReloadEvent) => void;
  /**
   * Editions loaded by another thread (the supervisor shares them with every worker and swaps
   * them with replaceEditions); without it the service loads and watches the data directory
   * in this thread.
   */
  editions?: EditionSet;
  /** The buffer of the workers' LiveConnectionCounts (config.workers of them); a single-thread service makes its own for one. */
  liveConnections?: SharedArrayBuffer;
  /** This worker's counters in liveConnections (its index). */
  liveRow?: number;
  /** The change log of `editions`, derived by the thread that loaded them; without it the service derives its own at start. */
  changes?: ChangeLog;
}

const NOT_WATCHING: ReloadWatcher = { check: () => [], close: () => undefined };

export async function startService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  // Before the first request: the exports' Parquet writer is imported once (src/export/parquet.ts).
  await loadParquetWriter();
  const logger = options.logger;
  let editions = options.editions ?? loadEditionSet(config.dataDir, config.maxSnapshotBytes);
  // Derived with the editions, before this thread serves (docs/design-decisions.md#the-change-log-is-derived-at-load):
  // by the supervisor, once for every worker, or here; no request ever builds it (the first
  // /api/changes of a worker used to, ~250 ms on the demo data).
  let changes = options.changes ?? ChangeLog.of(editions);
  const changeLog = () => changes;
  let server: HttpServer | undefined;
  /** A new set: the next change log (given, or derived here), then its new events and the editions added or changed, to every live socket. */
  const swap = (next: EditionSet, given?: ChangeLog) => {
    const previous = editions;
    const previousLog = changes;
    const nextLog = given ?? previousLog.next(previous, next);
    editions = next;
    changes = nextLog;
    try {
      const swappedAt = Date.now();
      const events = nextLog === previousLog ? [] : nextLog.published;
      server?.live?.publish(events, editionMessages(previous, next, nextLog, swappedAt));
      logger?.info({ swappedAt, events: events.length, sockets: server?.live?.count() ?? 0, publishMs: Date.now() - swappedAt }, "published change events");
    } catch (error) {
      logger?.error({ err: error }, "publishing the change events failed");
    }
  };
  const keyChanges = options.keyChanges ?? new KeyChanges();
  const isShared = config.redisUrl !== undefined;
  const keys = new KeyRegistry(config.keysFile, {
    // With REDIS_URL the file only seeds the copy at boot: Redis's change feed keeps it current.
    ...(isShared ? {} : { changes: keyChanges }),
    onError: (error) => logger?.warn({ reason: error.message }, "keys file refused; keeping the keys loaded before"),
    onProblem: (problem) => logger?.warn({ file: config.keysFile, line: problem.line }, problem.message),
  });
  const buckets = options.buckets ?? new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS);
  const now = options.now ?? Date.now;
  // Without REDIS_URL none of this is loaded: the keys file is the store, the buckets are this process's.
  const shared = config.redisUrl === undefined ? undefined : await startShared(config.redisUrl, keys, buckets, now, logger);
  const keyWriter = shared?.writer ?? options.keyWriter ?? localKeyWriter(config.keysFile, keyChanges);
  if (shared === undefined) keys.watch();
  const reload = options.editions !== undefined ? NOT_WATCHING : watchDataDir(
    config.dataDir,
    () => editions,
    swap,
    (event) => {
      if (event.kind === "loaded") logger?.info(event, `loaded ${event.file}`);
      else logger?.error(event, `refused ${event.file}: ${event.reason}`);
      options.onReload?.(event);
    },
    options.reloadIntervalMs,
    config.maxSnapshotBytes,
  );
  const stats = new RequestStats();
  let isDraining = false;
  let dispatcher: Dispatcher | undefined;
  // Route codes in the rings follow the route table, which every thread builds in the same order.
  const rings = new UsageRings(KEY_SLOTS, () => dispatcher?.routes.map((route) => route.path) ?? [], options.usageBuffer);
  const usage: UsageSource = shared?.usage(rings, (slot) => keys.info(slot)?.id) ?? rings;
  dispatcher = createDispatcher({
    editions: () => editions,
    changes: changeLog,
    keys,
    buckets,
    registrationBuckets: options.registrationBuckets ?? new TokenBuckets(0, REGISTRATION_SLOTS),
    probeBuckets: options.probeBuckets ?? new TokenBuckets(0, PROBE_SLOTS),
    ownerBuckets: options.ownerBuckets ?? new TokenBuckets(KEY_SLOTS, 1),
    sharedBuckets: shared?.buckets,
    now,
    responseCacheBytes: config.responseCacheBytes,
    corsOrigins: config.corsOrigins,
    allowedOrigins: config.mcpAllowedOrigins,
    isDraining: () => isDraining,
    maxBodyBytes: config.maxBodyBytes,
    stats,
    onError: (error, requestId) => logger?.error({ requestId, err: error }, "unexpected error"),
  }, { registry: keys, writer: keyWriter, usage, isRegistrationOpen: config.registration === "open" }, shared === undefined ? undefined : () => shared.link.state);
  try {
    server = await startServer({
      adapter: config.httpAdapter,
      host: config.host,
      port: config.port,
      dispatcher,
      maxBodyBytes: config.maxBodyBytes,
      maxHeadersKb: config.maxHeadersKb,
      bodyTimeoutMs: config.bodyTimeoutMs,
      trustProxy: config.trustProxy,
      live: {
        changes: changeLog,
        editions: () => editions,
        connectionsPerKey: config.liveConnectionsPerKey,
        budget: config.liveBudget,
        maxBufferedBytes: config.liveMaxBufferedBytes,
        connectionCounts: new LiveConnectionCounts(options.liveConnections === undefined ? 1 : config.workers, options.liveConnections),
        row: options.liveRow ?? 0,
      },
      ipv6Prefix: config.ipv6Prefix,
      onResponse: (outgoing, request, durationMs) => {
        stats.record(outgoing.route, outgoing.status, durationMs / 1000);
        // The key's own history: route template, method, status, time. Never the key or the query.
        if (outgoing.keySlot >= 0) usage.record(outgoing.keySlot, outgoing.route, request.method, outgoing.status, durationMs, now());
        // One access line per request; the API key is never logged.
        logger?.info({ requestId: outgoing.requestId, method: request.method, route: outgoing.route, status: outgoing.status, ms: Math.round(durationMs * 1000) / 1000 }, "request");
      },
    });
  } catch (error) {
    keys.close();
    reload.close();
    shared?.close();
    throw error;
  }
  const running = server;
  // A revoked or regenerated key loses its live sockets as soon as this thread refuses its HTTP.
  keys.onKeysWithdrawn((slots) => {
    const closed = running.live?.closeKeys(slots) ?? 0;
    if (closed > 0) logger?.info({ sockets: closed }, "closed the live sockets of withdrawn keys");
  });
  const stopWatching = () => {
    keys.close();
    reload.close();
    shared?.close();
  };
  return {
    port: running.port,
    dispatcher,
    keys,
    usage: rings,
    reload,
    editions: () => editions,
    changes: changeLog,
    replaceEditions: swap,
    stats: () => {
      const snapshot = stats.snapshot(editions.ordered.map((edition) => ({ gameVersion: edition.key, status: edition.payload.meta.status, players: edition.rowCount })));
      if (shared !== undefined) snapshot.redis = shared.link.state;
      snapshot.work = workCountsNow();
      return snapshot;
    },
    sharedState: () => shared?.link.state,
    drain: async (graceMs = 8_000) => {
      isDraining = true;
      running.stopListening();
      stopWatching();
      // Every WebSocket gets 1001 after what was already queued for it.
      await running.live?.closeAll();
      // Each keep-alive connection gets its next answer with Connection: close; once nothing is
      // in flight and no request has come for a moment, the idle connections left are closed,
      // so no response is ever cut off and the thread exits with no socket open.
      const deadline = Date.now() + graceMs;
      while (Date.now() < deadline && (running.inFlight() > 0 || running.idleMs() < DRAIN_QUIET_MS)) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      running.close();
    },
    close: () => {
      isDraining = true;
      stopWatching();
      running.close();
    },
  };
}

/** One `edition` message per edition of `next` that is new or whose snapshot changed. */
function editionMessages(previous: EditionSet, next: EditionSet, log: ChangeLog, swappedAt: number): string[] {
  return next.ordered
    .filter((edition) => previous.byKey.get(edition.key)?.checksum !== edition.checksum)
    .map((edition) => {
      const { meta } = edition.payload;
      return JSON.stringify({
        type: "edition", event: previous.byKey.has(edition.key) ? "changed" : "added", gameVersion: edition.key, status: meta.status,
        checksum: edition.checksum, playerCount: edition.rowCount, capturedAt: meta.capturedAt, newestSequence: log.newestSequence,
        swappedAt: new Date(swappedAt).toISOString(),
      });
    });
}

interface Shared {
  readonly link: RedisLink;
  readonly buckets: SharedKeyBuckets;
  readonly writer: KeyWriter;
  /** Usage counted in `rings` and written to Redis in batches. */
  usage(rings: UsageRings, idOf: (slot: number) => string | undefined): UsageSource;
  close(): void;
}

/**
 * REDIS_URL: connects, serves Redis's key store (kept current by its change feed), writes keys to
 * it, and draws on the key buckets every replica shares. Redis unreachable at boot is not fatal:
 * the replica starts from the keys file and joins when Redis answers.
 */
async function startShared(url: string, keys: KeyRegistry, buckets: TokenBuckets, now: () => number, logger: Logger | undefined): Promise<Shared> {
  const [{ RedisLink }, { RedisKeyFeed, redisKeyWriter }, { RedisKeyBuckets }, { RedisUsage }] = await Promise.all([
    import("../redis/link.js"), import("../redis/redis-keys.js"), import("../redis/shared-buckets.js"), import("../redis/shared-usage.js"),
  ]);
  const link = new RedisLink(url, logger);
  const feed = new RedisKeyFeed(link, keys, logger);
  if (await link.waitShared(REDIS_BOOT_WAIT_MS)) await feed.refresh();
  else logger?.warn({ redis: "local" }, `redis unreachable at start (${redactUrl(url)}): answering alone with the keys file until it answers`);
  const sharedBuckets = new RedisKeyBuckets(link, buckets, now);
  let usage: InstanceType<typeof RedisUsage> | undefined;
  return {
    link,
    buckets: sharedBuckets,
    writer: redisKeyWriter(link, feed),
    usage: (rings, idOf) => (usage = new RedisUsage(link, rings, idOf)),
    close: () => {
      // What is still queued goes out before the connection closes (best effort: a drain, not a crash).
      void usage?.flush().finally(() => link.close());
      usage?.close();
      sharedBuckets.close();
      feed.close();
      if (usage === undefined) link.close();
    },
  };
}

/** A Redis URL may hold a password: logs show it without. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//…@");
}
