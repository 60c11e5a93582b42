// The `serve` command: config → demo data and key on a fresh machine → the uWS addon → refuse a
// held API or metrics port → N worker threads (each a uWS app on the same port, sharing the token
// buckets). Restarts a worker that dies; SIGTERM/SIGINT drain every worker and exit 0. Every
// start-up failure is a StartupError: one line saying what and why, then exit 1 (cli.ts).

import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { loadConfig, ConfigError, type Config } from "./config.js";
import { loadUws, uwsInfo } from "./http/uws.js";
import { ensureDemoKey, KeyStoreError } from "./keys/key-store.js";
import { createLogger, type Logger } from "./ops/log.js";
import { snapshotFiles } from "./store/editions.js";
import { Supervisor } from "./supervisor.js";

/** A refusal to start, already worded for the operator (one line, no stack). */
export class StartupError extends Error {}

export interface ServeRuntime {
  /** What each worker thread runs: worker-main.js, or the binary's own bundle source. */
  workerEntry(): URL | string;
}

/** Binds the port with a plain socket first: uWS listens with SO_REUSEPORT and would share it silently. */
function claimPort(variable: string, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => reject(portError(variable, host, port, error)));
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address();
      const bound = typeof address === "object" && address ? address.port : port;
      probe.close(() => resolve(bound));
    });
  });
}

function portError(variable: string, host: string, port: number, error: NodeJS.ErrnoException): StartupError {
  if (error.code === "EADDRINUSE") return new StartupError(`${variable}: port ${port} is already in use by another process; refusing to start`);
  if (error.code === "EACCES") return new StartupError(`${variable}: no permission to listen on port ${port} (ports below 1024 need privileges)`);
  return new StartupError(`${variable}: cannot listen on ${host}:${port} (${error.code ?? error.message})`);
}

/** fs errors of the start-up steps → one line naming the directory and the reason. */
function fsFailure(what: string, path: string, error: unknown): StartupError {
  const errno = error as NodeJS.ErrnoException;
  const reasons: Record<string, string> = {
    EACCES: "permission denied", EPERM: "operation not permitted", ENOTDIR: "not a directory", EROFS: "read-only file system", ENOENT: "does not exist",
  };
  return new StartupError(`${what} ${path}: ${reasons[errno.code ?? ""] ?? errno.message} (${errno.code ?? "error"})`);
}

/** The data directory must be a readable directory (the reload watcher lists it); built from the demo when empty. */
async function ensureDemoData(config: Config, logger: Logger): Promise<void> {
  const directory = config.dataDir;
  try {
    if (existsSync(directory)) {
      if (!statSync(directory).isDirectory()) throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
      accessSync(directory, constants.R_OK | constants.X_OK);
      if (snapshotFiles(directory).length > 0) return;
    }
    // Imported only when needed: the generator and the snapshot builder are the largest modules and boot time counts.
    const [{ generateDemoEditions }, { writeEdition }] = await Promise.all([import("./data/demo.js"), import("./data/build-edition.js")]);
    mkdirSync(directory, { recursive: true });
    const asOf = new Date().toISOString().slice(0, 10);
    logger.info(`no snapshots in ${directory}: building the demo editions`);
    for (const source of generateDemoEditions({ asOf })) writeEdition(directory, source, asOf);
  } catch (error) {
    throw fsFailure("DATA_DIR", directory, error);
  }
}

/** The keys file is re-read when it changes: its directory must be readable, and writable for the demo key. */
async function ensureKeys(config: Config, logger: Logger): Promise<void> {
  const file = config.keysFile;
  try {
    accessSync(dirname(file), constants.R_OK | constants.X_OK);
    // With REDIS_URL the key store is Redis's (seeded from the keys file when Redis has none).
    const demo = config.redisUrl === undefined
      ? ensureDemoKey(file, new Date())
      : await (await import("./redis/redis-keys.js")).prepareRedisKeys(config.redisUrl, file, new Date(), logger);
    if (demo) process.stdout.write(`\nDemo API key (shown once; only its SHA-256 is stored in ${config.redisUrl === undefined ? file : "Redis"}):\n\n    ${demo.key}\n\n`);
  } catch (error) {
    if (error instanceof KeyStoreError) throw new StartupError(`KEYS_FILE ${error.message}`);
    throw fsFailure("KEYS_FILE directory of", file, error);
  }
}

/** Node 20 still runs (uWS 20.30, for machines with glibc older than 2.38), but is past end of life. */
export function nodeTwentyWarning(): string {
  return `Node ${process.version} is past end of life (2026-04-30) and gets no security fixes; it is supported only where glibc is older than 2.38 (uWebSockets.js 20.57 needs 2.38). Where you can, run Node 24 or 22 LTS, or the single binary (README, Requirements)`;
}

export async function runServe(argv: readonly string[], env: NodeJS.ProcessEnv, runtime: ServeRuntime): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new StartupError(error.message);
    throw error;
  }
  const logger = createLogger(config.logLevel, { role: "supervisor" });
  // Installed before anything boots, so a signal during boot also ends the process cleanly.
  let supervisor: Supervisor | undefined;
  let metricsServer: { close: () => void } | undefined;
  let isStopping = false;
  const stop = (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info(`${signal}: draining`);
    void (supervisor?.stop() ?? Promise.resolve()).then(() => {
      metricsServer?.close();
      logger.info("stopped");
      logger.flush();
      process.exit(0);
    });
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));

  await ensureDemoData(config, logger);
  await ensureKeys(config, logger);
  try {
    // Here, not in the first worker: a machine the addon cannot load on is told before any port is touched.
    loadUws({ maxHeadersKb: config.maxHeadersKb });
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
  const port = await claimPort("PORT", config.host, config.port);
  // Claimed before the workers start, so a held metrics port stops a process that has nothing
  // running yet; the metrics server is loaded and bound while the workers boot.
  const metricsPort = await claimPort("METRICS_PORT", config.metricsHost, config.metricsPort);
  supervisor = new Supervisor(Object.freeze({ ...config, port }), logger, runtime.workerEntry(), { shareEditions: true });
  const started = performance.now();
  const booting = supervisor.start();
  // Awaited below; a failure meanwhile must not count as unhandled.
  booting.catch(() => undefined);
  let metricsBound = 0;
  try {
    const { startMetricsServer } = await import("./ops/metrics.js");
    const metrics = await startMetricsServer(config.metricsHost, metricsPort, supervisor)
      .catch((error: NodeJS.ErrnoException) => { throw portError("METRICS_PORT", config.metricsHost, metricsPort, error); });
    metricsServer = metrics.server;
    metricsBound = metrics.port;
    await booting;
  } catch (error) {
    await supervisor.stop();
    metricsServer?.close();
    throw error instanceof ConfigError ? new StartupError(error.message) : error;
  }
  if (isStopping) return;
  const uwsVersion = uwsInfo()?.version;
  logger.info({ workers: config.workers, port, metricsPort: metricsBound, bootMs: Math.round(performance.now() - started), node: process.versions.node, uws: uwsVersion },
    `Courtside listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port} (metrics on ${config.metricsHost}:${metricsBound}/metrics; Node ${process.version}, uWebSockets.js ${uwsVersion})`);
  if (process.versions.node.startsWith("20.")) logger.warn(nodeTwentyWarning());
  logger.flush();
}
