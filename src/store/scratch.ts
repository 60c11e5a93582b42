// One reusable buffer per thread for response bodies that go straight to the socket: a page
// rendered per request (60 KiB on average in the benchmark's filtered mix) would otherwise be a
// fresh off-heap allocation each time, and at 10,000 requests a second those allocations are what
// drives V8's garbage collections. uWS copies whatever it cannot send at once, so the buffer is
// free again as soon as the response is written. A body that will be kept beyond that (cached,
// memoised, answered after an await) is rendered inside `renderOwned` instead, straight into a
// buffer of its own: one copy of the bytes on a miss, never a render into scratch and a copy out.

/** Bodies larger than this get their own allocation, so one huge export does not pin its size. */
export const SCRATCH_MAX_BYTES = 4 * 1024 * 1024;
const SCRATCH_MIN_BYTES = 256 * 1024;

let scratch = new Uint8Array(0);
/** Above 0 while a `renderOwned` runs: every buffer asked for then is the caller's own. */
let ownedDepth = 0;

/** A buffer of `length` bytes: a view of the shared scratch, or a fresh one when too large or to be kept. */
export function scratchBuffer(length: number): { buffer: Buffer; isScratch: boolean } {
  if (length > SCRATCH_MAX_BYTES || ownedDepth > 0) return { buffer: Buffer.allocUnsafe(length), isScratch: false };
  if (scratch.length < length) scratch = new Uint8Array(Math.min(SCRATCH_MAX_BYTES, Math.max(SCRATCH_MIN_BYTES, length, 2 * scratch.length)));
  return { buffer: Buffer.from(scratch.buffer, 0, length), isScratch: true };
}

/**
 * Runs `render` with scratch handed out as fresh buffers: what it renders is written once, into
 * bytes the caller may keep (the response cache, a memo, a reply finished after an await).
 */
export function renderOwned<T>(render: () => T): T {
  ownedDepth++;
  try {
    return render();
  } finally {
    ownedDepth--;
  }
}
