import t from "tap";
import { readBulk, readEditionList, readPlayers } from "../../src/sync/read-answers.js";
import { SyncError } from "../../src/sync/sync-error.js";

const URL = "https://ratings.example.com/api/versions/2K25/players/bulk?era=class";
const envelope = (data: unknown, meta: Record<string, unknown> = {}) => JSON.stringify({ success: true, data, meta });

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SyncError) return error.message;
    throw error;
  }
  return "(no error)";
}

t.test("a bulk answer at the 10,000-row cap with a larger meta.total is refused, never truncated", async (t) => {
  const rows = new Array(10_000).fill({});
  t.equal(
    reasonOf(() => readBulk("2K25", URL, envelope(rows, { count: 10_000, total: 12_345 }))),
    `2K25: ${URL}: the answer holds 10000 of 12345 players: the bulk route stops at 10,000 rows, and a partial copy is refused`,
  );
  t.equal(readBulk("2K25", URL, envelope(rows, { count: 10_000, total: 10_000 })).rows.length, 10_000, "exactly at the cap is whole");
});

t.test("a bulk answer of more than 10,000 rows is refused before any row is read, whatever its counts say", async (t) => {
  const rows = new Array(10_001).fill({});
  t.equal(
    reasonOf(() => readBulk("2K25", URL, envelope(rows, { count: 10_001, total: 10_001 }))),
    `2K25: ${URL}: the answer holds 10,001 rows, more than the 10,000 a bulk answer may hold; refused, not read`,
  );
});

t.test("a bulk answer's own counts must agree with its rows", async (t) => {
  t.match(reasonOf(() => readBulk("2K25", URL, envelope([{}, {}], { count: 3 }))), /meta.count says 3 rows, data holds 2/);
  t.match(reasonOf(() => readBulk("2K25", URL, envelope([{}, {}], { total: 1 }))), /holds 2 players, more than the 1/);
  t.match(reasonOf(() => readBulk("2K25", URL, envelope([{}], { pagination: { total: 1, hasMore: true } }))), /has more pages/);
  t.match(reasonOf(() => readBulk("2K25", URL, envelope([{}], { pagination: { total: 2 } }))), /holds 1 of the 2 players/, "pagination.total counts when total is absent");
  t.same(readBulk("2K25", URL, envelope([{}])).rows, [{}], "no counts at all: nothing to hold it against");
  t.match(reasonOf(() => readBulk("2K25", URL, JSON.stringify({ data: [] }))), /not an API envelope \(success is not true\)/);
  t.match(reasonOf(() => readBulk("2K25", URL, envelope({}))), /data is not a list of players/);
});

t.test("a row of another era than the one asked is inconsistent", async (t) => {
  const row = { name: "Ann Example", team: "Boston Celtics", teamType: "curr", overall: 80, positions: ["PG"] };
  t.match(reasonOf(() => readPlayers("2K25", URL, [row], "class", "2025-09-01T00:00:00.000Z")), /row 0 has teamType curr in an answer for era class/);
  t.equal(readPlayers("2K25", URL, [row], "all", "2025-09-01T00:00:00.000Z")[0]?.lastUpdated, "2025-09-01T00:00:00.000Z");
});

t.test("the edition list: absent fields tolerated, status from meta.current, exactly one current", async (t) => {
  const list = readEditionList(URL, envelope([{ gameVersion: "2k26" }, { version: "2K25" }], { current: "2K26" }));
  t.same(list, [
    { gameVersion: "2K26", status: "current", playerCount: undefined, teamTypeCounts: {}, capturedAt: undefined, source: undefined },
    { gameVersion: "2K25", status: "archived", playerCount: undefined, teamTypeCounts: {}, capturedAt: undefined, source: undefined },
  ]);
  t.match(reasonOf(() => readEditionList(URL, envelope([{ gameVersion: "2K26", status: "archived" }]))), /lists 0 current editions \(none\)/);
  t.match(reasonOf(() => readEditionList(URL, envelope([{ gameVersion: "2K26", status: "current" }, { gameVersion: "2K26", status: "archived" }]))), /lists 2K26 twice/);
  t.match(reasonOf(() => readEditionList(URL, envelope([{ gameVersion: "NBA 2K26", status: "current" }]))), /no gameVersion shaped 2K/);
  t.match(reasonOf(() => readEditionList(URL, envelope([{ gameVersion: "2K26" }]))), /2K26 has no status current or archived/);
  t.match(reasonOf(() => readEditionList(URL, JSON.stringify({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: "draining" } }))), /success: false SERVICE_UNAVAILABLE: draining/);
});
