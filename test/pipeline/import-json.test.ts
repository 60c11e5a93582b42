import { readFileSync } from "node:fs";
import t from "tap";
import { importError } from "./import-error-of.js";
import { importJson } from "../../src/pipeline/import-json.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { isPlayerRecord } from "../../src/model/schemas.js";

const capturedAt = "2026-06-01T00:00:00.000Z";
const sampleText = readFileSync(new URL("../../../shared/realdata/2k26-api-export-sample.json", import.meta.url), "utf8");
const sample = importJson("sample.json", sampleText, { capturedAt });


function find(records: readonly PlayerRecord[], slug: string): PlayerRecord {
  const found = records.find((record) => record.slug === slug);
  if (found === undefined) throw new Error(`no record ${slug}`);
  return found;
}

const player = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: "Test Player", team: "Boston Celtics", overall: 80, positions: ["PG"], ...fields,
});

t.test("the API-shaped sample reads as 63 valid records", async (t) => {
  t.equal(sample.length, 63);
  t.ok(sample.every((record) => isPlayerRecord(record)), "all pass the player schema");
  t.same(
    [sample.filter((r) => r.teamType === "curr").length, sample.filter((r) => r.teamType === "class").length,
      sample.filter((r) => r.teamType === "allt").length],
    [14, 31, 18],
  );
});

t.test("Hakeem Olajuwon keeps every value of the source, cats mapped to group scores", async (t) => {
  const hakeem = find(sample, "hakeem-olajuwon-all-time-houston-rockets");
  t.equal(hakeem.name, "Hakeem Olajuwon");
  t.equal(hakeem.team, "All-Time Houston Rockets");
  t.equal(hakeem.teamType, "allt");
  t.equal(hakeem.overall, 99);
  t.same(hakeem.positions, ["C", "PF"]);
  t.equal(hakeem.height, "7'0\"");
  t.equal(hakeem.weight, "255 lbs");
  t.equal(hakeem.wingspan, "7'3\"");
  t.equal(hakeem.college, "Houston");
  t.equal(hakeem.teamImg, "https://www.2kratings.com/wp-content/uploads/Houston-Rockets-Current-Logo.svg");
  t.equal(hakeem.playerImage, "https://www.2kratings.com/wp-content/uploads/Hakeem-Olajuwon-1.png");
  t.equal(hakeem.lastUpdated, capturedAt);
  t.strictSame(hakeem.attributes, {
    closeShot: 98, midRangeShot: 89, threePointShot: 71, freeThrow: 78, shotIQ: 98, offensiveConsistency: 98,
    speed: 65, agility: 57, strength: 92, vertical: 60, stamina: 95, hustle: 79, durability: 92,
    drivingLayup: 82, standingDunk: 95, drivingDunk: 75, postHook: 98, postFade: 98, postControl: 99, drawFoul: 95, hands: 97,
    passAccuracy: 68, ballHandle: 61, speedWithBall: 26, passIQ: 82, passVision: 63,
    interiorDefense: 99, perimeterDefense: 57, steal: 65, block: 95, helpDefenseIQ: 98, passPerception: 98, defensiveConsistency: 98,
    offensiveRebound: 95, defensiveRebound: 98,
    outsideScoring: 87, athleticism: 75, insideScoring: 94, playmaking: 60, defending: 87, rebounding: 97,
  });
  t.strictSame(hakeem.badges, {
    total: 19, legendary: 2, hallOfFame: 3, gold: 11, silver: 1, bronze: 2,
    top: [{ name: "Post Lockdown", tier: "Legendary" }, { name: "Post-Up Poet", tier: "Legendary" }, { name: "Brick Wall", tier: "Hall of Fame" }],
  });
  t.equal(hakeem._id.length, 24);
});

t.test("the source's own slugs are kept even where ours would differ", async (t) => {
  t.equal(find(sample, "lebron-james-12-13-miami-heat").team, "2012-13 Miami Heat");
  t.equal(find(sample, "jj-barea-2010-11-dallas-mavericks").name, "J.J. Barea");
});

t.test("a record with no badges has zero counts and no top", async (t) => {
  const small = find(sample, "javon-small");
  t.strictSame(small.badges, { total: 0, legendary: 0, hallOfFame: 0, gold: 0, silver: 0, bronze: 0 });
});

t.test("an envelope whose data is the array reads like the bare array", async (t) => {
  const envelope = `{"success":true,"meta":{"pages":[{"n":1}]},"data":${sampleText}}`;
  t.same(importJson("env.json", envelope, { capturedAt }), sample);
});

t.test("a missing or invalid slug or teamType is derived from name and team", async (t) => {
  const [derived, invalid] = importJson("x.json", JSON.stringify([
    player({ name: "Michael Jordan", team: "1995-96 Chicago Bulls" }),
    player({ name: "Michael Jordan", team: "All-Time Chicago Bulls", slug: "Not A Slug", teamType: "legends" }),
  ]), { capturedAt });
  t.equal(derived?.teamType, "class");
  t.equal(derived?.slug, "michael-jordan-1995-96-chicago-bulls");
  t.equal(invalid?.teamType, "allt");
  t.equal(invalid?.slug, "michael-jordan-all-time-chicago-bulls");
});

// docs/compatibility.md#fidelity-rules: a badge list keeps the source's order (it was rewritten into catalogue order before);
// docs/data.md#source-values-kept-exactly: nothing is filled into its entries (the catalogue knows a badge's category).
t.test("a badge list a record carries is kept in its own order and fills counts and top", async (t) => {
  const [record] = importJson("x.json", JSON.stringify([player({
    badges: { list: [{ name: "Brick Wall", tier: "Gold" }, { name: "Deadeye", tier: "hof" }] },
  })]), { capturedAt });
  t.strictSame(record?.badges, {
    total: 2, legendary: 0, hallOfFame: 1, gold: 1, silver: 0, bronze: 0,
    list: [
      { name: "Brick Wall", slug: "brick-wall", tier: "Gold" },
      // docs/data.md#source-values-kept-exactly: the tier as written; the counts and the top we derive read it as Hall of Fame.
      { name: "Deadeye", slug: "deadeye", tier: "hof" },
    ],
    top: [{ name: "Deadeye", tier: "Hall of Fame" }, { name: "Brick Wall", tier: "Gold" }],
  });
});

// docs/data.md#source-values-kept-exactly: a hosted list names every badge twice (by tier, then by category, sometimes only
// partly); it is kept whole, its counts are the source's, and a count it leaves out counts each badge once.
t.test("a badge list that names badges twice is kept whole, names as spelled; counts as stated, missing ones counted once per badge", async (t) => {
  const list = [
    { category: "Outside Scoring", name: "Deadeye", tier: "Hall of Fame" },
    { category: "Playmaking", name: "Handles For Days", tier: "Gold", description: "Less energy", imageUrl: "https://x.example/h.png", rank: 3 },
    { category: "Defense", name: "Glove", tier: "Bronze" },
    { category: "Defense", name: "Glove", tier: "Bronze" },
    { category: "Outside Scoring", name: "Deadeye", tier: "Hall of Fame" },
    { category: "Playmaking", name: "Handles For Days", tier: "Gold", description: "Less energy", imageUrl: "https://x.example/h.png", rank: 3 },
  ];
  const [stated, counted] = importJson("x.json", JSON.stringify([
    player({ badges: { total: 3, legendary: 0, hallOfFame: 1, gold: 1, silver: 0, bronze: 1, list } }),
    player({ name: "Other Player", badges: { list: list.slice(0, 5) } }),
  ]), { capturedAt });
  t.same(stated?.badges.list?.map(({ slug: _slug, ...entry }) => entry), list, "every entry as it came, repeats and unknown keys included");
  t.same(stated?.badges.list?.map((entry) => entry.slug), ["deadeye", "handles-for-days", "glove", "glove", "deadeye", "handles-for-days"], "our slug beside each");
  t.same([stated?.badges.total, stated?.badges.hallOfFame, stated?.badges.gold, stated?.badges.bronze], [3, 1, 1, 1]);
  t.same(stated?.badges.top, [{ name: "Deadeye", tier: "Hall of Fame" }, { name: "Handles For Days", tier: "Gold" }, { name: "Glove", tier: "Bronze" }], "top names each badge once, as spelled");
  t.same([counted?.badges.total, counted?.badges.hallOfFame, counted?.badges.gold, counted?.badges.bronze], [3, 1, 1, 1], "counts the source left out: each badge once");
  t.equal(counted?.badges.list?.length, 5, "a partial second pass is kept as it is");
});

t.test("invalid JSON names the line of the syntax error", async (t) => {
  const text = '[\n  {"name": "A", "team": "Boston Celtics", "overall": 80, "positions": ["PG"]},\n  {"name": "B", "overall": }\n]\n';
  const error = importError(() => importJson("bad.json", text, { capturedAt }));
  t.equal(error.file, "bad.json");
  t.equal(error.line, 3);
  t.equal(error.field, undefined);
  t.match(error.reason, /not valid JSON/);
});

t.test("a trailing comma and a truncated file point at a line the file has", async (t) => {
  const trailing = importError(() => importJson("x.json", '[\n  {"name": "A",},\n  {}\n]', { capturedAt }));
  t.equal(trailing.line, 2);
  const truncated = importError(() => importJson("x.json", '[\n  {"name": "A",\n   "team": "Bost', { capturedAt }));
  t.equal(truncated.line, 3);
  t.match(truncated.reason, /not valid JSON/);
});

t.test("a record with a bad position names the line where that record starts and the field path", async (t) => {
  const records = JSON.parse(sampleText) as Record<string, unknown>[];
  // docs/data.md#source-values-kept-exactly: a position spelled otherwise ("Forward") is kept as given; an entry that is no text is refused.
  const broken = records.map((record, i) => (i === 4 ? { ...record, positions: ["SF", 7] } : record));
  const text = JSON.stringify(broken, null, 2);
  const name = text.indexOf('"name": "LeBron James"');
  const expectedLine = text.slice(0, name).split("\n").length - 1; // the `{` line just above the name
  const error = importError(() => importJson("pretty.json", text, { capturedAt }));
  t.equal(error.file, "pretty.json");
  t.equal(error.line, expectedLine);
  t.equal(error.field, "positions[1]");
  t.match(error.reason, /7 is not text/);
  const kept = importJson("pretty.json", JSON.stringify(records.map((record, i) => (i === 4 ? { ...record, positions: ["SF", "Forward"] } : record))), { capturedAt });
  t.same(kept[4]?.positions, ["SF", "Forward"], "a position we do not know is kept as given");
});

t.test("a record inside an envelope is located inside data, not in other arrays", async (t) => {
  const text = [
    "{",
    '  "meta": {"data": [{"name": "decoy"}, {"name": "decoy"}]},',
    '  "data": [',
    `    ${JSON.stringify(player())},`,
    `    ${JSON.stringify(player({ name: "Other", attributes: { steal: 120 } }))}`,
    "  ]",
    "}",
  ].join("\n");
  const error = importError(() => importJson("env.json", text, { capturedAt }));
  t.equal(error.line, 5);
  t.equal(error.field, "attributes.steal");
  t.equal(error.reason, "120 is not an integer from 0 to 99");
});

t.test("a record without a name is refused", async (t) => {
  const text = `[\n${JSON.stringify(player())},\n${JSON.stringify(player({ name: undefined }))}\n]`;
  const error = importError(() => importJson("x.json", text, { capturedAt }));
  t.equal(error.line, 3);
  t.equal(error.field, "name");
  t.match(error.reason, /name is missing/);
});

// docs/compatibility.md#fidelity-rules: an edition's attribute keys come from its data, so a camelCase key outside the demo
// catalogue is kept (it was refused before); a key that is no camelCase name, or a value outside
// 0–99, is still refused, and so is an unknown cats abbreviation.
t.test("an attribute key outside the catalogue is kept; a malformed key or cats key is refused", async (t) => {
  const [kept] = importJson("x.json", JSON.stringify([player({ attributes: { clutch: 90, closeShot: 70 } })]), { capturedAt });
  t.same(kept?.attributes, { closeShot: 70, clutch: 90 });
  const attribute = importError(() => importJson("x.json", JSON.stringify([player({ attributes: { "clutch-time": 90 } })]), { capturedAt }));
  t.equal(attribute.field, "attributes.clutch-time");
  t.equal(attribute.line, 1);
  const value = importError(() => importJson("x.json", JSON.stringify([player({ attributes: { clutch: 100 } })]), { capturedAt }));
  t.equal(value.field, "attributes.clutch");
  const cats = importError(() => importJson("x.json", JSON.stringify([player({ cats: { mid: 90 } })]), { capturedAt }));
  t.equal(cats.field, "cats.mid");
});

// docs/data.md#source-values-kept-exactly: counts are served as the source states them (the build reports a disagreement);
// only a value that is no count is refused.
t.test("badge counts that disagree with their total or list are kept as stated; a count that is no count is refused", async (t) => {
  const [record] = importJson("x.json", JSON.stringify([player({ badges: { gold: 2, total: 3, list: [{ name: "Glove", tier: "Gold" }] } })]), { capturedAt });
  t.same([record?.badges.total, record?.badges.gold], [3, 2]);
  const error = importError(() => importJson("x.json", JSON.stringify([player({ badges: { gold: -1 } })]), { capturedAt }));
  t.equal(error.field, "badges.gold");
  t.match(error.reason, /-1 is not a count/);
});

t.test("a top-level value that holds no records is refused as a whole", async (t) => {
  const error = importError(() => importJson("x.json", '{"players": []}', { capturedAt }));
  t.equal(error.line, undefined);
  t.match(error.reason, /expected an array/);
});

t.test("a hosted row is kept whole: its _id, timestamps, url, history, partial hot zones, badge details and other fields", async (t) => {
  const row = player({
    _id: "j9733j4termyc8t88mx7bppk0n7vg467",
    _creationTime: 1735000000123.25,
    createdAt: "2025-01-01T00:00:00.123Z",
    playerUrl: "https://www.2kratings.com/test-player",
    gameVersion: "2K26",
    teamImg: "",
    ratingHistory: [{ gameVersion: "2K26", overall: 80, delta: 3 }, { gameVersion: "2K25", overall: 77 }],
    hotZones: { leftCornerThree: "hot", paint: "cold" },
    attributes: { closeShot: 70, clutchShooting: 88 },
    badges: { list: [
      { name: "Spark Plug", tier: "Gold", category: "All Around", description: "New", imageUrl: "https://x.example/s.png" },
      { name: "Deadeye", tier: "Bronze", category: "Outside Scoring", description: "Shoots" },
    ] },
    seasonMovement: { start: 78, current: 80 },
    build: "Slasher",
  });
  const [record] = importJson("x.json", JSON.stringify([row]), { capturedAt });
  t.equal(record?._id, "j9733j4termyc8t88mx7bppk0n7vg467", "the source's id is kept");
  t.equal(record?._creationTime, 1735000000123.25, "with its fraction");
  t.equal(record?.createdAt, "2025-01-01T00:00:00.123Z");
  t.equal(record?.playerUrl, "https://www.2kratings.com/test-player");
  t.equal(record?.teamImg, "", "an empty teamImg stays empty");
  t.same(record?.ratingHistory, row["ratingHistory"]);
  t.same(record?.hotZones, { leftCornerThree: "hot", paint: "cold" });
  t.same(record?.attributes, { closeShot: 70, clutchShooting: 88 });
  t.same(record?.badges.list, [
    { name: "Spark Plug", slug: "spark-plug", tier: "Gold", category: "All Around", description: "New", imageUrl: "https://x.example/s.png" },
    { name: "Deadeye", slug: "deadeye", tier: "Bronze", category: "Outside Scoring", description: "Shoots" },
  ], "the source's order, an unknown badge, descriptions and images");
  t.same(record?.extra, { seasonMovement: { start: 78, current: 80 }, build: "Slasher" }, "other fields pass through");
  t.ok(record && isPlayerRecord(record));
});

t.test("a row without _id gets the generated one; without positions it has none; old zone names read as the hosted ones", async (t) => {
  const [plain] = importJson("x.json", JSON.stringify([player({ positions: undefined, hotZones: { leftCorner3: "hot", top3: "neutral" } })]), { capturedAt });
  t.match(plain?._id, /^[0-9a-f]{24}$/);
  t.equal(plain?.positions, undefined);
  t.same(plain?.hotZones, { leftCornerThree: "hot", topKeyThree: "neutral" });
});

// docs/data.md#source-values-kept-exactly: a zone or zone value spelled otherwise (leftCornerFour, warm) is kept as given; only a value that is no text is refused.
t.test("an id no id can have, a bad history, a zone that is no text are refused with their field; a zone spelled otherwise is kept", async (t) => {
  for (const [fields, field] of [
    [{ _id: "has space" }, "_id"],
    [{ _id: "x".repeat(65) }, "_id"],
    [{ _creationTime: "yesterday" }, "_creationTime"],
    [{ ratingHistory: [{ gameVersion: "2K25" }] }, "ratingHistory[0].overall"],
    [{ hotZones: { leftCornerFour: 3 } }, "hotZones.leftCornerFour"],
    [{ hotZones: { paint: ["warm"] } }, "hotZones.paint"],
  ] as const) {
    t.equal(importError(() => importJson("x.json", JSON.stringify([player(fields)]), { capturedAt })).field, field, JSON.stringify(fields));
  }
  const [kept] = importJson("x.json", JSON.stringify([player({ hotZones: { leftCornerFour: "hot", paint: "warm" } })]), { capturedAt });
  t.same(kept?.hotZones, { leftCornerFour: "hot", paint: "warm" });
});

t.test("a pass-through field never overrides one of ours", async (t) => {
  const [record] = importJson("x.json", JSON.stringify([player({ overall: 80, extra: { overall: 10 } })]), { capturedAt });
  t.equal(record?.overall, 80);
  t.equal(record?.extra, undefined, "`extra` is a name of ours, not passed through");
});
