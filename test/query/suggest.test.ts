import t from "tap";
import { boundedEditDistance, closest, suggestSlugs, SUGGEST_MAX_LENGTH } from "../../src/query/suggest.js";
import { Edition } from "../../src/store/edition.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { randomEdition } from "../fixtures/random-edition.js";

/** The textbook distance, the oracle the banded one is checked against. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

t.test("the banded distance equals the full one up to its bound, and says bound + 1 beyond", async (t) => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const word = () => Array.from({ length: Math.floor(random() * 12) }, () => "abc"[Math.floor(random() * 3)]).join("");
  for (let n = 0; n < 3000; n++) {
    const a = word();
    const b = word();
    const bound = Math.floor(random() * 5);
    const full = editDistance(a, b);
    t.equal(boundedEditDistance(a, b, bound), full <= bound ? full : bound + 1, `${a} / ${b} within ${bound}`);
  }
});

t.test("the banded distance of long texts costs the band, not the square", async (t) => {
  const long = "x".repeat(100_000);
  // CPU time, not wall time (a busy machine stretches the latter): the band is ~3.4 M cells, a few
  // ms; the full square would be 10^10, minutes. A second of CPU separates the two by far.
  const before = process.cpuUsage();
  t.equal(boundedEditDistance(long, `y${long.slice(1)}y`, 8), 2);
  t.equal(boundedEditDistance(long, "y".repeat(100_000), 8), 9);
  const used = process.cpuUsage(before);
  t.ok((used.user + used.system) / 1000 < 1000, "linear in the length");
});

t.test("closest keeps near spellings and containing names, nearest first; long text gets none", async (t) => {
  t.same(closest("limt", ["limit", "cursor", "team"], 1), ["limit"]);
  t.same(closest("bulls", ["Chicago Bulls", "1995-96 Chicago Bulls", "Boston Celtics"], 5), ["Chicago Bulls", "1995-96 Chicago Bulls"]);
  t.same(closest("x".repeat(SUGGEST_MAX_LENGTH + 1), ["x".repeat(SUGGEST_MAX_LENGTH + 1)]), []);
  t.same(closest("", ["a"]), []);
});

t.test("slug suggestions come from the name index: typos and partial slugs find the player", async (t) => {
  const source = randomEdition(300, 5);
  const edition = new Edition(buildSnapshotPayload(source), "test");
  const player = source.players.find((p) => p.teamType === "curr" && /^[a-z]+-[a-z]{5,}$/.test(p.slug))!;
  const [first, last] = player.slug.split("-") as [string, string];
  const typo = `${first}-${last.slice(0, 2)}${last[3]}${last[2]}${last.slice(4)}`;
  t.ok(suggestSlugs(edition, `${first}-${last.slice(0, -1)}`).includes(player.slug), "a missing last letter");
  t.ok(suggestSlugs(edition, typo).includes(player.slug), `a swapped pair (${typo})`);
  t.same(suggestSlugs(edition, "q".repeat(SUGGEST_MAX_LENGTH + 1)), [], "too long for a typo");
  for (const suggestion of suggestSlugs(edition, `${first}-${last.slice(0, -1)}`)) t.ok(edition.rowsForSlug(suggestion, 0b111).length > 0, `${suggestion} resolves`);
});
