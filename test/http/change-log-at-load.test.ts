// The change log (store/change-log.ts) is built from the weekly history of every player, which
// costs a thread hundreds of milliseconds on the demo data: it is derived when the editions are
// loaded, before the service listens, and never by a request (the first /api/changes of a worker
// used to build it: 252 ms in issue 40's probe). The real service over a fixture data directory;
// ChangeLog.of is counted where the service calls it.

import t from "tap";
import { ChangeLog } from "../../src/store/change-log.js";
import { startHarness } from "./harness.js";

t.test("the change log is built at load, before the first request, and no request builds it", async (t) => {
  const of = ChangeLog.of;
  let builds = 0;
  ChangeLog.of = (set) => {
    builds++;
    return of.call(ChangeLog, set);
  };
  t.teardown(() => {
    ChangeLog.of = of;
  });
  const h = await startHarness();
  t.teardown(() => h.close());
  t.equal(builds, 1, "built once while the service started");
  const atLoad = h.service.changes();
  t.ok(atLoad instanceof ChangeLog, "and the service holds it before it is asked");

  for (const url of ["/ready", "/health", "/api/health", "/api/versions", "/api/players?limit=5", "/api/teams", "/api/players/search?q=a"]) {
    t.equal((await h.get(url)).status, 200, `${url} answers`);
  }
  const first = await h.json("/api/changes?since=0&limit=1");
  t.equal(first.status, 200, "/api/changes answers");
  t.equal(first.body.meta.newestSequence, atLoad.newestSequence, "from the log built at load");
  t.equal((await h.get("/api/changes?since=0&limit=2")).status, 200, "a second read");
  t.equal(builds, 1, "no request built the log");
  t.equal(h.service.changes(), atLoad, "the same log object serves every request");
});
