// docs/mcp.md's table of tools is written from the tools (npm run docs:api): the committed table
// must be what the generator writes today, so an argument a tool stops taking (or starts taking)
// fails here; and every argument it names is one the tool's input schema accepts.
import t from "tap";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { apiDocsFile, renderMcpDocs } from "../../deploy/docs-api.js";
import { McpTools } from "../../src/http/routes/mcp-tools.js";
import { buildRoutes } from "../../src/http/routes/route-table.js";

const file = join(dirname(apiDocsFile()), "mcp.md");
const committed = readFileSync(file, "utf8");

t.test("the committed tool table is what `npm run docs:api` writes", async (t) => {
  t.equal(committed, renderMcpDocs(committed), "docs/mcp.md's table is stale: run `npm run docs:api`");
});

t.test("every argument the table names is in its tool's input schema, and every tool has its row", async (t) => {
  const tools = new McpTools(buildRoutes(() => true));
  for (const tool of tools.tools) {
    const row = committed.split("\n").find((line) => line.startsWith(`| \`${tool.name}\` |`));
    t.ok(row, `${tool.name} has a row`);
    const cells = (row ?? "").split(" | ");
    const named = [...(cells[2] ?? "").matchAll(/`([A-Za-z_{}]+)`/g)].map((match) => match[1] as string).filter((name) => !name.startsWith("{attribute}"));
    for (const name of named) t.ok(Object.hasOwn(tool.inputSchema.properties, name), `${tool.name}: ${name} is an argument it takes`);
    t.same(named.sort(), Object.keys(tool.inputSchema.properties).sort(), `${tool.name}: every argument it takes is named`);
  }
  t.notMatch(committed, /`order`/, "find_players takes no `order` (sort takes field:direction)");
});
