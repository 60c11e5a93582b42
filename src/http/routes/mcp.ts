// POST /mcp: the Model Context Protocol over Streamable HTTP (docs/mcp.md), stateless, JSON answers.
// The dispatcher has already done what a REST request gets: a browser's Origin (403 unless
// allowed), the key (X-API-Key or Authorization: Bearer, 401 in our envelope before anything
// else), one token from the key's bucket (429), the JSON content type and the 64 KiB body bound.
// A plain tools/call is then answered from the route's reply as the SDK would answer it
// (mcp-call.ts). Every other message is the official v2 SDK's, routed by its own isLegacyRequest: a
// 2026-07-28 request (its protocol version in `_meta`, no handshake) through its HTTP entry
// (createMcpHandler, modern only, on a kept server serving nothing else: mcp-server-pool.ts), a 2025 one (`initialize`, then requests)
// by one SDK server kept for them all (mcp-exchange.ts); nothing of a client is kept between
// requests, so a flood of initializations holds nothing. GET and
// DELETE /mcp (the 2025 SSE stream, session end) are 405.

import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY, type JSONRPCMessage, type McpHttpHandler } from "@modelcontextprotocol/server";
import { invalidParameter } from "../../query/api-error.js";
import { compileParams } from "../../query/params.js";
import { routeBody } from "../call-route.js";
import type { McpHeaders, RequestContext } from "../context.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { McpExchange } from "./mcp-exchange.js";
import { CallAnswers, plainToolCall } from "./mcp-call.js";
import { createMcpServer, mcpServerInfo } from "./mcp-server.js";
import { McpTools } from "./mcp-tools.js";
import { McpServerPool } from "./mcp-server-pool.js";

/**
 * One message (an object: a batch, an array, is refused by callRoute as VALIDATION_ERROR: one
 * message, one token, and batches left the protocol in 2025-06-18). Whether it is a valid JSON-RPC
 * message is the SDK's to say, in JSON-RPC's own error answer.
 */
export const mcpBodySchema = {
  type: "object",
  description: "One JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, notifications); batches are refused",
  properties: { jsonrpc: { type: "string", description: "2.0" }, method: { type: "string" } },
} as const;
const mcpBody = routeBody<JSONRPCMessage>(mcpBodySchema);

/** What the SDK's entry is given besides the body: a client's Accept is not ours to pass on, the answer is always JSON. */
const ENTRY_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
/** What the SDK's classifier is shown of a request besides its parsed message: a POST with no MCP headers (a 2026-07-28 message names its revision in `_meta`). */
const LEGACY_PROBE = new Request("http://localhost/mcp", { method: "POST", headers: ENTRY_HEADERS });

/**
 * The 2026-07-28 request headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) the SDK's entry is
 * shown. They exist for what stands between client and server (a gateway routes on them without
 * reading bodies), so the SDK checks them against the message and refuses a mismatch: a client's
 * own headers are handed on as sent (POST's are read by both adapters). A client that sends none of
 * them (older modern clients; MCP over stdio and in-process calls have none) is shown the ones its
 * message implies, so it is served as before. A 2025 message gets none (its revision is the one its
 * `initialize` agreed).
 */
function modernHeadersOf(sent: McpHeaders | undefined, message: unknown): Record<string, string> {
  if (sent === undefined || (sent.protocolVersion === "" && sent.method === "" && sent.name === "")) return standardHeadersOf(message);
  const headers: Record<string, string> = {};
  for (const [name, value] of [["mcp-protocol-version", sent.protocolVersion], ["mcp-method", sent.method], ["mcp-name", sent.name]] as const) {
    if (value === "") continue;
    // What a header may hold (printable ASCII; Mcp-Name's non-ASCII names travel base64-encoded), within bounds.
    if (!SENT_HEADER_TEXT.test(value)) throw invalidParameter(name, value.slice(0, 100), "must be printable ASCII, at most 1,000 characters (a name outside ASCII is sent =?base64?…?=)");
    headers[name] = value;
  }
  return headers;
}

const SENT_HEADER_TEXT = /^[\x20-\x7e]{1,1000}$/;

const HEADER_TEXT = /^[\x21-\x7e]{1,200}$/;

/** The headers a modern message implies (for a client that sent none). */
function standardHeadersOf(message: unknown): Record<string, string> {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: { _meta?: Record<string, unknown>; name?: unknown; uri?: unknown } };
  const version = params?._meta?.[PROTOCOL_VERSION_META_KEY];
  // A header value is printable ASCII: a message that names anything else is left for the SDK to refuse (the header missing).
  if (typeof version !== "string" || typeof method !== "string" || !HEADER_TEXT.test(version) || !HEADER_TEXT.test(method)) return {};
  const headers: Record<string, string> = { "mcp-protocol-version": version, "mcp-method": method };
  const name = method === "resources/read" ? params?.uri : params?.name;
  if (typeof name === "string") headers["mcp-name"] = `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
  return headers;
}

const INVALID_MESSAGE = Buffer.from(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON-RPC message" }, id: null }));

export interface McpRouteOptions {
  /** Plain tools/call messages answered by mcp-call.ts (default); false: every message by the SDK (the tests' reference). */
  answersPlainCalls?: boolean;
}

export function mcpRoutes(routeTable: () => readonly RouteDefinition[], { answersPlainCalls = true }: McpRouteOptions = {}): RouteDefinition[] {
  let tools: McpTools | undefined;
  let calls: CallAnswers | undefined;
  let modern: McpHttpHandler | undefined;
  let legacy: McpExchange<RequestContext> | undefined;
  /** The request each SDK Request stands for: the factory is handed the Request it serves. */
  const contexts = new WeakMap<Request, RequestContext>();
  const callContext = (context: RequestContext) => ({
    environment: { editions: () => context.editions, changes: context.changes, cached: context.cached, now: () => context.now, remembers: context.cachedReply !== undefined },
    requestId: context.requestId,
  });
  const handle = (context: RequestContext): Reply | Promise<Reply> => {
    const message = context.json;
    const served = tools ??= new McpTools(routeTable());
    const call = answersPlainCalls ? plainToolCall(message, context.mcpHeaders) : undefined;
    if (call === undefined) return sdkAnswer(context, message, served);
    calls ??= new CallAnswers(served, mcpServerInfo());
    return calls.reply(served.outcome(call.name, call.args, callContext(context).environment, context.requestId), call.era, call.id);
  };
  /** Any other message, answered by the SDK. */
  const sdkAnswer = async (context: RequestContext, message: unknown, served: McpTools): Promise<Reply> => {
    if (await isLegacyRequest(LEGACY_PROBE, message)) {
      // A 2025 message: the one server connected to our exchange answers it (mcp-exchange.ts).
      if (legacy === undefined) {
        const exchange = new McpExchange<RequestContext>();
        await createMcpServer(served, (id) => {
          const current = exchange.contextOf(id);
          if (current === undefined) throw new Error("MCP: a call outside a request");
          return callContext(current);
        }).connect(exchange);
        legacy = exchange;
      }
      const answer = legacy.exchange(message, context);
      if (answer === "invalid") return { status: 400, body: INVALID_MESSAGE, contentType: "application/json" };
      if (answer === undefined) return { status: 202, body: Buffer.alloc(0), contentType: "application/json" };
      return { status: 200, body: Buffer.from(JSON.stringify(await answer)), contentType: "application/json" };
    }
    // A 2026-07-28 message (its revision in `_meta`): the SDK's entry, which asks the factory for a
    // server to serve it on: one of the kept servers that is serving nothing (McpServerPool).
    if (modern === undefined) {
      const pool = new McpServerPool((entry) => createMcpServer(served, () => callContext(entry.context as RequestContext)));
      modern = createMcpHandler(({ requestInfo }) => {
        const current = requestInfo === undefined ? undefined : contexts.get(requestInfo);
        if (current === undefined) throw new Error("MCP: a server asked for outside a request");
        return pool.take(current);
      }, { legacy: "reject", responseMode: "auto", maxRequestBodySize: 64 * 1024 });
    }
    const request = new Request("http://localhost/mcp", { method: "POST", headers: { ...ENTRY_HEADERS, ...modernHeadersOf(context.mcpHeaders, message) }, body: context.body ?? null });
    contexts.set(request, context);
    const response = await modern.fetch(request, { parsedBody: message });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, body, contentType: response.headers.get("content-type") ?? "application/json" };
  };
  return [{
    method: "POST", path: "/mcp", access: "key", checksOrigin: true, params: compileParams({}), body: mcpBody, errors: ["ORIGIN_NOT_ALLOWED", "INVALID_PARAMETER"],
    summary: "The Model Context Protocol over Streamable HTTP (stateless, JSON answers): the player tools for AI assistants; each request takes one token",
    response: {
      kind: "body",
      description: "The JSON-RPC answer (202 without a body for a notification); see docs/mcp.md",
      content: { "application/json": { type: "object", description: "A JSON-RPC 2.0 response" } },
    },
    handle,
  }];
}
