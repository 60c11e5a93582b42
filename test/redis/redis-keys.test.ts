// The key store in a real redis-server: the keys command writes there, replicas follow the feed.
import t from "tap";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runKeysCommand } from "../../src/app/keys-command.js";
import { RedisLink } from "../../src/redis/link.js";
import { readRedisKeys, RedisKeyFeed, updateRedisKeys } from "../../src/redis/redis-keys.js";
import { redisMissing, startRedis, type RedisServer } from "../fixtures/redis-server.js";
import { createKey, withNewKey } from "../../src/keys/key-operations.js";
import { KeyRegistry } from "../../src/keys/key-registry.js";

const NOW = new Date("2026-11-23T12:00:00.000Z");
const missing = redisMissing();

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!condition() && performance.now() - started < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 2));
  return performance.now() - started;
}

if (missing !== undefined) {
  t.test("the key store in Redis", { skip: missing }, () => {});
} else {
  let redis: RedisServer;
  t.before(async () => { redis = await startRedis(); });
  t.teardown(() => redis.stop());

  const keys = async (keysFile: string, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeysCommand(argv, { keysFile, redisUrl: redis.url, now: () => NOW, out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out, err };
  };

  t.test("with a Redis URL the keys command works on Redis and leaves the keys file alone", async (t) => {
    const file = join(t.testdir(), "keys.json");
    const created = await keys(file, "create", "--email", "cli@example.com", "--rate-limit", "40", "--json");
    t.equal(created.code, 0, created.err.join("\n"));
    const issued = JSON.parse(created.out[0] ?? "");
    t.match(issued.key, /^2k_[a-z0-9]{32}$/);
    t.notOk(existsSync(file), "no keys file written");
    const listed = await keys(file, "list", "--json");
    t.match(JSON.parse(listed.out[0] ?? ""), [{ id: issued.id, email: "cli@example.com", rateLimit: 40, status: "active" }]);
    t.notMatch(listed.out.join(""), /digest/, "digests are never printed");
    const link = new RedisLink(redis.url);
    t.teardown(() => link.close());
    await link.waitShared(5_000);
    const { store } = await readRedisKeys(link.client);
    t.notMatch(JSON.stringify(store), issued.key, "Redis holds the digest, never the key");
  });

  t.test("a key revoked with the keys command is refused by a replica's registry once the change feed reaches it", async (t) => {
    const dir = t.testdir();
    const file = join(dir, "keys.json");
    const issued = JSON.parse((await keys(file, "create", "--email", "feed@example.com", "--json")).out[0] ?? "");
    const registry = new KeyRegistry(join(dir, "empty.json"));
    const link = new RedisLink(redis.url);
    const feed = new RedisKeyFeed(link, registry);
    t.teardown(() => { feed.close(); link.close(); });
    await link.waitShared(5_000);
    await feed.refresh();
    t.ok(registry.verify(issued.key), "the replica serves the key from Redis");
    const revoked = await keys(file, "revoke", "--key", issued.key);
    t.equal(revoked.code, 0, revoked.err.join("\n"));
    // Milliseconds (printed below); the deadline only ends a wait for a change that never arrives:
    // nothing refreshes the registry but the feed.
    const delay = await waitFor(() => registry.verify(issued.key) === undefined, 30_000);
    t.equal(registry.verify(issued.key), undefined, "refused after the revocation");
    t.comment(`revocation reached the replica in ${delay.toFixed(1)} ms`);
  });

  t.test("concurrent writers never lose each other's keys", async (t) => {
    const links = [new RedisLink(redis.url), new RedisLink(redis.url)];
    t.teardown(() => { for (const link of links) link.close(); });
    await Promise.all(links.map((link) => link.waitShared(5_000)));
    const before = (await readRedisKeys(links[0]!.client)).store.keys.length;
    const issued = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      updateRedisKeys(links[i % 2]!.client, (store) => withNewKey(store, { email: `writer${i}@example.com`, now: NOW }))));
    const { store } = await readRedisKeys(links[0]!.client);
    t.equal(store.keys.length, before + 20);
    t.same(new Set(store.keys.map((record) => record.id)).size, store.keys.length, "no id twice");
    for (const { record } of issued) t.ok(store.keys.some((stored) => stored.id === record.id), `${record.id} kept`);
  });

  t.test("a Redis restarted empty gets the replica's copy back, and its keys keep working", async (t) => {
    const dir = t.testdir();
    const file = join(dir, "keys.json");
    const { key } = createKey(file, { email: "seed@example.com", now: NOW });
    const registry = new KeyRegistry(file);
    const link = new RedisLink(redis.url);
    await link.waitShared(5_000);
    await link.client.flushall();
    const feed = new RedisKeyFeed(link, registry);
    t.teardown(() => { feed.close(); link.close(); });
    await feed.refresh();
    t.ok((await readRedisKeys(link.client)).store.keys.some((record) => record.email === "seed@example.com"), "an empty Redis is seeded from the replica");
    await redis.stop();
    await redis.start();
    await waitFor(() => feed.version !== "" && link.isShared, 10_000);
    // The restarted Redis was empty; the feed seeded it from the registry's copy.
    await waitFor(() => false, 300);
    const { store, version } = await readRedisKeys(link.client);
    t.not(version, "", "Redis holds a key store again");
    t.ok(store.keys.some((record) => record.email === "seed@example.com"), "the replica's keys are in it");
    t.ok(registry.verify(key), "and still verify");
  });
}
