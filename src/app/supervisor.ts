// The supervisor: N worker threads, each a uWS app on the same port, sharing token buckets, usage
// rings, the key-change counter and one copy of every edition (SharedArrayBuffers). It loads the
// data directory once, hands the snapshots' bytes to each worker, watches the directory and hands
// every worker the whole new set on a reload (an edition no longer in any set is garbage once every
// thread has let go of it). The server's one writer of the keys file: workers send key operations
// here, applied one at a time. Restarts a worker that dies after it was ready, collects stats for
// metrics, and drains every worker on stop.

import { Worker } from "node:worker_threads";
import { ConfigError, type Config } from "../config.js";
import { ADDRESS_SLOTS, KEY_SLOTS, PROBE_SLOTS, REGISTRATION_SLOTS, TokenBuckets } from "../limits/token-buckets.js";
import { LiveConnectionCounts } from "../limits/live-connections.js";
import { UsageRings } from "../limits/usage-rings.js";
import { KeyLog } from "../keys/key-log.js";
import { applyKeyOperation } from "../keys/key-writer.js";
import { EditionSet, loadSnapshotSet, sharedSnapshotsOf, type SnapshotSet } from "../store/editions.js";
import { ChangeLog, type SharedChangeLog } from "../store/change-log.js";
import { editionOf } from "../store/derived-tables.js";
import { watchSnapshotDir, type ReloadWatcher } from "../store/reload.js";
import type { Logger } from "../ops/log.js";
import type { StatsSnapshot } from "../ops/request-stats.js";
import type { FromWorker, ToWorker, WorkerData } from "./worker.js";
import { KeyChanges } from "../keys/key-registry.js";

const SHUTDOWN_BUDGET_MS = 9_000;

export class Supervisor {
  private readonly workers = new Map<number, Worker>();
  private readonly buckets = new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS);
  private readonly registrations = new TokenBuckets(0, REGISTRATION_SLOTS);
  private readonly probes = new TokenBuckets(0, PROBE_SLOTS);
  private readonly owners = new TokenBuckets(KEY_SLOTS, 1);
  private readonly usage = UsageRings.allocate(KEY_SLOTS);
  private readonly keyChanges = new KeyChanges();
  /** The one writer thread's view of the keys file, kept between writes so each reads only what others appended. */
  private keyLogOf: KeyLog | undefined;
  /** Open /api/live connections per key slot, a row per worker, summed for the per-key cap (see http/live.ts). */
  private readonly liveConnections: LiveConnectionCounts;
  private isStopping = false;
  private restartCount = 0;
  private nextStatsId = 0;
  /** The snapshots handed to the workers: checked and decoded here, never built into Editions (only workers serve). */
  private editions: SnapshotSet | undefined;
  /**
   * The change log of the current edition, derived here once per set and posted with the snapshots
   * (docs/design-decisions.md#the-change-log-is-derived-at-load): no worker builds it, no request waits for it.
   * Beside it the one Edition it was derived from (the current), for the next set's log.
   */
  private changeLog: { log: ChangeLog; editions: EditionSet; shared: SharedChangeLog } | undefined;
  private reload: ReloadWatcher | undefined;

  /**
   * `script` is the worker entry: a file (dist/src/worker-main.js under npm start; a stand-in in
   * tests) or, in the single binary, the source of its own bundle, evaluated in the thread. With
   * `shareEditions` the supervisor loads and watches the data directory and hands the editions
   * to the workers; without it each worker loads and watches its own copy.
   */
  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly script: URL | string,
    private readonly options: { shareEditions?: boolean; reloadIntervalMs?: number } = {},
  ) {
    this.liveConnections = new LiveConnectionCounts(config.workers);
  }

  /**
   * Resolves when the first generation of workers is listening. When the editions are shared,
   * the workers are spawned first and load their code while this thread loads the snapshots;
   * they get them as their first message.
   */
  start(): Promise<void> {
    const booting = Promise.all(Array.from({ length: this.config.workers }, (_, index) => this.spawn(index, true)));
    if (this.options.shareEditions === true) {
      try {
        this.shareEditions();
      } catch (error) {
        this.isStopping = true;
        for (const worker of this.workers.values()) void worker.terminate();
        return Promise.reject(error instanceof ConfigError ? error : new ConfigError((error as Error).message));
      }
      const snapshots = sharedSnapshotsOf(this.editions as SnapshotSet);
      const changes = this.changeLog?.shared;
      for (const worker of this.workers.values()) worker.postMessage({ type: "editions", snapshots, changes } satisfies ToWorker);
    }
    return booting.then(() => undefined);
  }

  private shareEditions(): void {
    this.editions = loadSnapshotSet(this.config.dataDir, this.config.maxSnapshotBytes);
    this.deriveChangeLog(this.editions);
    this.reload = watchSnapshotDir(
      this.config.dataDir,
      () => this.editions as SnapshotSet,
      (next) => {
        this.editions = next;
        const changes = this.deriveChangeLog(next);
        const snapshots = sharedSnapshotsOf(next);
        for (const worker of this.workers.values()) worker.postMessage({ type: "editions", snapshots, changes } satisfies ToWorker);
      },
      (event) => {
        if (event.kind === "loaded") this.logger.info(event, `loaded ${event.file}`);
        else this.logger.error(event, `refused ${event.file}: ${event.reason}`);
      },
      this.options.reloadIntervalMs,
      this.config.maxSnapshotBytes,
    );
  }

  /**
   * The change log of `set`'s current edition, as every worker will hold it: the log of the set as
   * loaded, or the last one's next (ChangeLog.next: what a swap publishes). Built over an Edition of
   * the current snapshot only (its indexes; the payload is the shared one), kept for the next set.
   */
  private deriveChangeLog(set: SnapshotSet): SharedChangeLog {
    const current = set.current;
    const previous = this.changeLog;
    const edition = previous?.editions.current.checksum === current.checksum ? previous.editions.current : editionOf(current.payload, current.checksum, current.bytes);
    const editions = new EditionSet([edition]);
    const log = previous === undefined ? ChangeLog.of(editions) : previous.log.next(previous.editions, editions);
    // The same log (the current edition did not change) publishes nothing again.
    const shared = log === previous?.log ? { ...log.toShared(), published: [] } : log.toShared();
    this.changeLog = { log, editions, shared };
    return shared;
  }

  private spawn(index: number, isBoot: boolean): Promise<void> {
    const data: WorkerData = {
      config: this.config, buckets: this.buckets.buffer, registrations: this.registrations.buffer, probes: this.probes.buffer, owners: this.owners.buffer, usage: this.usage, keyChanges: this.keyChanges.buffer, liveConnections: this.liveConnections.buffer, index,
      ...(this.editions ? { snapshots: sharedSnapshotsOf(this.editions), changes: this.changeLog?.shared } : this.options.shareEditions === true ? { awaitEditions: true } : {}),
    };
    const worker = new Worker(this.script, { workerData: data, eval: typeof this.script === "string" });
    this.workers.set(index, worker);
    return new Promise((resolve, reject) => {
      let isReady = false;
      worker.on("message", (message: FromWorker) => {
        if (message.type === "ready") {
          isReady = true;
          this.logger.info({ worker: index, port: message.port, bootMs: message.bootMs, editions: message.editions, current: message.current }, `worker ${index} listening on port ${message.port}`);
          resolve();
        } else if (message.type === "keys") {
          // Synchronous, so operations from every worker run one after another: none is lost or doubled.
          const outcome = applyKeyOperation(this.config.keysFile, message.operation, this.keyChanges, this.keyLog());
          if (outcome.kind === "refused" && outcome.failure === "store") this.logger.error({ worker: index, reason: outcome.message }, "key operation failed");
          worker.postMessage({ type: "keys", id: message.id, outcome } satisfies ToWorker);
        } else if (message.type === "fatal") {
          this.logger.error({ worker: index }, message.message);
          if (!isReady) reject(new ConfigError(message.message));
        }
      });
      worker.on("error", (error) => this.logger.error({ worker: index, err: error }, `worker ${index} failed`));
      worker.on("exit", (code) => {
        if (this.workers.get(index) === worker) this.workers.delete(index);
        if (this.isStopping) return;
        if (!isReady) {
          if (isBoot) reject(new ConfigError(`worker ${index} exited with code ${code} before it was ready`));
          return;
        }
        this.restartCount += 1;
        // Its sockets died with it: its connections no longer count against any key's cap.
        this.liveConnections.clearWorker(index);
        this.logger.error({ worker: index, code }, `worker ${index} died (exit ${code}); restarting it`);
        this.spawn(index, false).catch((error: unknown) => this.logger.error({ worker: index, err: error }, "restart failed"));
      });
    });
  }

  private keyLog(): KeyLog {
    this.keyLogOf ??= new KeyLog(this.config.keysFile);
    return this.keyLogOf;
  }

  /** Each edition served and where its data came from (its snapshot's `source`: "demo", an import, a sync). */
  editionSources(): { key: string; source: string }[] {
    return (this.editions?.ordered ?? []).map((edition) => ({ key: edition.key, source: edition.payload.meta.source }));
  }

  restarts(): number {
    return this.restartCount;
  }

  collect(): Promise<StatsSnapshot[]> {
    return Promise.all([...this.workers.values()].map((worker) => new Promise<StatsSnapshot>((resolve, reject) => {
      const id = ++this.nextStatsId;
      const timer = setTimeout(() => { worker.off("message", listener); reject(new Error("a worker did not answer the scrape")); }, 2_000);
      const listener = (message: FromWorker) => {
        if (message.type !== "stats" || message.id !== id) return;
        clearTimeout(timer);
        worker.off("message", listener);
        resolve(message.stats as StatsSnapshot);
      };
      worker.on("message", listener);
      worker.postMessage({ type: "stats", id } satisfies ToWorker);
    })));
  }

  /** Tells every worker to drain; resolves when they have all exited or the budget is spent. */
  async stop(): Promise<void> {
    this.isStopping = true;
    this.reload?.close();
    const exits = [...this.workers.values()].map((worker) => new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.postMessage({ type: "drain" } satisfies ToWorker);
    }));
    const budget = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_BUDGET_MS).unref());
    await Promise.race([Promise.all(exits), budget]);
    await Promise.all([...this.workers.values()].map((worker) => worker.terminate()));
  }
}
