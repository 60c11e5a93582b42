// Loads uWebSockets.js's native addon, once per thread, on first use: from node_modules under
// `npm start`, or, inside the single binary, from the copy embedded in it (written to a private
// temporary directory, loaded with process.dlopen, removed when the process exits). Refuses
// uWS's JavaScript fallback: only the native addon is fast.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAsset, isSea } from "node:sea";
import type * as Uws from "uWebSockets.js";

export type UwsModule = typeof Uws;

/** The embedded addon's asset name (build-binary.ts puts it there). */
export const UWS_ASSET = "uws.node";
/** Where the first thread wrote the addon; worker threads inherit it and load the same file. */
const ADDON_PATH_VARIABLE = "COURTSIDE_UWS_ADDON";

let loaded: UwsModule | undefined;

export function loadUws(): UwsModule {
  if (loaded !== undefined) return loaded;
  let module: UwsModule;
  if (isSea()) {
    const holder = { exports: {} as UwsModule };
    const path = process.env[ADDON_PATH_VARIABLE] || extractAddon();
    try {
      process.dlopen(holder, path);
    } catch (error) {
      throw new Error(`the embedded uWebSockets.js addon does not load on this machine (${oneLine(error)}); the binary needs Linux x64 with glibc`);
    }
    module = holder.exports;
  } else {
    // createRequire: the package is CommonJS and picks its binary by Node's ABI at require time.
    module = createRequire(import.meta.url)("uWebSockets.js") as UwsModule;
  }
  if (!/\[native code\]/.test(Function.prototype.toString.call(module.App))) {
    throw new Error(`uWebSockets.js did not load its native addon (Node ${process.version} has no binary for it; run Node 20 or the single binary dist/bin/courtside); refusing to run on the slow JavaScript fallback`);
  }
  loaded = module;
  return module;
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

function oneLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0] ?? "";
}
