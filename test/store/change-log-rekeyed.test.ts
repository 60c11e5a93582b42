// A trade whose row comes back under a new `_id` (issue 46): rows imported without an id get one
// from era, team and slug, and the hosted service's upsert (keyed by slug, era and team) makes a
// new row when a player moves, so a trade arrives as one row gone and one new. The change log
// knows a player by `_id` where it is stable, else by era and slug: one `traded` (or `changed`)
// event naming both teams, under the new id with the old one beside it. Built the documented way
// (build-index --input, one week a file) with the messy shapes real data has; docs/live.md says
// what each produces.

import t, { type Test } from "tap";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBuildIndex } from "../../src/pipeline/build-index-cli.js";
import { ChangeLog, weekBase, type ChangeEvent } from "../../src/store/change-log.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { playerId } from "../../src/model/player.js";
import { slugify } from "../../src/model/names.js";

interface Row {
  name: string;
  slug: string;
  team: string;
  teamType: "curr";
  overall: number;
  teamImg: string;
  attributes: Record<string, number>;
  badges: { list: { name: string; tier: string }[] };
}

/** A current-era row in the public API's shape, without an `_id` (the build makes one from era, team and slug). */
function row(name: string, team: string, overall: number, tier = "Silver", slug = slugify(name)): Row {
  return {
    name, slug, team, teamType: "curr", overall, teamImg: `https://example.com/${slugify(team)}.svg`,
    attributes: { speed: overall - 5, threePointShot: overall - 10 }, badges: { list: [{ name: "Deadeye", tier }, { name: "Limitless Range", tier: "Bronze" }] },
  };
}

const idOf = (team: string, slug: string) => playerId("curr", team, slug);

/** Builds week `date` from `rows` into `data` as build-index does (the current edition's history carried forward). */
function buildWeek(t: Test, data: string, rows: Row[], date: string): void {
  const input = join(data, "..", `week-${date}.json`);
  writeFileSync(input, JSON.stringify(rows));
  const lines: string[] = [];
  const io = { env: {}, stderr: { write: (text: string) => lines.push(text), isTTY: false } as unknown as NodeJS.WriteStream };
  t.equal(runBuildIndex(["--edition", "2K27", "--status", "current", "--input", input, "--as-of", date, "--out", data], io), 0, `week ${date} built`, { output: lines.join("") });
}

const eventsOfWeek = (log: ChangeLog, date: string): ChangeEvent[] =>
  log.events.filter((event) => event.seq >= weekBase(date) && event.seq < weekBase(date) + 2 ** 21).map((event) => JSON.parse(event.json) as ChangeEvent);

t.test("re-keyed rows: a trade, a trade with a rating change, one of two namesakes moving, an old row lingering beside the new", async (t) => {
  const data = join(t.testdir({ data: {} }), "data");
  const stays = [row("Gamma Three", "Denver Nuggets", 82), row("Echo Five", "Chicago Bulls", 79)];
  buildWeek(t, data, [
    row("Alpha One", "Boston Celtics", 80),
    row("Beta Two", "Boston Celtics", 81),
    // Two players of one source slug on two teams (a source's slug is kept however many rows share it).
    row("Marcus Williams", "Utah Jazz", 75, "Silver", "marcus-williams"),
    row("Marcus Williams", "Miami Heat", 70, "Silver", "marcus-williams"),
    row("Delta Four", "Phoenix Suns", 77),
    ...stays,
  ], "2026-11-20");
  const weekOneLog = ChangeLog.of(loadEditionSet(data));
  t.same(weekOneLog.events, [], "one week: nothing to compare against");

  buildWeek(t, data, [
    row("Alpha One", "Denver Nuggets", 80),
    row("Beta Two", "Chicago Bulls", 83, "Gold"),
    row("Marcus Williams", "Orlando Magic", 75, "Silver", "marcus-williams"),
    row("Marcus Williams", "Miami Heat", 70, "Silver", "marcus-williams"),
    // The hosted service keeps the old row until a later scrape removes it: both rows this week.
    row("Delta Four", "Phoenix Suns", 77),
    row("Delta Four", "Atlanta Hawks", 78),
    ...stays,
  ], "2026-11-27");
  const loaded = loadEditionSet(data);
  const log = ChangeLog.of(loaded);
  const weekTwo = eventsOfWeek(log, "2026-11-27");
  t.equal(weekTwo.length, 4, `one event per moved player: ${weekTwo.map((event) => `${event.kind} ${event.slug}`).join(", ")}`);
  const bySlug = (slug: string) => weekTwo.filter((event) => event.slug === slug);
  t.match(bySlug("alpha-one"), [{
    kind: "traded", playerId: idOf("Denver Nuggets", "alpha-one"), previousPlayerId: idOf("Boston Celtics", "alpha-one"),
    team: "Denver Nuggets", teamSlug: "denver-nuggets", overall: { from: 80, to: 80 },
    trade: { from: { team: "Boston Celtics", slug: "boston-celtics" }, to: { team: "Denver Nuggets", slug: "denver-nuggets" } },
  }], "a trade under a new _id: one traded event naming both teams");
  t.notOk("changes" in (bySlug("alpha-one")[0] ?? {}), "traded: nothing but the team moved");
  t.match(bySlug("beta-two"), [{
    kind: "changed", playerId: idOf("Chicago Bulls", "beta-two"), previousPlayerId: idOf("Boston Celtics", "beta-two"), overall: { from: 81, to: 83 },
    changes: { attributes: { speed: { from: 76, to: 78 }, threePointShot: { from: 71, to: 73 } }, badges: { upgraded: [{ name: "Deadeye", from: "Silver", to: "Gold" }], added: [], removed: [], downgraded: [] } },
    trade: { from: { slug: "boston-celtics" }, to: { slug: "chicago-bulls" } },
  }], "a trade and a rating change in one week: one changed event with the trade, against the old row's week");
  t.match(bySlug("marcus-williams"), [{
    kind: "traded", playerId: idOf("Orlando Magic", "marcus-williams"), previousPlayerId: idOf("Utah Jazz", "marcus-williams"),
    trade: { from: { slug: "utah-jazz" }, to: { slug: "orlando-magic" } },
  }], "of two players sharing a slug, the one who moved is traded; the other has no event");
  t.match(bySlug("delta-four"), [{
    kind: "changed", playerId: idOf("Atlanta Hawks", "delta-four"), previousPlayerId: idOf("Phoenix Suns", "delta-four"), overall: { from: 77, to: 78 },
    trade: { from: { slug: "phoenix-suns" }, to: { slug: "atlanta-hawks" } },
  }], "a new row beside the old one, which lingers: the trade, when the new row appears");
  t.ok(weekTwo.every((event) => event.seq > weekBase("2026-11-27")), "numbered in the week");

  // Topics: the old id and both teams find the trade (/api/changes?player=<old id>, ?team=…; player:<old id> on /api/live).
  const alpha = bySlug("alpha-one")[0] as ChangeEvent;
  for (const filter of [{ player: idOf("Boston Celtics", "alpha-one") }, { player: idOf("Denver Nuggets", "alpha-one") }, { player: "alpha-one" }, { team: "boston-celtics" }, { team: "denver-nuggets" }]) {
    t.ok(log.query(0, filter, 100).events.some((event) => event.seq === alpha.seq), `found by ${JSON.stringify(filter)}`);
  }

  // Week three: a later scrape drops the lingering row; the two namesakes both move (era and slug cannot say who is who).
  buildWeek(t, data, [
    row("Alpha One", "Denver Nuggets", 80),
    row("Beta Two", "Chicago Bulls", 83, "Gold"),
    row("Marcus Williams", "Boston Celtics", 75, "Silver", "marcus-williams"),
    row("Marcus Williams", "Los Angeles Lakers", 70, "Silver", "marcus-williams"),
    row("Delta Four", "Atlanta Hawks", 78),
    ...stays,
  ], "2026-12-04");
  const swapped = loadEditionSet(data);
  const next = log.next(loaded, swapped);
  const restarted = ChangeLog.of(swapped);
  t.same(restarted.events, next.events, "a restart builds the same log as the running process: numbers, topics, bytes");
  t.same(eventsOfWeek(restarted, "2026-11-27"), weekTwo, "week two as it was published, under the same numbers");
  const weekThree = eventsOfWeek(restarted, "2026-12-04");
  t.notOk(weekThree.some((event) => event.slug === "delta-four"), "the lingering row's removal sends nothing: its trade was sent");
  t.same(weekThree.map((event) => `${event.kind} ${event.team}`).sort(),
    ["added Boston Celtics", "added Los Angeles Lakers", "removed Miami Heat", "removed Orlando Magic"], "two namesakes moving at once: added and removed, no guess");
  t.same(next.published.map((event) => event.seq), weekThree.map((event) => event.seq), "the swap publishes week three only");
});

t.test("re-keyed rows that are not one trade: the same team under a new id; an old row already beside the new one when the history began", async (t) => {
  const data = join(t.testdir({ data: {} }), "data");
  buildWeek(t, data, [row("Alpha One", "Boston Celtics", 80), row("Delta Four", "Phoenix Suns", 77), row("Delta Four", "Atlanta Hawks", 78)], "2026-11-20");
  // Alpha's row comes back under a source id of its own, on the same team: not a trade.
  const alpha = { ...row("Alpha One", "Boston Celtics", 80), _id: "j57alpha0000000000000000000000000" };
  buildWeek(t, data, [alpha, row("Delta Four", "Atlanta Hawks", 78)], "2026-11-27");
  const events = eventsOfWeek(ChangeLog.of(loadEditionSet(data)), "2026-11-27");
  t.same(events.map((event) => `${event.kind} ${event.slug} ${event.team}`).sort(), [
    "added alpha-one Boston Celtics", "removed alpha-one Boston Celtics", "removed delta-four Phoenix Suns",
  ], "same team: the old id removed and the new one added; an old row whose trade was never seen: removed");
  t.ok(events.every((event) => event.previousPlayerId === undefined && event.trade === undefined));
});
