// The random-edition fixture many tests build on: every distinct player it can make, and a clear
// error past them (it once looped for ever when asked for more than its names and teams allow).
import t from "tap";
import { randomPlayers, RANDOM_PLAYERS_MAX } from "../fixtures/random-edition.js";

t.test("as many players as the fixture's names and teams allow, each (era, slug) once", async (t) => {
  const players = randomPlayers(RANDOM_PLAYERS_MAX, 43);
  t.equal(players.length, RANDOM_PLAYERS_MAX);
  t.equal(new Set(players.map((player) => `${player.teamType}/${player.slug}`)).size, RANDOM_PLAYERS_MAX);
});

t.test("one more is refused at once, not looped on", async (t) => {
  t.throws(() => randomPlayers(RANDOM_PLAYERS_MAX + 1, 43), RangeError);
});
