// POST /mcp: the Model Context Protocol over Streamable HTTP (docs/mcp.md), stateless, JSON answers.
// The dispatcher has already done what a REST request gets: the key (X-API-Key or Authorization:
// Bearer, 401 in our envelope before anything else), one token from the key's bucket (429), the
// JSON content type and the 64 KiB body bound. Then the official SDK's web-standard transport
// (WebStandardStreamableHTTPServerTransport) answers the one JSON-RPC message, with a fresh server
// and transport per request as its stateless mode asks: no session is kept, so a flood of
// initializations holds nothing. GET and DELETE /mcp (the SSE stream, session end) are 405.

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ApiError } from "../../query/api-error.js";
import { compileParams } from "../../query/params.js";
import type { RequestContext } from "../context.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { createMcpServer } from "./mcp-server.js";
import { McpTools } from "./mcp-tools.js";

export const mcpBodySchema = {
  type: "object",
  description: "One JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, notifications); batches are refused",
  required: ["jsonrpc"],
  properties: { jsonrpc: { const: "2.0" }, method: { type: "string" } },
} as const;

/** What the SDK's transport is given besides the body: a client's Accept is not ours to pass on, the answer is always JSON. */
const TRANSPORT_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function parseMessage(body: Buffer | undefined): unknown {
  let value: unknown;
  try {
    value = JSON.parse((body ?? Buffer.alloc(0)).toString("utf8"));
  } catch (error) {
    throw new ApiError("INVALID_JSON", { reason: (error as Error).message }, `The request body is not valid JSON: ${(error as Error).message}`);
  }
  // One message, one token: a batch would be many calls for one token (batches left the protocol in 2025-06-18).
  if (Array.isArray(value)) throw new ApiError("VALIDATION_ERROR", { errors: [{ path: "/", message: "must be one JSON-RPC message, not a batch" }] }, "Send one JSON-RPC message per request; batches are not accepted");
  return value;
}

export function mcpRoutes(routeTable: () => readonly RouteDefinition[]): RouteDefinition[] {
  let tools: McpTools | undefined;
  const handle = async (context: RequestContext): Promise<Reply> => {
    const message = parseMessage(context.body);
    tools ??= new McpTools(routeTable());
    const server = createMcpServer(tools, {
      editions: () => context.editions, changes: context.changes, cached: context.cached, now: () => context.now,
    }, () => context.requestId);
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true }) // no sessionIdGenerator: stateless;
    try {
      await server.connect(transport);
      const request = new Request("http://localhost/mcp", { method: "POST", headers: TRANSPORT_HEADERS, body: context.body ?? null });
      const response = await transport.handleRequest(request, { parsedBody: message });
      const body = Buffer.from(await response.arrayBuffer());
      return { status: response.status, body, contentType: response.headers.get("content-type") ?? "application/json" };
    } finally {
      await server.close();
    }
  };
  return [{
    method: "POST", path: "/mcp", access: "key", params: compileParams({}), bodySchema: mcpBodySchema, errors: ["INVALID_JSON", "VALIDATION_ERROR"],
    summary: "The Model Context Protocol over Streamable HTTP (stateless, JSON answers): the player tools for AI assistants; each request takes one token",
    response: {
      kind: "body",
      description: "The JSON-RPC answer (202 without a body for a notification); see docs/mcp.md",
      content: { "application/json": { type: "object", description: "A JSON-RPC 2.0 response" } },
    },
    handle,
  }];
}
