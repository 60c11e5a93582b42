import t from "tap";
import { rawRequest, startHarness } from "./harness.js";
import { mulberry32 } from "../fixtures/random-edition.js";

const PATHS = ["/api/players", "/api/players/slug/x", "/api/teams", "/api/teams/a/roster", "/api/versions", "/health", "/ready", "/api", "/", "/api/players/search"];
const NAMES = ["era", "teamType", "limit", "cursor", "sort", "fields", "position", "team", "minRating", "maxRating", "speed_gte", "badge", "badgeTier", "q", "x", "", "%", "a%20b", "%C3%28"];
const VALUES = ["", "0", "-1", "2.5", "1e9", "999999999999", "%", "%zz", "%FF", "%C0%AF", "%E2%82", "curr", "ALL", "overall:desc", "name:", ":", "PG", "a,b,,c", "%00", "null", "[]", "{}", "%F0%9F%8F%80", "Hall%20of%20Fame", "x".repeat(600)];

t.test("thousands of generated garbage requests get 4xx envelopes, never a 500 or a crash", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const random = mulberry32(1234);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const counts = new Map<number, number>();
  const requests = 2000;
  for (let i = 0; i < requests; i++) {
    const parts: string[] = [];
    const count = Math.floor(random() * 4);
    for (let j = 0; j < count; j++) parts.push(`${pick(NAMES)}=${pick(VALUES)}`);
    if (random() < 0.1) parts.push(String.fromCharCode(...Array.from({ length: 8 }, () => 33 + Math.floor(random() * 94))).replace(/[#\s]/g, ""));
    const path = pick(PATHS) + (random() < 0.1 ? "/%" + pick(["", "zz", "FF", "C3%28"]) : "");
    const target = parts.length > 0 ? `${path}?${parts.join("&")}` : path;
    const method = random() < 0.9 ? "GET" : pick(["POST", "DELETE", "HEAD", "OPTIONS", "PUT"]);
    const hasKey = random() < 0.85;
    const response = i % 2 === 0
      ? await rawRequest(h.service.port, `${method} ${target} HTTP/1.1\r\nHost: x\r\n${hasKey ? `X-API-Key: ${h.key}\r\n` : ""}${method === "POST" || method === "PUT" ? "Content-Length: 0\r\n" : ""}\r\n`)
      : await (async () => {
        const r = await fetch(h.base + target.replace(/#/g, ""), { method: method === "POST" || method === "PUT" ? "GET" : method === "OPTIONS" ? "GET" : method, headers: hasKey ? { "x-api-key": h.key } : {} });
        return { status: r.status, head: "", body: method === "HEAD" ? "" : await r.text() };
      })();
    counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
    if (response.status >= 500 || response.status === 0) {
      t.fail(`${method} ${target} → ${response.status}: ${response.body.slice(0, 200)}`);
      return;
    }
    if (response.status >= 400 && method !== "HEAD") {
      const body = JSON.parse(response.body);
      if (body.success !== false || typeof body.error?.code !== "string") {
        t.fail(`${method} ${target}: not an error envelope`);
        return;
      }
    }
  }
  t.ok((counts.get(400) ?? 0) > 100, `many 400s (${JSON.stringify([...counts])})`);
  t.equal([...counts.keys()].filter((status) => status >= 500).length, 0);
  const health = await fetch(`${h.base}/health`);
  t.equal(health.status, 200, "the server is still up");
});
