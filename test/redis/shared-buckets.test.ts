// Token buckets shared through a real redis-server: the take script, leases, and Redis going away.
import t from "tap";
import { ADDRESS_SLOTS, TokenBuckets, type SharedKeyBuckets, type TakeResult } from "../../src/limits/token-buckets.js";
import { RedisLink } from "../../src/redis/link.js";
import { LEASE_DIVISOR, LEASE_HOLD_MS, LEASE_IDLE_MS, MAX_LEASE, RedisKeyBuckets, takeTokens } from "../../src/redis/shared-buckets.js";
import { redisMissing, startRedis, type RedisServer } from "../fixtures/redis-server.js";

const missing = redisMissing();
if (missing !== undefined) {
  t.test("token buckets shared through Redis", { skip: missing }, () => {});
} else {
  let redis: RedisServer;
  t.before(async () => { redis = await startRedis(); });
  t.teardown(() => redis.stop());

  const connect = async (t: { teardown: (fn: () => void) => void; ok: (value: unknown, message: string) => void }): Promise<RedisLink> => {
    const link = new RedisLink(redis.url);
    t.teardown(() => link.close());
    t.ok(await link.waitShared(5_000), "connected");
    return link;
  };

  /** A take as the dispatcher makes it: at once from the lease, else through Redis. */
  const take = (buckets: SharedKeyBuckets, id: string, capacity: number): Promise<TakeResult> => {
    const now = Date.now();
    return Promise.resolve(buckets.take(id, 0, capacity, now) ?? buckets.takeShared(id, 0, capacity, now));
  };

  t.test("the script grants what is asked, a lease of 1/64 of the bucket at most, and never more than is there", async (t) => {
    const link = await connect(t);
    const [granted, left, held] = await takeTokens(link.client, "k_script01", 6400, 1, true);
    t.equal(granted, Math.min(MAX_LEASE, 6400 / LEASE_DIVISOR), "a full bucket of 6400 leases 100");
    t.ok(Math.abs(Number(left) - (6400 - granted)) < 1, `${left} left`);
    t.ok(held > LEASE_HOLD_MS - 100 && held <= LEASE_HOLD_MS, `leased tokens may be out for ${held} ms`);
    const [onlyDemand, , notHeld] = await takeTokens(link.client, "k_script02", 50, 3, true);
    t.equal(onlyDemand, 3, "under 64 tokens only the demand is granted");
    t.equal(notHeld, 0, "no lease, no hold");
    const [all, none] = await takeTokens(link.client, "k_script02", 50, 100, false);
    t.equal(all, 47, "a demand beyond the bucket gets what is left");
    t.ok(Number(none) < 1);
    const [refused] = await takeTokens(link.client, "k_script02", 50, 1, true);
    t.equal(refused, 0, "an empty bucket grants nothing");
    const [, afterReturn] = await takeTokens(link.client, "k_script02", 50, 0, false, 10);
    t.ok(Number(afterReturn) >= 10 && Number(afterReturn) < 11, "tokens given back are there again");
    const [, capped] = await takeTokens(link.client, "k_script03", 50, 0, false, 10);
    t.equal(Number(capped), 50, "never beyond capacity");
  });

  t.test("two replicas drawing on one key in turns: exactly its capacity passes, with falling remaining counts", async (t) => {
    const replicas = await Promise.all([0, 1].map(async () => {
      const link = await connect(t);
      const buckets = new RedisKeyBuckets(link, new TokenBuckets(1, ADDRESS_SLOTS), Date.now);
      t.teardown(() => buckets.close());
      return buckets;
    }));
    const results: TakeResult[] = [];
    for (let i = 0; i < 700; i++) results.push(await take(replicas[i % 2] as RedisKeyBuckets, "k_turns01", 500));
    t.equal(results.filter((result) => result.isAllowed).length, 500);
    const refused = results.find((result) => !result.isAllowed) as TakeResult;
    t.equal(refused.remaining, 0);
    t.ok(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 8, `Retry-After ${refused.retryAfterSeconds} s (one token per 7.2 s)`);
    t.equal(results[0]?.remaining, 499, "the first answer counts the whole bucket");
    t.ok(results.slice(0, 500).every((result) => result.resetSeconds > 0), "reset is ahead while tokens are missing");
  });

  t.test("bursts of concurrent takes over three replicas never pass more than the capacity and strand nothing", async (t) => {
    const replicas = await Promise.all([0, 1, 2].map(async () => {
      const link = await connect(t);
      const buckets = new RedisKeyBuckets(link, new TokenBuckets(1, ADDRESS_SLOTS), Date.now);
      t.teardown(() => buckets.close());
      return buckets;
    }));
    const results = await Promise.all(Array.from({ length: 700 }, (_, i) => take(replicas[i % 3] as RedisKeyBuckets, "k_burst001", 500)));
    t.equal(results.filter((result) => result.isAllowed).length, 500);
  });

  t.test("a bucket emptied while another replica holds leased tokens: the refusal waits for them and gets one", async (t) => {
    const [holder, taker] = await Promise.all([0, 1].map(async () => {
      const link = await connect(t);
      const buckets = new RedisKeyBuckets(link, new TokenBuckets(1, ADDRESS_SLOTS), Date.now);
      t.teardown(() => buckets.close());
      return { link, buckets };
    })) as [{ link: RedisLink; buckets: RedisKeyBuckets }, { link: RedisLink; buckets: RedisKeyBuckets }];
    // The holder takes one token of a full bucket of 640 and leases 9 more, which it never spends.
    // (640 an hour refills 0.27 tokens in the wait below: not one.)
    t.ok((await take(holder.buckets, "k_held0001", 640)).isAllowed);
    // Everything else is taken past the lease (as other replicas' demand would).
    const [drained, left] = await takeTokens(taker.link.client, "k_held0001", 640, 640, false);
    t.equal(drained, 640 - 10, "the bucket is empty but for the holder's lease");
    t.ok(Number(left) < 1);
    const started = Date.now();
    const result = await take(taker.buckets, "k_held0001", 640);
    t.ok(result.isAllowed, "answered from a token the holder gave back, not refused while it sat in a lease");
    t.ok(Date.now() - started >= LEASE_IDLE_MS - 50, `waited ${Date.now() - started} ms for it`);
    const [, rest] = await takeTokens(taker.link.client, "k_held0001", 640, 0, false);
    t.equal(Math.floor(Number(rest)), 8, "the rest of the lease is in Redis again");
  });

  t.test("Redis gone: takes are answered locally at once; Redis back: shared again", async (t) => {
    const link = await connect(t);
    const local = new TokenBuckets(1, ADDRESS_SLOTS);
    const buckets = new RedisKeyBuckets(link, local, Date.now);
    t.teardown(() => buckets.close());
    t.ok((await take(buckets, "k_outage01", 100)).isAllowed);
    await redis.stop();
    const during: TakeResult[] = [];
    for (let i = 0; i < 20; i++) during.push(await take(buckets, "k_outage01", 100));
    t.ok(during.every((result) => result.isAllowed), "every take answered while Redis is down");
    t.equal(link.state, "local");
    await redis.start();
    const deadline = Date.now() + 10_000;
    while (!link.isShared && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    t.equal(link.state, "shared", "shared again within 10 s");
    // Redis came back empty: the shared bucket starts full again.
    t.equal((await take(buckets, "k_outage01", 100)).remaining, 99);
  });
}
