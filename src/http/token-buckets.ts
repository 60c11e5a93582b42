// Rate-limit token buckets kept in one SharedArrayBuffer, so every worker thread draws from the same
// buckets ("500" means 500 for the whole server). Pure arithmetic on injected time; it never reads a clock.

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

/** Per client address, for POST /api/register: five new keys an hour. */
export const REGISTRATION_POLICY = { capacity: 5, windowSeconds: 3600 } as const satisfies RateLimitPolicy;
/** Registration buckets (an address-only TokenBuckets of its own) are chosen by hash among this many. */
export const REGISTRATION_SLOTS = 4096;

/** Key slots are the key file's record indices; 4096 records is far beyond any self-hosted install. */
export const KEY_SLOTS = 4096;
/** Address buckets are chosen by hash among this many. */
export const ADDRESS_SLOTS = 65_536;

/** Tokens per millisecond for `capacity` tokens refilled evenly over `windowSeconds`. */
export function refillPerMs(capacity: number, windowSeconds: number): number {
  return capacity / (windowSeconds * 1000);
}

// Float64 fields per slot, and their offsets.
const FIELDS = 2;
const TOKENS = 0;
const UPDATED_AT = 1;
const FLOAT_BYTES = Float64Array.BYTES_PER_ELEMENT * FIELDS;
const LOCK_BYTES = Int32Array.BYTES_PER_ELEMENT;
const UNLOCKED = 0;
const LOCKED = 1;
// Continuous refill at rates like 500/3 600 000 per ms leaves float dust (0.9999999999999998 tokens
// where exact arithmetic gives 1). Whole-token decisions and second roundings forgive this much so
// the dust never costs a client a token or an extra second.
const EPSILON = 1e-9;

/**
 * Layout of `buffer`, for `slotCount = keySlots + addressSlots` slots:
 *   bytes [0, 16·slotCount)                    Float64 pairs: tokens, updatedAt (ms; 0 = never used, i.e. full)
 *   bytes [16·slotCount, 20·slotCount)         Int32 spin lock per slot (0 free, 1 held)
 * Floats first so the Float64Array view starts 8-byte aligned whatever the slot count.
 *
 * Slots [0, keySlots) belong to API keys (slot = the key's KeyRegistry slot). Slots
 * [keySlots, keySlots + addressSlots) belong to client addresses, chosen by hash: two addresses
 * that collide share one bucket, which is stricter for both and never laxer for either.
 *
 * `now` is a positive millisecond timestamp from a clock every thread shares (Date.now(), or
 * performance.timeOrigin + performance.now()): performance.now() alone starts at 0 in each worker,
 * and updatedAt 0 is what marks a slot as never used.
 */
export class TokenBuckets {
  readonly buffer: SharedArrayBuffer;
  readonly keySlots: number;
  readonly addressSlots: number;
  readonly #numbers: Float64Array;
  readonly #locks: Int32Array;

  static byteLength(keySlots: number, addressSlots: number): number {
    return (keySlots + addressSlots) * (FLOAT_BYTES + LOCK_BYTES);
  }

  /** Allocates fresh (all full) buckets, or views an existing buffer another thread allocated with the same sizes. */
  constructor(keySlots: number, addressSlots: number, buffer?: SharedArrayBuffer) {
    if (!Number.isSafeInteger(keySlots) || keySlots < 0) throw new RangeError(`keySlots must be a whole number ≥ 0, got ${keySlots}`);
    if (!Number.isSafeInteger(addressSlots) || addressSlots < 1) throw new RangeError(`addressSlots must be a whole number ≥ 1, got ${addressSlots}`);
    const byteLength = TokenBuckets.byteLength(keySlots, addressSlots);
    if (buffer !== undefined && buffer.byteLength !== byteLength) {
      throw new RangeError(`the shared buffer holds ${buffer.byteLength} bytes; ${keySlots} + ${addressSlots} slots need ${byteLength}`);
    }
    const slotCount = keySlots + addressSlots;
    this.buffer = buffer ?? new SharedArrayBuffer(byteLength);
    this.keySlots = keySlots;
    this.addressSlots = addressSlots;
    this.#numbers = new Float64Array(this.buffer, 0, slotCount * FIELDS);
    this.#locks = new Int32Array(this.buffer, slotCount * FLOAT_BYTES, slotCount);
  }

  /** The bucket of a client address: FNV-1a (32-bit) of the string, modulo the address slots. */
  addressSlot(address: string): number {
    return this.keySlots + (fnv1a32(address) % this.addressSlots);
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
    return slot * FIELDS;
  }

  // A spin lock, not Atomics.wait: the main thread may not block, and the critical section is a
  // handful of float operations that cannot throw, so a holder always releases within nanoseconds.
  // Atomics are sequentially consistent, which orders the plain Float64 reads and writes inside.
  #lock(slot: number): void {
    while (Atomics.compareExchange(this.#locks, slot, UNLOCKED, LOCKED) !== UNLOCKED) {
      // spin
    }
  }

  #unlock(slot: number): void {
    Atomics.store(this.#locks, slot, UNLOCKED);
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

/** 32-bit FNV-1a over UTF-16 code units: cheap, well spread for short strings like addresses. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The rate-limit headers of a keyed (or address-limited) response: the de-facto X-RateLimit-* trio
 * and the IETF RateLimit-Policy / RateLimit fields, as header lines, each after a CRLF. Reset is
 * rounded up, so a client that waits until then always finds the bucket full.
 */
export function rateLimitLines(result: TakeResult, capacity: number, windowSeconds: number, policyName: string, nowMs: number): string {
  // CONTRACT §9: an ISO 8601 time, as the hosted service sends it; the seconds stay in RateLimit's t= and Retry-After.
  const resetAt = new Date((Math.ceil(nowMs / 1000) + result.resetSeconds) * 1000).toISOString();
  return `\r\nX-RateLimit-Limit: ${capacity}\r\nX-RateLimit-Remaining: ${result.remaining}\r\nX-RateLimit-Reset: ${resetAt}`
    + `\r\nRateLimit-Policy: "${policyName}";q=${capacity};w=${windowSeconds}\r\nRateLimit: "${policyName}";r=${result.remaining};t=${result.resetSeconds}`;
}
