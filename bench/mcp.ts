// MCP tool calls beside the REST routes that answer the same questions: server CPU per call (the
// server process's utime+stime from /proc over a wrk run, divided by the calls wrk completed), one
// server (WORKERS=1) pinned to core 0 on the demo editions, wrk (one thread) pinned to core 1, so
// the server is what is saturated and CPU per call is its own cost, not a slow client's idle time.
// Three paths per question: REST (a GET, answered again from the dispatcher's memo), a 2025-era
// `tools/call` and a 2026-07-28 one (its revision in `_meta` and in the MCP-Protocol-Version,
// Mcp-Method and Mcp-Name headers), each call with its own JSON-RPC id; each question alone, then
// the three in turn; every cell the median of --repeats interleaved runs. Every request is sent
// once first and must answer 200 with no tool error.
// `npm run bench:mcp -- --seconds 3 --repeats 5`

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureDemoData } from "./demo-data.js";
import { runWrk, type PinnedProcess, type WrkResult } from "./pinned.js";
import { startServerProcess } from "./server-process.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "3" }, repeats: { type: "string", default: "5" }, connections: { type: "string", default: "16" },
    data: { type: "string", default: "data" }, "accept-encoding": { type: "string", default: "gzip, deflate, br" },
  },
});
const seconds = Number(values.seconds);
const repeats = Number(values.repeats);
const connections = Number(values.connections);
const acceptEncoding = values["accept-encoding"];

const server = await startServerProcess({ dataDir: ensureDemoData(values.data), workers: 1, cpus: "0" });
const pinned: PinnedProcess = { name: "courtside", port: server.port, child: server.child, log: [] };
const base = `http://127.0.0.1:${server.port}`;
const first = (await (await fetch(`${base}/api/players?teamType=curr&limit=1&sort=overall`, { headers: { "x-api-key": server.key } })).json()) as { data: { _id: string }[] };
const id = first.data[0]!._id;
const questions: { tool: string; args: Record<string, unknown>; rest: string }[] = [
  { tool: "find_players", args: { teamType: "curr", limit: 10, sort: "overall" }, rest: "/api/players?teamType=curr&limit=10&sort=overall" },
  { tool: "get_player", args: { id }, rest: `/api/players/${id}` },
  { tool: "search_players", args: { q: "james" }, rest: "/api/players/search?q=james" },
];
const ENVELOPE = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

type Path = "REST" | "MCP 2025" | "MCP 2026-07-28";
const PATHS: readonly Path[] = ["REST", "MCP 2025", "MCP 2026-07-28"];
interface Request { method: string; path: string; headers: Record<string, string>; body: string }

/** One question's request on one path, with the JSON-RPC id `n`. */
function requestOf(question: (typeof questions)[number], path: Path, n: number): Request {
  if (path === "REST") return { method: "GET", path: question.rest, headers: {}, body: "" };
  const isModern = path === "MCP 2026-07-28";
  const body = JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: question.tool, arguments: question.args, ...(isModern ? { _meta: ENVELOPE } : {}) } });
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (isModern) Object.assign(headers, { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": question.tool });
  return { method: "POST", path: "/mcp", headers, body };
}

const dir = mkdtempSync(join(tmpdir(), "courtside-bench-mcp-"));
/** A requests file (bench/wrk/requests.lua): each question of `picked` in turn, 60 ids each. */
function requestsFile(name: string, picked: readonly (typeof questions)[number][], path: Path): string {
  const lines: string[] = [];
  for (let n = 1; n <= 60; n++) {
    for (const question of picked) {
      const request = requestOf(question, path, n);
      lines.push([request.method, request.path, Object.entries(request.headers).map(([header, value]) => `${header}: ${value}`).join("\x1f"), request.body].join("\t"));
    }
  }
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

// Every request answers 200, and no tool call is a tool error.
for (const question of questions) {
  for (const path of PATHS) {
    const request = requestOf(question, path, 1);
    const response = await fetch(base + request.path, { method: request.method, headers: { "x-api-key": server.key, ...request.headers }, ...(request.body === "" ? {} : { body: request.body }) });
    const text = await response.text();
    const result = path === "REST" ? undefined : (JSON.parse(text) as { result?: { isError?: boolean } }).result;
    if (response.status !== 200 || (path !== "REST" && (result === undefined || result.isError === true))) {
      throw new Error(`${path} ${question.tool}: ${response.status} ${text.slice(0, 200)}`);
    }
  }
}

const rows = [...questions.map((question) => ({ name: question.tool, picked: [question] })), { name: "the three in turn", picked: questions }];
const files = new Map<string, string>();
for (const row of rows) for (const path of PATHS) files.set(`${row.name}|${path}`, requestsFile(`${row.name}-${path}`.replace(/[^a-z0-9-]+/gi, "_"), row.picked, path));
const results = new Map<string, WrkResult[]>();
const run = (file: string, runSeconds: number) => runWrk(pinned, { core: "1", connections, seconds: runSeconds, pathsFile: file, key: server.key, acceptEncoding, isRequestsFile: true });
for (const file of files.values()) await run(file, 2);
for (let round = 0; round < repeats; round++) {
  for (const [cell, file] of files) {
    const result = await run(file, seconds);
    if (result.statusErrors > 0 || result.readErrors > 0 || result.timeouts > 0) throw new Error(`${cell}: ${JSON.stringify(result)}`);
    results.set(cell, [...(results.get(cell) ?? []), result]);
  }
}
await server.stop();

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const runsOf = (row: string, path: Path) => results.get(`${row}|${path}`) ?? [];
const cpuOf = (row: string, path: Path) => median(runsOf(row, path).map((result) => result.cpuUsPerRequest));
const rateOf = (row: string, path: Path) => Math.round(median(runsOf(row, path).map((result) => (result.requests * 1e6) / result.durationUs))).toLocaleString("en-US");
/**
 * MCP / REST per round (a question's three paths run back to back, so each ratio is measured within
 * seconds: a shared machine's slow and fast spells fall on both), median and range over the rounds.
 */
const ratioOf = (row: string, path: Path) => {
  const rest = runsOf(row, "REST");
  const ratios = runsOf(row, path).map((result, round) => result.cpuUsPerRequest / (rest[round]?.cpuUsPerRequest ?? Number.NaN));
  return `**${median(ratios).toFixed(2)}×** (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
};
console.log(`wrk (one thread, ${connections} connections, Accept-Encoding: ${acceptEncoding}) on core 1, WORKERS=1 on core 0; ${repeats} rounds of ${seconds} s runs; server CPU µs per call, median over the rounds (calls/s); MCP / REST: the median of each round's ratio (range)`);
console.log("| question | REST | MCP 2025 | MCP 2025 / REST | MCP 2026-07-28 | MCP 2026-07-28 / REST | steal |\n|---|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const steal = Math.max(...PATHS.flatMap((path) => runsOf(row.name, path).map((result) => result.stealPct)));
  const shown = (path: Path) => `${cpuOf(row.name, path).toFixed(1)} (${rateOf(row.name, path)})`;
  console.log(`| ${row.name} | ${shown("REST")} | ${shown("MCP 2025")} | ${ratioOf(row.name, "MCP 2025")} | ${shown("MCP 2026-07-28")} | ${ratioOf(row.name, "MCP 2026-07-28")} | ${steal} % |`);
}
