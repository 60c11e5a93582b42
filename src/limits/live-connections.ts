// Live WebSocket connections per API key and worker, in one growable SharedArrayBuffer every
// worker views, so the per-key cap spans workers. Slot-major (key slot × workers + worker): the
// table grows with the key store as the token buckets do, and every key record has counters of
// its own, never shared with another key's.

import { KEY_SLOTS, MAX_KEY_SLOTS } from "./token-buckets.js";

const bytesFor = (keySlots: number, workers: number) => keySlots * workers * Int32Array.BYTES_PER_ELEMENT;

export class LiveConnectionCounts {
  readonly buffer: SharedArrayBuffer;
  /** Length-tracking: every thread's view follows the buffer's growth. */
  readonly #counts: Int32Array;

  constructor(readonly workers: number, buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(bytesFor(KEY_SLOTS, workers), { maxByteLength: bytesFor(MAX_KEY_SLOTS, workers) });
    this.#counts = new Int32Array(this.buffer);
  }

  get keySlots(): number {
    return this.#counts.length / this.workers;
  }

  /** One more connection of key record `slot` on `worker`, unless that would pass `cap` across every worker (then nothing is added). */
  reserve(slot: number, worker: number, cap: number): boolean {
    this.#ensure(slot);
    const at = slot * this.workers;
    Atomics.add(this.#counts, at + worker, 1);
    let total = 0;
    for (let row = 0; row < this.workers; row++) total += Atomics.load(this.#counts, at + row);
    if (total <= cap) return true;
    Atomics.sub(this.#counts, at + worker, 1);
    return false;
  }

  release(slot: number, worker: number): void {
    Atomics.sub(this.#counts, slot * this.workers + worker, 1);
  }

  /** Forgets every connection of `worker`: it died, and its sockets with it. */
  clearWorker(worker: number): void {
    for (let slot = 0; slot < this.keySlots; slot++) Atomics.store(this.#counts, slot * this.workers + worker, 0);
  }

  /** At least `slot + 1` key slots: doubling, so a growing store grows the buffer rarely. */
  #ensure(slot: number): void {
    if (!Number.isSafeInteger(slot) || slot < 0 || slot >= MAX_KEY_SLOTS) throw new RangeError(`key slot ${slot} is outside 0..${MAX_KEY_SLOTS - 1}`);
    if (slot < this.keySlots) return;
    const wanted = Math.min(MAX_KEY_SLOTS, Math.max(slot + 1, this.keySlots * 2));
    try {
      this.buffer.grow(bytesFor(wanted, this.workers));
    } catch (error) {
      // Another thread grew it meanwhile, possibly further: fine as long as the slot is there now.
      if (slot >= this.keySlots) throw error;
    }
  }
}
