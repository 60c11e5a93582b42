import t from "tap";
import { isDeepStrictEqual } from "node:util";
import { generateDemoEditions, generateScaleEdition } from "../../src/pipeline/demo.js";
import { overallFromAttributes } from "../../src/pipeline/demo/ratings.js";
import { ATTRIBUTE_GROUPS, GROUP_SCORE_KEYS } from "../../src/model/attributes.js";
import { countBadges, topBadges } from "../../src/model/badge-summary.js";
import { eraOfTeamName } from "../../src/model/eras.js";
import { HOT_ZONE_KEYS, playerId, type EditionSource, type PlayerRecord } from "../../src/model/player.js";
import { describeErrors, isPlayerRecord } from "../../src/model/schemas.js";
import type { Position } from "../../src/model/positions.js";

const AS_OF = "2027-01-15"; // a Friday, nineteen weeks after the 2K27 launch on 2026-09-04
const editions = generateDemoEditions({ asOf: AS_OF });
const current = editions[editions.length - 1]!;
const DAY_MS = 86_400_000;

const isScraped = (player: PlayerRecord): boolean => Object.keys(player.attributes).length > 0;
const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function editionNamed(gameVersion: string): EditionSource {
  const edition = editions.find((candidate) => candidate.gameVersion === gameVersion);
  if (edition === undefined) throw new Error(`no ${gameVersion}`);
  return edition;
}

t.test("the same seed gives identical editions and another seed different ones", async (t) => {
  t.ok(isDeepStrictEqual(generateDemoEditions({ asOf: AS_OF }), editions), "same seed, same output");
  const other = generateDemoEditions({ seed: 7, asOf: AS_OF });
  t.notOk(isDeepStrictEqual(other, editions), "another seed, another output");
  t.not(other[7]!.players[0]!.name + other[7]!.players[0]!.overall, current.players[0]!.name + current.players[0]!.overall);
});

t.test("there are eight editions 2K20 to 2K27 and only 2K27 is current", async (t) => {
  t.same(editions.map((edition) => edition.gameVersion), ["2K20", "2K21", "2K22", "2K23", "2K24", "2K25", "2K26", "2K27"]);
  t.same(editions.map((edition) => edition.status), [...Array<string>(7).fill("archived"), "current"]);
  t.equal(current.capturedAt, `${AS_OF}T00:00:00.000Z`);
  for (const edition of editions) {
    t.equal(edition.source, "demo");
    t.match(edition.capturedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }
  t.equal(editionNamed("2K24").capturedAt.slice(0, 7), "2024-08", "an archive is captured the August after its launch");
});

t.test("each edition holds about 1,900 players in the three eras with real-sized rosters", async (t) => {
  for (const edition of editions) {
    const { players } = edition;
    t.ok(players.length >= 1_700 && players.length <= 2_100, `${edition.gameVersion}: ${players.length} players`);
    const teams = countBy(players, (player) => `${player.teamType}|${player.team}`);
    const sizes = (era: string): number[] => [...teams].filter(([key]) => key.startsWith(`${era}|`) && key !== "curr|Free Agency").map(([, size]) => size);
    t.equal(sizes("curr").length, 30, `${edition.gameVersion}: 30 current teams`);
    t.ok(sizes("curr").every((size) => size >= 14 && size <= 18), `${edition.gameVersion}: current rosters of 14–18`);
    t.ok((teams.get("curr|Free Agency") ?? 0) >= 5, `${edition.gameVersion}: a free-agency group`);
    t.ok(sizes("class").length >= 60 && sizes("class").length <= 85, `${edition.gameVersion}: ${sizes("class").length} classic teams`);
    t.ok(sizes("class").every((size) => size >= 8 && size <= 13), `${edition.gameVersion}: classic rosters of 8–13`);
    t.equal(sizes("allt").length, 30, `${edition.gameVersion}: 30 all-time teams`);
    t.ok(sizes("allt").every((size) => size >= 13 && size <= 18), `${edition.gameVersion}: all-time rosters of about 15`);
    t.ok(players.every((player) => eraOfTeamName(player.team) === player.teamType), `${edition.gameVersion}: team names imply their era`);
  }
  t.ok(current.players.some((player) => player.team === "Boston Celtics"));
  t.ok(current.players.some((player) => player.team === "1995-96 Chicago Bulls"));
  t.ok(current.players.some((player) => player.team === "All-Time Chicago Bulls"));
});

t.test("every record passes the player schema and its _id follows from era, team and slug", async (t) => {
  for (const edition of editions) {
    const invalid = edition.players.filter((player) => !isPlayerRecord(player));
    t.equal(invalid.length, 0, `${edition.gameVersion}: ${invalid.length ? describeErrors(isPlayerRecord.errors) : "all valid"}`);
    t.ok(edition.players.every((player) => player._id === playerId(player.teamType, player.team, player.slug)), `${edition.gameVersion}: ids`);
  }
});

t.test("slugs are unique within each edition and era", async (t) => {
  for (const edition of editions) {
    const keys = edition.players.map((player) => `${player.teamType}:${player.slug}`);
    t.equal(new Set(keys).size, keys.length, edition.gameVersion);
  }
  const jordan = current.players.filter((player) => player.name === "Michael Jordan").map((player) => player.slug);
  t.ok(jordan.includes("michael-jordan-1995-96-chicago-bulls"));
  t.ok(jordan.includes("michael-jordan-all-time-chicago-bulls"));
  t.ok(current.players.some((player) => player.slug === "lebron-james" && player.teamType === "curr"));
});

t.test("group scores are the rounded mean of their group", async (t) => {
  let checked = 0;
  for (const player of current.players.filter(isScraped)) {
    for (const group of GROUP_SCORE_KEYS) {
      const members = ATTRIBUTE_GROUPS[group].map((key) => player.attributes[key] ?? Number.NaN);
      if (player.attributes[group] !== Math.round(mean(members))) t.fail(`${player.slug} ${group}`);
      checked += 1;
    }
  }
  t.ok(checked > 10_000);
});

t.test("a scraped player has all 37 base attributes and an overall that follows from them", async (t) => {
  const scraped = current.players.filter(isScraped);
  t.ok(scraped.every((player) => Object.keys(player.attributes).length === 43));
  const mismatched = scraped.filter((player) => player.overall !== overallFromAttributes(player.attributes, player.positions![0]! as Position));
  t.same(mismatched.map((player) => player.slug), []);
  const overalls = current.players.filter((player) => player.teamType === "curr").map((player) => player.overall);
  t.ok(overalls.filter((overall) => overall >= 95).length >= 2, "a few stars");
  t.ok(overalls.filter((overall) => overall >= 70 && overall <= 85).length / overalls.length > 0.6, "most between 70 and 85");
  t.ok(overalls.every((overall) => overall >= 40 && overall <= 99));
});

t.test("centres out-rebound point guards and point guards out-handle centres", async (t) => {
  const at = (position: string, key: "defensiveRebound" | "offensiveRebound" | "ballHandle" | "passAccuracy" | "block") =>
    mean(current.players.filter((player) => player.positions?.[0] === position && isScraped(player)).map((player) => player.attributes[key] ?? 0));
  t.ok(at("C", "defensiveRebound") > at("PG", "defensiveRebound") + 15);
  t.ok(at("C", "offensiveRebound") > at("PG", "offensiveRebound") + 15);
  t.ok(at("C", "block") > at("PG", "block") + 15);
  t.ok(at("PG", "ballHandle") > at("C", "ballHandle") + 15);
  t.ok(at("PG", "passAccuracy") > at("C", "passAccuracy") + 15);
});

t.test("great shooters mostly hold Deadeye or Limitless Range", async (t) => {
  const shooters = current.players.filter((player) => (player.attributes.threePointShot ?? 0) >= 90);
  t.ok(shooters.length >= 20, `${shooters.length} shooters`);
  const holding = shooters.filter((player) => player.badges.list?.some((badge) => badge.name === "Deadeye" || badge.name === "Limitless Range"));
  t.ok(holding.length / shooters.length >= 0.8, `${holding.length} of ${shooters.length}`);
  const centres = current.players.filter((player) => player.positions?.[0] === "C" && player.overall >= 80);
  const guarding = centres.filter((player) => player.badges.list?.some((badge) => badge.name === "Post Lockdown" || badge.name === "Boxout Beast"));
  t.ok(guarding.length / centres.length >= 0.6, `${guarding.length} of ${centres.length} good centres defend the post or box out`);
});

t.test("better players hold more and higher badges, summarised by counts and top three", async (t) => {
  const scraped = current.players.filter(isScraped);
  const badgeTotal = (low: number, high: number) => mean(scraped.filter((p) => p.overall >= low && p.overall < high).map((p) => p.badges.total));
  t.ok(badgeTotal(90, 100) > badgeTotal(80, 90) && badgeTotal(80, 90) > badgeTotal(70, 80));
  for (const edition of editions) {
    t.ok(edition.players.every((player) => {
      const list = player.badges.list ?? [];
      return isDeepStrictEqual(player.badges, { ...countBadges(list), list, top: topBadges(list) });
    }), `${edition.gameVersion}: counts and top agree with the list`);
  }
  const eliteTiers = (low: number) => mean(scraped.filter((p) => p.overall >= low).map((p) => p.badges.hallOfFame + p.badges.legendary));
  t.ok(eliteTiers(95) > eliteTiers(0));
});

t.test("hot zones cover the twelve zones and follow the shooting", async (t) => {
  const scraped = current.players.filter(isScraped);
  t.ok(scraped.every((player) => player.hotZones !== undefined && Object.keys(player.hotZones).length === HOT_ZONE_KEYS.length));
  const hotThrees = (players: readonly PlayerRecord[]) => mean(players.map((player) => HOT_ZONE_KEYS.filter((zone) => zone.endsWith("Three") && player.hotZones?.[zone] === "hot").length));
  const shooters = scraped.filter((player) => (player.attributes.threePointShot ?? 0) >= 88);
  const bricklayers = scraped.filter((player) => (player.attributes.threePointShot ?? 0) <= 65);
  t.ok(hotThrees(shooters) > hotThrees(bricklayers) + 2);
});

t.test("rookies not yet scraped have an overall but no attributes and no badges", async (t) => {
  for (const edition of editions) {
    const rookies = edition.players.filter((player) => !isScraped(player));
    t.ok(rookies.length >= 1 && rookies.length <= 15, `${edition.gameVersion}: ${rookies.length} rookies`);
    t.ok(rookies.every((player) => player.teamType === "curr" && player.overall >= 40 && player.badges.total === 0 && player.badges.list?.length === 0));
    t.ok(rookies.every((player) => player.hotZones === undefined));
    t.ok([...countBy(rookies, (player) => player.team).values()].every((count) => count === 1), "at most one per team");
  }
});

t.test("the same roster entry recurs across editions with drifting ratings", async (t) => {
  const byId = new Map<string, number[]>();
  for (const edition of editions) for (const player of edition.players) byId.set(`${player.teamType}|${player._id}`, [...(byId.get(`${player.teamType}|${player._id}`) ?? []), player.overall]);
  const everywhere = [...byId].filter(([, overalls]) => overalls.length === editions.length);
  const currentEverywhere = everywhere.filter(([key]) => key.startsWith("curr|"));
  t.ok(currentEverywhere.length >= 30, `${currentEverywhere.length} current entries in all eight editions`);
  t.ok(currentEverywhere.filter(([, overalls]) => Math.max(...overalls) - Math.min(...overalls) >= 3).length / currentEverywhere.length > 0.5, "current players drift");
  const classic = everywhere.filter(([key]) => key.startsWith("class|"));
  t.ok(classic.length >= 300);
  t.ok(classic.every(([, overalls]) => Math.max(...overalls) - Math.min(...overalls) <= 3), "classic entries stay nearly the same");
  const shared = editions.slice(1).map((edition, i) => {
    const before = new Set(editions[i]!.players.map((player) => player._id));
    return edition.players.filter((player) => before.has(player._id)).length / edition.players.length;
  });
  t.ok(shared.every((share) => share > 0.75), "most entries carry over to the next edition");
});

t.test("famous names anchor search across eras, with accents, apostrophes and hyphens", async (t) => {
  const rostersOf = (name: string) => current.players.filter((player) => player.name === name).map((player) => player.team);
  t.same(rostersOf("Nikola Jokić").filter((team) => team === "Denver Nuggets"), ["Denver Nuggets"]);
  t.ok(rostersOf("LeBron James").length >= 3, "LeBron is current, classic and all-time");
  t.ok(rostersOf("Michael Jordan").filter((team) => team.endsWith("Chicago Bulls")).length >= 3, "a legend on several seasons");
  t.ok(rostersOf("Hakeem Olajuwon").includes("All-Time Houston Rockets"));
  t.ok(rostersOf("Luka Dončić").includes("Los Angeles Lakers"));
  t.ok(editionNamed("2K22").players.some((player) => player.name === "Luka Dončić" && player.team === "Dallas Mavericks"));
  for (const name of ["Giannis Antetokounmpo", "Shai Gilgeous-Alexander", "Stephen Curry", "Kevin Durant"]) t.ok(rostersOf(name).length > 0, name);
  const names = current.players.map((player) => player.name);
  t.ok(names.filter((name) => /[čćšžđūėįųāēīņ]/i.test(name)).length >= 20, "accented names");
  t.ok(names.filter((name) => name.includes("'")).length >= 10, "apostrophes");
  t.ok(names.filter((name) => /\S-\S/.test(name.split(" ").slice(1).join(" "))).length >= 10, "hyphenated surnames");
});

t.test("a person appears on a classic team-season and an all-time team", async (t) => {
  const erasByName = new Map<string, Set<string>>();
  for (const player of current.players) erasByName.set(player.name, (erasByName.get(player.name) ?? new Set()).add(player.teamType));
  const both = [...erasByName].filter(([, eras]) => eras.has("class") && eras.has("allt"));
  t.ok(both.length >= 30, `${both.length} people in both`);
  const jordan = current.players.filter((player) => player.name === "Michael Jordan");
  t.ok(new Set(jordan.map((player) => player.height)).size === 1, "one person, one body");
});

t.test("player details look like the real service's", async (t) => {
  for (const player of current.players) {
    if (!/^https:\/\/www\.2kratings\.com\/wp-content\/uploads\/[A-Za-z0-9-]+-2K27-Rating\.png$/.test(player.playerImage ?? "")) t.fail(`image of ${player.slug}`);
    if (!player.teamImg?.startsWith("https://www.2kratings.com/wp-content/uploads/")) t.fail(`logo of ${player.team}`);
    if (!/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(player.lastUpdated ?? "") || (player.lastUpdated ?? "") > current.capturedAt) t.fail(`lastUpdated of ${player.slug}`);
  }
  const heights = (position: string) => mean(current.players.filter((player) => player.positions?.[0] === position).map((player) => {
    const [feet = 0, inches = 0] = String(player.height ?? "").match(/\d+/g)?.map(Number) ?? [];
    return feet * 12 + inches;
  }));
  t.ok(heights("C") > heights("SF") && heights("SF") > heights("PG"));
  t.ok(current.players.some((player) => player.college === undefined), "some come without a college");
  t.ok(current.players.filter((player) => player.archetype !== undefined).length > 1_500);
  t.ok(new Set(current.players.map((player) => player.archetype)).size >= 15, "varied archetypes");
});

t.test("the current edition keeps one week per week from launch to asOf, ending on its players", async (t) => {
  for (const edition of editions.slice(0, -1)) t.same(edition.history, [], `${edition.gameVersion} has no weeks`);
  const { history } = current;
  t.equal(history[0]?.date, "2026-09-04", "launch, the first Friday of September 2026");
  t.equal(history.at(-1)?.date, AS_OF);
  t.equal(history.length, 20);
  for (let w = 1; w < history.length; w++) {
    if (Date.parse(history[w]!.date) - Date.parse(history[w - 1]!.date) !== 7 * DAY_MS) t.fail(`week ${w}`);
  }
  const ids = current.players.map((player) => player._id).sort();
  t.ok(history.every((week) => isDeepStrictEqual(week.players.map((player) => player._id).sort(), ids)), "every week holds every player");
  const last = new Map(history.at(-1)!.players.map((player) => [player._id, player]));
  const differing = current.players.filter((player) => {
    const week = last.get(player._id);
    const { list: _list, top: _top, ...counts } = player.badges;
    return !week || week.overall !== player.overall || !isDeepStrictEqual(week.attributes, player.attributes) || !isDeepStrictEqual(week.badges, counts);
  });
  t.same(differing.map((player) => player.slug), [], "the last week is the edition's ratings");
});

t.test("ratings drift a little from week to week", async (t) => {
  const { history } = current;
  const changed = history.slice(1).map((week, w) => week.players.filter((player, i) => !isDeepStrictEqual(player, history[w]!.players[i])).length);
  t.ok(changed.every((count) => count > 0 && count < current.players.length / 3), "most players unchanged in a week, some changed");
  const launch = new Map(history[0]!.players.map((player) => [player._id, player.overall]));
  const moved = current.players.filter((player) => player.overall !== launch.get(player._id));
  t.ok(moved.length > 50, `${moved.length} overalls moved since launch`);
  t.ok(moved.every((player) => Math.abs(player.overall - (launch.get(player._id) ?? 0)) <= 10));
  const rookie = current.players.find((player) => !isScraped(player))!;
  t.ok(history.every((week) => isDeepStrictEqual(week.players.find((player) => player._id === rookie._id)?.attributes, {})));
});

t.test("history ends in the week of asOf and has just the launch before it", async (t) => {
  const midweek = generateDemoEditions({ asOf: "2026-10-07" })[7]!;
  t.same(midweek.history.map((week) => week.date), ["2026-09-04", "2026-09-11", "2026-09-18", "2026-09-25", "2026-10-02"]);
  t.equal(midweek.capturedAt, "2026-10-07T00:00:00.000Z");
  const early = generateDemoEditions({ asOf: "2026-06-01" })[7]!;
  t.same(early.history.map((week) => week.date), ["2026-09-04"]);
  const launch = new Map(early.history[0]!.players.map((player) => [player._id, player.overall]));
  t.ok(early.players.every((player) => launch.get(player._id) === player.overall));
  t.throws(() => generateDemoEditions({ asOf: "2027-13-01" }), RangeError);
  t.throws(() => generateDemoEditions({ asOf: "15/01/2027" }), RangeError);
});

t.test("a scale edition holds exactly the players asked for, valid and unique", async (t) => {
  const started = performance.now();
  const edition = generateScaleEdition({ players: 100_000, gameVersion: "2K98" });
  const seconds = (performance.now() - started) / 1000;
  t.ok(seconds < 20, `${seconds.toFixed(1)} s`);
  t.equal(edition.players.length, 100_000);
  t.equal(edition.gameVersion, "2K98");
  t.equal(edition.status, "current");
  t.same(edition.history, []);
  const eras = countBy(edition.players, (player) => player.teamType);
  t.ok((eras.get("curr") ?? 0) > 70_000 && (eras.get("class") ?? 0) > 5_000 && (eras.get("allt") ?? 0) > 5_000, "current-era heavy, every era present");
  const sample = edition.players.filter((_, i) => i % 97 === 0);
  const invalid = sample.filter((player) => !isPlayerRecord(player));
  t.equal(invalid.length, 0, invalid.length ? describeErrors(isPlayerRecord.errors) : "sample valid");
  t.ok(sample.every((player) => player._id === playerId(player.teamType, player.team, player.slug)));
  const keys = edition.players.map((player) => `${player.teamType}:${player.slug}`);
  t.equal(new Set(keys).size, keys.length, "slugs unique within era");
  t.equal(new Set(edition.players.map((player) => player._id)).size, keys.length, "ids unique");
  t.ok(isDeepStrictEqual(generateScaleEdition({ players: 500, gameVersion: "2K98" }), generateScaleEdition({ players: 500, gameVersion: "2K98" })));
  t.equal(generateScaleEdition({ players: 0 }).players.length, 0);
  t.throws(() => generateScaleEdition({ players: 10, gameVersion: "NBA" }), RangeError);
  t.throws(() => generateScaleEdition({ players: -1 }), RangeError);
});
