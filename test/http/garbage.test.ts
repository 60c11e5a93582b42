import t from "tap";
import { startHarness } from "./harness.js";
import { garbageRequests, sendRaw } from "../fixtures/garbage.js";

t.test("thousands of generated hostile requests get valid envelopes, never a 500 or a crash", async (t) => {
  // Heads up to 256 KiB (MAX_HEADERS_KB, 16 by default): the 60 and 120 KB segments reach the
  // handlers, whose bounds are what this measures (the 431 past the limit: ops/hostile.test.ts).
  const h = await startHarness({ env: { MAX_HEADERS_KB: "256" } });
  t.teardown(() => h.close());
  const next = garbageRequests(1234, h.key);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let sent = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (sent < 3000) {
      sent++;
      const outcome = await sendRaw(h.service.port, next());
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.status >= 500 || outcome.status === -1 || !outcome.isValid) failures.push(`${outcome.method} ${outcome.target.slice(0, 100)} → ${outcome.status}`);
      // Only a method uWS's parser does not know may end without an answer.
      if (outcome.status === 0 && outcome.method !== "BREW") failures.push(`${outcome.method} ${outcome.target.slice(0, 100)} → no answer`);
    }
  }));
  t.same(failures.slice(0, 20), [], "every answer a valid envelope, no 5xx");
  t.ok((statuses.get(400) ?? 0) > 300, `many 400s (${JSON.stringify([...statuses])})`);
  t.ok((statuses.get(200) ?? 0) > 20, "and real answers among them");
  t.equal((await fetch(`${h.base}/health`)).status, 200, "the server is still up");
});

t.test("parameter names that are Object members are unknown parameters, not crashes", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
    const { status, body } = await h.json(`/api/players?${name}=1`);
    t.equal(status, 400, name);
    t.equal(body.error.code, "UNKNOWN_PARAMETERS", name);
  }
  const fields = await h.json("/api/players?fields=name,constructor");
  t.equal(fields.status, 400);
  t.equal(fields.body.error.details.parameter, "fields");
});
