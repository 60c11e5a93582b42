// The process's entry under Node (`npm start`, `npm run keys|mcp|sync|build-index`, each of them
// `node dist/server/main.js <command> …`): the `courtside` command line of cli.ts, as the single
// binary runs it (binary.ts). Checks the Node first (20 or later serves: uWS where its addon
// loads, node:http elsewhere; older Node is told what to install), before any module that needs it.

import { nodeVersionProblem } from "../node-version.js";

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`courtside: ${problem}\n`);
  process.exit(1);
}

const { runProcess } = await import("./cli.js");
await runProcess(process.argv.slice(2), { workerEntry: () => new URL("./worker-main.js", import.meta.url) });
