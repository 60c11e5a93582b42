// The server's write path for keys (register, regenerate, revoke) behind one small asynchronous
// interface, so where writes happen can change without the routes noticing: in-process (one
// thread), through the supervisor (worker threads), or a shared store later. Outcomes are plain
// data (they cross thread boundaries by structured clone); nothing here throws for a refusal.

import { KeyLog } from "./key-log.js";
import { KeyStoreError, type KeyInfo, type KeyStoreFailure } from "./key-records.js";
import { createKey, regenerateKey, revokeKey } from "./key-operations.js";
import { KeyChanges } from "./key-registry.js";

export type KeyOperation =
  | { readonly kind: "register"; readonly email: string; readonly name: string; readonly purpose?: string; readonly now: string }
  | { readonly kind: "regenerate"; readonly key: string; readonly now: string }
  | { readonly kind: "revoke"; readonly key: string; readonly now: string };

export type KeyOutcome =
  | { readonly kind: "issued"; readonly key: string; readonly record: KeyInfo }
  | { readonly kind: "revoked"; readonly record: KeyInfo }
  | { readonly kind: "refused"; readonly failure: KeyStoreFailure; readonly message: string };

export interface KeyWriter {
  /** Resolves once the change is durable and every thread's next key check sees it; never rejects. */
  apply(operation: KeyOperation): Promise<KeyOutcome>;
}

/**
 * Runs one operation on the keys file (under its lock) and bumps `changes`, so every thread's
 * next key check reads the line it appended. Synchronous: the caller is the server's only writer
 * thread, which therefore serialises concurrent requests by running them one after another.
 * `log` is that thread's long-lived view of the file, so a write reads only what other writers
 * (the keys command) appended since its last one.
 */
export function applyKeyOperation(file: string, operation: KeyOperation, changes: KeyChanges, log: KeyLog = new KeyLog(file)): KeyOutcome {
  try {
    const now = new Date(operation.now);
    switch (operation.kind) {
      case "register": {
        const issued = createKey(file, { email: operation.email, name: operation.name, purpose: operation.purpose, now }, log);
        return { kind: "issued", key: issued.key, record: issued.record };
      }
      case "regenerate": {
        const issued = regenerateKey(file, { key: operation.key, now }, log);
        return { kind: "issued", key: issued.key, record: issued.record };
      }
      case "revoke":
        return { kind: "revoked", record: revokeKey(file, { key: operation.key, now }, log) };
    }
  } catch (error) {
    if (error instanceof KeyStoreError) return { kind: "refused", failure: error.failure, message: error.message };
    return { kind: "refused", failure: "store", message: error instanceof Error ? error.message : String(error) };
  } finally {
    // Bumped even after a refusal: cheap, and a failed write may still have replaced the file.
    changes.bump();
  }
}

/** The single-thread shape (tests, WORKERS=1 without a supervisor): writes in this thread. */
export function localKeyWriter(file: string, changes: KeyChanges): KeyWriter {
  const log = new KeyLog(file);
  return { apply: (operation) => Promise.resolve(applyKeyOperation(file, operation, changes, log)) };
}

/** Messages between a worker's writer and the supervisor that applies its operations. */
export interface KeyRequestMessage { readonly type: "keys"; readonly id: number; readonly operation: KeyOperation }
export interface KeyReplyMessage { readonly type: "keys"; readonly id: number; readonly outcome: KeyOutcome }

interface Port {
  postMessage(message: KeyRequestMessage): void;
  on(event: "message", listener: (message: unknown) => void): unknown;
}

/**
 * The worker-thread shape: each operation goes to the supervisor thread, the server's one writer,
 * and resolves with its reply. The supervisor has bumped the shared change counter before it
 * replies, so this worker (and every other) refuses an old key from the next request on.
 */
export function threadKeyWriter(port: Port): KeyWriter {
  const pending = new Map<number, (outcome: KeyOutcome) => void>();
  let nextId = 0;
  port.on("message", (message) => {
    const reply = message as Partial<KeyReplyMessage>;
    if (reply.type !== "keys" || reply.id === undefined || reply.outcome === undefined) return;
    const resolve = pending.get(reply.id);
    pending.delete(reply.id);
    resolve?.(reply.outcome);
  });
  return {
    apply: (operation) => new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      port.postMessage({ type: "keys", id, operation });
    }),
  };
}
