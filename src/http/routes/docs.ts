// GET /api/openapi.json (the document, raw), GET /docs (the API reference page) and
// GET /docs/assets/:file (Swagger UI's files, from node_modules or the single binary's embedded
// copies: checked at construction, read on a thread's first request for one, since few workers
// ever serve them and they are ~1.7 MB each).
// Nothing here names another host: the page loads only from this service, and its CSP says so.

import { checkPackageFile, packageVersion, readPackageFile } from "../../assets.js";
import { compileParams } from "../../query/params.js";
import { renderLlmsFullTxt, renderLlmsTxt } from "../describe/llms-txt.js";
import { buildOpenApi, DOCS_ASSET_PATH, DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, OPENAPI_PATH } from "../describe/openapi.js";
import { jsonReply, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { pageAsset, staticReply } from "../static-reply.js";

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

/** Relative URLs throughout, so the page also works behind a proxy that mounts the service under a prefix. */
const INIT_SCRIPT = `// Renders the API reference from this service's own OpenAPI document.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "api/openapi.json",
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    validatorUrl: null
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Courtside API reference</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="docs/assets/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="docs/assets/favicon-16x16.png">
<style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<div id="swagger-ui"><noscript><p>The reference needs JavaScript. The OpenAPI document itself is at <a href="api/openapi.json">/api/openapi.json</a>.</p></noscript></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/docs-init.js"></script>
</body>
</html>
`;

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

function readBundle(): Map<string, Reply> {
  const assets = new Map<string, Reply>();
  for (const [file, contentType] of DOCS_BUNDLE_FILES) {
    assets.set(file, staticReply(forReference(() => readPackageFile(DOCS_BUNDLE_PACKAGE, file)), contentType));
  }
  assets.set("docs-init.js", staticReply(Buffer.from(INIT_SCRIPT), "text/javascript; charset=utf-8"));
  return assets;
}

/** `routes` is read on the first request for the document, once the route table is complete. */
export function docsRoutes(routes: () => readonly RouteDefinition[]): RouteDefinition[] {
  // A missing file stops the start, as if it were read here.
  for (const [file] of DOCS_BUNDLE_FILES) forReference(() => checkPackageFile(DOCS_BUNDLE_PACKAGE, file));
  let assets: Map<string, Reply> | undefined;
  const page = staticReply(Buffer.from(PAGE), "text/html; charset=utf-8", [
    ["Content-Security-Policy", PAGE_POLICY],
    ["Referrer-Policy", "no-referrer"],
  ]);
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
      handle: () => page,
    },
    {
      method: "GET", path: DOCS_ASSET_PATH, access: "address", params: noParams, summary: "Files of the API reference page",
      response: {
        kind: "body",
        description: "A file of the bundled Swagger UI",
        content: { "text/css": { type: "string" }, "text/javascript": { type: "string" }, "image/png": {} },
      },
      errors: ["NOT_FOUND"],
      handle: (context) => {
        assets ??= readBundle();
        return pageAsset(assets, context.pathParams.file ?? "", context.path);
      },
    },
  ];
}
