// What every npm script runs first (`node deploy/launch.mjs && node dist/…`): plain Node, no
// packages, so it runs on a fresh clone. It makes the checkout ready to run, doing only what is
// missing, each long step announced on stderr (stdout stays the command's: `npm run mcp` speaks
// its protocol there):
//   1. node_modules: `npm ci` when a package of package-lock.json is missing or at another version.
//   2. With --typecheck (npm test, npm run build): tsc over both projects, emitting nothing.
//   3. dist/: rebuilt by esbuild when the sources differ from the ones it was built from (a hash
//      of their contents in dist/.build-stamp): every .ts file tsconfig.json includes, transpiled
//      one to one into dist/ (the layout tsc would write), then the server bundles and the pages
//      (deploy/bundle.ts). A second start from unchanged sources builds nothing.
// Type-checking is tsc's and belongs to npm test and npm run build, not to every start.
//
// Usage: node deploy/launch.mjs [--typecheck] [--binary]

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
const STAMP = join(DIST, ".build-stamp");
/** What tsconfig.json includes (its "include", less src/web, the pages' own project). */
const TS_ROOTS = ["src", "deploy", "bench", "test", "build-index.ts"];
/** Besides the .ts files: the pages' HTML and CSS, and what decides how anything is built. */
const OTHER_INPUTS = ["package-lock.json", "tsconfig.json", "src/web", "deploy/launch.mjs"];
/** What the scripts run: a build missing one of these is rebuilt whatever the stamp says. */
const OUTPUTS = ["dist/server/main.js", "dist/server/worker-main.js", "dist/src/app/cli.js", "dist/build-index.js", "dist/deploy/bundle.js", "dist/web"];
/** The type checks of npm test and npm run build: the server's project, then the pages'. */
const TYPECHECKS = [["-p", "tsconfig.json", "--noEmit"], ["-p", join("src", "web", "tsconfig.json")]];

const say = (text) => process.stderr.write(`courtside: ${text}\n`);
const seconds = (since, until = performance.now()) => `${((until - since) / 1000).toFixed(1)} s`;

/** Runs a command with its output on stderr; exits with its code when it fails. */
function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ["ignore", 2, 2] });
  if (result.error) {
    say(`${what}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The first package of package-lock.json that node_modules lacks or holds at another version, or undefined. */
function staleDependency() {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    // Workspace links point into the repository; optional packages are only for other platforms.
    if (!path.includes("node_modules/") || entry.link === true) continue;
    let installed;
    try {
      installed = JSON.parse(readFileSync(join(ROOT, path, "package.json"), "utf8")).version;
    } catch {
      if (entry.optional === true) continue;
      return `${path} is missing`;
    }
    if (installed !== entry.version) return `${path} is ${installed}, package-lock.json says ${entry.version}`;
  }
  return undefined;
}

function ensureDependencies() {
  const stale = staleDependency();
  if (stale === undefined) return;
  const started = performance.now();
  say(`installing the dependencies with npm ci (${stale}): about 30 s from npm's cache, a few minutes from the registry`);
  // Under `npm run` the npm that runs us; else the one on PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && npmCli.endsWith(".js") ? [process.execPath, [npmCli]] : ["npm", []];
  run(command, [...args, "ci", "--no-audit", "--no-fund"], "npm ci");
  const still = staleDependency();
  if (still !== undefined) {
    say(`npm ci finished but ${still}`);
    process.exit(1);
  }
  say(`dependencies installed in ${seconds(started)}`);
}

function typecheck() {
  const started = performance.now();
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  for (const args of TYPECHECKS) run(process.execPath, [tsc, ...args], "tsc");
  say(`type-checked in ${seconds(started)}`);
}

/** Every file under `path` (a file or a directory), relative to the root, optionally only `.ts` ones. */
function filesUnder(path, onlyTs) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && (!onlyTs || entry.name.endsWith(".ts")))
    .map((entry) => relative(ROOT, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join("/"));
}

/** The .ts files tsc compiles (src/web's are the pages', bundled for browsers). */
function typescriptSources() {
  return TS_ROOTS.flatMap((path) => filesUnder(path, true)).filter((file) => !file.startsWith("src/web/")).sort();
}

/** A digest of every input's path and contents: what the build in dist/ was made from. */
function inputsDigest(sources) {
  const hash = createHash("sha256");
  const inputs = [...new Set([...sources, ...OTHER_INPUTS.flatMap((path) => filesUnder(path, false))])].sort();
  for (const file of inputs) hash.update(`${file}\0`).update(readFileSync(join(ROOT, file))).update("\0");
  return hash.digest("hex");
}

async function ensureBuild() {
  const sources = typescriptSources();
  const digest = inputsDigest(sources);
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : "";
  if (stamp === digest && OUTPUTS.every((path) => existsSync(join(ROOT, path)))) return;
  const started = performance.now();
  say(stamp === "" ? `building dist/ (${sources.length} files, the server bundles, the pages)` : "sources changed since the last build: rebuilding dist/");
  rmSync(STAMP, { force: true });
  // Whatever a source no longer there left behind goes too (the single binary, dist/bin, stays).
  for (const path of ["src", "deploy", "bench", "test", "build-index.js", "build-index.js.map"]) rmSync(join(DIST, path), { recursive: true, force: true });
  const esbuild = await import(pathToFileURL(join(ROOT, "node_modules", "esbuild", "lib", "main.js")).href);
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: sources,
    outdir: "dist",
    outbase: ".",
    format: "esm",
    platform: "node",
    target: "es2023",
    sourcemap: true,
    tsconfig: "tsconfig.json",
    logLevel: "warning",
  });
  const transpiled = performance.now();
  const { bundleServer, bundlePages } = await import(pathToFileURL(join(DIST, "deploy", "bundle.js")).href);
  await bundleServer(ROOT);
  const bundled = performance.now();
  await bundlePages(ROOT);
  writeFileSync(STAMP, `${digest}\n`);
  say(`built dist/ in ${seconds(started)} (each file ${seconds(started, transpiled)}, server bundles ${seconds(transpiled, bundled)}, pages ${seconds(bundled)})`);
}

/**
 * --binary (npm run build:binary): the single binary embeds the Node running its build, which must
 * be BINARY_NODE_MAJOR on Linux x64 (deploy/build-binary.ts checks again); said before anything
 * is installed or built.
 */
function checkBinaryNode() {
  const major = Number(/BINARY_NODE_MAJOR = (\d+)/.exec(readFileSync(join(ROOT, "src", "node-version.ts"), "utf8"))?.[1]);
  if (Number(process.versions.node.split(".")[0]) === major && process.platform === "linux" && process.arch === "x64") return;
  process.stderr.write(`build:binary: needs Node ${major} LTS on Linux x64 (the binary embeds the Node running this); this is Node ${process.version} on ${process.platform}-${process.arch}. `
    + `Run it with Node ${major}: PATH=<node ${major} bin directory>:$PATH npm run build:binary (.ci/node24 sets one up)\n`);
  process.exit(1);
}

if (process.argv.includes("--binary")) checkBinaryNode();
ensureDependencies();
if (process.argv.includes("--typecheck")) typecheck();
try {
  await ensureBuild();
} catch (error) {
  // esbuild has printed what failed, file and line; the stamp stays away, so the next run rebuilds.
  say(`the build failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  process.exit(1);
}
