// The MCP server over the tools (mcp-tools.ts), built with the official v2 SDK's low-level Server
// (@modelcontextprotocol/server): tools/list and tools/call, and the records as resources
// (mcp-resources.ts: resources/list, resources/templates/list, resources/read). It speaks the
// 2026-07-28 revision (stateless: `server/discover`, no handshake, per-request `_meta`) and the
// 2025 revisions (the `initialize` handshake); the SDK's serving entries (createMcpHandler over
// HTTP, serveStdio) choose the era per request or connection and build one instance from this
// factory for it (docs/design-decisions.md says why).

import { Server, SUPPORTED_PROTOCOL_VERSIONS, type RequestId, type Tool } from "@modelcontextprotocol/server";
import { packageVersion } from "../../assets.js";
import { MCP_RESOURCE_TEMPLATES, MCP_RESOURCES, readResource } from "./mcp-resources.js";
import type { McpTools, ToolEnvironment } from "./mcp-tools.js";

export const MCP_INSTRUCTIONS = "Courtside serves basketball video-game player ratings (2K editions). "
  + "Find players with search_players (by name) or find_players (filters), then get_player, similar_players, player_percentiles, compare_players or player_history; "
  + "teams with team_roster and team_profile; editions with list_editions. Results are the REST API's { data, meta }.";

/** The stateless revision first, then every 2025-era revision the SDK implements (2025-11-25, 2025-06-18, …): a 2025 client's `initialize` gets its own when listed. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28", ...SUPPORTED_PROTOCOL_VERSIONS];

let info: { name: string; version: string } | undefined;

/** The server's name and version, as `initialize` and a 2026-07-28 result's `_meta` give them. */
export function mcpServerInfo(): { name: string; version: string } {
  return info ??= { name: "courtside", version: packageVersion() };
}

/** What a tool call is answered from: the service's data and the request's id, found from the JSON-RPC id the handler is given. */
export type CallContextOf = (id: RequestId) => { environment: ToolEnvironment; requestId: string };

export function createMcpServer(tools: McpTools, contextOf: CallContextOf): Server {
  const server = new Server({ ...mcpServerInfo() }, {
    capabilities: { tools: {}, resources: {} }, instructions: MCP_INSTRUCTIONS, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
  });
  // The input schemas are JSON Schema objects built from the routes' parameters: the SDK types them as JSON values.
  const listed = { tools: tools.tools as unknown as Tool[] };
  server.setRequestHandler("tools/list", () => listed);
  server.setRequestHandler("resources/list", () => ({ resources: MCP_RESOURCES }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: MCP_RESOURCE_TEMPLATES }));
  server.setRequestHandler("resources/read", (request, ctx) => {
    const { environment, requestId } = contextOf(ctx.mcpReq.id);
    return readResource(tools, request.params.uri, environment, requestId);
  });
  server.setRequestHandler("tools/call", (request, ctx) => {
    const { environment, requestId } = contextOf(ctx.mcpReq.id);
    return tools.call(request.params.name, request.params.arguments, environment, requestId);
  });
  return server;
}
