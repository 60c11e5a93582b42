// Assembles one running service from a Config: editions, keys, buckets, dispatcher, uWS server.
// Used by main.ts and by the HTTP tests (port 0, injected clock). Touches no process state.

import { KeyRegistry } from "./keys/key-store.js";
import { loadEditionSet, type EditionSet } from "./store/editions.js";
import { createDispatcher } from "./http/app.js";
import type { Dispatcher } from "./http/dispatch.js";
import { startServer, type HttpServer } from "./http/server.js";
import { TokenBuckets } from "./http/token-buckets.js";
import type { Config } from "./config.js";

/** Key slots are the key file's record indices; 4096 records is far beyond any self-hosted install. */
export const KEY_SLOTS = 4096;
export const ADDRESS_SLOTS = 65_536;

export interface Service {
  readonly port: number;
  readonly dispatcher: Dispatcher;
  readonly keys: KeyRegistry;
  editions(): EditionSet;
  /** Stop accepting, turn /ready to 503, stop watching files. */
  drain(): void;
  close(): void;
}

export interface ServiceOptions {
  now?: () => number;
  buckets?: TokenBuckets;
  onError?: (error: unknown, requestId: string) => void;
  log?: (line: Record<string, unknown>) => void;
}

export async function startService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const log = options.log ?? (() => {});
  let editions = loadEditionSet(config.dataDir);
  const keys = new KeyRegistry(config.keysFile, { onError: (error) => log({ level: "warn", msg: "keys file refused; keeping the keys loaded before", reason: error.message }) });
  keys.watch();
  const buckets = options.buckets ?? new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS);
  let isDraining = false;
  const dispatcher = createDispatcher({
    editions: () => editions,
    keys,
    buckets,
    now: options.now ?? Date.now,
    responseCacheBytes: config.responseCacheBytes,
    corsOrigins: config.corsOrigins,
    isDraining: () => isDraining,
    maxBodyBytes: config.maxBodyBytes,
    onError: options.onError ?? ((error, requestId) => log({ level: "error", msg: "unexpected error", requestId, error: String((error as Error)?.stack ?? error) })),
  });
  let server: HttpServer;
  try {
    server = await startServer({ host: config.host, port: config.port, dispatcher, maxBodyBytes: config.maxBodyBytes, bodyTimeoutMs: config.bodyTimeoutMs });
  } catch (error) {
    keys.close();
    throw error;
  }
  return {
    port: server.port,
    dispatcher,
    keys,
    editions: () => editions,
    drain: () => {
      isDraining = true;
      server.close();
      keys.close();
    },
    close: () => {
      isDraining = true;
      server.close();
      keys.close();
    },
  };
}

