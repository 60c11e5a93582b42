// /api/live in the real process with two worker threads: every subscriber, whichever worker
// accepted it, gets every event of a rebuilt current edition exactly once (the supervisor derives
// the log once and hands both workers the same one), the per-key cap counts across workers, and SIGTERM
// closes every socket with 1001.

import t from "tap";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { fixtureEditions } from "../http/harness.js";
import { nextWeek } from "../fixtures/next-week.js";
import { freePort } from "../fixtures/free-port.js";
import { connectLive, mustConnect, subscribe, type LiveClient } from "../fixtures/live-client.js";
import { spawnServer } from "../fixtures/server-process.js";
import { createKey } from "../../src/keys/key-operations.js";

t.setTimeout(120_000);

t.test("two workers: every subscriber gets every event once; the cap spans workers; SIGTERM closes with 1001", async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  mkdirSync(dataDir);
  const [current, archived] = fixtureEditions();
  for (const source of [current, archived]) writeEdition(dataDir, source!, "2026-11-20");
  const keysFile = join(dir, "keys.json");
  const { key } = createKey(keysFile, { email: "live@example.com", now: new Date(), rateLimit: 100_000 });
  const port = await freePort();
  const server = spawnServer({
    LOG_LEVEL: "warn", PORT: String(port), METRICS_PORT: String(await freePort()), DATA_DIR: dataDir, KEYS_FILE: keysFile, WORKERS: "2", LIVE_CONNECTIONS_PER_KEY: "12",
  });
  t.teardown(() => { server.child.kill("SIGKILL"); });
  const started = Date.now();
  while (Date.now() - started < 20_000) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ready`)).status === 200) break;
    } catch { /* not yet */ }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = `ws://127.0.0.1:${port}/api/live`;
  const clients: LiveClient[] = [];
  for (let i = 0; i < 12; i++) {
    const client = await mustConnect(url, key);
    await subscribe(client, ["all"]);
    clients.push(client);
  }
  t.match(await connectLive(url, key), { refused: true, status: 429 }, "the 13th connection of the key is refused, whichever worker gets it");

  writeEdition(dataDir, nextWeek(current!, 11), "2026-11-27");
  // The supervisor polls the directory (500 ms), then every worker swaps and publishes.
  await Promise.all(clients.map((client) => client.next((message) => message.type === "edition", 15_000)));
  const feed = (await (await fetch(`http://127.0.0.1:${port}/api/changes?limit=1000`, { headers: { "x-api-key": key } })).json()) as { data: { seq: number }[] };
  t.ok(feed.data.length > 20);
  const deadline = Date.now() + 10_000;
  while (clients.some((client) => client.changes().length < feed.data.length) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const [i, client] of clients.entries()) t.same(client.changes(), feed.data, `subscriber ${i}: every event once, in order`);

  server.child.kill("SIGTERM");
  const closes = await Promise.all(clients.map((client) => client.closed));
  t.same(closes.map((close) => close.code), clients.map(() => 1001), "every socket closed with 1001");
  t.equal(await server.exited, 0, server.output());
});
