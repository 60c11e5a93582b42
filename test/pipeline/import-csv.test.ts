import { readFileSync } from "node:fs";
import t from "tap";
import { importError } from "./import-error-of.js";
import { importCsv } from "../../src/pipeline/import-csv.js";
import { foldName } from "../../src/model/names.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { isPlayerRecord } from "../../src/model/schemas.js";

const capturedAt = "2025-08-29T00:00:00.000Z";
const realText = (name: string): string => readFileSync(new URL(`../../../shared/realdata/${name}`, import.meta.url), "utf8");
const current = importCsv("2k26-curr.csv", realText("2k26-curr.csv"), { capturedAt });
const allTime = importCsv("2k26-allt.csv", realText("2k26-allt.csv"), { capturedAt });

function find(records: readonly PlayerRecord[], name: string, team?: string): PlayerRecord {
  const found = records.filter((record) => record.name === name && (team === undefined || record.team === team));
  if (found.length !== 1) throw new Error(`expected one ${name} ${team ?? ""}, found ${found.length}`);
  return found[0] as PlayerRecord;
}


t.test("every row of both real files becomes one valid record", async (t) => {
  t.equal(current.length, 457);
  t.equal(allTime.length, 461);
  t.ok([...current, ...allTime].every((record) => isPlayerRecord(record)), "all pass the player schema");
  t.ok(current.every((record) => record.teamType === "curr"), "current file is era curr");
  t.ok(allTime.every((record) => record.teamType === "allt"), "all-time file is era allt");
  t.equal(new Set(current.map((record) => record.slug)).size, 457, "current slugs are unique");
  t.equal(new Set(allTime.map((record) => record.slug)).size, 461, "all-time slugs are unique");
  t.ok([...current, ...allTime].every((record) => record.lastUpdated === capturedAt), "lastUpdated is the capture time");
});

t.test("a curly-apostrophe name is kept and still folds to what users type", async (t) => {
  const fox = find(current, "De’Aaron Fox");
  t.equal(fox.slug, "deaaron-fox");
  t.equal(foldName(fox.name), foldName("DeAaron Fox"));
  t.equal(foldName(fox.name), foldName("de'aaron fox"));
  t.equal(fox.team, "San Antonio Spurs");
  t.same(fox.positions, ["PG"]);
  t.equal(fox.archetype, "2-Way Inside-The-Arc Playmaker");
  t.equal(fox.height, "6'3\"");
  t.equal(fox.weight, "185 lbs");
  t.equal(fox.wingspan, "6'7\"");
  t.equal(fox.college, "Kentucky");
  t.equal(fox.overall, 85);
  t.strictSame(fox.attributes, {
    closeShot: 97, midRangeShot: 83, threePointShot: 73, freeThrow: 83, shotIQ: 70, offensiveConsistency: 90,
    speed: 97, agility: 93, strength: 46, vertical: 84, stamina: 96, hustle: 90, durability: 80,
    drivingLayup: 97, standingDunk: 25, drivingDunk: 80, postHook: 25, postFade: 30, postControl: 27, drawFoul: 88, hands: 90,
    passAccuracy: 84, ballHandle: 88, speedWithBall: 97, passIQ: 84, passVision: 73,
    interiorDefense: 34, perimeterDefense: 84, steal: 63, block: 51, helpDefenseIQ: 82, passPerception: 82, defensiveConsistency: 80,
    offensiveRebound: 38, defensiveRebound: 54, intangibles: 55, potential: 89,
    outsideScoring: 83, athleticism: 84, insideScoring: 58, playmaking: 85, defending: 68, rebounding: 46,
  });
  t.same(
    { total: fox.badges.total, legendary: fox.badges.legendary, hallOfFame: fox.badges.hallOfFame, gold: fox.badges.gold,
      silver: fox.badges.silver, bronze: fox.badges.bronze },
    { total: 18, legendary: 0, hallOfFame: 0, gold: 6, silver: 5, bronze: 7 },
  );
  t.strictSame(fox.badges.top, [
    { name: "Float Game", tier: "Gold" }, { name: "Layup Mixmaster", tier: "Gold" }, { name: "Lightning Launch", tier: "Gold" },
  ]);
  t.strictSame(fox.badges.list?.slice(0, 2), [
    { name: "Shifty Shooter", slug: "shifty-shooter", tier: "Bronze", category: "Outside Scoring" },
    { name: "Float Game", slug: "float-game", tier: "Gold", category: "Inside Scoring" },
  ], "the list is in catalogue order");
});

t.test("a player with two positions keeps both, primary first", async (t) => {
  const holiday = find(current, "Aaron Holiday");
  t.same(holiday.positions, ["PG", "SG"]);
  t.equal(holiday.team, "Houston Rockets");
  t.equal(holiday.overall, 75);
  t.equal(holiday.attributes.threePointShot, 83);
  t.equal(holiday.attributes.outsideScoring, 85);
  t.equal(holiday.attributes.durability, 84);
  t.equal(holiday.attributes.drivingLayup, 70);
  t.equal(holiday.college, "UCLA");
  t.strictSame(holiday.badges.list, [
    { name: "Set Shot Specialist", slug: "set-shot-specialist", tier: "Silver", category: "Outside Scoring" },
    { name: "Bail Out", slug: "bail-out", tier: "Bronze", category: "Playmaking" },
  ]);
});

t.test("a rookie without a scrape keeps his overall and has no attributes or badges", async (t) => {
  const flagg = find(current, "Cooper Flagg");
  t.equal(flagg.overall, 82);
  t.strictSame(flagg.attributes, {});
  t.equal(flagg.archetype, undefined, "an empty archetype cell is absent");
  t.notOk("archetype" in flagg);
  t.equal(flagg.height, "6'9\"");
  t.equal(flagg.weight, "205 lbs");
  t.equal(flagg.wingspan, "7'0\"");
  t.equal(flagg.college, "Duke");
  t.strictSame(flagg.badges, { total: 0, legendary: 0, hallOfFame: 0, gold: 0, silver: 0, bronze: 0, list: [], top: [] });
});

t.test("a nearly empty rookie keeps only the cells it has, group score as scraped", async (t) => {
  const fears = find(current, "Jeremiah Fears");
  t.equal(fears.overall, 73);
  // The source scores playmaking 18 from speed with ball 92, counting the missing four as 0.
  t.strictSame(fears.attributes, { speedWithBall: 92, playmaking: 18 });
  t.same(fears.positions, ["PG", "SG"]);
  t.notOk("wingspan" in fears, "an empty wingspan cell is absent");
});

t.test("an empty weight cell is absent, not 0 lbs", async (t) => {
  const zikarsky = find(current, "Rocco Zikarsky");
  t.notOk("weight" in zikarsky);
  t.equal(zikarsky.height, "7'3\"");
  t.equal(zikarsky.college, "Australia");
});

t.test("double spaces inside a name collapse to one", async (t) => {
  const peterson = find(current, "Drew Peterson");
  t.equal(peterson.slug, "drew-peterson");
  t.equal(current.filter((record) => record.name.includes("  ")).length, 0);
});

t.test("a name scraped without accents folds like the accented form", async (t) => {
  const jokic = find(current, "Nikola Jokic");
  t.equal(foldName(jokic.name), foldName("Nikola Jokić"));
  t.equal(jokic.slug, "nikola-jokic");
});

t.test("a Hall of Fame tier comes from hof", async (t) => {
  const edwards = find(current, "Anthony Edwards");
  t.strictSame(edwards.badges.list?.find((badge) => badge.name === "Posterizer"),
    { name: "Posterizer", slug: "posterizer", tier: "Hall of Fame", category: "Inside Scoring" });
  t.equal(edwards.badges.hallOfFame, 1);
  t.strictSame(edwards.badges.top?.[0], { name: "Posterizer", tier: "Hall of Fame" });
});

t.test("the all-time file maps by header name despite its other column order", async (t) => {
  const hakeem = find(allTime, "Hakeem Olajuwon");
  t.equal(hakeem.slug, "hakeem-olajuwon-all-time-houston-rockets");
  t.equal(hakeem.team, "All-Time Houston Rockets");
  t.equal(hakeem.teamType, "allt");
  t.equal(hakeem.overall, 99);
  t.same(hakeem.positions, ["C", "PF"]);
  t.equal(hakeem.weight, "255 lbs");
  t.equal(hakeem.college, "Houston", "prior_to_nba, the last column of this file");
  t.equal(hakeem.attributes.interiorDefense, 99);
  t.equal(hakeem.attributes.outsideScoring, 89);
  t.equal(hakeem.attributes.threePointShot, 71);
  t.same(
    [hakeem.badges.total, hakeem.badges.legendary, hakeem.badges.hallOfFame, hakeem.badges.gold, hakeem.badges.silver, hakeem.badges.bronze],
    [19, 2, 3, 11, 1, 2],
  );
  t.equal(hakeem.badges.list?.find((badge) => badge.name === "Paint Prodigy")?.tier, "Hall of Fame");
  t.strictSame(hakeem.badges.top, [
    { name: "Post Lockdown", tier: "Legendary" }, { name: "Post-Up Poet", tier: "Legendary" }, { name: "Brick Wall", tier: "Hall of Fame" },
  ]);
});

t.test("a row without agility has no agility key and its athleticism score as scraped", async (t) => {
  const russell = find(allTime, "Bill Russell");
  t.notOk("agility" in russell.attributes);
  t.equal(russell.attributes.speed, 86);
  t.equal(russell.attributes.strength, 92);
  // The source counts the missing agility as 0: (86+0+92+98+98+99+96)/7 rounds to 81, not 95.
  t.equal(russell.attributes.athleticism, 81);
  t.equal(Object.keys(russell.attributes).length, 42);
  t.equal(russell.slug, "bill-russell-all-time-boston-celtics");
  t.equal(russell.college, "San Francisco");
});

t.test("the same player on several all-time teams gets one slug and id per team", async (t) => {
  const shaq = allTime.filter((record) => record.name === "Shaquille O’Neal");
  t.same(shaq.map((record) => [record.team, record.slug, record.overall]), [
    ["All-Time Los Angeles Lakers", "shaquille-oneal-all-time-los-angeles-lakers", 98],
    ["All-Time Miami Heat", "shaquille-oneal-all-time-miami-heat", 89],
    ["All-Time Orlando Magic", "shaquille-oneal-all-time-orlando-magic", 93],
  ]);
  t.equal(new Set(shaq.map((record) => record._id)).size, 3);
});

const HEADER = ",name,team,position_1,position_2,height_feet,overall,three_point_shot,group_outside_scoring,badge_deadeye";
const GOOD_ROW = '0,Test Player,Boston Celtics,PG,,"6\'2""",80,75,70,gold';

t.test("a small valid file reads cleanly", async (t) => {
  const [record] = importCsv("x.csv", `${HEADER}\n${GOOD_ROW}\n`, { capturedAt });
  t.equal(record?.name, "Test Player");
  t.strictSame(record?.attributes, { threePointShot: 75, outsideScoring: 70 });
  t.equal(record?.badges.gold, 1);
});

t.test("a missing required column stops the import naming it", async (t) => {
  const error = importError(() => importCsv("x.csv", `,name,team,position_1\n0,A,Boston Celtics,PG\n`, { capturedAt }));
  t.equal(error.file, "x.csv");
  t.equal(error.line, 1);
  t.equal(error.field, "overall");
  t.match(error.reason, /required column overall is missing/);
});

t.test("an out-of-range rating names file, line and column", async (t) => {
  const text = `${HEADER}\n${GOOD_ROW}\n1,Other Player,Boston Celtics,SG,,"6'5""",81,104,70,\n`;
  const error = importError(() => importCsv("2k26-curr.csv", text, { capturedAt }));
  t.equal(error.line, 3);
  t.equal(error.field, "three_point_shot");
  t.equal(error.reason, "104 is not an integer from 0 to 99");
  t.equal(error.message, "2k26-curr.csv line 3, field three_point_shot: 104 is not an integer from 0 to 99");
});

t.test("a non-integer or empty overall is refused", async (t) => {
  const decimal = importError(() => importCsv("x.csv", `${HEADER}\n0,A,Boston Celtics,PG,,,80.5,,,\n`, { capturedAt }));
  t.equal(decimal.field, "overall");
  t.match(decimal.reason, /80\.5 is not an integer/);
  const empty = importError(() => importCsv("x.csv", `${HEADER}\n0,A,Boston Celtics,PG,,,,,,\n`, { capturedAt }));
  t.equal(empty.field, "overall");
  t.match(empty.reason, /empty/);
});

t.test("an unknown badge tier is refused", async (t) => {
  const error = importError(() => importCsv("x.csv", `${HEADER}\n${GOOD_ROW.replace(/gold$/, "platinum")}\n`, { capturedAt }));
  t.equal(error.line, 2);
  t.equal(error.field, "badge_deadeye");
  t.match(error.reason, /platinum is not a badge tier/);
});

t.test("an unknown position is refused", async (t) => {
  const error = importError(() => importCsv("x.csv", `${HEADER}\n${GOOD_ROW.replace(",PG,", ",G,")}\n`, { capturedAt }));
  t.equal(error.line, 2);
  t.equal(error.field, "position_1");
  t.match(error.reason, /G is not a position/);
});

t.test("an empty name is refused", async (t) => {
  const name = importError(() => importCsv("x.csv", `${HEADER}\n${GOOD_ROW.replace("Test Player", "  ")}\n`, { capturedAt }));
  t.equal(name.field, "name");
  t.match(name.reason, /name is empty/);
});

t.test("a real scrape row with an empty team imports as a Free Agency player in era curr, with a warning naming file and line", async (t) => {
  const lines = realText("2k26-curr.csv").split("\n");
  t.match(lines[1], /^0,Aaron Gordon,United States,,Denver Nuggets,/);
  lines[1] = (lines[1] as string).replace(",Denver Nuggets,", ",,");
  const warnings: string[] = [];
  const records = importCsv("2k26-curr.csv", lines.join("\n"), { capturedAt, warn: (message) => warnings.push(message) });
  t.equal(records.length, 457, "the import goes on past the row");
  const gordon = find(records, "Aaron Gordon");
  t.equal(gordon.team, "Free Agency");
  t.equal(gordon.teamType, "curr");
  t.equal(gordon.slug, "aaron-gordon");
  t.equal(gordon.overall, find(current, "Aaron Gordon").overall, "the rest of the row is read as before");
  t.ok(isPlayerRecord(gordon));
  t.same(warnings, ["2k26-curr.csv line 2, field team: the team is empty: imported as Free Agency (era curr)"]);
  // Without a listener the row is imported all the same.
  t.equal(find(importCsv("2k26-curr.csv", lines.join("\n"), { capturedAt }), "Aaron Gordon").team, "Free Agency");
});

t.test("a row missing what cannot be defaulted still stops the import, empty team or not", async (t) => {
  const noName = importError(() => importCsv("x.csv", `${HEADER}\n${GOOD_ROW.replace("Test Player,Boston Celtics", ",")}\n`, { capturedAt }));
  t.equal(noName.field, "name");
  t.equal(noName.line, 2);
  const noOverall = importError(() => importCsv("x.csv", `${HEADER}\n0,A,,PG,,,,,,\n`, { capturedAt, warn: () => {} }));
  t.equal(noOverall.field, "overall");
  t.match(noOverall.reason, /empty/);
});

t.test("an unknown badge column is refused rather than dropped", async (t) => {
  const error = importError(() => importCsv("x.csv", `${HEADER},badge_clutch_shooter\n${GOOD_ROW},gold\n`, { capturedAt }));
  t.equal(error.line, 1);
  t.equal(error.field, "badge_clutch_shooter");
  t.match(error.reason, /no badge/);
});

t.test("a row with more cells than the header is refused", async (t) => {
  const error = importError(() => importCsv("x.csv", `${HEADER}\n${GOOD_ROW},extra\n`, { capturedAt }));
  t.equal(error.line, 2);
  t.match(error.reason, /11 cells but the header has 10/);
});

t.test("a real file cut inside a quoted cell fails at that row's line and column", async (t) => {
  const text = realText("2k26-curr.csv");
  // Row of Aaron Holiday, line 3: cut inside his quoted height `"6'0""`.
  const cut = text.indexOf("\"6'0\"\"\"", text.indexOf("Aaron Holiday")) + 3;
  const error = importError(() => importCsv("2k26-curr.csv", text.slice(0, cut), { capturedAt }));
  t.equal(error.file, "2k26-curr.csv");
  t.equal(error.line, 3);
  t.equal(error.field, "height_feet");
  t.match(error.reason, /truncated/);
});

t.test("a real file cut in the middle of a row fails at that row naming the first missing column", async (t) => {
  const text = realText("2k26-curr.csv");
  // Cut right after Aaron Holiday's overall (75) and outside-scoring score (85).
  const start = text.indexOf("1,Aaron Holiday");
  const cut = text.indexOf(",UCLA,75,85,", start) + ",UCLA,75,85".length;
  const error = importError(() => importCsv("2k26-curr.csv", text.slice(0, cut), { capturedAt }));
  t.equal(error.line, 3);
  t.equal(error.field, "close_shot");
  t.match(error.reason, /22 cells but the header has 105/);
});

t.test("an empty file is refused as a whole", async (t) => {
  const error = importError(() => importCsv("x.csv", "", { capturedAt }));
  t.equal(error.line, undefined);
  t.match(error.reason, /empty/);
});
