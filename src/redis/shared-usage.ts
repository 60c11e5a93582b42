// Per-key usage shared by every replica through Redis (REDIS_URL): the total, the last request and
// the last ten requests. Requests are counted in this replica's shared-memory rings as without
// Redis, and queued here; every FLUSH_MS the queue goes to Redis in one pipeline (never a round
// trip per request). While Redis is unreachable the queue keeps the count and the newest ten, and
// is written when it is back: nothing is lost. Reads come from Redis plus what is still queued.

import type { Redis } from "ioredis";
import { RECENT_REQUESTS, USAGE_METHODS, type UsageEntry, type UsageRings, type UsageSummary } from "../limits/usage-rings.js";
import { REDIS_PREFIX, type RedisLink } from "./link.js";

/** How often the queued usage goes to Redis. */
export const FLUSH_MS = 250;

interface Queued {
  count: number;
  lastAt: number;
  /** Oldest first, at most RECENT_REQUESTS. */
  entries: { route: string; method: string; status: number; ms: number; at: number }[];
}

export function usageKey(id: string): string {
  return `${REDIS_PREFIX}usage:${id}`;
}

function recentKey(id: string): string {
  return `${REDIS_PREFIX}usage:${id}:recent`;
}

function toEntry(entry: Queued["entries"][number]): UsageEntry {
  const method = (USAGE_METHODS as readonly string[]).includes(entry.method) ? entry.method as UsageEntry["method"] : "OTHER";
  return { endpoint: entry.route, method, statusCode: entry.status, responseTime: Math.round(entry.ms * 1000) / 1000, timestamp: new Date(entry.at).toISOString() };
}

export class RedisUsage {
  #queued = new Map<number, Queued>();
  #isFlushing = false;
  readonly #timer: NodeJS.Timeout;

  /** `idOf` names the key of a registry slot (usage is kept by key id, which a regenerated key keeps). */
  constructor(private readonly link: RedisLink, private readonly rings: UsageRings, private readonly idOf: (slot: number) => string | undefined) {
    this.#timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.#timer.unref();
  }

  record(keySlot: number, route: string, method: string, status: number, ms: number, now: number): void {
    this.rings.record(keySlot, route, method, status, ms, now);
    let queued = this.#queued.get(keySlot);
    if (queued === undefined) {
      queued = { count: 0, lastAt: 0, entries: [] };
      this.#queued.set(keySlot, queued);
    }
    queued.count += 1;
    queued.lastAt = Math.max(queued.lastAt, now);
    queued.entries.push({ route, method, status, ms, at: now });
    if (queued.entries.length > RECENT_REQUESTS) queued.entries.shift();
  }

  /** Usage across every replica: Redis, plus what this thread has not written yet. This replica's own rings while Redis is away. */
  read(keySlot: number): UsageSummary | Promise<UsageSummary> {
    const id = this.idOf(keySlot);
    if (!this.link.isShared || id === undefined) return this.rings.read(keySlot);
    const client: Redis = this.link.client;
    return client.multi().hmget(usageKey(id), "total", "last").lrange(recentKey(id), 0, RECENT_REQUESTS - 1).exec().then(
      (replies) => {
        const [totalText, lastText] = (replies?.[0]?.[1] ?? []) as (string | null)[];
        const stored = ((replies?.[1]?.[1] ?? []) as string[]).map((text) => JSON.parse(text) as UsageEntry);
        const queued = this.#queued.get(keySlot);
        const total = Number(totalText ?? 0) + (queued?.count ?? 0);
        const lastAt = Math.max(lastText === null || lastText === undefined ? 0 : Number(lastText), queued?.lastAt ?? 0);
        const recent = [...(queued?.entries ?? []).map(toEntry).reverse(), ...stored].slice(0, RECENT_REQUESTS);
        return { totalRequests: total, lastRequest: total === 0 ? null : new Date(lastAt).toISOString(), recentRequests: recent };
      },
      (error: unknown) => {
        this.link.reportFailure(error);
        return this.rings.read(keySlot);
      },
    );
  }

  /** Writes everything queued in one pipeline; on failure it stays queued (merged with what came meanwhile). */
  async flush(): Promise<void> {
    if (this.#isFlushing || this.#queued.size === 0 || !this.link.isShared) return;
    this.#isFlushing = true;
    const batch = this.#queued;
    this.#queued = new Map();
    try {
      const pipeline = this.link.client.multi();
      for (const [slot, queued] of batch) {
        const id = this.idOf(slot);
        if (id === undefined) continue;
        pipeline.hincrby(usageKey(id), "total", queued.count);
        // A little Lua would keep the maximum; replicas' clocks are close enough for "last request".
        pipeline.hset(usageKey(id), "last", queued.lastAt);
        // Oldest first, each pushed to the head: the newest ends first.
        pipeline.lpush(recentKey(id), ...queued.entries.map((entry) => JSON.stringify(toEntry(entry))));
        pipeline.ltrim(recentKey(id), 0, RECENT_REQUESTS - 1);
      }
      await pipeline.exec();
    } catch (error) {
      this.link.reportFailure(error);
      for (const [slot, queued] of batch) this.#requeue(slot, queued);
    } finally {
      this.#isFlushing = false;
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }

  #requeue(slot: number, older: Queued): void {
    const newer = this.#queued.get(slot);
    if (newer === undefined) {
      this.#queued.set(slot, older);
      return;
    }
    newer.count += older.count;
    newer.lastAt = Math.max(newer.lastAt, older.lastAt);
    newer.entries = [...older.entries, ...newer.entries].slice(-RECENT_REQUESTS);
  }
}
