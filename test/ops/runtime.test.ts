// Issue 30: the server says which Node and which uWebSockets.js build it runs on: in the start log
// line, in /api/health (an additive `runtime` object) from every worker thread, and it uses one
// build in every thread (the first thread's choice). The build is the one this machine should
// load: 20.57 where glibc is 2.38 or later, else 20.30 (fixtures/uws-version.ts works it out).

import t from "tap";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { createKey } from "../../src/keys/key-operations.js";
import { fixtureEditions } from "../http/harness.js";
import { freePort } from "../fixtures/free-port.js";
import { spawnSync } from "node:child_process";
import { MAIN, spawnServer } from "../fixtures/server-process.js";
import { ADAPTER, EXPECTED_UWS } from "../fixtures/uws-version.js";

t.setTimeout(180_000);

// Issue 41: where no uWS addon loads (Node 26 here) or HTTP_ADAPTER=node, node:http serves instead, and says so alike.
const label = ADAPTER === "uws" ? `uWebSockets.js ${EXPECTED_UWS}` : "node:http (Node's own HTTP server)";
const runtime = { node: process.versions.node, adapter: ADAPTER, uws: ADAPTER === "uws" ? EXPECTED_UWS : null };

t.test(`npm start on Node ${process.versions.node} runs ${label} in every worker and says so`, async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  for (const source of fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const keysFile = join(dir, "keys.json");
  createKey(keysFile, { email: "runtime@example.com", now: new Date() });
  const port = await freePort();
  const server = spawnServer({ PORT: String(port), METRICS_PORT: "0", DATA_DIR: dataDir, KEYS_FILE: keysFile, WORKERS: "2", LOG_LEVEL: "info" });
  t.teardown(() => { if (server.child.exitCode === null) server.child.kill("SIGKILL"); });
  const started = Date.now();
  while (!/Courtside listening/.test(server.output())) {
    if (server.child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the server did not start: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const line = server.output().split("\n").find((text) => text.includes("Courtside listening")) ?? "";
  t.match(line, `Node ${process.version}, ${label})`, "the start line names both");
  t.match(JSON.parse(line), { node: process.versions.node, adapter: ADAPTER, ...(ADAPTER === "uws" ? { uws: EXPECTED_UWS } : {}) }, "and carries them as fields");
  // Chosen because uWS cannot load (not asked for): one warning naming why and what it costs.
  if (ADAPTER === "node" && process.env["HTTP_ADAPTER"] === undefined) t.match(server.output(), /serving through Node's own HTTP server \(node:http\), not uWebSockets\.js: no uWebSockets\.js addon loads on Node .*ABI \d+.*throughput/);
  else t.notMatch(server.output(), /serving through Node's own HTTP server/);
  if (process.versions.node.startsWith("20.")) t.match(server.output(), /Node v20\.\d+\.\d+ is past end of life/, "Node 20: a warning");
  else t.notMatch(server.output(), /past end of life/);
  // New connections are spread over the two workers (SO_REUSEPORT): ask until both have answered.
  const seen = new Set<string>();
  for (let i = 0; i < 200 && seen.size < 2; i++) {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { connection: "close" } });
    t.equal(response.status, 200);
    const body = await response.json() as { runtime: unknown };
    t.same(body.runtime, runtime);
    seen.add(response.headers.get("x-request-id")?.split("-")[0] ?? "");
  }
  t.equal(seen.size, 2, "both workers answered, each with the same build");
  const metrics = server.output().match(/"metricsPort":(\d+)/)?.[1];
  const text = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
  t.match(text, `courtside_runtime_info{adapter="${ADAPTER}",node="${process.versions.node}",uws="${runtime.uws ?? ""}"} 1`, "/metrics names the adapter");
  server.child.kill("SIGTERM");
  t.equal(await server.exited, 0);
});

// The other build, where it cannot load: HTTP_ADAPTER=uws stops the start in one line saying why,
// before any port is touched (never uWS's JavaScript fallback); unforced, node:http serves instead.
const unloadable = EXPECTED_UWS === "20.30.0" ? "20.57" : process.versions.node.startsWith("20.") ? undefined : "20.30";
t.test("a uWS build that does not load: HTTP_ADAPTER=uws stops the start in one line; unforced, node:http serves", { skip: unloadable === undefined ? "both builds load on Node 20 with glibc 2.38 or later" : ADAPTER === "node" ? "uWS does not load here at all" : false }, async (t) => {
  const dir = t.testdir({});
  const result = spawnSync(process.execPath, [MAIN, "serve"], {
    env: { ...process.env, HTTP_ADAPTER: "uws", COURTSIDE_UWS: unloadable, PORT: "0", METRICS_PORT: "0", HOST: "127.0.0.1", DATA_DIR: join(dir, "data"), KEYS_FILE: join(dir, "keys.json") },
    encoding: "utf8",
  });
  t.equal(result.status, 1);
  const refusal = result.stderr.trim().split("\n").at(-1) ?? "";
  t.match(refusal, new RegExp(`^courtside serve: no uWebSockets\\.js addon loads on Node ${process.version.replaceAll(".", "\\.")} \\(linux-x64, ABI ${process.versions.modules}, glibc [\\d.]+\\): ${unloadable}\\.0: .*COURTSIDE_UWS=${unloadable} allows only that build: unset it to let the server choose$`));
  t.notMatch(result.stdout + result.stderr, /listening/);

  const dataDir = join(dir, "fixture-data");
  mkdirSync(dataDir);
  for (const source of fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const port = await freePort();
  const env: Record<string, string> = { HTTP_ADAPTER: "", COURTSIDE_UWS: unloadable as string, PORT: String(port), METRICS_PORT: "0", DATA_DIR: dataDir, KEYS_FILE: join(dir, "keys.json"), LOG_LEVEL: "info" };
  const server = spawnServer(env);
  t.teardown(() => { if (server.child.exitCode === null) server.child.kill("SIGKILL"); });
  const started = Date.now();
  while (!/Courtside listening/.test(server.output())) {
    if (server.child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the server did not start: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.match(server.output(), /node:http \(Node's own HTTP server\)\)/, "node:http serves");
  t.match(server.output(), new RegExp(`serving through Node's own HTTP server \\(node:http\\), not uWebSockets\\.js: no uWebSockets\\.js addon loads on Node .*${unloadable}\\.0`), "one warning names why");
  const body = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json() as { runtime: unknown };
  t.same(body.runtime, { node: process.versions.node, adapter: "node", uws: null });
  server.child.kill("SIGTERM");
  t.equal(await server.exited, 0);
});
