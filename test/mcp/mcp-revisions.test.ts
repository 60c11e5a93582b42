// The protocol revisions on one POST /mcp and over stdio: a client of 2026-07-28 (the v2 SDK's,
// pinned: `server/discover`, no handshake, its revision in each request's `_meta`) and clients of
// 2025-11-25 and 2025-06-18 (the `initialize` handshake) each list and call every tool, answers
// equal to REST; the revision each gets is the one it asked for.

import t, { type Test } from "tap";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startHarness, type Harness } from "../http/harness.js";
import { asStructured, BAD_CASES, goodCases, TOOL_NAMES, type Sample } from "./mcp-cases.js";

const ENTRY = fileURLToPath(new URL("../../dist/server/main.js", import.meta.url));
const MODERN = "2026-07-28";

async function sampleOf(harness: Harness): Promise<Sample> {
  const { body } = await harness.json("/api/players?teamType=curr&limit=2&sort=overall");
  const [first, second] = body.data;
  return { id: first._id, slug: first.slug, team: first.team, otherId: second._id };
}

/** Every tool listed, every good case equal to REST (`same` compares), every bad case a tool error naming its argument. */
async function exercise(t: Test, client: Client, harness: Harness, sample: Sample, same: (a: unknown, b: unknown) => [unknown, unknown]): Promise<void> {
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort(), "every tool listed");
  for (const { tool, args, rest } of goodCases(sample)) {
    const result = await client.callTool({ name: tool, arguments: args });
    t.notOk(result.isError, `${tool} ${JSON.stringify(args)} succeeds`);
    const [got, want] = same(result.structuredContent, asStructured((await harness.json(rest)).body));
    t.same(got, want, `${tool} ${JSON.stringify(args)} equals GET ${rest}`);
  }
  for (const { tool, args, names } of BAD_CASES) {
    const result = await client.callTool({ name: tool, arguments: args });
    t.equal(result.isError, true, `${tool} ${JSON.stringify(args)} is a tool error`);
    t.match((result.content as { text: string }[])[0]?.text ?? "", names, `it names ${names}`);
  }
  // The resources: the editions, and every template read, each the REST answer as JSON text.
  const { resources } = await client.listResources();
  t.same(resources.map((resource) => resource.uri), ["courtside://editions"], "the editions are a resource");
  const { resourceTemplates } = await client.listResourceTemplates();
  t.same(resourceTemplates.map((template) => template.uriTemplate), ["courtside://players/{slug}{?edition}", "courtside://teams/{teamName}{?edition}", "courtside://teams/{teamName}/roster"], "three templates");
  const current = ((await harness.json("/api/versions")).body.data[0] as { gameVersion: string }).gameVersion;
  const team = encodeURIComponent(sample.team);
  for (const [uri, rest] of [
    ["courtside://editions", "/api/versions"],
    [`courtside://players/${sample.slug}`, `/api/players/slug/${sample.slug}`],
    [`courtside://players/${sample.slug}?edition=${current}`, `/api/versions/${current}/players/${sample.slug}`],
    [`courtside://teams/${team}`, `/api/teams/${team}/profile`],
    [`courtside://teams/${team}?edition=${current}`, `/api/teams/${team}/profile?gameVersion=${current}`],
    [`courtside://teams/${team}/roster`, `/api/teams/${team}/roster`],
  ] as const) {
    const { contents } = await client.readResource({ uri });
    t.equal(contents.length, 1, `${uri}: one content`);
    const [content] = contents as { uri: string; mimeType?: string; text?: string }[];
    t.match(content, { uri, mimeType: "application/json" });
    const [got, want] = same(JSON.parse(content?.text ?? "null"), asStructured((await harness.json(rest)).body));
    t.same(got, want, `${uri} holds GET ${rest}`);
  }
  for (const uri of ["courtside://players/no-such-player-anywhere", "courtside://nothing", "https://example.com/x", `courtside://teams/${team}/roster?edition=2K26`]) {
    const error = await client.readResource({ uri }).then(() => undefined, (failure: unknown) => failure as { code?: number; message?: string });
    // The SDK's ResourceNotFoundError: -32602 in the revisions it speaks (-32002 before 2025-11-25).
    t.ok(error?.code === -32602 || error?.code === -32002, `${uri}: an error (${String(error?.code)})`);
    t.match(error?.message ?? "", /NOT_FOUND|No resource courtside|No resource https/, `${uri}: resource not found`);
  }
  const bad = await client.readResource({ uri: `courtside://players/${sample.slug}?edition=twenty` }).then(() => undefined, (failure: unknown) => failure as { code?: number; message?: string });
  t.equal(bad?.code, -32602, "a bad edition: invalid params");
  t.match(bad?.message ?? "", /INVALID_VERSION/, "with the route's own error");
}

const asIs = (a: unknown, b: unknown): [unknown, unknown] => [a, b];
/** Over stdio the clock is the process's own: answers that stamp the time are compared without it. */
const withoutTime = (a: unknown, b: unknown): [unknown, unknown] => [strip(a), strip(b)];
function strip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, inner) => (key === "timestamp" || key === "generatedAt" ? undefined : inner));
}

t.test(`HTTP: a ${MODERN} client (v2 SDK, pinned), no handshake`, async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const sample = await sampleOf(harness);
  const client = new Client({ name: "courtside-test", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${harness.base}/mcp`), { requestInit: { headers: { "x-api-key": harness.key } } }));
  t.teardown(() => client.close());
  t.equal(client.getNegotiatedProtocolVersion(), MODERN, `speaks ${MODERN}`);
  t.equal(client.getServerVersion()?.name, "courtside", "server/discover named the server");
  await exercise(t, client, harness, sample, asIs);
  // On the wire: a JSON answer, no event stream.
  const raw = await fetch(`${harness.base}/mcp`, {
    method: "POST", headers: { "x-api-key": harness.key, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  t.equal(raw.status, 200);
  t.match(raw.headers.get("content-type") ?? "", /^application\/json/, `${MODERN}: a JSON answer`);
  t.equal(((await raw.json()) as { result: { tools: unknown[] } }).result.tools.length, TOOL_NAMES.length, "the tools, for a raw request");
  // A client that negotiates (auto) is offered the stateless revision too.
  const auto = new Client({ name: "courtside-test", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await auto.connect(new StreamableHTTPClientTransport(new URL(`${harness.base}/mcp`), { requestInit: { headers: { "x-api-key": harness.key } } }));
  t.equal(auto.getNegotiatedProtocolVersion(), MODERN, "auto negotiation picks it");
  await auto.close();
});

t.test(`HTTP: ${MODERN} headers are the client's own, checked against its message`, async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const post = (headers: Record<string, string>, method = "tools/list") => fetch(`${harness.base}/mcp`, {
    method: "POST", headers: { "x-api-key": harness.key, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: meta } }),
  });
  const matching = await post({ "mcp-protocol-version": MODERN, "mcp-method": "tools/list" });
  t.equal(matching.status, 200, "headers that say what the message says: answered");
  const none = await post({});
  t.equal(none.status, 200, "no MCP headers at all: answered (the message's own are assumed)");
  // What a gateway routing on Mcp-Method would believe is not what the body asks: refused, not served.
  const mismatched = await post({ "mcp-protocol-version": MODERN, "mcp-method": "tools/call" });
  t.not(mismatched.status, 200, `a Mcp-Method that is not the message's: ${mismatched.status}`);
  const mismatchedText = await mismatched.text();
  t.notMatch(mismatchedText, /"tools":\[/, "and no tool list in it");
  const otherVersion = await post({ "mcp-protocol-version": "2025-11-25", "mcp-method": "tools/list" });
  t.not(otherVersion.status, 200, `a MCP-Protocol-Version that is not the message's: ${otherVersion.status}`);
  const control = await post({ "mcp-protocol-version": MODERN, "mcp-method": "tools/list", "mcp-name": "=?base64?\u0001?=".replace("\u0001", "%%") });
  t.ok(control.status < 500, `an odd Mcp-Name is never a 5xx (${control.status})`);
});

t.test(`HTTP: ${MODERN} calls at once, each answered from its own question (servers are kept and reused, never shared by two requests)`, async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const { body } = await harness.json("/api/players?teamType=curr&limit=12&sort=overall");
  const ids = (body.data as { _id: string }[]).map((row) => row._id);
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const call = (id: number, method: string, params: Record<string, unknown>) => fetch(`${harness.base}/mcp`, {
    method: "POST", headers: { "x-api-key": harness.key, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }),
  }).then(async (response) => ({ status: response.status, answer: await response.json() as { id: number; result?: { structuredContent?: { data?: { _id?: string } } }; error?: unknown } }));
  for (let round = 0; round < 3; round++) {
    // Tool calls for twelve players, a refused call and a list in between: a server asked for and never connected
    // (an unknown method) or one answering an error must come back free, never answer another's question.
    const calls = ids.flatMap((id, n) => [
      call(100 * round + n, "tools/call", { name: "get_player", arguments: { id } }),
      ...(n % 4 === 0 ? [call(1000 + n, "no/such-method", {}), call(2000 + n, "tools/list", {})] : []),
    ]);
    const answers = await Promise.all(calls);
    for (const [n, id] of ids.entries()) {
      const { status, answer } = answers.find(({ answer }) => answer.id === 100 * round + n) ?? { status: 0, answer: undefined };
      t.equal(status, 200, `round ${round}: call ${n} answered`);
      t.equal(answer?.result?.structuredContent?.data?._id, id, `round ${round}: call ${n} answers for its own player`);
    }
    t.ok(answers.filter(({ answer }) => answer.id >= 1000 && answer.id < 2000).every(({ answer }) => answer.error !== undefined), `round ${round}: unknown methods are errors`);
  }
});

t.test("HTTP: the 2025 revisions, each answered in its own", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const sample = await sampleOf(harness);
  for (const version of ["2025-11-25", "2025-06-18"]) {
    const response = await fetch(`${harness.base}/mcp`, {
      method: "POST", headers: { "x-api-key": harness.key, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    t.equal(response.status, 200);
    t.match(response.headers.get("content-type") ?? "", /^application\/json/, "a JSON answer, no event stream");
    t.match(await response.json(), { result: { protocolVersion: version, serverInfo: { name: "courtside" }, capabilities: { tools: {} } } }, `initialize ${version}: agreed`);
    // The v2 SDK's client in its 2025 mode (no negotiation), offering this revision first.
    const client = new Client({ name: "courtside-test", version: "1" }, { supportedProtocolVersions: [version] });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${harness.base}/mcp`), { requestInit: { headers: { "x-api-key": harness.key } } }));
    t.equal(client.getNegotiatedProtocolVersion(), version, `the client speaks ${version}`);
    await exercise(t, client, harness, sample, asIs);
    await client.close();
  }
});

t.test("stdio: the same process answers a 2026-07-28 client and a 2025 one", async (t) => {
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const sample = await sampleOf(harness);
  const spawn = () => new StdioClientTransport({ command: process.execPath, args: [ENTRY, "mcp", "--data-dir", `${harness.dir}/data`], env: { PATH: process.env.PATH ?? "" }, stderr: "pipe" });
  for (const [label, options, version] of ([
    [MODERN, { versionNegotiation: { mode: { pin: MODERN } } }, MODERN],
    ["2025-11-25", { supportedProtocolVersions: ["2025-11-25"] }, "2025-11-25"],
    ["2025-06-18", { supportedProtocolVersions: ["2025-06-18"] }, "2025-06-18"],
  ]) as [string, ConstructorParameters<typeof Client>[1], string][]) {
    const client = new Client({ name: "courtside-test", version: "1" }, options);
    await client.connect(spawn());
    t.equal(client.getNegotiatedProtocolVersion(), version, `${label}: speaks ${version}`);
    await exercise(t, client, harness, sample, withoutTime);
    await client.close();
  }
});
