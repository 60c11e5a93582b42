// A plain tools/call is answered by mcp-call.ts, not by the SDK (issue 45: the SDK's per-message
// work cost 5-10 times the REST request). The SDK stays the reference: every message here is sent
// to the service as it is and to the same service with every message left to the SDK
// (answersPlainCalls: false), and the two answers must be the same bytes, for every tool's good
// and bad arguments, both eras, every form of the 2026-07-28 headers, and ids of each kind; what
// is not a plain call (an extra member, another envelope key, headers that disagree) must still
// get the SDK's own answer. The direct path is counted, so the test cannot pass by never taking it.

import t, { type Test } from "tap";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { Dispatcher, type IncomingRequest, type Outgoing } from "../../src/http/dispatch.js";
import { Router } from "../../src/http/router.js";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { mcpRoutes } from "../../src/http/routes/mcp.js";
import { CallAnswers } from "../../src/http/routes/mcp-call.js";
import { TokenBuckets } from "../../src/limits/token-buckets.js";
import type { McpHeaders } from "../../src/http/context.js";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { fixtureEditions } from "../http/harness.js";
import { BAD_CASES, goodCases } from "./mcp-cases.js";

const dir = mkdtempSync(join(tmpdir(), "courtside-mcp-direct-"));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
for (const source of fixtureEditions()) writeEdition(dir, source, "2026-11-20");
const editions = loadEditionSet(dir);
const NOW = Date.parse("2026-11-22T12:00:00Z");

function dispatcher(answersPlainCalls: boolean): Dispatcher {
  const routes = buildRoutes(() => true);
  const at = routes.findIndex((route) => route.path === "/mcp");
  routes[at] = mcpRoutes(() => routes, { answersPlainCalls })[0]!;
  return new Dispatcher({
    router: new Router(routes), editions: () => editions, keys: { verify: () => ({ id: "test", slot: 0, rateLimit: 1_000_000_000 }) },
    buckets: new TokenBuckets(4, 4), registrationBuckets: new TokenBuckets(0, 4), ownerBuckets: new TokenBuckets(4, 1),
    now: () => NOW, responseCacheBytes: 16 << 20, corsOrigins: [], isDraining: () => false, maxBodyBytes: 65_536,
  });
}
const direct = dispatcher(true);
const reference = dispatcher(false);

let directAnswers = 0;
const reply = CallAnswers.prototype.reply;
CallAnswers.prototype.reply = function (this: CallAnswers, ...args: Parameters<typeof reply>) {
  directAnswers++;
  return reply.apply(this, args);
};
t.teardown(() => { CallAnswers.prototype.reply = reply; });

async function send(to: Dispatcher, message: unknown, headers: Partial<McpHeaders> = {}, acceptEncoding = ""): Promise<Outgoing> {
  const request: IncomingRequest = {
    method: "POST", url: "/mcp", rawQuery: "", apiKey: "test", ifNoneMatch: "", acceptEncoding, contentType: "application/json", origin: "",
    address: () => "127.0.0.1", body: Buffer.from(typeof message === "string" ? message : JSON.stringify(message)), isBodyTooLarge: false,
    mcpHeaders: { protocolVersion: "", method: "", name: "", ...headers },
  };
  return to.dispatch(request);
}

async function sample(): Promise<{ id: string; slug: string; team: string; otherId: string }> {
  const outgoing = await direct.dispatch({
    method: "GET", url: "/api/players", rawQuery: "teamType=curr&limit=2&sort=overall", apiKey: "test", ifNoneMatch: "", acceptEncoding: "", contentType: "", origin: "",
    address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
  });
  const [first, second] = JSON.parse((outgoing.body as Buffer).toString("utf8")).data;
  return { id: first._id, slug: first.slug, team: first.team, otherId: second._id };
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const base64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

/** A call in each era and each form of the modern headers: none (implied), plain, base64. */
function forms(name: string, args: Record<string, unknown> | undefined, id: unknown): { label: string; message: unknown; headers: Partial<McpHeaders> }[] {
  const params = args === undefined ? { name } : { name, arguments: args };
  const modern = { ...params, _meta: ENVELOPE };
  return [
    { label: "2025", message: { jsonrpc: "2.0", id, method: "tools/call", params }, headers: {} },
    { label: "2025 (its revision's header)", message: { method: "tools/call", params, jsonrpc: "2.0", id }, headers: { protocolVersion: "2025-06-18" } },
    { label: "2026-07-28 without headers", message: { jsonrpc: "2.0", id, method: "tools/call", params: modern }, headers: {} },
    { label: "2026-07-28 plain headers", message: { jsonrpc: "2.0", id, method: "tools/call", params: modern }, headers: { protocolVersion: "2026-07-28", method: "tools/call", name } },
    { label: "2026-07-28 base64 name", message: { jsonrpc: "2.0", id, method: "tools/call", params: modern }, headers: { protocolVersion: "2026-07-28", method: "tools/call", name: base64(name) } },
  ];
}

async function same(t: Test, label: string, message: unknown, headers: Partial<McpHeaders>, expectDirect: boolean): Promise<void> {
  const before = directAnswers;
  const got = await send(direct, message, headers);
  const taken = directAnswers - before;
  const want = await send(reference, message, headers);
  t.equal(taken, expectDirect ? 1 : 0, `${label}: ${expectDirect ? "answered directly" : "left to the SDK"}`);
  t.equal(got.status, want.status, `${label}: the SDK's status (${want.status})`);
  t.equal(got.body?.toString("utf8"), want.body?.toString("utf8"), `${label}: the SDK's bytes`);
}

t.test("every tool's answer, good and bad, both eras, each header form: the SDK's bytes", async (t) => {
  const s = await sample();
  let n = 0;
  for (const { tool, args } of [...goodCases(s), ...BAD_CASES.map(({ tool, args }) => ({ tool, args }))]) {
    for (const id of [++n, `id-${n}`, "ü\"\\\u2028"]) {
      // (U+2028 is escaped in the label only: TAP's parser reads it as a line end.)
      for (const form of forms(tool, args, id)) await same(t, `${tool} ${JSON.stringify(args)} ${form.label} id ${JSON.stringify(id).replace("\u2028", "\\u2028")}`, form.message, form.headers, true);
    }
  }
  // Asked again: from the second use the answer's head is kept compressed; the bytes are the same.
  for (const form of forms("find_players", { teamType: "curr", limit: 50 }, 7)) {
    for (let round = 0; round < 3; round++) await same(t, `find_players again (${form.label}, round ${round})`, form.message, form.headers, true);
  }
  await same(t, "no arguments at all", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_editions" } }, {}, true);
  await same(t, "a tool name outside ASCII, base64 in its header", { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "wérd", arguments: {}, _meta: ENVELOPE } },
    { protocolVersion: "2026-07-28", method: "tools/call", name: base64("wérd") }, true);
  // The envelope's clientInfo is optional (the SDK's classifier says so).
  const withoutInfo = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  await same(t, "an envelope without clientInfo", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_editions", _meta: withoutInfo } }, {}, true);
});

t.test("what is not a plain call is the SDK's to answer, in its own words", async (t) => {
  const call = (extra: Record<string, unknown> = {}, params: Record<string, unknown> = { name: "list_editions", arguments: {} }) => ({ jsonrpc: "2.0", id: 3, method: "tools/call", params, ...extra });
  const modern = (meta: Record<string, unknown>) => call({}, { name: "list_editions", arguments: {}, _meta: meta });
  const headers = { protocolVersion: "2026-07-28", method: "tools/call", name: "list_editions" };
  const cases: [string, unknown, Partial<McpHeaders>][] = [
    ["an extra member", call({ extra: 1 }), {}],
    ["a fractional id", { ...call(), id: 1.5 }, {}],
    ["a null id", { ...call(), id: null }, {}],
    ["an id of 201 characters", { ...call(), id: "x".repeat(201) }, {}],
    ["arguments as an array", call({}, { name: "list_editions", arguments: [] }), {}],
    ["no name", call({}, { arguments: {} }), {}],
    ["a numeric name", call({}, { name: 5 }), {}],
    ["a 2025 call with a progress token", call({}, { name: "list_editions", _meta: { progressToken: 1 } }), {}],
    ["jsonrpc 1.0", { ...call(), jsonrpc: "1.0" }, {}],
    ["another envelope key", modern({ ...ENVELOPE, "io.modelcontextprotocol/logLevel": "info" }), headers],
    ["an envelope naming another revision", modern({ ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2027-01-01" }), { ...headers, protocolVersion: "2027-01-01" }],
    ["an envelope of the revision alone", modern({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" }), headers],
    ["a malformed clientInfo", modern({ ...ENVELOPE, "io.modelcontextprotocol/clientInfo": "me" }), headers],
    ["a header naming another revision", modern(ENVELOPE), { ...headers, protocolVersion: "2025-11-25" }],
    ["a header naming another method", modern(ENVELOPE), { ...headers, method: "tools/list" }],
    ["a header naming another tool", modern(ENVELOPE), { ...headers, name: "find_players" }],
    ["a bad base64 name", modern(ENVELOPE), { ...headers, name: "=?base64?***?=" }],
    ["only the version header", modern(ENVELOPE), { protocolVersion: "2026-07-28" }],
    ["a version header with spaces around it", modern(ENVELOPE), { ...headers, protocolVersion: " 2026-07-28 " }],
    ["a name header too long to be read", call({}, { name: "n".repeat(800), arguments: {}, _meta: ENVELOPE }), { ...headers, name: base64("n".repeat(800)) }],
    ["tools/list", { jsonrpc: "2.0", id: 4, method: "tools/list" }, {}],
    ["a batch", [call()], {}],
  ];
  for (const [label, message, sent] of cases) await same(t, label, message, sent, false);
  // The envelope's verdict is remembered per envelope text; a bad one stays refused when sent again.
  for (let round = 0; round < 2; round++) await same(t, `a malformed clientInfo again (round ${round})`, modern({ ...ENVELOPE, "io.modelcontextprotocol/clientInfo": "me" }), headers, false);
});

t.test("a repeated call's kept head, spliced with each caller's id, decodes to the identity answer", async (t) => {
  const message = (id: unknown, meta: boolean) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_players", arguments: { q: "a" }, ...(meta ? { _meta: ENVELOPE } : {}) } });
  for (const meta of [false, true]) {
    for (const id of [1, 2, "three"]) {
      const plain = (await send(direct, message(id, meta), {}, "")).body as Buffer;
      const br = await send(direct, message(id, meta), {}, "br");
      const gzip = await send(direct, message(id, meta), {}, "gzip");
      t.match(br.headers, /Content-Encoding: br/, "Brotli");
      t.match(gzip.headers, /Content-Encoding: gzip/, "gzip");
      t.ok(brotliDecompressSync(br.body as Buffer).equals(plain), `${meta ? "2026-07-28" : "2025"} id ${JSON.stringify(id)}: Brotli decodes to the identity bytes`);
      t.ok(gunzipSync(gzip.body as Buffer).equals(plain), `${meta ? "2026-07-28" : "2025"} id ${JSON.stringify(id)}: gzip decodes to the identity bytes`);
      t.equal(JSON.parse(plain.toString("utf8")).result.structuredContent.meta.timestamp, new Date(NOW).toISOString(), "a search page's own timestamp");
    }
  }
});

t.test("a repeated call is remembered for the data it was read from: a reload answers from the new data; with the cache off nothing is remembered", async (t) => {
  const otherDir = mkdtempSync(join(tmpdir(), "courtside-mcp-direct-other-"));
  t.teardown(() => rmSync(otherDir, { recursive: true, force: true }));
  const { randomEdition } = await import("../fixtures/random-edition.js");
  writeEdition(otherDir, randomEdition(200, 99), "2026-11-21");
  const other = loadEditionSet(otherDir);
  let served = editions;
  for (const cacheBytes of [16 << 20, 0]) {
    served = editions;
    const routes = buildRoutes(() => true);
    const swapping = new Dispatcher({
      router: new Router(routes), editions: () => served, keys: { verify: () => ({ id: "test", slot: 0, rateLimit: 1_000_000_000 }) },
      buckets: new TokenBuckets(4, 4), registrationBuckets: new TokenBuckets(0, 4), ownerBuckets: new TokenBuckets(4, 1),
      now: () => NOW, responseCacheBytes: cacheBytes, corsOrigins: [], isDraining: () => false, maxBodyBytes: 65_536,
    });
    const rest = async () => {
      const outgoing = await swapping.dispatch({
        method: "GET", url: "/api/players", rawQuery: "teamType=curr&limit=3&sort=overall", apiKey: "test", ifNoneMatch: "", acceptEncoding: "", contentType: "", origin: "",
        address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
      });
      const { success: _success, ...structured } = JSON.parse((outgoing.body as Buffer).toString("utf8"));
      return structured;
    };
    const tool = async () => JSON.parse(((await send(swapping, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "find_players", arguments: { teamType: "curr", limit: 3, sort: "overall" } } })).body as Buffer).toString("utf8")).result.structuredContent;
    const label = cacheBytes === 0 ? "cache off" : "cache on";
    const before = await tool();
    t.same(await tool(), before, `${label}: asked again, the same answer`);
    t.same(before, await rest(), `${label}: REST's answer`);
    served = other;
    const after = await tool();
    t.not(JSON.stringify(after.data), JSON.stringify(before.data), `${label}: after a reload, the new data's players`);
    t.same(after, await rest(), `${label}: REST's answer from the new data`);
  }
});
