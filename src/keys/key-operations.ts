// The key operations the keys command and the server run: create, regenerate, revoke, list and
// the demo key, each on a store given whole (with*: Redis's) or on the keys file (a catch-up,
// check and one appended line under the file's lock). No clock reads: callers pass the time.

import { randomBytes } from "node:crypto";
import { hasUnprintable } from "../text/printable.js";
import { KeyLog, type KeyLogEntry } from "./key-log.js";
import { DEFAULT_RATE_LIMIT, DEMO_EMAIL, digestKey, generateKey, isEmailShaped, type IssuedKey, KEY_BODY_LENGTH, KEY_PREFIX, isKeyShaped, type KeyInfo, type KeyLookup, type KeyRecord, KeyStoreError, type KeyStoreFile, mailboxOf, MAX_ACTIVE_KEYS_PER_EMAIL, MAX_KEY_RECORDS, toKeyInfo } from "./key-records.js";
import { readKeyStore, withKeysFileLock } from "./key-file.js";

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
  if (!isEmailShaped(email)) throw new KeyStoreError(`"${options.email}" is not an e-mail address`, "invalid");
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

function findActive(where: string, lookup: KeyLookup, key: string): { index: number; record: KeyRecord } {
  if (!isKeyShaped(key)) throw new KeyStoreError(`that is not a key: keys look like ${KEY_PREFIX} followed by ${KEY_BODY_LENGTH} lower-case letters and digits`, "invalid");
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
