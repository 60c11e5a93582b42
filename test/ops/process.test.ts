// The real binary (dist/server/main.js, built by `npm test`'s build step) with worker threads.
import t from "tap";
import { Agent, request } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { fixtureEditions } from "../http/harness.js";
import { freePort } from "../fixtures/free-port.js";
import { spawnServer, type ServerProcess } from "../fixtures/server-process.js";
import { Supervisor } from "../../src/app/supervisor.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/ops/log.js";
import { createKey } from "../../src/keys/key-operations.js";

function setup(t: { testdir: (fixture: Record<string, never>) => string }, rateLimit: number) {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  for (const source of fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const keysFile = join(dir, "keys.json");
  const { key } = createKey(keysFile, { email: "load@example.com", now: new Date(), rateLimit });
  return { dir, dataDir, keysFile, key };
}

function startMain(env: Record<string, string>): ServerProcess {
  return spawnServer({ LOG_LEVEL: "warn", ...env });
}

/** Waits for /ready; a server that exits first, or is not ready in time, fails naming what it printed. */
async function waitReady(server: ServerProcess, port: number, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  let exitCode: number | null | undefined;
  void server.exited.then((code) => { exitCode = code; });
  while (Date.now() - started < timeoutMs && exitCode === undefined) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ready`)).status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const state = exitCode === undefined ? `not ready after ${timeoutMs} ms` : `exited (${exitCode}) before it was ready`;
  throw new Error(`server on port ${port} ${state}; its output: ${server.output().slice(-1_500)}`);
}

function get(agent: Agent, port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; error?: string; started: boolean }> {
  return new Promise((resolve) => {
    let started = false;
    const req = request({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
      started = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => { body += chunk; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, started }));
      res.on("aborted", () => resolve({ status: -1, body, error: "aborted mid-response", started }));
      res.on("error", (error) => resolve({ status: -1, body, error: error.message, started }));
    });
    req.on("error", (error) => resolve({ status: 0, body: "", error: error.message, started }));
    req.end();
  });
}

t.test("a port already held by another process is refused", async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const { port } = holder.address() as AddressInfo;
  const { dataDir, keysFile } = setup(t, 500);
  const main = await startMain({ PORT: String(port), DATA_DIR: dataDir, KEYS_FILE: keysFile, METRICS_PORT: "0" });
  t.equal(await main.exited, 1);
  t.match(main.output(), /port \d+ is already in use/);
  holder.close();
});

t.test("two workers share one bucket: exactly 500 of 700 requests over 200 connections pass", async (t) => {
  const { dataDir, keysFile, key } = setup(t, 500);
  const port = await freePort();
  const metricsPort = await freePort();
  const main = await startMain({ PORT: String(port), DATA_DIR: dataDir, KEYS_FILE: keysFile, WORKERS: "2", METRICS_PORT: String(metricsPort) });
  t.teardown(() => { main.child.kill("SIGKILL"); });
  await waitReady(main, port);
  const agent = new Agent({ keepAlive: true, maxSockets: 200 });
  const results = await Promise.all(Array.from({ length: 700 }, () => get(agent, port, "/api/teams", { "x-api-key": key })));
  const counts = new Map<number, number>();
  for (const result of results) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  t.equal(counts.get(200), 500, `accepted (${JSON.stringify([...counts])})`);
  t.equal(counts.get(429), 200);
  // The metrics port opens once every worker is up, a moment after the first answers /ready.
  let metrics = "";
  for (let attempt = 0; attempt < 100 && metrics === ""; attempt++) {
    try { metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(); } catch { await new Promise((resolve) => setTimeout(resolve, 50)); }
  }
  t.match(metrics, /courtside_workers 2/);
  t.match(metrics, /courtside_http_requests_total\{route="\/api\/teams",status="200"\} 500/);
  t.match(metrics, /courtside_rate_limit_rejections_total\{bucket="key"\} 200/);
  agent.destroy();
  main.child.kill("SIGTERM");
  const code = await main.exited;
  t.equal(code, 0, `exit code (${main.output().slice(-600)})`);
});

t.test("SIGTERM under load: no response is cut off, the process exits 0 within 10 s", async (t) => {
  const { dataDir, keysFile, key } = setup(t, 1_000_000_000);
  const port = await freePort();
  const main = await startMain({ PORT: String(port), DATA_DIR: dataDir, KEYS_FILE: keysFile, WORKERS: "2", METRICS_PORT: "0" });
  await waitReady(main, port);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const results: Awaited<ReturnType<typeof get>>[] = [];
  let isRunning = true;
  const loops = Array.from({ length: 32 }, async (_, i) => {
    while (isRunning) {
      const result = await get(agent, port, i % 4 === 0 ? "/api/players/bulk" : "/api/players?limit=100", { "x-api-key": key, "accept-encoding": "identity" });
      results.push(result);
      if (result.status === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  // Under load means responses are flowing: wait for 60 (not a fixed time, which a busy machine may not fill).
  const loadDeadline = Date.now() + 20_000;
  while (results.filter((r) => r.status === 200).length < 60 && Date.now() < loadDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const signalled = Date.now();
  main.child.kill("SIGTERM");
  const code = await main.exited;
  const elapsed = Date.now() - signalled;
  isRunning = false;
  await Promise.all(loops);
  agent.destroy();
  t.equal(code, 0, `exit code (${main.output().slice(-600)})`);
  t.ok(elapsed < 10_000, `exited in ${elapsed} ms`);
  const completed = results.filter((r) => r.status === 200);
  t.ok(completed.length > 50, `${completed.length} responses completed under load`);
  const cut = results.filter((r) => r.started && r.status !== 200);
  t.same(cut.map((r) => r.error), [], "no response was cut off after it started");
  for (const r of completed) {
    try { JSON.parse(r.body); } catch { t.fail("a completed body is not whole JSON"); break; }
  }
  t.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 0), "the rest were refused before a response began");
});

t.test("SIGTERM while workers still boot: each drains once it runs, the process exits 0", async (t) => {
  // /ready answers as soon as one worker listens; the others are still booting when the signal
  // lands. A drain they ignored left them listening until the budget ran out, and terminate() on a
  // thread with uWS's socket open aborted the process (SIGABRT, libuv's open-handle check).
  const { dataDir, keysFile } = setup(t, 1000);
  for (let round = 0; round < 4; round++) {
    const port = await freePort();
    const main = startMain({ PORT: String(port), DATA_DIR: dataDir, KEYS_FILE: keysFile, WORKERS: "4", METRICS_PORT: "0" });
    t.teardown(() => { main.child.kill("SIGKILL"); });
    await waitReady(main, port);
    main.child.kill("SIGTERM");
    const code = await main.exited;
    t.equal(code, 0, `round ${round}: exit code (signal ${main.signal() ?? "none"}; ${main.output().slice(-800)})`);
    t.notMatch(main.output(), /Assertion failed|open handles/, `round ${round}: no thread ended with a socket open`);
  }
});

t.test("the supervisor restarts a worker that dies", async (t) => {
  const dir = t.testdir({});
  const config = loadConfig([], { DATA_DIR: dir, WORKERS: "2", LOG_LEVEL: "silent" });
  const supervisor = new Supervisor(config, createLogger("silent"), new URL("../fixtures/dying-worker.mjs", import.meta.url));
  await supervisor.start();
  // Stopped even when an assertion fails, so live worker threads never hold the file open until its timeout.
  t.teardown(() => supervisor.stop());
  const started = Date.now();
  while (supervisor.restarts() === 0 && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(supervisor.restarts(), 1, "the dead worker was replaced");
  // The replacement may take seconds to start on a busy machine: each scrape waits 2 s, so try a few.
  let answered = 0;
  for (let attempt = 0; attempt < 10 && answered !== 2; attempt++) answered = await supervisor.collect().then((stats) => stats.length, () => 0);
  t.equal(answered, 2, "both workers answer again");
});
