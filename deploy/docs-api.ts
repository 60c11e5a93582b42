// `npm run docs:api`: writes docs/api.md, the Markdown API reference, from the route table (through
// the OpenAPI document, as /llms-full.txt is written), and docs/mcp.md's table of tools from the
// tools. test/http/api-docs.test.ts and test/mcp/mcp-docs.test.ts render them the same way and
// fail when the committed files differ.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packageVersion } from "../src/assets.js";
import { renderApiMarkdown } from "../src/http/describe/api-markdown.js";
import { buildRoutes } from "../src/http/routes/route-table.js";
import { buildOpenApi } from "../src/http/describe/openapi.js";
import { renderMcpToolTable, withMcpToolTable } from "../src/http/routes/mcp-docs.js";
import { McpTools } from "../src/http/routes/mcp-tools.js";

/** The reference as the route table says it today. */
export function renderApiDocs(): string {
  return renderApiMarkdown(buildOpenApi(buildRoutes(() => true), { version: packageVersion() }));
}

/** docs/mcp.md as the tools say it today: `text` (the committed file) with its table rewritten. */
export function renderMcpDocs(text: string): string {
  return withMcpToolTable(text, renderMcpToolTable(new McpTools(buildRoutes(() => true))));
}

/** docs/api.md of this checkout: the first folder above this file holding a package.json and docs/. */
export function apiDocsFile(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(join(directory, "package.json")) && existsSync(join(directory, "docs")))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`docs:api: no checkout (package.json and docs/) above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
  return join(directory, "docs", "api.md");
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = apiDocsFile();
  const mcpFile = join(dirname(file), "mcp.md");
  const committedMcp = readFileSync(mcpFile, "utf8");
  for (const [path, before, text] of [[file, existsSync(file) ? readFileSync(file, "utf8") : "", renderApiDocs()], [mcpFile, committedMcp, renderMcpDocs(committedMcp)]] as const) {
    if (before === text) {
      console.log(`docs:api: ${path} is current`);
    } else {
      writeFileSync(path, text);
      console.log(`docs:api: wrote ${path} (${text.split("\n").length} lines)`);
    }
  }
}
