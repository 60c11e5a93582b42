import { fileURLToPath } from "node:url";
import { join } from "node:path";
import t from "tap";
import { importError } from "./import-error-of.js";
import { importFiles } from "../../src/pipeline/import.js";
import { ERA_CODE } from "../../src/model/eras.js";
import { playerId, type PlayerRecord } from "../../src/model/player.js";

const capturedAt = "2026-06-01T00:00:00.000Z";
const real = (name: string): string => fileURLToPath(new URL(`../../../shared/realdata/${name}`, import.meta.url));
const CURRENT = real("2k26-curr.csv");
const ALL_TIME = real("2k26-allt.csv");
const SAMPLE = real("2k26-api-export-sample.json");

const HEADER = ",name,team,position_1,overall";


const bySlug = (records: readonly PlayerRecord[], slug: string): PlayerRecord | undefined =>
  records.find((record) => record.slug === slug);

t.test("the three real files merge into one list, repeated players counted once", async (t) => {
  const records = importFiles([CURRENT, ALL_TIME, SAMPLE], { capturedAt });
  // 457 + 461 + 63, less the 28 sample records already in a scrape on the same team, less the
  // 4 current players the later sample shows traded (DeRozan, Ellis, Huerter, Johnson).
  t.equal(records.length, 949);
  t.equal(new Set(records.map((record) => `${record.teamType}/${record.slug}`)).size, 949, "slugs are unique per era");
  t.equal(new Set(records.map((record) => record._id)).size, 949, "ids are unique");
});

t.test("a player given twice on the same team keeps the later input's row", async (t) => {
  const jsonLast = bySlug(importFiles([ALL_TIME, SAMPLE], { capturedAt }), "hakeem-olajuwon-all-time-houston-rockets");
  t.equal(jsonLast?.badges.list, undefined, "the API sample came last: counts and top only");
  t.equal(jsonLast?.attributes.intangibles, undefined);
  const csvLast = bySlug(importFiles([SAMPLE, ALL_TIME], { capturedAt }), "hakeem-olajuwon-all-time-houston-rockets");
  t.equal(csvLast?.badges.list?.length, 19, "the scrape came last: the full list");
  t.equal(csvLast?.attributes.intangibles, 70);
});

t.test("output is sorted by era, then team, then name", async (t) => {
  const records = importFiles([SAMPLE, ALL_TIME, CURRENT], { capturedAt });
  const sorted = [...records].sort((a, b) => ERA_CODE[a.teamType] - ERA_CODE[b.teamType]
    || (a.team < b.team ? -1 : a.team > b.team ? 1 : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  t.same(records.map((record) => record.slug), sorted.map((record) => record.slug));
  t.equal(records[0]?.teamType, "curr");
  t.equal(records[0]?.team, "Atlanta Hawks");
  t.equal(records.at(-1)?.teamType, "allt");
  t.same(importFiles([CURRENT, SAMPLE], { capturedAt }).map((r) => r._id),
    importFiles([CURRENT, SAMPLE], { capturedAt }).map((r) => r._id), "two builds give the same order");
});

t.test("a later duplicate row in another file replaces the earlier one", async (t) => {
  const dir = t.testdir({
    "old.csv": `${HEADER}\n0,Test Player,Boston Celtics,PG,70\n`,
    "new.csv": `${HEADER}\n0,Test  Player,Boston Celtics,PG,74\n`,
  });
  const records = importFiles([join(dir, "old.csv"), join(dir, "new.csv")], { capturedAt });
  t.equal(records.length, 1);
  t.equal(records[0]?.overall, 74);
  t.equal(records[0]?.slug, "test-player");
});

t.test("a later JSON row of the same player on its team spelt with other spacing replaces the earlier one, kept as given", async (t) => {
  const dir = t.testdir({
    "scrape.csv": `${HEADER}\n0,Test Player,Boston Celtics,PG,70\n`,
    "api.json": JSON.stringify([{ name: "Test Player ", team: "Boston  Celtics", overall: 74, positions: ["pg"] }]),
  });
  const records = importFiles([join(dir, "scrape.csv"), join(dir, "api.json")], { capturedAt });
  t.equal(records.length, 1);
  t.same([records[0]?.name, records[0]?.team, records[0]?.positions, records[0]?.overall], ["Test Player ", "Boston  Celtics", ["pg"], 74]);
  t.equal(records[0]?._id, playerId("curr", "Boston Celtics", "test-player"), "the id the team spaced once makes");
});

t.test("a name with and without accents on the same team is one player", async (t) => {
  const dir = t.testdir({
    "scrape.csv": `${HEADER}\n0,Nikola Jokic,Denver Nuggets,C,98\n`,
    "api.json": JSON.stringify([{ name: "Nikola Jokić", team: "Denver Nuggets", overall: 97, positions: ["C"] }]),
  });
  const records = importFiles([join(dir, "scrape.csv"), join(dir, "api.json")], { capturedAt });
  t.equal(records.length, 1);
  t.equal(records[0]?.name, "Nikola Jokić");
  t.equal(records[0]?.overall, 97);
});

t.test("different players sharing a slug in one era get -2, -3 on the later ones, with fresh ids", async (t) => {
  const dir = t.testdir({
    "a.csv": `${HEADER}\n0,Marcus Williams,Boston Celtics,PG,70\n1,Marcus Williams,Utah Jazz,SF,72\n2,Marcus Williams,Miami Heat,C,68\n`,
    "b.csv": `${HEADER}\n0,Marcus Williams,Utah Jazz,SF,75\n`,
  });
  const records = importFiles([join(dir, "a.csv"), join(dir, "b.csv")], { capturedAt });
  t.same(records.map((record) => [record.team, record.slug, record.overall]), [
    ["Boston Celtics", "marcus-williams", 70],
    ["Miami Heat", "marcus-williams-3", 68],
    ["Utah Jazz", "marcus-williams-2", 75],
  ], "the repeated Utah row replaces its own record and keeps -2");
  const miami = records[1];
  t.equal(miami?._id, playerId("curr", "Miami Heat", "marcus-williams-3"));
  t.equal(new Set(records.map((record) => record._id)).size, 3);
});

t.test("the same slug in different eras is no collision", async (t) => {
  const dir = t.testdir({
    "a.json": JSON.stringify([
      { name: "A", slug: "same", team: "Boston Celtics", teamType: "curr", overall: 70, positions: ["PG"] },
      { name: "B", slug: "same", team: "All-Time Boston Celtics", teamType: "allt", overall: 80, positions: ["PG"] },
    ]),
  });
  t.same(importFiles([join(dir, "a.json")], { capturedAt }).map((record) => record.slug), ["same", "same"]);
});

t.test("a player traded between two real snapshots stands only on the later snapshot's team", async (t) => {
  const records = importFiles([CURRENT, SAMPLE], { capturedAt });
  t.same(records.filter((record) => record.name === "DeMar DeRozan").map((record) => [record.team, record.slug]), [
    ["Free Agency", "demar-derozan"],
  ]);
  t.equal(records.filter((record) => record.slug.startsWith("demar-derozan")).length, 1);
});

t.test("namesakes within one input stay distinct; a later input's single namesake replaces one only when unambiguous", async (t) => {
  const dir = t.testdir({
    "a.csv": `${HEADER}\n0,Jalen Green,Houston Rockets,SG,80\n`,
    "b.csv": `${HEADER}\n0,Jalen Green,Phoenix Suns,SG,81\n`,
  });
  const records = importFiles([join(dir, "a.csv"), join(dir, "b.csv")], { capturedAt });
  t.same(records.map((record) => [record.team, record.slug, record.overall]), [["Phoenix Suns", "jalen-green", 81]]);
  t.equal(records[0]?._id, playerId("curr", "Phoenix Suns", "jalen-green"));
});

t.test("a file that is neither .csv nor .json is refused by name", async (t) => {
  const dir = t.testdir({ "players.xlsx": "x" });
  const error = importError(() => importFiles([join(dir, "players.xlsx")], { capturedAt }));
  t.equal(error.file, join(dir, "players.xlsx"));
  t.equal(error.line, undefined);
  t.match(error.reason, /\.xlsx.*\.csv or \.json/);
});

t.test("a file that cannot be read is refused by name", async (t) => {
  const dir = t.testdir({});
  const error = importError(() => importFiles([join(dir, "missing.csv")], { capturedAt }));
  t.equal(error.file, join(dir, "missing.csv"));
  t.match(error.reason, /cannot read.*ENOENT/);
});

t.test("a bad row in any input stops the whole import with that file's name", async (t) => {
  const dir = t.testdir({
    "good.csv": `${HEADER}\n0,A,Boston Celtics,PG,70\n`,
    "bad.csv": `${HEADER}\n0,B,Boston Celtics,PG,70\n1,C,Boston Celtics,XX,70\n`,
  });
  const error = importError(() => importFiles([join(dir, "good.csv"), join(dir, "bad.csv")], { capturedAt }));
  t.equal(error.file, join(dir, "bad.csv"));
  t.equal(error.line, 3);
  t.equal(error.field, "position_1");
});

t.test("two rows of one edition with one id are refused with the file, the row and the id", async (t) => {
  const dir = t.testdir({
    "a.json": JSON.stringify([
      { _id: "j1234567890abcdef", name: "A One", team: "Boston Celtics", overall: 70, positions: ["PG"] },
      { _id: "j1234567890abcdef", name: "B Two", team: "Boston Celtics", overall: 71, positions: ["SG"] },
    ]),
  });
  const error = importError(() => importFiles([join(dir, "a.json")], { capturedAt }));
  t.equal(error.file, join(dir, "a.json"));
  t.equal(error.field, "_id");
  t.match(error.reason, /row 2 \(b-two\): the id j1234567890abcdef is already row 1's/);
});

t.test("a kept id survives a slug made unique", async (t) => {
  const dir = t.testdir({
    "a.json": JSON.stringify([
      { _id: "jfirst0000000001", name: "Marcus Williams", team: "Boston Celtics", overall: 70, positions: ["PG"] },
      { _id: "jsecond000000002", name: "Marcus Williams", team: "Utah Jazz", overall: 72, positions: ["SF"] },
    ]),
  });
  const records = importFiles([join(dir, "a.json")], { capturedAt });
  t.same(records.map((record) => [record.slug, record._id]), [["marcus-williams", "jfirst0000000001"], ["marcus-williams-2", "jsecond000000002"]]);
});
