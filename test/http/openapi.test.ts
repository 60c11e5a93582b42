import t from "tap";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { buildOpenApi, openApiPath, OPENAPI_PATH } from "../../src/http/describe/openapi.js";
import { routeBody } from "../../src/http/call-route.js";
import type { RouteDefinition } from "../../src/http/router.js";
import { playerSchema } from "../../src/model/schemas.js";
import { ERROR_TABLE } from "../../src/query/api-error.js";
import { compileParams } from "../../src/query/params.js";
import { startHarness, type Harness } from "./harness.js";

/** The service's route table, the documentation routes included. */
function allRoutes(): RouteDefinition[] {
  return buildRoutes(() => true);
}

/** The running harness server: it serves the documentation routes itself. */
async function serveDocs(h: Harness): Promise<{ base: string; close: () => void }> {
  return { base: h.base, close: () => {} };
}

type Json = any;
const routes = allRoutes();
const doc = buildOpenApi(routes, { version: "9.9.9" }) as Json;

function resolve(value: Json): Json {
  const target = value?.$ref as string | undefined;
  if (target === undefined) return value;
  return target.slice(2).split("/").reduce((node: Json, key) => node?.[key], doc);
}

const h = await startHarness();
const docs = await serveDocs(h);
t.teardown(() => {
  docs.close();
  h.close();
});

t.test("the document validates as OpenAPI 3.1, and the validator refuses a broken one", async (t) => {
  t.equal(doc.openapi, "3.1.0");
  const api = await SwaggerParser.validate(structuredClone(doc));
  t.equal(api.info.title, "Courtside player ratings API");
  const broken = structuredClone(doc);
  broken.paths["/api/players"].get.responses = { 200: { content: {} } };
  await t.rejects(SwaggerParser.validate(broken));
});

t.test("every route of the table appears with its method and its path parameters", async (t) => {
  t.ok(routes.length >= 10, `${routes.length} routes`);
  for (const route of routes) {
    const path = openApiPath(route.path);
    const operation = doc.paths[path]?.[route.method.toLowerCase()];
    t.ok(operation, `${route.method} ${path}`);
    t.equal(operation?.summary, route.summary);
    const pathParams = (operation?.parameters ?? []).map(resolve).filter((p: Json) => p.in === "path");
    const expected = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
    t.same(pathParams.map((p: Json) => p.name), expected, `path parameters of ${path}`);
    t.ok(pathParams.every((p: Json) => p.required === true));
    const queryNames = (operation?.parameters ?? []).map(resolve).filter((p: Json) => p.in === "query").map((p: Json) => p.name);
    t.same(queryNames, route.params.names, `query parameters of ${path}`);
  }
  const operationIds = Object.values(doc.paths).flatMap((item: Json) => Object.values(item).map((op: Json) => op.operationId));
  t.equal(new Set(operationIds).size, operationIds.length, "operationIds are unique");
});

t.test("the players list documents its query parameters with the validating schemas", async (t) => {
  const parameters = doc.paths["/api/players"].get.parameters.map(resolve);
  const byName = new Map(parameters.map((p: Json) => [p.name, p]));
  for (const name of ["limit", "cursor", "era", "sort", "three_ball_gte", "three_point_shot_lte", "minRating", "badgeTier", "fields"]) {
    t.ok(byName.has(name), name);
  }
  t.same((byName.get("limit") as Json).schema, { type: "integer", minimum: 1, maximum: 100, default: 50 });
  t.match((byName.get("limit") as Json).description, /decimal is rounded down/, "the lenient reading is documented (docs/compatibility.md#fidelity-rules)");
  t.same((byName.get("era") as Json).schema.enum, ["curr", "class", "allt", "all"]);
  // docs/compatibility.md#fidelity-rules: the direction is read in any case, anything but asc meaning desc; the description says so.
  t.match((byName.get("sort") as Json).description, /anything but asc meaning desc/);
  t.ok(parameters.filter((p: Json) => /_(gte|lte)$/.test(p.name)).length >= 90, "every attribute bound is listed");
  t.ok(parameters.every((p: Json) => !("x-normalise" in p.schema)), "annotations for the validator are dropped");
  t.match(doc.components.parameters.three_ball_gte, { in: "query", schema: { type: "integer", minimum: 0, maximum: 99 } });
});

t.test("search, archetype and college are documented on every players listing route with their limits", async (t) => {
  for (const path of ["/api/players", "/api/players/bulk", "/api/versions/{version}/players", "/api/versions/{version}/players/bulk"]) {
    const byName = new Map(doc.paths[path].get.parameters.map(resolve).map((p: Json) => [p.name, p]));
    t.same((byName.get("search") as Json)?.schema, { type: "string", minLength: 1, maxLength: 80 }, `${path} search`);
    t.match((byName.get("search") as Json)?.description, /start of a word/);
    for (const name of ["archetype", "college"]) t.match((byName.get(name) as Json)?.description, /any case/, `${path} ${name}`);
  }
  t.match(doc.info.description, /`per_page`, `pagesize`, `page_size`, `count` → `limit`/);
});

t.test("routes that need a key say so and the others do not", async (t) => {
  t.same(doc.components.securitySchemes.ApiKey, { type: "apiKey", in: "header", name: "X-API-Key", description: doc.components.securitySchemes.ApiKey.description });
  for (const route of routes) {
    const operation = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
    if (route.access === "key") {
      t.same(operation.security, [{ ApiKey: [] }], route.path);
      t.ok(operation.responses[401], `${route.path} documents 401`);
    } else {
      t.equal(operation.security, undefined, route.path);
      t.equal(operation.responses[401], undefined, `${route.path} has no 401`);
    }
  }
  t.equal(doc.paths["/api/versions"].get.security, undefined);
});

t.test("responses: envelopes with the model's records, error codes from the table, 304 where replies carry ETags", async (t) => {
  t.same(doc.components.schemas.ErrorCode.enum, Object.keys(ERROR_TABLE));
  // The model's `extra` is not a wire field: its members travel under their own names (docs/compatibility.md#fidelity-rules).
  const wireFields = Object.keys(playerSchema.properties).filter((name) => name !== "extra");
  t.same(Object.keys(doc.components.schemas.Player.properties).slice(0, wireFields.length), wireFields);
  t.equal(doc.components.schemas.Player.additionalProperties, undefined, "a source's pass-through fields are allowed beside the record's");
  t.equal(doc.components.schemas.Player.$id, undefined);
  const players = doc.paths["/api/players"].get.responses;
  t.same(players[200].content["application/json"].schema.properties.data.items, { anyOf: [{ $ref: "#/components/schemas/Player" }, { $ref: "#/components/schemas/PlayerFields" }] });
  t.same(doc.paths["/api/players/slug/{slug}"].get.responses[200].content["application/json"].schema.properties.data, { $ref: "#/components/schemas/Player" });
  t.notOk("required" in doc.components.schemas.PlayerFields, "a fields-trimmed record may lack any field");
  t.ok(players[200].content["application/json"].schema.properties.meta.properties.pagination);
  t.same(doc.paths["/api/versions"].get.responses[200].content["application/json"].schema.properties.data.items, { $ref: "#/components/schemas/EditionEntry" });
  t.ok(players[304] && players[304].headers.ETag, "players list documents 304");
  t.ok(players[200].headers["X-RateLimit-Remaining"] && players[200].headers.RateLimit, "rate-limit headers on 200");
  t.ok(players[429].headers["Retry-After"], "Retry-After on 429");
  for (const path of ["/api/teams", "/api/teams/{teamName}/roster", "/api/versions", OPENAPI_PATH]) {
    t.ok(doc.paths[path].get.responses[304], `${path} documents 304`);
  }
  // docs/compatibility.md#fidelity-rules: search, slug and history answers carry an ETag (the slug route did not).
  for (const path of ["/api/players/slug/{slug}", "/api/players/search", "/api/players/{id}/history"]) t.ok(doc.paths[path].get.responses[304], `${path} documents 304`);
  t.equal(doc.paths["/health"].get.responses[429], undefined, "health is not limited");
  t.match(doc.paths["/api/teams/{teamName}/roster"].get.responses[404].description, /TEAM_NOT_FOUND/);
  for (const [path, item] of Object.entries(doc.paths) as [string, Json][]) {
    for (const operation of Object.values(item) as Json[]) {
      for (const [status, response] of Object.entries(operation.responses) as [string, Json][]) {
        const codes = response.content?.["application/json"]?.schema?.allOf?.[1]?.properties.error.properties.code.enum as (keyof typeof ERROR_TABLE)[] | undefined;
        if (!codes) continue;
        t.ok(codes.every((code) => ERROR_TABLE[code].status === Number(status)), `${path} ${status}: ${codes.join(", ")}`);
      }
    }
  }
});

t.test("a POST route's body schema becomes its JSON request body", async (t) => {
  const bodySchema = { $id: "BatchBody", type: "object", properties: { names: { type: "array", items: { type: "string" } } } };
  const batch = { method: "POST", path: "/api/players/batch", access: "key", params: compileParams({}), summary: "Batch", handle: () => { throw new Error("unused"); }, body: routeBody(bodySchema) } as RouteDefinition;
  const withBatch = buildOpenApi([...routes.filter((route) => route.path !== batch.path), batch], { version: "1" }) as Json;
  const operation = withBatch.paths["/api/players/batch"].post;
  t.same(operation.requestBody.content["application/json"].schema, { type: "object", properties: { names: { type: "array", items: { type: "string" } } } });
  t.ok(operation.responses[413] && operation.responses[415], "body errors documented");
  await SwaggerParser.validate(withBatch);
});

t.test("the document is served at /api/openapi.json without a key, with an ETag", async (t) => {
  const response = await fetch(`${docs.base}${OPENAPI_PATH}`);
  t.equal(response.status, 200);
  t.match(response.headers.get("content-type"), /^application\/json/);
  const served = (await response.json()) as Json;
  t.equal(served.openapi, "3.1.0");
  t.equal(served.success, undefined, "served raw, not in the envelope");
  t.same(Object.keys(served.paths).sort(), Object.keys(doc.paths).sort());
  t.match(served.info.version, /^\d+\.\d+\.\d+/);
  await SwaggerParser.validate(served);
  const etag = response.headers.get("etag");
  t.match(etag, /^W\//);
  const again = await fetch(`${docs.base}${OPENAPI_PATH}`, { headers: { "if-none-match": etag ?? "" } });
  t.equal(again.status, 304);
});

t.test("/docs serves HTML without a key, and every file it loads is served by the service itself", async (t) => {
  const page = await fetch(`${docs.base}/docs`);
  t.equal(page.status, 200);
  t.match(page.headers.get("content-type"), /^text\/html; charset=utf-8/);
  t.match(page.headers.get("content-security-policy"), /default-src 'none'; script-src 'self'/);
  const html = await page.text();
  const references = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
  t.ok(references.length >= 4, references.join(" "));
  t.notOk(/https?:|\/\//.test(references.join(" ")), "no reference names a host");
  const types: Record<string, RegExp> = { css: /^text\/css/, js: /^text\/javascript/, png: /^image\/png/, json: /^application\/json/ };
  const bundle = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  for (const reference of references) {
    const url = new URL(reference, `${docs.base}/docs`);
    const response = await fetch(url);
    t.equal(response.status, 200, url.pathname);
    // A file by its extension; a page of the site bar (/explore, /dashboard, /docs) is HTML.
    const extension = /\.([a-z0-9]+)$/.exec(url.pathname)?.[1];
    const type = extension === undefined ? /^text\/html; charset=utf-8/ : types[extension] ?? /^$/;
    t.match(response.headers.get("content-type"), type, url.pathname);
    const body = Buffer.from(await response.arrayBuffer());
    const file = /^docs\/assets\/(swagger-ui[^/]*|favicon[^/]*)$/.exec(reference)?.[1];
    if (file !== undefined) t.ok(body.equals(readFileSync(join(bundle, file))), `${file} is the bundle's file`);
  }
});

t.test("the bundled stylesheet and page fetch nothing from another host", async (t) => {
  const css = await (await fetch(`${docs.base}/docs/assets/swagger-ui.css`)).text();
  t.ok(css.length > 10_000);
  const urls = [...css.matchAll(/url\(\s*['"]?([^'")]+)/g)].map((match) => match[1] as string);
  t.ok(urls.every((url) => url.startsWith("data:")), "only data: URLs in the stylesheet");
  t.notMatch(css, /@import|@font-face/);
  const init = await (await fetch(`${docs.base}/docs/assets/docs-init.js`)).text();
  t.match(init, /url: "api\/openapi\.json"/);
  t.match(init, /validatorUrl: null/, "no badge from the public validator");
});

t.test("an unknown asset is a 404 in the error envelope", async (t) => {
  const response = await fetch(`${docs.base}/docs/assets/evil.js`);
  t.equal(response.status, 404);
  t.match(response.headers.get("content-type"), /^application\/json/);
  t.match(await response.json(), { success: false, error: { code: "NOT_FOUND" } });
  const traversal = await fetch(`${docs.base}/docs/assets/..%2Fpackage.json`);
  t.equal(traversal.status, 404);
});
