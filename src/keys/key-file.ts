// The keys file at rest: read whole, written whole (atomically, through KeyLog), and the lock
// file every writer takes around a catch-up, check and append. The log's line format is
// key-log.ts's.

import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { KeyLog } from "./key-log.js";
import { KeyStoreError, type KeyStoreFile } from "./key-records.js";

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

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
