// GET /api/players/:id/percentiles: every player of the real 2K26 samples in every cohort kind,
// checked against the naive computation (percentile-oracle.ts; the demo editions in
// percentiles-editions.test.ts); and the route as the other player routes, bad input included.
import t from "tap";
import { fileURLToPath } from "node:url";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { importFiles } from "../../src/pipeline/import.js";
import type { EditionSource, PlayerRecord } from "../../src/model/player.js";
import { startHarness } from "./harness.js";
import { checkEveryPlayer, everyone } from "./percentile-oracle.js";

t.setTimeout(300_000);

type Json = any;

t.test("on the real 2K26 samples: every player, every cohort kind", async (t) => {
  const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
  const capturedAt = "2025-08-01T00:00:00.000Z";
  const current: EditionSource = { gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players: importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt }), history: [] };
  const h = await startHarness({ sources: [current] });
  t.teardown(() => h.close());
  const players = await everyone(h, "2K26");
  t.equal(await checkEveryPlayer(t, h, "2K26", players), players.length * 3);
  const curry = (await h.json("/api/players/stephen-curry/percentiles?teamType=curr")).body.data;
  t.equal(curry.cohort.position, "PG");
  t.ok(curry.attributes.find((row: Json) => row.attribute === "threePointShot").percentile >= 95, "Curry's three-point shot is near the top of current point guards");
});

t.test("the route as the other player routes: id or slug, teamType, team, gameVersion, the versioned prefix, ETag; bad input", async (t) => {
  const demo = generateDemoEditions({ asOf: "2026-11-20" });
  const current = demo.find((edition) => edition.status === "current") as EditionSource;
  const archived = demo.find((edition) => edition.gameVersion === "2K26") as EditionSource;
  // A player whose list names no known position: no position cohort (a warning), but an era one.
  const odd = { ...(current.players[0] as PlayerRecord), positions: ["Wing"] };
  const h = await startHarness({ sources: [{ ...current, players: [odd, ...current.players.slice(1)] }, archived] });
  t.teardown(() => h.close());
  const players = await everyone(h, current.gameVersion);
  const target = players.find((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 30) as PlayerRecord;

  const byId = await h.json(`/api/players/${target._id}/percentiles`);
  t.equal(byId.status, 200);
  t.equal(byId.body.data.cohort.kind, "position", "position is the default cohort");
  t.equal(byId.body.meta.gameVersion, current.gameVersion);
  t.match(byId.body.meta.method, /below \+ equal \/ 2/);
  t.ok(byId.headers.get("etag"), "cacheable with an ETag");
  t.equal((await h.get(`/api/players/${target._id}/percentiles`, { "if-none-match": byId.headers.get("etag") as string })).status, 304);
  const bySlug = await h.json(`/api/players/${target.slug}/percentiles?teamType=curr`);
  t.same(bySlug.body.data, byId.body.data, "a slug narrowed by teamType is the same player");
  const byTeam = await h.json(`/api/players/${target.slug}/percentiles?team=${encodeURIComponent(target.team)}`);
  t.same(byTeam.body.data, byId.body.data, "team= narrows as on /api/players/slug/:slug");
  const upper = await h.json(`/api/players/${target._id}/percentiles?cohort=ERA`);
  t.equal(upper.body.data.cohort.kind, "era", "cohort is read in any case");

  const old = (await everyone(h, "2K26")).find((p) => Object.keys(p.attributes).length > 30) as PlayerRecord;
  const byParam = await h.json(`/api/players/${old._id}/percentiles?gameVersion=2k26&cohort=all`);
  const byPrefix = await h.json(`/api/versions/2K26/players/${old._id}/percentiles?cohort=all`);
  t.equal(byParam.status, 200);
  t.equal(byParam.body.meta.gameVersion, "2K26");
  t.same(byPrefix.body, byParam.body, "gameVersion= answers as the versioned prefix does");

  const noPosition = await h.json(`/api/players/${odd._id}/percentiles`);
  t.equal(noPosition.status, 200);
  t.same(noPosition.body.data.cohort, { kind: "position", era: odd.teamType, position: null, size: 0 });
  t.equal(noPosition.body.data.overall.percentile, null);
  t.equal(noPosition.body.meta.warnings[0].parameter, "cohort");
  t.type((await h.json(`/api/players/${odd._id}/percentiles?cohort=era`)).body.data.overall.percentile, "number", "its era cohort answers");

  const cases: [string, number, string][] = [
    [`/api/players/${target._id}/percentiles?cohort=team`, 400, "INVALID_PARAMETER"],
    [`/api/players/${target._id}/percentiles?teamType=future`, 400, "INVALID_PARAMETER"],
    [`/api/players/${target._id}/percentiles?gameVersion=2K99`, 404, "VERSION_NOT_FOUND"],
    [`/api/players/${target._id}/percentiles?gameVersion=26`, 400, "INVALID_PARAMETER"],
    [`/api/versions/2K9/players/${target._id}/percentiles`, 400, "INVALID_VERSION"],
    [`/api/versions/2K99/players/${target._id}/percentiles`, 404, "VERSION_NOT_FOUND"],
    ["/api/players/nobody-at-all/percentiles", 404, "PLAYER_NOT_FOUND"],
    [`/api/players/${target._id}/percentiles?teamType=allt`, 404, "PLAYER_NOT_FOUND"],
    [`/api/players/${target.slug}/percentiles?team=Nowhere%20Team`, 404, "PLAYER_NOT_FOUND"],
  ];
  for (const [path, status, code] of cases) {
    const response = await h.json(path);
    t.equal(response.status, status, path);
    t.equal(response.body.success, false, `${path}: the error envelope`);
    t.equal(response.body.error?.code, code, path);
  }
  const miss = await h.json(`/api/players/${target.slug.slice(0, -1)}x/percentiles`);
  t.ok(miss.body.error.details.suggestions.includes(target.slug), "an unknown slug is answered with suggestions, as on /similar");
  const unkeyed = await fetch(`${h.base}/api/players/${target._id}/percentiles`);
  t.equal(unkeyed.status, 401, "a key is needed");
});
