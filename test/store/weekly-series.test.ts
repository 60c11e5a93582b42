import t from "tap";
import { ATTRIBUTE_COUNT, ABSENT_RATING } from "../../src/model/attributes.js";
import { REGISTRY_CATALOGUE } from "../../src/model/catalogue.js";
import { slotsOfRows, WeeklySeries, type HistoryPayload } from "../../src/store/weekly-series.js";
import { buildStringTable } from "../../src/store/string-table.js";

/** Three players over four weekly snapshots; c is absent in week 2. */
const dates = ["2026-10-30", "2026-11-06", "2026-11-13", "2026-11-20"];
const overalls: Record<string, (number | undefined)[]> = { a: [80, 81, 83, 83], b: [70, 70, 68, 69], c: [90, 92, undefined, 95] };
const ids = Object.keys(overalls);
const history: HistoryPayload = {
  ids: buildStringTable(ids),
  indexOfRow: Int32Array.from([2, 0, 1]),
  weeks: dates.map((date, w) => ({
    date,
    overall: Uint8Array.from(ids, (id) => overalls[id]![w] ?? ABSENT_RATING),
    attributes: new Uint8Array(ids.length * ATTRIBUTE_COUNT).fill(ABSENT_RATING),
    badgeCounts: new Uint8Array(ids.length * 6),
  })),
};
// Rows: c, a, b (row order differs from history order); name ranks a < b < c.
const rowOf = new Map([["c", 0], ["a", 1], ["b", 2]]);
const series = new WeeklySeries(history.weeks, slotsOfRows(history, 3, (id) => rowOf.get(id)), Uint32Array.from([2, 0, 1]), REGISTRY_CATALOGUE);

t.test("rows find their history slot", async (t) => {
  t.same([...series.slotOfRow], [2, 0, 1]);
});

t.test("a window counts the weeks dated within the last `days` days, against the week before", async (t) => {
  const week = series.window(7);
  t.same(series.dates(week), { from: "2026-11-13", to: "2026-11-20" });
  t.same([...week.rows], [2], "only b moved in the last week (+1); c has no baseline that week");
  t.same([...week.totalDelta], [1]);
  const three = series.window(21);
  t.same(series.dates(three), { from: "2026-10-30", to: "2026-11-20" });
  // a: +1, +2 = 3 (2 changes); b: -2, +1 = -1 (2 changes); c: +2 only (the weeks around its absence do not count).
  t.same([...three.rows], [1, 0, 2], "by |total| desc, then name");
  t.same([...three.totalDelta], [3, 2, -1]);
  t.same([...three.changes], [2, 1, 2]);
  t.equal(series.window(90), three, "windows reaching past the first week are the same window");
  t.equal(series.window(8), series.window(13), "days that cover the same weeks share a window");
});

t.test("values are undefined where the player was absent", async (t) => {
  const slot = series.slotOfRow[0]!;
  t.same(series.weeks.map((week) => series.value(week, slot, -1)), [90, 92, undefined, 95]);
});
