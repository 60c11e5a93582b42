// Hot reload under load (issue 6): 30 s of requests from 64 keep-alive connections against the
// real server (2 workers) while the current edition is replaced every 2 s, alternating between
// two snapshots A and B, with one corrupt file among the swaps. Every answer must be a 200 whose
// body equals that URL's body under A or under B. Usage: npm run bench:reload [-- seconds]

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../src/pipeline/build-edition.js";
import { generateDemoEditions } from "../src/pipeline/demo.js";
import { startServerProcess } from "./server-process.js";
import { ensureDemoData } from "./demo-data.js";

const URLS = [
  "/api/players", "/api/players?limit=100&sort=name:asc", "/api/players?position=guard&three_ball_gte=80&sort=speed:desc",
  "/api/players?era=all&minRating=85&fields=name,overall", "/api/teams", "/api/teams?era=class", "/api/teams/boston-celtics/roster",
  "/api/versions/2K27/players?offset=50&limit=25", "/api/players/bulk?era=curr&position=big",
];

function get(agent: Agent, port: number, path: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent, headers: { "x-api-key": key } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => { body += chunk; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", () => resolve({ status: -1, body }));
    });
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end();
  });
}

/** Atomic replacement, as build-index does it. */
function install(source: string, dataDir: string): void {
  const temp = join(dataDir, "2K27.msgpack.swap.tmp");
  copyFileSync(source, temp);
  renameSync(temp, join(dataDir, "2K27.msgpack"));
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 30);
  const work = mkdtempSync(join(tmpdir(), "courtside-reload-"));
  const dataDir = join(work, "data");
  const variants = join(work, "variants");
  mkdirSync(dataDir);
  mkdirSync(variants);
  ensureDemoData("data");
  for (const name of readdirSync("data").filter((file) => file.endsWith(".msgpack"))) copyFileSync(join("data", name), join(dataDir, name));
  const fileA = join(variants, "A.msgpack");
  copyFileSync(join(dataDir, "2K27.msgpack"), fileA);
  const current = generateDemoEditions({ seed: 99, asOf: new Date().toISOString().slice(0, 10) }).find((source) => source.status === "current");
  if (!current) throw new Error("the demo has no current edition");
  mkdirSync(join(variants, "b"));
  writeEdition(join(variants, "b"), current, new Date().toISOString().slice(0, 10));
  const fileB = join(variants, "B.msgpack");
  copyFileSync(join(variants, "b", "2K27.msgpack"), fileB);
  const fileCorrupt = join(variants, "corrupt.msgpack");
  const bytes = readFileSync(fileA);
  writeFileSync(fileCorrupt, bytes.subarray(0, Math.floor(bytes.length / 2)));

  const server = await startServerProcess({ dataDir, workers: 2, env: { LOG_LEVEL: "info" } });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const record = async () => Promise.all(URLS.map(async (url) => (await get(agent, server.port, url, server.key)).body));
  const waitFor = async (expected: string) => {
    for (let i = 0; i < 100; i++) {
      if ((await get(agent, server.port, URLS[0] as string, server.key)).body === expected) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the swap was not picked up");
  };
  const bodiesA = await record();
  install(fileB, dataDir);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const bodiesB = await record();
  if (bodiesA[0] === bodiesB[0]) throw new Error("A and B answer alike; the check would prove nothing");
  install(fileA, dataDir);
  await waitFor(bodiesA[0] as string);

  let responses = 0;
  let failed = 0;
  let inconsistent = 0;
  const examples: string[] = [];
  let isRunning = true;
  const started = performance.now();
  const loops = Array.from({ length: 64 }, async (_, worker) => {
    let i = worker;
    while (isRunning) {
      const index = i++ % URLS.length;
      const { status, body } = await get(agent, server.port, URLS[index] as string, server.key);
      responses++;
      if (status !== 200) {
        failed++;
        if (examples.length < 5) examples.push(`${URLS[index]} → ${status}`);
      } else if (body !== bodiesA[index] && body !== bodiesB[index]) {
        inconsistent++;
        if (examples.length < 5) examples.push(`${URLS[index]} → a body matching neither snapshot`);
      }
    }
  });
  const swaps: string[] = [];
  const swapper = (async () => {
    for (let n = 1; performance.now() - started < seconds * 1000 - 2000; n++) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (n === 3) {
        writeFileSync(join(dataDir, "2K27.msgpack.swap.tmp"), readFileSync(fileCorrupt));
        renameSync(join(dataDir, "2K27.msgpack.swap.tmp"), join(dataDir, "2K27.msgpack"));
        swaps.push("corrupt");
      } else {
        const next = n % 2 === 1 ? fileB : fileA;
        install(next, dataDir);
        swaps.push(next === fileB ? "B" : "A");
      }
    }
  })();
  await swapper;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, seconds * 1000 - (performance.now() - started))));
  isRunning = false;
  await Promise.all(loops);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const code = await server.stop();
  const log = server.output();
  const summary = {
    seconds: Math.round(elapsed), responses, requestsPerSecond: Math.round(responses / elapsed), failed, inconsistent,
    swaps: swaps.join(","), reloadsLogged: (log.match(/"msg":"loaded 2K27/g) ?? []).length, refusalsLogged: (log.match(/"msg":"refused 2K27/g) ?? []).length,
    exitCode: code,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  for (const example of examples) process.stdout.write(`bad: ${example}\n`);
  if (failed > 0 || inconsistent > 0 || summary.refusalsLogged === 0 || code !== 0) process.exitCode = 1;
}

await main();
