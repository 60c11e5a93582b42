// The load benchmark: Courtside vs. the bare-uWS ceiling vs. the conventional Fastify peer, on the
// same URL mixes and the same demo data, in one run; with --node-adapter, Courtside on its node:http
// adapter (HTTP_ADAPTER=node, issue 41) beside it on uWS. Every server runs as its own process pinned
// to core 0; wrk runs pinned to core 1. Courtside's bytes for every URL are recorded first (and
// replayed by the ceiling); every URL is checked to answer 200 on every server, and the peer's
// data is compared with Courtside's before any load is applied.
//
// Usage: npm run bench:load [-- --duration 3 --repeats 5 --connections 64 --mixes a,b,c,d,e --port-base 3110 --no-readme --node-adapter]

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { loadEditionSet } from "../src/store/editions.js";
import { buildMixes, MIX_NAMES, type Mix, type MixName } from "./mixes.js";
import { machine, median, table, today, writeResults, writeSection } from "./report.js";
import { refreshTargets, type LoadSummary } from "./targets.js";
import type { Recording } from "./ceiling.js";
import { ensureDemoData } from "./demo-data.js";
import { cpuTicks, runWrk, startPinned, stopPinned, waitForHttp, type PinnedProcess, type WrkResult } from "./pinned.js";
import { createKey } from "../src/keys/key-operations.js";

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "3" },
    warmup: { type: "string", default: "2" },
    repeats: { type: "string", default: "5" },
    connections: { type: "string", default: "64" },
    mixes: { type: "string", default: MIX_NAMES.join(",") },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" },
    "no-readme": { type: "boolean", default: false },
    "server-core": { type: "string", default: "0" },
    "load-core": { type: "string", default: "1" },
    "port-base": { type: "string", default: "3110" },
    "node-adapter": { type: "boolean", default: false },
  },
});
const durationS = Number(flags.duration);
const warmupS = Number(flags.warmup);
const repeats = Number(flags.repeats);
const connections = Number(flags.connections);
const dataDir = ensureDemoData(flags["data-dir"]);
const wanted = new Set(flags.mixes.split(","));
const portBase = Number(flags["port-base"]);

type ServerName = "ceiling" | "courtside" | "courtside-nocache" | "node" | "node-nocache" | "peer";
/** The name results are kept under: the cache-off process counts as its cache-on twin. */
const resultName = (name: ServerName): string => name.replace(/-nocache$/, "");
type Server = PinnedProcess<ServerName>;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(port: number, path: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function decoded(response: RawResponse): unknown {
  const encoding = response.headers["content-encoding"];
  const bytes = encoding === "br" ? brotliDecompressSync(response.body) : encoding === "gzip" ? gunzipSync(response.body) : response.body;
  return JSON.parse(bytes.toString("utf8"));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

async function startServer(name: ServerName, port: number, args: string[], env: Record<string, string>): Promise<Server> {
  const server = startPinned(name, flags["server-core"], process.execPath, args, { ...env, PORT: String(port), HOST: "127.0.0.1" }, port);
  // Up once it answers at all (the ceiling answers only the recorded URLs with 200).
  await waitForHttp(server, "/health", () => true);
  return server;
}

/** Waits until the server has stopped burning CPU (the peer's queued brotli jobs outlive wrk's connections). */
async function settle(server: Server): Promise<void> {
  const deadline = Date.now() + 120_000;
  let last = cpuTicks(server.child.pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = cpuTicks(server.child.pid);
    if (now - last <= 1) return;
    last = now;
  }
}

const errorsOf = (result: WrkResult) => result.connectErrors + result.readErrors + result.writeErrors + result.statusErrors + result.timeouts;
const rpsOf = (result: WrkResult) => result.requests / (result.durationUs / 1e6);

/** Records Courtside's answer to every URL, checks every server answers 200, compares the peer's data. */
async function recordAndVerify(mixes: readonly Mix[], servers: Record<ServerName, Server | undefined>, key: string): Promise<{ recordings: Recording[]; notes: string[] }> {
  const recordings: Recording[] = [];
  const notes: string[] = [];
  for (const mix of mixes) {
    const courtside = (mix.isCacheOn ? servers.courtside : servers["courtside-nocache"]) as Server;
    const headers: Record<string, string> = { "X-API-Key": key, ...(mix.acceptEncoding ? { "Accept-Encoding": mix.acceptEncoding } : {}) };
    let peerSame = 0;
    let bodyBytes = 0;
    for (const path of mix.paths) {
      const ours = await get(courtside.port, path, headers);
      if (ours.status !== 200) throw new Error(`courtside answered ${ours.status} to ${path}: ${ours.body.toString().slice(0, 300)}`);
      bodyBytes += ours.body.length;
      recordings.push({
        path, acceptEncoding: mix.acceptEncoding, status: ours.status, contentType: String(ours.headers["content-type"] ?? ""),
        contentEncoding: String(ours.headers["content-encoding"] ?? ""), bodyBase64: ours.body.toString("base64"),
      });
      if (!mix.hasPeer) continue;
      const peer = await get((servers.peer as Server).port, path, headers);
      if (peer.status !== 200) throw new Error(`peer answered ${peer.status} to ${path}: ${peer.body.toString().slice(0, 300)}`);
      const a = decoded(ours) as { data: unknown; meta: { pagination?: { total: number } } };
      const b = decoded(peer) as { data: unknown; meta: { pagination?: { total: number } } };
      if (JSON.stringify(sortedKeys(a.data)) === JSON.stringify(sortedKeys(b.data)) && a.meta.pagination?.total === b.meta.pagination?.total) peerSame++;
    }
    const note = mix.name === "c" || mix.name === "f"
      ? `(${mix.name}) search: the peer answers substring matches by overall; Courtside ranks prefix and typo matches, so ${peerSame}/${mix.paths.length} result lists are identical (by design, not an error).`
      : !mix.hasPeer
        ? `(${mix.name}) the peer has none of these routes; every URL answered 200 from Courtside.`
        : `(${mix.name}) the peer's data equals Courtside's for ${peerSame}/${mix.paths.length} URLs.`;
    notes.push(`${note} Mean Courtside body: ${(bodyBytes / mix.paths.length / 1024).toFixed(1)} KiB${mix.acceptEncoding ? ` (${mix.acceptEncoding})` : ""}.`);
    process.stderr.write(`${note}\n`);
  }
  return { recordings, notes };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "courtside-bench-"));
  const keysFile = join(work, "keys.json");
  const { key } = createKey(keysFile, { email: "load-test@courtside.local", name: "load test", now: new Date(), rateLimit: 1_000_000_000 });
  const current = loadEditionSet(dataDir).current;
  const mixes = buildMixes(current).filter((mix) => wanted.has(mix.name));
  const env = { DATA_DIR: dataDir, KEYS_FILE: keysFile, LOG_LEVEL: "silent", WORKERS: "1", METRICS_PORT: "0" };
  const servers: Record<ServerName, Server | undefined> = { ceiling: undefined, courtside: undefined, "courtside-nocache": undefined, node: undefined, "node-nocache": undefined, peer: undefined };
  const wrkRun = { core: flags["load-core"], connections, seconds: durationS, key };
  try {
    servers.courtside = await startServer("courtside", portBase + 1, ["dist/server/main.js", "serve"], env);
    servers["courtside-nocache"] = await startServer("courtside-nocache", portBase + 2, ["dist/server/main.js", "serve"], { ...env, RESPONSE_CACHE_MB: "0" });
    servers.peer = await startServer("peer", portBase + 3, ["dist/bench/peer/server.js"], env);
    if (flags["node-adapter"]) {
      servers.node = await startServer("node", portBase + 4, ["dist/server/main.js", "serve"], { ...env, HTTP_ADAPTER: "node" });
      servers["node-nocache"] = await startServer("node-nocache", portBase + 5, ["dist/server/main.js", "serve"], { ...env, HTTP_ADAPTER: "node", RESPONSE_CACHE_MB: "0" });
    }
    const nodeOf = (mix: Mix): Server[] => (!flags["node-adapter"] ? [] : [mix.isCacheOn ? servers.node : servers["node-nocache"]] as Server[]);
    const { recordings, notes } = await recordAndVerify(mixes, servers, key);
    agent.destroy();
    const recordingsFile = join(work, "recordings.json");
    writeFileSync(recordingsFile, JSON.stringify(recordings));
    servers.ceiling = await startServer("ceiling", portBase, ["dist/bench/ceiling.js", recordingsFile], env);

    const results = new Map<string, WrkResult[]>();
    const started = Date.now();
    for (const mix of mixes) {
      const pathsFile = join(work, `mix-${mix.name}.txt`);
      writeFileSync(pathsFile, `${mix.paths.join("\n")}\n`);
      const order: Server[] = [servers.ceiling, mix.isCacheOn ? servers.courtside : servers["courtside-nocache"], ...nodeOf(mix), ...(mix.hasPeer ? [servers.peer] : [])] as Server[];
      for (const server of order) {
        await runWrk(server, { ...wrkRun, pathsFile, acceptEncoding: mix.acceptEncoding, seconds: warmupS });
        await settle(server);
      }
      // Servers interleaved within each repeat, so drift on the machine hits all three alike.
      for (let r = 0; r < repeats; r++) {
        for (const server of order) {
          const result = await runWrk(server, { ...wrkRun, pathsFile, acceptEncoding: mix.acceptEncoding });
          await settle(server);
          const id = `${mix.name}|${resultName(server.name)}`;
          results.set(id, [...(results.get(id) ?? []), result]);
          process.stderr.write(`(${mix.name}) ${server.name.padEnd(17)} ${rpsOf(result).toFixed(0).padStart(7)} req/s  p50 ${(result.p50Us / 1000).toFixed(2)} ms  p99 ${(result.p99Us / 1000).toFixed(2)} ms  cpu ${result.cpuUsPerRequest.toFixed(0)} µs/req  cores ${result.coreBusy.join("/")} % busy  steal ${result.stealPct} %  errors ${errorsOf(result)}\n`);
        }
      }
    }
    // Latency at half of Courtside's throughput: each connection pauses so that 64 of them offer
    // about half of what Courtside served flat out (closed-loop latency is connections / throughput).
    const paced: PacedRun[] = [];
    for (const mix of mixes.filter((candidate) => candidate.name === "b" || candidate.name === "c")) {
      const courtsideRps = median((results.get(`${mix.name}|courtside`) ?? []).map(rpsOf));
      const pauseMs = Math.max(1, Math.round((connections * 1000) / (0.5 * courtsideRps)));
      const pathsFile = join(work, `mix-${mix.name}.txt`);
      const order: Server[] = [servers.ceiling, mix.isCacheOn ? servers.courtside : servers["courtside-nocache"], ...nodeOf(mix), servers.peer] as Server[];
      for (let r = 0; r < Math.min(3, repeats); r++) {
        for (const server of order) {
          const result = await runWrk(server, { ...wrkRun, pathsFile, acceptEncoding: mix.acceptEncoding, pauseMs });
          await settle(server);
          paced.push({ mix: mix.name, server: resultName(server.name), pauseMs, result });
          process.stderr.write(`(${mix.name} paced ${pauseMs} ms) ${server.name.padEnd(17)} ${rpsOf(result).toFixed(0).padStart(7)} req/s  p50 ${(result.p50Us / 1000).toFixed(2)} ms  p99 ${(result.p99Us / 1000).toFixed(2)} ms  errors ${errorsOf(result)}\n`);
        }
      }
    }
    const elapsedS = (Date.now() - started) / 1000;
    const section = render(mixes, results, notes, elapsedS, paced);
    process.stdout.write(`${section}\n`);
    const summary: LoadSummary = Object.fromEntries(mixes.map((mix) => [mix.name, Object.fromEntries((["ceiling", "courtside", "peer"] as const).map((server) => {
      const runs = results.get(`${mix.name}|${server}`) ?? [];
      return [server, { rps: median(runs.map(rpsOf)), p50: median(runs.map((run) => run.p50Us)) / 1000, p99: median(runs.map((run) => run.p99Us)) / 1000 }];
    }))])) as LoadSummary;
    const pacedSummary = Object.fromEntries(["b", "c"].map((mix) => [mix, Object.fromEntries(["ceiling", "courtside", "peer"].map((server) => {
      const runs = paced.filter((run) => run.mix === mix && run.server === server);
      return [server, { pauseMs: runs[0]?.pauseMs ?? 0, rps: median(runs.map((run) => rpsOf(run.result))), p50: median(runs.map((run) => run.result.p50Us)) / 1000, p99: median(runs.map((run) => run.result.p99Us)) / 1000 }];
    }))]));
    if (!flags["no-readme"]) {
      writeResults("load", { flags, mixes: summary, paced: pacedSummary, runs: Object.fromEntries(results), pacedRuns: paced });
      writeSection("load", section);
      refreshTargets();
    }
  } finally {
    for (const server of Object.values(servers)) if (server) await stopPinned(server);
    rmSync(work, { recursive: true, force: true });
  }
}

interface PacedRun { mix: MixName; server: string; pauseMs: number; result: WrkResult }

function render(mixes: readonly Mix[], results: Map<string, WrkResult[]>, notes: readonly string[], elapsedS: number, paced: readonly PacedRun[]): string {
  const cell = (mix: Mix, server: string) => {
    const runs = results.get(`${mix.name}|${server}`) ?? [];
    return {
      rps: median(runs.map(rpsOf)),
      p50: median(runs.map((run) => run.p50Us)) / 1000,
      p99: median(runs.map((run) => run.p99Us)) / 1000,
      cpu: median(runs.map((run) => run.cpuUsPerRequest)),
      busy: [0, 1].map((core) => median(runs.map((run) => run.coreBusy[core] ?? 0)).toFixed(0)).join(" / "),
      errors: runs.reduce((sum, run) => sum + errorsOf(run), 0),
      runs,
    };
  };
  const rows: string[][] = [];
  for (const mix of mixes) {
    const ceiling = cell(mix, "ceiling");
    const ours = cell(mix, "courtside");
    const peer = cell(mix, "peer");
    const node = cell(mix, "node");
    const named = [["ceiling", ceiling], ["**Courtside**", ours], ...(flags["node-adapter"] ? [["Courtside, node:http", node] as const] : []), ["peer (Fastify)", peer]] as const;
    for (const [name, c] of named.filter(([name]) => mix.hasPeer || name !== "peer (Fastify)")) {
      rows.push([
        name === "ceiling" ? `(${mix.name}) ${mix.title}` : "",
        name,
        c.rps.toFixed(0),
        c.p50.toFixed(2),
        c.p99.toFixed(2),
        Number.isFinite(c.cpu) ? c.cpu.toFixed(0) : "–",
        c.busy,
        String(c.errors),
        name === "**Courtside**" || name === "Courtside, node:http" ? `${((100 * c.rps) / ceiling.rps).toFixed(0)} %` : "",
        (name === "**Courtside**" || name === "Courtside, node:http") && mix.hasPeer ? `${(c.rps / peer.rps).toFixed(1)}×` : "",
      ]);
    }
  }
  return [
    `Last run: ${today()} on ${machine()}.`,
    `Servers on core ${flags["server-core"]}, wrk 4.1 (one thread, ${connections} connections) on core ${flags["load-core"]}; each cell is the median of ${repeats} runs of ${durationS} s`,
    `(after a ${warmupS} s warm-up per server and mix), servers interleaved within each repeat; ${elapsedS.toFixed(0)} s of load in all.`,
    "",
    table(["mix", "server", "req/s", "p50 ms", "p99 ms", "server CPU µs/req", "busy % core 0 / 1", "errors", "Courtside / ceiling", "Courtside / peer"], rows),
    "",
    `Latency at about half of Courtside's throughput (${connections} connections, each pausing a fixed time before each request; median of ${Math.min(3, repeats)} runs of ${durationS} s):`,
    "",
    table(["mix", "pause per request", "server", "req/s", "p50 ms", "p99 ms", "errors"], paced.filter((run, i, all) => all.findIndex((other) => other.mix === run.mix && other.server === run.server) === i).map((first) => {
      const runs = paced.filter((run) => run.mix === first.mix && run.server === first.server);
      return [
        `(${first.mix})`, `${first.pauseMs} ms`, first.server === "courtside" ? "**Courtside**" : first.server === "peer" ? "peer (Fastify)" : first.server === "node" ? "Courtside, node:http" : first.server,
        median(runs.map((run) => rpsOf(run.result))).toFixed(0), (median(runs.map((run) => run.result.p50Us)) / 1000).toFixed(2),
        (median(runs.map((run) => run.result.p99Us)) / 1000).toFixed(2), String(runs.reduce((sum, run) => sum + errorsOf(run.result), 0)),
      ];
    })),
    "",
    `Hypervisor steal during the runs: median ${median([...results.values()].flat().map((run) => run.stealPct)).toFixed(0)} %, worst ${Math.max(...[...results.values()].flat().map((run) => run.stealPct))} %.`,
    "`server CPU µs/req` is the server process's user + system time over the run divided by the requests wrk completed (kernel work done in softirq context is not charged to it); `busy %` is each core's non-idle share during the run.",
    "`errors` sums, over all runs, wrk's socket errors, timeouts and responses with status ≥ 400 (no conditional headers are sent, so no 3xx can occur); every URL was also fetched once from every server beforehand and had to answer 200.",
    "",
    ...notes.map((note) => `- ${note}`),
  ].join("\n");
}

await main();
