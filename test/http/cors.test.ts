import t from "tap";
import { rawRequest, startHarness } from "./harness.js";

t.test("CORS is off unless CORS_ORIGINS lists origins", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const response = await h.get("/api/teams", { origin: "https://app.example" });
  t.equal(response.headers.get("access-control-allow-origin"), null);
  const preflight = await rawRequest(h.service.port, "OPTIONS /api/teams HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\nAccess-Control-Request-Method: GET\r\n\r\n");
  t.equal(preflight.status, 405, "without CORS an OPTIONS is just another method");
});

t.test("listed origins get CORS headers, preflight needs no key, others get none", async (t) => {
  const h = await startHarness({ env: { CORS_ORIGINS: "https://app.example, https://other.example" } });
  t.teardown(() => h.close());
  const allowed = await h.get("/api/teams", { origin: "https://app.example" });
  t.equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
  t.match(allowed.headers.get("access-control-expose-headers") ?? "", /X-RateLimit-Remaining/);
  t.match(allowed.headers.get("vary") ?? "", /Origin/);
  const stranger = await h.get("/api/teams", { origin: "https://evil.example" });
  t.equal(stranger.headers.get("access-control-allow-origin"), null);
  const preflight = await rawRequest(h.service.port, "OPTIONS /api/players HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: x-api-key\r\n\r\n");
  t.equal(preflight.status, 204);
  t.match(preflight.head, /access-control-allow-headers: X-API-Key/i);
  t.match(preflight.head, /access-control-allow-origin: https:\/\/app\.example/i);
});

t.test("CORS_ORIGINS=* allows any origin", async (t) => {
  const h = await startHarness({ env: { CORS_ORIGINS: "*" } });
  t.teardown(() => h.close());
  t.equal((await h.get("/api/teams", { origin: "https://anyone.example" })).headers.get("access-control-allow-origin"), "*");
});
