// docs/api.md is generated from the route table (npm run docs:api): the committed file must be
// exactly what the generator writes today, so a route, parameter or error added without
// regenerating it fails here, naming the command.
import t from "tap";
import { readFileSync } from "node:fs";
import { apiDocsFile, renderApiDocs } from "../../deploy/docs-api.js";
import { API_DOCS_COMMAND } from "../../src/http/api-markdown.js";
import { buildRoutes } from "../../src/http/app.js";

const committed = readFileSync(apiDocsFile(), "utf8");
const generated = renderApiDocs();

t.test("the committed docs/api.md is what the generator writes", async (t) => {
  if (committed === generated) {
    t.pass("docs/api.md is current");
    return;
  }
  const committedLines = committed.split("\n");
  const generatedLines = generated.split("\n");
  const first = generatedLines.findIndex((line, index) => committedLines[index] !== line);
  const at = first === -1 ? Math.min(committedLines.length, generatedLines.length) : first;
  t.fail(`docs/api.md is stale: run \`${API_DOCS_COMMAND}\` to regenerate it (first difference at line ${at + 1}: committed ${JSON.stringify(committedLines[at] ?? "(end of file)")}, generated ${JSON.stringify(generatedLines[at] ?? "(end of file)")})`);
});

t.test("every route of the table has its section, with an example and its errors", async (t) => {
  for (const route of buildRoutes(() => true)) {
    const heading = `### \`${route.method} ${route.path}\``;
    const start = generated.indexOf(`${heading}\n`);
    t.ok(start >= 0, heading);
    const section = generated.slice(start, generated.indexOf("\n### ", start + heading.length));
    t.match(section, /\*\*Example\*\*\n\n```sh\ncurl /, `${heading}: an example`);
    t.match(section, /\*\*Errors\*\*\n\n(- \d{3}: .*\n)*- 500: `INTERNAL_ERROR`/, `${heading}: its errors`);
  }
});

t.test("the renderer reads the table: a route renamed in the table renames its section", async (t) => {
  const { buildOpenApi } = await import("../../src/http/openapi.js");
  const { renderApiMarkdown } = await import("../../src/http/api-markdown.js");
  const routes = buildRoutes(() => true).map((route) => (route.path === "/api/trending" ? { ...route, path: "/api/trending-now" } : route));
  const text = renderApiMarkdown(buildOpenApi(routes, { version: "0.0.0" }));
  t.ok(text.includes("### `GET /api/trending-now`"));
  t.notOk(text.includes("### `GET /api/trending`\n"));
  t.not(text, generated, "so a stale file differs from what the generator writes");
});
