// client.live(…): GET /api/live as an async iterator of events. Server-side only: the key goes in
// the X-API-Key header of the upgrade, which browsers' WebSocket cannot send, so the WebSocket
// class is passed in (the `ws` package's, or any with its constructor and events). After a
// dropped connection it reconnects with `since` = the last sequence number seen, so nothing is
// missed or repeated; a refused key or a policy close (1008) ends the iterator with an error.

import type { components } from "./generated/openapi.js";

export type ChangeEvent = components["schemas"]["ChangeEvent"];
/** `{ type: "edition" }`: an edition appeared or changed. */
export interface EditionMessage {
  type: "edition";
  event: "added" | "changed";
  gameVersion: string;
  status: "current" | "archived";
  checksum: string;
  playerCount: number;
  capturedAt: string;
  newestSequence: number;
  /** When the server swapped the edition in. */
  swappedAt: string;
}
export type LiveEvent = ChangeEvent | EditionMessage;
export type LiveTopic = "all" | `player:${string}` | `team:${string}` | `era:${"curr" | "class" | "allt"}`;

/** What live() needs of a WebSocket: the `ws` package's constructor with headers, and its events. */
export interface LiveSocket {
  on(event: "open", listener: () => void): unknown;
  on(event: "message", listener: (data: { toString(): string }) => void): unknown;
  on(event: "close", listener: (code: number, reason: { toString(): string }) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  send(data: string): void;
  close(code?: number): void;
}
export type LiveSocketClass = new (url: string, options: { headers: Record<string, string> }) => LiveSocket;

export interface LiveOptions {
  /** The WebSocket class to connect with, e.g. `(await import("ws")).default`. */
  WebSocket: LiveSocketClass;
  /** Replay the events after this sequence number first (from /api/changes' meta.newestSequence, or a stored one). */
  since?: number;
  /** Stops the iterator and closes the socket. */
  signal?: AbortSignal;
  /** First wait before a reconnect, doubled each failed attempt up to maxReconnectDelayMs (defaults 500 and 30 000). */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Called on each reconnect, with the since it resumes from (for logs and tests). */
  onReconnect?: (since: number | undefined) => void;
}

/** The live stream failed for good: a refused upgrade (401, …) or a close the server will repeat (1008). */
export class LiveError extends Error {
  override readonly name = "LiveError";
  constructor(message: string, readonly status: number | undefined, readonly closeCode: number | undefined) {
    super(message);
  }
}

export function liveEvents(baseUrl: string, apiKey: string | undefined, topics: readonly LiveTopic[], options: LiveOptions): AsyncIterableIterator<LiveEvent> {
  const url = `${baseUrl.replace(/^http/, "ws").replace(/\/$/, "")}/api/live`;
  const queue: LiveEvent[] = [];
  let failure: Error | undefined;
  let isDone = false;
  let wake: (() => void) | undefined;
  let since = options.since;
  let socket: LiveSocket | undefined;
  let delay = options.reconnectDelayMs ?? 500;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const finish = (error?: Error) => {
    if (isDone) return;
    isDone = true;
    failure = error;
    socket?.close(1000);
    notify();
  };
  options.signal?.addEventListener("abort", () => finish());

  const connect = () => {
    if (isDone) return;
    const current = new options.WebSocket(url, { headers: apiKey === undefined ? {} : { "X-API-Key": apiKey } });
    socket = current;
    current.on("open", () => {
      delay = options.reconnectDelayMs ?? 500;
      current.send(JSON.stringify({ subscribe: topics, ...(since === undefined ? {} : { since }) }));
    });
    current.on("message", (data) => {
      const message = JSON.parse(data.toString()) as { type: string; seq?: number };
      if (message.type === "change") {
        // A replay after a reconnect never repeats what was yielded.
        if (since !== undefined && (message.seq as number) <= since) return;
        since = message.seq;
        queue.push(message as ChangeEvent);
      } else if (message.type === "edition") {
        queue.push(message as EditionMessage);
      } else if (message.type === "welcome" && since === undefined) {
        // From now on: a reconnect before the first event resumes here, not at "whatever is live then".
        since = (message as { newestSequence?: number }).newestSequence;
      }
      notify();
    });
    current.on("error", (error) => {
      const status = /Unexpected server response: (\d+)/.exec(error.message)?.[1];
      if (status !== undefined && (status === "401" || status === "403" || status === "426")) finish(new LiveError(`the upgrade was refused: HTTP ${status}`, Number(status), undefined));
    });
    current.on("close", (code, reason) => {
      if (socket !== current || isDone) return;
      if (code === 1008) {
        finish(new LiveError(`closed by the server: ${code} ${reason.toString()}`, undefined, code));
        return;
      }
      // 1001 (shutdown), 1013 (not reading), 1006 (dropped): come back after a while, from `since`.
      setTimeout(() => {
        options.onReconnect?.(since);
        connect();
      }, delay);
      delay = Math.min(delay * 2, options.maxReconnectDelayMs ?? 30_000);
    });
  };
  connect();

  const iterator: AsyncIterableIterator<LiveEvent> = {
    async next() {
      for (;;) {
        const event = queue.shift();
        if (event !== undefined) return { value: event, done: false };
        if (isDone) {
          if (failure !== undefined) throw failure;
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => { wake = resolve; });
      }
    },
    async return() {
      finish();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
