// Composition root and the only file that touches process: the supervisor. Config → demo data
// and key on a fresh machine → refuse a held port → N worker threads (each a uWS app on the same
// port, sharing the token buckets) → metrics on their own port. Restarts a worker that dies;
// SIGTERM/SIGINT drain every worker and exit 0.

import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { loadConfig, ConfigError, type Config } from "./config.js";
import { writeEdition } from "./data/build-edition.js";
import { ensureDemoKey } from "./keys/key-store.js";
import { createLogger, type Logger } from "./ops/log.js";
import { startMetricsServer } from "./ops/metrics.js";
import { snapshotFiles } from "./store/editions.js";
import { Supervisor } from "./supervisor.js";

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

async function ensureDemoData(config: Config, logger: Logger): Promise<void> {
  if (existsSync(config.dataDir) && snapshotFiles(config.dataDir).length > 0) return;
  // Imported only when needed: the generator is the largest module and boot time counts.
  const { generateDemoEditions } = await import("./data/demo.js");
  mkdirSync(config.dataDir, { recursive: true });
  const asOf = new Date().toISOString().slice(0, 10);
  logger.info(`no snapshots in ${config.dataDir}: building the demo editions`);
  for (const source of generateDemoEditions({ asOf })) writeEdition(config.dataDir, source, asOf);
}

async function main(): Promise<void> {
  const config0 = loadConfig(process.argv.slice(2), process.env);
  const logger = createLogger(config0.logLevel, { role: "supervisor" });
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

  await ensureDemoData(config0, logger);
  const demo = ensureDemoKey(config0.keysFile, new Date());
  if (demo) process.stdout.write(`\nDemo API key (shown once; only its SHA-256 is stored in ${config0.keysFile}):\n\n    ${demo.key}\n\n`);
  const port = await claimPort(config0.host, config0.port);
  const config: Config = Object.freeze({ ...config0, port });
  const started = performance.now();
  supervisor = new Supervisor(config, logger, new URL("./worker.js", import.meta.url));
  await supervisor.start();
  if (isStopping) return;
  const metrics = await startMetricsServer(config.host, config.metricsPort, supervisor);
  metricsServer = metrics.server;
  logger.info({ workers: config.workers, port, metricsPort: metrics.port, bootMs: Math.round(performance.now() - started) },
    `Courtside listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port} (metrics on :${metrics.port}/metrics)`);
  logger.flush();
}

main().catch((error: unknown) => {
  process.stderr.write(`courtside: ${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
