// Export encoding in slices (docs/exports.md#encoding-in-slices). An encoder is a generator that
// yields between slices of bounded work (a block of rows, or one column of at most
// SLICE_ROWS rows); the request path runs it across event-loop turns, so the worker answers other
// requests between slices, and stops when the client has gone. The same generator run to the end
// at once (runNow) is what the benchmark and tests time: one implementation, one output.

import type { EditionMemo, MemoKey } from "../store/edition-memo.js";

/** An encoder: each `yield` ends a slice; the return value is its result. */
export type Sliced<T> = Generator<void, T, void>;

/**
 * The most rows one column is encoded for in one slice (Parquet row groups and Arrow record
 * batches hold at most this many rows; a filtered export at most BULK_MAX_ROWS, the same number).
 */
export const SLICE_ROWS = 10_000;
/** Rows read from records (export table) or rendered (CSV lines) in one slice. */
export const BLOCK_ROWS = 256;
/** Bytes copied into a CSV body in one slice. */
export const COPY_BYTES = 4 * 1024 * 1024;

/** Thrown between slices when the client has gone (the HTTP layer answers nobody). */
export class ExportAborted extends Error {
  constructor() {
    super("The client went away before the export was encoded");
    this.name = "ExportAborted";
  }
}

/** Runs an encoder to its end at once (benchmarks, tests, and a caller that must have it now). */
export function runNow<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Turns between slices, and the longest stretch the encoder held the thread (the benchmark reads it). */
export class Pacer {
  slices = 0;
  longestMs = 0;
  private resumedAt = performance.now();

  constructor(private readonly isAborted: () => boolean = () => false) {}

  /** Ends a slice: other work on the thread runs before the next; throws when the client has gone. */
  async next(): Promise<void> {
    const ms = performance.now() - this.resumedAt;
    if (ms > this.longestMs) this.longestMs = ms;
    this.slices++;
    // One slice a turn for every export of the thread together (sliceTurn): sockets' reads and
    // their handlers come between any two slices, however many exports are under way.
    await sliceTurn();
    if (this.isAborted()) throw new ExportAborted();
    this.resumedAt = performance.now();
  }

  /** The last slice's stretch, counted when the encoder has returned. */
  done(): void {
    const ms = performance.now() - this.resumedAt;
    if (ms > this.longestMs) this.longestMs = ms;
    this.slices++;
  }
}

/** Encoders waiting for their next slice, first come first served. */
const waitingSlices: (() => void)[] = [];
let isSliceTurnScheduled = false;
/** Slices let run so far on this thread (tests count them against the turns between). */
export const sliceTurns = { granted: 0 };

/**
 * Resolves in a later turn of the event loop, after the poll phase (sockets' reads and their
 * handlers). Every encoder of the thread queues here and one is let go per turn: 32 exports under
 * way cost a waiting request one slice, not 32 (issue 40), and each export still gets a slice
 * every 32 turns.
 */
export function sliceTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waitingSlices.push(resolve);
    if (!isSliceTurnScheduled) {
      isSliceTurnScheduled = true;
      setImmediate(grantSlice);
    }
  });
}

function grantSlice(): void {
  const next = waitingSlices.shift();
  sliceTurns.granted++;
  // The next grant is in the next turn (an immediate scheduled from an immediate waits for the poll phase).
  if (waitingSlices.length > 0) setImmediate(grantSlice);
  else isSliceTurnScheduled = false;
  next?.();
}

/** Runs an encoder across event-loop turns, one slice a turn; an abort ends it (its `finally` blocks run). */
export async function runSliced<T>(work: Sliced<T>, pacer: Pacer = new Pacer()): Promise<T> {
  let isFinished = false;
  try {
    for (;;) {
      const step = work.next();
      if (step.done) {
        isFinished = true;
        pacer.done();
        return step.value;
      }
      await pacer.next();
    }
  } finally {
    if (!isFinished) work.return(undefined as never);
  }
}

/** What an edition's memo holds under a key while one request builds its value. */
const BUILDING = Symbol("building");

/** The memo's value under `key` when it is built (a request answers from it at once), else undefined. */
export function keptValue<T>(memo: EditionMemo, key: MemoKey<T>): T | undefined {
  const value = memo.get<T | typeof BUILDING>(key);
  return value === BUILDING ? undefined : (value as T | undefined);
}

/**
 * The memo's value under `key`, built by this encoder (in its slices) when absent, and kept. While
 * another request builds it, this one waits a turn at a time and looks again. A build that stops
 * (its client went away) leaves nothing behind: the next request that needs it builds it.
 * (runNow must not meet a build under way on the same thread: it would wait for ever.)
 */
export function* kept<T>(memo: EditionMemo, key: MemoKey<T>, build: () => Sliced<T>): Sliced<T> {
  // Under construction, the key holds BUILDING instead of a T.
  const slot: MemoKey<T | typeof BUILDING> = key;
  for (;;) {
    const value = memo.get(slot);
    if (value === undefined) break;
    if (value !== BUILDING) return value;
    yield;
  }
  memo.set(slot, BUILDING);
  let isBuilt = false;
  try {
    const value = yield* build();
    memo.set(key, value);
    isBuilt = true;
    return value;
  } finally {
    if (!isBuilt) memo.delete(key);
  }
}
