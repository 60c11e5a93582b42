// A row's overall in every edition of the set (EditionSet.ratingHistory, what editionRatings and
// /versions read): from the _id join the set builds once, equal for every row to looking its _id
// up in each edition, with the shapes real data has: players in some editions and not others, an
// _id repeated within an edition (its first row answers, as a lookup gives), an _id whose bytes
// sort between others'.
import t from "tap";
import type { EditionSource } from "../../src/model/player.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { editionOf } from "../../src/store/derived-tables.js";
import type { Edition } from "../../src/store/edition.js";
import { EditionSet } from "../../src/store/editions.js";
import { randomEdition } from "../fixtures/random-edition.js";

function naive(set: EditionSet, edition: Edition, row: number): { gameVersion: string; overall: number }[] {
  const id = edition.field(row, "_id") as string;
  return [...set.ordered].sort((a, b) => (a.key < b.key ? 1 : -1)).flatMap((other) => {
    const at = other.rowById.get(id);
    return at === undefined ? [] : [{ gameVersion: other.key, overall: other.payload.columns.overall[at] as number }];
  });
}

t.test("every row's history equals a lookup of its _id in each edition", async (t) => {
  const current = randomEdition(120, 31);
  const older: EditionSource = { ...randomEdition(90, 32, "archived"), gameVersion: "2K25" };
  const oldest: EditionSource = { ...randomEdition(40, 33, "archived"), gameVersion: "2K21" };
  // Some of the current players in the older editions too, under their _id, at other ratings.
  older.players.push(...current.players.slice(0, 30).map((player, i) => ({ ...player, overall: 60 + (i % 30) })));
  oldest.players.push(...current.players.slice(20, 25).map((player) => ({ ...player, overall: 50 })));
  // A repeated _id within an edition (a roster entry listed twice), and one with a non-ASCII _id.
  current.players.push({ ...(current.players[3] as (typeof current.players)[number]), slug: "repeated-entry", name: "Repeated Entry", overall: 41 });
  current.players.push({ ...(current.players[4] as (typeof current.players)[number]), _id: "ü-odd-id", slug: "odd-id" });
  older.players.push({ ...(current.players[4] as (typeof current.players)[number]), _id: "ü-odd-id", slug: "odd-id", overall: 44 });
  const editions = [current, older, oldest].map((source) => editionOf(buildSnapshotPayload(source), source.gameVersion));
  const set = new EditionSet(editions);
  let checked = 0;
  let spanning = 0;
  for (const edition of set.ordered) {
    for (let row = 0; row < edition.rowCount; row++) {
      const history = set.ratingHistory(edition, row).map(({ gameVersion, overall }) => ({ gameVersion, overall }));
      const expected = naive(set, edition, row);
      if (JSON.stringify(history) !== JSON.stringify(expected)) t.fail(`${edition.key} row ${row}: ${JSON.stringify(history)} != ${JSON.stringify(expected)}`);
      checked++;
      if (expected.length > 1) spanning++;
    }
  }
  t.ok(spanning >= 30, `${spanning} rows span editions`);
  t.pass(`${checked} rows checked`);
  const repeated = set.current.rowById.get(set.current.field(set.current.rowCount - 1, "_id") as string);
  t.ok(repeated !== undefined, "the repeated _id is found");
  t.throws(() => new EditionSet([editions[0] as Edition]).ratingHistory(editions[1] as Edition, 0), /not one of this set's/, "an edition of another set is refused");
});
