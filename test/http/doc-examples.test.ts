// Every request example in README.md and docs/*.md (docs/api.md is the generated reference: the
// /docs page and /llms-full.txt are written from the same OpenAPI document, and neither holds an
// example of its own) runs against a service started on the demo editions, with the key, the
// host and the port substituted, and answers as the text around it says: the status and the
// shape the route's section of docs/api.md gives first under **Responses** (a content type, or
// the envelope's data as a list or one object and meta's required keys), and where a ```json
// block follows an example, the keys and list lengths that block shows.
// Not run in the walk, because they change state: registering (POST /api/register, in docs/api.md
// and docs/operations.md), regenerating (POST /api/keys/regenerate) and revoking
// (DELETE /api/keys/current) a key. They run after it, each with a key of its own.
// Not here: the pandas and DuckDB examples of README.md (test/export/exports.test.ts reads every
// demo edition back through pandas over HTTP and DuckDB), and the SDK client of docs/mcp.md
// (test/mcp/mcp-http.test.ts connects it and calls every tool).
import t, { type Test } from "tap";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { rawRequest, startHarness } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FILES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`)];

interface Example {
  file: string;
  line: number;
  command: string;
  /** The ```json block right after the example's block, if any: what the answer looks like. */
  shownAnswer?: string;
}

/** Every `curl` line inside a fenced block of the file, with the JSON block following it. */
function examplesOf(file: string): Example[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const examples: Example[] = [];
  let fence: string | undefined;
  let blockExamples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const trimmed = line.trim();
    if (trimmed.startsWith("```")) {
      if (fence === undefined) {
        fence = trimmed.slice(3);
        if (fence === "json" && blockExamples.length > 0) {
          const end = lines.findIndex((next, j) => j > i && next.trim() === "```");
          for (const example of blockExamples) example.shownAnswer = lines.slice(i + 1, end).join("\n");
        }
        if (fence !== "json") blockExamples = [];
      } else {
        fence = undefined;
      }
      continue;
    }
    if (fence !== undefined && /^curl\s/.test(trimmed)) {
      const example = { file, line: i + 1, command: trimmed };
      examples.push(example);
      blockExamples.push(example);
    }
  }
  return examples;
}

/** A command line split as a POSIX shell splits it (quotes, no expansions). */
function words(command: string): string[] {
  const out: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) out.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3]) as string);
  return out;
}

interface Request { method: string; url: string; headers: Record<string, string>; body?: string; output?: string; isRaw: boolean }

function parseCurl(command: string, key: string, base: string): Request {
  const argv = words(command).slice(1);
  const request: Request = { method: "GET", url: "", headers: {}, isRaw: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "-X") request.method = argv[++i] as string;
    else if (arg === "-H") {
      const header = argv[++i] as string;
      const colon = header.indexOf(":");
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim().replace(/\$KEY|2k_…/g, key);
    } else if (arg === "-d") request.body = argv[++i] as string;
    else if (arg === "-o") request.output = argv[++i] as string;
    else if (arg === "-i" || arg === "-N") continue;
    else if (arg.startsWith("-")) throw new Error(`unknown curl option ${arg} in ${command}`);
    else request.url = base + arg.replace(/^(https?:\/\/)?localhost:3000/, "");
  }
  if (request.body !== undefined && request.method === "GET") request.method = "POST";
  request.isRaw = request.headers.upgrade !== undefined;
  return request;
}

/** docs/api.md's route sections: the path as a pattern, and what **Responses** says first. */
interface Section { method: string; path: string; pattern: RegExp; params: number; status: number; contentType?: string; data?: string; meta?: string }

function sectionsOf(reference: string): Section[] {
  const sections: Section[] = [];
  for (const match of reference.matchAll(/^### `([A-Z]+) (\S+)`\n[\s\S]*?\*\*Responses\*\*\n\n- (\d{3})(?: \(([^)]+)\))?: (.*)$/gm)) {
    const [, method, path, status, contentTypes, text] = match as unknown as [string, string, string, string, string | undefined, string];
    const params = (path.match(/:[A-Za-z]+/g) ?? []).length;
    const pattern = new RegExp(`^${path.replace(/\./g, "\\.").replace(/:[A-Za-z]+/g, "[^/]+")}$`);
    const data = /\bdata: (.*?)(?:; meta: |$)/.exec(text)?.[1];
    const meta = /; meta: (\{.*\})$/.exec(text)?.[1];
    sections.push({ method, path, pattern, params, status: Number(status), ...(contentTypes === undefined ? {} : { contentType: contentTypes }), ...(data === undefined ? {} : { data }), ...(meta === undefined ? {} : { meta }) });
  }
  // Literal segments first: /api/players/compare before /api/players/:id.
  return sections.sort((a, b) => a.params - b.params);
}

/** The keys of `{ a: x; b?: y; c: { … } }` at its top level that are not marked optional. */
function requiredKeys(objectText: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let start = 1;
  const inner = objectText.trim();
  for (let i = 1; i < inner.length - 1; i++) {
    const char = inner[i];
    if (char === "{" || char === "(" || char === "[") depth++;
    else if (char === "}" || char === ")" || char === "]") depth--;
    else if (char === ";" && depth === 0) {
      keys.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  keys.push(inner.slice(start, inner.length - 1));
  return keys.map((entry) => /^\s*([A-Za-z_$][\w$]*)(\??):/.exec(entry)).filter((m) => m !== null && m[2] === "").map((m) => (m as RegExpExecArray)[1] as string);
}

/** Whether `actual` has every key `shown` has (objects), and as many entries (lists); the values are placeholders. */
function sameShape(t: Test, actual: unknown, shown: unknown, at: string): void {
  if (Array.isArray(shown)) {
    t.ok(Array.isArray(actual), `${at} is a list`);
    if (!Array.isArray(actual)) return;
    t.equal(actual.length, shown.length, `${at} has ${shown.length} entries`);
    shown.forEach((entry, i) => sameShape(t, actual[i], entry, `${at}[${i}]`));
  } else if (shown !== null && typeof shown === "object") {
    t.ok(actual !== null && typeof actual === "object" && !Array.isArray(actual), `${at} is an object`);
    for (const [name, value] of Object.entries(shown)) {
      t.ok(Object.hasOwn(actual as object, name), `${at}.${name} is there`);
      sameShape(t, (actual as Record<string, unknown>)[name], value, `${at}.${name}`);
    }
  } else if (typeof shown === "number" || typeof shown === "boolean") {
    t.equal(typeof actual, typeof shown, `${at} is a ${typeof shown}`);
  }
}

/** What each export format answers (docs/exports.md). */
const EXPORT_TYPES: Readonly<Record<string, string>> = { csv: "text/csv", parquet: "application/vnd.apache.parquet", arrow: "application/vnd.apache.arrow.stream" };

/** Changes state: run after the walk, each with a key of its own. */
const STATEFUL = [/^POST \/api\/register$/, /^POST \/api\/keys\/regenerate$/, /^DELETE \/api\/keys\/current$/];

const examples = FILES.flatMap(examplesOf);
const reference = readFileSync(join(ROOT, "docs/api.md"), "utf8");
const sections = sectionsOf(reference);

const editions = generateDemoEditions({ asOf: "2026-11-20" });
const h = await startHarness({ sources: editions });
t.teardown(() => h.close());

const sectionOf = (request: Request): Section | undefined => {
  const path = new URL(request.url).pathname;
  return sections.find((section) => section.method === request.method && section.pattern.test(path));
};

t.test("the examples are found: every route section of docs/api.md has one, and README.md and the other docs hold theirs", async (t) => {
  t.ok(sections.length >= 50, `${sections.length} route sections`);
  t.equal(examples.filter((example) => example.file === "docs/api.md").length, sections.length, "one example per route section");
  t.ok(examples.filter((example) => example.file === "README.md").length >= 4, "README.md's");
  t.ok(examples.some((example) => example.file === "docs/design-decisions.md"), "docs/design-decisions.md's");
  for (const example of examples) t.ok(sectionOf(parseCurl(example.command, h.key, h.base)), `${example.file}:${example.line} names a route of docs/api.md`);
});

/** Runs one example; answers the status, content type and body (text). */
async function run(request: Request): Promise<{ status: number; type: string; text: string }> {
  if (request.isRaw) {
    const url = new URL(request.url);
    const head = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`), "", ""].join("\r\n");
    const answer = await rawRequest(Number(url.port), head);
    return { status: answer.status, type: /content-type: ([^\r\n]*)/i.exec(answer.head)?.[1] ?? "", text: answer.body };
  }
  const response = await fetch(request.url, { method: request.method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) });
  return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
}

function checkAnswer(t: Test, example: Example, section: Section, answer: { status: number; type: string; text: string }): void {
  const name = `${example.file}:${example.line}`;
  t.equal(answer.status, section.status, `${name}: ${section.status}, as docs/api.md's ${section.method} ${section.path} says (${answer.text.slice(0, 200)})`);
  if (answer.status === 101) return;
  const format = new URL(example.command.match(/"(localhost:3000[^"]*)"/)?.[1] ?? "localhost:3000/", "http://x").searchParams.get("format");
  if (format !== null && format !== "json") {
    // An export (docs/exports.md): the file the text names, never the envelope.
    t.ok(answer.type.startsWith(EXPORT_TYPES[format] ?? "?"), `${name}: ${answer.type} is the ${format} export's`);
    if (format === "csv") t.match(answer.text, /^_id,name,/, `${name}: a CSV with its header row`);
    return;
  }
  if (section.contentType !== undefined) {
    t.ok(section.contentType.split(", ").some((type) => answer.type.startsWith(type)), `${name}: ${answer.type} is one of ${section.contentType}`);
    return;
  }
  if (section.path === "/mcp") {
    const message = JSON.parse(answer.text);
    t.equal(message.jsonrpc, "2.0", `${name}: a JSON-RPC answer`);
    t.notOk(message.error, `${name}: not a protocol error`);
    t.notOk(message.result?.isError, `${name}: not a tool error (${message.result?.content?.[0]?.text})`);
    return;
  }
  if (section.data === undefined) {
    t.ok(answer.type.startsWith("application/json"), `${name}: JSON`);
    return;
  }
  const body = JSON.parse(answer.text);
  t.equal(body.success, true, `${name}: the success envelope`);
  if (/^\(.*\)\[\]$|^\w+\[\]$/.test(section.data)) t.ok(Array.isArray(body.data), `${name}: data is a list (${section.data.slice(0, 60)})`);
  else if (/^\{|^\w+$/.test(section.data)) t.ok(body.data !== null && typeof body.data === "object" && !Array.isArray(body.data), `${name}: data is one object (${section.data.slice(0, 60)})`);
  if (section.meta !== undefined) for (const key of requiredKeys(section.meta)) t.ok(Object.hasOwn(body.meta ?? {}, key), `${name}: meta.${key}`);
  if (Array.isArray(body.data)) t.ok(body.data.length > 0, `${name}: the demo data answers it with something`);
  if (example.shownAnswer !== undefined) sameShape(t, body, JSON.parse(example.shownAnswer), `${name}'s answer`);
}

t.test("every example answers as its text says", async (t) => {
  let ran = 0;
  for (const example of examples) {
    const request = parseCurl(example.command, h.key, h.base);
    const section = sectionOf(request) as Section;
    if (section === undefined || STATEFUL.some((pattern) => pattern.test(`${section.method} ${section.path}`))) continue;
    checkAnswer(t, example, section, await run(request));
    ran++;
  }
  t.ok(ran >= 55, `${ran} examples ran`);
});

t.test("the examples that change state, each with a key of its own", async (t) => {
  const stateful = examples.filter((example) => {
    const section = sectionOf(parseCurl(example.command, h.key, h.base));
    return section !== undefined && STATEFUL.some((pattern) => pattern.test(`${section.method} ${section.path}`));
  });
  t.same(stateful.map((example) => example.file).sort(), ["docs/api.md", "docs/api.md", "docs/api.md", "docs/operations.md"], "registering twice, regenerating and revoking");
  let registered = 0;
  for (const example of stateful) {
    const probe = parseCurl(example.command, h.key, h.base);
    const section = sectionOf(probe) as Section;
    let key = h.key;
    if (section.path !== "/api/register") {
      // A fresh key, so the walk's key stays good.
      const fresh = await fetch(`${h.base}/api/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `example-${section.method}@example.com`, name: "examples" }) });
      key = ((await fresh.json()) as { data: { apiKey: string } }).data.apiKey;
    }
    // The same e-mail address may hold three keys: each registration example registers its own.
    const request = parseCurl(example.command, key, h.base);
    if (section.path === "/api/register" && request.body !== undefined) request.body = request.body.replace("me@example.com", `me-${++registered}@example.com`);
    const answer = await run(request);
    checkAnswer(t, example, section, answer);
    if (section.path !== "/api/register") {
      const after = await fetch(`${h.base}/api/health`, { headers: { "x-api-key": key } });
      await after.arrayBuffer();
      const old = await fetch(`${h.base}/api/players?limit=1`, { headers: { "x-api-key": key } });
      t.equal(old.status, 401, `${example.file}:${example.line}: the key it was sent with is refused from now on`);
      await old.arrayBuffer();
    } else {
      const { data } = JSON.parse(answer.text) as { data: { apiKey: string } };
      const works = await fetch(`${h.base}/api/players?limit=1`, { headers: { "x-api-key": data.apiKey } });
      t.equal(works.status, 200, `${example.file}:${example.line}: the new key works`);
      await works.arrayBuffer();
    }
  }
});
