import t from "tap";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { importFiles } from "../../src/pipeline/import.js";
import { importJson } from "../../src/pipeline/import-json.js";
import { ImportReport, settleSlugs } from "../../src/pipeline/import-report.js";
import { playerId } from "../../src/model/player.js";

const capturedAt = "2026-06-01T00:00:00.000Z";
const row = (fields: Record<string, unknown>): Record<string, unknown> => ({ team: "Boston Celtics", overall: 80, positions: ["PG"], ...fields });

t.test("a source's slug is never changed, however many rows share it; a slug we made that is taken gets a suffix, even from a later row's source slug", async (t) => {
  const report = new ImportReport();
  const records = importJson("x.json", JSON.stringify([
    row({ name: "Anthony Davis", team: "Dallas Mavericks" }),
    row({ _id: "jaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", name: "Anthony Davis", slug: "anthony-davis", team: "Washington Wizards" }),
    row({ _id: "jbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", name: "Anthony Davis", slug: "anthony-davis", team: "Los Angeles Lakers" }),
    row({ name: "Marcus Smart", slug: "Not A Slug\u202e" }),
    row({ name: "Marcus Smart", team: "Utah Jazz" }),
  ]), { capturedAt, report });
  const settled = settleSlugs(records, report);
  t.same(settled.map((record) => [record.team, record.slug]), [
    ["Dallas Mavericks", "anthony-davis-2"],
    ["Washington Wizards", "anthony-davis"],
    ["Los Angeles Lakers", "anthony-davis"],
    ["Boston Celtics", "marcus-smart"],
    ["Utah Jazz", "marcus-smart-2"],
  ]);
  t.equal(settled[0]?._id, playerId("curr", "Dallas Mavericks", "anthony-davis-2"), "a generated id follows its slug");
  t.equal(settled[1]?._id, "jaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a source's id is kept");
  t.same(report.suffixed, [{ from: "anthony-davis", to: "anthony-davis-2" }, { from: "marcus-smart", to: "marcus-smart-2" }]);
  t.same(report.lines(settled), [
    "5 rows",
    "1 slug on two rows, kept (the slug route answers the first, meta.variants names the others)",
    "3 rows had no slug: generated; 1 source slug no URL can hold replaced (\"Not A Slug\\u{202e}\")",
    "2 generated slugs were already taken, suffixed (anthony-davis → anthony-davis-2, marcus-smart → marcus-smart-2)",
    "5 rows have no gameVersion (served with the edition's)",
    "5 rows have no ratingHistory (served with the editions we hold)",
  ]);
});

t.test("the report counts repeated badge lists, partial second passes and counts that differ from their list", async (t) => {
  const report = new ImportReport();
  const list = [{ name: "Deadeye", tier: "Gold" }, { name: "Glove", tier: "Bronze" }];
  const records = importJson("x.json", JSON.stringify([
    row({ name: "A", slug: "a", gameVersion: "2K26", ratingHistory: [], badges: { list: [...list, ...list] } }),
    row({ name: "B", slug: "b", gameVersion: "2K26", ratingHistory: [], badges: { list: [...list, list[0]] } }),
    row({ name: "C", slug: "c", gameVersion: "2K26", ratingHistory: [{ gameVersion: "2K26", overall: 80 }], badges: { total: 3, gold: 1, bronze: 1, list } }),
  ]), { capturedAt, report });
  t.same(report.lines(records), [
    "3 rows",
    "2 badge lists repeat entries (1 each badge twice, 1 only some), kept; each badge counted once per player",
    "1 badge count differs from the badges its list names, kept as stated",
    "2 ratingHistory lists are [], kept",
  ]);
});

t.test("importFiles reports into the report it is given: rows replaced by a later input, slugs generated", async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, "old.csv"), ",name,team,position_1,overall\n0,Test Player,Boston Celtics,PG,70\n");
  writeFileSync(join(dir, "new.csv"), ",name,team,position_1,overall\n0,Test Player,Boston Celtics,PG,74\n");
  const report = new ImportReport();
  const records = importFiles([join(dir, "old.csv"), join(dir, "new.csv")], { capturedAt, report });
  t.equal(records.length, 1);
  const lines = report.lines(records);
  t.ok(lines.includes("1 row replaced an earlier row of the same player (given again, or traded since)"), lines.join("\n"));
  t.ok(lines.includes("1 row had no slug: generated"), "a scrape's slugs are ours");
});

t.test("two rows of one input with distinct ids of the source's are two rows, even on one team with one name", async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, "a.json"), JSON.stringify([
    row({ _id: "jfirst0000000001", name: "Marcus Williams", slug: "marcus-williams" }),
    row({ _id: "jsecond000000002", name: "Marcus Williams", slug: "marcus-williams" }),
  ]));
  const records = importFiles([join(dir, "a.json")], { capturedAt });
  t.same(records.map((record) => [record._id, record.slug]), [["jfirst0000000001", "marcus-williams"], ["jsecond000000002", "marcus-williams"]]);
});
