import t from "tap";
import { RECENT_REQUESTS, UsageRings } from "../../src/limits/usage-rings.js";

const ROUTES = ["/api/players", "/api/teams", "/api/players/slug/:slug"];
const T0 = Date.parse("2026-11-22T12:00:00Z");

t.test("totals, the last request and the last ten, newest first", async (t) => {
  const rings = new UsageRings(8, () => ROUTES);
  t.same(rings.read(3), { totalRequests: 0, lastRequest: null, recentRequests: [] });
  for (let i = 0; i < 13; i++) rings.record(3, ROUTES[i % 3] as string, i % 2 === 0 ? "GET" : "HEAD", 200 + i, i + 0.12345, T0 + i * 1000);
  const usage = rings.read(3);
  t.equal(usage.totalRequests, 13);
  t.equal(usage.lastRequest, new Date(T0 + 12_000).toISOString());
  t.equal(usage.recentRequests.length, RECENT_REQUESTS);
  t.same(usage.recentRequests[0], { endpoint: "/api/players", method: "GET", statusCode: 212, responseTime: 12.123, timestamp: new Date(T0 + 12_000).toISOString() });
  t.same(usage.recentRequests.map((entry) => entry.statusCode), [212, 211, 210, 209, 208, 207, 206, 205, 204, 203]);
  t.same(rings.read(4).totalRequests, 0, "other keys are untouched");
});

t.test("only route templates are recorded; other strings and unkeyed requests are not", async (t) => {
  const rings = new UsageRings(8, () => ROUTES);
  rings.record(1, "/api/players?secret=1", "GET", 200, 1, T0);
  rings.record(1, "(unmatched)", "GET", 404, 1, T0);
  rings.record(-1, "/api/teams", "GET", 200, 1, T0);
  t.equal(rings.read(1).totalRequests, 0);
  rings.record(1, "/api/teams", "PATCH", 405, 1, T0);
  t.equal(rings.read(1).recentRequests[0]?.method, "OTHER");
});

t.test("a key past the first slots has a ring of its own: the 4,097th key's usage is its own", async (t) => {
  const rings = new UsageRings(4096, () => ROUTES);
  rings.record(0, "/api/teams", "GET", 200, 1, T0);
  rings.record(0, "/api/teams", "GET", 200, 1, T0);
  t.same(rings.read(4096), { totalRequests: 0, lastRequest: null, recentRequests: [] }, "nothing of key 0's");
  rings.record(4096, "/api/players", "GET", 200, 1, T0 + 1);
  t.equal(rings.read(4096).totalRequests, 1, "its own count");
  t.equal(rings.read(0).totalRequests, 2, "and key 0's history is untouched");
  t.ok(rings.slots > 4096, "the buffer grew");
});

t.test("views of one buffer share the counts, as worker threads do", async (t) => {
  const first = new UsageRings(16, () => ROUTES);
  const second = new UsageRings(16, () => ROUTES, first.buffer);
  first.record(2, "/api/teams", "GET", 200, 1, T0);
  second.record(2, "/api/players", "POST", 201, 1, T0 + 5);
  t.equal(first.read(2).totalRequests, 2);
  t.same(first.read(2).recentRequests.map((entry) => entry.endpoint), ["/api/players", "/api/teams"]);
  first.record(100, "/api/teams", "GET", 200, 1, T0);
  t.equal(second.read(100).totalRequests, 1, "a slot one view grew the buffer for is seen by the other");
  t.throws(() => new UsageRings(8, () => ROUTES, new SharedArrayBuffer(64)), /UsageRings.allocate/);
});
