import t from "tap";
import { ATTRIBUTE_COUNT, ATTRIBUTE_KEYS, ABSENT_RATING } from "../../src/model/attributes.js";
import { BADGES, BADGE_COUNT, BADGE_TIERS } from "../../src/model/badges.js";
import { Catalogue, REGISTRY_CATALOGUE } from "../../src/model/catalogue.js";
import { weekChanges } from "../../src/store/week-changes.js";
import { mulberry32 } from "../fixtures/random-edition.js";

/** The oracle over plain arrays: every key present both weeks with another value; badge tiers compared by name. */
function oracle(before: (number | undefined)[], after: (number | undefined)[], tiersBefore: number[], tiersAfter: number[]) {
  const attributes: Record<string, { from: number; to: number }> = {};
  ATTRIBUTE_KEYS.forEach((key, i) => {
    const from = before[i];
    const to = after[i];
    if (from !== undefined && to !== undefined && from !== to) attributes[key] = { from, to };
  });
  const named = BADGES.map((badge, b) => ({ name: badge.name, from: tiersBefore[b]!, to: tiersAfter[b]! })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const tier = (code: number) => BADGE_TIERS[code - 1];
  return {
    attributes,
    badges: {
      added: named.filter((x) => x.from === 0 && x.to > 0).map((x) => ({ name: x.name, tier: tier(x.to) })),
      removed: named.filter((x) => x.from > 0 && x.to === 0).map((x) => ({ name: x.name, tier: tier(x.from) })),
      upgraded: named.filter((x) => x.from > 0 && x.to > x.from).map((x) => ({ name: x.name, from: tier(x.from), to: tier(x.to) })),
      downgraded: named.filter((x) => x.to > 0 && x.to < x.from).map((x) => ({ name: x.name, from: tier(x.from), to: tier(x.to) })),
    },
  };
}

t.test("week-over-week changes agree with the oracle on seeded random weeks", async (t) => {
  const random = mulberry32(7);
  for (let trial = 0; trial < 300; trial++) {
    const value = () => (random() < 0.1 ? undefined : 40 + Math.floor(random() * 60));
    const before = Array.from({ length: ATTRIBUTE_COUNT }, value);
    const after = before.map((v) => (random() < 0.2 ? value() : v));
    const tiersBefore = Array.from({ length: BADGE_COUNT }, () => (random() < 0.6 ? 0 : 1 + Math.floor(random() * 5)));
    const tiersAfter = tiersBefore.map((v) => (random() < 0.15 ? (random() < 0.3 ? 0 : 1 + Math.floor(random() * 5)) : v));
    const bytes = (values: (number | undefined)[]) => Uint8Array.from(values, (v) => v ?? ABSENT_RATING);
    const actual = weekChanges(REGISTRY_CATALOGUE, bytes(before), bytes(after), Uint8Array.from(tiersBefore), Uint8Array.from(tiersAfter));
    const expected = oracle(before, after, tiersBefore, tiersAfter);
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      t.same(actual, expected, `trial ${trial}`);
      return;
    }
  }
  t.pass("300 random week pairs agree");
});

t.test("without badge lists on either week there is no badges entry", async (t) => {
  const week = new Uint8Array(ATTRIBUTE_COUNT).fill(70);
  t.same(weekChanges(REGISTRY_CATALOGUE, week, week, undefined, new Uint8Array(BADGE_COUNT)), { attributes: {} });
});

t.test("an edition's own catalogue names its own columns and badges", async (t) => {
  const catalogue = new Catalogue({
    attributes: ["speed", "clutchShooting"],
    badges: [
      { name: "Spark Plug", slug: "spark-plug", category: "All Around", description: "A newer game's badge" },
      { name: "Deadeye", slug: "deadeye", category: "Outside Scoring", description: "Shoots over closeouts" },
    ],
  });
  const changes = weekChanges(catalogue, Uint8Array.of(80, 60), Uint8Array.of(80, 64), Uint8Array.of(0, 3), Uint8Array.of(2, 3));
  t.same(changes, {
    attributes: { clutchShooting: { from: 60, to: 64 } },
    badges: { added: [{ name: "Spark Plug", tier: "Silver" }], removed: [], upgraded: [], downgraded: [] },
  });
});
