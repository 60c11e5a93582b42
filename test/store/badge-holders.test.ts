import t from "tap";
import { BADGE_COUNT } from "../../src/model/badges.js";
import { buildBadgeHolders, groupOfTierCode, holderCounts, holderRange } from "../../src/store/badge-holders.js";
import { mulberry32 } from "../fixtures/random-edition.js";

t.test("each badge's run holds its holders by tier desc, overall desc, then name rank (oracle over plain arrays)", async (t) => {
  const random = mulberry32(3);
  const rows = 500;
  const overall = Uint8Array.from({ length: rows }, () => 60 + Math.floor(random() * 40));
  const badgeTiers = Uint8Array.from({ length: rows * BADGE_COUNT }, () => (random() < 0.7 ? 0 : 1 + Math.floor(random() * 5)));
  // Name order: a random permutation of the rows.
  const rowsByName = Uint32Array.from([...Array(rows).keys()].sort(() => random() - 0.5));
  const rankOf = new Map([...rowsByName].map((row, rank) => [row, rank]));
  const holders = buildBadgeHolders({ badgeTiers, overall, badgeCount: BADGE_COUNT }, rowsByName);
  for (let badge = 0; badge < BADGE_COUNT; badge++) {
    const expected = [...Array(rows).keys()]
      .filter((row) => badgeTiers[row * BADGE_COUNT + badge] !== 0)
      .sort((a, b) => badgeTiers[b * BADGE_COUNT + badge]! - badgeTiers[a * BADGE_COUNT + badge]! || overall[b]! - overall[a]! || rankOf.get(a)! - rankOf.get(b)!);
    const [start, end] = holderRange(holders, badge);
    t.same([...holders.rows.subarray(start, end)], expected, `badge ${badge}`);
    const counts = holderCounts(holders, badge);
    t.equal(counts.total, expected.length);
    t.equal(counts.legendary, expected.filter((row) => badgeTiers[row * BADGE_COUNT + badge] === 5).length);
    const [goldStart, goldEnd] = holderRange(holders, badge, groupOfTierCode(3));
    t.ok([...holders.rows.subarray(goldStart, goldEnd)].every((row) => badgeTiers[row * BADGE_COUNT + badge] === 3), "the Gold group holds Gold only");
  }
});
