// The change log's numbering is a function of the snapshot: two loads of the same files (two
// replicas, two workers) give the same events byte for byte; a later week leaves the numbers and
// changes of the weeks before it as they were; sinceSequence reads dates as "weeks dated after".

import t from "tap";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../../src/data/build-edition.js";
import { ChangeLog, sinceSequence, weekBase } from "../../src/store/change-log.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { nextWeek } from "../fixtures/next-week.js";

t.test("same snapshots, same events; a new week leaves older numbers alone", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "courtside-changelog-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, "data");
  mkdirSync(data);
  const first = randomEdition(300, 41);
  writeEdition(data, first, "2026-11-20");
  const second = nextWeek(first, 3);
  writeEdition(data, second, "2026-11-27");
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
