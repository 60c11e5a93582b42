// `npm run build`'s second step (after tsc): the server as esbuild bundles in dist/server/, which
// `npm start` runs. The two entries, main.js (the supervisor's thread) and worker-main.js (each
// worker thread's), sit side by side as in src/, with the modules they share in chunks and each
// command's modules (build-index, sync, keys, the demo generator, the metrics server, Redis) in
// chunks loaded when used. One file per thread instead of ~100 module files: a worker thread
// loads its code in about half the time (spawn → /ready, bench/README.md "Boot"). The single
// binary bundles the same sources (deploy/build-binary.ts) with the same base options.

import { rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildOptions } from "esbuild";

/** What every server bundle shares: Node 20, everything inlined but uWS's addon (loaded by src/http/uws.ts). */
export const SERVER_BUNDLE_BASE = {
  bundle: true,
  platform: "node",
  target: "node20",
  external: ["uWebSockets.js"],
  legalComments: "none",
  logLevel: "warning",
} as const satisfies BuildOptions;

export const SERVER_BUNDLE_DIR = join("dist", "server");

export async function bundleServer(root: string): Promise<void> {
  const outdir = join(root, SERVER_BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  const esbuild = await import("esbuild");
  await esbuild.build({
    ...SERVER_BUNDLE_BASE,
    entryPoints: [join(root, "src", "main.ts"), join(root, "src", "worker-main.ts")],
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

/** The explorer page's script with Chart.js, for browsers: one minified file the service serves (src/http/routes/explore.ts). */
export async function bundleExplorer(root: string): Promise<void> {
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [join(root, "src", "http", "explore", "explore.js")],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2020",
    minify: true,
    legalComments: "eof",
    logLevel: "warning",
    outfile: join(root, "dist", "explore", "explore.js"),
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  await bundleServer(root);
  await bundleExplorer(root);
}
