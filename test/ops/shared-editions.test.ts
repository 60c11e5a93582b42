// The real binary with several workers: the supervisor loads each snapshot once and every worker
// serves views of those bytes; a reload is loaded once, logged once, and reaches every worker as a
// whole set; a format-1 data directory stops the boot with the command that converts it.
import t from "tap";
import { Agent, request } from "node:http";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { encodeSnapshot } from "../../src/store/snapshot.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { fixtureEditions } from "../http/harness.js";
import { freePort } from "../fixtures/free-port.js";
import { spawnServer, type ServerProcess } from "../fixtures/server-process.js";
import { encodeSnapshotV1 } from "../fixtures/snapshot-v1-writer.js";
import { createKey } from "../../src/keys/key-operations.js";

function start(env: Record<string, string>): ServerProcess {
  return spawnServer({ LOG_LEVEL: "info", METRICS_PORT: "0", ...env });
}

/** One request on its own connection (SO_REUSEPORT spreads connections over the workers). */
function fresh(port: number, path: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const agent = new Agent({ keepAlive: false });
    const req = request({ host: "127.0.0.1", port, path, agent, headers: { "x-api-key": key } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => { body += chunk; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end();
  });
}

t.test("with 4 workers a reload is loaded once and every worker serves the new set", async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  const [current, archived] = fixtureEditions();
  writeEdition(dataDir, current!, "2026-11-20");
  writeEdition(dataDir, archived!, "2026-11-20");
  const { key } = createKey(join(dir, "keys.json"), { email: "s@example.com", now: new Date(), rateLimit: 1_000_000 });
  const port = await freePort();
  const server = start({ PORT: String(port), DATA_DIR: dataDir, KEYS_FILE: join(dir, "keys.json"), WORKERS: "4" });
  t.teardown(() => { server.child.kill("SIGKILL"); });
  const started = Date.now();
  while ((await fresh(port, "/ready", key)).status !== 200) {
    if (Date.now() - started > 20_000) throw new Error(`not ready: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const path = "/api/players?limit=1&sort=name:asc";
  const before = JSON.parse((await fresh(port, path, key)).body).data[0].overall as number;

  // The same roster, every overall moved: the first row by name shows which set answered.
  const next = structuredClone(current!);
  for (const player of next.players) player.overall = player.overall === 99 ? 98 : player.overall + 1;
  const temp = join(dataDir, "2K27.msgpack.tmp");
  writeFileSync(temp, encodeSnapshot(buildSnapshotPayload({ ...next, history: [] })));
  renameSync(temp, join(dataDir, "2K27.msgpack"));
  const expected = before === 99 ? 98 : before + 1;
  const waited = Date.now();
  let overall = before;
  while (overall !== expected && Date.now() - waited < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    overall = JSON.parse((await fresh(port, path, key)).body).data[0].overall as number;
  }
  t.equal(overall, expected, "the new edition is served");
  // Every answer from now on, whichever worker takes the connection, is from the new set.
  const answers = await Promise.all(Array.from({ length: 40 }, () => fresh(port, path, key)));
  t.same([...new Set(answers.map((answer) => JSON.parse(answer.body).data[0].overall))], [expected], "every worker swapped");
  server.child.kill("SIGTERM");
  t.equal(await server.exited, 0, `exit code (signal ${server.signal() ?? "none"}; output: ${server.output().slice(-3000)})`);
  // Read after the exit: the supervisor's log is buffered until then.
  t.equal((server.output().match(/"msg":"loaded 2K27\.msgpack"/g) ?? []).length, 1, "loaded once, by the supervisor");
});

t.test("a format-1 data directory stops the boot naming the upgrade command", async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, "2K27.msgpack"), encodeSnapshotV1(fixtureEditions()[0]!));
  const server = start({ PORT: String(await freePort()), DATA_DIR: dataDir, KEYS_FILE: join(dir, "keys.json"), WORKERS: "2" });
  t.equal(await server.exited, 1);
  t.match(server.output(), /courtside serve: snapshot 2K27\.msgpack: format version 1 .*npm run build-index -- --upgrade/);
});
