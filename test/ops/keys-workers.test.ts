// The real binary (dist/server/main.js) with two worker threads: key writes from both workers and from
// the keys command at once, serialised by the supervisor and the keys file's lock.
import t from "tap";
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { fixtureEditions } from "../http/harness.js";
import { freePort } from "../fixtures/free-port.js";
import { spawnServer } from "../fixtures/server-process.js";
import { digestKey } from "../../src/keys/key-records.js";
import { readKeyStore } from "../../src/keys/key-file.js";
import { createKey } from "../../src/keys/key-operations.js";

const KEYS_COMMAND = fileURLToPath(new URL("../../dist/server/main.js", import.meta.url));

/** `npm run keys -- create --json`, as its own process. */
function createWithCommand(keysFile: string, email: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [KEYS_COMMAND, "keys", "create", "--email", email, "--json", "--keys-file", keysFile], (error, stdout, stderr) => {
      if (error) reject(new Error(`keys create failed: ${stderr}`));
      else resolve((JSON.parse(stdout) as { key: string }).key);
    });
  });
}

interface Answer { status: number; body: any }

/** One request on a connection of its own (so the kernel spreads them over both workers), from `from`. */
function send(port: number, method: string, path: string, options: { key?: string; body?: unknown; from?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {};
    if (options.key !== undefined) headers["x-api-key"] = options.key;
    if (body !== undefined) headers["content-type"] = "application/json";
    const req = request({ host: "127.0.0.1", port, path, method, headers, agent: new Agent({ keepAlive: false }), localAddress: options.from ?? "127.0.0.1" }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => { text += chunk; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

t.test("40 registrations and regenerations at once over 2 workers, beside the keys command, leave exactly the expected keys", { timeout: 120_000 }, async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  for (const source of fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const keysFile = join(dir, "keys.json");
  const originals = Array.from({ length: 20 }, (_, i) => createKey(keysFile, { email: `old${i}@example.com`, now: new Date() }).key);
  const port = await freePort();
  const { child, output, exited } = spawnServer({ LOG_LEVEL: "warn", PORT: String(port), METRICS_PORT: "0", WORKERS: "2", DATA_DIR: dataDir, KEYS_FILE: keysFile });
  t.teardown(async () => {
    child.kill("SIGTERM");
    await exited;
  });
  for (let started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const ready = await send(port, "GET", "/ready").catch(() => undefined);
    if (ready?.status === 200) break;
    if (Date.now() - started > 20_000) throw new Error(`server did not become ready:\n${output()}`);
  }

  // Five registrations per source address is the hourly limit: four loopback addresses, five each.
  const registrations = Array.from({ length: 20 }, (_, i) =>
    send(port, "POST", "/api/register", { body: { email: `new${i}@example.com`, name: `new ${i}` }, from: `127.0.0.${1 + (i % 4)}` }));
  const regenerations = originals.map((key) => send(port, "POST", "/api/keys/regenerate", { key }));
  // Meanwhile the keys command, in processes of its own, writes to the same file under the same lock.
  const fromCommand = await Promise.all(Array.from({ length: 5 }, (_, i) => createWithCommand(keysFile, `cli${i}@example.com`)));
  const registered = await Promise.all(registrations);
  const regenerated = await Promise.all(regenerations);
  t.same(registered.map((answer) => answer.status), Array(20).fill(201), "every registration succeeded");
  t.same(regenerated.map((answer) => answer.status), Array(20).fill(201), "every regeneration succeeded");

  const store = readKeyStore(keysFile);
  t.equal(store.keys.length, 45, "20 originals + 20 registered + 5 from the command: none lost, none doubled");
  t.equal(new Set(store.keys.map((record) => record.id)).size, 45, "ids unique");
  t.equal(new Set(store.keys.map((record) => record.digest)).size, 45, "digests unique");
  t.equal(store.keys.filter((record) => record.regeneratedAt !== undefined).length, 20);
  const newKeys = [...registered.map((answer) => answer.body.data.apiKey as string), ...regenerated.map((answer) => answer.body.data.apiKey as string)];
  const digests = new Set(store.keys.map((record) => record.digest));
  t.ok(newKeys.every((key) => digests.has(digestKey(key))), "every issued key is on disk");
  t.notOk(originals.some((key) => digests.has(digestKey(key))), "no replaced key is left on disk");

  // Each on a fresh connection: both workers answer some of these, and all must agree at once.
  const working = await Promise.all(newKeys.flatMap((key) => [send(port, "GET", "/api/teams", { key }), send(port, "GET", "/api/teams", { key })]));
  t.same(working.filter((answer) => answer.status !== 200).map((answer) => answer.body), [], "every key the server issued works at once on every worker");
  // The command's writes reach the workers through the file watcher (a 250 ms poll): within a second.
  let pending = fromCommand;
  for (let round = 0; round < 40 && pending.length > 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answers = await Promise.all(pending.map((key) => send(port, "GET", "/api/teams", { key })));
    pending = pending.filter((_, i) => answers[i]?.status !== 200);
  }
  t.same(pending, [], "every key the command made starts working (the watcher polls every 250 ms)");
  // Each worker polls the file on its own clock: one second after the write, every worker has it.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const commandKeys = await Promise.all(fromCommand.flatMap((key) => [send(port, "GET", "/api/teams", { key }), send(port, "GET", "/api/teams", { key })]));
  t.same(commandKeys.map((answer) => answer.status), Array(10).fill(200), "on every worker, one second after the write");
  const refused = await Promise.all(originals.flatMap((key) => [send(port, "GET", "/api/teams", { key }), send(port, "GET", "/api/teams", { key })]));
  t.same(refused.map((answer) => answer.status), Array(40).fill(401), "every replaced key is refused on every worker");
  const sixth = await send(port, "POST", "/api/register", { body: { email: "late@example.com", name: "late" }, from: "127.0.0.2" });
  t.equal(sixth.status, 429, "the registration limit is shared by both workers");
  t.equal(sixth.body.error.code, "REGISTRATION_RATE_LIMIT");
});
