// Composition root and the only file that touches process: config → demo data and key on a
// fresh machine → editions → server → listen; SIGTERM/SIGINT drain and exit 0.

import { existsSync, mkdirSync } from "node:fs";
import { loadConfig, ConfigError } from "./config.js";
import { generateDemoEditions } from "./data/demo.js";
import { writeEdition } from "./data/build-edition.js";
import { SnapshotError } from "./data/snapshot.js";
import { ensureDemoKey, KeyStoreError } from "./keys/key-store.js";
import { snapshotFiles } from "./store/editions.js";
import { startService } from "./service.js";

function log(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

async function main(): Promise<number> {
  const config = loadConfig(process.argv.slice(2), process.env);
  if (!existsSync(config.dataDir) || snapshotFiles(config.dataDir).length === 0) {
    mkdirSync(config.dataDir, { recursive: true });
    const asOf = new Date().toISOString().slice(0, 10);
    log({ level: "info", msg: `no snapshots in ${config.dataDir}: building the demo editions` });
    for (const source of generateDemoEditions({ asOf })) writeEdition(config.dataDir, source, asOf);
  }
  const demo = ensureDemoKey(config.keysFile, new Date());
  if (demo) {
    process.stdout.write(`\nDemo API key (shown once; only its SHA-256 is stored in ${config.keysFile}):\n\n    ${demo.key}\n\n`);
  }
  const started = performance.now();
  const service = await startService(config, { log });
  const editions = service.editions();
  log({
    level: "info",
    msg: `Courtside listening on http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${service.port}`,
    editions: editions.keys(),
    current: editions.current.key,
    bootMs: Math.round(performance.now() - started),
  });
  const stop = (signal: string) => {
    log({ level: "info", msg: `${signal}: draining` });
    service.drain();
    // Handlers are synchronous, so once the listen socket is closed only bodies still streaming
    // can be in flight; give them a moment, well inside the 10 s budget.
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return 0;
}

main().catch((error: unknown) => {
  const isKnown = error instanceof ConfigError || error instanceof SnapshotError || error instanceof KeyStoreError || error instanceof TypeError;
  process.stderr.write(`courtside: ${isKnown ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exitCode = 1;
});
