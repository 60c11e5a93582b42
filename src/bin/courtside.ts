// The single binary's entry (bundled to CommonJS by build-binary.ts, run by Node's SEA). In the
// main thread it is the `courtside` command line; in a worker thread — the supervisor evaluates
// this same bundle there — it is a server worker.

import { getAsset } from "node:sea";
import { isMainThread } from "node:worker_threads";
import { BUNDLE_ASSET } from "../assets.js";
import { runCli } from "../cli.js";
import { runWorker } from "../worker.js";

if (isMainThread) {
  runCli(process.argv.slice(2), {
    env: process.env,
    serve: { workerEntry: () => getAsset(BUNDLE_ASSET, "utf8") },
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  }).then((code) => {
    if (code !== undefined) process.exit(code);
  }, (error: unknown) => {
    process.stderr.write(`courtside: ${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  });
} else {
  void runWorker();
}
