// Composition root and the only file that touches process: the supervisor. Config → demo data
// and key on a fresh machine → refuse a held port → N worker threads (each a uWS app on the same
// port, sharing the token buckets) → metrics on their own port. Restarts a worker that dies;
// SIGTERM/SIGINT drain every worker and exit 0.

import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { Worker } from "node:worker_threads";
import { loadConfig, ConfigError, type Config } from "./config.js";
import { generateDemoEditions } from "./data/demo.js";
import { writeEdition } from "./data/build-edition.js";
import { ensureDemoKey } from "./keys/key-store.js";
import { TokenBuckets } from "./http/token-buckets.js";
import { createLogger, type Logger } from "./ops/log.js";
import { startMetricsServer } from "./ops/metrics.js";
import type { StatsSnapshot } from "./ops/request-stats.js";
import { ADDRESS_SLOTS, KEY_SLOTS } from "./service.js";
import { snapshotFiles } from "./store/editions.js";
import type { FromWorker, ToWorker, WorkerData } from "./worker.js";

const SHUTDOWN_BUDGET_MS = 9_000;

/** Binds the port with a plain socket first: uWS listens with SO_REUSEPORT and would share it silently. */
function claimPort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(new ConfigError(error.code === "EADDRINUSE" ? `port ${port} is already in use by another process; refusing to start` : `cannot bind ${host}:${port}: ${error.message}`));
    });
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address();
      const bound = typeof address === "object" && address ? address.port : port;
      probe.close(() => resolve(bound));
    });
  });
}

function ensureDemoData(config: Config, logger: Logger): void {
  if (existsSync(config.dataDir) && snapshotFiles(config.dataDir).length > 0) return;
  mkdirSync(config.dataDir, { recursive: true });
  const asOf = new Date().toISOString().slice(0, 10);
  logger.info(`no snapshots in ${config.dataDir}: building the demo editions`);
  for (const source of generateDemoEditions({ asOf })) writeEdition(config.dataDir, source, asOf);
}

class Supervisor {
  private readonly workers = new Map<number, Worker>();
  private readonly buckets = new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS);
  private isStopping = false;
  private restartCount = 0;
  private nextStatsId = 0;

  constructor(private readonly config: Config, private readonly logger: Logger) {}

  /** Resolves when the first generation of workers is listening. */
  start(): Promise<void> {
    return Promise.all(Array.from({ length: this.config.workers }, (_, index) => this.spawn(index, true))).then(() => undefined);
  }

  private spawn(index: number, isBoot: boolean): Promise<void> {
    const data: WorkerData = { config: this.config, buckets: this.buckets.buffer as SharedArrayBuffer, index };
    const worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: data });
    this.workers.set(index, worker);
    return new Promise((resolve, reject) => {
      let isReady = false;
      worker.on("message", (message: FromWorker) => {
        if (message.type === "ready") {
          isReady = true;
          this.logger.info({ worker: index, port: message.port, bootMs: message.bootMs, editions: message.editions, current: message.current }, `worker ${index} listening on port ${message.port}`);
          resolve();
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
        this.logger.error({ worker: index, code }, `worker ${index} died (exit ${code}); restarting it`);
        this.spawn(index, false).catch((error: unknown) => this.logger.error({ worker: index, err: error }, "restart failed"));
      });
    });
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
    const exits = [...this.workers.values()].map((worker) => new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.postMessage({ type: "drain" } satisfies ToWorker);
    }));
    const budget = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_BUDGET_MS).unref());
    await Promise.race([Promise.all(exits), budget]);
    await Promise.all([...this.workers.values()].map((worker) => worker.terminate()));
  }
}

async function main(): Promise<void> {
  const config0 = loadConfig(process.argv.slice(2), process.env);
  const logger = createLogger(config0.logLevel, { role: "supervisor" });
  ensureDemoData(config0, logger);
  const demo = ensureDemoKey(config0.keysFile, new Date());
  if (demo) process.stdout.write(`\nDemo API key (shown once; only its SHA-256 is stored in ${config0.keysFile}):\n\n    ${demo.key}\n\n`);
  const port = await claimPort(config0.host, config0.port);
  const config: Config = Object.freeze({ ...config0, port });
  const started = performance.now();
  const supervisor = new Supervisor(config, logger);
  await supervisor.start();
  const metrics = await startMetricsServer(config.host, config.metricsPort, supervisor);
  logger.info({ workers: config.workers, port, metricsPort: metrics.port, bootMs: Math.round(performance.now() - started) },
    `Courtside listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port} (metrics on :${metrics.port}/metrics)`);
  let isStopping = false;
  const stop = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info(`${signal}: draining`);
    void supervisor.stop().then(() => {
      metrics.server.close();
      logger.info("stopped");
      logger.flush();
      process.exit(0);
    });
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  process.stderr.write(`courtside: ${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
