// Files the server reads at run time besides its code (the built pages of src/web/, the docs
// page's Swagger UI files, the package version): from node_modules and package.json under `npm start`, from the assets
// embedded in the single binary (build-binary.ts) when running as it.

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getAsset, isSea } from "node:sea";

/** The asset holding package.json's version inside the binary. */
export const VERSION_ASSET = "version";
/** The binary's own bundle, embedded so worker threads can evaluate it (app/binary.ts). */
export const BUNDLE_ASSET = "courtside.js";

/**
 * The pages under src/web/, as `npm run build` writes each under dist/web/<page>/ (deploy/bundle.ts):
 * its index.html, its style sheet and its script bundled from main.ts, named as the page's URLs
 * name them (/explore/assets/explore.js). The routes read them with readBuiltFile; the binary embeds them.
 */
export const WEB_PAGES = {
  explore: { style: "explore.css", script: "explore.js" },
  dashboard: { style: "dashboard.css", script: "dashboard.js" },
  docs: { style: "docs.css", script: "docs-init.js" },
} as const;
export type WebPage = keyof typeof WEB_PAGES;
export const WEB_PAGE_FILE = "index.html";

/** A built page file's path under dist/ (and its asset name in the binary): `web/explore/explore.js`. */
export function webFile(page: WebPage, file: string): string {
  return `web/${page}/${file}`;
}

/** Every file the build writes for the pages. */
export function webFiles(): string[] {
  return (Object.keys(WEB_PAGES) as WebPage[]).flatMap((page) => [WEB_PAGE_FILE, WEB_PAGES[page].style, WEB_PAGES[page].script].map((file) => webFile(page, file)));
}

/** A file of an installed package (`swagger-ui-dist`, `swagger-ui.css`); its asset name in the binary is `package/file`. */
export function readPackageFile(packageName: string, file: string): Buffer {
  if (isSea()) return Buffer.from(getAsset(`${packageName}/${file}`));
  return readFileSync(packageFilePath(packageName, file));
}

/** Where an installed package's file is; throws, saying what to run, when it is not there (the binary embeds its files at build). */
export function checkPackageFile(packageName: string, file: string): void {
  if (!isSea()) packageFilePath(packageName, file);
}

function packageFilePath(packageName: string, file: string): string {
  let directory: string;
  try {
    directory = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  } catch (error) {
    throw new Error(`${packageName} is not installed (run npm ci): ${(error as Error).message}`);
  }
  const path = join(directory, file);
  if (!existsSync(path)) throw new Error(`${path} is missing from ${packageName}`);
  return path;
}

/**
 * A file the build wrote under dist/ (`web/explore/explore.js`): from the repository's dist/ (found
 * as the nearest package.json above this file, as under npm start and tap), or the binary's asset
 * of the same name. Throws, saying what to run, when it has not been built.
 */
export function readBuiltFile(file: string): Buffer {
  if (isSea()) return Buffer.from(getAsset(file));
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(directory, "package.json"))) {
      const path = join(directory, "dist", file);
      if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build`);
      return readFileSync(path);
    }
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)} to find dist/${file}`);
    directory = parent;
  }
}

/** The version of the nearest package.json above this file (src/ under tap, dist/src/ once built), or the embedded one. */
export function packageVersion(): string {
  if (isSea()) return getAsset(VERSION_ASSET, "utf8");
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
