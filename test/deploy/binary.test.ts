// The single binary (npm run build:binary, built here from the compiled build script so what runs
// is current) from an empty directory with no node on PATH and no node_modules in reach; and the
// systemd units that run it (systemd cannot run in a test: they are verified and their command
// lines checked against the binary's own usage).
//
// The binary embeds Node 24 and uWS 20.57's addon, which needs glibc 2.38 or later: it is built in
// the Node 24 pass of .ci/run (a Node 24 that runs here, and BINARY_NODE, the unpatched one to
// embed, where that Node was patched for a newer glibc), and run on this system when its glibc is
// new enough, else inside the Debian 13 root .ci/node24 makes (.ci-cache/trixie-root, through
// chroot, which needs root). Without those those tests skip, saying which is missing. On a system
// whose glibc is older than 2.38 it also runs here, where the addon cannot load: through node:http (issue 41).

import t, { type Test } from "tap";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import { DEFAULT_SYNC_DEADLINE_SECONDS } from "../../src/usage.js";
import { freePort, send } from "./proxy-harness.js";

// Longer than tap's 30 s per file: it builds the binary and then the demo editions from scratch, and the machine may be busy.
t.setTimeout(300_000);

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUILT = join(ROOT, "dist", "bin", "courtside");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const TRIXIE_ROOT = join(ROOT, ".ci-cache", "trixie-root");
/** The system's glibc (not this Node's, which .ci/node24 may have given a newer one). */
const [glibcMajor = 0, glibcMinor = 0] = (/(\d+)\.(\d+)/.exec(spawnSync("getconf", ["GNU_LIBC_VERSION"], { encoding: "utf8" }).stdout ?? "")?.slice(1) ?? []).map(Number);
/** "" when this system runs the binary itself (glibc ≥ 2.38, as the addon needs), else the root it runs in. */
const jail = glibcMajor > 2 || (glibcMajor === 2 && glibcMinor >= 38) ? "" : TRIXIE_ROOT;

const skip = !process.versions.node.startsWith("24.") ? `the binary embeds Node 24: this test runs on Node 24 (this is ${process.version}; .ci/run's Node 24 pass runs it)` : false;
if (skip !== false) {
  t.plan(0, skip);
  process.exit(0);
}
/** Why the binary cannot run where its addon loads (then only the tests on this system's glibc run). */
const jailSkip = jail !== "" && !existsSync(join(TRIXIE_ROOT, ".done")) ? `this system's glibc is older than 2.38 and there is no Debian 13 root to run the binary in (bash .ci/node24 makes ${TRIXIE_ROOT} with debootstrap)`
  : jail !== "" && process.getuid?.() !== 0 ? "this system's glibc is older than 2.38 and running the binary in the Debian 13 root needs chroot, which needs root"
  : false;

execFileSync(process.execPath, [join(ROOT, "dist", "deploy", "build-binary.js")], { stdio: ["ignore", "ignore", "pipe"] });

const home = jail === "" || jailSkip !== false ? mkdtempSync(join(tmpdir(), "courtside-binary-")) : mkdtempSync(join(jail, "tmp", "courtside-binary-"));
t.teardown(() => rmSync(home, { recursive: true, force: true }));
/** A path as the binary sees it (inside the root it runs in). */
const inside = (path: string): string => jail === "" ? path : path.slice(jail.length);
const binary = join(home, "bin", "courtside");
mkdirSync(join(home, "bin"));
copyFileSync(BUILT, binary);
execFileSync("chmod", ["755", binary]);
const emptyPath = join(home, "empty-path");
mkdirSync(emptyPath);
const privateTmp = join(home, "tmp");
mkdirSync(privateTmp);
/** No node, no npm, no node_modules: an empty PATH directory, a working directory outside the repository. */
const bareEnv = { PATH: inside(emptyPath), HOME: inside(home), TMPDIR: inside(privateTmp), LOG_LEVEL: "info" };

/** The binary's command line: itself, or chroot into the root, cd to cwd there, and exec it. */
function binaryCommand(args: string[], cwd: string): [string, string[]] {
  if (jail === "") return [binary, args];
  return ["/usr/sbin/chroot", [jail, "/bin/sh", "-c", 'cd "$0" && exec "$@"', inside(cwd), inside(binary), ...args]];
}

function runBinary(args: string[], cwd: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const [command, commandArgs] = binaryCommand(args, cwd);
  const result = spawnSync(command, commandArgs, { cwd, env: { ...bareEnv, ...env }, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

t.test("the environment has no node to fall back on", { skip: jailSkip }, async (t) => {
  t.notOk(existsSync(join(emptyPath, "node")));
  t.equal(spawnSync("/bin/sh", ["-c", "command -v node"], { env: bareEnv }).status, 127, "node is not on PATH");
  const top = jail === "" ? "/" : jail;
  for (let dir = home; dir !== top; dir = join(dir, "..")) t.notOk(existsSync(join(dir, "node_modules")), `no ${dir}/node_modules`);
  t.notOk(existsSync(join(top, "node_modules")));
  if (jail !== "") t.equal(runBinary(["--version"], home).status, 0, "the binary runs in the Debian 13 root, where nothing of this checkout is in reach");
});

t.test("--version, --help, and --help on each command", { skip: jailSkip }, async (t) => {
  const cwd = mkdtempSync(join(home, "help-"));
  const [version, runtime] = runBinary(["--version"], cwd).stdout.trim().split("\n");
  t.equal(version, VERSION);
  t.match(runtime, /^Node v24\.\d+\.\d+, uWebSockets\.js 20\.57\.0$/, "it embeds Node 24 and uWS 20.57");
  const help = runBinary(["--help"], cwd);
  t.equal(help.status, 0);
  for (const command of ["serve", "build-index", "keys", "sync"]) {
    t.match(help.stdout, new RegExp(`^  ${command} `, "m"));
    const usage = runBinary([command, "--help"], cwd);
    t.equal(usage.status, 0, `${command} --help`);
    t.match(usage.stdout, /usage/i);
  }
  t.equal(runBinary(["nonsense"], cwd).status, 2);
  t.same(readdirSync(cwd), [], "help writes nothing");
});

t.test("from an empty directory: serve builds the demo and prints a key; keys create and build-index work", { skip: jailSkip }, async (t) => {
  const cwd = mkdtempSync(join(home, "run-"));
  const port = await freePort();
  const metricsPort = await freePort();
  const [command, commandArgs] = binaryCommand(["serve", "--port", String(port)], cwd);
  const child = spawn(command, commandArgs, { cwd, env: { ...bareEnv, HOST: "127.0.0.1", METRICS_PORT: String(metricsPort) }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => { output += chunk; });
  child.stderr.on("data", (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill("SIGKILL"); });
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (!/Courtside listening.*Node v24\.\d+\.\d+, uWebSockets\.js 20\.57\.0/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the binary exited: ${output}`);
    if (Date.now() - started > 120_000) throw new Error(`the binary did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const demoKey = /Demo API key[^\n]*\n\n\s+(2k_[a-z0-9]+)/.exec(output)?.[1];
  t.ok(demoKey, "a demo key was printed");
  t.same(readdirSync(join(cwd, "data")).sort(), ["2K20", "2K21", "2K22", "2K23", "2K24", "2K25", "2K26", "2K27"].map((e) => `${e}.msgpack`));

  const addonDirs = readdirSync(privateTmp).filter((name) => name.startsWith("courtside-"));
  t.equal(addonDirs.length, 1, "the uWS addon was written to one private directory");
  t.equal(statSync(join(privateTmp, addonDirs[0] ?? "")).mode & 0o777, 0o700);

  const players = await send(`${base}/api/players?limit=2&fields=name,overall`, { headers: { "x-api-key": demoKey ?? "" } });
  t.equal(players.status, 200);
  t.equal(JSON.parse(players.body.toString()).data.length, 2);
  const etag = players.headers["etag"] as string;
  t.equal((await send(`${base}/api/players?limit=2&fields=name,overall`, { headers: { "x-api-key": demoKey ?? "", "if-none-match": etag } })).status, 304);
  const gzip = await send(`${base}/api/players?limit=50`, { headers: { "x-api-key": demoKey ?? "", "accept-encoding": "gzip" } });
  t.equal(gzip.headers["content-encoding"], "gzip");
  const batch = await send(`${base}/api/players/batch`, { method: "POST", headers: { "x-api-key": demoKey ?? "", "content-type": "application/json" }, body: JSON.stringify({ names: ["LeBron James"] }) });
  t.equal(batch.status, 200);
  const docs = await send(`${base}/docs`);
  t.equal(docs.status, 200);
  t.match(docs.body.toString(), /swagger-ui-bundle\.js/);
  const css = await send(`${base}/docs/assets/swagger-ui.css`);
  t.equal(css.status, 200, "the embedded Swagger UI files are served");
  t.ok(css.body.length > 10_000);
  const explorer = await send(`${base}/explore/assets/explore.js`);
  t.equal(explorer.status, 200, "the explorer's script (with Chart.js) is embedded");
  t.ok(explorer.body.length > 100_000);
  // Every file of the pages of src/web/ is embedded: the HTML, the style sheet and the script of each.
  for (const [path, pattern] of [
    ["/explore", /explore\/assets\/explore\.js/], ["/explore/assets/explore.css", /\.chart-area/],
    ["/dashboard", /dashboard\/assets\/dashboard\.js/], ["/dashboard/assets/dashboard.css", /\.danger/], ["/dashboard/assets/dashboard.js", /api\/dashboard\/usage/],
    ["/docs/assets/docs.css", /font-family/], ["/docs/assets/docs-init.js", /api\/openapi\.json/],
  ] as const) {
    const file = await send(`${base}${path}`);
    t.equal(file.status, 200, path);
    t.match(file.body.toString(), pattern, path);
  }
  t.equal(JSON.parse((await send(`${base}/api/openapi.json`)).body.toString()).info.version, VERSION);
  t.match((await send(`http://127.0.0.1:${metricsPort}/metrics`)).body.toString(), /courtside_http_requests_total/);

  const created = runBinary(["keys", "create", "--email", "ops@example.com", "--json"], cwd);
  t.equal(created.status, 0, created.stderr);
  const key = (JSON.parse(created.stdout) as { key: string }).key;
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await send(`${base}/api/teams`, { headers: { "x-api-key": key } })).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal(status, 200, "the running server accepts the key the binary created");

  const built = runBinary(["build-index", "--scale", "300", "--edition", "2K99", "--out", "scale"], cwd);
  t.equal(built.status, 0, built.stderr);
  t.ok(existsSync(join(cwd, "scale", "2K99.msgpack")));

  child.kill("SIGTERM");
  t.equal(await exited, 0, "SIGTERM drains and exits 0");
  t.same(readdirSync(privateTmp).filter((name) => name.startsWith("courtside-")), [], "the addon's directory is removed at exit");
});

/** Starts `command`, waits for its start line, and checks it serves through node:http (issue 41), then drains. */
async function servesThroughNode(t: Test, command: [string, string[]], cwd: string, env: Record<string, string>, port: number): Promise<void> {
  const child = spawn(command[0], command[1], { cwd, env: { HOST: "127.0.0.1", METRICS_PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => { output += chunk; });
  child.stderr.on("data", (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  t.teardown(() => { if (child.exitCode === null) child.kill("SIGKILL"); });
  const started = Date.now();
  while (!/Courtside listening/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the binary exited: ${output}`);
    if (Date.now() - started > 120_000) throw new Error(`the binary did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.match(output, /Courtside listening.*Node v24\.\d+\.\d+, node:http \(Node's own HTTP server\)\)/, "it serves through node:http");
  t.match(output, /serving through Node's own HTTP server \(node:http\), not uWebSockets\.js: the embedded uWebSockets\.js 20\.57\.0 addon does not load on this machine/, "one warning says why");
  const demoKey = /Demo API key[^\n]*\n\n\s+(2k_[a-z0-9]+)/.exec(output)?.[1] ?? "";
  const players = await send(`http://127.0.0.1:${port}/api/players?limit=2&fields=name,overall`, { headers: { "x-api-key": demoKey } });
  t.equal(players.status, 200);
  t.equal(JSON.parse(players.body.toString()).data.length, 2);
  const health = JSON.parse((await send(`http://127.0.0.1:${port}/api/health`)).body.toString()) as { runtime: { adapter: string } };
  t.equal(health.runtime.adapter, "node");
  child.kill("SIGTERM");
  t.equal(await exited, 0, "SIGTERM drains and exits 0");
}

// Issue 41: where the embedded addon cannot load, the binary serves through node:http instead of refusing.
t.test("a binary whose addon cannot load serves through node:http, saying why", { skip: jailSkip }, async (t) => {
  const cwd = mkdtempSync(join(home, "bad-addon-"));
  const bogus = join(home, "not-an-addon.node");
  writeFileSync(bogus, "not an ELF file");
  const port = await freePort();
  await servesThroughNode(t, binaryCommand(["serve", "--port", String(port)], cwd), cwd, { ...bareEnv, COURTSIDE_UWS_ADDON: inside(bogus), DATA_DIR: inside(join(cwd, "data")) }, port);
  // HTTP_ADAPTER=uws: the old refusal, in one line.
  const forced = runBinary(["serve", "--port", "0", "--metrics-port", "0"], cwd, { HTTP_ADAPTER: "uws", COURTSIDE_UWS_ADDON: inside(bogus), DATA_DIR: inside(join(cwd, "data")) });
  t.equal(forced.status, 1);
  t.match(forced.stderr.trim(), /^courtside serve: the embedded uWebSockets\.js 20\.57\.0 addon does not load on this machine \(.*\); the binary needs Linux x64 with glibc 2\.38 or later/);
  t.equal(forced.stderr.trim().split("\n").length, 1);
});

t.test(`on this system's own glibc ${glibcMajor}.${glibcMinor} (older than 2.38) the binary serves through node:http`, { skip: jail === "" ? "this system's glibc loads the addon" : false }, async (t) => {
  const cwd = mkdtempSync(join(home, "host-"));
  const port = await freePort();
  // Outside the Debian 13 root: this system's glibc, the same empty PATH.
  await servesThroughNode(t, [binary, ["serve", "--port", String(port)]], cwd, { PATH: emptyPath, HOME: home, TMPDIR: privateTmp, LOG_LEVEL: "info" }, port);
});

/** `Key=value` lines of a unit file, by key (a key may repeat). */
function unitEntries(file: string): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match?.[1] !== undefined) entries.set(match[1], [...(entries.get(match[1]) ?? []), match[2] ?? ""]);
  }
  return entries;
}

const UNITS = join(ROOT, "deploy", "systemd");

t.test("the systemd units run commands and flags the binary has", { skip: jailSkip }, async (t) => {
  const service = unitEntries(join(UNITS, "courtside.service"));
  t.same(service.get("User"), ["courtside"], "an unprivileged user");
  t.same(service.get("NoNewPrivileges"), ["yes"]);
  t.same(service.get("ProtectSystem"), ["strict"]);
  t.same(service.get("ReadWritePaths"), ["/var/lib/courtside/data /var/lib/courtside/keys"], "only the data and keys directories are writable");
  t.same(service.get("Restart"), ["on-failure"]);
  t.same(service.get("KillSignal"), ["SIGTERM"]);
  // A oneshot without a start timeout would wait forever for a run that never ends, and the timer
  // would start no other; the sync's own deadline comes first, so its message is the one logged.
  const rebuild = unitEntries(join(UNITS, "courtside-rebuild.service"));
  t.same(rebuild.get("Type"), ["oneshot"]);
  const startTimeout = /^(\d+)min$/.exec(rebuild.get("TimeoutStartSec")?.[0] ?? "");
  t.ok(startTimeout, "the rebuild has a start timeout");
  t.ok(Number(startTimeout?.[1]) * 60 > DEFAULT_SYNC_DEADLINE_SECONDS, `it is longer than the sync's default deadline (${DEFAULT_SYNC_DEADLINE_SECONDS} s)`);
  const timer = unitEntries(join(UNITS, "courtside-rebuild.timer"));
  t.same(timer.get("Unit"), ["courtside-rebuild.service"]);
  t.match(timer.get("OnCalendar")?.[0], /^Mon /, "weekly");

  for (const unit of ["courtside.service", "courtside-rebuild.service"]) {
    const entries = unitEntries(join(UNITS, unit));
    const [program, command, ...args] = (entries.get("ExecStart")?.[0] ?? "").split(/\s+/);
    t.equal(program, "/usr/local/bin/courtside", unit);
    const usage = runBinary([command ?? "", "--help"], home);
    t.equal(usage.status, 0, `${unit}: courtside ${command} exists`);
    for (const flag of args.filter((arg) => arg.startsWith("--"))) t.match(usage.stdout, flag, `${unit}: ${command} takes ${flag}`);
    if (command === "serve") {
      const env = Object.fromEntries((entries.get("Environment") ?? []).map((assignment) => assignment.split(/=(.*)/s).slice(0, 2) as [string, string]));
      t.doesNotThrow(() => loadConfig(args, env), `${unit}: its flags and Environment= values are a valid config`);
      t.ok(env["TRUST_PROXY"], "behind a local proxy, TRUST_PROXY is set");
    }
  }
});

const hasAnalyze = spawnSync("sh", ["-c", "command -v systemd-analyze"]).status === 0;
t.test("systemd-analyze verify accepts the units", { skip: hasAnalyze ? false : "systemd-analyze is not installed (Debian package systemd)" }, async (t) => {
  const dir = mkdtempSync(join(home, "units-"));
  for (const unit of readdirSync(UNITS)) {
    // The binary path is the only change: verify checks that ExecStart's program exists.
    writeFileSync(join(dir, unit), readFileSync(join(UNITS, unit), "utf8").replaceAll("/usr/local/bin/courtside", binary));
  }
  const result = spawnSync("systemd-analyze", ["verify", ...readdirSync(dir).map((unit) => join(dir, unit))], { encoding: "utf8" });
  t.equal(result.status, 0, result.stderr);
  t.equal(result.stderr.trim(), "", "no warnings");
});

// Issue 45: `courtside mcp` from the single binary, over stdio, as an assistant starts it: a client
// of 2026-07-28 and one of 2025-11-25 each list the tools and resources and read the editions.
t.test("courtside mcp over stdio from the binary: both protocol eras", { skip: jailSkip }, async (t) => {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const cwd = mkdtempSync(join(home, "mcp-"));
  t.equal(runBinary(["build-index", "--scale", "200", "--edition", "2K99", "--out", "data"], cwd).status, 0, "a data directory to serve");
  for (const [label, options] of [
    ["2026-07-28", { versionNegotiation: { mode: { pin: "2026-07-28" } } }],
    ["2025-11-25", { supportedProtocolVersions: ["2025-11-25"] }],
  ] as [string, ConstructorParameters<typeof Client>[1]][]) {
    const [command, args] = binaryCommand(["mcp", "--data-dir", "data"], cwd);
    const client = new Client({ name: "courtside-binary-test", version: "1" }, options);
    await client.connect(new StdioClientTransport({ command, args, cwd, env: bareEnv, stderr: "pipe" }));
    t.equal(client.getNegotiatedProtocolVersion(), label, `${label}: spoken`);
    const { tools } = await client.listTools();
    t.ok(tools.some((tool) => tool.name === "find_players"), `${label}: the tools are listed`);
    const editions = await client.callTool({ name: "list_editions", arguments: {} });
    t.match(editions.structuredContent, { data: [{ gameVersion: "2K99" }] }, `${label}: list_editions answers from the data directory`);
    const { contents } = await client.readResource({ uri: "courtside://editions" });
    t.match(JSON.parse((contents[0] as { text: string }).text), { data: [{ gameVersion: "2K99" }] }, `${label}: the editions resource`);
    await client.close();
  }
});
