// `npm run docs:api`: writes docs/api.md, the Markdown API reference, from the route table (through
// the OpenAPI document, as /llms-full.txt is written). test/http/api-docs.test.ts renders it the
// same way and fails when the committed file differs.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packageVersion } from "../src/assets.js";
import { renderApiMarkdown } from "../src/http/api-markdown.js";
import { buildRoutes } from "../src/http/app.js";
import { buildOpenApi } from "../src/http/openapi.js";

/** The reference as the route table says it today. */
export function renderApiDocs(): string {
  return renderApiMarkdown(buildOpenApi(buildRoutes(() => true), { version: packageVersion() }));
}

/** docs/api.md of this checkout: the first folder above this file holding a package.json and docs/. */
export function apiDocsFile(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(join(directory, "package.json")) && existsSync(join(directory, "docs")))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`docs:api: no checkout (package.json and docs/) above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
  return join(directory, "docs", "api.md");
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = apiDocsFile();
  const text = renderApiDocs();
  const before = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (before === text) {
    console.log(`docs:api: ${file} is current`);
  } else {
    writeFileSync(file, text);
    console.log(`docs:api: wrote ${file} (${text.split("\n").length} lines)`);
  }
}
