// `npm start`: the serve command under the Node that runs npm. Checks that Node first (20 or later
// serve: uWS where its addon loads, node:http elsewhere; older Node is told what to install).

import { nodeVersionProblem } from "./node-version.js";

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`courtside: ${problem}\n`);
  process.exit(1);
}

const { runCli } = await import("./cli.js");
const code = await runCli(["serve", ...process.argv.slice(2)], {
  env: process.env,
  serve: { workerEntry: () => new URL("./worker-main.js", import.meta.url) },
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
// A refused start may leave a log stream or a closing socket behind: exit rather than wait for them.
if (code !== undefined) process.exit(code);
