// GET /api/openapi.json (the document, raw), GET /docs (the API reference page, src/web/docs/ as
// `npm run build` wrote it) and GET /docs/assets/:file (the page's own style sheet and script, and
// Swagger UI's files from node_modules or the single binary's embedded copies: those checked at
// construction, read on a thread's first request for one, since few workers ever serve them and
// they are ~1.7 MB each).
// Nothing here names another host: the page loads only from this service, and its CSP says so.

import { checkPackageFile, packageVersion, readPackageFile } from "../../assets.js";
import { compileParams } from "../../query/params.js";
import { renderLlmsFullTxt, renderLlmsTxt } from "../llms-txt.js";
import { buildOpenApi, DOCS_ASSET_PATH, DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, OPENAPI_PATH } from "../openapi.js";
import { jsonReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { builtPage, pageAsset, staticReply } from "../static-reply.js";

const noParams = compileParams({});
const TEXT_TYPE = "text/plain; charset=utf-8";

/** The files of swagger-ui-dist the page uses, with their types (build-binary.ts embeds these). */
export const DOCS_BUNDLE_PACKAGE = "swagger-ui-dist";
export const DOCS_BUNDLE_FILES: readonly (readonly [string, string])[] = [
  ["swagger-ui.css", "text/css; charset=utf-8"],
  ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
  ["favicon-32x32.png", "image/png"],
  ["favicon-16x16.png", "image/png"],
];

/** Self only; inline styles because Swagger UI's React components set style attributes. */
const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "font-src 'self' data:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

/** Finding or reading Swagger UI's files, a failure worded as the API reference's. */
function forReference<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw new Error(`API reference: ${(error as Error).message}`);
  }
}

/** Swagger UI's files, then the page's own (read on their first request). */
function readBundle(pageFiles: ReadonlyMap<string, () => Reply>): Map<string, () => Reply> {
  const assets = new Map<string, () => Reply>();
  for (const [file, contentType] of DOCS_BUNDLE_FILES) {
    const reply = staticReply(forReference(() => readPackageFile(DOCS_BUNDLE_PACKAGE, file)), contentType);
    assets.set(file, () => reply);
  }
  for (const [file, reply] of pageFiles) assets.set(file, reply);
  return assets;
}

/** `routes` is read on the first request for the document, once the route table is complete. */
export function docsRoutes(routes: () => readonly RouteDefinition[]): RouteDefinition[] {
  // A missing file stops the start, as if it were read here.
  for (const [file] of DOCS_BUNDLE_FILES) forReference(() => checkPackageFile(DOCS_BUNDLE_PACKAGE, file));
  let assets: Map<string, () => Reply> | undefined;
  const page = builtPage("docs", [["Content-Security-Policy", PAGE_POLICY], ["Referrer-Policy", "no-referrer"]]);
  // Built on first use, once the route table is complete; the text forms are rewritten from the document.
  let document: object | undefined;
  const documentOf = () => (document ??= buildOpenApi(routes(), { version: packageVersion() }));
  let documentReply: Reply | undefined;
  let llmsReply: Reply | undefined;
  let llmsFullReply: Reply | undefined;
  return [
    {
      method: "GET", path: OPENAPI_PATH, access: "address", params: noParams, summary: "This API's OpenAPI 3.1 document (no API key)",
      response: {
        kind: "body",
        description: "This OpenAPI 3.1 document, not in the envelope",
        content: {
          "application/json": {
            type: "object",
            required: ["openapi", "info", "paths", "components"],
            properties: { openapi: { const: "3.1.0" }, info: { type: "object" }, paths: { type: "object" }, components: { type: "object" } },
          },
        },
      },
      handle: () => (documentReply ??= jsonReply(200, documentOf(), { isCacheable: true })),
    },
    {
      method: "GET", path: LLMS_PATH, access: "address", params: noParams, summary: "Plain-text index of the API for coding assistants (no API key)",
      response: { kind: "body", description: "What the API is and one line per route, as plain text (llmstxt.org)", content: { "text/plain": { type: "string" } } },
      handle: () => (llmsReply ??= staticReply(Buffer.from(renderLlmsTxt(documentOf())), TEXT_TYPE)),
    },
    {
      method: "GET", path: LLMS_FULL_PATH, access: "address", params: noParams, summary: "Plain-text reference of every route, parameter, error and limit (no API key)",
      response: { kind: "body", description: "The whole OpenAPI document as plain text", content: { "text/plain": { type: "string" } } },
      handle: () => (llmsFullReply ??= staticReply(Buffer.from(renderLlmsFullTxt(documentOf())), TEXT_TYPE)),
    },
    {
      method: "GET", path: DOCS_PATH, access: "address", params: noParams, summary: "API reference page (no API key)",
      response: { kind: "body", description: "The API reference page", content: { "text/html": { type: "string" } } },
      handle: () => page.html(),
    },
    {
      method: "GET", path: DOCS_ASSET_PATH, access: "address", params: noParams, summary: "Files of the API reference page",
      response: {
        kind: "body",
        description: "A file of the API reference page: its own style sheet and script, or one of the bundled Swagger UI's",
        content: { "text/css": { type: "string" }, "text/javascript": { type: "string" }, "image/png": {} },
      },
      errors: ["NOT_FOUND"],
      handle: (context) => {
        assets ??= readBundle(page.assets);
        return pageAsset(assets, context.pathParams.file ?? "", context.path)();
      },
    },
  ];
}
