// The drop-in parity routes (docs/compatibility.md#the-hosted-services-extra-routes) on editions built from the real samples: current 2K26
// from the two CSV scrapes with two weekly snapshots (the week before: every fourth player one
// point lower and without the first badge of its list), archived 2K25 from the API export.
import t from "tap";
import { fileURLToPath } from "node:url";
import { importFiles } from "../../src/pipeline/import.js";
import { BADGE_TIERS, type BadgeTier } from "../../src/model/badges.js";
import { countBadges } from "../../src/model/badge-summary.js";
import type { EditionSource, PlayerRecord, WeeklyPlayer } from "../../src/model/player.js";
import { startHarness } from "./harness.js";
import { compareNames, oracleChanges } from "./parity-fixture.js";

const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
const capturedAt = "2025-08-08T00:00:00.000Z";
const players = importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt });
const isMoved = (i: number) => i % 4 === 0;
const entry = (player: PlayerRecord, overall: number, list: readonly { slug: string; tier: (typeof BADGE_TIERS)[number] }[]): WeeklyPlayer =>
  ({ _id: player._id, overall, attributes: player.attributes, badges: countBadges(list), badgeList: list });
const weekBefore = players.map((player, i) => {
  const list = (player.badges.list ?? []).map(({ slug, tier }) => ({ slug, tier: tier as BadgeTier }));
  return isMoved(i) ? entry(player, player.overall - 1, list.slice(1)) : entry(player, player.overall, list);
});
const thisWeek = players.map((player) => entry(player, player.overall, (player.badges.list ?? []).map(({ slug, tier }) => ({ slug, tier: tier as BadgeTier }))));
const current: EditionSource = {
  gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players,
  history: [{ date: "2025-08-01", players: weekBefore }, { date: "2025-08-08", players: thisWeek }],
};
const archived: EditionSource = { gameVersion: "2K25", status: "archived", capturedAt, source: "api export", players: importFiles([real("2k26-api-export-sample.json")], { capturedAt }), history: [] };
const h = await startHarness({ sources: [current, archived] });
t.teardown(() => h.close());
const jokic = players.find((p) => p.slug === "nikola-jokic")!;

t.test("/, /api/health and /api/stats on real data", async (t) => {
  t.equal((await (await fetch(`${h.base}/`)).json() as any).data.current, "2K26");
  t.same((await (await fetch(`${h.base}/api/health`)).json() as any).data.editions, ["2K26", "2K25"]);
  const stats = await (await fetch(`${h.base}/api/stats`)).json() as any;
  t.match(stats.data, { gameVersion: "2K26", totalPlayers: players.length, byType: { curr: players.filter((p) => p.teamType === "curr").length, class: 0, allt: players.filter((p) => p.teamType === "allt").length } });
  t.ok(stats.data.uniqueTeams > 40 && stats.data.avgOverall > 60 && stats.data.avgOverall < 90);
  t.equal((await (await fetch(`${h.base}/api/stats?gameVersion=2K25`)).json() as any).data.totalPlayers, 63);
});

t.test("a real player by _id, its versions and an attribute series", async (t) => {
  const byId = await h.json(`/api/players/${jokic._id}`);
  t.equal(byId.status, 200);
  t.equal(byId.body.data.slug, "nikola-jokic");
  t.ok(byId.body.data.hotZones === undefined || typeof byId.body.data.hotZones === "object");
  // docs/compatibility.md: ours also answers a slug there (a superset of the hosted service), as the slug route does.
  const bySlug = await h.json("/api/players/nikola-jokic");
  t.equal(bySlug.status, 200, "a slug answers too");
  t.equal(bySlug.body.data._id, (await h.json("/api/players/slug/nikola-jokic")).body.data._id, "the slug route's row");
  t.equal((await h.json("/api/players/nikola%20jokic")).body.error.code, "INVALID_ID", "a shape no id has is refused");
  const versions = await h.json("/api/players/nikola-jokic/versions");
  t.match(versions.body.data, { playerId: jokic._id, currentVersion: "2K26", currentOverall: jokic.overall });
  const inBoth = players.find((p) => archived.players.some((a) => a._id === p._id));
  if (inBoth) {
    const both = await h.json(`/api/players/${inBoth._id}/versions`);
    t.same(both.body.data.ratingHistory.map((r: any) => r.gameVersion), ["2K26", "2K25"], `${inBoth.name} is in both editions`);
  }
  const three = await h.json("/api/players/nikola-jokic/attribute/three_ball");
  // docs/compatibility.md#fidelity-rules: points carry scrapedAt.
  t.same(three.body.data, [
    { date: "2025-08-01", scrapedAt: "2025-08-01T00:00:00.000Z", value: jokic.attributes.threePointShot },
    { date: "2025-08-08", scrapedAt: "2025-08-08T00:00:00.000Z", value: jokic.attributes.threePointShot },
  ]);
  const overall = await h.json(`/api/players/${jokic._id}/attribute/overall`);
  const i = players.indexOf(jokic);
  t.same(overall.body.data.map((p: any) => p.value), [isMoved(i) ? jokic.overall - 1 : jokic.overall, jokic.overall]);
});

t.test("history changes on real data agree with the oracle", async (t) => {
  for (const i of [0, 1, 4, 8, 100, 460, players.length - 4]) {
    const player = players[i]!;
    const { body } = await h.json(`/api/players/${player._id}/history`);
    t.same(body.data[0].changes, oracleChanges(weekBefore[i]!, thisWeek[i]!), player.name);
    t.equal(body.data[1].changes, undefined);
  }
});

t.test("trending on real data: moved players, the era filter before the limit", async (t) => {
  const moved = players.filter((_, i) => isMoved(i) && weekBefore[i]!.overall !== players[i]!.overall).sort(compareNames);
  const all = await h.json("/api/trending?limit=50");
  t.same(all.body.data.map((e: any) => e.playerId), moved.slice(0, 50).map((p) => p._id));
  t.ok(all.body.data.every((e: any) => e.totalDelta === 1 && e.changes === 1));
  const allt = await h.json("/api/trending?teamType=allt&limit=5");
  t.same(allt.body.data.map((e: any) => e.playerId), moved.filter((p) => p.teamType === "allt").slice(0, 5).map((p) => p._id));
  t.equal((await h.json("/api/trending?direction=down")).body.data.length, 0);
});

t.test("badge routes on real data; the API-export archive has no badge lists", async (t) => {
  const holders = players
    .filter((p) => p.badges.list?.some((b) => b.slug === "deadeye"))
    .map((p) => ({ p, tier: p.badges.list!.find((b) => b.slug === "deadeye")!.tier }))
    .sort((a, b) => BADGE_TIERS.indexOf(b.tier as BadgeTier) - BADGE_TIERS.indexOf(a.tier as BadgeTier) || b.p.overall - a.p.overall || compareNames(a.p, b.p));
  t.ok(holders.length > 20, "the scrape has Deadeye holders");
  const page = await h.json("/api/badges/deadeye/players?limit=100");
  t.same(page.body.data.map((x: any) => [x.name, x.badgeTier]), holders.slice(0, 100).map((x) => [x.p.name, x.tier]));
  t.equal(page.body.meta.pagination.total, holders.length);
  const one = await h.json("/api/badges/deadeye");
  t.equal(one.body.data.holders.total, holders.length);
  t.equal((await h.json("/api/badges")).body.data.length, 40);
  const unknown = await h.json("/api/badges/limitles-range");
  t.equal(unknown.body.error.code, "BADGE_NOT_FOUND");
  t.ok(unknown.body.error.details.suggestions.includes("limitless-range"));
  const archive = await h.json("/api/badges/deadeye/players?gameVersion=2K25");
  t.equal(archive.status, 400);
  t.match(archive.body.error.details.reason, /2K25/);
});

t.test("public players on real data", async (t) => {
  const response = await fetch(`${h.base}/api/public/players?team=Denver%20Nuggets&limit=3`);
  const body = await response.json() as any;
  t.equal(response.status, 200);
  // docs/compatibility.md#fidelity-rules: full records, as /api/players answers them (they were summary players plus height).
  t.ok(body.data.length === 3 && body.data.every((p: any) => p.team === "Denver Nuggets" && p.height !== undefined && typeof p.attributes === "object"));
});
