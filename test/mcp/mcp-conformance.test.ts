// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against POST /mcp of a started service, through a loopback proxy that adds the key (the suite's
// client sends no headers of its own) and passes Host and Origin on as the suite sends them. The
// scenarios that test what we do not offer are its --expected-failures (conformance-baseline.yml,
// listed with their reasons in docs/mcp.md): the suite then fails the run when one of the others
// fails, and when one of those starts passing. The suite needs Node 22 or later (CI's Node 24 and
// Node 26 passes run it).

import t from "tap";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startHarness } from "../http/harness.js";
import { startKeyProxy } from "./key-proxy.js";

const here = dirname(fileURLToPath(import.meta.url));
const BASELINE = join(here, "conformance-baseline.yml");
const major = Number(process.versions.node.split(".")[0]);

/** The scenarios the baseline names as not applicable. */
function notApplicable(): string[] {
  return readFileSync(BASELINE, "utf8").split("\n").map((line) => /^\s+-\s+(\S+)/.exec(line)?.[1]).filter((name): name is string => name !== undefined);
}

t.test("docs/mcp.md lists every scenario that does not apply, with its reason", async (t) => {
  const docs = readFileSync(join(here, "../../docs/mcp.md"), "utf8");
  for (const name of notApplicable()) t.match(docs, new RegExp(`\\| \`${name}\` \\| [^|]{10,}\\|`), `${name} is in docs/mcp.md's table with a reason`);
});

t.test("the conformance suite's server scenarios against POST /mcp", { skip: major < 22 ? `@modelcontextprotocol/conformance needs Node 22 or later; this is Node ${process.versions.node} (CI's Node 24 and 26 passes run it)` : false }, async (t) => {
  const cli = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")), "dist/index.js");
  const harness = await startHarness();
  t.teardown(() => harness.close());
  const proxy = await startKeyProxy(new URL(harness.base), harness.key);
  t.teardown(() => proxy.close());
  const out = mkdtempSync(join(tmpdir(), "courtside-conformance-"));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [cli, "server", "--url", `${proxy.base}/mcp`, "--expected-failures", BASELINE, "-o", out], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout: stdout + stderr });
    });
  });
  const skipped = new Set(notApplicable());
  const results = new Map<string, { status: string; id: string; errorMessage?: string }[]>();
  for (const entry of readdirSync(out)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry)?.[1];
    if (name !== undefined) results.set(name, JSON.parse(readFileSync(join(out, entry, "checks.json"), "utf8")));
  }
  const applicable = [...results.keys()].filter((name) => !skipped.has(name));
  t.ok(applicable.includes("dns-rebinding-protection") && applicable.includes("server-initialize") && applicable.includes("tools-list"), `the scenarios that apply ran: ${applicable.join(", ")}`);
  for (const name of applicable) {
    const checks = results.get(name) ?? [];
    const failed = checks.filter((check) => check.status === "FAILURE");
    t.same(failed.map((check) => `${check.id}: ${check.errorMessage ?? ""}`), [], `${name}: no check fails (${checks.filter((check) => check.status === "SUCCESS").length} pass)`);
  }
  for (const name of skipped) t.ok(results.has(name), `${name} ran (expected to fail: not applicable)`);
  t.equal(run.code, 0, `the suite accepts the run against its baseline${run.code === 0 ? "" : `:\n${run.stdout.slice(-3000)}`}`);
  const rebinding = results.get("dns-rebinding-protection") ?? [];
  t.same(rebinding.map((check) => [check.id, check.status]), [["localhost-host-rebinding-rejected", "SUCCESS"], ["localhost-host-valid-accepted", "SUCCESS"]], "dns-rebinding-protection: evil.example.com refused, the loopback host answered");
});
