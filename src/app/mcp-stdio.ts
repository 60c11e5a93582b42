// `courtside mcp` / `npm run mcp`: the MCP tools over stdio (docs/mcp.md), for an assistant that
// starts a local process. It reads the data directory itself (--data-dir, else $DATA_DIR, else
// data): no server, no key, no rate limit; the same tools, answering what the REST routes answer.
// stdout carries the protocol only: anything said to a person goes to stderr.

import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { parseArgs } from "node:util";
import { createMcpServer } from "../http/routes/mcp-server.js";
import { McpTools } from "../http/routes/mcp-tools.js";
import { buildRoutes } from "../http/routes/route-table.js";
import { loadEditionSet } from "../store/editions.js";
import type { Reply } from "../http/reply.js";

/** `2K27 (current), 2K26, …`, and which are demo data: every edition the tools answer from. */
export function servedEditions(ordered: readonly { key: string; isCurrent: boolean; isDemo: boolean }[]): string {
  const listed = ordered.map((edition) => `${edition.key}${edition.isCurrent ? " (current)" : ""}`).join(", ");
  const demo = ordered.filter((edition) => edition.isDemo);
  const note = demo.length === 0 ? ""
    : demo.length === ordered.length ? "; demo data: real names with invented ratings (docs/data.md says how to load real ones)"
      : `; ${demo.map((edition) => edition.key).join(", ")} demo data: invented ratings`;
  return `${listed}${note}`;
}

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
  const environment = { editions: () => editions, changes: () => undefined, cached: (_key: string, build: () => Reply) => build(), now: () => Date.now() };
  // The SDK's stdio entry picks the era from the opening message (server/discover: 2026-07-28; initialize: 2025) and pins one server to the connection.
  serveStdio(() => createMcpServer(tools, () => ({ environment, requestId: `mcp-${(++requests).toString(36)}` })), { onerror: (error) => err(`courtside mcp: ${error.message}`) });
  err(`courtside mcp: serving ${editions.ordered.length} edition${editions.ordered.length === 1 ? "" : "s"} from ${dataDir} over stdio: ${servedEditions(editions.ordered)}`);
  return undefined;
}
