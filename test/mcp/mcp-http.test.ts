// POST /mcp with the SDK's own client over Streamable HTTP against a started service: the tools
// answer what the REST routes answer; a missing or wrong key is a 401 envelope, an empty bucket a 429.

import t from "tap";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startHarness, type Harness } from "../http/harness.js";
import { asStructured, BAD_CASES, goodCases, TOOL_NAMES, type Sample } from "./mcp-cases.js";

async function connect(harness: Harness, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "courtside-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${harness.base}/mcp`), { requestInit: { headers } }));
  return client;
}

async function sampleOf(harness: Harness): Promise<Sample> {
  const { body } = await harness.json("/api/players?teamType=curr&limit=2&sort=overall");
  const [first, second] = body.data;
  return { id: first._id, slug: first.slug, team: first.team, otherId: second._id };
}

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const post = (harness: Harness, headers: Record<string, string>, body: unknown = INITIALIZE) => fetch(`${harness.base}/mcp`, {
  method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body),
});

t.test("the SDK client over Streamable HTTP: tools listed, answers equal to REST", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const sample = await sampleOf(harness);
  for (const headers of [{ "x-api-key": harness.key }, { authorization: `Bearer ${harness.key}` }]) {
    const client = await connect(harness, headers);
    t.equal(client.getServerVersion()?.name, "courtside", `initialized with ${Object.keys(headers)[0]}`);
    const { tools } = await client.listTools();
    t.same(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort(), "every tool listed");
    for (const tool of tools) t.equal(tool.inputSchema.type, "object", `${tool.name} has an input schema`);
    const limit = tools.find((tool) => tool.name === "find_players")?.inputSchema.properties?.limit as { minimum?: number; maximum?: number };
    t.match(limit, { type: "integer", minimum: 1 }, "the REST parameter's constraints carried over");
    await client.close();
  }
  const client = await connect(harness, { "x-api-key": harness.key });
  for (const { tool, args, rest } of goodCases(sample)) {
    const result = await client.callTool({ name: tool, arguments: args });
    const answer = await harness.json(rest);
    t.equal(answer.status, 200, `${rest} answers`);
    t.notOk(result.isError, `${tool} ${JSON.stringify(args)} succeeds`);
    t.same(result.structuredContent, asStructured(answer.body), `${tool} ${JSON.stringify(args)} equals GET ${rest}`);
    const [content] = result.content as { type: string; text: string }[];
    t.ok(content?.type === "text" && content.text.length > 0, `${tool} has a text summary`);
  }
  const standing = await client.callTool({ name: "player_percentiles", arguments: { id: sample.id, cohort: "all" } });
  const rest = (await harness.json(`/api/players/${sample.id}/percentiles?cohort=all`)).body.data;
  t.match((standing.content as { text: string }[])[0]?.text, `among ${rest.cohort.size} (every player): overall percentile ${rest.overall.percentile}`, "the percentile summary names the cohort and the overall percentile");
  for (const { tool, args, names } of BAD_CASES) {
    const result = await client.callTool({ name: tool, arguments: args });
    t.equal(result.isError, true, `${tool} ${JSON.stringify(args)} is a tool error`);
    const [content] = result.content as { text: string }[];
    t.match(content?.text ?? "", names, `it names ${names}`);
  }
  await client.close();
});

t.test("arguments pass REST's length checks: an over-long name or value is REST's 400, never echoed (issue 40)", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const client = await connect(harness, { "x-api-key": harness.key });
  const errorOf = async (tool: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name: tool, arguments: args });
    t.equal(result.isError, true, `${tool}: a tool error`);
    const text = JSON.stringify(result);
    t.ok(text.length < 2_000, `${tool}: the answer is small (${text.length} bytes), the argument not echoed`);
    return (result.structuredContent as { error: { code: string; message: string; details: unknown } }).error;
  };
  // A value: the same error as the REST parameter's (a URL that fits in a request head).
  const value = "a".repeat(600);
  const answer = await harness.json(`/api/players?team=${value}`);
  t.equal(answer.status, 400);
  const { code, message, details } = answer.body.error;
  t.same(await errorOf("find_players", { team: value }), { code, message, details }, "a 600-character team: REST's error");
  t.same(await errorOf("find_players", { team: "a".repeat(60_000) }), { code, message, details }, "60,000 characters: the same");
  // A name: REST's error for an over-long parameter name.
  const restName = (await harness.json(`/api/players?${"n".repeat(100)}=x`)).body.error;
  t.equal(restName.message, "parameter name is longer than the limit of 64 characters");
  const mcpName = await errorOf("find_players", { ["n".repeat(60_000)]: "x" });
  t.equal(mcpName.code, restName.code);
  t.equal(mcpName.message, restName.message, "a 60,000-character name: REST's error");
  t.equal(mcpName.code, "INVALID_PARAMETER");
  const path = await errorOf("player_history", { id: "i".repeat(60_000) });
  t.match(path.message, /longer than the limit of/, "a path argument: measured too");
  const many = await errorOf("list_editions", Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, "1"])));
  t.equal(many.message, "At most 100 query parameters", "more arguments than a query string may carry");
  await client.close();
});

t.test("keys and the bucket: refused in the envelope before the protocol", async (t) => {
  const harness = await startHarness({ rateLimit: 4 });
  t.teardown(() => harness.close());
  const missing = await post(harness, {});
  t.equal(missing.status, 401);
  t.match(await missing.json(), { success: false, error: { code: "MISSING_API_KEY" } }, "no key");
  const wrong = await post(harness, { "x-api-key": "cs_wrong_key_000000000000000000000000" });
  t.equal(wrong.status, 401);
  t.match(await wrong.json(), { success: false, error: { code: "INVALID_API_KEY" } }, "a wrong key");
  const wrongBearer = await post(harness, { authorization: "Bearer nope" });
  t.equal(wrongBearer.status, 401, "a wrong Bearer key");
  const restBearer = await harness.get("/api/players?limit=1", { "x-api-key": "", authorization: `Bearer ${harness.key}` });
  t.equal(restBearer.status, 401, "Bearer is read on /mcp only");
  for (const method of ["GET", "DELETE"]) {
    const response = await fetch(`${harness.base}/mcp`, { method, headers: { "x-api-key": harness.key } });
    t.equal(response.status, 405, `${method} /mcp is 405 (stateless: no stream, no session)`);
    t.match(response.headers.get("allow") ?? "", "POST");
  }
  // Four tokens: initialize and its notification take two, one tool call the third, a raw batch the fourth.
  const client = await connect(harness, { "x-api-key": harness.key });
  const first = await client.callTool({ name: "list_editions", arguments: {} });
  t.notOk(first.isError, "a call within the bucket");
  const batch = await post(harness, { "x-api-key": harness.key }, [INITIALIZE, INITIALIZE]);
  t.equal(batch.status, 400, "a batch is refused (one message, one token)");
  await t.rejects(client.callTool({ name: "list_editions", arguments: {} }), /429|RATE_LIMIT_EXCEEDED/, "the empty bucket refuses the next call");
  const refused = await post(harness, { "x-api-key": harness.key });
  t.equal(refused.status, 429);
  t.match(await refused.json(), { success: false, error: { code: "RATE_LIMIT_EXCEEDED" } }, "in our envelope");
  t.ok(refused.headers.get("retry-after"), "with Retry-After");
  await client.close().catch(() => undefined);
});

t.test("the body is bounded and must be JSON", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const large = await post(harness, { "x-api-key": harness.key }, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", pad: "x".repeat(70 * 1024) }));
  t.equal(large.status, 413, "over 64 KiB");
  const notJson = await post(harness, { "x-api-key": harness.key }, "{nope");
  t.equal(notJson.status, 400);
  t.match(await notJson.json(), { error: { code: "INVALID_JSON" } });
  const wrongType = await fetch(`${harness.base}/mcp`, { method: "POST", headers: { "x-api-key": harness.key, "content-type": "text/plain" }, body: "{}" });
  t.equal(wrongType.status, 415);
  // A flood of initializations keeps nothing: stateless, no session id handed out.
  for (let i = 0; i < 50; i++) {
    const answer = await post(harness, { "x-api-key": harness.key });
    t.equal(answer.headers.get("mcp-session-id"), null);
    await answer.arrayBuffer();
  }
});

t.test("Origin: a web page that is not allowed is 403 in our envelope before the key, no token taken (DNS rebinding)", async (t) => {
  const harness = await startHarness({ rateLimit: 3, env: { MCP_ALLOWED_ORIGINS: "https://app.example, http://tools.example:8080" } });
  t.teardown(() => harness.close());
  const port = new URL(harness.base).port;
  for (const origin of ["http://evil.example.com", `http://evil.example.com:${port}`, "null", "https://app.example.evil", "http://localhost.evil.example", "https://tools.example:8080"]) {
    for (const headers of [{ "x-api-key": harness.key }, {}]) {
      const refused = await post(harness, { ...headers, origin });
      t.equal(refused.status, 403, `${origin} ${"x-api-key" in headers ? "with" : "without"} a key: 403`);
      t.match(await refused.json(), { success: false, error: { code: "ORIGIN_NOT_ALLOWED", details: { origin } } }, "in our envelope, naming the origin");
    }
  }
  // The refusals took no token: three allowed requests still fit in the bucket of three.
  for (const origin of [`http://127.0.0.1:${port}`, "https://app.example", "http://tools.example:8080"]) {
    const answer = await post(harness, { "x-api-key": harness.key, origin });
    t.equal(answer.status, 200, `${origin} is allowed`);
    t.match(await answer.json(), { result: { serverInfo: { name: "courtside" } } });
  }
  t.equal((await post(harness, { "x-api-key": harness.key })).status, 429, "the bucket of three was spent by the three allowed requests only");
  // The REST routes do not check Origin (CORS governs what a page may read there).
  t.equal((await harness.get("/api/players?limit=1", { origin: "http://evil.example.com" })).status, 429, "REST: the same bucket's 429, not a 403");
});

t.test("Origin: by default loopback pages and clients without Origin only", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  for (const origin of ["http://localhost", "http://localhost:5173", "https://127.0.0.1:8443", "http://[::1]:3000", undefined]) {
    const answer = await post(harness, { "x-api-key": harness.key, ...(origin === undefined ? {} : { origin }) });
    t.equal(answer.status, 200, `${origin ?? "no Origin"} is answered`);
    await answer.arrayBuffer();
  }
  const refused = await post(harness, { "x-api-key": harness.key, origin: "https://app.example" });
  t.equal(refused.status, 403, "any other page: refused unless listed");
});

t.test("a repeated question's answer, compressed once and spliced with each caller's id, decodes to the plain answer in each encoding", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const { request } = await import("node:http");
  const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
  const raw = (id: unknown, encoding: string) => new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "find_players", arguments: { teamType: "curr", limit: 50, sort: "overall" } } });
    const sent = request(`${harness.base}/mcp`, {
      method: "POST", headers: { "x-api-key": harness.key, "content-type": "application/json", accept: "application/json, text/event-stream", "accept-encoding": encoding },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
  for (const id of [1, 2, "a-string-id", 12345678901, "ü\"\\"]) {
    const plain = await raw(id, "identity");
    t.equal(plain.encoding, undefined, `id ${JSON.stringify(id)}: identity`);
    const answer = JSON.parse(plain.body.toString("utf8"));
    t.equal(answer.id, id, `id ${JSON.stringify(id)}: the caller's id`);
    t.equal(answer.result.structuredContent.data.length, 50, "the rows");
    t.ok(plain.body.length > 1024, "large enough to be compressed");
    const br = await raw(id, "br");
    t.equal(br.encoding, "br");
    t.ok(brotliDecompressSync(br.body).equals(plain.body), `id ${JSON.stringify(id)}: Brotli decodes to the same bytes`);
    const gzip = await raw(id, "gzip");
    t.equal(gzip.encoding, "gzip");
    t.ok(gunzipSync(gzip.body).equals(plain.body), `id ${JSON.stringify(id)}: gzip decodes to the same bytes`);
  }
});
