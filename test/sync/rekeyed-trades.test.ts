// A trade as `sync` copies it from the hosted service (issue 46): its upsert is keyed by slug, era
// and team, so a traded player comes back as a new document under a new Convex `_id`, and the old
// document stays until a later scrape removes it (or is gone at once). Three weekly syncs from
// the stand-in; the change log then holds one event per moved player, naming both teams.

import t from "tap";
import { ChangeLog, weekBase, type ChangeEvent } from "../../src/store/change-log.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { randomPlayers } from "../fixtures/random-edition.js";
import { runSync } from "./helpers.js";
import { STAND_IN_KEY, convexId, hostedRow, startStandIn, type StandInEdition } from "./stand-in.js";

t.setTimeout(120_000);

const eventsOfWeek = (log: ChangeLog, date: string): ChangeEvent[] =>
  log.events.filter((event) => event.seq >= weekBase(date) && event.seq < weekBase(date) + 2 ** 21).map((event) => JSON.parse(event.json) as ChangeEvent);

type Document = Record<string, any>;

t.test("synced weeks: a trade under a new Convex _id, one whose old document lingers a week, and a rating change are one event each", async (t) => {
  const edition: StandInEdition = { gameVersion: "2K26", status: "current", players: randomPlayers(40, 61), entry: { label: "NBA 2K26", withCounts: true } };
  // The hosted documents, served as they are from week to week (only what a test changes differs).
  const weekOne: Document[] = edition.players.map((player, i) => hostedRow(player, i, edition));
  edition.documents = weekOne;
  const standIn = await startStandIn([edition]);
  t.teardown(() => standIn.close());
  const out = t.testdir({});
  const sync = async (asOf: string) => {
    const run = await runSync(["--from", standIn.base, "--out", out, "--as-of", asOf], STAND_IN_KEY);
    t.equal(run.code, 0, `sync --as-of ${asOf}`, { output: run.output });
  };
  await sync("2026-11-20");

  const current = weekOne.filter((document) => document["teamType"] === "curr");
  const teams = [...new Set(current.map((document) => document["team"] as string))];
  const otherTeam = (document: Document) => teams.find((team) => team !== document["team"]) as string;
  const [traded, lingering, rated] = [current[0], current[1], current[2]] as [Document, Document, Document];
  const movedTo = (document: Document, suffix: string, overall = document["overall"]): Document => ({
    ...document, _id: convexId(`${document["_id"]}/${suffix}`), team: otherTeam(document), overall,
    _creationTime: 1_780_000_000_000.5, createdAt: "2026-11-26T00:00:00.000Z",
  });
  const tradedRow = movedTo(traded, "traded");
  const lingeringNew = movedTo(lingering, "traded", lingering["overall"] + 1);
  // Week two: the traded player's old document replaced by the new one, the other's new document
  // beside the old (which stays), a third player's rating moved.
  const weekTwo = weekOne.map((document) => (document === traded ? tradedRow : document === rated ? { ...rated, overall: rated["overall"] - 1 } : document));
  edition.documents = [...weekTwo, lingeringNew];
  standIn.bump();
  await sync("2026-11-27");
  const log = ChangeLog.of(loadEditionSet(out));
  const events = eventsOfWeek(log, "2026-11-27");
  t.equal(events.length, 3, `three events: ${events.map((event) => `${event.kind} ${event.slug}`).join(", ")}`);
  t.match(events.find((event) => event.slug === traded["slug"]), {
    kind: "traded", playerId: tradedRow["_id"], previousPlayerId: traded["_id"],
    trade: { from: { team: traded["team"] }, to: { team: tradedRow["team"] } }, overall: { from: traded["overall"], to: traded["overall"] },
  }, "the trade under a new _id: one traded event naming both teams");
  t.match(events.find((event) => event.slug === lingering["slug"]), {
    kind: "changed", playerId: lingeringNew["_id"], previousPlayerId: lingering["_id"],
    trade: { from: { team: lingering["team"] }, to: { team: lingeringNew["team"] } }, overall: { from: lingering["overall"], to: lingering["overall"] + 1 },
  }, "the new document beside the lingering old one: the trade");
  t.match(events.find((event) => event.slug === rated["slug"]), { kind: "changed", playerId: rated["_id"], overall: { from: rated["overall"], to: rated["overall"] - 1 } });

  // Week three: a later scrape removes the lingering document; nothing else moves.
  edition.documents = [...weekTwo.filter((document) => document !== lingering), lingeringNew];
  standIn.bump();
  await sync("2026-12-04");
  const later = ChangeLog.of(loadEditionSet(out));
  t.same(eventsOfWeek(later, "2026-12-04"), [], "the old document's removal sends nothing: the trade was told");
  t.same(eventsOfWeek(later, "2026-11-27"), events, "week two as it was, under the same numbers");
});
