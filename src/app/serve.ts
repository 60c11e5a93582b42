// The `serve` command: config → demo data and key on a fresh machine → the uWS addon → refuse a
// held API or metrics port → N worker threads (each a uWS app on the same port, sharing the token
// buckets). Restarts a worker that dies; SIGTERM/SIGINT drain every worker and exit 0. Every
// start-up failure is a StartupError: one line saying what and why, then exit 1 (cli.ts).

import { accessSync, constants, existsSync, mkdirSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { loadConfig, ConfigError, METRICS_PORT_OFFSET, type Config } from "../config.js";
import { uwsInfo } from "../http/uws.js";
import { adapterLabel, canShareNodePort, chooseAdapter, type AdapterChoice } from "../http/adapter.js";
import { createLogger, type Logger } from "../ops/log.js";
import { snapshotFiles } from "../store/editions.js";
import { Supervisor } from "./supervisor.js";
import { KeyStoreError } from "../keys/key-records.js";
import { ensureDemoKey } from "../keys/key-operations.js";

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
    const [{ generateDemoEditions }, { writeEdition }] = await Promise.all([import("../pipeline/demo.js"), import("../pipeline/build-edition.js")]);
    mkdirSync(directory, { recursive: true });
    const asOf = new Date().toISOString().slice(0, 10);
    const started = performance.now();
    logger.info(`no snapshots in ${directory}: generating the eight demo editions (once, on an empty data directory)`);
    logger.flush();
    const sources = generateDemoEditions({ asOf });
    // One line an edition: the longest step of a first start shows its progress.
    for (const [index, source] of sources.entries()) {
      writeEdition(directory, source, asOf);
      logger.info(`demo edition ${source.gameVersion} written (${index + 1} of ${sources.length}, ${source.players.length} players, ${Math.round(performance.now() - started)} ms)`);
      // The log is buffered and written by the event loop: let it write each line as it comes.
      logger.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
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
      : await (await import("../redis/redis-keys.js")).prepareRedisKeys(config.redisUrl, file, new Date(), logger);
    const where = config.redisUrl === undefined ? file : "Redis";
    process.stdout.write(demo ? `\nDemo API key (shown once; only its SHA-256 is stored in ${where}):\n\n    ${demo.key}\n\n` : keysHint(config, where));
  } catch (error) {
    if (error instanceof KeyStoreError) throw new StartupError(`KEYS_FILE ${error.message}`);
    throw fsFailure("KEYS_FILE directory of", file, error);
  }
}

/**
 * What a start that made no key prints instead (the keys existed): where they are, and the three
 * ways to get a new one. A key is never shown again: only its SHA-256 is stored.
 */
export function keysHint(config: Pick<Config, "port" | "registration">, where: string): string {
  const page = `http://localhost:${config.port === 0 ? "<port>" : config.port}/dashboard`;
  const ways = config.registration === "open"
    ? `npm run keys -- create --email you@example.com (courtside keys create from the single binary), the dashboard at ${page}, or POST /api/register`
    : "npm run keys -- create --email you@example.com (courtside keys create from the single binary; REGISTRATION=closed: no dashboard sign-up or POST /api/register)";
  return `\nAPI keys: ${where} (only their SHA-256 digests, so an existing key cannot be shown again).\nA new key: ${ways}. docs/operations.md#keys\n\n`;
}

/**
 * The start log's line on where the data comes from: demo editions are generated ratings under
 * real players' names, not the game's, so the log says so and how to load real ones.
 */
export function dataSourceNote(sources: readonly { key: string; source: string }[]): string | undefined {
  const demo = sources.filter((edition) => edition.source === "demo").map((edition) => edition.key);
  if (demo.length === 0) return undefined;
  return `${demo.length === sources.length ? "all editions" : demo.join(", ")}: DEMO data, generated ratings under real players' names (not the game's). `
    + "Load real ratings with npm run sync -- --from <a service that speaks this API> (its key in COURTSIDE_SYNC_KEY), "
    + "or npm run build-index -- --edition 2K26 --status current --input <JSON or CSV export> (docs/data.md#real-ratings-build-index-or-sync)";
}

/** Node 20 still runs (uWS 20.30, for machines with glibc older than 2.38), but is past end of life. */
export function nodeTwentyWarning(): string {
  return `Node ${process.version} is past end of life (2026-04-30) and gets no security fixes; it is supported only where glibc is older than 2.38 (uWebSockets.js 20.57 needs 2.38). Where you can, run Node 24 or 22 LTS, or the single binary (README, Requirements)`;
}

/** Why the node adapter serves and what that costs; HTTP_ADAPTER=node says it is meant. */
export function nodeAdapterWarning(reason: string): string {
  // The loader's first sentence (Node, ABI, glibc, each build's failure); its advice to change Node is moot here.
  const why = reason.split(". ")[0]?.replace(/\.$/, "") ?? reason;
  return `serving through Node's own HTTP server (node:http), not uWebSockets.js: ${why}. `
    + `Everything answers the same, at ${NODE_ADAPTER_THROUGHPUT} (bench/README.md). Set HTTP_ADAPTER=node to say this is meant`;
}

/** What the node adapter gives up, from bench/README.md's side-by-side run (bench:load). */
export const NODE_ADAPTER_THROUGHPUT = "70-90 % of uWebSockets.js's throughput and 2-3x its CPU per request";

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
  let adapter: AdapterChoice;
  try {
    // Here, not in the first worker: a forced uws the addon cannot load for is refused before any port is touched.
    adapter = chooseAdapter({ forced: config.httpAdapter, maxHeadersKb: config.maxHeadersKb });
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
  if (adapter.name === "node" && config.workers > 1 && !canShareNodePort()) {
    logger.warn(`WORKERS=${config.workers}: Node ${process.version} cannot listen on one port from several threads (reusePort needs Node 22.12 or later); the node adapter serves from one worker`);
    config = Object.freeze({ ...config, workers: 1 });
  }
  const port = await claimPort("PORT", config.host, config.port);
  // Claimed before the workers start, so a held metrics port stops a process that has nothing
  // running yet; the metrics server is loaded and bound while the workers boot.
  const metricsVariable = config.metricsPortFollowsPort ? `METRICS_PORT (unset: PORT + ${METRICS_PORT_OFFSET})` : "METRICS_PORT";
  const metricsPort = await claimPort(metricsVariable, config.metricsHost, config.metricsPort);
  supervisor = new Supervisor(Object.freeze({ ...config, port }), logger, runtime.workerEntry(), { shareEditions: true });
  const started = performance.now();
  const booting = supervisor.start();
  // Awaited below; a failure meanwhile must not count as unhandled.
  booting.catch(() => undefined);
  let metricsBound = 0;
  try {
    const { startMetricsServer } = await import("../ops/metrics.js");
    const metrics = await startMetricsServer(config.metricsHost, metricsPort, supervisor, { adapter: adapter.name, node: process.versions.node, uws: adapter.name === "uws" ? uwsInfo()?.version ?? "" : "" })
      .catch((error: NodeJS.ErrnoException) => { throw portError(metricsVariable, config.metricsHost, metricsPort, error); });
    metricsServer = metrics.server;
    metricsBound = metrics.port;
    await booting;
  } catch (error) {
    await supervisor.stop();
    metricsServer?.close();
    throw error instanceof ConfigError ? new StartupError(error.message) : error;
  }
  if (isStopping) return;
  const uwsVersion = adapter.name === "uws" ? uwsInfo()?.version : undefined;
  logger.info({ workers: config.workers, port, metricsPort: metricsBound, bootMs: Math.round(performance.now() - started), node: process.versions.node, adapter: adapter.name, uws: uwsVersion },
    `Courtside listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port} (metrics on ${config.metricsHost}:${metricsBound}/metrics; Node ${process.version}, ${adapterLabel(adapter)})`);
  if (adapter.fallbackReason !== undefined) logger.warn(nodeAdapterWarning(adapter.fallbackReason));
  const dataNote = dataSourceNote(supervisor.editionSources());
  // Written at once, as the key banner is: a person reads it (the log's last line could sit in the
  // logger's buffer, as seen on Node 26, until another line follows).
  if (dataNote !== undefined) process.stdout.write(`\n${dataNote}\n\n`);
  if (process.versions.node.startsWith("20.")) logger.warn(nodeTwentyWarning());
  logger.flush();
}
