// `npm run build:binary` → dist/bin/courtside: one executable (a Node single executable
// application) built from the Node running this script, which must be Node 20 on Linux x64. The
// compiled server is bundled into one CommonJS file (esbuild), which Node's SEA runs in the main
// thread and the supervisor evaluates in each worker thread; the uWS addon, the built pages of
// src/web/, the docs page's Swagger UI files and the version are embedded as assets
// (src/http/uws.ts, src/assets.ts).

import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLE_ASSET, VERSION_ASSET, webFiles } from "../src/assets.js";
import { DOCS_BUNDLE_FILES, DOCS_BUNDLE_PACKAGE } from "../src/http/routes/docs.js";
import { UWS_ASSET } from "../src/http/uws.js";
import { SUPPORTED_NODE_MAJOR } from "../src/node-version.js";
import { SERVER_BUNDLE_BASE } from "./bundle.js";

/** Marks the SEA blob inside the Node binary (the value Node's docs and postject give). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

function fail(message: string): never {
  process.stderr.write(`build:binary: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const out = join(root, "dist", "bin");
  const require = createRequire(join(root, "package.json"));
  if (Number(process.versions.node.split(".")[0]) !== SUPPORTED_NODE_MAJOR || process.platform !== "linux" || process.arch !== "x64") {
    fail(`needs Node ${SUPPORTED_NODE_MAJOR} on Linux x64 (the embedded uWS addon is for that ABI); this is Node ${process.version} on ${process.platform}-${process.arch}`);
  }
  const uwsAddon = join(dirname(require.resolve("uWebSockets.js/package.json")), "binaries", `uws_linux_x64_${process.versions.modules}.node`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const bundle = join(out, BUNDLE_ASSET);
  const esbuild = await import("esbuild");
  await esbuild.build({
    // uWS is loaded by uws.ts with process.dlopen, never bundled; only its types are imported.
    ...SERVER_BUNDLE_BASE,
    entryPoints: [join(root, "src", "bin", "courtside.ts")],
    format: "cjs",
    outfile: bundle,
    // import.meta does not exist in CommonJS. Inside the binary every use of it is behind
    // isSea() (assets, uWS) or compares it with a real path (the keys script's entry check),
    // so a URL that names no file keeps both false.
    define: { "import.meta.url": JSON.stringify("file:///courtside-binary/courtside.js") },
    plugins: [...SERVER_BUNDLE_BASE.plugins, {
      // msgpackr's optional native string decoder: not embedded (msgpackr decodes in JavaScript
      // without it), and refused here rather than looked for on disk, which SEA's require warns about.
      name: "without-msgpackr-extract",
      setup(build) {
        build.onResolve({ filter: /^msgpackr-extract$/ }, () => ({ path: "msgpackr-extract", namespace: "absent" }));
        build.onLoad({ filter: /.*/, namespace: "absent" }, () => ({ contents: 'throw new Error("msgpackr-extract is not embedded in the binary");', loader: "js" }));
      },
    }],
  });

  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const versionFile = join(out, VERSION_ASSET);
  writeFileSync(versionFile, version);
  const docsDirectory = dirname(require.resolve(`${DOCS_BUNDLE_PACKAGE}/package.json`));
  const assets: Record<string, string> = { [BUNDLE_ASSET]: bundle, [UWS_ASSET]: uwsAddon, [VERSION_ASSET]: versionFile };
  for (const [file] of DOCS_BUNDLE_FILES) assets[`${DOCS_BUNDLE_PACKAGE}/${file}`] = join(docsDirectory, file);
  // The pages of src/web/, as `npm run build` built them (build:binary builds first).
  for (const file of webFiles()) assets[file] = join(root, "dist", file);

  const blob = join(out, "courtside.blob");
  const seaConfig = join(out, "sea-config.json");
  writeFileSync(seaConfig, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2));
  execFileSync(process.execPath, ["--experimental-sea-config", seaConfig], { stdio: "inherit" });

  const binary = join(out, "courtside");
  copyFileSync(process.execPath, binary);
  chmodSync(binary, 0o755);
  // Node's own symbols and debug info are most of a distribution binary; the SEA needs neither.
  try {
    execFileSync("strip", ["--strip-all", binary], { stdio: "ignore" });
  } catch {
    process.stderr.write("build:binary: strip (binutils) not found; the binary keeps Node's symbols\n");
  }
  const { inject } = require("postject") as { inject: (file: string, name: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void> };
  await inject(binary, "NODE_SEA_BLOB", readFileSync(blob), { sentinelFuse: SEA_FUSE });
  for (const file of [blob, seaConfig, versionFile]) rmSync(file);
  process.stdout.write(`dist/bin/courtside: ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB (Node ${process.version}, courtside ${version})\n`);
}

main().catch((error: unknown) => fail(String((error as Error)?.stack ?? error)));
