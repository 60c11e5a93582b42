// Loads uWebSockets.js's native addon, once per thread, on first use. Two builds are installed
// (npm aliases, package.json): 20.57 (`uws-20.57`, upstream's binaries for Node 20/22/24/25, Linux
// with glibc ≥ 2.38, macOS, Windows) and 20.30 (`uWebSockets.js`, Node 16/18/20, older glibc too).
// The first thread picks 20.57 when its binary for this Node's ABI loads, else 20.30, and names its
// choice in COURTSIDE_UWS so worker threads load the same one. Inside the single binary the addon
// embedded in it is used (written to a private temporary directory, loaded with process.dlopen,
// removed when the process exits). Refuses uWS's JavaScript fallback: only the native addon is fast.
//
// The request-head limit is ours on both (MAX_HEADERS_KB): 20.57 reads it from
// UWS_HTTP_MAX_HEADERS_SIZE when its addon loads (set here, before); 20.30 has no such setting (it
// serves a head of any size that arrives in one read, and drops one over 4 KiB that arrives in
// several), so server.ts measures the head itself there and answers 431 alike.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getAsset, isSea } from "node:sea";
import type * as Uws from "uWebSockets.js";

export type UwsModule = typeof Uws;

/** The embedded addon's asset name, and its version's (build-binary.ts puts both there). */
export const UWS_ASSET = "uws.node";
export const UWS_VERSION_ASSET = "uws-version";
/** Where the first thread wrote the embedded addon; worker threads inherit it and load the same file. */
const ADDON_PATH_VARIABLE = "COURTSIDE_UWS_ADDON";
/** Which build the first thread chose ("20.57" or "20.30"); also lets an operator force one. */
const CHOICE_VARIABLE = "COURTSIDE_UWS";
/** 20.57's own setting for the request-head limit (bytes), read once when its addon loads. */
const HEAD_LIMIT_VARIABLE = "UWS_HTTP_MAX_HEADERS_SIZE";
/** MAX_HEADERS_KB's default: Node's own http server's limit. */
export const DEFAULT_MAX_HEADERS_KB = 16;

/** The installed builds, preferred first: the package (alias) name and its version. */
export const UWS_BUILDS = [
  { name: "20.57", packageName: "uws-20.57", version: "20.57.0" },
  { name: "20.30", packageName: "uWebSockets.js", version: "20.30.0" },
] as const;

export interface UwsInfo {
  /** "20.57.0" or "20.30.0". */
  readonly version: string;
  /** The request-head limit (bytes) in force. */
  readonly maxHeadBytes: number;
  /** True where uWS itself does not enforce maxHeadBytes (20.30): server.ts measures heads. */
  readonly isHeadLimitOurs: boolean;
  /** How 20.57 differs from 20.30 at the protocol level (README, tests). */
  readonly answersHttp10: boolean;
}

let loaded: UwsModule | undefined;
let info: UwsInfo | undefined;

/**
 * Loads the addon (the first call decides; later calls return the same module). `maxHeadersKb`
 * (MAX_HEADERS_KB) only counts on the first call of the process: worker threads find the limit the
 * first thread set in the environment.
 */
export function loadUws(options: { maxHeadersKb?: number | undefined } = {}): UwsModule {
  if (loaded !== undefined) return loaded;
  const inherited = Number(process.env[HEAD_LIMIT_VARIABLE]);
  const maxHeadBytes = options.maxHeadersKb !== undefined ? options.maxHeadersKb * 1024
    : Number.isInteger(inherited) && inherited > 0 ? inherited : DEFAULT_MAX_HEADERS_KB * 1024;
  // Before any addon loads: 20.57 reads it once, when its code is initialised.
  process.env[HEAD_LIMIT_VARIABLE] = String(maxHeadBytes);
  const { module, version } = isSea() ? loadEmbedded() : loadInstalled();
  if (!/\[native code\]/.test(Function.prototype.toString.call(module.App))) {
    throw new Error(`uWebSockets.js ${version} did not load its native addon; refusing to run on its slow JavaScript fallback. ${whatToRun()}`);
  }
  const isNew = !version.startsWith("20.30");
  info = { version, maxHeadBytes, isHeadLimitOurs: !isNew, answersHttp10: !isNew };
  loaded = module;
  return module;
}

/** What loadUws loaded (undefined before it ran in this thread). */
export function uwsInfo(): UwsInfo | undefined {
  return info;
}

function loadInstalled(): { module: UwsModule; version: string } {
  const require = createRequire(import.meta.url);
  const forced = process.env[CHOICE_VARIABLE];
  const builds = forced ? UWS_BUILDS.filter((build) => build.name === forced) : UWS_BUILDS;
  if (builds.length === 0) throw new Error(`${CHOICE_VARIABLE}=${forced}: no such uWebSockets.js build (${UWS_BUILDS.map((build) => build.name).join(" or ")})`);
  const failures: string[] = [];
  for (const build of builds) {
    // Each package's binaries sit beside its entry as uws_<platform>_<arch>_<ABI>.node; loading the
    // binary itself (not the package's entry) keeps 20.30's JavaScript fallback out of reach.
    const file = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
    const path = uwsAddonPath(build, process.versions.modules, process.platform, process.arch);
    if (path === undefined) {
      failures.push(`${build.version}: not installed (run npm ci)`);
      continue;
    }
    try {
      const module = require(path) as UwsModule;
      process.env[CHOICE_VARIABLE] = build.name;
      return { module, version: build.version };
    } catch (error) {
      failures.push(`${build.version}: ${(error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" ? `no ${file}` : oneLine(error)}`);
    }
  }
  const advice = forced ? `${CHOICE_VARIABLE}=${forced} allows only that build: unset it to let the server choose` : whatToRun();
  throw new Error(`no uWebSockets.js addon loads on Node ${process.version} (${process.platform}-${process.arch}, ABI ${process.versions.modules}${glibcText()}): ${failures.join("; ")}. ${advice}`);
}

function loadEmbedded(): { module: UwsModule; version: string } {
  const holder = { exports: {} as UwsModule };
  const version = Buffer.from(getAsset(UWS_VERSION_ASSET)).toString("utf8");
  const path = process.env[ADDON_PATH_VARIABLE] || extractAddon();
  try {
    process.dlopen(holder, path);
  } catch (error) {
    throw new Error(`the embedded uWebSockets.js ${version} addon does not load on this machine (${oneLine(error)}); the binary needs Linux x64 with glibc 2.38 or later (Debian 13, Ubuntu 24.04, current Fedora). On an older distribution run npm start on Node 20 instead (README, Requirements)`);
  }
  return { module: holder.exports, version };
}

/** The glibc this process runs on ("2.36"), or undefined off glibc. */
export function glibcVersion(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}

function glibcText(): string {
  const glibc = glibcVersion();
  return glibc === undefined ? "" : `, glibc ${glibc}`;
}

/** The advice for a machine where no addon loads: which Node to run, and how to look for a newer build. */
function whatToRun(): string {
  const major = Number(process.versions.node.split(".")[0]);
  const glibc = glibcVersion();
  const isOldGlibc = glibc !== undefined && compareVersions(glibc, "2.38") < 0;
  if (process.platform === "linux" && isOldGlibc) {
    return `This machine's glibc ${glibc} is older than 2.38, which uWebSockets.js 20.57 needs: run npm start on Node 20 (it uses uWebSockets.js 20.30; Node 20 is past end of life), or move to a distribution with glibc 2.38 or later (Debian 13, Ubuntu 24.04) and Node 24 or 22`;
  }
  if (![20, 22, 24, 25].includes(major)) {
    return `Install Node 24 or 22 LTS and run npm ci again. Node ${major} has no uWebSockets.js addon yet: \`npm view @btc-vision/uwebsockets.js versions\` lists newer builds, and a build for Node ${major} ships uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  }
  return "Run npm ci (it installs both builds), on Node 24 or 22 LTS";
}

function compareVersions(left: string, right: string): number {
  const a = left.split(".").map(Number);
  const b = right.split(".").map(Number);
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function extractAddon(): string {
  // mkdtemp makes the directory 0700: nobody else can swap the file between write and load.
  const directory = mkdtempSync(join(tmpdir(), "courtside-"));
  const path = join(directory, UWS_ASSET);
  writeFileSync(path, new Uint8Array(getAsset(UWS_ASSET)), { mode: 0o700 });
  process.env[ADDON_PATH_VARIABLE] = path;
  process.once("exit", () => rmSync(directory, { recursive: true, force: true }));
  return path;
}

/**
 * Where an installed build keeps its addon for an ABI (the file may not exist); undefined when the
 * package is not installed. 20.57's package exports only its entry, hence the entry's directory.
 */
export function uwsAddonPath(build: (typeof UWS_BUILDS)[number], abi: string, platform: string = process.platform, arch: string = process.arch): string | undefined {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(build.packageName);
  } catch {
    return undefined;
  }
  const file = `uws_${platform}_${arch}_${abi}.node`;
  // 20.30: src/uws.js beside binaries/; 20.57: uws.js beside its addons.
  return build.name === "20.30" ? join(dirname(entry), "..", "binaries", file) : join(dirname(entry), file);
}

function oneLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n").find((line) => line.trim() !== "" && !line.startsWith("This version of uWS.js")) ?? "";
}
