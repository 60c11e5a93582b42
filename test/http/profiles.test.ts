// The profile routes (similar players, comparison, team profile) on the fixture editions and on
// the real 2K26 samples, checked against what the test computes itself from full records.
import t from "tap";
import { fileURLToPath } from "node:url";
import { GROUP_SCORE_KEYS } from "../../src/model/attributes.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { importFiles } from "../../src/pipeline/import.js";
import type { EditionSource, PlayerRecord } from "../../src/model/player.js";
import { fixtureEditions, startHarness, type Harness } from "./harness.js";

type Json = any;

/** Every player of an edition in full, from bulk, era by era. */
async function everyone(h: Harness, version = ""): Promise<PlayerRecord[]> {
  const players: PlayerRecord[] = [];
  for (const era of ["curr", "class", "allt"]) {
    const path = version === "" ? `/api/players/bulk?era=${era}` : `/api/versions/${version}/players/bulk?era=${era}`;
    const { status, body } = await h.json(path);
    if (status !== 200) throw new Error(`bulk ${status}`);
    players.push(...(body.data as PlayerRecord[]));
  }
  return players;
}

/** The naive oracle: standardise every attribute by its spread over all players, RMS over shared ones. */
function oracleSimilar(players: readonly PlayerRecord[], target: PlayerRecord, scope: (p: PlayerRecord) => boolean): { slug: string; _id: string; similarity: number }[] {
  const keys = [...new Set(players.flatMap((p) => Object.keys(p.attributes)))].filter((key) => !(GROUP_SCORE_KEYS as readonly string[]).includes(key));
  const sd = new Map<string, number>();
  for (const key of keys) {
    const values = players.map((p) => (p.attributes as Record<string, number>)[key]).filter((v): v is number => v !== undefined);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    sd.set(key, Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length));
  }
  const own = target.attributes as Record<string, number>;
  const columns = keys.filter((key) => own[key] !== undefined && (sd.get(key) ?? 0) > 0);
  return players
    .filter((p) => p._id !== target._id && scope(p))
    .flatMap((p) => {
      const other = p.attributes as Record<string, number>;
      const shared = columns.filter((key) => other[key] !== undefined);
      if (shared.length === 0 || shared.length < Math.ceil(columns.length / 2)) return [];
      const d = Math.sqrt(shared.reduce((sum, key) => sum + (((own[key] as number) - (other[key] as number)) / (sd.get(key) as number)) ** 2, 0) / shared.length);
      return [{ slug: p.slug, _id: p._id, similarity: 1 / (1 + d) }];
    })
    .sort((a, b) => b.similarity - a.similarity);
}

t.test("on the fixture editions", async (t) => {
  const h = await startHarness({ sources: fixtureEditions() });
  t.teardown(() => h.close());
  const players = await everyone(h);
  const target = players.find((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 30) as PlayerRecord;

  t.test("similar: closest first, self excluded, the naive oracle's order and values", async (t) => {
    const { status, body, headers } = await h.json(`/api/players/${target._id}/similar?limit=5`);
    t.equal(status, 200);
    t.ok(headers.get("etag"), "cacheable with an ETag");
    const data = body.data as Json[];
    t.equal(data.length, 5);
    t.notOk(data.some((entry) => entry.player._id === target._id), "the player itself is excluded");
    t.ok(data.every((entry) => entry.player.teamType === "curr"), "scope defaults to the player's own era");
    const similarities = data.map((entry) => entry.similarity);
    t.same(similarities, [...similarities].sort((a, b) => b - a), "most similar first");
    t.ok(similarities.every((s) => s > 0 && s <= 1));
    const oracle = oracleSimilar(players, target, (p) => p.teamType === "curr");
    t.equal(data[0].player._id, oracle[0]?._id, "the most similar is the one with the highest similarity of all candidates");
    data.forEach((entry, i) => t.ok(Math.abs(entry.similarity - (oracle[i]?.similarity ?? -1)) < 1e-3, `similarity ${i} matches the oracle`));
    t.equal(data[0].agreesMost.length, 3);
    t.equal(data[0].differsMost.length, 3);
    const gap = (c: Json) => Math.abs(c.value - c.otherValue);
    t.ok(gap(data[0].agreesMost[0]) <= gap(data[0].differsMost[0]), "what agrees most differs less than what differs most");
    t.equal(body.meta.player._id, target._id);
    t.match(body.meta.method, /standard deviation/);

    const again = await h.get(`/api/players/${target._id}/similar?limit=5`, { "if-none-match": headers.get("etag") as string });
    t.equal(again.status, 304);
  });

  t.test("similar: by slug, era=all, position and limit", async (t) => {
    const all = await h.json(`/api/players/${target.slug}/similar?teamType=curr&era=all&limit=50`);
    t.equal(all.status, 200);
    t.equal(all.body.data.length, 50);
    t.equal(all.body.meta.scope.era, "all");
    const oracle = oracleSimilar(players, target, () => true);
    t.equal(all.body.data[0].player._id, oracle[0]?._id);
    const guards = await h.json(`/api/players/${target._id}/similar?position=guard&limit=10`);
    t.ok(guards.body.data.every((entry: Json) => entry.player.positions.some((p: string) => p === "PG" || p === "SG")), "position narrows");
    const unknown = await h.json(`/api/players/${target._id}/similar?position=goalie`);
    t.equal(unknown.status, 200, "an unknown position is read leniently");
    t.same(unknown.body.data, [], "and matches nobody");
    t.equal(unknown.body.meta.warnings[0].parameter, "position");
    t.equal((await h.json(`/api/players/${target._id}/similar?limit=51`)).status, 400);
    t.equal((await h.json(`/api/players/${target._id}/similar?limit=0`)).status, 400);
  });

  t.test("similar: a player without attributes gets [] and a warning, never a 500", async (t) => {
    const rookie = players.find((p) => Object.keys(p.attributes).length === 0) as PlayerRecord;
    t.ok(rookie, "the fixture has a rookie without a scrape");
    const { status, body } = await h.json(`/api/players/${rookie._id}/similar`);
    t.equal(status, 200);
    t.same(body.data, []);
    t.equal(body.meta.warnings.length, 1);
    t.equal(body.meta.warnings[0].parameter, "id");
    // A request's own lenient values add their warnings after the route's, never in place of them.
    const lenient = await h.json(`/api/players/${rookie._id}/similar?position=goalie`);
    t.equal(lenient.status, 200);
    t.same(lenient.body.meta.warnings.map((warning: Json) => warning.parameter), ["id", "position"]);
  });

  t.test("similar: unknown ids are 404 with suggestions", async (t) => {
    const { status, body } = await h.json(`/api/players/${target.slug.slice(0, -1)}x/similar`);
    t.equal(status, 404);
    t.equal(body.error.code, "PLAYER_NOT_FOUND");
    t.ok(body.error.details.suggestions.includes(target.slug), "the slug is suggested");
  });

  t.test("compare: side by side, the right leaders", async (t) => {
    const [a, b, c] = players.filter((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 30) as [PlayerRecord, PlayerRecord, PlayerRecord];
    const { status, body, headers } = await h.json(`/api/players/compare?ids=${a._id},${b.slug},${c._id}`);
    t.equal(status, 200);
    t.ok(headers.get("etag"));
    const data = body.data;
    t.same(data.players.map((p: Json) => p._id), [a._id, b._id, c._id], "in the order asked");
    t.same(data.overall.values, [a.overall, b.overall, c.overall]);
    const top = Math.max(a.overall, b.overall, c.overall);
    t.same(data.overall.best, [a, b, c].flatMap((p, i) => (p.overall === top ? [i] : [])));
    for (const row of data.attributes) {
      const values = [a, b, c].map((p) => (p.attributes as Record<string, number>)[row.attribute] ?? null);
      t.same(row.values, values, `${row.attribute} values`);
      const best = Math.max(...values.filter((v): v is number => v !== null));
      t.same(row.best, values.flatMap((v, i) => (v === best ? [i] : [])), `${row.attribute} best`);
    }
    const shooting = data.groups.find((g: Json) => g.group === "outsideScoring");
    const keys = ["closeShot", "midRangeShot", "threePointShot", "freeThrow", "shotIQ", "offensiveConsistency"];
    const score = (p: PlayerRecord) => {
      const values = keys.map((key) => (p.attributes as Record<string, number>)[key]).filter((v): v is number => v !== undefined);
      return Math.round((values.reduce((x, y) => x + y, 0) / values.length) * 10) / 10;
    };
    t.same(shooting.scores, [score(a), score(b), score(c)]);
    const lead = Math.max(score(a), score(b), score(c));
    t.same(shooting.leader, [a, b, c].flatMap((p, i) => (score(p) === lead ? [i] : [])), "the group leader");
    const heldByA = a.badges.list ?? [];
    for (const badge of heldByA) t.equal(data.badges.find((x: Json) => x.slug === badge.slug)?.tiers[0], badge.tier);
  });

  t.test("compare: bad input", async (t) => {
    const [a, b] = players as [PlayerRecord, PlayerRecord];
    const cases: [string, number, string][] = [
      // A missing ids is MISSING_PARAMETER, as a missing q is on search (empty or blank alike).
      ["/api/players/compare", 400, "MISSING_PARAMETER"],
      ["/api/players/compare?ids=", 400, "MISSING_PARAMETER"],
      ["/api/players/compare?ids=%20", 400, "MISSING_PARAMETER"],
      ["/api/players/compare?teamType=curr", 400, "MISSING_PARAMETER"],
      ["/api/players/compare?bogus=1", 400, "UNKNOWN_PARAMETERS"],
      ["/api/versions/2K26/players/compare", 400, "MISSING_PARAMETER"],
      ["/api/players/search", 400, "MISSING_PARAMETER"],
      ["/api/players/search?q=%20", 400, "MISSING_PARAMETER"],
      [`/api/players/compare?ids=${a._id}`, 400, "INVALID_PARAMETER"],
      [`/api/players/compare?ids=${players.slice(0, 5).map((p) => p._id).join(",")}`, 400, "INVALID_PARAMETER"],
      [`/api/players/compare?ids=${a._id},${a._id}`, 400, "INVALID_PARAMETER"],
      [`/api/players/compare?ids=${a._id},${b._id},nobody-at-all`, 404, "PLAYER_NOT_FOUND"],
      [`/api/players/compare?ids=${a._id},${b._id}&gameVersion=2K99`, 404, "VERSION_NOT_FOUND"],
    ];
    for (const [path, status, code] of cases) {
      const response = await h.json(path);
      t.equal(response.status, status, path);
      t.equal(response.body.error.code, code, path);
      if (code === "MISSING_PARAMETER") t.match(response.body.error, { details: { parameter: path.includes("search") ? "q" : "ids" }, message: /is required.*e\.g\. \/api\/players\// }, `${path}: names the parameter and shows it`);
    }
    // The same player by _id and by slug is a repeat too.
    const same = await h.json(`/api/players/compare?ids=${a._id},${a.slug}&teamType=${a.teamType}`);
    t.equal(same.status, 400);
    t.match(same.body.error.message, /same player/);
  });

  t.test("team profile: means equal the roster's means, ranks within the era", async (t) => {
    const teamName = players.find((p) => p.teamType === "curr")?.team as string;
    const roster = (await h.json(`/api/teams/${encodeURIComponent(teamName)}/roster`)).body.data as PlayerRecord[];
    const { status, body, headers } = await h.json(`/api/teams/${encodeURIComponent(teamName)}/profile`);
    t.equal(status, 200);
    t.ok(headers.get("etag"));
    t.equal(body.data.team.teamName, teamName);
    for (const row of body.data.attributes) {
      const values = roster.map((p) => (p.attributes as Record<string, number>)[row.attribute]).filter((v): v is number => v !== undefined);
      t.equal(row.holders, values.length, `${row.attribute} holders`);
      t.equal(row.mean, Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10, `${row.attribute} mean`);
      t.equal(row.best.value, Math.max(...values), `${row.attribute} best`);
    }
    const tiers = roster.reduce((sum, p) => sum + p.badges.gold, 0);
    t.equal(body.data.badges.gold, tiers, "gold badges summed");
    t.equal(Object.values(body.data.positions.primary as Record<string, number>).reduce((a, b) => a + b, 0), roster.length);
    const teams = (await h.json("/api/teams?era=curr")).body.data as Json[];
    for (const group of body.data.groups) {
      t.ok(group.rank >= 1 && group.rank <= group.of, `${group.group} rank ${group.rank} of ${group.of}`);
      t.ok(group.of <= teams.length);
    }
  });

  t.test("team profile: unknown team is 404 with suggestions; the versioned prefix answers", async (t) => {
    const teamName = players.find((p) => p.teamType === "curr")?.team as string;
    const miss = await h.json(`/api/teams/${encodeURIComponent(teamName.slice(0, -1))}/profile`);
    t.equal(miss.status, 404);
    t.equal(miss.body.error.code, "TEAM_NOT_FOUND");
    t.ok(miss.body.error.details.suggestions.includes(teamName));
    const versioned = await h.json(`/api/versions/2K27/teams/${encodeURIComponent(teamName)}/profile`);
    t.equal(versioned.status, 200);
    t.equal(versioned.body.meta.gameVersion, "2K27");
  });

  t.test("every edition: gameVersion= and the versioned prefix answer from that edition", async (t) => {
    const archived = await everyone(h, "2K26");
    const old = archived.find((p) => Object.keys(p.attributes).length > 30) as PlayerRecord;
    const byParam = await h.json(`/api/players/${old._id}/similar?gameVersion=2k26&limit=3`);
    t.equal(byParam.status, 200);
    t.equal(byParam.body.meta.gameVersion, "2K26");
    t.equal(byParam.body.data[0].player._id, oracleSimilar(archived, old, (p) => p.teamType === old.teamType)[0]?._id);
    const byPrefix = await h.json(`/api/versions/2K26/players/${old._id}/similar?limit=3`);
    t.same(byPrefix.body.data, byParam.body.data);
    const compared = await h.json(`/api/versions/2K26/players/compare?ids=${archived[0]?._id},${archived[1]?._id}`);
    t.equal(compared.status, 200);
    t.equal(compared.body.data.players[0].gameVersion, "2K26");
    const byVersionParam = await h.json(`/api/players/compare?ids=${archived[0]?._id},${archived[1]?._id}&gameVersion=2K26`);
    t.same(byVersionParam.body.data, compared.body.data, "gameVersion= answers as the versioned prefix does");
  });
});

t.test("on the real 2K26 samples", async (t) => {
  const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
  const capturedAt = "2025-08-01T00:00:00.000Z";
  const current: EditionSource = { gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players: importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt }), history: [] };
  const h = await startHarness({ sources: [current] });
  t.teardown(() => h.close());
  const players = await everyone(h);

  t.test("similar to Nikola Jokic: the oracle's closest, all centres or bigs near the top", async (t) => {
    const jokic = players.find((p) => p.slug === "nikola-jokic") as PlayerRecord;
    const { status, body } = await h.json("/api/players/nikola-jokic/similar?limit=10");
    t.equal(status, 200);
    t.equal(body.data.length, 10);
    const oracle = oracleSimilar(players, jokic, (p) => p.teamType === "curr");
    t.same(body.data.map((entry: Json) => entry.player._id), oracle.slice(0, 10).map((o) => o._id), "the oracle's ten, in its order");
    t.notOk(body.data.some((entry: Json) => entry.player.slug === "nikola-jokic"));
  });

  t.test("compare two real players: the leader of each attribute", async (t) => {
    const curry = players.find((p) => p.slug === "stephen-curry") as PlayerRecord;
    const gobert = players.find((p) => p.slug === "rudy-gobert") as PlayerRecord;
    const { status, body } = await h.json("/api/players/compare?ids=stephen-curry,rudy-gobert&teamType=curr");
    t.equal(status, 200);
    const three = body.data.attributes.find((row: Json) => row.attribute === "threePointShot");
    t.same(three.values, [curry.attributes.threePointShot, gobert.attributes.threePointShot]);
    t.same(three.best, [0], "Curry leads three-point shooting");
    const block = body.data.attributes.find((row: Json) => row.attribute === "block");
    t.same(block.best, [1], "Gobert leads blocking");
    t.same(body.data.groups.find((g: Json) => g.group === "rebounding").leader, [1]);
  });

  t.test("a real team's profile means equal its roster's means", async (t) => {
    const roster = (await h.json("/api/teams/denver-nuggets/roster")).body.data as PlayerRecord[];
    const { status, body } = await h.json("/api/teams/denver-nuggets/profile");
    t.equal(status, 200);
    t.ok(body.data.attributes.length >= 30);
    for (const row of body.data.attributes) {
      const values = roster.map((p) => (p.attributes as Record<string, number>)[row.attribute]).filter((v): v is number => v !== undefined);
      t.equal(row.mean, Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10, `${row.attribute} mean`);
    }
    t.ok(body.data.badges.byCategory, "the scrape has badge lists");
    const alltime = await h.json("/api/teams/all-time-utah-jazz/profile");
    t.equal(alltime.status, 200);
    t.equal(alltime.body.data.team.teamType, "allt");
  });
});

t.test("compare, similar and team profile name every attribute, group and zone for people beside its key", async (t) => {
  const editions = generateDemoEditions({ asOf: "2026-11-20" });
  const current = editions.find((edition) => edition.status === "current")!;
  const h = await startHarness({ sources: editions });
  t.teardown(() => h.close());
  const [a, b] = current.players.filter((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 30 && Object.keys(p.hotZones ?? {}).length > 0) as [PlayerRecord, PlayerRecord];
  const compared = (await h.json(`/api/players/compare?ids=${a._id},${b._id}`)).body.data;
  t.match(compared.attributes.find((row: Json) => row.attribute === "threePointShot"), { label: "Three-Point Shot", group: "outsideScoring", groupLabel: "Outside Scoring" });
  t.match(compared.attributes.find((row: Json) => row.attribute === "shotIQ"), { label: "Shot IQ" });
  t.ok(compared.attributes.every((row: Json) => typeof row.label === "string" && row.label !== row.attribute && typeof row.groupLabel === "string"), "every attribute row");
  t.match(compared.groups.find((row: Json) => row.group === "insideScoring"), { label: "Inside Scoring" });
  t.match(compared.hotZones.find((row: Json) => row.zone === "topKeyThree"), { label: "Top of the Key Three" });
  t.ok(compared.hotZones.length > 0 && compared.hotZones.every((row: Json) => typeof row.label === "string" && row.label !== row.zone), "every zone row");
  const similar = (await h.json(`/api/players/${a._id}/similar?limit=1`)).body.data[0];
  t.ok([...similar.agreesMost, ...similar.differsMost].every((row: Json) => /^[A-Z]/.test(row.label) && row.label !== row.attribute), "similar's contrasts");
  const profile = (await h.json(`/api/teams/${encodeURIComponent(a.team)}/profile?teamType=curr`)).body.data;
  t.match(profile.attributes.find((row: Json) => row.attribute === "midRangeShot"), { label: "Mid-Range Shot" });
  t.match(profile.groups.find((row: Json) => row.group === "rebounding"), { label: "Rebounding" });
});
