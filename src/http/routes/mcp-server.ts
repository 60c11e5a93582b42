// The MCP server over the tools (mcp-tools.ts), built with the official SDK's low-level Server:
// tools/list and tools/call, nothing else. One per connection over stdio; one per request over
// HTTP, which is stateless (the SDK's stateless mode wants a fresh server and transport per request).

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { packageVersion } from "../../assets.js";
import type { McpTools, ToolEnvironment } from "./mcp-tools.js";

export const MCP_INSTRUCTIONS = "Courtside serves basketball video-game player ratings (2K editions). "
  + "Find players with search_players (by name) or find_players (filters), then get_player, similar_players, player_percentiles, compare_players or player_history; "
  + "teams with team_roster and team_profile; editions with list_editions. Results are the REST API's { data, meta }.";

export function createMcpServer(tools: McpTools, environment: ToolEnvironment, requestIdOf: () => string): Server {
  const server = new Server({ name: "courtside", version: packageVersion() }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => tools.call(request.params.name, request.params.arguments, environment, requestIdOf()));
  return server;
}
