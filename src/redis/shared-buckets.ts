// API-key token buckets shared by every replica through Redis (REDIS_URL). The bucket lives in Redis
// and is changed only by one Lua script, atomically, on Redis's own clock (TIME), so replicas'
// clocks never matter. A round trip per request would cut throughput several-fold, so a replica
// takes tokens in small leases and spends them locally; see bench/README.md "Several replicas" for
// why this keeps "500 means 500" exact. While Redis is unreachable every take is answered by this
// replica's own buckets (the SharedArrayBuffer ones every worker thread shares).

import type { Redis } from "ioredis";
import { KEY_POLICY, refillPerMs, toResult, type SharedKeyBuckets, type TakeResult, type TokenBuckets } from "../limits/token-buckets.js";
import { REDIS_PREFIX, type RedisLink } from "./link.js";

/**
 * A lease is at most 1/LEASE_DIVISOR of the tokens the bucket holds: far from empty a replica spends
 * locally and asks Redis rarely; near empty (under LEASE_DIVISOR tokens) Redis grants only what
 * waiting requests ask for, so no token sits unused in one replica while another refuses.
 */
export const LEASE_DIVISOR = 64;
/** The largest lease (keys with huge limits: a Redis call per MAX_LEASE requests per thread). */
export const MAX_LEASE = 256;
/** Leased tokens unused this long go back to Redis, for other replicas. */
export const LEASE_IDLE_MS = 500;
/**
 * Leased tokens may still be out (unspent, not yet given back) until this long after the last lease:
 * LEASE_IDLE_MS plus the give-back timer's period, with room for a late timer on a loaded machine.
 * A bucket that runs dry within it holds its refusals until then and asks again, so a token leased
 * to one worker is never missing from another's answer: 500 means 500 by construction.
 */
export const LEASE_HOLD_MS = 3 * LEASE_IDLE_MS;
/** A key unused this long forgets its lease state (memory stays bounded by the active keys). */
const LEASE_FORGET_MS = 60_000;

// KEYS[1]: the bucket. ARGV: capacity, window (ms), demand, lease (1 = add a lease), give back,
// lease divisor, max lease, lease hold (ms). Returns { tokens granted, tokens left (a decimal
// string), ms until no leased token can still be out }. The bucket is a hash {tokens, at, held}
// (held: until when leased tokens may be out); a missing one is full. It expires once it would be
// full again and no lease is out.
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local capacity = tonumber(ARGV[1])
local rate = capacity / tonumber(ARGV[2])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'held')
local tokens = tonumber(bucket[1])
local at = tonumber(bucket[2])
local held = tonumber(bucket[3]) or 0
if tokens == nil or at == nil then
  tokens = capacity
  at = now
elseif now > at then
  tokens = math.min(capacity, tokens + (now - at) * rate)
  at = now
end
tokens = math.min(capacity, tokens + tonumber(ARGV[5]))
local available = math.floor(tokens + 1e-9)
local grant = math.min(available, tonumber(ARGV[3]))
if ARGV[4] == '1' then
  local lease = math.min(tonumber(ARGV[7]), math.floor(available / tonumber(ARGV[6])))
  local leased = math.min(available, math.max(grant, lease))
  if leased > grant then held = now + tonumber(ARGV[8]) end
  grant = leased
end
tokens = math.max(0, tokens - grant)
local holdLeft = math.max(0, held - now)
if tokens >= capacity - 1e-9 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', at, 'held', held)
  redis.call('PEXPIRE', KEYS[1], math.max(math.ceil((capacity - tokens) / rate), holdLeft) + 1000)
end
return { grant, tostring(tokens), holdLeft }`;

type BucketClient = Redis & {
  takeTokens(bucket: string, capacity: number, windowMs: number, demand: number, lease: 0 | 1, giveBack: number, divisor: number, maxLease: number, holdMs: number): Promise<[number, string, number]>;
};

export function bucketKey(id: string): string {
  return `${REDIS_PREFIX}bucket:${id}`;
}

/** Runs the take script once (also used by tests to read a bucket: demand 0, no lease). */
export function takeTokens(client: Redis, id: string, capacity: number, demand: number, lease: boolean, giveBack = 0): Promise<[number, string, number]> {
  if (!("takeTokens" in client)) client.defineCommand("takeTokens", { numberOfKeys: 1, lua: TAKE_SCRIPT });
  return (client as BucketClient).takeTokens(bucketKey(id), capacity, KEY_POLICY.windowSeconds * 1000, demand, lease ? 1 : 0, giveBack, LEASE_DIVISOR, MAX_LEASE, LEASE_HOLD_MS);
}

interface Waiter {
  readonly slot: number;
  readonly resolve: (result: TakeResult) => void;
}

/** One key's lease in this thread. */
interface Lease {
  capacity: number;
  /** Leased tokens not spent yet. */
  tokens: number;
  /** What the last grant left in Redis, and when (local ms): the headers count refill from there. */
  shared: number;
  sharedAt: number;
  /** Size of the last grant, to ask for the next one before this one runs out. */
  granted: number;
  lastUsedAt: number;
  isFetching: boolean;
  /** Whether the waiting requests already sat out a lease hold: the next empty answer refuses them. */
  hasHeld: boolean;
  waiting: Waiter[];
}

export class RedisKeyBuckets implements SharedKeyBuckets {
  readonly #leases = new Map<string, Lease>();
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly link: RedisLink, private readonly local: TokenBuckets, private readonly now: () => number) {
    // Leases were taken from a Redis that may come back empty or changed: start afresh either way.
    link.onChange(() => this.#leases.clear());
    this.#timer = setInterval(() => this.#returnIdle(), LEASE_IDLE_MS / 2);
    this.#timer.unref();
  }

  take(id: string, slot: number, capacity: number, now: number): TakeResult | undefined {
    if (!this.link.isShared) return this.local.take(slot, capacity, refillPerMs(capacity, KEY_POLICY.windowSeconds), now);
    const lease = this.#leases.get(id);
    if (lease === undefined || lease.tokens < 1 || lease.capacity !== capacity) return undefined;
    lease.tokens -= 1;
    lease.lastUsedAt = now;
    // Ask for the next lease while this one still lasts, so requests do not wait for it; not near
    // empty, where the leases shrink to what requests ask for.
    if (!lease.isFetching && lease.tokens * 4 <= lease.granted && lease.shared >= 2 * LEASE_DIVISOR) this.#fetch(id, lease);
    return this.#spent(lease, slot, now);
  }

  takeShared(id: string, slot: number, capacity: number, now: number): Promise<TakeResult> {
    if (!this.link.isShared) return Promise.resolve(this.local.take(slot, capacity, refillPerMs(capacity, KEY_POLICY.windowSeconds), now));
    let lease = this.#leases.get(id);
    if (lease === undefined || lease.capacity !== capacity) {
      lease = { capacity, tokens: 0, shared: capacity, sharedAt: now, granted: 0, lastUsedAt: now, isFetching: false, hasHeld: false, waiting: [] };
      this.#leases.set(id, lease);
    }
    const waiting = lease;
    return new Promise((resolve) => {
      waiting.waiting.push({ slot, resolve });
      if (!waiting.isFetching) this.#fetch(id, waiting);
    });
  }

  refund(id: string, slot: number, capacity: number): void {
    this.local.refund(slot, capacity);
    const lease = this.#leases.get(id);
    if (this.link.isShared && lease !== undefined) lease.tokens += 1;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  /** One call to Redis for this key: the waiting requests' tokens plus a lease; serves them when it answers. */
  #fetch(id: string, lease: Lease): void {
    lease.isFetching = true;
    takeTokens(this.link.client, id, lease.capacity, lease.waiting.length, true).then(
      ([granted, left, holdMs]) => {
        lease.isFetching = false;
        lease.tokens += granted;
        lease.granted = granted;
        lease.shared = Number(left);
        const now = this.now();
        lease.sharedAt = now;
        lease.lastUsedAt = now;
        const { waiting } = lease;
        while (waiting.length > 0 && lease.tokens >= 1) {
          const waiter = waiting.shift() as Waiter;
          lease.tokens -= 1;
          waiter.resolve(this.#spent(lease, waiter.slot, now));
        }
        if (waiting.length === 0) {
          lease.hasHeld = false;
          return;
        }
        // Requests that came while Redis was answering: asked for if Redis has tokens; if it is
        // empty while leased tokens may still be out elsewhere, asked for again once they are
        // spent or given back (once); else refused.
        if (lease.shared >= 1) {
          this.#fetch(id, lease);
          return;
        }
        if (holdMs > 0 && !lease.hasHeld) {
          lease.hasHeld = true;
          lease.isFetching = true;
          setTimeout(() => this.#fetch(id, lease), holdMs).unref();
          return;
        }
        lease.hasHeld = false;
        const refused = this.#refused(lease, now);
        for (const waiter of waiting.splice(0)) waiter.resolve(refused);
      },
      (error: unknown) => {
        lease.isFetching = false;
        lease.hasHeld = false;
        this.link.reportFailure(error);
        // Redis unreachable: nobody waits for it; this replica's own buckets answer.
        const now = this.now();
        const rate = refillPerMs(lease.capacity, KEY_POLICY.windowSeconds);
        for (const waiter of lease.waiting.splice(0)) waiter.resolve(this.local.take(waiter.slot, lease.capacity, rate, now));
      },
    );
  }

  /** A token spent from the lease: also drawn from the local bucket, so an outage starts from this replica's own spending. */
  #spent(lease: Lease, slot: number, now: number): TakeResult {
    const rate = refillPerMs(lease.capacity, KEY_POLICY.windowSeconds);
    this.local.take(slot, lease.capacity, rate, now);
    // Remaining as this replica knows it: what Redis had left at the last grant, refilled since,
    // plus the leased tokens not spent yet (other replicas' leases count as spent).
    const tokens = Math.min(lease.capacity, lease.shared + Math.max(0, now - lease.sharedAt) * rate) + lease.tokens;
    return toResult(true, Math.min(lease.capacity, tokens), lease.capacity, rate);
  }

  #refused(lease: Lease, now: number): TakeResult {
    const rate = refillPerMs(lease.capacity, KEY_POLICY.windowSeconds);
    const tokens = Math.min(lease.capacity, lease.shared + Math.max(0, now - lease.sharedAt) * rate);
    return toResult(false, Math.min(tokens, 1 - 1e-6), lease.capacity, rate);
  }

  /** Leased tokens nobody here used for LEASE_IDLE_MS go back to Redis. */
  #returnIdle(): void {
    if (!this.link.isShared) return;
    const now = this.now();
    for (const [id, lease] of this.#leases) {
      if (lease.isFetching || lease.waiting.length > 0) continue;
      const idleMs = now - lease.lastUsedAt;
      const unused = Math.floor(lease.tokens);
      if (unused >= 1 && idleMs >= LEASE_IDLE_MS) {
        lease.tokens -= unused;
        // Lost if Redis fails now: tokens taken and never used, which is strict, never lax.
        takeTokens(this.link.client, id, lease.capacity, 0, false, unused).catch((error: unknown) => this.link.reportFailure(error));
      } else if (unused < 1 && idleMs >= LEASE_FORGET_MS) {
        this.#leases.delete(id);
      }
    }
  }
}
