// The key store in Redis (REDIS_URL): the same JSON document as the keys file (SHA-256 digests only,
// never a key), a version number, and a change feed (pub/sub) that every replica listens to so a
// revoked or regenerated key is refused everywhere within a second. Writes are compare-and-set on
// the version, so concurrent writers (the keys command, replicas) never lose each other's change.

import type { Redis } from "ioredis";
import type { KeyOperation, KeyOutcome, KeyWriter } from "../keys/key-writer.js";
import type { Logger } from "../ops/log.js";
import { RedisLink, REDIS_PREFIX } from "./link.js";
import { DEMO_EMAIL, KeyStoreError, validateKeyStore, type IssuedKey, type KeyStoreFile } from "../keys/key-records.js";
import { readKeyStore } from "../keys/key-file.js";
import { ensureDemoKey, withNewKey, withRegeneratedKey, withRevokedKey, type KeyChange } from "../keys/key-operations.js";
import type { KeyRegistry } from "../keys/key-registry.js";

export const KEYS_DOCUMENT = `${REDIS_PREFIX}keys`;
export const KEYS_VERSION = `${REDIS_PREFIX}keys:version`;
export const KEYS_CHANNEL = `${REDIS_PREFIX}keys:changed`;
/** How Redis is named in the key operations' error messages. */
export const REDIS_WHERE = "the Redis key store";

// Writes `ARGV[2]` when the version is still `ARGV[1]` ("" = no store yet), bumps it, announces it.
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[2]) or ''
if current ~= ARGV[1] then return false end
redis.call('SET', KEYS[1], ARGV[2])
local version = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', KEYS[3], version)
return version`;

const MAX_ATTEMPTS = 20;

export interface VersionedStore {
  readonly store: KeyStoreFile;
  /** "" when Redis holds no key store yet. */
  readonly version: string;
}

type KeysClient = Redis & { keysCompareAndSet(document: string, version: string, channel: string, expected: string, text: string): Promise<number | null> };

function withScript(client: Redis): KeysClient {
  if (!("keysCompareAndSet" in client)) client.defineCommand("keysCompareAndSet", { numberOfKeys: 3, lua: COMPARE_AND_SET });
  return client as KeysClient;
}

/** The store Redis holds, or an empty one at version "" when it holds none. */
export async function readRedisKeys(client: Redis): Promise<VersionedStore> {
  const [text, version] = await client.mget(KEYS_DOCUMENT, KEYS_VERSION);
  if (text === null || text === undefined) return { store: { version: 1, keys: [] }, version: "" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new KeyStoreError(`${REDIS_WHERE} (${KEYS_DOCUMENT}) is not valid JSON (${(error as Error).message})`);
  }
  return { store: validateKeyStore(`${REDIS_WHERE} (${KEYS_DOCUMENT})`, parsed), version: version ?? "" };
}

/** Applies one key operation to the store in Redis, retrying when another writer got there first. */
export async function updateRedisKeys<T>(client: Redis, change: (store: KeyStoreFile) => KeyChange<T>): Promise<T> {
  const scripted = withScript(client);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { store, version } = await readRedisKeys(client);
    const next = change(store);
    const written = await scripted.keysCompareAndSet(KEYS_DOCUMENT, KEYS_VERSION, KEYS_CHANNEL, version, JSON.stringify(next.store));
    if (written !== null) return next.result;
  }
  throw new KeyStoreError(`${REDIS_WHERE} kept changing under ${MAX_ATTEMPTS} attempts to write it; try again`);
}

/** Puts `store` into Redis when Redis holds no key store (first boot, or a Redis restarted empty). True if written. */
export async function seedRedisKeys(client: Redis, store: KeyStoreFile): Promise<boolean> {
  const written = await withScript(client).keysCompareAndSet(KEYS_DOCUMENT, KEYS_VERSION, KEYS_CHANNEL, "", JSON.stringify(store));
  return written !== null;
}

/**
 * Keeps a replica's KeyRegistry a copy of Redis's store: reloads on every change announced on the
 * feed and whenever the link comes back (announcements made while it was down are lost). When Redis
 * comes back empty (restarted without persistence) it is seeded from this copy, so no key is lost.
 */
export class RedisKeyFeed {
  readonly #subscriber: Redis;
  #version = "";
  #loading: Promise<void> | undefined;
  #isAgain = false;

  constructor(private readonly link: RedisLink, private readonly registry: KeyRegistry, private readonly logger?: Logger) {
    // Queued until connected (unlike commands): ioredis then subscribes, and again after each reconnect.
    this.#subscriber = link.client.duplicate({ enableOfflineQueue: true });
    this.#subscriber.on("error", () => {});
    this.#subscriber.on("message", () => void this.refresh());
    // ioredis subscribes again by itself after a reconnect; 'ready' then means the feed is live again.
    this.#subscriber.on("ready", () => void this.refresh());
    void this.#subscriber.subscribe(KEYS_CHANNEL).catch(() => {});
    link.onChange((state) => {
      if (state === "shared") void this.refresh();
    });
  }

  /** The version of the copy being served ("" before the first load from Redis). */
  get version(): string {
    return this.#version;
  }

  /**
   * Loads Redis's store into the registry if it changed. One load at a time; a call during a load
   * makes it load once more and resolves after that, so a change announced mid-load is never missed.
   */
  refresh(): Promise<void> {
    this.#isAgain = true;
    this.#loading ??= (async () => {
      try {
        while (this.#isAgain) {
          this.#isAgain = false;
          await this.#load();
        }
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }

  async #load(): Promise<void> {
    try {
      let { store, version } = await readRedisKeys(this.link.client);
      if (version === "") {
        await seedRedisKeys(this.link.client, this.registry.store);
        ({ store, version } = await readRedisKeys(this.link.client));
        this.logger?.info({ keys: store.keys.length }, "redis held no key store: seeded it from this replica's copy");
      }
      if (version === this.#version) return;
      this.registry.replace(store);
      this.#version = version;
    } catch (error) {
      if (error instanceof KeyStoreError) this.logger?.error({ reason: error.message }, "key store in redis refused; keeping the keys loaded before");
      else this.link.reportFailure(error);
    }
  }

  close(): void {
    this.#subscriber.disconnect(false);
  }
}

/**
 * Boot with REDIS_URL (`npm start`): a Redis without a key store gets the keys file's; then, as the
 * keys file does without Redis, a store with no active key gets a demo key, returned to be printed
 * once. Redis unreachable: the keys file, as without Redis.
 */
export async function prepareRedisKeys(url: string, keysFile: string, now: Date, logger?: Logger): Promise<IssuedKey | undefined> {
  const link = new RedisLink(url);
  try {
    if (!(await link.waitShared(3_000))) {
      logger?.warn("redis unreachable at start: using the keys file");
      return ensureDemoKey(keysFile, now);
    }
    if (await seedRedisKeys(link.client, readKeyStore(keysFile))) logger?.info(`redis held no key store: seeded it from ${keysFile}`);
    const { store } = await readRedisKeys(link.client);
    const hasActive = (keys: KeyStoreFile) => keys.keys.some((record) => record.revokedAt === undefined);
    if (hasActive(store)) return undefined;
    // Checked again inside the write: another replica booting at the same moment may have made one.
    return await updateRedisKeys(link.client, (current): KeyChange<IssuedKey | undefined> =>
      hasActive(current) ? { store: current, result: undefined } : withNewKey(current, { email: DEMO_EMAIL, name: "demo", now }));
  } finally {
    link.close();
  }
}

/** One key operation of the HTTP routes as a change of the store (the same rules as the keys file). */
function changeFor(operation: KeyOperation): (store: KeyStoreFile) => KeyChange<KeyOutcome> {
  const now = new Date(operation.now);
  switch (operation.kind) {
    case "register":
      return (store) => {
        const { store: next, result } = withNewKey(store, { email: operation.email, name: operation.name, purpose: operation.purpose, now });
        return { store: next, result: { kind: "issued", key: result.key, record: result.record } };
      };
    case "regenerate":
      return (store) => {
        const { store: next, result } = withRegeneratedKey(store, REDIS_WHERE, { key: operation.key, now });
        return { store: next, result: { kind: "issued", key: result.key, record: result.record } };
      };
    case "revoke":
      return (store) => {
        const { store: next, result } = withRevokedKey(store, REDIS_WHERE, { key: operation.key, now });
        return { store: next, result: { kind: "revoked", record: result } };
      };
  }
}

/**
 * The key routes' writer with REDIS_URL: any worker of any replica writes (compare-and-set keeps
 * concurrent writers from losing each other's change), then waits until its own copy has the
 * change, so its very next request sees it; the feed brings it to every other worker and replica
 * within milliseconds. While Redis is unreachable writes are refused (503): a key written only
 * here would be unknown to the other replicas.
 */
export function redisKeyWriter(link: RedisLink, feed: RedisKeyFeed): KeyWriter {
  const unavailable: KeyOutcome = { kind: "refused", failure: "unavailable", message: "the shared key store (Redis) is unreachable" };
  return {
    apply: async (operation) => {
      if (!link.isShared) return unavailable;
      let outcome: KeyOutcome;
      try {
        outcome = await updateRedisKeys(link.client, changeFor(operation));
      } catch (error) {
        if (error instanceof KeyStoreError) return { kind: "refused", failure: error.failure, message: error.message };
        link.reportFailure(error);
        return unavailable;
      }
      await feed.refresh();
      return outcome;
    },
  };
}
