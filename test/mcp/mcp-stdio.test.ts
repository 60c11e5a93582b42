// `courtside mcp` over stdio with the SDK's own client: the built entry spawned on a data
// directory, no key; the same tools, answering what the REST routes answer over the same data.

import t from "tap";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startHarness } from "../http/harness.js";
import { asStructured, BAD_CASES, goodCases, TOOL_NAMES } from "./mcp-cases.js";

const ENTRY = fileURLToPath(new URL("../../dist/server/main.js", import.meta.url));

t.test("the SDK client over stdio: tools listed, answers equal to REST over the same data", async (t) => {
  // The harness serves the data directory the stdio process reads (its clock is fixed: answers that stamp the time are compared without it).
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const client = new Client({ name: "courtside-test", version: "1" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [ENTRY, "mcp", "--data-dir", `${harness.dir}/data`], env: { PATH: process.env.PATH ?? "" }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => { stderr += chunk.toString("utf8"); });
  await client.connect(transport);
  t.teardown(() => client.close());
  t.equal(client.getServerVersion()?.name, "courtside", "initialized");
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort(), "every tool listed");
  const { body } = await harness.json("/api/players?teamType=curr&limit=2&sort=overall");
  const [first, second] = body.data;
  const sample = { id: first._id, slug: first.slug, team: first.team, otherId: second._id };
  for (const { tool, args, rest } of goodCases(sample)) {
    const result = await client.callTool({ name: tool, arguments: args });
    t.notOk(result.isError, `${tool} ${JSON.stringify(args)} succeeds`);
    const answer = await harness.json(rest);
    t.same(withoutTime(result.structuredContent), withoutTime(asStructured(answer.body)), `${tool} ${JSON.stringify(args)} equals GET ${rest}`);
  }
  // Its start line names every edition it serves, not only the current one.
  const served = (await harness.json("/api/versions")).body.data.map((entry: { gameVersion: string }) => entry.gameVersion) as string[];
  t.ok(served.length >= 2, `${served.length} editions`);
  t.match(stderr, new RegExp(`serving ${served.length} editions from .* over stdio: ${served[0]} \\(current\\), ${served.slice(1).join(", ")}`), `the start line names ${served.join(", ")}`);
  for (const { tool, args, names } of BAD_CASES) {
    const result = await client.callTool({ name: tool, arguments: args });
    t.equal(result.isError, true, `${tool} ${JSON.stringify(args)} is a tool error`);
    t.match((result.content as { text: string }[])[0]?.text ?? "", names, `it names ${names}`);
  }
});

/** The answer without the time it was made (meta.timestamp, where a route stamps one). */
function withoutTime(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, inner) => (key === "timestamp" || key === "generatedAt" ? undefined : inner));
}
