// The whole-edition JSON bulk body (issue 43): rendered once, compressed on zlib's threads, never
// on the request's thread, shared by the requests that wait for it, then kept with the edition.
// zlib's synchronous calls are counted by replacing them (Node's built-in ESM exports follow the
// CommonJS ones after syncBuiltinESMExports), so the test counts calls, not time.

import t from "tap";
import zlib from "node:zlib";
import { syncBuiltinESMExports } from "node:module";
import { request as httpRequest } from "node:http";
import { startHarness, type Harness } from "./harness.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { THREAD_COMPRESS_MIN_BYTES } from "../../src/http/encoding.js";

const sync = { brotli: 0, gzip: 0, largest: 0 };
const { brotliCompressSync, gzipSync } = zlib;
zlib.brotliCompressSync = ((buffer: zlib.InputType, options?: zlib.BrotliOptions) => {
  sync.brotli++;
  sync.largest = Math.max(sync.largest, (buffer as Buffer).length);
  return brotliCompressSync(buffer, options);
}) as typeof zlib.brotliCompressSync;
zlib.gzipSync = ((buffer: zlib.InputType, options?: zlib.ZlibOptions) => {
  sync.gzip++;
  sync.largest = Math.max(sync.largest, (buffer as Buffer).length);
  return gzipSync(buffer, options);
}) as typeof zlib.gzipSync;
syncBuiltinESMExports();
t.teardown(() => {
  zlib.brotliCompressSync = brotliCompressSync;
  zlib.gzipSync = gzipSync;
  syncBuiltinESMExports();
});

const h = await startHarness();
t.teardown(() => h.close());

/** The raw (still encoded) body and headers: fetch would decode it. */
function raw(path: string, encoding: string, on: Harness = h): Promise<{ status: number; encoding: string | undefined; etag: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: on.service.port, path, headers: { "x-api-key": on.key, "accept-encoding": encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, encoding: res.headers["content-encoding"], etag: res.headers.etag, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

for (const path of ["/api/players/bulk", "/api/versions/2K27/players/bulk?teamType=curr"]) {
  t.test(`${path}: the first requests wait for one build compressed off the thread, then it is kept`, async (t) => {
    const before = { ...sync };
    // Three at once, before anything is kept: one build, shared.
    const [br, gzip, identity] = await Promise.all([raw(path, "br"), raw(path, "gzip"), raw(path, "identity")]);
    for (const answer of [br, gzip, identity]) t.equal(answer.status, 200);
    t.equal(br.encoding, "br");
    t.equal(gzip.encoding, "gzip");
    t.equal(identity.encoding, undefined);
    t.ok(identity.body.length > 1024, `the body is ${identity.body.length} bytes: compressed when asked`);
    t.ok(zlib.brotliDecompressSync(br.body).equals(identity.body), "Brotli: the same bytes");
    t.ok(zlib.gunzipSync(gzip.body).equals(identity.body), "gzip: the same bytes");
    t.equal(br.etag, identity.etag, "one ETag");
    t.equal(sync.brotli - before.brotli, 0, "no synchronous Brotli on the request's thread");
    t.equal(sync.gzip - before.gzip, 0, "no synchronous gzip on the request's thread");
    const again = await raw(path, "br");
    t.ok(again.body.equals(br.body), "kept: the same Brotli body again");
    t.equal(sync.brotli - before.brotli, 0, "and not compressed again");
  });
}

t.test("any large answer (a filtered bulk page, a CSV export) is compressed off the thread too, once, then kept with it", async (t) => {
  // The demo's current edition, 1,842 rows: its CSV is several times THREAD_COMPRESS_MIN_BYTES.
  const big = await startHarness({ sources: generateDemoEditions({ asOf: "2026-11-20" }).filter((edition) => edition.status === "current") });
  t.teardown(() => big.close());
  const before = { ...sync };
  for (const path of ["/api/players/bulk?minRating=1", "/api/players/bulk?minRating=1&format=csv"]) {
    const [first, second] = await Promise.all([raw(path, "br", big), raw(path, "br", big)]);
    const identity = await raw(path, "identity", big);
    t.equal(first.status, 200, path);
    t.ok(identity.body.length >= THREAD_COMPRESS_MIN_BYTES, `${path}: ${identity.body.length} bytes, at least THREAD_COMPRESS_MIN_BYTES`);
    t.equal(first.encoding, "br", path);
    t.ok(zlib.brotliDecompressSync(first.body).equals(identity.body), `${path}: the same bytes`);
    t.ok(second.body.equals(first.body), `${path}: the request that waited with it gets the same body`);
  }
  t.equal(sync.brotli - before.brotli, 0, "no synchronous Brotli");
  // A small answer is compressed inline: well under a millisecond.
  const small = await raw("/api/players?limit=5", "br", big);
  t.equal(small.encoding, "br");
  t.ok(sync.largest < THREAD_COMPRESS_MIN_BYTES, `the largest body compressed inline was ${sync.largest} bytes`);
});
