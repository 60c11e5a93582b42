// GET /api/openapi.json (the document, raw), GET /docs (the API reference page) and
// GET /docs/assets/:file (Swagger UI's files, read from node_modules once at construction).
// Nothing here names another host: the page loads only from this service, and its CSP says so.

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ApiError } from "../../query/api-error.js";
import { compileParams } from "../../query/params.js";
import { hashBytes } from "../../store/hash.js";
import { buildOpenApi, DOCS_ASSET_PATH, DOCS_PATH, OPENAPI_PATH } from "../openapi.js";
import { jsonReply, weakEtag, type Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";

const noParams = compileParams({});

/** The files of swagger-ui-dist the page uses, with their types. */
const BUNDLE_FILES: readonly (readonly [string, string])[] = [
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

function staticReply(body: Buffer, contentType: string, headers: readonly (readonly [string, string])[] = []): Reply {
  return {
    status: 200,
    body,
    etag: weakEtag(hashBytes(body), body.length),
    contentType,
    headers: [["X-Content-Type-Options", "nosniff"], ...headers],
  };
}

function readBundle(): Map<string, Reply> {
  const require = createRequire(import.meta.url);
  let directory: string;
  try {
    directory = dirname(require.resolve("swagger-ui-dist/package.json"));
  } catch (error) {
    throw new Error(`API reference: swagger-ui-dist is not installed (run npm ci): ${(error as Error).message}`);
  }
  const assets = new Map<string, Reply>();
  for (const [file, contentType] of BUNDLE_FILES) {
    const path = join(directory, file);
    if (!existsSync(path)) throw new Error(`API reference: ${path} is missing from swagger-ui-dist`);
    assets.set(file, staticReply(readFileSync(path), contentType));
  }
  assets.set("docs-init.js", staticReply(Buffer.from(INIT_SCRIPT), "text/javascript; charset=utf-8"));
  return assets;
}

/** The version of the nearest package.json above this file (src/ under tap, dist/src/ once built). */
export function packageVersion(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(directory, "package.json");
    if (existsSync(file)) {
      const version = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
      return typeof version === "string" ? version : "0.0.0";
    }
    const parent = dirname(directory);
    if (parent === directory) return "0.0.0";
    directory = parent;
  }
}

/** `routes` is read on the first request for the document, once the route table is complete. */
export function docsRoutes(routes: () => readonly RouteDefinition[]): RouteDefinition[] {
  const assets = readBundle();
  const page = staticReply(Buffer.from(PAGE), "text/html; charset=utf-8", [
    ["Content-Security-Policy", PAGE_POLICY],
    ["Referrer-Policy", "no-referrer"],
  ]);
  let document: Reply | undefined;
  return [
    {
      method: "GET", path: OPENAPI_PATH, access: "address", params: noParams, summary: "This API's OpenAPI 3.1 document (no API key)",
      handle: () => (document ??= jsonReply(200, buildOpenApi(routes(), { version: packageVersion() }), { isCacheable: true })),
    },
    { method: "GET", path: DOCS_PATH, access: "address", params: noParams, summary: "API reference page (no API key)", handle: () => page },
    {
      method: "GET", path: DOCS_ASSET_PATH, access: "address", params: noParams, summary: "Files of the API reference page",
      handle: (context) => {
        const file = context.pathParams.file ?? "";
        const asset = assets.get(file);
        if (!asset) throw new ApiError("NOT_FOUND", { path: context.path }, `No asset ${file}; the page uses ${[...assets.keys()].join(", ")}`);
        return asset;
      },
    },
  ];
}
