// The uWS adapter: reads everything from `req` synchronously, streams and caps POST bodies,
// hands an IncomingRequest to the Dispatcher and writes its Outgoing, status always first.
// The client address honours TRUST_PROXY (trust-proxy.ts); uWS itself comes from uws.ts.

import type { HttpRequest, HttpResponse } from "uWebSockets.js";
import type { Dispatcher, IncomingRequest, Outgoing } from "./dispatch.js";
import { addressKey, createClientAddress, DEFAULT_IPV6_PREFIX, type ProxyTrust } from "../limits/trust-proxy.js";
import { loadUws, uwsInfo } from "./uws.js";
import { attachLive, type LiveHub, type LiveOptions } from "./live.js";
import { workCounts } from "../store/work-counts.js";
import { ConnectionTurns } from "../limits/connection-turns.js";
import { BodyCollector } from "./body.js";

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "200 OK", 201: "201 Created", 204: "204 No Content", 206: "206 Partial Content", 304: "304 Not Modified", 400: "400 Bad Request", 401: "401 Unauthorized",
  403: "403 Forbidden", 404: "404 Not Found", 405: "405 Method Not Allowed", 408: "408 Request Timeout", 413: "413 Payload Too Large",
  415: "415 Unsupported Media Type", 416: "416 Range Not Satisfiable", 426: "426 Upgrade Required", 429: "429 Too Many Requests", 431: "431 Request Header Fields Too Large", 500: "500 Internal Server Error", 503: "503 Service Unavailable",
};

/** The drain rule (body.ts), here for the modules that read it from the server. */
export { DRAIN_LIMIT_BYTES } from "./body.js";

export interface HttpServer {
  readonly port: number;
  /** Requests whose response is not complete yet (bodies still streaming in or out). */
  inFlight(): number;
  /** Milliseconds since the last request arrived. */
  idleMs(): number;
  /** Stops accepting connections; open connections finish their requests. */
  stopListening(): void;
  /** The WebSocket stream's sockets (undefined when the server has none). */
  readonly live: LiveHub | undefined;
  /** Closes every connection at once. */
  close(): void;
}

export interface ServerOptions {
  host: string;
  port: number;
  dispatcher: Dispatcher;
  maxBodyBytes: number;
  /** A body must arrive within this many ms of the request, or the connection is cut. */
  bodyTimeoutMs: number;
  /** TRUST_PROXY: peers whose X-Forwarded-For names the client; undefined = the header is ignored. */
  trustProxy?: ProxyTrust | undefined;
  /** GET /api/live (the change stream); without it the route answers 426 and nothing upgrades. */
  live?: LiveOptions | undefined;
  /** MAX_HEADERS_KB; the first server (or serve) of the process sets it for every thread (uws.ts). */
  maxHeadersKb?: number | undefined;
  /** IPv6 clients are limited per this prefix (bits); default 64. */
  ipv6Prefix?: number;
  onResponse?: (outgoing: Outgoing, request: IncomingRequest, durationMs: number) => void;
}

export function startServer(options: ServerOptions): Promise<HttpServer> {
  const uWS = loadUws({ maxHeadersKb: options.maxHeadersKb });
  const app = uWS.App();
  // 20.57 refuses a head over the limit itself (431); 20.30 has no limit of its own: measured here.
  const { isHeadLimitOurs, maxHeadBytes } = uwsInfo()!;
  const clientAddress = createClientAddress(options.trustProxy);
  const isProxyTrusted = options.trustProxy !== undefined;
  const ipv6Prefix = options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  const counter = { inFlight: 0, lastRequestAt: performance.now() };
  const release = () => { counter.inFlight--; };
  const finish = (res: HttpResponse, request: IncomingRequest, started: number, outgoing: Outgoing) => {
    write(res, outgoing, release);
    options.onResponse?.(outgoing, request, performance.now() - started);
  };
  // The pipelining bound: a connection's requests past its share of this turn are answered in the
  // next. uWS never answers a pipelined request out of order: if that connection pipelined more
  // in this read, uWS closes it there (HttpContext.h), and what it sent past the bound is dropped.
  const turns = new ConnectionTurns();
  const answer = (res: HttpResponse, request: IncomingRequest, started: number) => {
    if (!turns.admit(() => request.address())) {
      workCounts.requestsHeld++;
      res.onAborted(() => {
        request.hasLeft = true;
        release();
      });
      setImmediate(() => {
        if (request.hasLeft !== true) res.cork(() => dispatchNow(res, request, started));
      });
      return;
    }
    dispatchNow(res, request, started);
  };
  const dispatchNow = (res: HttpResponse, request: IncomingRequest, started: number) => {
    const outgoing = dispatchGuarded(options.dispatcher, request);
    if (!(outgoing instanceof Promise)) {
      finish(res, request, started, outgoing);
      return;
    }
    // A key write: everything was read from req already. Until it settles the client may leave,
    // and uWS then forbids touching res; onAborted (replacing the body reader's) tells us so.
    // An export encoded across turns looks at request.hasLeft between slices and stops.
    res.onAborted(() => {
      request.hasLeft = true;
      release();
    });
    outgoing.then((settled) => {
      if (request.hasLeft === true) return;
      res.cork(() => finish(res, request, started, settled));
    });
  };
  /** `forwardedFor`: the X-Forwarded-For lines joined, when the caller walked the headers already. */
  const readRequest = (res: HttpResponse, req: HttpRequest, forwardedFor = isProxyTrusted ? forwardedForOf(req) : ""): IncomingRequest => {
    // Read now (req is only valid in this call), and only when it can matter.
    const range = req.getHeader("range");
    const method = req.getCaseSensitiveMethod().toUpperCase();
    return {
      method,
      url: req.getUrl(),
      rawQuery: req.getQuery() ?? "",
      apiKey: req.getHeader("x-api-key") || bearerKey(req.getUrl(), req.getHeader("authorization")),
      ifNoneMatch: req.getHeader("if-none-match"),
      acceptEncoding: req.getHeader("accept-encoding"),
      accept: req.getHeader("accept"),
      range,
      ifRange: range.length === 0 ? "" : req.getHeader("if-range"),
      contentType: req.getHeader("content-type"),
      origin: req.getHeader("origin"),
      ...(method === "POST" ? { mcpHeaders: { protocolVersion: req.getHeader("mcp-protocol-version"), method: req.getHeader("mcp-method"), name: req.getHeader("mcp-name") } } : {}),
      // Valid while the response is: the dispatcher runs before any answer is written.
      address: () => addressKey(clientAddress(Buffer.from(res.getRemoteAddressAsText()).toString("latin1"), forwardedFor), ipv6Prefix),
      body: undefined,
      isBodyTooLarge: false,
    };
  };
  // Registered before the catch-all: a GET of /api/live without an upgrade falls through to it (426).
  const live = options.live === undefined
    ? undefined
    : attachLive(app, uWS, options.dispatcher, options.live, readRequest, (res, outgoing) => write(res, outgoing, () => undefined));
  app.any("/*", (res, req) => {
    const started = performance.now();
    counter.inFlight++;
    counter.lastRequestAt = started;
    // The header lines are walked at most once, and only when something needs them: the head's size
    // (20.30), a second Content-Length, the X-Forwarded-For lines (TRUST_PROXY).
    const hasContentLength = req.getHeader("content-length") !== "";
    const head = isHeadLimitOurs || isProxyTrusted || hasContentLength ? walkHead(req, isProxyTrusted) : UNWALKED;
    const request = readRequest(res, req, head.forwardedFor);
    if (isHeadLimitOurs && requestLineBytes(request) + head.lineBytes > maxHeadBytes) {
      request.headBytesOverLimit = maxHeadBytes;
      answer(res, request, started);
      return;
    }
    // Two lengths for one body: whichever we read, a proxy in front may have read the other
    // (request smuggling). Refused before the body, and the connection is closed.
    if (hasContentLength && head.contentLengths > 1) {
      request.badHeader = "Content-Length";
      answer(res, request, started);
      return;
    }
    if (request.method !== "POST" && request.method !== "PUT" && request.method !== "PATCH") {
      answer(res, request, started);
      return;
    }
    readBody(res, req, request, options, () => answer(res, request, started), release);
  });
  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (socket) => {
      if (!socket) {
        reject(new Error(`cannot listen on ${options.host}:${options.port} (is another process holding the port?)`));
        return;
      }
      let isListening = true;
      const stopListening = () => {
        if (!isListening) return;
        isListening = false;
        uWS.us_listen_socket_close(socket);
      };
      resolve({
        port: uWS.us_socket_local_port(socket),
        live,
        inFlight: () => counter.inFlight,
        idleMs: () => performance.now() - counter.lastRequestAt,
        stopListening,
        close: () => {
          stopListening();
          // TemplatedApp.close() (closes every connection) exists in 20.30 but not in its typings.
          (app as unknown as { close: () => void }).close();
        },
      });
    });
  });
}

/**
 * Every X-Forwarded-For line, joined in order: getHeader reads only the first, and a proxy that
 * appends a line of its own (HAProxy's `option forwardfor`) would leave the client's line to be read.
 */
function forwardedForOf(req: HttpRequest): string {
  let joined = "";
  req.forEach((name, value) => {
    if (name === "x-forwarded-for") joined = joined.length === 0 ? value : `${joined},${value}`;
  });
  return joined;
}

/** What one walk over the request's header lines finds. */
interface HeadFacts {
  /** The `name: value` lines as sent, give or take the spaces around each colon (CRLF included). */
  lineBytes: number;
  /** How many Content-Length lines there are. */
  contentLengths: number;
  /** Every X-Forwarded-For line, joined in order (empty unless asked for), as forwardedForOf reads them. */
  forwardedFor: string;
}

/** What nothing needed walking for: read only where the walk was asked for. */
const UNWALKED: Readonly<HeadFacts> = Object.freeze({ lineBytes: 0, contentLengths: 0, forwardedFor: "" });

/** The header lines' size, Content-Length count and (when `withForwardedFor`) X-Forwarded-For, in one pass. */
function walkHead(req: HttpRequest, withForwardedFor: boolean): HeadFacts {
  const facts: HeadFacts = { lineBytes: 0, contentLengths: 0, forwardedFor: "" };
  req.forEach((name, value) => {
    facts.lineBytes += name.length + value.length + 4;
    if (name === "content-length") facts.contentLengths++;
    else if (withForwardedFor && name === "x-forwarded-for") facts.forwardedFor = facts.forwardedFor.length === 0 ? value : `${facts.forwardedFor},${value}`;
  });
  return facts;
}

/**
 * The request line and the blank line after the head: with walkHead's lineBytes, the head's size as
 * sent, give or take the spaces around each colon: what 20.57 compares with UWS_HTTP_MAX_HEADERS_SIZE.
 */
function requestLineBytes(request: IncomingRequest): number {
  return request.method.length + request.url.length + (request.rawQuery === "" ? 0 : request.rawQuery.length + 1) + 13;
}

/** The dispatcher's answer, never a throw nor a rejection: a bug in it becomes crash()'s 500 (both adapters). */
export function dispatchGuarded(dispatcher: Dispatcher, request: IncomingRequest): Outgoing | Promise<Outgoing> {
  try {
    const outgoing = dispatcher.dispatch(request);
    return outgoing instanceof Promise ? outgoing.catch(crash) : outgoing;
  } catch {
    return crash();
  }
}

/** The dispatcher has its own funnel; this only guards the process against a bug in it. Every error carries its time (docs/compatibility.md#fidelity-rules). */
export function crash(): Outgoing {
  return {
    status: 500, headers: "Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff",
    body: Buffer.from(`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"Internal error","timestamp":"${new Date().toISOString()}"}}`),
    contentLength: 0, route: "(crash)", requestId: "", keySlot: -1,
  };
}

/** The body through the shared collector (body.ts); uWS reuses a chunk's memory after onData returns. */
function readBody(res: HttpResponse, req: HttpRequest, request: IncomingRequest, options: ServerOptions, finish: () => void, abandon: () => void): void {
  let body: BodyCollector | undefined;
  // Before the collector, which may answer at once (a body declared past the drain limit): the answer may set its own.
  res.onAborted(() => {
    if (body === undefined || body.isFinished) return;
    body.abandon();
    abandon();
  });
  body = new BodyCollector(request, req.getHeader("content-length"), options.maxBodyBytes, options.bodyTimeoutMs, {
    complete: () => res.cork(finish),
    cut: () => {
      abandon();
      res.cork(() => res.close());
    },
  }, true);
  if (body.isFinished) return;
  const collector = body;
  res.onData((chunk, isLast) => collector.add(new Uint8Array(chunk), isLast));
}

function write(res: HttpResponse, outgoing: Outgoing, done: () => void): void {
  res.writeStatus(STATUS_TEXT[outgoing.status] ?? `${outgoing.status} Unknown`);
  writeHeaders(res, outgoing.headers);
  const closeAfter = outgoing.status === 413 || outgoing.shouldClose === true;
  if (outgoing.body === null) {
    if (outgoing.status !== 304 && outgoing.status !== 204) res.writeHeader("Content-Length", String(outgoing.contentLength));
    if (closeAfter) res.writeHeader("Connection", "close");
    res.endWithoutBody();
    done();
  } else if (closeAfter) {
    // Only end() can close the connection after the body; the connection ends with it, so uWS
    // holds at most this one answer for it.
    res.end(outgoing.body, true);
    done();
  } else {
    sendBody(res, outgoing.body, outgoing.isScratch === true, done);
  }
}

/**
 * All headers in one call: uWS writes `name: value\r\n` as given, so the first name and the rest
 * of the block (further lines joined by CRLF) produce the same bytes as one call per header, with
 * one string conversion into native code instead of two per header (measured: ~1 µs a request of a
 * dozen headers). Every value is ours (ids, numbers, ETags, configured origins), never raw client
 * input, so none holds a CR or LF.
 */
function writeHeaders(res: HttpResponse, headers: string): void {
  const colon = headers.indexOf(": ");
  if (colon > 0) res.writeHeader(headers.slice(0, colon), headers.slice(colon + 2));
}

/**
 * The backpressure bound: a body goes out as far as the socket takes it now (tryEnd); what it does
 * not take waits in our hands for the client to read (onWritable), never copied into uWS's own
 * buffer (end() would append it there, without limit, answer after answer). While it waits, the
 * answer is unfinished, and uWS closes the connection on its next request: a client that
 * pipelines without reading holds at most one answer (and uWS's 16 KiB cork buffer) unsent.
 * A scratch body's unsent rest is copied: the next render reuses the scratch buffer.
 */
function sendBody(res: HttpResponse, body: Buffer, isScratch: boolean, done: () => void): void {
  const start = res.getWriteOffset();
  const [, isDone] = res.tryEnd(body, body.length);
  if (isDone) {
    done();
    return;
  }
  let isFinished = false;
  const finish = () => {
    if (isFinished) return;
    isFinished = true;
    done();
  };
  res.onAborted(finish);
  const sent = res.getWriteOffset() - start;
  const rest = isScratch ? Buffer.from(body.subarray(sent)) : body.subarray(sent);
  res.onWritable((offset) => {
    if (isFinished) return true;
    const [isOk, isComplete] = res.tryEnd(rest.subarray(offset - start - sent), body.length);
    if (isComplete) finish();
    return isOk;
  });
}

/** POST /mcp only (MCP clients send `Authorization: Bearer`): the key after "Bearer ", else "". The REST routes read X-API-Key alone. */
export function bearerKey(url: string, authorization: string): string {
  if (url !== "/mcp" || authorization.length === 0) return "";
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  return match === null ? "" : (match[1] as string);
}
