// `npm run mcp`: the MCP tools over stdio (mcp-stdio.ts) under the Node that runs npm. Only
// stderr is written to: stdout is the protocol's.

const { runCli } = await import("./cli.js");
const code = await runCli(["mcp", ...process.argv.slice(2)], {
  env: process.env,
  serve: { workerEntry: () => new URL("./worker-main.js", import.meta.url) },
  out: (text) => process.stderr.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
if (code !== undefined) process.exit(code);
