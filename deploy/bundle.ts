// The last step of every build (deploy/launch.mjs, after it transpiled each .ts file into dist/): the pages of src/web/ in dist/web/, and the server
// as esbuild bundles in dist/server/, which `npm start` runs. The two entries, main.js (the supervisor's thread) and worker-main.js (each
// worker thread's), sit side by side as in src/, with the modules they share in chunks and each
// command's modules (build-index, sync, keys, the demo generator, the metrics server, Redis) in
// chunks loaded when used. One file per thread instead of ~100 module files: a worker thread
// loads its code in about half the time (spawn → /ready, bench/README.md "Boot"). The single
// binary bundles the same sources (deploy/build-binary.ts) with the same base options.

import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildOptions, Plugin } from "esbuild";
import { WEB_PAGE_FILE, WEB_PAGES, webFile, type WebPage } from "../src/assets.js";

/**
 * V8 keeps a script's source in memory as long as its functions live, one byte per character
 * only when every character is Latin-1; a single `→` in a comment doubles the whole file, in every
 * thread that loads it (worker-main.js: 300 KB became 600 KB per worker). esbuild escapes strings
 * but leaves comments and regular expressions as written, so this rewrites each character above
 * U+00FF in the output as a `\uXXXX` escape: the same character in a regular expression,
 * identifier or template, and plain text in a comment. Columns after it on that line shift by five
 * in the source map.
 */
export function latin1Escape(code: string): string {
  return code.replace(/[^\u0000-\u00ff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Rewrites every JavaScript file the build wrote with latin1Escape. */
export const LATIN1_OUTPUT: Plugin = {
  name: "latin1-output",
  setup(build) {
    build.initialOptions.metafile = true;
    build.onEnd((result) => {
      for (const file of Object.keys(result.metafile?.outputs ?? {})) {
        if (!file.endsWith(".js")) continue;
        const code = readFileSync(file, "utf8");
        const escaped = latin1Escape(code);
        if (escaped !== code) writeFileSync(file, escaped);
      }
    });
  },
};

/** What every server bundle shares: Node 20, everything inlined but uWS's addon (loaded by src/http/uws.ts). */
export const SERVER_BUNDLE_BASE = {
  bundle: true,
  platform: "node",
  target: "node20",
  external: ["uWebSockets.js"],
  legalComments: "none",
  logLevel: "warning",
  plugins: [LATIN1_OUTPUT],
} satisfies BuildOptions;

export const SERVER_BUNDLE_DIR = join("dist", "server");

export async function bundleServer(root: string): Promise<void> {
  const outdir = join(root, SERVER_BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  const esbuild = await import("esbuild");
  await esbuild.build({
    ...SERVER_BUNDLE_BASE,
    entryPoints: [join(root, "src", "app", "main.ts"), join(root, "src", "app", "worker-main.ts")],
    format: "esm",
    splitting: true,
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: true,
    // msgpackr's optional native decoder stays a runtime lookup (msgpackr decodes in JavaScript without it).
    external: [...SERVER_BUNDLE_BASE.external, "msgpackr-extract"],
    // The CommonJS packages inside (ajv, pino, …) call require(): give each ES module file one.
    banner: { js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);' },
  });
}

/** The browsers the pages' style sheets are written for: esbuild lowers what they do not read (CSS nesting, :is()) to what they do. */
export const PAGE_CSS_TARGET = ["chrome100", "firefox100", "safari15", "edge100"];

/**
 * The pages of src/web/ for browsers, each into dist/web/<page>/ under the names its URLs use
 * (src/assets.ts WEB_PAGES): its main.ts bundled (the explorer's with Chart.js) into one file, its
 * style.css bundled with what it imports (src/web/common.css, the style every page shares) into
 * one style sheet, its index.html copied. The docs page's script stays unminified (a few lines a
 * reader of the page may want to read); the others are minified.
 */
export async function bundlePages(root: string): Promise<void> {
  const esbuild = await import("esbuild");
  const outRoot = join(root, "dist", "web");
  rmSync(outRoot, { recursive: true, force: true });
  for (const page of Object.keys(WEB_PAGES) as WebPage[]) {
    const source = join(root, "src", "web", page);
    const out = join(root, "dist", webFile(page, ""));
    await esbuild.build({
      entryPoints: [join(source, "main.ts")],
      bundle: true,
      platform: "browser",
      format: "iife",
      target: "es2022",
      minify: page !== "docs",
      legalComments: "eof",
      logLevel: "warning",
      outfile: join(out, WEB_PAGES[page].script),
    });
    await esbuild.build({
      entryPoints: [join(source, "style.css")],
      bundle: true,
      target: PAGE_CSS_TARGET,
      logLevel: "warning",
      outfile: join(out, WEB_PAGES[page].style),
    });
    copyFileSync(join(source, WEB_PAGE_FILE), join(out, WEB_PAGE_FILE));
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  await bundleServer(root);
  await bundlePages(root);
}
