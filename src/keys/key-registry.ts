// The registry the server checks presented keys against: the active keys' digests by slot,
// kept current line by line from the keys file (KeyChanges says what changed, for the shared
// store). No clock reads.

import { createHash, timingSafeEqual } from "node:crypto";
import { unwatchFile, watchFile } from "node:fs";
import { KeyLog, type KeyLogChange, type KeyLogProblem, type KeyLogUpdate } from "./key-log.js";
import { isKeyShaped, type KeyInfo, type KeyRecord, type KeyRecordView, KeyStoreError, type KeyStoreFile, toKeyInfo } from "./key-records.js";

/** Verified keys remembered at most (each a ~40-byte string and a reference). */
const RECENT_KEYS_MAX = 4096;

interface RegistryEntry {
  readonly digest: Buffer;
  readonly view: KeyRecordView;
}

export interface KeyRegistryOptions {
  /** Told when a reload finds the file unreadable or corrupt; the registry then keeps the keys it had. */
  readonly onError?: (error: KeyStoreError) => void;
  /** Told of each line of the file that could not be applied as written (at construction and on reloads), once. */
  readonly onProblem?: (problem: KeyLogProblem) => void;
  /**
   * The server's key-change counter (see KeyChanges): its writer bumps it after every write, and
   * verify() re-reads the file when it moved, so the very next request on any thread sees the change.
   */
  readonly changes?: KeyChanges;
}

/**
 * A counter in shared memory that the server's one key writer bumps after each write it makes.
 * One Atomics.load per key check tells a thread whether its copy of the file is stale; writes by the
 * keys command (another process) are seen by the file watcher instead.
 */
export class KeyChanges {
  readonly buffer: SharedArrayBuffer;
  readonly #counter: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.buffer = buffer;
    this.#counter = new Int32Array(buffer, 0, 1);
  }

  current(): number {
    return Atomics.load(this.#counter, 0);
  }

  bump(): void {
    Atomics.add(this.#counter, 0, 1);
  }
}

/**
 * The server's view of the keys file: active keys by digest. Construction reads the file and throws
 * a KeyStoreError if it is corrupt (a boot error); later reloads never throw.
 */
export class KeyRegistry {
  readonly file: string;
  readonly #onError: ((error: KeyStoreError) => void) | undefined;
  readonly #onProblem: ((problem: KeyLogProblem) => void) | undefined;
  /** This thread's view of the keys file: reloads read only the lines appended since the last one. */
  readonly #log: KeyLog;
  #entriesByDigest: Map<string, RegistryEntry>;
  /**
   * Keys that verified since the file was last read, so a client's every request does not pay a
   * SHA-256 (~5 µs through node:crypto). Process memory only, never written; emptied whenever a
   * key is regenerated or revoked (so it stops matching with the file) and when full.
   */
  #recent = new Map<string, KeyRecordView>();
  #records: readonly KeyRecord[];
  readonly #changes: KeyChanges | undefined;
  #seenChange: number;
  #listener: (() => void) | undefined;
  #onWithdrawn: ((slots: readonly number[]) => void) | undefined;
  #catchUp: NodeJS.Timeout | undefined;

  constructor(file: string, options: KeyRegistryOptions = {}) {
    this.file = file;
    this.#onError = options.onError;
    this.#onProblem = options.onProblem;
    this.#changes = options.changes;
    this.#seenChange = this.#changes?.current() ?? 0;
    this.#log = new KeyLog(file);
    this.#report(this.#log.catchUp());
    this.#records = this.#log.records;
    this.#entriesByDigest = indexActiveKeys(this.#records);
  }

  /** The store being served (digests only), e.g. to seed a Redis that lost it. */
  get store(): KeyStoreFile {
    return { version: 1, keys: [...this.#records] };
  }

  /** Records in the file, revoked included: every slot verify can return is below this. */
  get slotCount(): number {
    return this.#records.length;
  }

  /** The record behind a slot verify returned (no digest), for the holder's own dashboard. */
  info(slot: number): KeyInfo | undefined {
    const record = this.#records[slot];
    return record === undefined ? undefined : toKeyInfo(record);
  }

  /** The active key's id, token-bucket slot and rate limit; undefined for anything else. */
  verify(key: string): KeyRecordView | undefined {
    if (this.#changes !== undefined && this.#changes.current() !== this.#seenChange) this.reload();
    // An exact match of a key already verified: a miss says nothing a 401 would not.
    const recent = this.#recent.get(key);
    if (recent !== undefined) return recent;
    // Shape first: garbage (and oversized headers) are refused without spending a hash on them.
    if (!isKeyShaped(key)) return undefined;
    const digest = createHash("sha256").update(key, "utf8").digest();
    // The Map lookup is keyed by the digest, not the key, so its timing says nothing useful about the
    // key (finding a near-miss digest would need a SHA-256 preimage). The constant-time compare is the
    // final word on the bytes, so a lookup bug can never turn into accepting a different key.
    const entry = this.#entriesByDigest.get(digest.toString("hex"));
    if (entry === undefined || !timingSafeEqual(digest, entry.digest)) return undefined;
    if (this.#recent.size >= RECENT_KEYS_MAX) this.#recent.clear();
    this.#recent.set(key, entry.view);
    return entry.view;
  }

  /**
   * Brings the keys up to the file: the lines appended since the last reload are applied one by one
   * (a whole read only after a compaction or a replaced file). On a read or parse failure keeps the
   * current keys, reports, and returns false.
   */
  reload(): boolean {
    // Taken before the read: a write landing during it bumps the counter again and is read next time.
    if (this.#changes !== undefined) this.#seenChange = this.#changes.current();
    let update: KeyLogUpdate;
    try {
      update = this.#log.catchUp();
    } catch (error) {
      const reported = error instanceof KeyStoreError ? error : new KeyStoreError(`${this.file}: ${describe(error)}`);
      this.#onError?.(reported);
      return false;
    }
    this.#report(update);
    if (update.kind === "replaced") this.#serve(this.#log.records);
    else this.#applyChanges(update.changes);
    return true;
  }

  #report(update: KeyLogUpdate): void {
    for (const problem of update.problems) this.#onProblem?.(problem);
  }

  /**
   * Serves `store` from now on (a copy from Redis's change feed). The verified-key memo is emptied
   * with it, so a revoked or regenerated key stops matching at once.
   */
  replace(store: KeyStoreFile): void {
    this.#serve(store.keys);
  }

  #serve(records: readonly KeyRecord[]): void {
    const before = this.#records;
    const withdrawn: number[] = [];
    if (this.#onWithdrawn !== undefined) {
      before.forEach((old, slot) => {
        const now = records[slot];
        if (old.revokedAt === undefined && (now === undefined || now.revokedAt !== undefined || now.digest !== old.digest)) withdrawn.push(slot);
      });
    }
    this.#records = records;
    this.#entriesByDigest = indexActiveKeys(records);
    this.#recent = new Map();
    if (withdrawn.length > 0) this.#onWithdrawn?.(withdrawn);
  }

  /** One line's worth of work per change: the old digest out, the new one in. */
  #applyChanges(changes: readonly KeyLogChange[]): void {
    let isKeyWithdrawn = false;
    const withdrawn: number[] = [];
    for (const { slot, before, after } of changes) {
      if (before !== undefined) {
        isKeyWithdrawn = true;
        if (before.revokedAt === undefined) {
          this.#entriesByDigest.delete(before.digest);
          withdrawn.push(slot);
        }
      }
      if (after.revokedAt === undefined) this.#entriesByDigest.set(after.digest, entryOf(after, slot));
    }
    // The log's array, updated in place; a Redis copy served before is left behind.
    this.#records = this.#log.records;
    if (isKeyWithdrawn) this.#recent = new Map();
    if (withdrawn.length > 0) this.#onWithdrawn?.(withdrawn);
  }

  /**
   * Reloads whenever the file changes, so a regenerated or revoked key is refused within a second.
   * Polling (fs.watchFile) rather than fs.watch: the command replaces the file by rename, which
   * fs.watch loses track of on some platforms, while a poll simply sees a new inode and mtime.
   * The poller does not keep the process alive.
   */
  watch(intervalMs = 250): void {
    if (this.#listener !== undefined) return;
    const listener = (): void => {
      this.reload();
    };
    this.#listener = listener;
    watchFile(this.file, { interval: intervalMs, persistent: false }, listener);
    // The poller takes its baseline stat asynchronously, so a change landing between the last read
    // and that stat would go unnoticed until the next one. One catch-up reload closes that gap.
    this.#catchUp = setTimeout(listener, intervalMs);
    this.#catchUp.unref();
  }

  /**
   * Told of the slots whose active key stopped being valid (revoked, or regenerated: a new key in
   * the same slot), after the registry refuses them: from the file (watch, the key-change counter)
   * and from Redis's change feed alike. The live sockets opened with those keys are closed by it.
   */
  onKeysWithdrawn(listener: (slots: readonly number[]) => void): void {
    this.#onWithdrawn = listener;
  }

  /** Stops watching; never keeps the process alive either way. */
  close(): void {
    if (this.#catchUp !== undefined) clearTimeout(this.#catchUp);
    this.#catchUp = undefined;
    if (this.#listener === undefined) return;
    unwatchFile(this.file, this.#listener);
    this.#listener = undefined;
  }
}

function indexActiveKeys(records: readonly KeyRecord[]): Map<string, RegistryEntry> {
  const entries = new Map<string, RegistryEntry>();
  records.forEach((record, slot) => {
    if (record.revokedAt === undefined) entries.set(record.digest, entryOf(record, slot));
  });
  return entries;
}

function entryOf(record: KeyRecord, slot: number): RegistryEntry {
  return { digest: Buffer.from(record.digest, "hex"), view: Object.freeze({ id: record.id, slot, rateLimit: record.rateLimit }) };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
