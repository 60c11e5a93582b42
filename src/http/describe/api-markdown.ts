// docs/api.md: the OpenAPI document rewritten as a Markdown reference, as /llms-full.txt rewrites
// it as plain text (and with llms-txt.ts's pieces). Pure: it reads the document built by
// openapi.ts, so the reference cannot say anything the route table does not. `npm run docs:api`
// (deploy/docs-api.ts) writes the file; test/http/api-docs.test.ts fails when the committed one
// differs from what this renders.

import { BOUND, type Json, operationsOf, recordLines, resolve, responseLines, schemaText } from "./llms-txt.js";

/** The command that rewrites docs/api.md, named wherever the file is said to be stale. */
export const API_DOCS_COMMAND = "npm run docs:api";

/** `/api/players/{id}` → `/api/players/:id`, the route table's own spelling. */
const routePath = (path: string): string => path.replace(/\{([^}]+)\}/g, ":$1");

/** A Markdown table cell: pipes escaped, line breaks folded. */
const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

/** A GitHub heading anchor of `### \`GET /api/players/:id\``. */
const anchorOf = (method: string, path: string): string =>
  `${method} ${routePath(path)}`.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/ /g, "-");

/** A concrete value for each path parameter in the examples; a badge's slug on the badge routes. */
function exampleValue(name: string, path: string): string {
  switch (name) {
    case "slug": return path.startsWith("/api/badges") ? "deadeye" : "lebron-james";
    // Every :id route takes a slug as well as an _id: an example runs as it is written.
    case "id": return "stephen-curry";
    case "teamName": return "boston-celtics";
    case "version": return "2K26";
    case "attr": return "three_point_shot";
    case "file": return path.startsWith("/docs") ? "swagger-ui.css" : path.startsWith("/dashboard") ? "dashboard.js" : "explore.js";
    default: return name;
  }
}

/** Required query parameters of the examples. */
const EXAMPLE_QUERY: Readonly<Record<string, string>> = { q: "james", ids: "stephen-curry,rudy-gobert" };

/** Optional parameters some examples show, by route: a filter or two worth seeing. */
const EXAMPLE_EXTRA: Readonly<Record<string, string>> = {
  "GET /api/players": "position=guard&three_ball_gte=85&sort=speed:desc&limit=5&fields=name,overall,attributes",
  "GET /api/players/bulk": "era=curr&minRating=85",
  "GET /api/players/:id/similar": "limit=5",
  "GET /api/badges/:slug/players": "tier=hof&limit=10",
  "GET /api/trending": "days=30&direction=up",
  "GET /api/changes": "since=2026-11-01&limit=10",
};

/** Headers of the examples, by route: the WebSocket's upgrade (a plain GET gets 426). */
const EXAMPLE_HEADERS: Readonly<Record<string, readonly string[]>> = {
  "GET /api/live": ["-i", "-N", '-H "Connection: Upgrade"', '-H "Upgrade: websocket"', '-H "Sec-WebSocket-Version: 13"', '-H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="'],
};

/** Bodies of the examples, by route. */
const EXAMPLE_BODY: Readonly<Record<string, string>> = {
  "POST /api/register": '{"email":"me@example.com","name":"my app"}',
  "POST /api/players/batch": '{"names":["LeBron James","Nikola Jokic"],"slugs":["stephen-curry"]}',
  "POST /mcp": '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_players","arguments":{"q":"curry"}}}',
};

function exampleCommand(document: Json, method: string, path: string, operation: Json): string {
  const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) => resolve(document, parameter));
  const query = parameters
    .filter((parameter) => parameter.in === "query" && parameter.required === true)
    .map((parameter) => `${parameter.name}=${EXAMPLE_QUERY[parameter.name as string] ?? parameter.name}`);
  const extra = EXAMPLE_EXTRA[`${method} ${routePath(path)}`];
  if (extra !== undefined) query.push(extra);
  const url = `localhost:3000${path.replace(/\{([^}]+)\}/g, (_, name: string) => exampleValue(name, path))}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  const body = EXAMPLE_BODY[`${method} ${routePath(path)}`];
  const parts = ["curl", ...(method === "GET" ? [] : [`-X ${method}`]), ...(operation.security ? ['-H "X-API-Key: $KEY"'] : []), ...(EXAMPLE_HEADERS[`${method} ${routePath(path)}`] ?? [])];
  if (body !== undefined) parts.push('-H "Content-Type: application/json"', `-d '${body}'`);
  parts.push(`"${url}"`);
  return parts.join(" ");
}

/** The parameters as a table, the attribute bounds folded into one row. */
function parameterTable(document: Json, operation: Json): string[] {
  const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) => resolve(document, parameter));
  if (parameters.length === 0) return [];
  const rows: string[] = [];
  const bounds: string[] = [];
  for (const parameter of parameters) {
    const bound = BOUND.exec(parameter.name as string);
    if (bound && parameter.in === "query") {
      if (!bounds.includes(bound[1] as string)) bounds.push(bound[1] as string);
      continue;
    }
    const schema = parameter.schema ?? {};
    const type = schemaText(schema) + (schema.pattern === undefined ? "" : `, pattern \`${schema.pattern}\``);
    const fallback = parameter.required === true ? "required" : schema.default === undefined ? "" : `\`${JSON.stringify(schema.default)}\``;
    rows.push(`| \`${parameter.name}\` | ${parameter.in} | ${cell(type)} | ${cell(fallback)} | ${cell(parameter.description ?? "")} |`);
  }
  if (bounds.length > 0) {
    rows.push(`| \`{attribute}_gte\`, \`{attribute}_lte\` | query | integer 0–99 |  | ${cell(`inclusive bounds on one attribute; {attribute} is one of ${bounds.join(", ")}`)} |`);
  }
  return ["**Parameters**", "", "| name | in | type | default | meaning |", "|---|---|---|---|---|", ...rows, ""];
}

/** Successes (and 304) as llms-full.txt says them; errors as their codes, by status. */
function responseSections(document: Json, operation: Json): string[] {
  const lines = responseLines(document, operation);
  const statuses = Object.keys(operation.responses as Record<string, Json>);
  const answers: string[] = [];
  const errors: string[] = [];
  statuses.forEach((status, index) => {
    const schema = (operation.responses[status] as Json).content?.["application/json"]?.schema;
    const codes = (schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? []) as string[];
    // A 4xx without an error envelope (an export's 416) is an answer of its own.
    if (Number(status) < 400 || codes.length === 0) {
      answers.push(lines[index] as string);
      return;
    }
    errors.push(`- ${status}: ${codes.map((code) => `\`${code}\``).join(", ")}`);
  });
  return ["**Responses**", "", ...answers, "", ...(errors.length > 0 ? ["**Errors**", "", ...errors, ""] : [])];
}

function routeSection(document: Json, method: string, path: string, operation: Json): string[] {
  const lines = [`### \`${method} ${routePath(path)}\``, "", `${operation.summary}. ${operation.description ?? ""}`.trimEnd(), ""];
  lines.push(...parameterTable(document, operation));
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  if (body !== undefined) lines.push(`**Body** (\`application/json\`, ${operation.requestBody.description}): \`${schemaText(body)}\``, "");
  lines.push("**Example**", "", "```sh", exampleCommand(document, method, path, operation), "```", "");
  lines.push(...responseSections(document, operation));
  return lines;
}

/** The whole reference: the document's description, the routes by tag, the records, errors and headers. */
export function renderApiMarkdown(document: Json): string {
  const operations = operationsOf(document);
  const tags = (document.tags as { name: string; description: string }[]);
  const lines = [
    `# ${document.info.title}: reference`,
    "",
    `<!-- Generated from the route table by \`${API_DOCS_COMMAND}\` (src/http/describe/api-markdown.ts); do not edit by hand. test/http/api-docs.test.ts fails when this file differs from what the command writes. -->`,
    "",
    `This file is written from the same OpenAPI ${document.openapi} document the service serves at \`/api/openapi.json\`,`,
    "as `/llms-full.txt` and the `/docs` page are: what it says, the route table says. How Courtside differs from",
    "the hosted service is in [compatibility.md](compatibility.md).",
    "",
    ...(document.info.description as string).split("\n\n").flatMap((paragraph) => [paragraph, ""]),
    "## Routes",
    "",
  ];
  for (const tag of tags) {
    const ofTag = operations.filter(({ operation }) => (operation.tags as string[])[0] === tag.name);
    if (ofTag.length === 0) continue;
    lines.push(`- **${tag.name}** (${tag.description}): ${ofTag.map(({ method, path }) => `[\`${method} ${routePath(path)}\`](#${anchorOf(method, path)})`).join(", ")}`);
  }
  lines.push("");
  for (const tag of tags) {
    const ofTag = operations.filter(({ operation }) => (operation.tags as string[])[0] === tag.name);
    if (ofTag.length === 0) continue;
    lines.push(`## ${tag.name[0]!.toUpperCase()}${tag.name.slice(1)}`, "", `${tag.description}.`, "");
    for (const { method, path, operation } of ofTag) lines.push(...routeSection(document, method, path, operation));
  }
  lines.push("## Records", "");
  for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Json>)) {
    if (name === "ErrorCode") continue;
    lines.push(`### ${name}`, "");
    if (schema.description) lines.push(schema.description as string, "");
    lines.push(...recordLines(schema).map((line) => (line.startsWith("- ") ? line.replace(/^- ([^:]+): /, "- `$1`: ") : line)), "");
  }
  lines.push("## Errors", "", "Every error is `{ success: false, error: { code, message, details?, timestamp } }` with one of these codes:", "");
  lines.push("| code | status | message |", "|---|---|---|");
  for (const entry of (document.components.schemas.ErrorCode.description as string).split("\n\n")) {
    const match = /^([A-Z_]+) \((\d+)\): ([\s\S]*)$/.exec(entry);
    if (match) lines.push(`| \`${match[1]}\` | ${match[2]} | ${cell(match[3] as string)} |`);
  }
  lines.push("", "## Headers", "");
  for (const [name, header] of Object.entries(document.components.headers as Record<string, Json>)) lines.push(`- \`${name}\`: ${header.description}`);
  lines.push("");
  return lines.join("\n");
}
