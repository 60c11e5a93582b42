import t from "tap";
import { connect } from "node:net";
import { rawRequest, startHarness } from "../http/harness.js";

/** Sends `head` (and optionally part of a body), then reports how the connection ended. */
function openSlow(port: number, text: string): Promise<{ closedAfterMs: number; data: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => { data += chunk; });
    socket.on("close", () => resolve({ closedAfterMs: Date.now() - started, data }));
    socket.on("error", () => { /* the close event reports it */ });
  });
}

t.test("a slow upload is cut off after the body time limit", async (t) => {
  const h = await startHarness({ env: { BODY_TIMEOUT_MS: "400" } });
  t.teardown(() => h.close());
  const result = await openSlow(h.service.port, `POST /api/players/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"names":["a`);
  t.ok(result.closedAfterMs >= 350 && result.closedAfterMs < 3000, `closed after ${result.closedAfterMs} ms`);
  t.equal(result.data, "", "no response for a body that never arrived");
  t.equal((await fetch(`${h.base}/health`)).status, 200, "the server is unaffected");
});

t.test("request headers past uWS's bound (about 128 KiB) are refused by closing the connection", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 20; i++) {
    const result = await openSlow(h.service.port, `GET /api/players HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nX-Junk: ${"a".repeat(256 * 1024)}\r\n\r\n`);
    t.equal(result.data, "", "nothing is served");
    t.ok(result.closedAfterMs < 2000, `closed after ${result.closedAfterMs} ms`);
  }
  t.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, "no memory kept for refused headers");
  t.equal((await fetch(`${h.base}/health`)).status, 200, "the server is unaffected");
});

t.test("a huge URL is answered with a 4xx or refused, never served or crashed on", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const response = await rawRequest(h.service.port, `GET /api/players?team=${"x".repeat(3000)} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\n\r\n`).catch(() => ({ status: 0, head: "", body: "" }));
  t.ok(response.status === 0 || (response.status >= 400 && response.status < 500), `status ${response.status}`);
  t.equal((await fetch(`${h.base}/health`)).status, 200);
});

t.test("while draining, /ready is 503 and keep-alive answers close their connection", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const socket = connect(h.service.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let data = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk) => { data += chunk; });
  const closed = new Promise((resolve) => socket.once("close", resolve));
  const drained = h.service.drain(2000);
  socket.write("GET /ready HTTP/1.1\r\nHost: x\r\n\r\n");
  await closed;
  await drained;
  t.match(data, /^HTTP\/1\.1 503/);
  t.match(data, /SERVICE_UNAVAILABLE/);
  await t.rejects(fetch(`${h.base}/health`), "no longer listening");
});
