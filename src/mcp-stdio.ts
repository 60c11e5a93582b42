// `courtside mcp` / `npm run mcp`: the MCP tools over stdio (docs/mcp.md), for an assistant that
// starts a local process. It reads the data directory itself (--data-dir, else $DATA_DIR, else
// data): no server, no key, no rate limit; the same tools, answering what the REST routes answer.
// stdout carries the protocol only: anything said to a person goes to stderr.

import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { parseArgs } from "node:util";
import { createMcpServer } from "./http/routes/mcp-server.js";
import { McpTools } from "./http/routes/mcp-tools.js";
import { buildRoutes } from "./http/routes/route-table.js";
import { loadEditionSet } from "./store/editions.js";

export async function runMcpStdio(argv: readonly string[], env: NodeJS.ProcessEnv, err: (text: string) => void): Promise<number | undefined> {
  let dataDir: string;
  try {
    const { values } = parseArgs({ args: [...argv], options: { "data-dir": { type: "string" } }, strict: true });
    dataDir = values["data-dir"] ?? env["DATA_DIR"] ?? "data";
  } catch (error) {
    err(`courtside mcp: ${(error as Error).message}`);
    return 2;
  }
  const editions = loadEditionSet(dataDir);
  const tools = new McpTools(buildRoutes(() => true));
  let requests = 0;
  const server = createMcpServer(tools, {
    editions: () => editions, changes: () => undefined, cached: (_key, build) => build(), now: () => Date.now(),
  }, () => `mcp-${(++requests).toString(36)}`);
  await server.connect(new StdioServerTransport());
  err(`courtside mcp: serving ${editions.current.key} from ${dataDir} over stdio`);
  return undefined;
}
