// The shipped reverse-proxy configs, run: nginx (deploy/nginx.conf) and Caddy (deploy/Caddyfile)
// in front of the real service, only their ports changed. Every main route answers through each
// as it does directly; HTTP/1.0 clients and `_` header names get an answer; long request heads are
// served up to the service's limit; an oversized batch
// body gets the service's 413; TRUST_PROXY gives each client behind the proxy its own budget; the
// /api/live WebSocket passes through.

import t from "tap";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { playerId, type EditionSource } from "../../src/model/player.js";
import { fixtureEditions, startHarness, type Harness } from "../http/harness.js";
import { connectLive, mustConnect, subscribe } from "../fixtures/live-client.js";
import { nextWeek } from "../fixtures/next-week.js";
import { missingProxy, send, sendRaw, startProxy, type ProxyKind } from "./proxy-harness.js";

// Longer than tap's 30 s per file: two proxies and four services start and stop here, and the machine may be busy.
t.setTimeout(180_000);

const KINDS: readonly ProxyKind[] = ["nginx", "caddy"];

async function withProxy(t: { teardown: (fn: () => unknown) => void }, kind: ProxyKind, env: Record<string, string> = {}): Promise<{ h: Harness; base: string; port: number }> {
  const h = await startHarness({ env });
  const proxy = await startProxy(kind, h.service.port);
  t.teardown(async () => {
    await proxy.close();
    h.close();
  });
  return { h, base: proxy.base, port: proxy.port };
}

for (const kind of KINDS) {
  const missing = missingProxy(kind);
  t.test(`through ${kind}`, { skip: missing ?? false }, async (t) => {
    const { h, base, port } = await withProxy(t, kind);
    const key = { "x-api-key": h.key };

    t.test("ETag and 304, with the rate-limit headers", async (t) => {
      const first = await send(`${base}/api/players?limit=3&fields=name,overall`, { headers: key });
      t.equal(first.status, 200);
      const etag = first.headers["etag"] as string;
      t.match(etag, /^W\/"/);
      t.equal(first.headers["x-ratelimit-limit"], "100000");
      t.equal(first.headers["vary"], "Accept-Encoding");
      const again = await send(`${base}/api/players?limit=3&fields=name,overall`, { headers: { ...key, "if-none-match": etag } });
      t.equal(again.status, 304);
      t.equal(again.body.length, 0);
      t.equal(again.headers["etag"], etag);
    });

    t.test("the service's compression passes through untouched", async (t) => {
      const path = `${base}/api/players?limit=50`;
      const plain = await send(path, { headers: key });
      const gzip = await send(path, { headers: { ...key, "accept-encoding": "gzip" } });
      t.equal(gzip.status, 200);
      t.equal(gzip.headers["content-encoding"], "gzip");
      t.same(gunzipSync(gzip.body), plain.body, "the gzip body is the identity body");
      const brotli = await send(path, { headers: { ...key, "accept-encoding": "br" } });
      t.equal(brotli.headers["content-encoding"], "br");
      t.equal(plain.headers["content-encoding"], undefined);
    });

    t.test("HEAD answers the GET's headers without a body", async (t) => {
      const get = await send(`${base}/api/versions`);
      const head = await send(`${base}/api/versions`, { method: "HEAD" });
      t.equal(head.status, 200);
      t.equal(head.body.length, 0);
      t.equal(head.headers["etag"], get.headers["etag"]);
      t.equal(head.headers["content-type"], get.headers["content-type"]);
    });

    t.test("batch POST answers, and a body over 64 KiB gets the service's 413 every time", async (t) => {
      const names = JSON.stringify({ names: ["a", "b"] });
      const ok = await send(`${base}/api/players/batch`, { method: "POST", headers: { ...key, "content-type": "application/json" }, body: names });
      t.equal(ok.status, 200);
      t.equal(JSON.parse(ok.body.toString()).success, true);
      // Just over the cap and near the proxies' own 1 MiB limit: without the service reading the
      // refused body before it closes, the larger one came back as a 502 one time in a few.
      for (const size of [70 * 1024, 900 * 1024]) {
        const big = JSON.stringify({ names: ["x".repeat(size)] });
        for (let i = 0; i < 5; i++) {
          const refused = await send(`${base}/api/players/batch`, { method: "POST", headers: { ...key, "content-type": "application/json" }, body: big });
          t.equal(refused.status, 413, `${size >> 10} KiB, attempt ${i + 1}`);
          t.equal(JSON.parse(refused.body.toString()).error.code, "PAYLOAD_TOO_LARGE", "the service's envelope, not the proxy's page");
        }
      }
    });

    t.test("an HTTP/1.0 client gets an answer", async (t) => {
      const answer = await sendRaw(port, "GET /health HTTP/1.0\r\nHost: localhost\r\n\r\n");
      t.match(answer, /^HTTP\/1\.[01] 200 /);
      t.match(answer, /"status":"ok"|"ok"/);
    });

    t.test("a header name with _ does not stall the request", async (t) => {
      const answer = await sendRaw(port, `GET /api/versions HTTP/1.1\r\nHost: localhost\r\nX_Custom_Thing: 1\r\nConnection: close\r\n\r\n`);
      t.match(answer, /^HTTP\/1\.1 200 /);
    });

    // Issue 30: a long head must reach the service in one piece (20.30 drops a pieced head over
    // 4 KiB; Caddy wrote 4 KiB at a time until write_buffer): served under MAX_HEADERS_KB (16).
    t.test("a 12 KiB request head is served; a 24 KiB one is refused", async (t) => {
      const padding = "p".repeat(12 * 1024);
      const served = await send(`${base}/api/versions`, { headers: { "x-padding": padding } });
      t.equal(served.status, 200, "12 KiB of headers");
      t.match(JSON.parse(served.body.toString()), { success: true });
      const refused = await send(`${base}/api/versions`, { headers: { "x-padding": padding, "x-more-padding": padding } });
      t.equal(refused.status, 431, "24 KiB of headers: the service's 431 passes through");
      t.equal((await send(`${base}/api/versions`)).status, 200, "the next request is served");
    });

    t.test("the change stream (/api/live) passes through: events, a trade under a new _id, a reconnect with since, a bad key's 401", async (t) => {
      const url = `ws://127.0.0.1:${port}/api/live`;
      const client = await mustConnect(url, h.key);
      await subscribe(client, ["all"]);
      const dataDir = join(h.dir, "data");
      const first = fixtureEditions()[0] as EditionSource;
      // The week's trade comes back under a new _id, as an import without ids makes it (issue 46).
      const second = nextWeek(first, 21);
      const traded = second.players.find((player) => player.team === "Denver Nuggets" && first.players.some((before) => before._id === player._id && before.team === "Boston Celtics"));
      if (traded === undefined) throw new Error("nextWeek traded nobody");
      const oldId = traded._id;
      traded._id = playerId(traded.teamType, traded.team, traded.slug);
      writeEdition(dataDir, second, "2026-11-27");
      t.same(h.service.reload.check().map((event) => event.kind), ["loaded"]);
      const feed = JSON.parse((await send(`${base}/api/changes?limit=1000`, { headers: key })).body.toString()).data as { seq: number; slug: string }[];
      t.ok(feed.length > 0);
      const last = await client.next((message) => message.type === "change" && message.seq === feed.at(-1)?.seq);
      t.same(client.changes(), feed, "every event, through the proxy");
      t.match(client.changes().filter((event) => event.slug === traded.slug), [{ playerId: traded._id, previousPlayerId: oldId, trade: { from: { slug: "boston-celtics" }, to: { slug: "denver-nuggets" } } }],
        "the trade under a new _id: one event naming both teams");
      client.close();
      await client.closed;
      writeEdition(dataDir, nextWeek(second, 22), "2026-12-04");
      h.service.reload.check();
      const missed = JSON.parse((await send(`${base}/api/changes?limit=1000&since=${last.seq}`, { headers: key })).body.toString()).data;
      const again = await mustConnect(url, h.key);
      t.equal((await subscribe(again, ["all"], last.seq)).replayed, missed.length);
      t.same(again.changes(), missed, "a reconnect with since gets only what was missed");
      again.close();
      t.match(await connectLive(url, "2k_wrong"), { refused: true, status: 401, body: { error: { code: "INVALID_API_KEY" } } }, "401 before the upgrade");
    });

    t.test("429 with Retry-After and the rate-limit headers once the address budget is spent", async (t) => {
      // The unkeyed requests above drew from the same budget: spend what is left.
      let refused = await send(`${base}/api/players`, { headers: { "x-api-key": "2k_wrong" } });
      for (let i = 0; i < 60 && refused.status === 401; i++) refused = await send(`${base}/api/players`, { headers: { "x-api-key": "2k_wrong" } });
      t.equal(refused.status, 429);
      t.ok(Number(refused.headers["retry-after"]) >= 1);
      t.equal(refused.headers["x-ratelimit-limit"], "60");
      t.equal(refused.headers["x-ratelimit-remaining"], "0");
      t.equal(JSON.parse(refused.body.toString()).error.code, "RATE_LIMIT_EXCEEDED");
    });
  });
}

/** 61 failed key checks from `localAddress`: "401×60 429" when they spend exactly one fresh 60-a-minute budget. */
async function spendBudget(base: string, localAddress: string, headers: Record<string, string> = {}): Promise<string> {
  const statuses: number[] = [];
  for (let i = 0; i < 61; i++) statuses.push((await send(`${base}/api/players`, { headers: { "x-api-key": "2k_wrong", ...headers }, localAddress })).status);
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => (count === 1 ? `${status}` : `${status}×${count}`)).join(" ");
}

const ONE_BUDGET = "401×60 429";

t.test("TRUST_PROXY through nginx: each client address gets its own 60-a-minute budget", { skip: missingProxy("nginx") ?? false }, async (t) => {
  const { base } = await withProxy(t, "nginx", { TRUST_PROXY: "127.0.0.1" });
  t.equal(await spendBudget(base, "127.0.0.2"), ONE_BUDGET, "127.0.0.2 spends its budget");
  t.equal(await spendBudget(base, "127.0.0.3"), ONE_BUDGET, "127.0.0.3 has a whole one of its own");
  const forged = await send(`${base}/api/players`, { headers: { "x-api-key": "2k_wrong", "x-forwarded-for": "10.1.2.3" }, localAddress: "127.0.0.2" });
  t.equal(forged.status, 429, "an X-Forwarded-For sent by the client is left of nginx's entry, so it changes nothing");
});

t.test("without TRUST_PROXY, X-Forwarded-For is ignored: everyone behind nginx shares its address", { skip: missingProxy("nginx") ?? false }, async (t) => {
  const { base } = await withProxy(t, "nginx");
  t.equal(await spendBudget(base, "127.0.0.2"), ONE_BUDGET);
  const other = await send(`${base}/api/players`, { headers: { "x-api-key": "2k_wrong" }, localAddress: "127.0.0.3" });
  t.equal(other.status, 429, "another client behind the proxy counts as the proxy");
});

t.test("without TRUST_PROXY a forged X-Forwarded-For sent straight to the service changes nothing", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  t.equal(await spendBudget(h.base, "127.0.0.1"), ONE_BUDGET);
  const forged = await send(`${h.base}/api/players`, { headers: { "x-api-key": "2k_wrong", "x-forwarded-for": "10.9.9.9" } });
  t.equal(forged.status, 429);
});

t.test("with TRUST_PROXY, a peer that is not a listed proxy cannot choose its address", async (t) => {
  const h = await startHarness({ env: { TRUST_PROXY: "10.0.0.0/8" } });
  t.teardown(() => h.close());
  t.equal(await spendBudget(h.base, "127.0.0.1"), ONE_BUDGET);
  const forged = await send(`${h.base}/api/players`, { headers: { "x-api-key": "2k_wrong", "x-forwarded-for": "10.9.9.9, 192.0.2.7" } });
  t.equal(forged.status, 429);
});
