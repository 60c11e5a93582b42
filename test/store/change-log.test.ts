// The change log's numbering is a function of the snapshot: two loads of the same files (two
// replicas, two workers) give the same events byte for byte; a later week leaves the numbers and
// changes of the weeks before it as they were; a swap keeps the weeks before the newest as it
// published them; sinceSequence reads dates as "weeks dated after".

import t, { type Test } from "tap";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { ChangeLog, sinceSequence, weekBase } from "../../src/store/change-log.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { readSnapshot, writeSnapshotAtomic } from "../../src/store/snapshot.js";
import type { EditionSource } from "../../src/model/player.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { nextWeek } from "../fixtures/next-week.js";

/** A data directory holding the current edition built twice, a week apart (2026-11-20, 2026-11-27). */
function twoWeeks(t: Test): { data: string; first: EditionSource; second: EditionSource } {
  const dir = mkdtempSync(join(tmpdir(), "courtside-changelog-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, "data");
  mkdirSync(data);
  const first = randomEdition(300, 41);
  writeEdition(data, first, "2026-11-20");
  const second = nextWeek(first, 3);
  writeEdition(data, second, "2026-11-27");
  return { data, first, second };
}

t.test("same snapshots, same events; a new week leaves older numbers alone", async (t) => {
  const { data, second } = twoWeeks(t);
  const one = ChangeLog.of(loadEditionSet(data));
  const other = ChangeLog.of(loadEditionSet(data));
  t.ok(one.events.length > 10);
  t.same(other.events.map((event) => event.json), one.events.map((event) => event.json), "two loads: the same events, the same bytes");
  t.ok(one.events.every((event, i) => i === 0 || event.seq > (one.events[i - 1]?.seq as number)), "ascending numbers");
  t.ok(one.events.every((event) => event.seq > weekBase("2026-11-27") && event.seq < weekBase("2026-11-28")), "numbered inside the week's range");

  writeEdition(data, nextWeek(second, 4), "2026-12-04");
  const later = ChangeLog.of(loadEditionSet(data));
  const kept = later.events.filter((event) => event.seq < weekBase("2026-12-04"));
  // What moved keeps its number and content; name, slug and team are the player's in the edition that computed them (a later trade shows).
  const moved = (json: string) => {
    const { seq, kind, date, playerId, overall, changes } = JSON.parse(json);
    return { seq, kind, date, playerId, overall, changes };
  };
  t.same(kept.map((event) => moved(event.json)), one.events.map((event) => moved(event.json)), "the earlier week's numbers and changes as they were");
  t.ok(later.events.length > kept.length, "and the new week after it");

  t.equal(sinceSequence("2026-11-27"), weekBase("2026-11-28") - 1, "a date: everything of weeks dated after it");
  t.equal(sinceSequence("2026-11-27T12:00:00Z"), weekBase("2026-11-28") - 1);
  t.equal(sinceSequence("12345"), 12345);
  t.equal(sinceSequence("yesterday"), undefined);
  t.same(later.query(sinceSequence("2026-11-27") as number, {}, 100_000).events, later.events.filter((event) => event.seq >= weekBase("2026-12-04")));
});

t.test("a swap keeps the weeks before the newest as published; the newest week holds its trades", async (t) => {
  const { data, second } = twoWeeks(t);
  const loaded = loadEditionSet(data);
  const one = ChangeLog.of(loaded);
  t.same(one.published, [], "a log as loaded publishes nothing");

  // Next week every player moves to another team: each week-one event would read differently now.
  const third = nextWeek(second, 4);
  const teams = [...new Set(third.players.filter((player) => player.teamType === "curr").map((player) => player.team))];
  for (const player of third.players) if (player.teamType === "curr") player.team = teams[(teams.indexOf(player.team) + 1) % teams.length] as string;
  writeEdition(data, third, "2026-12-04");
  const swapped = loadEditionSet(data);
  const two = one.next(loaded, swapped);
  const weekTwo = (log: ChangeLog) => log.events.filter((event) => event.seq >= weekBase("2026-12-04"));
  t.same(two.events.filter((event) => event.seq < weekBase("2026-12-04")), one.events, "week one as it was, number and bytes");
  t.same(two.published, weekTwo(two), "only the new week is published");
  const trades = weekTwo(two).map((event) => JSON.parse(event.json)).filter((event) => event.trade !== undefined);
  t.ok(trades.length > 50, `the trades are week two's events (${trades.length})`);
  t.ok(trades.every((event) => event.date === "2026-12-04" && event.trade.to.slug === event.teamSlug));
  t.same(ChangeLog.of(swapped).events.filter((event) => event.seq < weekBase("2026-12-04")).map((event) => JSON.parse(event.json).seq), one.events.map((event) => event.seq),
    "a server started now numbers week one the same (its names and teams are the edition's it loaded)");

  // A second build dated the same day: that week is recomputed, its trades kept; only what differs is published.
  const corrected = structuredClone(third);
  const fixed = corrected.players.find((player) => !weekTwo(two).some((event) => event.json.includes(`"playerId":"${player._id}"`))) as (typeof corrected.players)[number];
  fixed.overall = fixed.overall >= 99 ? 98 : fixed.overall + 1;
  writeEdition(data, corrected, "2026-12-04");
  const rebuilt = loadEditionSet(data);
  const three = two.next(swapped, rebuilt);
  t.same(three.events.filter((event) => event.seq < weekBase("2026-12-04")), one.events, "week one still as it was");
  t.equal(weekTwo(three).filter((event) => event.json.includes('"trade"')).length, trades.length, "the week's trades are kept through a rebuild of it");
  t.ok(three.published.length > 0 && three.published.length < weekTwo(three).length, `only the corrected week's differing events are published (${three.published.length} of ${weekTwo(three).length})`);
  t.ok(three.published.some((event) => event.json.includes(`"playerId":"${fixed._id}"`)), "the correction is among them");
  t.equal(three.next(rebuilt, rebuilt), three, "the same snapshot: the same log");
});

t.test("a restart after a trade: the log built from the snapshot is the log a running process got through next()", async (t) => {
  const { data, first, second } = twoWeeks(t);
  const loaded = loadEditionSet(data);
  const running = ChangeLog.of(loaded);
  // Week three: nextWeek trades a Boston player; a Denver player is traded without a rating move.
  const third = nextWeek(second, 4);
  const still = third.players.find((player) => player.teamType === "curr" && player.team === "Denver Nuggets"
    && [first, second].every((week) => week.players.some((before) => before._id === player._id && before.team === "Denver Nuggets"))) as (typeof third.players)[number];
  t.ok(still, "a Denver player");
  const unmoved = second.players.find((player) => player._id === still._id) as (typeof third.players)[number];
  Object.assign(still, { overall: unmoved.overall, attributes: structuredClone(unmoved.attributes), badges: structuredClone(unmoved.badges), team: "Free Agency" });
  writeEdition(data, third, "2026-12-04");
  const swapped = loadEditionSet(data);
  const next = running.next(loaded, swapped);
  const restarted = ChangeLog.of(loadEditionSet(data));
  t.same(restarted.events, next.events, "the same events: numbers, topics and bytes");
  const seqs = restarted.events.map((event) => event.seq);
  t.equal(new Set(seqs).size, seqs.length, "no number twice");
  t.ok(next.published.every((event) => event.seq >= weekBase("2026-12-04")), "only the new week is published");
  const trades = restarted.events.map((event) => JSON.parse(event.json)).filter((event) => event.trade !== undefined);
  t.ok(trades.filter((event) => event.date === "2026-12-04").length >= 2, `week three's trades (${trades.length} in all)`);
  t.ok(trades.every((event) => event.seq > weekBase(event.date) && event.seq < weekBase(event.date) + 2 ** 21
    && event.trade.to.slug === event.teamSlug && event.trade.from.slug !== event.teamSlug), "each numbered in its own week, with that week's team");
  t.match(trades.find((event) => event.playerId === still._id), { kind: "traded", overall: { from: unmoved.overall, to: unmoved.overall },
    trade: { from: { team: "Denver Nuggets", slug: "denver-nuggets" }, to: { team: "Free Agency", slug: "free-agency" } } }, "only the team changed: traded");
  // Week one's events keep week one's teams, even for a player traded since.
  const weekOne = (log: ChangeLog) => log.events.filter((event) => event.seq < weekBase("2026-12-04"));
  t.same(weekOne(restarted), running.events, "week one as the running process published it");

  // A week later, another restart: week three's events (and its trades) as they were.
  writeEdition(data, nextWeek(third, 5), "2026-12-11");
  const later = ChangeLog.of(loadEditionSet(data));
  const weekThree = (log: ChangeLog) => log.events.filter((event) => event.seq >= weekBase("2026-12-04") && event.seq < weekBase("2026-12-11"));
  t.same(weekThree(later), weekThree(next), "week three under the same numbers, with the same bytes");
});

t.test("a snapshot written before weeks held teams: read as before (the current rows' teams, no trade)", async (t) => {
  const { data } = twoWeeks(t);
  const file = join(data, "2K27.msgpack");
  const withTeams = ChangeLog.of(loadEditionSet(data));
  const { payload } = readSnapshot(file);
  const history = payload.history as NonNullable<typeof payload.history>;
  delete history.teams;
  delete history.people;
  for (const week of history.weeks) delete week.team;
  writeSnapshotAtomic(file, payload);
  const without = ChangeLog.of(loadEditionSet(data));
  t.same(without.events.map((event) => event.seq), withTeams.events.map((event) => event.seq), "the same numbers");
  const current = loadEditionSet(data).current;
  for (const event of without.events.map((logged) => JSON.parse(logged.json))) {
    if (event.kind === "removed") continue;
    const row = current.rowById.get(event.playerId) as number;
    if (event.team !== current.record(row).team) t.fail(`${event.playerId}: ${event.team}`);
    if (event.trade !== undefined) t.fail(`a trade without weekly teams: ${event.playerId}`);
  }
  t.ok(without.events.every((event) => !event.json.includes('"kind":"traded"')));
});
