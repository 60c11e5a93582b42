// MCP tool calls beside the REST routes that answer the same questions: calls per second and server
// CPU per call (the server process's utime+stime from /proc), one server (WORKERS=1) on the demo
// editions, the same client (fetch, N concurrent loops) for both. A 2025-era call (no handshake
// needed: stateless) is answered by the one SDK server kept for them (mcp-exchange.ts); a
// 2026-07-28 call (its revision in `_meta` and in its MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers) by the SDK's entry, on a kept server that serves nothing else (mcp-server-pool.ts). REST answers
// repeat questions from its memo. Each question alone, then the three in turn.
// `npm run bench:mcp -- --seconds 5 --concurrency 16`

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ensureDemoData } from "./demo-data.js";
import { startServerProcess } from "./server-process.js";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "5" }, concurrency: { type: "string", default: "16" }, data: { type: "string", default: "data" } } });
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

const server = await startServerProcess({ dataDir: ensureDemoData(values.data), workers: 1, cpus: "0" });
const base = `http://127.0.0.1:${server.port}`;
const headers = { "x-api-key": server.key };
const first = (await (await fetch(`${base}/api/players?teamType=curr&limit=1&sort=overall`, { headers })).json()) as { data: { _id: string }[] };
const id = first.data[0]!._id;
const questions: { tool: string; args: Record<string, unknown>; rest: string }[] = [
  { tool: "find_players", args: { teamType: "curr", limit: 10, sort: "overall" }, rest: "/api/players?teamType=curr&limit=10&sort=overall" },
  { tool: "get_player", args: { id }, rest: `/api/players/${id}` },
  { tool: "search_players", args: { q: "james" }, rest: "/api/players/search?q=james" },
];

async function run(name: string, once: (i: number) => Promise<void>): Promise<{ name: string; perSecond: number; cpuMsPerCall: number; calls: number }> {
  const pid = server.child.pid!;
  const until = Date.now() + seconds * 1000;
  const cpuBefore = cpuTicks(pid);
  const started = performance.now();
  let calls = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < until) await once(calls++);
  }));
  const elapsed = (performance.now() - started) / 1000;
  const cpuMs = (cpuTicks(pid) - cpuBefore) * 10;
  return { name, perSecond: Math.round(calls / elapsed), cpuMsPerCall: Number((cpuMs / calls).toFixed(3)), calls };
}

const rest = (i: number) => fetch(base + questions[i % questions.length]!.rest, { headers }).then(async (response) => {
  if (response.status !== 200) throw new Error(`REST ${response.status}`);
  await response.arrayBuffer();
});
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const mcpCall = (modern: boolean, pick: (i: number) => number) => (i: number) => {
  const question = questions[pick(i)]!;
  const params = { name: question.tool, arguments: question.args, ...(modern ? { _meta: MODERN_META } : {}) };
  const body = JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params });
  return fetch(`${base}/mcp`, { method: "POST", headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream", ...(modern ? { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": question.tool } : { "mcp-protocol-version": "2025-06-18" }) }, body }).then(async (response) => {
    const answer = (await response.json()) as { result?: { isError?: boolean } };
    if (response.status !== 200 || answer.result === undefined || answer.result.isError === true) throw new Error(`MCP ${response.status} ${JSON.stringify(answer).slice(0, 200)}`);
  });
};
const inTurn = (i: number) => i % questions.length;
const mcp = mcpCall(false, inTurn);

await run("warm-up", (i) => (i % 2 === 0 ? rest(i) : mcp(i)));
const results: Awaited<ReturnType<typeof run>>[] = [];
for (const [index, question] of questions.entries()) {
  results.push(await run(`${question.tool}: REST`, (i) => rest(index + questions.length * i)));
  results.push(await run(`${question.tool}: MCP 2025 (the kept server)`, mcpCall(false, () => index)));
  results.push(await run(`${question.tool}: MCP 2026-07-28 (the SDK's entry)`, mcpCall(true, () => index)));
}
results.push(await run("the three in turn: REST", rest), await run("the three in turn: MCP 2025", mcp), await run("the three in turn: MCP 2026-07-28", mcpCall(true, inTurn)));
await server.stop();
console.log(`${seconds} s each, ${concurrency} concurrent fetch loops, WORKERS=1 pinned to core 0; questions: ${questions.map((q) => q.tool).join(", ")}`);
console.log("| path | calls/s | server CPU ms per call | calls |\n|---|---|---|---|");
for (const result of results) console.log(`| ${result.name} | ${result.perSecond} | ${result.cpuMsPerCall} | ${result.calls} |`);
