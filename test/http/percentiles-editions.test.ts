// GET /api/players/:id/percentiles over every player of two demo editions and a tie-heavy
// fixture, in every cohort kind, checked against the naive computation (percentile-oracle.ts).
import t from "tap";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import type { EditionSource } from "../../src/model/player.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { startHarness } from "./harness.js";
import { checkEveryPlayer, everyone } from "./percentile-oracle.js";

// ~12,000 requests, each answer checked value by value: minutes on a busy two-core machine.
t.setTimeout(600_000);

type Json = any;

t.test("two demo editions and a tie-heavy fixture: every player, every cohort kind, as the naive computation", { timeout: 560_000 }, async (t) => {
  const demo = generateDemoEditions({ asOf: "2026-11-20" });
  const current = demo.find((edition) => edition.status === "current") as EditionSource;
  const archived = demo.find((edition) => edition.gameVersion === "2K26") as EditionSource;
  // Values 60–71 (ties everywhere), 5 % of attributes absent, rookies with none.
  const ties = { ...randomEdition(400, 31, "archived"), gameVersion: "2K19" };
  const h = await startHarness({ sources: [current, archived, ties] });
  t.teardown(() => h.close());
  for (const version of [current.gameVersion, "2K26", "2K19"]) {
    const players = await everyone(h, version);
    const checked = await checkEveryPlayer(t, h, version, players);
    t.equal(checked, players.length * 3, `${version}: ${players.length} players × 3 cohorts checked`);
  }
  const rookies = (await everyone(h, "2K19")).filter((p) => Object.keys(p.attributes).length === 0);
  t.ok(rookies.length > 0, "the fixture has players without attributes (their percentiles are null)");
  const rookie = (await h.json(`/api/versions/2K19/players/${rookies[0]?._id}/percentiles`)).body.data;
  t.ok(rookie.attributes.every((row: Json) => row.value === null && row.percentile === null), "a player without attributes has no attribute percentile");
  t.type(rookie.overall.percentile, "number", "but has an overall percentile");
});

