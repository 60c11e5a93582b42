// Every string a client sends is matched in linear time (issue 40). Three sources of regular
// expressions can see request input (paths, query strings, headers, bodies, /api/live messages,
// MCP arguments), and each is collected from the code itself, not from a copied list:
//   1. every regular-expression literal in the server's source (the TypeScript parser finds them),
//      outside the folders that never see a request (EXEMPT, each with its reason);
//   2. every `new RegExp` there, as the value its module exports (checked against the source, so
//      a new one must be exported and listed here);
//   3. every JSON-schema `pattern` (and patternProperties name) of the route table: parameter and
//      body schemas, every ajv validator made, and the MCP tools' input schemas.
// Each is proved linear by recheck (its pure-JavaScript backend: no binary, no network), so a
// pattern that backtracks fails here before it ships. Then issue 40's two attack shapes are
// replayed against a started service: each is answered with its status and bytes.

import t from "tap";
import ts from "typescript";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { checkSync } from "recheck";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { McpTools } from "../../src/http/routes/mcp-tools.js";
import { everyValidatorSchema } from "../../src/model/validator.js";
import { TOPIC_PATTERN } from "../../src/http/live.js";
import { byteRangeOf, RANGE_HEADER_MAX_LENGTH } from "../../src/http/ranges.js";
import { EMAIL_SHAPE } from "../../src/keys/key-records.js";
import { rawRequest, startHarness } from "./harness.js";

// recheck's synchronous check runs its pure-JavaScript analyser in this thread.
process.env.RECHECK_SYNC_BACKEND = "pure";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = join(ROOT, "src");

/** Folders whose code never matches request input, and why. */
const EXEMPT: Record<string, string> = {
  "src/web": "the Explorer and dashboard pages: code of the visitor's browser, not the server",
  "src/pipeline": "build-index and the importers: the operator's own files, read offline",
  "src/sync": "the sync client: the hosted service's answers, read by the operator's command",
  "src/http/describe": "the API documents: made from the route table's own paths and descriptions",
};

/** The `new RegExp` of the scanned source, by file, as their modules export them. */
const BUILT_PATTERNS: Record<string, readonly RegExp[]> = {
  "src/http/live.ts": [TOPIC_PATTERN],
};

interface Found { source: string; flags: string; where: string }

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const name = relative(ROOT, path);
    if (EXEMPT[name] !== undefined) continue;
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

/** Every regular-expression literal of the scanned source, and the files that build one with `new RegExp`. */
function literalsOfSource(): { literals: Found[]; built: Map<string, number> } {
  const literals: Found[] = [];
  const built = new Map<string, number>();
  for (const file of sourceFiles(SRC)) {
    const name = relative(ROOT, file);
    const text = readFileSync(file, "utf8");
    const sourceFile = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(sourceFile);
        const slash = literal.lastIndexOf("/");
        const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
        literals.push({ source: literal.slice(1, slash), flags: literal.slice(slash + 1), where: `${name}:${line}` });
      } else if (ts.isNewExpression(node) && node.expression.getText(sourceFile) === "RegExp") {
        built.set(name, (built.get(name) ?? 0) + 1);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return { literals, built };
}

/** Every `pattern` and patternProperties name within a JSON schema. */
function schemaPatterns(schema: unknown, where: string, into: Found[]): void {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => schemaPatterns(item, `${where}[${i}]`, into));
    return;
  }
  if (schema === null || typeof schema !== "object") return;
  for (const [key, value] of Object.entries(schema)) {
    // ajv compiles patterns with the u flag (its unicodeRegExp default).
    if (key === "pattern" && typeof value === "string") into.push({ source: value, flags: "u", where: `${where}.pattern` });
    if (key === "patternProperties" && value !== null && typeof value === "object") {
      for (const name of Object.keys(value)) into.push({ source: name, flags: "u", where: `${where}.patternProperties` });
    }
    schemaPatterns(value, `${where}.${key}`, into);
  }
}

function schemaPatternsOfRoutes(): Found[] {
  const found: Found[] = [];
  const routes = buildRoutes(() => true);
  for (const route of routes) {
    const where = `${route.method} ${route.path}`;
    for (const [name, schema] of Object.entries(route.params.schemas)) schemaPatterns(schema, `${where} ?${name}`, found);
    if (route.params.anyBound !== undefined) schemaPatterns(route.params.anyBound.schema, `${where} ?{attribute}_gte`, found);
    if (route.body !== undefined) schemaPatterns(route.body.schema, `${where} body`, found);
  }
  // Every ajv validator made (the body validators, every parameter schema, the record schemas).
  everyValidatorSchema().forEach((schema, i) => schemaPatterns(schema, `validator ${i}`, found));
  for (const tool of new McpTools(routes).tools) schemaPatterns(tool.inputSchema, `MCP ${tool.name}`, found);
  return found;
}

/** recheck's verdict on one expression (flags g and y change where a match starts, not how one runs). */
function verdict(source: string, flags: string): string {
  // The automaton checker first: exact and deterministic. It cannot read lookarounds, and only for
  // those the fuzz checker decides, with a fixed seed so that a run does not depend on chance.
  const bare = flags.replace(/[gy]/g, "");
  const exact = checkSync(source, bare, { checker: "automaton", timeout: 120_000 });
  const result = exact.status === "unknown" ? checkSync(source, bare, { checker: "fuzz", randomSeed: 40, timeout: 120_000 }) : exact;
  if (result.status === "safe") return "safe";
  if (result.status === "vulnerable") return `vulnerable (${result.complexity.summary}; attack ${JSON.stringify(result.attack.pattern)})`;
  return `${result.status} (${result.error.kind})`;
}

t.test("every regular expression and schema pattern that can see request input is linear", (t) => {
  const { literals, built } = literalsOfSource();
  t.ok(literals.length > 50, `the source's literals were found (${literals.length})`);
  t.same(Object.fromEntries(built), Object.fromEntries(Object.entries(BUILT_PATTERNS).map(([file, list]) => [file, list.length])),
    "every new RegExp of the source is exported and listed in BUILT_PATTERNS");
  const patterns = schemaPatternsOfRoutes();
  t.ok(patterns.some((found) => found.source === EMAIL_SHAPE.source), "POST /api/register's e-mail pattern is among the schema patterns");
  t.ok(patterns.some((found) => found.where.includes("patternProperties")), "and the MCP tools' bound names");
  const all: Found[] = [
    ...literals,
    ...Object.entries(BUILT_PATTERNS).flatMap(([file, list]) => list.map((pattern) => ({ source: pattern.source, flags: pattern.flags, where: `${file} (built)` }))),
    ...patterns,
  ];
  // Each distinct expression once; a failure names every place it is used.
  const byExpression = new Map<string, Found[]>();
  for (const found of all) {
    const key = `/${found.source}/${found.flags.replace(/[gy]/g, "")}`;
    byExpression.set(key, [...(byExpression.get(key) ?? []), found]);
  }
  for (const [expression, uses] of byExpression) {
    const [first] = uses as [Found, ...Found[]];
    t.equal(verdict(first.source, first.flags), "safe", `${expression} (${uses.map((use) => use.where).slice(0, 3).join(", ")}${uses.length > 3 ? ", …" : ""})`);
  }
  t.end();
});

t.test("the checker refuses the shapes issue 40 found (it can fail)", (t) => {
  t.match(verdict("^\\s*bytes\\s*=\\s*(\\d*)\\s*-\\s*(\\d*)\\s*$", "i"), /^vulnerable/, "the Range expression the scanner replaced");
  t.match(verdict("^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$", "u"), /^vulnerable/, "the e-mail pattern before");
  t.match(verdict("-+$", "g"), /^vulnerable/, "a trailing run, as slugify trimmed it");
  t.end();
});

t.test("the Range scanner: linear, bounded, the expression's answers within the bound", (t) => {
  // What the backtracking expression answered, for strings short enough to run it.
  const before = (header: string, length: number) => {
    const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
    if (match === null) return undefined;
    const [, firstText = "", lastText = ""] = match;
    if (firstText.length === 0) {
      if (lastText.length === 0) return undefined;
      const suffix = Number(lastText);
      if (suffix === 0 || length === 0) return "unsatisfiable";
      return [Math.max(0, length - suffix), length - 1];
    }
    const first = Number(firstText);
    if (first >= length) return "unsatisfiable";
    const last = lastText.length === 0 ? length - 1 : Number(lastText);
    if (last < first) return undefined;
    return [first, Math.min(last, length - 1)];
  };
  const parts = ["bytes", "BYTES", "Bytes", "byte", "bits", "=", "-", ",", "0", "1", "7", "99", "100", "12345678901234567890", " ", "\t", "\u00a0", "\ufeff", "\u2028", "x", ";", ""];
  let seed = 40;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const headers = [
    "bytes=0-3", "bytes=-8", "bytes=5-", "bytes=0-0", "bytes= 0 - 3 ", " bytes = -5", "bytes=3-1", "bytes=0-1,4-5", "bytes=-", "bytes=-0", "BYTES=0-99",
    "items=0-3", "bytes=0-3x", "bytes=x-3", "bytes 0-3", "", " ", `bytes=${" ".repeat(200)}0-3`, "bytes=\t0-\t3\t",
  ];
  for (let i = 0; i < 3000; i++) {
    const count = 1 + Math.floor(random() * 9);
    let header = "";
    for (let p = 0; p < count; p++) header += parts[Math.floor(random() * parts.length)];
    // Mostly well-formed: `bytes`, spaces, `=`, a range.
    headers.push(random() < 0.5 ? `bytes${header.includes("=") ? "" : "="}${header}` : header);
  }
  let compared = 0;
  const differences: string[] = [];
  for (const header of headers) {
    if (header.length > RANGE_HEADER_MAX_LENGTH) continue;
    for (const length of [0, 1, 10, 100_000]) {
      const now = JSON.stringify(byteRangeOf(header, length));
      const then = JSON.stringify(before(header, length));
      if (now !== then) differences.push(`${JSON.stringify(header)} of ${length} bytes: ${now}, was ${then}`);
      compared++;
    }
  }
  t.ok(compared > 10_000, `${compared} answers compared`);
  t.same(differences.slice(0, 20), [], "every one as the expression answered");
  const hostile = `bytes=${" ".repeat(200)}-${" ".repeat(4000)}x`;
  t.equal(byteRangeOf(hostile, 100), undefined, "issue 40's header: over the bound, the whole body");
  t.equal(byteRangeOf(`bytes=0-3${" ".repeat(RANGE_HEADER_MAX_LENGTH)}`, 100), undefined, "a well-formed range padded past the bound is not read either");
  t.same(byteRangeOf(`bytes=0-3${" ".repeat(RANGE_HEADER_MAX_LENGTH - 9)}`, 100), [0, 3], "up to the bound it is");
  t.end();
});

t.test("issue 40's attack shapes against a started service: each answered with its status", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const path = "/api/players/bulk?format=csv";
  const whole = Buffer.from(await (await h.get(path)).arrayBuffer());
  const hostileRange = `bytes=${" ".repeat(200)}-${" ".repeat(4000)}x`;
  const answer = await rawRequest(h.service.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nRange: ${hostileRange}\r\n\r\n`);
  t.equal(answer.status, 200, "Range: bytes= + 200 spaces + - + 4,000 spaces + x: the whole export");
  t.equal(Buffer.byteLength(answer.body, "latin1"), whole.length, "every byte of it");
  t.equal((await h.get(path, { range: "bytes=0-2" })).status, 206, "and the next honest range is answered");

  // a@ + 65,000 dots + a space: refused on its length; the pattern never runs over it.
  const body = JSON.stringify({ email: `a@${".".repeat(65_000)} `, name: "x" });
  const registered = await fetch(`${h.base}/api/register`, { method: "POST", headers: { "content-type": "application/json" }, body });
  t.equal(registered.status, 400);
  const refusal = await registered.json() as { error: { code: string; details: { errors: { path: string; message: string }[] } } };
  t.equal(refusal.error.code, "VALIDATION_ERROR");
  t.same(refusal.error.details.errors, [{ path: "/email", message: "must NOT have more than 254 characters" }], "the length check answers, alone");
  // Within the length bound, the linear pattern's verdict: dots are not an address.
  const dotted = await fetch(`${h.base}/api/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `a@${".".repeat(240)} `, name: "x" }) });
  t.equal(dotted.status, 400);
  t.match(await dotted.json(), { error: { details: { errors: [{ path: "/email", message: /must match pattern/ }] } } }, "a short dotted one: the pattern's refusal");
});
