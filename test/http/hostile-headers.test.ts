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
