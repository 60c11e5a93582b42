// A hostile upstream for the sync's bounds (issue 31): a real HTTP server on a free loopback port
// that passes every request through to a well-behaved source (the stand-in) untouched, except
// the paths it is told to attack. There it sends what a broken or malicious source would: a body
// without end, decompression bombs (gzip, deflate, brotli: kilobytes that inflate to a GiB), one
// byte at a time, a stall, 50,000 rows, or terminal escapes and fake log lines in what the sync
// prints.

import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

export type Attack =
  | "endless" | "gzip-bomb" | "deflate-bomb" | "brotli-bomb" | "trickle" | "stall" | "many-rows"
  | "escapes-in-row" | "escapes-in-error";

/** What a source may print into the operator's log if nothing escapes it: a screen clear, a window title, a bell and a forged line. */
export const FORGED_TEXT = "evil\u001b[2J\u001b]0;owned\u0007\u009b31m\u202e\nsync: wrote data/2K99.msgpack (current, 1 players, 1 KiB)\r\nsync: synced";

export interface HostileUpstream {
  base: string;
  /** Every later request for `path` (with its query) gets `attack`. */
  attack(path: string, attack: Attack): void;
  /** Bytes the attacks wrote, and whether the sync hung up on each before the attack ran out. */
  readonly sent: { bytes: number; hungUp: number };
  close(): Promise<void>;
}

const MIB = 1024 ** 2;

/** `copies` gzip members of 1 MiB of zeros each: a valid gzip body (RFC 1952 allows members back to back), ~1 KiB per MiB. */
function gzipBomb(copies: number): Buffer {
  return Buffer.concat(new Array<Buffer>(copies).fill(gzipSync(Buffer.alloc(MIB), { level: 9 })));
}

let bombs: { gzip: Buffer; deflate: Buffer; br: Buffer } | undefined;
function bombsOnce(): { gzip: Buffer; deflate: Buffer; br: Buffer } {
  // 1 GiB behind ~1 MB of gzip, 256 MiB behind ~1 MB of deflate (one stream), 256 MiB behind ~50 KB of brotli.
  bombs ??= {
    gzip: gzipBomb(1024),
    deflate: deflateSync(Buffer.alloc(256 * MIB), { level: 1 }),
    br: brotliCompressSync(Buffer.alloc(256 * MIB), { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 24 } }),
  };
  return bombs;
}

/** `count` small rows, each valid on its own and with its own id and slug. */
function manyRows(count: number): Buffer {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) rows.push(`{"_id":"row${i}","name":"Player ${i}","slug":"player-${i}","team":"Team ${i % 30}","teamType":"allt","overall":${60 + (i % 40)}}`);
  return Buffer.from(`{"success":true,"data":[${rows.join(",")}],"meta":{"count":${count},"pagination":{"total":${count},"hasMore":false}}}`);
}

export async function startHostileUpstream(target: string): Promise<HostileUpstream> {
  const attacks = new Map<string, Attack>();
  const sent = { bytes: 0, hungUp: 0 };

  /** Writes `next()` until it returns undefined or the sync hangs up, `everyMs` apart (0: as fast as the socket takes it). */
  const stream = (response: ServerResponse, next: () => Buffer | undefined, everyMs: number): void => {
    let isClosed = false;
    response.on("close", () => {
      if (!response.writableFinished) sent.hungUp += 1;
      isClosed = true;
    });
    const write = (): void => {
      while (!isClosed) {
        const chunk = next();
        if (chunk === undefined) {
          response.end();
          return;
        }
        sent.bytes += chunk.length;
        const isReady = response.write(chunk);
        if (everyMs > 0) {
          setTimeout(write, everyMs);
          return;
        }
        if (!isReady) {
          response.once("drain", write);
          return;
        }
      }
    };
    write();
  };

  /** The stand-in's answer to the same request, decoded, for the attacks that alter a real answer. */
  const original = (request: IncomingMessage): Promise<{ status: number; body: any }> => new Promise((resolve, reject) => {
    const upstream = httpRequest(new URL(request.url ?? "/", target), { headers: { "x-api-key": request.headers["x-api-key"] ?? "" } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
    });
    upstream.on("error", reject);
    upstream.end();
  });

  const attack = async (kind: Attack, request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const json = { "content-type": "application/json; charset=utf-8" };
    switch (kind) {
      case "endless": {
        // No Content-Length: chunked, and never finished.
        response.writeHead(200, json);
        const filler = Buffer.from(`{"success":true,"data":[${`{"name":"${"x".repeat(1000)}"},`.repeat(64)}`);
        stream(response, () => filler, 0);
        return;
      }
      case "gzip-bomb":
      case "deflate-bomb":
      case "brotli-bomb": {
        const coding = kind === "gzip-bomb" ? "gzip" : kind === "deflate-bomb" ? "deflate" : "br";
        const body = bombsOnce()[coding];
        response.writeHead(200, { ...json, "content-encoding": coding, "content-length": String(body.length) });
        let at = 0;
        stream(response, () => {
          if (at >= body.length) return undefined;
          const chunk = body.subarray(at, at + 64 * 1024);
          at += chunk.length;
          return chunk;
        }, 0);
        return;
      }
      case "trickle": {
        // A whole answer announced, then one byte every 100 ms: every read is well within the read timeout.
        response.writeHead(200, { ...json, "content-length": "1000000" });
        const byte = Buffer.from(" ");
        stream(response, () => byte, 100);
        return;
      }
      case "stall": {
        response.writeHead(200, { ...json, "content-length": "1000" });
        response.write("{\"success\":true,");
        return;
      }
      case "many-rows": {
        const body = manyRows(50_000);
        response.writeHead(200, { ...json, "content-length": String(body.length) });
        response.end(body);
        return;
      }
      case "escapes-in-row": {
        const { body } = await original(request);
        body.data[0].slug = FORGED_TEXT;
        body.data[0].name = FORGED_TEXT;
        body.data[0].overall = 104;
        const bytes = Buffer.from(JSON.stringify(body));
        response.writeHead(200, { ...json, "content-length": String(bytes.length) });
        response.end(bytes);
        return;
      }
      case "escapes-in-error": {
        const bytes = Buffer.from(JSON.stringify({ success: false, error: { code: `BAD${FORGED_TEXT}`, message: `${FORGED_TEXT} ${"!".repeat(10_000)}` } }));
        response.writeHead(200, { ...json, "content-length": String(bytes.length) });
        response.end(bytes);
        return;
      }
    }
  };

  const server: Server = createServer((request, response) => {
    const kind = attacks.get(request.url ?? "");
    if (kind !== undefined) {
      attack(kind, request, response).catch(() => response.destroy());
      return;
    }
    // Everything else passes through as the source sent it (compressed or not, 304s included).
    const headers = { ...request.headers };
    delete headers.host;
    const upstream = httpRequest(new URL(request.url ?? "/", target), { headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => response.destroy());
    upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    attack(path, kind) {
      attacks.set(path, kind);
    },
    sent,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
