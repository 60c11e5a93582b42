import t from "tap";
import { COMMANDS, runCli, type CliContext } from "../../src/app/cli.js";
import { loadConfig, SERVE_OPTIONS } from "../../src/config.js";
import { nodeVersionProblem } from "../../src/node-version.js";
import { ADAPTER, EXPECTED_UWS } from "../fixtures/uws-version.js";

function context(env: NodeJS.ProcessEnv = {}): CliContext & { output: string[]; errors: string[] } {
  const output: string[] = [];
  const errors: string[] = [];
  return { env, serve: { workerEntry: () => new URL("../../src/app/worker-main.ts", import.meta.url) }, out: (s) => output.push(s), err: (s) => errors.push(s), output, errors };
}

t.test("--version prints the package version, then the Node version and the HTTP adapter serve would use", async (t) => {
  const c = context();
  t.equal(await runCli(["--version"], c), 0);
  const [version, runtime] = c.output[0]!.split("\n");
  t.match(version, /^\d+\.\d+\.\d+$/);
  if (ADAPTER === "uws") t.equal(runtime, `Node ${process.version}, uWebSockets.js ${EXPECTED_UWS}`);
  else t.match(runtime, new RegExp(`^Node ${process.version.replaceAll(".", "\\.")}, node:http \\(Node's own HTTP server\\)`), "node:http (and why, where it was not asked for)");
});

t.test("--help lists every command; no command is a usage error", async (t) => {
  const c = context();
  t.equal(await runCli(["--help"], c), 0);
  for (const name of Object.keys(COMMANDS)) t.match(c.output[0], new RegExp(`^  ${name} `, "m"));
  const none = context();
  t.equal(await runCli([], none), 2);
  t.match(none.errors[0], /usage: courtside <command>/);
  const unknown = context();
  t.equal(await runCli(["frobnicate"], unknown), 2);
  t.match(unknown.errors[0], /unknown command "frobnicate"/);
});

t.test("each command answers --help with its usage and runs nothing", async (t) => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    const c = context();
    t.equal(await runCli([name, "--help"], c), 0, name);
    t.equal(c.output[0], command.usage);
  }
});

t.test("serve --help names every flag serve takes", async (t) => {
  for (const flag of Object.keys(SERVE_OPTIONS)) t.match(COMMANDS.serve?.usage, `--${flag} `, flag);
});

t.test("a bad variable stops serve with one line naming it", async (t) => {
  const c = context({ WORKERS: "many" });
  t.equal(await runCli(["serve"], c), 1);
  t.same(c.errors, ["courtside serve: WORKERS must be an integer from 1 to 64, not many"]);
  const flag = context();
  t.equal(await runCli(["serve", "--prot", "3000"], flag), 1);
  t.match(flag.errors[0], /^courtside serve: Unknown option '--prot'/);
  t.equal(flag.errors.length, 1);
  const proxy = context({ TRUST_PROXY: "my-proxy" });
  t.equal(await runCli(["serve"], proxy), 1);
  t.match(proxy.errors[0], /^courtside serve: TRUST_PROXY entry "my-proxy" is not an IP address or CIDR/);
});

t.test("keys and build-index run through the table with their own exit codes", async (t) => {
  const dir = t.testdir({});
  const c = context({ KEYS_FILE: `${dir}/keys.json` });
  t.equal(await runCli(["keys", "create", "--email", "a@example.com", "--json"], c), 0);
  t.match(JSON.parse(c.output[0] ?? "{}").key, /^2k_/);
  t.equal(await runCli(["keys", "nonsense"], context()), 2);
  t.equal(await runCli(["build-index", "--scale", "zero"], context()), 2);
});

t.test("TRUST_PROXY reaches the config, flag over variable", async (t) => {
  t.same(loadConfig([], { TRUST_PROXY: "127.0.0.1" }).trustProxy, ["127.0.0.1"]);
  t.same(loadConfig(["--trust-proxy", "10.0.0.0/8"], { TRUST_PROXY: "127.0.0.1" }).trustProxy, ["10.0.0.0/8"]);
  t.equal(loadConfig([], {}).trustProxy, undefined);
});

t.test("the metrics port follows PORT (PORT + 6464) unless METRICS_PORT is set: a second instance on another PORT gets its own", async (t) => {
  t.equal(loadConfig([], {}).metricsPort, 9464, "PORT 3000 → 9464");
  t.equal(loadConfig([], {}).metricsPortFollowsPort, true);
  t.equal(loadConfig([], { PORT: "3001" }).metricsPort, 9465);
  t.equal(loadConfig(["--port", "8080"], {}).metricsPort, 14544);
  t.equal(loadConfig([], { PORT: "0" }).metricsPort, 0, "any port → any metrics port");
  t.equal(loadConfig([], { PORT: "60000" }).metricsPort, 0, "past 65535 → any free port");
  t.equal(loadConfig([], { PORT: "3001", METRICS_PORT: "9100" }).metricsPort, 9100);
  t.equal(loadConfig([], { PORT: "3001", METRICS_PORT: "9100" }).metricsPortFollowsPort, false);
  t.equal(loadConfig(["--metrics-port", "0"], { PORT: "3001" }).metricsPort, 0);
});

t.test("the metrics port listens on loopback unless METRICS_HOST widens it; IPv6 clients per /64 unless IPV6_PREFIX says", async (t) => {
  t.equal(loadConfig([], {}).metricsHost, "127.0.0.1");
  t.equal(loadConfig([], { HOST: "0.0.0.0" }).metricsHost, "127.0.0.1", "HOST does not widen it");
  t.equal(loadConfig(["--metrics-host", "::"], { METRICS_HOST: "0.0.0.0" }).metricsHost, "::");
  t.equal(loadConfig([], {}).ipv6Prefix, 64);
  t.equal(loadConfig([], { IPV6_PREFIX: "48" }).ipv6Prefix, 48);
  t.throws(() => loadConfig([], { IPV6_PREFIX: "129" }), /IPV6_PREFIX must be an integer from 16 to 128/);
});

t.test("MCP_ALLOWED_ORIGINS: origins in their serialised form, or *; anything else stops the start naming the entry", async (t) => {
  t.same(loadConfig([], {}).mcpAllowedOrigins, []);
  t.same(loadConfig([], { MCP_ALLOWED_ORIGINS: " https://App.Example:443/ , http://127.0.0.1:8080,*" }).mcpAllowedOrigins, ["https://app.example", "http://127.0.0.1:8080", "*"]);
  for (const bad of ["app.example", "https://app.example/mcp", "ftp://app.example", "https://user@app.example", "https://app.example?x=1"]) {
    t.throws(() => loadConfig([], { MCP_ALLOWED_ORIGINS: bad }), new RegExp(`MCP_ALLOWED_ORIGINS entry "${bad.replace(/[?.]/g, "\\$&")}" is not an origin`), bad);
  }
});

// Issue 30, 41: Node 20 and later run npm start (uWS where an addon loads, node:http elsewhere, Node 26 included); older Node is told what to install.
t.test("Node 20 and later run npm start (Node 26 through the node adapter); an older Node is told which to install", async (t) => {
  for (const version of ["20.20.2", "22.23.0", "24.21.0", "25.1.0", "26.12.1"]) t.equal(nodeVersionProblem(version), undefined, version);
  t.match(nodeVersionProblem("18.20.4"), /^npm start needs Node 20 or later, best Node 24 LTS \(this is Node 18\.20\.4\): Node 18 is too old/);
});
