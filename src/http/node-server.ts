// The node:http adapter: the same HttpServer as server.ts (uWS) over Node's own HTTP server, for
// machines where no uWS addon loads (adapter.ts chooses). Same Dispatcher, so the same routes,
// bytes, ETags and errors; the limits are set to match uWS's:
// - the request head: MAX_HEADERS_KB is Node's maxHeaderSize; over it, 431 in our envelope (clientError);
// - a head must arrive within IDLE_TIMEOUT_MS (uWS's HTTP idle timeout) and an idle keep-alive
//   connection is closed after it; a body must arrive within bodyTimeoutMs, or the connection is cut;
// - body caps and the drain rule (DRAIN_LIMIT_BYTES), and a second Content-Length refused (Node's
//   parser refuses it; the answer is the dispatcher's 400, then the connection is closed);
// - pipelining: the same turn bound as uWS (ConnectionTurns: 128 requests a turn, then at most 128
//   in a row of one connection); past it a socket's requests wait for a later turn, in order, the
//   socket unread. Backpressure: while a socket holds more than UNSENT_LIMIT_BYTES of answers it has
//   not taken, its further requests wait for the client to read (uWS closes the connection there
//   instead, as it cannot hold a pipelined request); one that reads nothing for IDLE_TIMEOUT_MS is
//   cut, and one with more than HELD_LIMIT requests waiting is closed, as uWS closes one past its bound.
// Where the wire differs from uWS (a malformed request line, an unknown method, HTTP/1.0):
// docs/deploy.md#which-http-adapter.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import type { Dispatcher, IncomingRequest, Outgoing } from "./dispatch.js";
import { addressKey, createClientAddress, DEFAULT_IPV6_PREFIX } from "../limits/trust-proxy.js";
import { DEFAULT_MAX_HEADERS_KB } from "../limits/request-head.js";
import { bearerKey, crash, dispatchGuarded, STATUS_TEXT, type HttpServer, type ServerOptions } from "./server.js";
import { BodyCollector } from "./body.js";
import { attachNodeLive } from "./node-live.js";
import { ConnectionTurns, PIPELINE_TURN_LIMIT } from "../limits/connection-turns.js";
import { workCounts } from "../store/work-counts.js";

/** uWS's HTTP idle timeout: a request head must arrive within it, and a keep-alive connection idles at most this long. */
export const IDLE_TIMEOUT_MS = 10_000;

/**
 * Whether this Node lets several threads listen on one port (`reusePort`, SO_REUSEPORT: Node
 * 22.12+, 23.1+). Without it the node adapter serves from one worker thread (serve.ts says so).
 */
export function canShareNodePort(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/**
 * Answer bytes a connection may hold that the socket has not taken (written, but queued behind an
 * earlier answer or in the socket's buffer). Past it, the connection's next requests wait until the
 * client reads: a client that pipelines and never reads makes the server build about this much
 * (beyond what the kernel's socket buffers take), then is closed after IDLE_TIMEOUT_MS.
 */
export const UNSENT_LIMIT_BYTES = 1024 * 1024;

/**
 * Requests one connection may have waiting (past its turn, or behind unsent answers): the answers
 * one read gets at most (2 × PIPELINE_TURN_LIMIT). A connection that pipelines past it without
 * reading is closed, as uWS closes one past its bound, and what it sent beyond gets no answer.
 */
export const HELD_LIMIT = 2 * PIPELINE_TURN_LIMIT;

/** What this adapter keeps about one connection while it holds requests or unsent answers. */
interface Connection {
  /** Requests read but held for later, in arrival order (each runs the request's handler). */
  held: Array<() => void>;
  isReleaseScheduled: boolean;
  /** This adapter paused the socket (Node pauses it too, for its own write backpressure). */
  isPausedHere: boolean;
  /** Body bytes of answers written while an earlier answer held the socket (Node keeps them in the response). */
  queuedBytes: number;
  /** Set while held requests wait for the client to read: cuts a connection that never does. */
  stall: NodeJS.Timeout | undefined;
  /** The socket's close and drain are listened to (once per connection, at its first held request). */
  isWatched: boolean;
  /** The server's turn bound, which held requests go back to. */
  turns: ConnectionTurns;
}

const connections = new WeakMap<Socket, Connection>();
function connectionOf(socket: Socket, turns: ConnectionTurns): Connection {
  let connection = connections.get(socket);
  if (connection === undefined) {
    connection = { held: [], isReleaseScheduled: false, isPausedHere: false, queuedBytes: 0, stall: undefined, isWatched: false, turns };
    connections.set(socket, connection);
  }
  return connection;
}

const unsentBytes = (socket: Socket, connection: Connection) => connection.queuedBytes + socket.writableLength;

export function startNodeServer(options: ServerOptions): Promise<HttpServer> {
  const maxHeadBytes = (options.maxHeadersKb ?? DEFAULT_MAX_HEADERS_KB) * 1024;
  const clientAddress = createClientAddress(options.trustProxy);
  const isProxyTrusted = options.trustProxy !== undefined;
  const ipv6Prefix = options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  const counter = { inFlight: 0, lastRequestAt: performance.now() };
  const turns = new ConnectionTurns();
  const server = createServer({
    maxHeaderSize: maxHeadBytes,
    // uWS serves a request without Host; so does this.
    requireHostHeader: false,
    headersTimeout: IDLE_TIMEOUT_MS,
    requestTimeout: IDLE_TIMEOUT_MS + options.bodyTimeoutMs,
    keepAliveTimeout: IDLE_TIMEOUT_MS,
    // How often the two timeouts above are checked (Node's default, 30 s, would let a slow head sit 40 s).
    connectionsCheckingInterval: 1_000,
    noDelay: true,
  });

  const readRequest = (req: IncomingMessage): IncomingRequest => {
    const headers = req.headers;
    const target = req.url ?? "/";
    const question = target.indexOf("?");
    const url = question === -1 ? target : target.slice(0, question);
    const range = header(headers.range);
    const socket = req.socket;
    const forwardedFor = isProxyTrusted ? header(headers["x-forwarded-for"]) : "";
    return {
      method: req.method ?? "GET",
      url,
      rawQuery: question === -1 ? "" : target.slice(question + 1),
      apiKey: header(headers["x-api-key"]) || bearerKey(url, header(headers.authorization)),
      ifNoneMatch: header(headers["if-none-match"]),
      acceptEncoding: header(headers["accept-encoding"]),
      accept: header(headers.accept),
      range,
      ifRange: range.length === 0 ? "" : header(headers["if-range"]),
      contentType: header(headers["content-type"]),
      origin: header(headers.origin),
      ...(req.method === "POST" ? { mcpHeaders: { protocolVersion: header(headers["mcp-protocol-version"]), method: header(headers["mcp-method"]), name: header(headers["mcp-name"]) } } : {}),
      address: () => addressKey(clientAddress(socket.remoteAddress ?? "", forwardedFor), ipv6Prefix),
      body: undefined,
      isBodyTooLarge: false,
    };
  };

  const finish = (res: ServerResponse, request: IncomingRequest, started: number, outgoing: Outgoing) => {
    const bytes = outgoing.body?.length ?? 0;
    // res.socket is null while an earlier answer holds the socket: Node keeps this body in the
    // response until then. Counted until it is out, when held requests may go on.
    if (res.socket === null && bytes > 0) {
      const socket = res.req.socket;
      const connection = connectionOf(socket, turns);
      connection.queuedBytes += bytes;
      res.once("close", () => {
        connection.queuedBytes -= bytes;
        wake(socket, connection);
      });
    }
    try {
      write(res, outgoing);
    } catch {
      res.destroy();
    }
    options.onResponse?.(outgoing, request, performance.now() - started);
  };

  const answer = (res: ServerResponse, request: IncomingRequest, started: number) => {
    const outgoing = dispatchGuarded(options.dispatcher, request);
    if (!(outgoing instanceof Promise)) {
      finish(res, request, started, outgoing);
      return;
    }
    outgoing.then((settled) => {
      if (request.hasLeft === true || res.destroyed) return;
      finish(res, request, started, settled);
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    counter.inFlight++;
    counter.lastRequestAt = started;
    const request = readRequest(req);
    res.once("close", () => {
      counter.inFlight--;
      if (!res.writableFinished) request.hasLeft = true;
    });
    if (request.method !== "POST" && request.method !== "PUT" && request.method !== "PATCH") {
      answer(res, request, started);
      return;
    }
    readBody(req, request, options.maxBodyBytes, options.bodyTimeoutMs, () => answer(res, request, started));
  };

  // The pipelining bound and backpressure (docs/operations.md#connection-bounds): a request is
  // handled now unless its connection holds earlier ones, holds too many unsent answer bytes, or is
  // past its share of this turn; then it waits, in order, and the socket is not read meanwhile.
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const run = () => {
      try {
        handle(req, res);
      } catch {
        res.destroy();
      }
    };
    const connection = connections.get(socket);
    if ((connection === undefined || (connection.held.length === 0 && unsentBytes(socket, connection) <= UNSENT_LIMIT_BYTES)) && turns.admit(() => socket)) {
      run();
      return;
    }
    const held = connectionOf(socket, turns);
    // Past what one read may have answered, as uWS: the connection is closed, its held requests dropped.
    if (held.held.length >= HELD_LIMIT) {
      socket.destroy();
      return;
    }
    hold(socket, held, run);
  });

  // What Node's parser refuses never reaches "request": answered here, in our envelope, then closed.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    try {
      if (!socket.writable || error.code === "ECONNRESET" || error.code === "ERR_HTTP_REQUEST_TIMEOUT" || error.code === "HPE_PAUSED_UPGRADE") {
        // A head or body too slow is cut, as uWS does: no answer.
        socket.destroy();
        return;
      }
      const request = syntheticRequest(socket);
      if (error.code === "HPE_HEADER_OVERFLOW") request.headBytesOverLimit = maxHeadBytes;
      else if (error.code === "HPE_UNEXPECTED_CONTENT_LENGTH") request.badHeader = "Content-Length";
      const dispatched = request.headBytesOverLimit !== undefined || request.badHeader !== undefined ? options.dispatcher.dispatch(request) : malformed(error);
      const outgoing = dispatched instanceof Promise ? crash() : dispatched;
      socket.end(serialise(outgoing));
      options.onResponse?.(outgoing, request, 0);
    } catch {
      socket.destroy();
    }
  });

  const live = options.live === undefined ? undefined : attachNodeLive(server, options.dispatcher, options.live, readRequest, serialise);

  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(new Error(`cannot listen on ${options.host}:${options.port} (${(error as NodeJS.ErrnoException).code ?? error.message}; is another process holding the port?)`));
    server.once("error", onError);
    // Every worker thread listens on the same port (SO_REUSEPORT), as uWS's apps do; Node 20 cannot (serve.ts runs one worker there).
    server.listen({ host: options.host, port: options.port, reusePort: canShareNodePort() } as Parameters<typeof server.listen>[0], () => {
      server.off("error", onError);
      server.on("error", () => undefined);
      const address = server.address();
      let isListening = true;
      const stopListening = () => {
        if (!isListening) return;
        isListening = false;
        // Only the listening socket: http.Server.close would also close idle keep-alive
        // connections, racing a request already on its way (drain answers it with Connection: close).
        NetServer.prototype.close.call(server);
      };
      resolve({
        port: typeof address === "object" && address !== null ? address.port : options.port,
        live: live?.hub,
        inFlight: () => counter.inFlight,
        idleMs: () => performance.now() - counter.lastRequestAt,
        stopListening,
        close: () => {
          stopListening();
          server.closeAllConnections();
          live?.destroyAll();
        },
      });
    });
  });
}

function hold(socket: Socket, connection: Connection, run: () => void): void {
  if (!connection.isWatched) {
    connection.isWatched = true;
    socket.once("close", () => forget(connection));
    socket.on("drain", () => wake(socket, connection));
  }
  connection.held.push(run);
  workCounts.requestsHeld++;
  if (!connection.isPausedHere) {
    connection.isPausedHere = true;
    socket.pause();
  }
  scheduleRelease(socket, connection);
}

function scheduleRelease(socket: Socket, connection: Connection): void {
  if (connection.isReleaseScheduled) return;
  connection.isReleaseScheduled = true;
  setImmediate(() => release(socket, connection));
}

/** In a later turn: runs held requests while the connection may have them, then reads the socket again. */
function release(socket: Socket, connection: Connection): void {
  connection.isReleaseScheduled = false;
  while (connection.held.length > 0) {
    if (socket.destroyed) {
      forget(connection);
      return;
    }
    if (unsentBytes(socket, connection) > UNSENT_LIMIT_BYTES) {
      // Until the client reads: an answer going out (its close) or the socket draining wakes it.
      if (connection.stall === undefined) {
        connection.stall = setTimeout(() => socket.destroy(), IDLE_TIMEOUT_MS);
        connection.stall.unref();
      }
      return;
    }
    if (!connection.turns.admit(() => socket)) {
      scheduleRelease(socket, connection);
      return;
    }
    (connection.held.shift() as () => void)();
  }
  if (connection.stall !== undefined) {
    clearTimeout(connection.stall);
    connection.stall = undefined;
  }
  if (connection.isPausedHere) {
    connection.isPausedHere = false;
    // Node pauses a socket itself while its queued answers pass the high-water mark: leave that to Node.
    if ((socket as Socket & { _paused?: boolean })._paused !== true && !socket.destroyed) socket.resume();
  }
}

/** An answer went out or the socket drained: held requests that waited on it may go on. */
function wake(socket: Socket, connection: Connection): void {
  if (connection.held.length === 0 || connection.stall === undefined) return;
  connection.stall.refresh();
  scheduleRelease(socket, connection);
}

function forget(connection: Connection): void {
  connection.held.length = 0;
  if (connection.stall !== undefined) clearTimeout(connection.stall);
  connection.stall = undefined;
}

function header(value: string | string[] | undefined): string {
  return typeof value === "string" ? value : value === undefined ? "" : value.join(", ");
}

/** A request Node's parser refused, as the dispatcher's early refusals see it. */
function syntheticRequest(socket: Socket): IncomingRequest {
  return {
    method: "GET", url: "/", rawQuery: "", apiKey: "", ifNoneMatch: "", acceptEncoding: "", contentType: "", origin: "",
    address: () => socket.remoteAddress ?? "", body: undefined, isBodyTooLarge: false,
  };
}

/** 400 for what is not HTTP/1.x as Node's parser reads it (a space in the target, an unknown method, a bad header line). */
function malformed(error: NodeJS.ErrnoException): Outgoing {
  const reason = (error.message || "malformed request").replace(/^Parse Error: /, "").replace(/["\\\r\n]/g, "");
  return {
    status: 400, headers: "Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff",
    body: Buffer.from(`{"success":false,"error":{"code":"INVALID_PARAMETER","message":"The request is not well-formed HTTP/1.1","details":{"parameter":"request","reason":"${reason}"},"timestamp":"${new Date().toISOString()}"}}`),
    contentLength: 0, route: "(bad request)", requestId: "", keySlot: -1, shouldClose: true,
  };
}

/** An Outgoing as raw HTTP/1.1 bytes, for a socket Node's server no longer manages (a refused head, an upgrade refused). */
function serialise(outgoing: Outgoing): Buffer {
  const body = outgoing.body ?? Buffer.alloc(0);
  const length = outgoing.body === null ? outgoing.contentLength : body.length;
  const head = `HTTP/1.1 ${STATUS_TEXT[outgoing.status] ?? `${outgoing.status} Unknown`}\r\n${outgoing.headers}\r\n`
    + `${outgoing.status === 304 || outgoing.status === 204 ? "" : `Content-Length: ${length}\r\n`}Connection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** The body through the shared collector (body.ts): Node hands each chunk over for good. */
function readBody(req: IncomingMessage, request: IncomingRequest, maxBodyBytes: number, bodyTimeoutMs: number, finish: () => void): void {
  const body = new BodyCollector(request, header(req.headers["content-length"]), maxBodyBytes, bodyTimeoutMs, { complete: finish, cut: () => req.socket.destroy() });
  req.once("close", () => body.abandon());
  if (body.isFinished) return;
  req.on("data", (chunk: Buffer) => body.add(chunk, false));
  req.on("end", () => body.end());
}

/** Status first, then our header lines, then Content-Length (or none on 204/304), as server.ts writes them. */
function write(res: ServerResponse, outgoing: Outgoing): void {
  const list: string[] = [];
  const lines = outgoing.headers;
  let start = 0;
  while (start < lines.length) {
    let end = lines.indexOf("\r\n", start);
    if (end === -1) end = lines.length;
    const colon = lines.indexOf(": ", start);
    if (colon > start && colon < end) list.push(lines.slice(start, colon), lines.slice(colon + 2, end));
    start = end + 2;
  }
  const closeAfter = outgoing.status === 413 || outgoing.shouldClose === true;
  const statusText = STATUS_TEXT[outgoing.status];
  const reason = statusText === undefined ? "Unknown" : statusText.slice(statusText.indexOf(" ") + 1);
  if (outgoing.body === null) {
    if (outgoing.status !== 304 && outgoing.status !== 204) list.push("Content-Length", String(outgoing.contentLength));
    if (closeAfter) list.push("Connection", "close");
    res.writeHead(outgoing.status, reason, list);
    res.end();
    return;
  }
  // The scratch body is reused by the next render, and Node may hold a body until the socket
  // takes it (or until the answers pipelined before it are out): always a copy.
  // A memcpy: Buffer.from(aBuffer) takes a typed-array copy path that cost more than the write itself (profiled).
  const body = outgoing.isScratch === true ? copyOf(outgoing.body) : outgoing.body;
  list.push("Content-Length", String(body.length));
  if (closeAfter) list.push("Connection", "close");
  res.writeHead(outgoing.status, reason, list);
  res.end(body);
}

function copyOf(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafe(bytes.length);
  bytes.copy(copy);
  return copy;
}
