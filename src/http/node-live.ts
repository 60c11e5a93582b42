// GET /api/live on the node:http adapter: the `ws` package does the WebSocket protocol, and live.ts
// (written against uWS) runs unchanged over a small stand-in for the part of uWS's app and socket
// API it uses (ws, publish, getUserData, send, getBufferedAmount, end, subscribe, cork). So
// admission, the per-key cap, the budgets and the topics are the same code on both adapters.
//
// Differences on the wire: a message over LIVE_MAX_PAYLOAD_BYTES gets ws's close frame 1009 (uWS
// drops the connection without one, 1006); pings go out every PING_INTERVAL_MS and a socket that
// answered none by the next is dropped (uWS: idleTimeout 120 s with automatic pings).

import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { HttpRequest, HttpResponse, TemplatedApp, WebSocketBehavior } from "uWebSockets.js";
import { WebSocketServer, type WebSocket } from "ws";
import type { Dispatcher, IncomingRequest, Outgoing } from "./dispatch.js";
import { attachLive, LIVE_MAX_PAYLOAD_BYTES, LIVE_PATH, type LiveHub, type LiveOptions } from "./live.js";
import { crash } from "./server.js";

const PING_INTERVAL_MS = 60_000;

/** One `ws` socket as live.ts sees a uWS WebSocket. */
class LiveSocket<T> {
  readonly topics = new Set<string>();
  isAlive = true;
  constructor(readonly ws: WebSocket, private readonly data: T) {}
  getUserData(): T { return this.data; }
  send(message: string, isBinary = false): number {
    if (this.ws.readyState !== this.ws.OPEN) return 2;
    this.ws.send(message, { binary: isBinary });
    return 1;
  }
  getBufferedAmount(): number { return this.ws.bufferedAmount; }
  end(code?: number, reason?: string): void { this.ws.close(code, reason); }
  subscribe(topic: string): boolean { this.topics.add(topic); return true; }
  unsubscribe(topic: string): boolean { return this.topics.delete(topic); }
  /**
   * No cork: Node would hold every corked frame in the socket's buffer (a replay's whole share),
   * which getBufferedAmount counts against maxBufferedBytes; uncorked, the kernel takes each at once.
   */
  cork(callback: () => void): this {
    callback();
    return this;
  }
}

export interface NodeLive {
  hub: LiveHub;
  /** Drops every WebSocket at once (HttpServer.close). */
  destroyAll(): void;
}

/**
 * Serves upgrades on `server`: /api/live through live.ts; any other upgrade request is answered
 * as the plain request it also is (the dispatcher's answer, then the connection is closed).
 */
export function attachNodeLive(
  server: Server,
  dispatcher: Dispatcher,
  options: LiveOptions,
  readRequest: (req: IncomingMessage) => IncomingRequest,
  serialise: (outgoing: Outgoing) => Buffer,
): NodeLive {
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIVE_MAX_PAYLOAD_BYTES, perMessageDeflate: false, clientTracking: false });
  const open = new Set<LiveSocket<unknown>>();
  let behavior: WebSocketBehavior<unknown> | undefined;
  const app = {
    ws: (_path: string, given: WebSocketBehavior<unknown>) => { behavior = given; return app; },
    publish: (topic: string, message: string, isBinary = false) => {
      for (const socket of open) if (socket.topics.has(topic)) socket.send(message, isBinary);
      return true;
    },
  };
  const writeRaw = (res: HttpResponse, outgoing: Outgoing) => {
    const { socket } = res as unknown as { socket: Duplex };
    if (!socket.destroyed) socket.end(serialise(outgoing));
  };
  const hub = attachLive(app as unknown as TemplatedApp, { DISABLED: 0 }, dispatcher, options,
    (res) => readRequest((res as unknown as { req: IncomingMessage }).req), writeRaw);

  const ping = setInterval(() => {
    for (const socket of open) {
      if (!socket.isAlive) {
        socket.ws.terminate();
        continue;
      }
      socket.isAlive = false;
      socket.ws.ping();
    }
  }, PING_INTERVAL_MS);
  ping.unref();

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    try {
      const target = req.url ?? "/";
      const question = target.indexOf("?");
      const path = question === -1 ? target : target.slice(0, question);
      const isWebSocket = header(req.headers.upgrade).toLowerCase() === "websocket";
      if (path !== LIVE_PATH || !isWebSocket || behavior === undefined || req.method !== "GET") {
        const dispatched = dispatcher.dispatch(readRequest(req));
        if (dispatched instanceof Promise) dispatched.catch(crash).then((outgoing) => { if (!socket.destroyed) socket.end(serialise(outgoing)); });
        else socket.end(serialise(dispatched));
        return;
      }
      const given = behavior;
      const res = {
        req, socket,
        onAborted(callback: () => void) { socket.once("close", callback); return res; },
        cork(callback: () => void) { callback(); return res; },
        upgrade(data: unknown) {
          if (socket.destroyed) return;
          wss.handleUpgrade(req, socket, head, (ws) => {
            const live = new LiveSocket(ws, data);
            open.add(live);
            ws.on("pong", () => { live.isAlive = true; });
            ws.on("message", (message: Buffer, isBinary: boolean) => {
              live.isAlive = true;
              const bytes = message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength) as ArrayBuffer;
              given.message?.(live as never, bytes, isBinary);
            });
            ws.on("error", () => undefined);
            ws.once("close", (code: number, reason: Buffer) => {
              open.delete(live);
              given.close?.(live as never, code, reason.buffer.slice(reason.byteOffset, reason.byteOffset + reason.byteLength) as ArrayBuffer);
            });
            given.open?.(live as never);
          });
        },
      };
      const fakeReq = { getHeader: (name: string) => header(req.headers[name]) };
      given.upgrade?.(res as unknown as HttpResponse, fakeReq as unknown as HttpRequest, undefined as never);
    } catch {
      socket.destroy();
    }
  });

  return {
    hub,
    destroyAll() {
      clearInterval(ping);
      for (const socket of open) socket.ws.terminate();
    },
  };
}

function header(value: string | string[] | undefined): string {
  return typeof value === "string" ? value : value === undefined ? "" : value.join(", ");
}
