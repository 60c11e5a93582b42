// One replica thread's connection to Redis (REDIS_URL) and whether the state replicas share is
// reachable right now. Never queues a command while disconnected: callers fall back at once to what
// this replica holds (its last copy of the keys, its local buckets). Logs once per state change.

import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "../ops/log.js";

/** `shared`: Redis answers, replicas agree. `local`: Redis unreachable, this replica answers alone. */
export type SharedState = "shared" | "local";

/** Every Redis name Courtside uses starts with this, so one Redis can hold other data beside it. */
export const REDIS_PREFIX = "courtside:";

// A command that takes longer than this counts as Redis being unreachable (a hung server must not
// hang requests); the connection is retried every RECONNECT_MS, so Redis back is noticed within a second.
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 1_000;
const RECONNECT_MS = 250;

export function redisOptions(): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: () => RECONNECT_MS,
    // The default reconnects on READONLY errors etc. only; nothing else to add.
    lazyConnect: false,
  };
}

export class RedisLink {
  readonly client: Redis;
  #state: SharedState = "local";
  #hasBeenShared = false;
  readonly #listeners: ((state: SharedState) => void)[] = [];
  readonly #logger: Logger | undefined;

  constructor(readonly url: string, logger?: Logger) {
    this.#logger = logger;
    this.client = new Redis(url, redisOptions());
    this.client.on("ready", () => this.#set("shared"));
    this.client.on("close", () => this.#set("local"));
    // Without a listener ioredis reports each failed reconnect on stderr; the state change says it once.
    this.client.on("error", () => {});
  }

  get state(): SharedState {
    return this.#state;
  }

  get isShared(): boolean {
    return this.#state === "shared";
  }

  /** Called on every change of state (after the change is logged). */
  onChange(listener: (state: SharedState) => void): void {
    this.#listeners.push(listener);
  }

  /** Resolves true once Redis answers, or false after `timeoutMs` (the replica then starts alone). */
  waitShared(timeoutMs: number): Promise<boolean> {
    if (this.isShared) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.onChange((state) => {
        if (state !== "shared") return;
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** A failed command: the connection may still look open (a hung server), so the state follows the failure. */
  reportFailure(error: unknown): void {
    if (this.#state === "local") return;
    this.#logger?.debug({ err: error }, "redis command failed");
    this.#set("local");
    // Force a reconnect: 'ready' on the new connection is what marks Redis shared again.
    this.client.disconnect(true);
  }

  close(): void {
    this.client.disconnect(false);
  }

  #set(state: SharedState): void {
    if (state === this.#state) return;
    this.#state = state;
    if (state === "shared") {
      this.#logger?.info({ redis: "shared" }, this.#hasBeenShared ? "redis is back: keys, limits and usage are shared again" : "redis connected: keys, limits and usage are shared");
      this.#hasBeenShared = true;
    } else {
      this.#logger?.warn({ redis: "local" }, "redis unreachable: answering alone (keys from the last copy, limits local to this replica)");
    }
    for (const listener of this.#listeners) listener(state);
  }
}
