// Rate-limit token buckets kept in one SharedArrayBuffer, so every worker thread draws from the same
// buckets ("500" means 500 for the whole server). Pure arithmetic on injected time; it never reads a clock.

import { createHmac, randomFillSync } from "node:crypto";

/** The outcome of one take (or a peek), already rounded the way the headers need it. */
export interface TakeResult {
  readonly isAllowed: boolean;
  /** Whole tokens left after this request (floor). */
  readonly remaining: number;
  /** Seconds until the bucket is full again (ceil); 0 when it already is. */
  readonly resetSeconds: number;
  /** Seconds until the next whole token when refused (ceil, at least 1); 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface RateLimitPolicy {
  readonly capacity: number;
  readonly windowSeconds: number;
}

/** Per API key: the free tier, 500 requests refilled over an hour. A key's own rateLimit replaces 500. */
export const KEY_POLICY = { capacity: 500, windowSeconds: 3600 } as const satisfies RateLimitPolicy;
/** Per client address, for unkeyed routes and failed key checks: 60 a minute, so keys cannot be guessed at speed. */
export const ADDRESS_POLICY = { capacity: 60, windowSeconds: 60 } as const satisfies RateLimitPolicy;

/**
 * Per client address, for the routes that need no key (`/`, `/health`, `/ready`, `/api/health`):
 * cheap and generous (20 a second sustained, 1,200 at once), far above any health checker's pace,
 * so a flood of them is still bounded. A bucket set of its own: probes never spend the address's
 * ADDRESS_POLICY tokens, nor the reverse.
 */
export const PROBE_POLICY = { capacity: 1200, windowSeconds: 60 } as const satisfies RateLimitPolicy;
/** Probe buckets (an address-only TokenBuckets of their own) are chosen by hash among this many. */
export const PROBE_SLOTS = 4096;

/** Per client address, for POST /api/register: five new keys an hour. */
export const REGISTRATION_POLICY = { capacity: 5, windowSeconds: 3600 } as const satisfies RateLimitPolicy;
/** Registration buckets (an address-only TokenBuckets of its own) are chosen by hash among this many. */
export const REGISTRATION_SLOTS = 4096;

/**
 * Per API key, for its owner's actions on it (usage, regenerate, revoke), which take no token from
 * the key's bucket: a thief who empties that bucket cannot lock the owner out, and these routes
 * still cannot be used to flood (30 a minute per key, a bucket of their own).
 */
export const OWNER_POLICY = { capacity: 30, windowSeconds: 60 } as const satisfies RateLimitPolicy;

/** Key slots allocated at first; the space grows with the key store (one bucket per record, never shared). */
export const KEY_SLOTS = 4096;
/** The most key records the buckets and usage rings can grow to (address space reserved, not memory). */
export const MAX_KEY_SLOTS = 1 << 22;
/** Address buckets are chosen by keyed hash among this many. */
export const ADDRESS_SLOTS = 65_536;

/** Tokens per millisecond for `capacity` tokens refilled evenly over `windowSeconds`. */
export function refillPerMs(capacity: number, windowSeconds: number): number {
  return capacity / (windowSeconds * 1000);
}

// Per slot, 24 bytes: Float64 tokens, Float64 updatedAt (ms; 0 = never used, i.e. full), Int32 spin
// lock (0 free, 1 held), 4 bytes of padding so the next slot's floats stay 8-byte aligned.
const SLOT_BYTES = 24;
const FLOATS_PER_SLOT = SLOT_BYTES / Float64Array.BYTES_PER_ELEMENT;
const INTS_PER_SLOT = SLOT_BYTES / Int32Array.BYTES_PER_ELEMENT;
const TOKENS = 0;
const UPDATED_AT = 1;
const LOCK = 4;
/** The address hash's secret, drawn when the buffer is allocated, at its start. */
const SECRET_BYTES = 32;
const UNLOCKED = 0;
const LOCKED = 1;
// Continuous refill at rates like 500/3 600 000 per ms leaves float dust (0.9999999999999998 tokens
// where exact arithmetic gives 1). Whole-token decisions and second roundings forgive this much so
// the dust never costs a client a token or an extra second.
const EPSILON = 1e-9;

/**
 * Layout of `buffer` (a growable SharedArrayBuffer every worker views):
 *   bytes [0, 32)                              the secret of the address hash (random, drawn at allocation)
 *   then SLOT_BYTES per slot: address slots [0, addressSlots), then key slots, one per key record.
 *
 * Address slots are chosen by a keyed hash (HMAC-SHA-256 with the secret), so nobody can compute an
 * address that shares another's bucket; two that collide by chance share one, stricter for both.
 * Key slots follow the address slots and grow with the key store (`keySlot` grows the buffer, which
 * every thread's length-tracking views then see): every key record has a bucket of its own.
 *
 * `now` is a positive millisecond timestamp from a clock every thread shares (Date.now(), or
 * performance.timeOrigin + performance.now()): performance.now() alone starts at 0 in each worker,
 * and updatedAt 0 is what marks a slot as never used.
 */
export class TokenBuckets {
  readonly buffer: SharedArrayBuffer;
  readonly addressSlots: number;
  readonly #numbers: Float64Array;
  readonly #locks: Int32Array;
  readonly #secret: Buffer;

  static byteLength(keySlots: number, addressSlots: number): number {
    return SECRET_BYTES + (keySlots + addressSlots) * SLOT_BYTES;
  }

  /** Allocates fresh (all full) buckets, or views an existing buffer another thread allocated with the same address slots. */
  constructor(keySlots: number, addressSlots: number, buffer?: SharedArrayBuffer) {
    if (!Number.isSafeInteger(keySlots) || keySlots < 0 || keySlots > MAX_KEY_SLOTS) throw new RangeError(`keySlots must be a whole number from 0 to ${MAX_KEY_SLOTS}, got ${keySlots}`);
    if (!Number.isSafeInteger(addressSlots) || addressSlots < 1) throw new RangeError(`addressSlots must be a whole number ≥ 1, got ${addressSlots}`);
    const maxByteLength = TokenBuckets.byteLength(MAX_KEY_SLOTS, addressSlots);
    if (buffer !== undefined && (!buffer.growable || buffer.maxByteLength !== maxByteLength || buffer.byteLength < TokenBuckets.byteLength(0, addressSlots))) {
      throw new RangeError(`the shared buffer (${buffer.byteLength} of ${buffer.maxByteLength} bytes) was not made for ${addressSlots} address slots`);
    }
    if (buffer === undefined) {
      buffer = new SharedArrayBuffer(TokenBuckets.byteLength(keySlots, addressSlots), { maxByteLength });
      randomFillSync(new Uint8Array(buffer, 0, SECRET_BYTES));
    }
    this.buffer = buffer;
    this.addressSlots = addressSlots;
    // Length-tracking views: they follow the buffer as any thread grows it.
    this.#numbers = new Float64Array(this.buffer, SECRET_BYTES);
    this.#locks = new Int32Array(this.buffer, SECRET_BYTES);
    this.#secret = Buffer.from(new Uint8Array(this.buffer, 0, SECRET_BYTES));
  }

  /** Key slots the buffer holds now (it grows on demand, up to MAX_KEY_SLOTS). */
  get keySlots(): number {
    return (this.buffer.byteLength - SECRET_BYTES) / SLOT_BYTES - this.addressSlots;
  }

  /** The bucket of a client address (already reduced by clientKey): a keyed hash, modulo the address slots. */
  addressSlot(address: string): number {
    return createHmac("sha256", this.#secret).update(address).digest().readUInt32LE(0) % this.addressSlots;
  }

  /** The bucket of key record `index` (its KeyRegistry slot), growing the buffer when the store has grown past it. */
  keySlot(index: number): number {
    if (!Number.isSafeInteger(index) || index < 0 || index >= MAX_KEY_SLOTS) throw new RangeError(`key slot ${index} is outside 0..${MAX_KEY_SLOTS - 1}`);
    if (index >= this.keySlots) this.#grow(index + 1);
    return this.addressSlots + index;
  }

  /** Takes one token if there is a whole one. Refill is continuous, capped at capacity. */
  take(slot: number, capacity: number, refillPerMs: number, now: number): TakeResult {
    const at = this.#offset(slot);
    this.#lock(slot);
    const tokensBefore = this.#refilled(at, capacity, refillPerMs, now);
    const isAllowed = tokensBefore >= 1 - EPSILON;
    const tokens = isAllowed ? Math.max(0, tokensBefore - 1) : tokensBefore;
    this.#numbers[at + TOKENS] = tokens;
    // Never moves backwards: two threads may pass slightly out-of-order times, and rewinding would
    // credit the same elapsed time twice.
    this.#numbers[at + UPDATED_AT] = Math.max(this.#numbers[at + UPDATED_AT] ?? 0, now);
    this.#unlock(slot);
    return toResult(isAllowed, tokens, capacity, refillPerMs);
  }

  /** The numbers a take would report, without taking (for responses that must not cost a token). */
  peek(slot: number, capacity: number, refillPerMs: number, now: number): TakeResult {
    const at = this.#offset(slot);
    this.#lock(slot);
    const tokens = this.#refilled(at, capacity, refillPerMs, now);
    this.#unlock(slot);
    return toResult(tokens >= 1 - EPSILON, tokens, capacity, refillPerMs);
  }

  /** Gives back the token a request took (a 304 costs nothing), never beyond capacity. */
  refund(slot: number, capacity: number): void {
    const at = this.#offset(slot);
    this.#lock(slot);
    // A never-used slot is full by definition; its stored 0 tokens must not become 1.
    if (this.#numbers[at + UPDATED_AT] !== 0) {
      this.#numbers[at + TOKENS] = Math.min(capacity, (this.#numbers[at + TOKENS] ?? 0) + 1);
    }
    this.#unlock(slot);
  }

  /** At least `keySlots` key slots: doubling, so a growing store grows the buffer rarely. New bytes are zero (full buckets). */
  #grow(keySlots: number): void {
    const wanted = Math.min(MAX_KEY_SLOTS, Math.max(keySlots, this.keySlots * 2));
    try {
      this.buffer.grow(TokenBuckets.byteLength(wanted, this.addressSlots));
    } catch (error) {
      // Another thread grew it meanwhile, possibly further: fine as long as the slot is there now.
      if (this.keySlots < keySlots) throw error;
    }
  }

  /** Tokens in the bucket at `now`; call with the slot's lock held. */
  #refilled(at: number, capacity: number, refillPerMs: number, now: number): number {
    const updatedAt = this.#numbers[at + UPDATED_AT] ?? 0;
    if (updatedAt === 0) return capacity;
    const tokens = this.#numbers[at + TOKENS] ?? 0;
    return Math.min(capacity, tokens + Math.max(0, now - updatedAt) * refillPerMs);
  }

  #offset(slot: number): number {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.keySlots + this.addressSlots) {
      // A slot outside the buffer is a sizing bug in the caller; sharing some other bucket silently would be worse.
      throw new RangeError(`rate-limit slot ${slot} is outside 0..${this.keySlots + this.addressSlots - 1}`);
    }
    return slot * FLOATS_PER_SLOT;
  }

  // A spin lock, not Atomics.wait: the main thread may not block, and the critical section is a
  // handful of float operations that cannot throw, so a holder always releases within nanoseconds.
  // Atomics are sequentially consistent, which orders the plain Float64 reads and writes inside.
  #lock(slot: number): void {
    const at = slot * INTS_PER_SLOT + LOCK;
    while (Atomics.compareExchange(this.#locks, at, UNLOCKED, LOCKED) !== UNLOCKED) {
      // spin
    }
  }

  #unlock(slot: number): void {
    Atomics.store(this.#locks, slot * INTS_PER_SLOT + LOCK, UNLOCKED);
  }
}

/** The rounded numbers of a decision, given the (fractional) tokens left after it. */
export function toResult(isAllowed: boolean, tokens: number, capacity: number, refillPerMs: number): TakeResult {
  return {
    isAllowed,
    remaining: Math.max(0, Math.floor(tokens + EPSILON)),
    resetSeconds: ceilSeconds((capacity - tokens) / refillPerMs),
    retryAfterSeconds: isAllowed ? 0 : Math.max(1, ceilSeconds((1 - tokens) / refillPerMs)),
  };
}

function ceilSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000 - EPSILON));
}

/**
 * Key buckets that several replicas share (REDIS_URL). A take answers at once from what this
 * replica holds, or returns undefined: then `takeShared` asks the shared store, and only that
 * request waits for the answer. Used instead of TokenBuckets' key slots; absent without REDIS_URL.
 */
export interface SharedKeyBuckets {
  take(id: string, slot: number, capacity: number, now: number): TakeResult | undefined;
  takeShared(id: string, slot: number, capacity: number, now: number): Promise<TakeResult>;
  /** Gives back the token a request took (a 304 costs nothing). */
  refund(id: string, slot: number, capacity: number): void;
}

/**
 * The rate-limit headers of a keyed (or address-limited) response: the de-facto X-RateLimit-* trio
 * and the IETF RateLimit-Policy / RateLimit fields, as header lines, each after a CRLF. Reset is
 * rounded up, so a client that waits until then always finds the bucket full.
 */
export function rateLimitLines(result: TakeResult, capacity: number, windowSeconds: number, policyName: string, nowMs: number): string {
  // docs/compatibility.md#fidelity-rules: an ISO 8601 time, as the hosted service sends it; the seconds stay in RateLimit's t= and Retry-After.
  const resetAt = isoSecond(Math.ceil(nowMs / 1000) + result.resetSeconds);
  return `\r\nX-RateLimit-Limit: ${capacity}\r\nX-RateLimit-Remaining: ${result.remaining}\r\nX-RateLimit-Reset: ${resetAt}`
    + `\r\nRateLimit-Policy: "${policyName}";q=${capacity};w=${windowSeconds}\r\nRateLimit: "${policyName}";r=${result.remaining};t=${result.resetSeconds}`;
}

/** The last second formatted: a busy key's requests share a reset second, so most answers skip the Date. */
let formattedSecond = Number.NaN;
let formattedIso = "";

/** An epoch second as ISO 8601 (`2026-11-27T23:40:00.000Z`). */
function isoSecond(epochSeconds: number): string {
  if (epochSeconds !== formattedSecond) {
    formattedIso = new Date(epochSeconds * 1000).toISOString();
    formattedSecond = epochSeconds;
  }
  return formattedIso;
}
