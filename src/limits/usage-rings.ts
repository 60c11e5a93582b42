// Per-key usage in one SharedArrayBuffer, so every worker thread adds to the same counts: the total,
// the last request and a ring of the last ten requests (route template, method, status, response
// time, timestamp). Never the key, never a query string. Pure arithmetic on injected values.

import { MAX_KEY_SLOTS } from "./token-buckets.js";

/** Recent requests kept per key. */
export const RECENT_REQUESTS = 10;

export const USAGE_METHODS = ["GET", "HEAD", "POST", "DELETE", "OTHER"] as const;
export type UsageMethod = (typeof USAGE_METHODS)[number];

export interface UsageEntry {
  readonly endpoint: string;
  readonly method: UsageMethod;
  readonly statusCode: number;
  /** Milliseconds, three decimals. */
  readonly responseTime: number;
  /** ISO 8601. */
  readonly timestamp: string;
}

export interface UsageSummary {
  readonly totalRequests: number;
  /** ISO 8601 of the last request, or null when there has been none. */
  readonly lastRequest: string | null;
  /** Newest first. */
  readonly recentRequests: readonly UsageEntry[];
}

/** Where requests are counted and usage is read: these rings, or (REDIS_URL) usage across replicas. */
export interface UsageSource {
  record(keySlot: number, route: string, method: string, status: number, ms: number, now: number): void;
  read(keySlot: number): UsageSummary | Promise<UsageSummary>;
}

// Float64 fields per slot: total, last timestamp, then (timestamp, ms) per ring entry.
const FLOATS = 2 + 2 * RECENT_REQUESTS;
const TOTAL = 0;
const LAST_AT = 1;
const RING_FLOATS = 2;
// Int32 fields per slot, after its floats: lock, owner (key slot + 1; 0 = unused), next ring
// position, then (route code << 8 | method code, status) per ring entry.
const INTS = 3 + 2 * RECENT_REQUESTS;
const LOCK = 0;
const OWNER = 1;
const NEXT = 2;
const RING_INTS = 3;
const UNLOCKED = 0;
const LOCKED = 1;
/** One slot's bytes, floats then ints, padded so the next slot's floats stay 8-byte aligned. */
const SLOT_BYTES = Math.ceil((FLOATS * 8 + INTS * 4) / 8) * 8;
const FLOAT_STRIDE = SLOT_BYTES / 8;
const INT_STRIDE = SLOT_BYTES / 4;

/**
 * Layout of `buffer` (a growable SharedArrayBuffer): SLOT_BYTES per key record, its Float64 fields
 * then its Int32 fields. A key's record index is its slot, and the buffer grows with the key store
 * (doubling, up to MAX_KEY_SLOTS), so no two keys ever share a ring.
 *
 * Route templates are stored as their index in `routes`, which every thread builds identically from
 * the same route table.
 */
export class UsageRings {
  readonly buffer: SharedArrayBuffer;
  readonly #floats: Float64Array;
  readonly #ints: Int32Array;
  readonly #listRoutes: () => readonly string[];
  #routes: readonly string[] | undefined;
  #routeCodes: Map<string, number> | undefined;

  static byteLength(slots: number): number {
    return slots * SLOT_BYTES;
  }

  /** A growable buffer of `slots` slots at first, for `new UsageRings(…, buffer)` in other threads. */
  static allocate(slots: number): SharedArrayBuffer {
    if (!Number.isSafeInteger(slots) || slots < 1 || slots > MAX_KEY_SLOTS) throw new RangeError(`slots must be a whole number from 1 to ${MAX_KEY_SLOTS}, got ${slots}`);
    return new SharedArrayBuffer(UsageRings.byteLength(slots), { maxByteLength: UsageRings.byteLength(MAX_KEY_SLOTS) });
  }

  /** `routes` is called once, on first use: the route table may be built after the rings (it holds the routes that read them). */
  constructor(slots: number, routes: () => readonly string[], buffer?: SharedArrayBuffer) {
    if (buffer !== undefined && (!buffer.growable || buffer.maxByteLength !== UsageRings.byteLength(MAX_KEY_SLOTS))) {
      throw new RangeError(`the shared buffer (${buffer.byteLength} of ${buffer.maxByteLength} bytes) was not made by UsageRings.allocate`);
    }
    this.buffer = buffer ?? UsageRings.allocate(slots);
    // Length-tracking views: they follow the buffer as any thread grows it.
    this.#floats = new Float64Array(this.buffer);
    this.#ints = new Int32Array(this.buffer);
    this.#listRoutes = routes;
  }

  /** Slots the buffer holds now. */
  get slots(): number {
    return this.buffer.byteLength / SLOT_BYTES;
  }

  #codes(): Map<string, number> {
    if (this.#routeCodes !== undefined) return this.#routeCodes;
    const routes = this.#listRoutes();
    if (routes.length > 0xffffff) throw new RangeError("too many routes for a 24-bit route code");
    this.#routes = routes;
    this.#routeCodes = new Map(routes.map((route, code) => [route, code]));
    return this.#routeCodes;
  }

  /** Adds one request of key `keySlot` (its KeyRegistry slot). `route` is a template from the table; anything else is not recorded. */
  record(keySlot: number, route: string, method: string, status: number, ms: number, now: number): void {
    const routeCode = this.#codes().get(route);
    if (routeCode === undefined || keySlot < 0 || keySlot >= MAX_KEY_SLOTS) return;
    if (keySlot >= this.slots) this.#grow(keySlot + 1);
    const floatAt = keySlot * FLOAT_STRIDE;
    const intAt = keySlot * INT_STRIDE + FLOATS * 2;
    this.#lock(intAt);
    if (this.#ints[intAt + OWNER] !== keySlot + 1) this.#takeOver(floatAt, intAt, keySlot);
    const position = this.#ints[intAt + NEXT] as number;
    this.#ints[intAt + NEXT] = (position + 1) % RECENT_REQUESTS;
    this.#ints[intAt + RING_INTS + 2 * position] = (routeCode << 8) | methodCode(method);
    this.#ints[intAt + RING_INTS + 2 * position + 1] = status;
    this.#floats[floatAt + RING_FLOATS + 2 * position] = now;
    this.#floats[floatAt + RING_FLOATS + 2 * position + 1] = ms;
    this.#floats[floatAt + TOTAL] = (this.#floats[floatAt + TOTAL] as number) + 1;
    this.#floats[floatAt + LAST_AT] = Math.max(this.#floats[floatAt + LAST_AT] as number, now);
    this.#unlock(intAt);
  }

  /** What key `keySlot` has done, newest request first. */
  read(keySlot: number): UsageSummary {
    if (keySlot < 0 || keySlot >= this.slots) return { totalRequests: 0, lastRequest: null, recentRequests: [] };
    const floatAt = keySlot * FLOAT_STRIDE;
    const intAt = keySlot * INT_STRIDE + FLOATS * 2;
    this.#lock(intAt);
    const isOwner = this.#ints[intAt + OWNER] === keySlot + 1;
    const total = isOwner ? (this.#floats[floatAt + TOTAL] as number) : 0;
    const lastAt = isOwner ? (this.#floats[floatAt + LAST_AT] as number) : 0;
    const raw: { code: number; status: number; at: number; ms: number }[] = [];
    const stored = Math.min(total, RECENT_REQUESTS);
    const next = this.#ints[intAt + NEXT] as number;
    for (let back = 1; back <= stored; back++) {
      const position = (next - back + RECENT_REQUESTS) % RECENT_REQUESTS;
      raw.push({
        code: this.#ints[intAt + RING_INTS + 2 * position] as number,
        status: this.#ints[intAt + RING_INTS + 2 * position + 1] as number,
        at: this.#floats[floatAt + RING_FLOATS + 2 * position] as number,
        ms: this.#floats[floatAt + RING_FLOATS + 2 * position + 1] as number,
      });
    }
    this.#unlock(intAt);
    this.#codes();
    return {
      totalRequests: total,
      lastRequest: total === 0 ? null : new Date(lastAt).toISOString(),
      recentRequests: raw.map(({ code, status, at, ms }) => ({
        endpoint: this.#routes?.[code >>> 8] ?? "(unknown)",
        method: USAGE_METHODS[code & 0xff] ?? "OTHER",
        statusCode: status,
        responseTime: Math.round(ms * 1000) / 1000,
        timestamp: new Date(at).toISOString(),
      })),
    };
  }

  /** At least `slots` slots: doubling, so a growing store grows the buffer rarely. New bytes are zero. */
  #grow(slots: number): void {
    const wanted = Math.min(MAX_KEY_SLOTS, Math.max(slots, this.slots * 2));
    try {
      this.buffer.grow(UsageRings.byteLength(wanted));
    } catch (error) {
      // Another thread grew it meanwhile, possibly further: fine as long as the slot is there now.
      if (this.slots < slots) throw error;
    }
  }

  /** A slot's first use (zeroed memory, owner 0): it becomes this key's. */
  #takeOver(floatAt: number, intAt: number, keySlot: number): void {
    this.#floats.fill(0, floatAt, floatAt + FLOATS);
    this.#ints.fill(0, intAt + NEXT, intAt + INTS);
    this.#ints[intAt + OWNER] = keySlot + 1;
  }

  // The token buckets' spin lock (see token-buckets.ts): a few stores that cannot throw.
  #lock(intAt: number): void {
    while (Atomics.compareExchange(this.#ints, intAt + LOCK, UNLOCKED, LOCKED) !== UNLOCKED) {
      // spin
    }
  }

  #unlock(intAt: number): void {
    Atomics.store(this.#ints, intAt + LOCK, UNLOCKED);
  }
}

function methodCode(method: string): number {
  switch (method) {
    case "GET": return 0;
    case "HEAD": return 1;
    case "POST": return 2;
    case "DELETE": return 3;
    default: return 4;
  }
}
