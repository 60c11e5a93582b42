// The single binary's entry (bundled to CommonJS by build-binary.ts, run by Node's SEA). In the
// main thread it is the `courtside` command line (cli.ts, as main.ts runs it under Node); in a
// worker thread (the supervisor evaluates this same bundle there) it is a server worker.

import { getAsset } from "node:sea";
import { isMainThread } from "node:worker_threads";
import { BUNDLE_ASSET } from "../assets.js";
import { runProcess } from "./cli.js";
import { runWorker } from "./worker.js";

if (isMainThread) void runProcess(process.argv.slice(2), { workerEntry: () => getAsset(BUNDLE_ASSET, "utf8") });
else void runWorker();
