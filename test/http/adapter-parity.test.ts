// Issue 41: the node:http adapter answers what uWS answers, byte for byte: the same service over the
// same fixture editions, one on each adapter, asked the same few hundred URLs of every route family
// (bench/mixes.ts's lists: players pages, filtered queries, searches, bulk, rosters, parity routes,
// profiles, exports) plus errors, HEAD, conditional requests and compressed answers. Status, body and
// every header but the ones that name the connection or the moment (Date, Connection, Keep-Alive,
// uWS's own `uWebSockets` line) and the request id (random per server; normalised in bodies too).
// Skipped where only one adapter can start (Node 26 has no uWS addon).

import t from "tap";
import { Agent, request } from "node:http";
import { buildMixes } from "../../bench/mixes.js";
import { startHarness, type Harness } from "./harness.js";
import { ADAPTERS_HERE } from "../fixtures/uws-version.js";

t.setTimeout(300_000);

const SKIPPED_HEADERS = new Set(["date", "connection", "keep-alive", "uwebsockets", "x-request-id"]);

interface Raw { status: number; headers: string[]; body: Buffer }

function ask(h: Harness, agent: Agent, method: string, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: h.service.port, method, path, agent, headers: { "x-api-key": h.key, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const id = String(res.headers["x-request-id"] ?? "");
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = (res.rawHeaders[i] as string).toLowerCase();
          if (!SKIPPED_HEADERS.has(name)) lines.push(`${name}: ${res.rawHeaders[i + 1]}`);
        }
        let body = Buffer.concat(chunks);
        // The request id appears in some bodies (a 500's details); each server draws its own.
        if (id !== "" && body.includes(id)) body = Buffer.from(body.toString("latin1").replaceAll(id, "<id>"), "latin1");
        resolve({ status: res.statusCode ?? 0, headers: lines.sort(), body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

t.test("uWS and node:http answer the same bytes for every route family", { skip: ADAPTERS_HERE.length < 2 ? `only ${ADAPTERS_HERE.join()} can start here` : false }, async (t) => {
  const [uws, node] = await Promise.all([startHarness({ env: { HTTP_ADAPTER: "uws" } }), startHarness({ env: { HTTP_ADAPTER: "node" } })]);
  t.teardown(() => { uws.close(); node.close(); });
  // The same clock and the same buckets' history on both: the rate-limit headers match too.
  const mixes = buildMixes(uws.service.editions().current);
  const urls: Array<[method: string, path: string, headers: Record<string, string>]> = [];
  for (const mix of mixes) {
    // Every route family, a spread of each list (the lists run to thousands).
    const step = Math.max(1, Math.floor(mix.paths.length / 40));
    for (let i = 0; i < mix.paths.length; i += step) urls.push(["GET", mix.paths[i] as string, mix.acceptEncoding === "" ? {} : { "accept-encoding": mix.acceptEncoding }]);
  }
  for (const path of ["/", "/api/health", "/api/versions", "/api/stats", "/api/openapi.json", "/docs", "/llms.txt", "/api/nope", "/api/players?limit=abc", "/api/players/%zz", "/api/players?unknown=1", `/api/players?team=${"x".repeat(300)}`]) {
    urls.push(["GET", path, {}], ["HEAD", path, {}], ["GET", path, { "accept-encoding": "gzip" }]);
  }
  urls.push(["DELETE", "/api/players", {}], ["POST", "/api/players", {}], ["GET", "/api/players", { "x-api-key": "2k_wrong" }], ["GET", "/api/players?limit=5", { range: "bytes=0-10" }]);
  t.ok(urls.length >= 300, `${urls.length} requests`);
  const agents = [new Agent({ keepAlive: true }), new Agent({ keepAlive: true })] as const;
  t.teardown(() => { for (const agent of agents) agent.destroy(); });
  let differing = 0;
  for (const [index, [method, path, headers]] of urls.entries()) {
    const a = await ask(uws, agents[0], method, path, headers);
    const b = await ask(node, agents[1], method, path, headers);
    const etag = a.headers.find((line) => line.startsWith("etag: "))?.slice(6);
    const same = a.status === b.status && a.body.equals(b.body) && a.headers.join("\n") === b.headers.join("\n");
    if (!same && differing++ < 5) {
      t.fail(`${method} ${path}`, { uws: { status: a.status, headers: a.headers, body: a.body.toString("latin1", 0, 200) }, node: { status: b.status, headers: b.headers, body: b.body.toString("latin1", 0, 200) } });
    }
    // Every tenth ETag'd answer: asked again with its ETag, 304 on both.
    if (etag !== undefined && method === "GET" && index % 10 === 0) {
      const [c, d] = [await ask(uws, agents[0], "GET", path, { ...headers, "if-none-match": etag }), await ask(node, agents[1], "GET", path, { ...headers, "if-none-match": etag })];
      t.equal(c.status, 304, `${path}: 304`);
      t.same(d, c, `${path}: the same 304`);
    }
  }
  t.equal(differing, 0, `every one of ${urls.length} answers is the same on both`);
});
