import t from "tap";
import { buildRoutes } from "../../src/http/app.js";
import { renderLlmsFullTxt, renderLlmsTxt, schemaText } from "../../src/http/llms-txt.js";
import { buildOpenApi, openApiPath } from "../../src/http/openapi.js";
import { ERROR_TABLE } from "../../src/query/api-error.js";
import { startHarness } from "./harness.js";

const routes = buildRoutes(() => true);

const h = await startHarness();
t.teardown(() => h.close());

t.test("schemas read as TypeScript-like text", async (t) => {
  t.equal(schemaText({ $ref: "#/components/schemas/Player" }), "Player");
  t.equal(schemaText({ type: "array", items: { anyOf: [{ $ref: "#/x/A" }, { $ref: "#/x/B" }] } }), "(A | B)[]");
  t.equal(schemaText({ type: ["string", "null"] }), "string | null");
  t.equal(schemaText({ enum: ["up", "down"] }), '"up" | "down"');
  t.equal(schemaText({ type: "integer", minimum: 1, maximum: 100 }), "integer 1–100");
  t.equal(
    schemaText({ type: "object", required: ["count"], properties: { count: { type: "integer" }, next: { type: "string", format: "date" } } }),
    "{ count: integer; next?: string (date) }",
  );
  t.equal(schemaText({}), "any");
});

t.test("/llms.txt: served without a key as cacheable plain text, one line per route of the table", async (t) => {
  const response = await fetch(`${h.base}/llms.txt`);
  t.equal(response.status, 200);
  t.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
  t.equal(response.headers.get("cache-control"), "private, max-age=3600");
  t.equal(response.headers.get("x-ratelimit-limit"), "60", "limited per client address");
  const text = await response.text();
  t.match(text, /^# Courtside player ratings API\n\n> /);
  for (const route of routes) {
    t.ok(text.includes(`- ${route.method} ${openApiPath(route.path)}${route.access === "key" ? " (key)" : ""}: ${route.summary}\n`), `${route.method} ${route.path}`);
  }
  t.match(text, /\[Full reference[^\]]*\]\(\/llms-full\.txt\)/);
  const etag = response.headers.get("etag");
  t.match(etag, /^W\//);
  const again = await fetch(`${h.base}/llms.txt`, { headers: { "if-none-match": etag ?? "" } });
  t.equal(again.status, 304);
});

t.test("/llms-full.txt: every route, parameter, error code, header and limit, rendered from the served document", async (t) => {
  const response = await fetch(`${h.base}/llms-full.txt`);
  t.equal(response.status, 200);
  t.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
  t.ok(response.headers.get("etag"));
  const text = await response.text();
  const document = await (await fetch(`${h.base}/api/openapi.json`)).json();
  t.equal(text, renderLlmsFullTxt(document), "the same document, as text");
  t.equal(await (await fetch(`${h.base}/llms.txt`)).text(), renderLlmsTxt(document));
  for (const route of routes) {
    const heading = `### ${route.method} ${openApiPath(route.path)}\n`;
    t.ok(text.includes(heading), heading.trim());
    const section = text.slice(text.indexOf(heading), text.indexOf("\n### ", text.indexOf(heading) + 1));
    for (const name of route.params.names) {
      const bound = /^(.+)_(gte|lte)$/.exec(name);
      if (bound) t.ok(section.includes(`{attribute}_${bound[2]}`) && new RegExp(`[ ,]${bound[1]}(,|$)`, "m").test(section), `${route.path}: ${name}`);
      else t.ok(section.includes(`- \`${name}\` (`), `${route.path}: ${name}`);
    }
    for (const name of [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1] as string)) t.ok(section.includes(`- \`${name}\` (in path`), `${route.path}: path ${name}`);
  }
  for (const [code, { status }] of Object.entries(ERROR_TABLE)) t.ok(text.includes(`- ${code} (${status}): `), code);
  t.match(text, /500 requests per hour/);
  t.match(text, /60 requests per minute per client address/);
  for (const header of ["Retry-After", "ETag", "X-RateLimit-Remaining", "RateLimit-Policy"]) t.ok(text.includes(`- \`${header}\`: `), header);
  t.match(text, /### POST \/api\/players\/batch\n[\s\S]*?Body \(application\/json, JSON, at most 64 KiB\): \{ names\?: string\[\]/);
  // The _id line now says which ids there are (generated or kept from a source: docs/compatibility.md#fidelity-rules).
  t.match(text, /### Player\n\n[^\n]+\n\n- _id: string\b[^\n]*\n/);
});

t.test("the text is a pure function of the document", async (t) => {
  const document = buildOpenApi(routes, { version: "1.2.3" });
  t.equal(renderLlmsFullTxt(document), renderLlmsFullTxt(structuredClone(document)));
  t.match(renderLlmsFullTxt(document), /document version 1\.2\.3/);
});
