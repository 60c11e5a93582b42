// The change log (store/change-log.ts) is built from the weekly history of every player, which
// costs a worker tens of milliseconds and megabytes: only GET /api/changes (and the live stream)
// may build it. Every other request, /ready above all (polled while a server boots), leaves it
// unbuilt. Real dispatcher and routes over a fixture edition set.

import t from "tap";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { createDispatcher } from "../../src/http/routes/route-table.js";
import type { IncomingRequest, Outgoing } from "../../src/http/dispatch.js";
import { ADDRESS_SLOTS, KEY_SLOTS, REGISTRATION_SLOTS, TokenBuckets } from "../../src/limits/token-buckets.js";
import { ChangeLog } from "../../src/store/change-log.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { randomEdition } from "../fixtures/random-edition.js";

const KEY = "2k_test";

function request(url: string): IncomingRequest {
  const [path = url, query = ""] = url.split("?");
  return {
    method: "GET", url: path, rawQuery: query, apiKey: KEY, ifNoneMatch: "", acceptEncoding: "", contentType: "", origin: "",
    address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
  };
}

t.test("only the change routes build the change log", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "courtside-changes-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeEdition(dir, randomEdition(200, 5), "2026-11-20");
  const editions = loadEditionSet(dir);
  let builds = 0;
  let log: ChangeLog | undefined;
  const dispatcher = createDispatcher({
    editions: () => editions,
    changes: () => (log ??= (builds++, ChangeLog.of(editions))),
    keys: { verify: (key) => (key === KEY ? { id: "k", slot: 0, rateLimit: 1_000_000 } : undefined) },
    buckets: new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS),
    registrationBuckets: new TokenBuckets(0, REGISTRATION_SLOTS),
    ownerBuckets: new TokenBuckets(KEY_SLOTS, 1),
    now: () => Date.parse("2026-11-22T12:00:00Z"),
    responseCacheBytes: 1_000_000,
    corsOrigins: [],
    isDraining: () => false,
    maxBodyBytes: 65_536,
  });
  const status = async (url: string) => (await dispatcher.dispatch(request(url)) as Outgoing).status;

  for (const url of ["/ready", "/health", "/api/health", "/api/versions", "/api/players?limit=5", "/api/teams", "/api/players/search?q=a"]) {
    t.equal(await status(url), 200, `${url} answers`);
  }
  t.equal(builds, 0, "no route but the change routes built the log");
  t.equal(await status("/api/changes?since=0"), 200, "/api/changes answers");
  t.equal(builds, 1, "/api/changes built it, once");
  t.equal(await status("/api/changes?since=0&limit=1"), 200, "a second read");
  t.equal(builds, 1, "and reused it");
});
