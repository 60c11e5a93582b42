// GETs against the source service, politely: conditional (If-None-Match), compressed, patient
// with 429s (Retry-After, within one budget for the whole sync) and with failed transfers (a few
// retries with backoff). The key travels only in the X-API-Key header, never in an address or a
// message, and redirects are not followed (they would carry the key to another address).
//
// Nothing a source sends costs more than its bounds (docs/data.md#source-values-kept-exactly): a body is counted as it
// streams, on the wire and again after decompression, and the transfer is cut at the first chunk
// past the answer limit (or the sync's total), never buffered beyond it; a read that brings no byte
// for readTimeoutMs fails (and is retried); the whole sync stops at its deadline, whatever the
// source trickles, asks to wait for or fails with.

import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { SyncError } from "./sync-error.js";

export interface SourceClientOptions {
  /** The source's root address (`https://host` or `https://host/prefix`). */
  base: URL;
  key: string;
  /** How long the whole sync may spend waiting out 429s, in ms. */
  maxWaitMs: number;
  /** Retries of one request after a failed transfer or a 5xx. */
  retries: number;
  /** First retry delay; each further retry doubles it. */
  backoffMs: number;
  /** A read that brings no byte for this long has failed (and is retried). */
  readTimeoutMs: number;
  /** How long the whole sync may take, from this client's creation (by `now`): waits and retries included. */
  deadlineMs: number;
  /** The largest body of one answer, counted on the wire and again after decompression; every answer together may hold ANSWERS_PER_TOTAL times it. */
  maxAnswerBytes: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** A wait or a retry, for the operator. */
  onNote: (text: string) => void;
}

export interface GetRequest {
  /** Names the edition in errors; undefined for the edition list. */
  edition: string | undefined;
  /** Sent as If-None-Match; a 304 is only accepted when one was sent. */
  etag: string | undefined;
  withKey: boolean;
}

export type Answer =
  | { status: 200; text: string; bytes: number; etag: string | undefined }
  | { status: 304 };

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Bytes on the wire (before decompression). */
  bytes: number;
}

/** A transfer that failed on the way (refused, reset, cut off, timed out): worth another try. */
class TransferError extends Error {}

/** An answer past a bound (its bytes, the deadline) or in a coding never asked for: the sync stops, no retry. */
class Refusal extends Error {}

const USER_AGENT = "courtside-sync";
/** 5xx answers a service gives while restarting or overloaded: retried like a failed transfer. */
const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);
/** 429s one request may meet before the sync gives up, whatever the wait budget says. */
const MAX_RATE_LIMITED = 10;
/**
 * Every answer of one sync together may hold this many times one answer's limit: one knob, and
 * real syncs stay far under it (the hosted service's whole copy is ~2 answers' worth).
 */
export const ANSWERS_PER_TOTAL = 4;
/** When a 429 says nothing about when to come back (the hosted service sends no Retry-After). */
const DEFAULT_RETRY_AFTER_MS = 60_000;

export class SourceClient {
  /** Requests sent, retries included. */
  requestCount = 0;
  private waitedMs = 0;
  /** Decompressed bytes of every answer so far. */
  private totalBytes = 0;
  private readonly deadlineAt: number;
  private readonly options: SourceClientOptions;
  private readonly agent: HttpAgent;

  constructor(options: SourceClientOptions) {
    this.options = options;
    this.deadlineAt = options.now() + options.deadlineMs;
    // One kept-alive connection: a sync is a handful of sequential requests.
    this.agent = options.base.protocol === "https:"
      ? new HttpsAgent({ keepAlive: true, maxSockets: 1 })
      : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  }

  /** The address of an API path (with its query) under the base, keeping a base path prefix. */
  urlOf(path: string): URL {
    const { base } = this.options;
    return new URL(`${base.pathname.replace(/\/+$/, "")}${path}`, base);
  }

  async get(path: string, request: GetRequest): Promise<Answer> {
    const url = this.urlOf(path);
    const fail = (reason: string): SyncError => new SyncError(request.edition, url.href, this.redact(reason));
    const label = `${request.edition ?? "edition list"} ${path}`;
    const headers: OutgoingHttpHeaders = {
      accept: "application/json",
      "accept-encoding": ACCEPT_ENCODING,
      "user-agent": USER_AGENT,
      ...(request.withKey ? { "x-api-key": this.options.key } : {}),
      ...(request.etag !== undefined ? { "if-none-match": request.etag } : {}),
    };
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      let response: RawResponse;
      try {
        this.requestCount += 1;
        response = await this.send(url, headers);
      } catch (error) {
        if (error instanceof Refusal) throw fail(error.message);
        if (!(error instanceof TransferError)) throw error;
        failures += 1;
        if (failures > this.options.retries) throw fail(`${error.message} (gave up after ${failures} attempts)`);
        await this.backOff(label, error.message, failures, fail);
        continue;
      }
      const { status } = response;
      if (status === 200) {
        const etag = response.headers.etag;
        return { status: 200, text: response.body.toString("utf8"), bytes: response.bytes, etag: typeof etag === "string" ? etag : undefined };
      }
      if (status === 304) {
        if (request.etag === undefined) throw fail("answered 304 Not Modified to a request without If-None-Match");
        return { status: 304 };
      }
      if (status === 429) {
        rateLimited += 1;
        const waitMs = this.retryAfterMs(response.headers) ?? DEFAULT_RETRY_AFTER_MS;
        const leftMs = this.options.maxWaitMs - this.waitedMs;
        if (rateLimited > MAX_RATE_LIMITED || waitMs > leftMs) {
          throw fail(`rate limited (429): the source asks to wait ${seconds(waitMs)}, and --max-wait leaves ${seconds(Math.max(0, leftMs))}; run the sync again later`);
        }
        if (waitMs >= this.leftMs()) {
          throw fail(`rate limited (429): the source asks to wait ${seconds(waitMs)}, and the sync's deadline (--deadline) leaves ${seconds(this.leftMs())}; run the sync again later`);
        }
        this.options.onNote(`${label}: rate limited (429), waiting ${seconds(waitMs)} as the source asks`);
        this.waitedMs += waitMs;
        await this.options.sleep(waitMs);
        continue;
      }
      if (RETRYABLE_STATUSES.has(status)) {
        failures += 1;
        const reason = describeFailure(status, response.body);
        if (failures > this.options.retries) throw fail(`${reason} (gave up after ${failures} attempts)`);
        await this.backOff(label, reason, failures, fail);
        continue;
      }
      if (status >= 300 && status < 400) {
        const location = response.headers.location ?? "nowhere";
        throw fail(`HTTP ${status}: redirected to ${location}; give the address it names with --from (the key is never sent on to another address)`);
      }
      if (status === 401 || status === 403) throw fail(`the source refused the key: ${describeFailure(status, response.body)}`);
      throw fail(describeFailure(status, response.body));
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private async backOff(label: string, reason: string, failures: number, fail: (reason: string) => SyncError): Promise<void> {
    const delayMs = this.options.backoffMs * 2 ** (failures - 1);
    if (delayMs >= this.leftMs()) throw fail(`${reason}; retry ${failures} of ${this.options.retries} would start after the sync's deadline (--deadline leaves ${seconds(this.leftMs())})`);
    this.options.onNote(`${label}: ${this.redact(reason)}; retry ${failures} of ${this.options.retries} in ${seconds(delayMs)}`);
    await this.options.sleep(delayMs);
  }

  /** Retry-After (seconds or an HTTP date), else X-RateLimit-Reset (an ISO 8601 time, or Unix seconds from older servers); undefined if neither. */
  private retryAfterMs(headers: IncomingHttpHeaders): number | undefined {
    const now = this.options.now();
    const retryAfter = headers["retry-after"];
    if (typeof retryAfter === "string" && retryAfter.trim() !== "") {
      if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
      const date = Date.parse(retryAfter);
      if (!Number.isNaN(date)) return Math.max(0, date - now);
    }
    const reset = headers["x-ratelimit-reset"];
    if (typeof reset === "string" && /^\d+$/.test(reset.trim())) return Math.max(0, Number(reset.trim()) * 1000 - now);
    const resetAt = typeof reset === "string" ? Date.parse(reset) : Number.NaN;
    if (!Number.isNaN(resetAt)) return Math.max(0, resetAt - now);
    return undefined;
  }

  /** Whatever the source echoes back, the key never reaches a message. */
  private redact(text: string): string {
    return this.options.key === "" ? text : text.split(this.options.key).join("[key]");
  }

  /** What is left of the sync's deadline, in ms (0 once it has passed). */
  private leftMs(): number {
    return Math.max(0, this.deadlineAt - this.options.now());
  }

  private send(url: URL, headers: OutgoingHttpHeaders): Promise<RawResponse> {
    const { maxAnswerBytes, readTimeoutMs, deadlineMs } = this.options;
    const maxTotalBytes = ANSWERS_PER_TOTAL * maxAnswerBytes;
    const pastDeadline = (what: string): Refusal =>
      new Refusal(`the sync passed its deadline of ${seconds(deadlineMs)} (--deadline) ${what}; nothing was written, run it again or give it longer`);
    const leftMs = this.leftMs();
    if (leftMs === 0) return Promise.reject(pastDeadline("before this request"));
    const transport = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      let isSettled = false;
      /** Bytes on the wire, and after decompression (the same for an identity body). */
      let received = 0;
      let decoded = 0;
      const chunks: Buffer[] = [];
      let decoder: Transform | undefined;
      const settle = (outcome: Error | RawResponse): void => {
        if (isSettled) return;
        isSettled = true;
        clearTimeout(deadline);
        if (!(outcome instanceof Error)) {
          this.totalBytes += decoded;
          resolve(outcome);
          return;
        }
        // Stops the transfer and the decoder where they are: nothing more is read or inflated.
        decoder?.destroy();
        request.destroy();
        reject(outcome);
      };
      const request = transport(url, { method: "GET", headers, agent: this.agent, timeout: readTimeoutMs }, (response) => {
        const declared = response.headers["content-length"];
        const encoding = String(response.headers["content-encoding"] ?? "").trim().toLowerCase() || "identity";
        const cutOff = (): TransferError => new TransferError(
          `the body was cut off: ${received}${declared === undefined ? "" : ` of ${declared}`} bytes arrived before the connection closed`,
        );
        const complete = (): void => settle({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), bytes: received });
        if (declared !== undefined && Number(declared) > maxAnswerBytes) {
          settle(new Refusal(`the answer announces ${Number(declared).toLocaleString("en")} bytes (Content-Length), over the ${mebibytes(maxAnswerBytes)} one answer may hold (--max-answer-mb); none of it was read`));
          return;
        }
        const keep = (chunk: Buffer): void => {
          if (isSettled) return;
          decoded += chunk.length;
          if (decoded > maxAnswerBytes) {
            settle(new Refusal(`the answer is larger than the ${mebibytes(maxAnswerBytes)} one answer may hold (--max-answer-mb)${encoding === "identity" ? "" : ` once its ${encoding} coding is undone (${received.toLocaleString("en")} bytes on the wire had inflated past it)`}; the transfer was cut there`));
            return;
          }
          if (this.totalBytes + decoded > maxTotalBytes) {
            settle(new Refusal(`the answers of this sync together pass ${mebibytes(maxTotalBytes)} (${ANSWERS_PER_TOTAL} × --max-answer-mb); the transfer was cut there`));
            return;
          }
          chunks.push(chunk);
        };
        const Decoder = DECODERS.get(encoding);
        if (Decoder === undefined && encoding !== "identity") {
          settle(new Refusal(`the answer came with Content-Encoding ${JSON.stringify(encoding)}, which was not asked for (Accept-Encoding: ${ACCEPT_ENCODING}); none of it was read`));
          return;
        }
        if (Decoder !== undefined) {
          decoder = Decoder();
          decoder.on("data", keep);
          decoder.on("error", (error) => settle(new TransferError(`the ${encoding} body does not decode (${error.message}); it was probably cut off`)));
          decoder.on("end", complete);
        }
        response.on("data", (chunk: Buffer) => {
          if (isSettled) return;
          received += chunk.length;
          if (received > maxAnswerBytes) {
            settle(new Refusal(`the answer is larger than the ${mebibytes(maxAnswerBytes)} one answer may hold (--max-answer-mb); the transfer was cut there`));
            return;
          }
          if (decoder !== undefined) decoder.write(chunk);
          else keep(chunk);
        });
        response.on("error", () => settle(cutOff()));
        response.on("close", () => {
          if (!response.complete) settle(cutOff());
        });
        response.on("end", () => {
          if (!response.complete || (declared !== undefined && Number(declared) !== received)) {
            settle(cutOff());
            return;
          }
          // An empty body (a 304, an empty error) has nothing to decode, whatever its coding says.
          if (decoder !== undefined && received > 0) decoder.end();
          else complete();
        });
      });
      const deadline = setTimeout(() => settle(pastDeadline(`while an answer was arriving (${received.toLocaleString("en")} bytes so far)`)), leftMs);
      request.on("timeout", () => settle(new TransferError(`no byte arrived for ${seconds(readTimeoutMs)} (--read-timeout)`)));
      request.on("error", (error) => settle(error instanceof TransferError ? error : new TransferError(connectionFailure(error))));
      request.end();
    });
  }
}

const ACCEPT_ENCODING = "br, gzip";

/** The codings a body may come in (we ask for br and gzip; deflate and x-gzip are understood too). */
const DECODERS: ReadonlyMap<string, () => Transform> = new Map([
  ["br", createBrotliDecompress],
  ["gzip", createGunzip],
  ["x-gzip", createGunzip],
  ["deflate", createInflate],
]);

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 ** 2).toLocaleString("en", { maximumFractionDigits: 2 })} MiB`;
}

function connectionFailure(error: Error): string {
  const code = "code" in error ? String(error.code) : "";
  switch (code) {
    case "ECONNREFUSED": return "the connection was refused (ECONNREFUSED)";
    case "ECONNRESET": return "the connection was reset (ECONNRESET)";
    case "ENOTFOUND": return "the host name does not resolve (ENOTFOUND)";
    default: return `the request failed: ${error.message}${code && !error.message.includes(code) ? ` (${code})` : ""}`;
  }
}

/** `401 INVALID_API_KEY: The API key is invalid`, from the error envelope when the body is one. */
export function describeFailure(status: number, body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
      const { error } = parsed;
      if (typeof error === "object" && error !== null) {
        const code = "code" in error && typeof error.code === "string" ? ` ${error.code}` : "";
        const message = "message" in error && typeof error.message === "string" ? `: ${error.message}` : "";
        return `HTTP ${status}${code}${message}`;
      }
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): the status says what there is to say.
  }
  return `HTTP ${status} (not an API answer)`;
}

export function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}
