// docs/mcp.md's table of tools, written from the tools themselves (mcp-tools.ts: their input
// schemas are the REST parameters'), so it never names an argument a tool refuses. `npm run
// docs:api` rewrites the table between its markers; test/mcp/mcp-docs.test.ts fails when the
// committed one differs.

import type { McpTools } from "./mcp-tools.js";

export const MCP_TOOLS_BEGIN = "<!-- tools: generated from src/http/routes/mcp-tools.ts by `npm run docs:api`; do not edit by hand -->";
export const MCP_TOOLS_END = "<!-- /tools -->";

/** The table: each tool, the REST routes it answers from, and every argument it takes (required ones first, in bold). */
export function renderMcpToolTable(tools: McpTools): string {
  const rows = tools.tools.map((tool) => {
    const required = new Set(tool.inputSchema.required ?? []);
    const names = Object.keys(tool.inputSchema.properties);
    const listed = [
      ...names.filter((name) => required.has(name)).map((name) => `**\`${name}\`** (required)`),
      ...names.filter((name) => !required.has(name)).map((name) => `\`${name}\``),
      ...(tool.inputSchema.patternProperties === undefined ? [] : ["`{attribute}_gte`, `{attribute}_lte`"]),
    ];
    const routes = tools.routesOf(tool.name).map((path) => `\`GET ${path}\``).join(", ");
    return `| \`${tool.name}\` | ${routes} | ${listed.length === 0 ? "none" : listed.join(", ")} |`;
  });
  return [MCP_TOOLS_BEGIN, "| Tool | REST route it calls (in process, never over HTTP) | Arguments |", "|---|---|---|", ...rows, MCP_TOOLS_END].join("\n");
}

/** `text` (docs/mcp.md) with the table between its markers replaced by `table`; throws when the markers are missing. */
export function withMcpToolTable(text: string, table: string): string {
  const begin = text.indexOf(MCP_TOOLS_BEGIN);
  const end = text.indexOf(MCP_TOOLS_END);
  if (begin < 0 || end < begin) throw new Error("docs/mcp.md: the tool table's markers are missing");
  return text.slice(0, begin) + table + text.slice(end + MCP_TOOLS_END.length);
}
