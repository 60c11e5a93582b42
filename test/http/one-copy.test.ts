// Bodies are rendered once: into the shared scratch buffer when written out at once (cache off, a
// search's per-request body), straight into a buffer of their own when the response cache keeps
// them. Either way every answer is the same bytes, however requests interleave on the sockets.

import t from "tap";
import { connect } from "node:net";
import { startHarness } from "./harness.js";

// The same data, the same clock (so a search's timestamp is the same): one service renders every
// request afresh, the other keeps what it renders.
const off = await startHarness({ env: { RESPONSE_CACHE_MB: "0" } });
t.teardown(() => off.close());
const on = await startHarness();
t.teardown(() => on.close());

const PATHS = [
  "/api/players?limit=40&sort=name",
  "/api/players?limit=100&sort=overall:asc&fields=name,overall,badges",
  "/api/players?position=PG&limit=25",
  "/api/players/search?q=a&limit=50",
  "/api/players/search?q=jo",
  "/api/players/bulk?minRating=70",
  "/api/players/bulk?position=C",
  "/api/versions/2K26/players?limit=30",
  "/api/teams",
];

interface Answer { status: number; etag: string | null; body: Buffer }

async function ask(h: typeof off, path: string): Promise<Answer> {
  const response = await h.get(path, { "accept-encoding": "identity" });
  return { status: response.status, etag: response.headers.get("etag"), body: Buffer.from(await response.arrayBuffer()) };
}

t.test("with the response cache off or on, a miss or a hit: the same status, ETag and bytes", async (t) => {
  for (const path of PATHS) {
    const fresh = await ask(off, path);
    t.equal(fresh.status, 200, path);
    t.doesNotThrow(() => JSON.parse(fresh.body.toString("utf8")), `${path}: whole JSON`);
    const miss = await ask(on, path);
    const hit = await ask(on, path);
    for (const [what, answer] of [["miss", miss], ["hit", hit], ["again, cache off", await ask(off, path)]] as const) {
      t.equal(answer.status, 200, `${path} ${what}`);
      t.equal(answer.etag, fresh.etag, `${path} ${what}: the same ETag`);
      t.ok(answer.body.equals(fresh.body), `${path} ${what}: the same bytes`);
    }
  }
});

t.test("a search's body carries the request's own timestamp, cache off and on", async (t) => {
  for (const h of [off, on]) {
    for (const at of ["2026-11-22T12:00:00.000Z", "2026-11-23T08:30:15.250Z"]) {
      h.clock.now = Date.parse(at);
      const { body } = await ask(h, "/api/players/search?q=mi");
      t.equal(JSON.parse(body.toString("utf8")).meta.timestamp, at);
    }
    h.clock.now = Date.parse("2026-11-22T12:00:00Z");
  }
});

/** Writes every request on one connection at once, reads nothing for a while, then parses the responses in order. */
function pipelined(port: number, key: string, paths: readonly string[], onSent: () => Promise<void>): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1");
    socket.on("error", reject);
    socket.setTimeout(20_000, () => { socket.destroy(); reject(new Error("timeout")); });
    socket.on("connect", () => {
      socket.pause();
      socket.write(paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`).join(""));
      // The client reads nothing until the others are done: the large bodies wait on the server side.
      void onSent().then(() => socket.resume(), reject);
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const answers = parseResponses(Buffer.concat(chunks));
      if (answers.length === paths.length) {
        socket.destroy();
        resolve(answers);
      }
    });
  });
}

function parseResponses(data: Buffer): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end === -1) return answers;
    const head = data.toString("latin1", at, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (data.length < end + 4 + length) return answers;
    answers.push({ status: Number(head.split(" ")[1]), etag: /etag: (.*)/i.exec(head)?.[1]?.trim() ?? null, body: data.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
}

t.test("large answers a slow client has not read yet arrive intact while other requests render in between", async (t) => {
  for (const h of [off, on]) {
    // Uncached bulk pages (600 KiB) between small pages, all on one connection, while other
    // connections ask for other pages: each of those renders into the scratch buffer again.
    const paths = ["/api/players/bulk?minRating=70", "/api/players?limit=5", "/api/players/bulk?minRating=71", "/api/players/search?q=an", "/api/players/bulk?position=PG"];
    const others = ["/api/players?limit=100&sort=name", "/api/players/bulk?minRating=72", "/api/players/search?q=e&limit=50", "/api/players?position=C&limit=90"];
    const answers = await pipelined(h.service.port, h.key, paths, async () => {
      for (const path of others) t.equal((await ask(h, path)).status, 200, `${path} meanwhile`);
    });
    for (const [i, path] of paths.entries()) {
      const alone = await ask(h, path);
      const answer = answers[i] as Answer;
      t.equal(answer.status, 200, path);
      t.ok(answer.body.equals(alone.body), `${path}: intact (${answer.body.length} bytes)`);
    }
  }
});
