// Start-up failures of the real process (dist/server/main.js): each is one line on stderr saying
// what and why, and exit code 1 — never a stack trace or a libuv assertion.
import t, { type Test } from "tap";
import { spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { fixtureEditions } from "../http/harness.js";
import { MAIN } from "../fixtures/server-process.js";
import { createKey } from "../../src/keys/key-operations.js";

// Longer than tap's 30 s per file: seven server processes start (and refuse) one after another, and the machine may be busy.
t.setTimeout(180_000);

/** Root reads any directory: the permission cases run the server as nobody when the tests run as root. */
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function setup(t: { teardown: (fn: () => void) => void }): { dir: string; dataDir: string; keysFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "courtside-startup-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o755);
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  for (const source of fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const keysFile = join(dir, "keys", "keys.json");
  mkdirSync(join(dir, "keys"));
  createKey(keysFile, { email: "ops@example.com", now: new Date() });
  if (isRoot) for (const path of [dir, dataDir, join(dir, "keys"), keysFile]) chownSync(path, NOBODY, NOBODY);
  return { dir, dataDir, keysFile };
}

async function hold(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function run(env: Record<string, string>, asNobody = false): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    // Through env -u: tap's process-info hook (NODE_OPTIONS) would write into .tap/ as nobody and fail.
    const child = spawn("env", ["-u", "NODE_OPTIONS", process.execPath, MAIN, "serve"], {
      env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      ...(asNobody && isRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => { stdout += chunk; });
    child.stderr.on("data", (chunk) => { stderr += chunk; });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

function oneLine(t: Test, result: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  t.equal(result.code, 1, "exit code 1");
  const lines = result.stderr.split("\n").filter((line) => line.length > 0);
  t.equal(lines.length, 1, `one line on stderr: ${result.stderr}`);
  t.match(lines[0], pattern);
  t.notMatch(result.stderr + result.stdout, /Assertion|    at |node::/, "no stack, no native assertion");
}

t.test("the API port taken by another process", async (t) => {
  const { dataDir, keysFile } = setup(t);
  const { server, port } = await hold();
  t.teardown(() => server.close());
  oneLine(t, await run({ PORT: String(port), METRICS_PORT: "0", DATA_DIR: dataDir, KEYS_FILE: keysFile }), new RegExp(`^courtside serve: PORT: port ${port} is already in use by another process; refusing to start$`));
});

t.test("METRICS_PORT taken (a second instance on one machine)", async (t) => {
  const { dataDir, keysFile } = setup(t);
  const { server, port } = await hold();
  t.teardown(() => server.close());
  oneLine(t, await run({ PORT: "0", METRICS_PORT: String(port), DATA_DIR: dataDir, KEYS_FILE: keysFile }), new RegExp(`^courtside serve: METRICS_PORT: port ${port} is already in use by another process; refusing to start$`));
});

t.test("METRICS_PORT unset and PORT + 6464 taken: the refusal says the port followed PORT", async (t) => {
  const { dataDir, keysFile } = setup(t);
  // A held port above 6464 whose PORT (held − 6464) is free.
  let held = await hold();
  while (held.port <= 6464) { held.server.close(); held = await hold(); }
  const { server, port } = held;
  t.teardown(() => server.close());
  oneLine(t, await run({ PORT: String(port - 6464), DATA_DIR: dataDir, KEYS_FILE: keysFile }), new RegExp(`^courtside serve: METRICS_PORT \\(unset: PORT \\+ 6464\\): port ${port} is already in use by another process; refusing to start$`));
});

t.test("an unreadable data directory", async (t) => {
  const { dataDir, keysFile } = setup(t);
  chmodSync(dataDir, 0o000);
  oneLine(t, await run({ PORT: "0", METRICS_PORT: "0", DATA_DIR: dataDir, KEYS_FILE: keysFile }, true), new RegExp(`^courtside serve: DATA_DIR ${dataDir}: permission denied \\(EACCES\\)$`));
});

t.test("a data directory that is a file", async (t) => {
  const { dir, keysFile } = setup(t);
  writeFileSync(join(dir, "not-a-dir"), "x");
  oneLine(t, await run({ PORT: "0", METRICS_PORT: "0", DATA_DIR: join(dir, "not-a-dir"), KEYS_FILE: keysFile }), /^courtside serve: DATA_DIR .*not-a-dir: not a directory \(ENOTDIR\)$/);
});

t.test("an unreadable keys directory", async (t) => {
  const { dir, dataDir, keysFile } = setup(t);
  chmodSync(join(dir, "keys"), 0o000);
  oneLine(t, await run({ PORT: "0", METRICS_PORT: "0", DATA_DIR: dataDir, KEYS_FILE: keysFile }, true), /^courtside serve: KEYS_FILE directory of .*keys\.json: permission denied \(EACCES\)$/);
});

t.test("a bad variable", async (t) => {
  const { dataDir, keysFile } = setup(t);
  oneLine(t, await run({ PORT: "eighty", DATA_DIR: dataDir, KEYS_FILE: keysFile }), /^courtside serve: PORT must be an integer from 0 to 65535, not eighty$/);
  oneLine(t, await run({ PORT: "0", METRICS_PORT: "0", TRUST_PROXY: "10.0.0.0/40", DATA_DIR: dataDir, KEYS_FILE: keysFile }), /^courtside serve: TRUST_PROXY entry "10\.0\.0\.0\/40" has a prefix length outside 0–32$/);
});

/** Starts the server until its listening line, then stops it; everything it printed. */
async function startAndStop(env: Record<string, string>): Promise<string> {
  const child = spawn("env", ["-u", "NODE_OPTIONS", process.execPath, MAIN, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await new Promise<void>((resolve) => {
    const take = (chunk: Buffer) => {
      output += chunk;
      if (/Courtside listening/.test(output)) resolve();
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    void exited.then(() => resolve());
  });
  // The lines logged right after the listening line come with it or just after.
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.kill("SIGTERM");
  await exited;
  return output;
}

t.test("a restart (keys exist) prints no key but where keys are and how to get one; the log says when data is demo", async (t) => {
  const { dataDir, keysFile } = setup(t);
  const real = await startAndStop({ DATA_DIR: dataDir, KEYS_FILE: keysFile });
  t.match(real, /Courtside listening/);
  t.notMatch(real, /Demo API key/, "no new key");
  t.match(real, new RegExp(`API keys: ${keysFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(only their SHA-256 digests`), "names the keys file");
  t.match(real, /A new key: npm run keys -- create --email you@example\.com \(courtside keys create from the single binary\), the dashboard at http:\/\/localhost:<port>\/dashboard, or POST \/api\/register/);
  t.notMatch(real, /DEMO data/, "data from elsewhere is not called demo");

  const closed = await startAndStop({ DATA_DIR: dataDir, KEYS_FILE: keysFile, REGISTRATION: "closed" });
  t.match(closed, /A new key: npm run keys -- create .*REGISTRATION=closed/, "closed registration: only the command");

  const demoDir = join(dirname(dataDir), "demo-data");
  mkdirSync(demoDir);
  const [current, archived] = fixtureEditions();
  writeEdition(demoDir, current!, "2026-11-20");
  writeEdition(demoDir, { ...archived!, source: "demo" }, "2026-11-20");
  const demo = await startAndStop({ DATA_DIR: demoDir, KEYS_FILE: keysFile });
  t.match(demo, /\n2K26: DEMO data, generated ratings under real players' names \(not the game's\)\. Load real ratings with npm run sync -- --from .*npm run build-index -- --edition .*docs\/data\.md/, "names the demo edition and how to load real ratings");
});
