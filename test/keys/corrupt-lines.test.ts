// One corrupt line of the keys log (a bad hand edit, a disk error, a copy gone wrong) is skipped and
// named, never a reason to refuse to start, to refuse key writes, or to lose another key (issue 31).

import t from "tap";
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { runKeysCommand } from "../../src/app/keys-command.js";
import { COMPACT_MIN_LINES, KeyLog, type KeyLogProblem } from "../../src/keys/key-log.js";
import { applyKeyOperation } from "../../src/keys/key-writer.js";
import { freePort } from "../fixtures/free-port.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { spawnServer } from "../fixtures/server-process.js";
import { startHarness } from "../http/harness.js";
import { digestKey } from "../../src/keys/key-records.js";
import { readKeyStore } from "../../src/keys/key-file.js";
import { createKey, regenerateKey, revokeKey } from "../../src/keys/key-operations.js";
import { KeyChanges, KeyRegistry } from "../../src/keys/key-registry.js";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const linesOf = (file: string): string[] => readFileSync(file, "utf8").split("\n").filter((line) => line !== "");

/** A log of three keys, a, b and c, whose line `corrupted` (1 is the header) is replaced by `garbage`. */
function logWithCorruptLine(dir: string, corrupted: number, garbage: string) {
  const file = join(dir, "keys.json");
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const b = createKey(file, { email: "b@b.co", now: NOW });
  const c = createKey(file, { email: "c@b.co", now: NOW });
  const lines = linesOf(file);
  lines[corrupted - 1] = garbage;
  writeFileSync(file, `${lines.join("\n")}\n`);
  return { file, a, b, c };
}

t.test("a corrupt line in the middle is skipped with a problem naming the file and the line; every other key is kept", async (t) => {
  const dir = t.testdir({});
  const { file, a, b, c } = logWithCorruptLine(dir, 3, '{"op":"create","record":{"id":"k_1234\u001b[2J');
  const problems: KeyLogProblem[] = [];
  const registry = new KeyRegistry(file, { onProblem: (problem) => problems.push(problem) });
  t.same(problems.map((problem) => problem.line), [3], "reported once, at construction");
  t.match(problems[0]?.message, /keys\.json: corrupt keys file: line 3 is not valid JSON \(.*\); the line is skipped and every other key kept \(fix or remove it: until then the file is never compacted\)/);
  t.notMatch(problems[0]?.message, /\u001b/, "what the line holds is escaped in the message");
  t.ok(registry.verify(a.key), "the key before it");
  t.ok(registry.verify(c.key), "the key after it");
  t.equal(registry.verify(b.key), undefined, "the line's own key cannot be read");
  t.same(readKeyStore(file).keys.map((record) => record.id), [a.record.id, c.record.id], "a fresh read too");
  t.ok(registry.reload(), "a reload is not an error");
  t.equal(problems.length, 1, "and does not report it again");
});

t.test("a key whose create line is lost is taken from a later line of it, which carries the whole record", async (t) => {
  const dir = t.testdir({});
  const file = join(dir, "keys.json");
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const b = createKey(file, { email: "b@b.co", now: NOW });
  const b2 = regenerateKey(file, { key: b.key, now: NOW });
  const lines = linesOf(file);
  lines[2] = "\u0000\u0000\u0000 disk garbage";
  writeFileSync(file, `${lines.join("\n")}\n`);
  const problems: KeyLogProblem[] = [];
  const registry = new KeyRegistry(file, { onProblem: (problem) => problems.push(problem) });
  t.same(problems.map((problem) => [problem.line, problem.isSkipped]), [[3, true], [4, false]]);
  t.match(problems[1]?.message, /line 4: regenerate of key k_[0-9a-f]{8}, which was never created; the key is taken from this line, which carries its whole record/);
  t.ok(registry.verify(b2.key), "the regenerated key works");
  t.ok(registry.verify(a.key));
});

t.test("a key created twice keeps its first record; the second line is skipped", async (t) => {
  const dir = t.testdir({});
  const file = join(dir, "keys.json");
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const lines = linesOf(file);
  const forged = JSON.parse(lines[1]!);
  forged.record.digest = digestKey("2k_00000000000000000000000000000000");
  appendFileSync(file, `${JSON.stringify(forged)}\n`);
  const log = new KeyLog(file);
  const update = log.catchUp();
  t.same(update.problems.map((problem) => problem.line), [3]);
  t.match(update.problems[0]?.message, /line 3: key k_[0-9a-f]{8} is created twice \(first on an earlier line\); the line is skipped/);
  t.equal(log.records[0]?.digest, digestKey(a.key));
});

t.test("a corrupt line appended while the server runs: register, regenerate and revoke keep working, and the line stays", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const file = join(h.dir, "keys.json");
  appendFileSync(file, "this line is not JSON\n");
  const call = async (method: string, path: string, init: { key?: string; body?: unknown } = {}) => {
    const response = await fetch(h.base + path, {
      method,
      headers: { ...(init.key ? { "x-api-key": init.key } : {}), ...(init.body ? { "content-type": "application/json" } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: response.status, body: await response.json() as any };
  };
  const registered = await call("POST", "/api/register", { body: { email: "new@example.com", name: "after the bad line" } });
  t.equal(registered.status, 201, "register");
  const key = registered.body.data.apiKey as string;
  t.equal((await call("GET", "/api/teams", { key })).status, 200, "the new key works at once");
  t.equal((await call("GET", "/api/teams", { key: h.key })).status, 200, "the key before the bad line still works");
  const regenerated = await call("POST", "/api/keys/regenerate", { key });
  t.equal(regenerated.status, 201, "regenerate");
  const fresh = regenerated.body.data.apiKey as string;
  t.equal((await call("DELETE", "/api/keys/current", { key: fresh })).status, 200, "revoke");
  t.equal((await call("GET", "/api/teams", { key: fresh })).status, 401, "the revoked key is refused");
  t.equal((await call("GET", "/api/teams", { key: h.key })).status, 200);
  t.ok(linesOf(file).includes("this line is not JSON"), "the bad line is still in the file");
});

t.test("a log holding a skipped line is never compacted: the rewrite would drop it", async (t) => {
  const dir = t.testdir({});
  const { file, a } = logWithCorruptLine(dir, 3, "not json");
  const writer = new KeyLog(file);
  const changes = new KeyChanges();
  const inode = statSync(file).ino;
  let issued = a;
  for (let i = 0; i < COMPACT_MIN_LINES + 10; i++) {
    const outcome = applyKeyOperation(file, { kind: "regenerate", key: issued.key, now: NOW.toISOString() }, changes, writer);
    if (outcome.kind !== "issued") throw new Error(JSON.stringify(outcome));
    issued = { key: outcome.key, record: outcome.record };
  }
  t.equal(statSync(file).ino, inode, "never rewritten");
  t.equal(linesOf(file)[2], "not json", "the line is where it was");
  // Fixed by hand: the next write compacts as usual.
  writeFileSync(file, readFileSync(file, "utf8").replace("not json\n", ""));
  revokeKey(file, { key: issued.key, now: NOW }, writer);
  t.not(statSync(file).ino, inode, "compacted once the line is gone");
  t.ok(linesOf(file).length < 10);
});

t.test("npm run keys -- list names the line on stderr and lists every other key", async (t) => {
  const dir = t.testdir({});
  const { file, a, c } = logWithCorruptLine(dir, 3, "{broken");
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCommand(["list", "--json", "--keys-file", file], { keysFile: file, now: () => NOW, out: (text) => out.push(text), err: (text) => err.push(text) });
  t.equal(code, 0);
  t.match(err.join("\n"), /^warning: .*keys\.json: corrupt keys file: line 3 is not valid JSON/);
  t.same(JSON.parse(out.join("")).map((record: { id: string }) => record.id), [a.record.id, c.record.id]);
});

t.test("the server starts over a keys file with a corrupt line in the middle, logging the file and the line", async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  writeEdition(dataDir, randomEdition(50, 7), "2026-11-20");
  const { file, a, c } = logWithCorruptLine(dir, 3, '{"op":"create"');
  const port = await freePort();
  const server = spawnServer({ PORT: String(port), METRICS_PORT: "0", DATA_DIR: dataDir, KEYS_FILE: file, LOG_LEVEL: "warn", WORKERS: "2" });
  t.teardown(() => { server.child.kill("SIGTERM"); });
  let exitCode: number | null | undefined;
  void server.exited.then((code) => { exitCode = code; });
  const started = Date.now();
  let isReady = false;
  while (!isReady && exitCode === undefined && Date.now() - started < 30_000) {
    isReady = await fetch(`http://127.0.0.1:${port}/ready`).then((response) => response.status === 200, () => false);
    if (!isReady) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.ok(isReady, `ready (exit code ${String(exitCode)}; output: ${server.output().slice(-1000)})`);
  for (const key of [a.key, c.key]) t.equal((await fetch(`http://127.0.0.1:${port}/api/teams`, { headers: { "x-api-key": key } })).status, 200, "a key around the bad line works");
  const warnings = server.output().split("\n").filter((line) => line.includes("corrupt keys file")).map((line) => JSON.parse(line));
  t.ok(warnings.length >= 1, "the problem is logged");
  t.ok(warnings.every((warning) => warning.level === 40 && warning.file === file && warning.line === 3 && /line 3 is not valid JSON/.test(warning.msg)), "a warning naming the file and the line");
});
