// API keys at rest: the keys file (an append-only log of SHA-256 digests, never a key; its format is
// key-log.ts's), the operations the keys command and the server run on it (each a catch-up, check
// and one appended line under the keys file's lock), and the registry the server checks presented
// keys against, kept current line by line. No clock reads.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, openSync, readFileSync, statSync, unlinkSync, unwatchFile, watchFile, writeSync } from "node:fs";
import { hasUnprintable } from "../ops/printable.js";
import { KeyLog, type KeyLogChange, type KeyLogEntry, type KeyLogProblem, type KeyLogUpdate } from "./key-log.js";

/**
 * Why a key operation was refused, so callers can answer without parsing messages: `invalid` (bad
 * input), `limit` (a fourth active key for one e-mail), `unknown-key` / `revoked` (the key given is
 * not an active key), `store` (the file cannot be read, written or locked), `unavailable` (the
 * shared store, Redis, is unreachable: nothing was written, retry later).
 */
export type KeyStoreFailure = "invalid" | "limit" | "unknown-key" | "revoked" | "store" | "unavailable" | "full";

/**
 * Key records a store holds at most (revoked ones keep theirs: a record's index is its rate-limit
 * slot for good): the token buckets, usage rings and live-connection caps are sized for this many
 * (MAX_KEY_SLOTS in src/http/token-buckets.ts, kept free of imports for its worker tests; a test
 * checks the two agree).
 */
export const MAX_KEY_RECORDS = 1 << 22;

/** Everything that can go wrong with the keys file or a key operation, in words for the operator. */
export class KeyStoreError extends Error {
  override readonly name = "KeyStoreError";
  constructor(message: string, readonly failure: KeyStoreFailure = "store") {
    super(message);
  }
}

/** One key as stored. `digest` is the SHA-256 (hex) of the key; the key itself is never written. */
export interface KeyRecord {
  readonly id: string;
  readonly digest: string;
  readonly email: string;
  readonly name?: string;
  /** What the holder said the key is for (registration's optional `purpose`). */
  readonly purpose?: string;
  readonly rateLimit: number;
  readonly createdAt: string;
  readonly revokedAt?: string;
  readonly regeneratedAt?: string;
}

/** A record as shown to people and the command's output: no digest, so nothing can leak it. */
export type KeyInfo = Omit<KeyRecord, "digest">;

export interface KeyStoreFile {
  readonly version: 1;
  readonly keys: readonly KeyRecord[];
}

/** What a freshly created or regenerated key comes back as: the key (shown once) and its record. */
export interface IssuedKey {
  readonly key: string;
  readonly record: KeyInfo;
}

/** What the server needs per request: who (id), which token bucket (slot), and its capacity. */
export interface KeyRecordView {
  readonly id: string;
  readonly slot: number;
  readonly rateLimit: number;
}

export const KEY_PREFIX = "2k_";
export const KEY_BODY_LENGTH = 32;
export const MAX_ACTIVE_KEYS_PER_EMAIL = 3;
export const DEFAULT_RATE_LIMIT = 500;
export const DEMO_EMAIL = "demo@courtside.local";

const KEY_SHAPE = /^2k_[a-z0-9]{32}$/;
const ID_SHAPE = /^k_[0-9a-f]{8}$/;
const DIGEST_SHAPE = /^[0-9a-f]{64}$/;
// Loose on purpose: catches typos like a missing "@" or domain without refusing unusual addresses.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Mail providers known to ignore dots in the local part. */
const DOTLESS_DOMAINS: ReadonlyMap<string, string> = new Map([["gmail.com", "gmail.com"], ["googlemail.com", "gmail.com"]]);

/**
 * The mailbox an e-mail address reaches, for the per-e-mail key limit: case folded, a trailing dot
 * of the domain dropped, a `+tag` dropped (every provider that delivers plus-addresses ignores the
 * tag; stricter, never laxer, elsewhere), and for Gmail the dots of the local part and googlemail.com.
 */
export function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf("@");
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1).replace(/\.+$/, "");
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS.get(domain);
  if (dotless !== undefined) {
    local = local.replace(/\./g, "");
    domain = dotless;
  }
  return `${local}@${domain}`;
}
const KEY_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
// 252 = 7 × 36: bytes at or above it are dropped so every symbol is equally likely (no modulo bias).
const UNBIASED_BYTE_LIMIT = Math.floor(256 / KEY_ALPHABET.length) * KEY_ALPHABET.length;

/** `2k_` + 32 symbols of [a-z0-9], each drawn uniformly from the CSPRNG (≈165 bits). */
export function generateKey(): string {
  let body = "";
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(KEY_BODY_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      body += KEY_ALPHABET[byte % KEY_ALPHABET.length];
      if (body.length === KEY_BODY_LENGTH) break;
    }
  }
  return KEY_PREFIX + body;
}

export function isKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}

export function digestKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * Reads the keys file (the log, or a file of the earlier single-document format). A missing file is
 * an empty store; anything unreadable or malformed is a KeyStoreError naming it.
 */
export function readKeyStore(file: string): KeyStoreFile {
  const log = new KeyLog(file);
  log.catchUp();
  return { version: 1, keys: log.records };
}

/**
 * Writes `store` as the whole keys file, atomically (see KeyLog: a temporary file renamed over the
 * old one), mode 0600. Key operations append instead; this is for a store given whole.
 */
export function writeKeyStore(file: string, store: KeyStoreFile): void {
  new KeyLog(file).replaceWith(store.keys);
}

/** A writer waits this long for another writer's lock before giving up. */
const LOCK_WAIT_MS = 5_000;
/** A lock older than this was left by a writer that died mid-operation (one takes milliseconds). */
const LOCK_STALE_MS = 10_000;
const LOCK_RETRY_MS = 5;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs one read-modify-write of the keys file under `<file>.lock`, created exclusively (O_EXCL), so
 * the keys command and a running server never interleave: neither loses the other's key. Within
 * the server one thread does every write (the supervisor, or the only thread), so the lock only
 * ever separates processes. A lock whose holder has died, or that is older than ten seconds, is
 * broken. Synchronous: holders keep it for a file read and write, a few milliseconds.
 */
export function withKeysFileLock<T>(file: string, operation: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lock, "wx", 0o600);
    } catch (error) {
      if (!isErrnoException(error) || error.code !== "EEXIST") throw new KeyStoreError(`${lock}: cannot take the keys file's lock (${describe(error)})`);
      if (isStaleLock(lock)) {
        try {
          unlinkSync(lock);
        } catch {
          // Another writer broke it first.
        }
        continue;
      }
      if (Date.now() > deadline) throw new KeyStoreError(`${lock}: another writer has held the keys file's lock for over ${LOCK_WAIT_MS / 1000} s; if none is running, delete the lock file`);
      // Atomics.wait as a plain sleep: this path is taken only while another process writes.
      Atomics.wait(sleeper, 0, 0, LOCK_RETRY_MS);
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return operation();
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // Broken as stale by another writer after a long pause of ours; nothing left to release.
      }
    }
  }
}

function isStaleLock(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, "utf8").trim());
    if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) return true;
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: the holder is gone. ENOENT: released meanwhile (retrying is right either way).
    return isErrnoException(error) && (error.code === "ESRCH" || error.code === "ENOENT");
  }
}

export interface CreateKeyOptions {
  readonly email: string;
  readonly name?: string | undefined;
  readonly purpose?: string | undefined;
  readonly rateLimit?: number | undefined;
  readonly now: Date;
}

/** A key-store change: the store to write and what to tell the caller. */
export interface KeyChange<T> {
  readonly store: KeyStoreFile;
  readonly result: T;
}

/**
 * What the key rules ask of a store: the active ids of a mailbox, whether an id is taken, and which
 * record holds a digest. The keys file's KeyLog answers from indexes; a store given whole (Redis's
 * document) by scanning it.
 */
export interface KeyLookup {
  readonly records: readonly KeyRecord[];
  activeIdsFor(mailbox: string): readonly string[];
  hasId(id: string): boolean;
  slotOfDigest(digest: string): number | undefined;
}

function scanLookup(store: KeyStoreFile): KeyLookup {
  return {
    records: store.keys,
    activeIdsFor: (mailbox) => store.keys.filter((record) => record.revokedAt === undefined && mailboxOf(record.email) === mailbox).map((record) => record.id),
    hasId: (id) => store.keys.some((record) => record.id === id),
    slotOfDigest: (digest) => {
      const slot = store.keys.findIndex((record) => record.digest === digest);
      return slot < 0 ? undefined : slot;
    },
  };
}

/** A new key for `email` and its record; refuses a fourth active key for the same mailbox. */
function issueNewKey(lookup: KeyLookup, options: CreateKeyOptions): { key: string; record: KeyRecord } {
  const email = options.email.trim();
  for (const [field, text] of [["email", options.email], ["name", options.name ?? ""], ["purpose", options.purpose ?? ""]] as const) {
    if (hasUnprintable(text)) throw new KeyStoreError(`the ${field} contains a control or invisible character`, "invalid");
  }
  if (!EMAIL_SHAPE.test(email)) throw new KeyStoreError(`"${options.email}" is not an e-mail address`, "invalid");
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (!Number.isSafeInteger(rateLimit) || rateLimit < 1) {
    throw new KeyStoreError(`rate limit ${rateLimit} is not a positive whole number of requests per hour`, "invalid");
  }
  if (lookup.records.length >= MAX_KEY_RECORDS) {
    throw new KeyStoreError(`the key store holds ${MAX_KEY_RECORDS} key records, the most it can (revoked keys keep theirs); no key can be created`, "full");
  }
  const name = options.name?.trim();
  const purpose = options.purpose?.trim();
  const activeForEmail = lookup.activeIdsFor(mailboxOf(email));
  if (activeForEmail.length >= MAX_ACTIVE_KEYS_PER_EMAIL) {
    throw new KeyStoreError(
      `${email} already has ${MAX_ACTIVE_KEYS_PER_EMAIL} active keys (${activeForEmail.join(", ")}), ` +
        `the most one e-mail address may hold; revoke one first`,
      "limit",
    );
  }
  const key = generateKey();
  const record: KeyRecord = {
    id: newRecordId(lookup),
    digest: digestKey(key),
    email,
    ...(name === undefined || name === "" ? {} : { name }),
    ...(purpose === undefined || purpose === "" ? {} : { purpose }),
    rateLimit,
    createdAt: options.now.toISOString(),
  };
  return { key, record };
}

/**
 * The key operations as pure functions of a store, so the keys file and Redis (REDIS_URL) apply
 * the same rules. `where` names the store in error messages (the file, or Redis).
 * Creates a key for `email`; refuses a fourth active key for the same address (compared lower-case).
 */
export function withNewKey(store: KeyStoreFile, options: CreateKeyOptions): KeyChange<IssuedKey> {
  const { key, record } = issueNewKey(scanLookup(store), options);
  // Appended, never inserted: a record's index is its rate-limit slot and must not move.
  return { store: { version: 1, keys: [...store.keys, record] }, result: { key, record: toKeyInfo(record) } };
}

/**
 * Replaces an active key by a new one under the same record id, so its rate-limit slot and history
 * stay with the holder. Only the digest changes, so the old key stops matching at once.
 */
export function withRegeneratedKey(store: KeyStoreFile, where: string, options: KeyOperationOptions): KeyChange<IssuedKey> {
  const { index, record: old } = findActive(where, scanLookup(store), options.key);
  const key = generateKey();
  const record: KeyRecord = { ...old, digest: digestKey(key), regeneratedAt: options.now.toISOString() };
  return { store: { version: 1, keys: store.keys.map((other, i) => (i === index ? record : other)) }, result: { key, record: toKeyInfo(record) } };
}

/** Marks an active key revoked. The record stays (its slot must not be reused by a later key). */
export function withRevokedKey(store: KeyStoreFile, where: string, options: KeyOperationOptions): KeyChange<KeyInfo> {
  const { index, record: old } = findActive(where, scanLookup(store), options.key);
  const record: KeyRecord = { ...old, revokedAt: options.now.toISOString() };
  return { store: { version: 1, keys: store.keys.map((other, i) => (i === index ? record : other)) }, result: toKeyInfo(record) };
}

/** withNewKey on the keys file, under its lock. */
export function createKey(file: string, options: CreateKeyOptions, log?: KeyLog): IssuedKey {
  return applyToFile(file, log, (current) => {
    const { key, record } = issueNewKey(current, options);
    return { entry: { op: "create", record }, result: { key, record: toKeyInfo(record) } };
  });
}

/** Every record in file order (the order of their rate-limit slots), revoked ones included. */
export function listKeys(file: string): KeyInfo[] {
  return readKeyStore(file).keys.map(toKeyInfo);
}

export interface KeyOperationOptions {
  readonly key: string;
  readonly now: Date;
}

/** withRegeneratedKey on the keys file, under its lock. */
export function regenerateKey(file: string, options: KeyOperationOptions, log?: KeyLog): IssuedKey {
  return applyToFile(file, log, (current) => {
    const { record: old } = findActive(file, current, options.key);
    const key = generateKey();
    const record: KeyRecord = { ...old, digest: digestKey(key), regeneratedAt: options.now.toISOString() };
    return { entry: { op: "regenerate", record }, result: { key, record: toKeyInfo(record) } };
  });
}

/** withRevokedKey on the keys file, under its lock. */
export function revokeKey(file: string, options: KeyOperationOptions, log?: KeyLog): KeyInfo {
  return applyToFile(file, log, (current) => {
    const { record: old } = findActive(file, current, options.key);
    const record: KeyRecord = { ...old, revokedAt: options.now.toISOString() };
    return { entry: { op: "revoke", record }, result: toKeyInfo(record) };
  });
}

/**
 * One change of the keys file under its lock: `log` (the server writer's long-lived view, or a
 * fresh one for the keys command) catches up with the lines other writers appended, the change is
 * checked against it, and one line is appended (or the store rewritten, see KeyLog.write).
 */
function applyToFile<T>(file: string, log: KeyLog | undefined, change: (current: KeyLog) => { entry: KeyLogEntry; result: T }): T {
  return withKeysFileLock(file, () => {
    const current = log ?? new KeyLog(file);
    current.catchUp();
    const { entry, result } = change(current);
    current.write(entry);
    return result;
  });
}

/**
 * For `npm start`: when the file holds no active key, creates one for the demo address so a
 * first run is usable, and returns it to be printed once. Otherwise returns undefined.
 */
export function ensureDemoKey(file: string, now: Date): IssuedKey | undefined {
  if (readKeyStore(file).keys.some((record) => record.revokedAt === undefined)) return undefined;
  return createKey(file, { email: DEMO_EMAIL, name: "demo", now });
}

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
    if (!KEY_SHAPE.test(key)) return undefined;
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
    this.#records = records;
    this.#entriesByDigest = indexActiveKeys(records);
    this.#recent = new Map();
  }

  /** One line's worth of work per change: the old digest out, the new one in. */
  #applyChanges(changes: readonly KeyLogChange[]): void {
    let isKeyWithdrawn = false;
    for (const { slot, before, after } of changes) {
      if (before !== undefined) {
        isKeyWithdrawn = true;
        if (before.revokedAt === undefined) this.#entriesByDigest.delete(before.digest);
      }
      if (after.revokedAt === undefined) this.#entriesByDigest.set(after.digest, entryOf(after, slot));
    }
    // The log's array, updated in place; a Redis copy served before is left behind.
    this.#records = this.#log.records;
    if (isKeyWithdrawn) this.#recent = new Map();
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

function findActive(where: string, lookup: KeyLookup, key: string): { index: number; record: KeyRecord } {
  if (!KEY_SHAPE.test(key)) throw new KeyStoreError(`that is not a key: keys look like ${KEY_PREFIX} followed by ${KEY_BODY_LENGTH} lower-case letters and digits`, "invalid");
  const index = lookup.slotOfDigest(digestKey(key)) ?? -1;
  const record = lookup.records[index];
  if (record === undefined) throw new KeyStoreError(`no key in ${where} matches the key given (it may have been regenerated)`, "unknown-key");
  if (record.revokedAt !== undefined) throw new KeyStoreError(`key ${record.id} was revoked at ${record.revokedAt}`, "revoked");
  return { index, record };
}

function newRecordId(lookup: KeyLookup): string {
  for (;;) {
    const id = `k_${randomBytes(4).toString("hex")}`;
    if (!lookup.hasId(id)) return id;
  }
}

export function toKeyInfo(record: KeyRecord): KeyInfo {
  const { digest: _digest, ...info } = record;
  return info;
}

/** Checks a parsed store (Redis's document, or today's earlier file format) field by field so a hand edit gone wrong is named, not half-loaded. */
export function validateKeyStore(file: string, parsed: unknown): KeyStoreFile {
  const fail = (reason: string): never => {
    throw new KeyStoreError(`${file}: corrupt keys file: ${reason}`);
  };
  if (!isObject(parsed)) return fail("expected a JSON object");
  if (parsed["version"] !== 1) return fail(`unknown version ${JSON.stringify(parsed["version"])} (expected 1)`);
  const keys = parsed["keys"];
  if (!Array.isArray(keys)) return fail(`"keys" is not an array`);
  const seenIds = new Set<string>();
  const records = keys.map((raw: unknown, i): KeyRecord => {
    const record = validateKeyRecord(file, `keys[${i}]`, raw);
    if (seenIds.has(record.id)) return fail(`keys[${i}].id ${record.id} appears twice`);
    seenIds.add(record.id);
    return record;
  });
  return { version: 1, keys: records };
}

/** One record checked field by field; `at` names it in the message (`keys[3]`, `line 7.record`). */
export function validateKeyRecord(file: string, at: string, raw: unknown): KeyRecord {
  const fail = (reason: string): never => {
    throw new KeyStoreError(`${file}: corrupt keys file: ${reason}`);
  };
  if (!isObject(raw)) return fail(`${at} is not an object`);
  const { id, digest, email, name, purpose, rateLimit, createdAt, revokedAt, regeneratedAt } = raw;
  if (typeof id !== "string" || !ID_SHAPE.test(id)) return fail(`${at}.id is not k_ followed by 8 hex digits`);
  if (typeof digest !== "string" || !DIGEST_SHAPE.test(digest)) return fail(`${at}.digest is not a SHA-256 hex digest`);
  if (typeof email !== "string" || email === "") return fail(`${at}.email is missing`);
  if (name !== undefined && typeof name !== "string") return fail(`${at}.name is not a string`);
  if (purpose !== undefined && typeof purpose !== "string") return fail(`${at}.purpose is not a string`);
  if (typeof rateLimit !== "number" || !Number.isSafeInteger(rateLimit) || rateLimit < 1) return fail(`${at}.rateLimit is not a positive integer`);
  if (!isTimestamp(createdAt)) return fail(`${at}.createdAt is not an ISO timestamp`);
  if (revokedAt !== undefined && !isTimestamp(revokedAt)) return fail(`${at}.revokedAt is not an ISO timestamp`);
  if (regeneratedAt !== undefined && !isTimestamp(regeneratedAt)) return fail(`${at}.regeneratedAt is not an ISO timestamp`);
  return {
    id,
    digest,
    email,
    ...(name === undefined ? {} : { name }),
    ...(purpose === undefined ? {} : { purpose }),
    rateLimit,
    createdAt,
    ...(revokedAt === undefined ? {} : { revokedAt }),
    ...(regeneratedAt === undefined ? {} : { regeneratedAt }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTimestamp(value: unknown): value is string {
  return typeof value === "string" && !Number.isNaN(Date.parse(value));
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
