// API key records and their validation: what a key looks like and how it is digested (the key
// itself is never stored), a record as stored and as shown, the keys file's document as a whole,
// and the one error type of the keys module (KeyStoreError, with the failure a caller answers).

import { createHash, randomBytes } from "node:crypto";

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
 * (MAX_KEY_SLOTS in src/limits/token-buckets.ts, kept free of imports for its worker tests; a test
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
/**
 * Loose on purpose: catches typos like a missing "@" or domain without refusing unusual addresses:
 * one "@", no whitespace, and a dot in the domain with a character before and after it. Written so
 * that it runs in linear time (test/http/linear-patterns.test.ts): the domain's first character,
 * then no dot up to its first dot after that, never two ways to split one address (the former
 * `[^\s@]+\.[^\s@]+` domain backtracked quadratically over a run of dots). The same addresses.
 * POST /api/register's schema uses it (after its length check).
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

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
  let domain = lower.slice(at + 1);
  // Trailing dots dropped by a loop: `/\.+$/` would backtrack quadratically over a run of dots.
  let end = domain.length;
  while (end > 0 && domain.charCodeAt(end - 1) === 0x2e /* . */) end--;
  domain = domain.slice(0, end);
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

/** Whether `text` looks like an e-mail address (one `@`, a dot in the domain, no spaces). */
export function isEmailShaped(text: string): boolean {
  return EMAIL_SHAPE.test(text);
}

export function isKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}

export function digestKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
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
