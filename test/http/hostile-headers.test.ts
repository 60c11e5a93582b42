import t from "tap";
import { rawRequest, startHarness } from "./harness.js";

t.test("a duplicated Content-Length is a 400 before the body is read, and the connection closes", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const body = JSON.stringify({ slugs: ["a"] });
  const answer = await rawRequest(h.service.port, `POST /api/players/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: 5\r\n\r\n${body}`);
  t.equal(answer.status, 400);
  t.match(answer.body, /Content-Length header is given more than once/);
  t.match(answer.head, /connection: close/i);
  const get = await rawRequest(h.service.port, `GET /api/teams HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n`);
  t.equal(get.status, 400, "on any method");
  t.equal((await h.get("/api/teams")).status, 200, "one Content-Length is fine");
});

t.test("behind a trusted proxy one walk of the headers finds all three: the head's size, a second Content-Length and every X-Forwarded-For line", async (t) => {
  const h = await startHarness({ env: { TRUST_PROXY: "127.0.0.1", MAX_HEADERS_KB: "16" } });
  t.teardown(() => h.close());
  let registrations = 0;
  const register = (lines: string, twice = false) => {
    const body = JSON.stringify({ email: `walk${++registrations}@example.com`, name: "w" });
    const lengths = `Content-Length: ${body.length}\r\n`.repeat(twice ? 2 : 1);
    return rawRequest(h.service.port, `POST /api/register HTTP/1.1\r\nHost: x\r\n${lines}Content-Type: application/json\r\n${lengths}\r\n${body}`);
  };
  // Five registrations an hour per client: the proxy's own (last) line names it, after a forged first line.
  for (let i = 0; i < 5; i++) t.equal((await register(`X-Forwarded-For: 198.51.100.${i}\r\nX-Forwarded-For: 203.0.113.20\r\n`)).status, 201, `registration ${i + 1}`);
  t.equal((await register("X-Forwarded-For: 198.51.100.77\r\nX-Forwarded-For: 203.0.113.20\r\n")).status, 429, "the sixth from 203.0.113.20");
  const twice = await register("X-Forwarded-For: 203.0.113.21\r\n", true);
  t.equal(twice.status, 400, "two Content-Length lines, with X-Forwarded-For beside them");
  t.match(twice.body, /Content-Length header is given more than once/);
  // Each line under the limit, together over it: every line counts toward the head's size.
  const padded = Array.from({ length: 3 }, (_, i) => `X-Forwarded-For: ${"1".repeat(6 * 1024)}, 203.0.113.${30 + i}\r\n`).join("");
  const over = await rawRequest(h.service.port, `GET /api/versions HTTP/1.1\r\nHost: x\r\n${padded}\r\n`);
  t.equal(over.status, 431, "18 KiB of X-Forwarded-For lines: 431");
  const under = await rawRequest(h.service.port, `GET /api/versions HTTP/1.1\r\nHost: x\r\n${padded.split("\r\n").slice(0, 2).join("\r\n")}\r\n\r\n`);
  t.equal(under.status, 200, "12 KiB of them: served");
});

t.test("Vary: Origin is sent whenever CORS is on, `*` included, with or without an Origin", async (t) => {
  const h = await startHarness({ env: { CORS_ORIGINS: "*" } });
  t.teardown(() => h.close());
  for (const headers of [{}, { origin: "https://a.example" }]) {
    const response = await h.get("/api/teams", headers);
    t.match(response.headers.get("vary") ?? "", /Origin/, JSON.stringify(headers));
  }
  const off = await startHarness();
  t.teardown(() => off.close());
  t.notMatch((await off.get("/api/teams", { origin: "https://a.example" })).headers.get("vary") ?? "", /Origin/, "CORS off: nothing varies by Origin");
});
