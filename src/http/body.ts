// A request body as it streams in, for either HTTP adapter (server.ts over uWS, node-server.ts over
// node:http): the bytes counted, collected up to the cap; past it dropped, and the request
// answered (413) once the rest has been read, up to DRAIN_LIMIT_BYTES (beyond that, or declared
// beyond it, at once); the whole body within the body timeout, or the connection is cut.

import type { IncomingRequest } from "./dispatch.js";

/**
 * A body refused as too large is still read (and dropped) up to this many bytes before the 413 and
 * the close: closing a socket with unread data makes the kernel send a reset, and a reverse proxy
 * still writing the body then reports the reset (502) instead of our 413. Larger bodies are cut
 * off at once. The shipped proxy configs refuse bodies over this themselves.
 */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;

export interface BodyEnds {
  /** The body is whole (request.body), or refused as too large (request.isBodyTooLarge): answer it. */
  complete: () => void;
  /** It did not arrive whole within the timeout: cut the connection (no answer). */
  cut: () => void;
}

export class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private isDone = false;
  private readonly timer: NodeJS.Timeout;

  /**
   * `declaredLength`: the Content-Length header as sent ("" without one). `isChunkReused`: the
   * adapter reuses a chunk's memory once its callback returns (uWS), so a kept chunk is copied.
   */
  constructor(
    private readonly request: IncomingRequest,
    declaredLength: string,
    private readonly maxBodyBytes: number,
    bodyTimeoutMs: number,
    private readonly ends: BodyEnds,
    private readonly isChunkReused = false,
  ) {
    this.timer = setTimeout(() => {
      if (this.isDone) return;
      this.isDone = true;
      request.hasLeft = true;
      ends.cut();
    }, bodyTimeoutMs);
    const declared = Number(declaredLength || "0");
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
      request.isBodyTooLarge = true;
      this.complete();
    }
  }

  /** Whether the body is dealt with (whole, refused, cut or abandoned): the adapter ignores what comes after. */
  get isFinished(): boolean {
    return this.isDone;
  }

  /** The next chunk; `isLast`: the body ends with it. */
  add(chunk: Uint8Array, isLast: boolean): void {
    if (this.isDone) return;
    this.received += chunk.byteLength;
    if (this.received > this.maxBodyBytes) {
      this.request.isBodyTooLarge = true;
      this.chunks.length = 0;
      if (isLast || this.received > DRAIN_LIMIT_BYTES) this.complete();
      return;
    }
    this.chunks.push(this.isChunkReused ? Buffer.from(chunk) : (chunk as Buffer));
    if (isLast) this.end();
  }

  /** The body ended (after its last chunk). */
  end(): void {
    if (this.isDone) return;
    // One chunk (most bodies: a JSON-RPC message, a batch) is the body as it is: already a copy where the adapter reuses its memory.
    if (!this.request.isBodyTooLarge) this.request.body = this.chunks.length === 1 ? this.chunks[0] as Buffer : Buffer.concat(this.chunks, this.received);
    this.complete();
  }

  /** The client left: nothing more is done for it. */
  abandon(): void {
    if (this.isDone) return;
    this.isDone = true;
    clearTimeout(this.timer);
  }

  private complete(): void {
    this.isDone = true;
    clearTimeout(this.timer);
    this.ends.complete();
  }
}
