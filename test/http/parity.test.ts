// The drop-in parity routes (docs/compatibility.md#the-hosted-services-extra-routes) on fixture editions: success, every error, and the
// edge cases the contract names, checked against plain-array oracles.
import t from "tap";
import { BADGES, BADGE_TIERS, type BadgeTier } from "../../src/model/badges.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { startHarness } from "./harness.js";
import { compareNames, historyEdition, oracleChanges, WEEK_DATES } from "./parity-fixture.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { PROBE_POLICY } from "../../src/limits/token-buckets.js";

const current = historyEdition();
const archived = { ...randomEdition(300, 22, "archived"), gameVersion: "2K26" };
const h = await startHarness({ sources: [current, archived] });
t.teardown(() => h.close());
const players = current.players;
const byId = new Map(players.map((player) => [player._id, player]));

t.test("/ and /api/health answer without a key, from the generous per-address probe bucket (docs/operations.md)", async (t) => {
  for (const path of ["/", "/api/health"]) {
    const response = await fetch(h.base + path);
    const body = await response.json() as any;
    t.equal(response.status, 200, path);
    t.match(body.data, { service: "Courtside", status: "ok", current: "2K27", editions: ["2K27", "2K26"], links: { docs: "/docs", openapi: "/api/openapi.json" } });
    t.equal(response.headers.get("x-ratelimit-limit"), String(PROBE_POLICY.capacity), "the probe bucket, with the keyed routes' headers");
    t.equal(response.headers.get("cache-control"), "no-store");
  }
});

t.test("/api/stats: no key, per-address limit, public cache for 30 minutes, ETag and 304", async (t) => {
  const response = await fetch(`${h.base}/api/stats`);
  const body = await response.json() as any;
  t.equal(response.status, 200);
  // docs/compatibility.md#fidelity-rules: avgOverall is an integer, as the hosted service sends it; the exact mean is meanOverall.
  const mean = players.reduce((sum, p) => sum + p.overall, 0) / players.length;
  const average = Math.round(mean);
  t.same(body.data.byType, { curr: players.filter((p) => p.teamType === "curr").length, class: players.filter((p) => p.teamType === "class").length, allt: players.filter((p) => p.teamType === "allt").length });
  t.match(body.data, { gameVersion: "2K27", totalPlayers: players.length, avgOverall: average, uniqueTeams: new Set(players.map((p) => p.team)).size });
  t.ok(Number.isInteger(body.data.avgOverall));
  t.ok(Math.abs(body.data.meanOverall - mean) < 1e-9, "the exact mean");
  t.equal(response.headers.get("cache-control"), "public, max-age=1800");
  t.equal(response.headers.get("x-ratelimit-limit"), null, "a public answer carries no requester's rate-limit headers (a shared cache would replay them)");
  const etag = response.headers.get("etag")!;
  const again = await fetch(`${h.base}/api/stats`, { headers: { "if-none-match": etag } });
  t.equal(again.status, 304);
  t.equal(again.headers.get("cache-control"), "public, max-age=1800", "the 304 keeps the route's policy");
  t.equal((await h.json("/api/stats?gameVersion=2k26")).body.data.totalPlayers, 300);
  t.equal((await h.json("/api/stats?gameVersion=2K99")).status, 404);
  t.equal((await h.json("/api/stats?gameVersion=26")).body.error.code, "INVALID_PARAMETER");
  // docs/compatibility.md#fidelity-rules: the hosted service ignores unknown parameters on /api/stats (it was a 400).
  const unknown = await h.json("/api/stats?edition=2K26");
  t.equal(unknown.status, 200);
  t.equal(unknown.body.meta.warnings[0].parameter, "edition");
});

t.test("/api/players/:id: the full record by _id; INVALID_ID for another shape; 404 for an unknown id", async (t) => {
  const player = players[5]!;
  const { status, body, headers } = await h.json(`/api/players/${player._id}`);
  t.equal(status, 200);
  const bySlug = await h.json(`/api/players/slug/${player.slug}?teamType=${player.teamType}`);
  t.same(body.data, bySlug.body.data, "the same record as the slug route");
  t.ok(headers.get("etag"));
  const bad = await h.json("/api/players/not-an-id!");
  t.equal(bad.status, 400);
  t.equal(bad.body.error.code, "INVALID_ID");
  const unknown = await h.json(`/api/players/${"0".repeat(24)}`);
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, "PLAYER_NOT_FOUND");
  t.equal((await fetch(`${h.base}/api/players/${player._id}`)).status, 401, "needs a key");
});

t.test("literal paths are never read as an :id", async (t) => {
  t.equal((await h.json("/api/players/bulk?era=curr&fields=name")).body.meta.total, players.filter((p) => p.teamType === "curr").length);
  t.equal((await h.json("/api/players/search")).body.error.code, "MISSING_PARAMETER", "search, not an id");
  t.equal((await h.get("/api/players/batch")).status, 405, "batch is a POST route, not an id");
  const slugVersions = await h.json("/api/players/slug/versions");
  t.equal(slugVersions.body.error.code, "PLAYER_NOT_FOUND");
  t.equal(slugVersions.body.error.details.slug, "versions", "the slug route, asked for the slug `versions`");
  const currentPlayer = players.find((p) => p.teamType === "curr")!;
  t.equal((await h.json(`/api/players/slug/${currentPlayer.slug}`)).body.data._id, currentPlayer._id);
});

t.test("/api/players/:id/versions: the overall in every edition, by _id or slug", async (t) => {
  const player = players.find((p) => archived.players.some((a) => a._id === p._id)) ?? players[0]!;
  const { status, body } = await h.json(`/api/players/${player._id}/versions`);
  t.equal(status, 200);
  t.match(body.data, { playerId: player._id, name: player.name, slug: player.slug, currentVersion: "2K27", currentOverall: player.overall });
  const older = archived.players.find((a) => a._id === player._id);
  t.same(body.data.ratingHistory, older
    ? [{ gameVersion: "2K27", overall: player.overall, delta: player.overall - older.overall }, { gameVersion: "2K26", overall: older.overall }]
    : [{ gameVersion: "2K27", overall: player.overall }]);
  t.equal((await h.json(`/api/players/${player.slug}/versions?teamType=${player.teamType}`)).body.data.playerId, player._id);
  t.equal((await h.json("/api/players/nobody-at-all/versions")).status, 404);
  // docs/compatibility.md#fidelity-rules: unknown parameters are ignored here, as the hosted service does (it was a 400).
  t.equal((await h.json(`/api/players/${player._id}/versions?limit=3`)).status, 200);
});

t.test("/api/players/:id/attribute/:attr: one attribute over the weeks, oldest first", async (t) => {
  const i = players.findIndex((p, k) => k % 5 === 0 && p.attributes.speed !== undefined);
  const player = players[i]!;
  const weeks = current.history.map((week) => ({ date: week.date, entry: week.players.find((p) => p._id === player._id)! }));
  for (const name of ["speed", "speed"]) {
    const { status, body } = await h.json(`/api/players/${player._id}/attribute/${name}`);
    t.equal(status, 200);
    // docs/compatibility.md#fidelity-rules: points carry scrapedAt, and meta echoes the path's id and attribute (ours: id, key).
    t.same(body.data, weeks.map(({ date, entry }) => ({ date, scrapedAt: `${date}T00:00:00.000Z`, value: entry.attributes.speed })));
    t.same(body.meta, { playerId: player._id, attribute: "speed", dataPoints: 3, id: player._id, key: "speed" });
  }
  const three = await h.json(`/api/players/${player._id}/attribute/three_ball?limit=2`);
  t.same(three.body.data.map((point: any) => point.date), WEEK_DATES.slice(1), "the last `limit` points");
  t.equal(three.body.meta.attribute, "three_ball", "as asked");
  t.equal(three.body.meta.key, "threePointShot");
  t.equal((await h.json(`/api/players/${player._id}/attribute/three_point_shot`)).body.meta.key, "threePointShot");
  const overall = await h.json(`/api/players/${player._id}/attribute/overall`);
  t.same(overall.body.data.map((point: any) => point.value), weeks.map(({ entry }) => entry.overall));
  // docs/compatibility.md#fidelity-rules: an unknown attribute (it was a 400) or player is 200 with data: [], as the hosted service answers.
  const bad = await h.json(`/api/players/${player._id}/attribute/jumping`);
  t.equal(bad.status, 200);
  t.same(bad.body.data, []);
  t.same(bad.body.meta, { playerId: player._id, attribute: "jumping", dataPoints: 0, warnings: bad.body.meta.warnings });
  t.equal(bad.body.meta.warnings[0].parameter, "attr");
  const nobody = await h.json("/api/players/nobody-at-all/attribute/speed");
  t.equal(nobody.status, 200);
  t.same(nobody.body.data, []);
  t.equal((await h.json(`/api/players/${player._id}/attribute/speed?limit=0`)).status, 400);
});

t.test("history `changes` agree with the difference of consecutive weekly snapshots (oracle over plain arrays)", async (t) => {
  let withBadgeChanges = 0;
  let withAttributeChanges = 0;
  for (const player of players) {
    const { status, body } = await h.json(`/api/players/${player._id}/history`);
    t.equal(status, 200);
    const weeks = current.history.map((week) => week.players.find((p) => p._id === player._id)!);
    const expected = weeks.map((entry, w) => (w === 0 ? undefined : oracleChanges(weeks[w - 1]!, entry))).reverse();
    const actual = body.data.map((entry: any) => entry.changes);
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      t.same(actual, expected, `changes of ${player.name}`);
      return;
    }
    t.equal(body.data[body.data.length - 1].changes, undefined, "the first week has none");
    if (expected.some((changes) => changes && Object.values(changes.badges).some((list) => list.length > 0))) withBadgeChanges++;
    if (expected.some((changes) => changes && Object.keys(changes.attributes).length > 0)) withAttributeChanges++;
  }
  t.ok(withBadgeChanges > 10 && withAttributeChanges > 10, `the fixture moves badges (${withBadgeChanges}) and attributes (${withAttributeChanges})`);
});

/** Trending oracle over the plain weeks: moved players in the window, by |total| desc then name. */
function oracleTrending(firstWeek: number) {
  const moved = players.map((player) => {
    const weeks = current.history.map((week) => week.players.find((p) => p._id === player._id)!.overall);
    let total = 0;
    let changes = 0;
    for (let w = firstWeek; w < weeks.length; w++) {
      if (weeks[w] !== weeks[w - 1]) { total += weeks[w]! - weeks[w - 1]!; changes++; }
    }
    return { player, total, changes };
  }).filter((entry) => entry.changes > 0);
  return moved.sort((a, b) => Math.abs(b.total) - Math.abs(a.total) || compareNames(a.player, b.player));
}

t.test("/api/trending: the window, its order, era filter before limit, direction", async (t) => {
  const week = oracleTrending(2);
  const { status, body, headers } = await h.json("/api/trending");
  t.equal(status, 200);
  t.equal(headers.get("cache-control"), "private, max-age=300");
  t.ok(headers.get("etag"));
  t.same(body.data.map((entry: any) => [entry.playerId, entry.totalDelta, entry.changes]), week.slice(0, 20).map((e) => [e.player._id, e.total, e.changes]));
  t.match(body.meta, { count: 20, days: 7, teamType: "all", direction: "both", from: WEEK_DATES[1], to: WEEK_DATES[2] });
  const first = body.data[0];
  t.same(Object.keys(first.player), ["_id", "name", "slug", "team", "teamType", "overall", "playerImage"].filter((key) => (byId.get(first.playerId) as any)[key] !== undefined));

  const allt = await h.json("/api/trending?teamType=allt&limit=3");
  t.same(allt.body.data.map((entry: any) => entry.playerId), week.filter((e) => e.player.teamType === "allt").slice(0, 3).map((e) => e.player._id), "the era filter comes before the limit");
  const twoWeeks = await h.json("/api/trending?days=14&limit=50&direction=down");
  t.same(twoWeeks.body.data.map((entry: any) => entry.totalDelta), oracleTrending(1).filter((e) => e.total < 0).slice(0, 50).map((e) => e.total));
  t.equal(twoWeeks.body.meta.from, WEEK_DATES[0]);
  const up = await h.json("/api/trending?direction=UP&limit=50");
  t.ok(up.body.data.length > 0 && up.body.data.every((entry: any) => entry.totalDelta > 0));
  // docs/compatibility.md#fidelity-rules: days=1.5 is read as 1 now (with a warning), as the hosted service reads numbers.
  const fractional = await h.json("/api/trending?days=1.5&_=1");
  t.equal(fractional.status, 200);
  t.equal(fractional.body.meta.days, 1);
  t.same(fractional.body.meta.warnings.map((w: any) => w.parameter), ["days"]);
  for (const bad of ["days=0", "days=91", "limit=51", "direction=sideways", "teamType=all", "days=", "teamType="]) {
    const { status: badStatus, body: badBody } = await h.json(`/api/trending?${bad}`);
    t.equal(badStatus, 400, bad);
    t.equal(badBody.error.code, "INVALID_PARAMETER", bad);
  }
  t.equal((await fetch(`${h.base}/api/trending`)).status, 401);
});

/** Holders of a badge in the fixture: best tier first, then overall desc, then name. */
function oracleHolders(slug: string, filter: (player: PlayerRecord) => boolean = () => true) {
  return players
    .filter((player) => filter(player) && player.badges.list?.some((badge) => badge.slug === slug))
    .map((player) => ({ player, tier: player.badges.list!.find((badge) => badge.slug === slug)!.tier }))
    .sort((a, b) => BADGE_TIERS.indexOf(b.tier as BadgeTier) - BADGE_TIERS.indexOf(a.tier as BadgeTier) || b.player.overall - a.player.overall || compareNames(a.player, b.player));
}

t.test("badge routes: catalogue, categories, one badge, holders", async (t) => {
  const list = await h.json("/api/badges");
  t.equal(list.status, 200);
  t.equal(list.body.data.length, BADGES.length);
  const order = list.body.data.map((badge: any) => `${badge.category}/${badge.name}`);
  t.same(order, [...order].sort(), "by category, then name");
  const deadeye = list.body.data.find((badge: any) => badge.slug === "deadeye");
  const holders = oracleHolders("deadeye");
  t.same(deadeye.holders, {
    total: holders.length, legendary: holders.filter((x) => x.tier === "Legendary").length, hallOfFame: holders.filter((x) => x.tier === "Hall of Fame").length,
    gold: holders.filter((x) => x.tier === "Gold").length, silver: holders.filter((x) => x.tier === "Silver").length, bronze: holders.filter((x) => x.tier === "Bronze").length,
  });
  t.ok(typeof deadeye.description === "string" && deadeye.description.length > 10);
  const shooting = await h.json("/api/badges?category=SHOOTING");
  t.ok(shooting.body.data.length === 5 && shooting.body.data.every((badge: any) => badge.category === "Outside Scoring"), "the legacy name shooting still selects the category, under 2kratings' name (docs/compatibility.md#fidelity-rules)");
  // docs/compatibility.md#fidelity-rules: an unknown category lists nothing, with a warning (it was a 400).
  const passing = await h.json("/api/badges?category=passing");
  t.equal(passing.status, 200);
  t.same(passing.body.data, []);
  t.equal(passing.body.meta.warnings[0].parameter, "category");

  const categories = await h.json("/api/badges/categories");
  t.same(categories.body.data.find((entry: any) => entry.category === "Rebounding"), { category: "Rebounding", count: 2 });

  const one = await h.json("/api/badges/Post-Up-Poet");
  t.equal(one.body.data.name, "Post-Up Poet");
  const unknown = await h.json("/api/badges/dead-eyes");
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, "BADGE_NOT_FOUND");
  t.ok(unknown.body.error.details.suggestions.includes("deadeye"));
  // docs/compatibility.md#fidelity-rules: the holders of an unknown badge are nobody (200, data: []), as the hosted service answers.
  const noHolders = await h.json("/api/badges/dead-eyes/players");
  t.equal(noHolders.status, 200);
  t.same(noHolders.body.data, []);
  t.ok(noHolders.body.meta.warnings[0].suggestions.includes("deadeye"));

  const page1 = await h.json("/api/badges/deadeye/players?limit=7");
  t.same(page1.body.data.map((p: any) => [p._id, p.badgeTier]), holders.slice(0, 7).map((x) => [x.player._id, x.tier]));
  t.same(Object.keys(page1.body.data[0]).filter((key) => key !== "playerImage"), ["_id", "name", "slug", "team", "teamType", "overall", "badgeTier"]);
  t.match(page1.body.meta, { badge: "deadeye", tier: "all", count: 7, pagination: { total: holders.length, nextCursor: "7", hasMore: true } });
  const page2 = await h.json(`/api/badges/deadeye/players?limit=7&cursor=${page1.body.meta.pagination.nextCursor}`);
  t.same(page2.body.data.map((p: any) => p._id), holders.slice(7, 14).map((x) => x.player._id));
  const gold = await h.json("/api/badges/deadeye/players?tier=gold&teamType=class&limit=100");
  t.same(gold.body.data.map((p: any) => p._id), oracleHolders("deadeye", (p) => p.teamType === "class").filter((x) => x.tier === "Gold").map((x) => x.player._id));
  // docs/compatibility.md#fidelity-rules: an unknown tier matches nothing and cursor=-1 reads as 0, each with a warning (they were 400s).
  const platinum = await h.json("/api/badges/deadeye/players?tier=platinum");
  t.equal(platinum.status, 200);
  t.same(platinum.body.data, []);
  t.equal(platinum.body.meta.warnings[0].parameter, "tier");
  const negative = await h.json("/api/badges/deadeye/players?cursor=-1&limit=7");
  t.same(negative.body.data.map((p: any) => p._id), page1.body.data.map((p: any) => p._id));
  t.equal(negative.body.meta.warnings[0].parameter, "cursor");
  t.equal((await h.json("/api/badges/deadeye/players?limit=0")).status, 400);
});

t.test("an archived edition without badge lists answers the badge routes with 400 naming it", async (t) => {
  for (const path of ["/api/badges?gameVersion=2K26", "/api/badges/categories?gameVersion=2k26", "/api/badges/deadeye?gameVersion=2K26", "/api/badges/deadeye/players?gameVersion=2K26"]) {
    const { status, body } = await h.json(path);
    t.equal(status, 400, path);
    t.equal(body.error.code, "INVALID_PARAMETER");
    t.match(body.error.details.reason, /2K26/);
  }
  t.equal((await h.json("/api/badges?gameVersion=2K19")).body.error.code, "VERSION_NOT_FOUND");
});

t.test("/api/public/players: no key, full records, cursor pages, public cache", async (t) => {
  const response = await fetch(`${h.base}/api/public/players?teamType=allt&limit=5`);
  const body = await response.json() as any;
  t.equal(response.status, 200);
  t.equal(response.headers.get("cache-control"), "public, max-age=3600");
  t.equal(response.headers.get("x-ratelimit-limit"), null, "no requester's rate-limit headers on a public answer");
  const expected = players.filter((p) => p.teamType === "allt").sort((a, b) => b.overall - a.overall || compareNames(a, b));
  t.same(body.data.map((p: any) => p._id), expected.slice(0, 5).map((p) => p._id));
  // docs/compatibility.md#fidelity-rules: full player records, the rows /api/players answers (they were summary players plus height).
  const keyed = await h.json("/api/players?teamType=allt&limit=5");
  t.same(body.data, keyed.body.data);
  t.ok(body.data.every((p: any) => typeof p.attributes === "object" && typeof p.badges === "object"));
  t.match(body.meta.pagination, { total: expected.length, limit: 5, count: 5, cursor: "0", nextCursor: "5", hasMore: true });
  const bad = await fetch(`${h.base}/api/public/players?fields=name`);
  t.equal(bad.status, 400, "only the public parameters");
});

t.test("the 61st keyless request in a minute is a 429 with Retry-After", async (t) => {
  const limited = await startHarness({ sources: [current], env: { CORS_ORIGINS: "https://app.example" } });
  t.teardown(() => limited.close());
  for (let i = 0; i < 60; i++) {
    const response = await fetch(`${limited.base}/api/public/players?limit=1`, { headers: { origin: "https://app.example" } });
    t.equal(response.status, 200);
    if (i === 0) t.equal(response.headers.get("access-control-allow-origin"), "https://app.example", "CORS as configured");
    await response.arrayBuffer();
  }
  const refused = await fetch(`${limited.base}/api/public/players?limit=1`);
  t.equal(refused.status, 429);
  t.ok(Number(refused.headers.get("retry-after")) >= 1);
  t.equal(refused.headers.get("cache-control"), "no-store", "a refusal is never cached");
  t.equal(refused.headers.get("x-ratelimit-remaining"), "0", "so it says where the requester's bucket stands");
  t.equal((await refused.json() as any).error.code, "RATE_LIMIT_EXCEEDED");
  limited.clock.now += 60_000;
  t.equal((await fetch(`${limited.base}/api/public/players?limit=1`)).status, 200, "the bucket refills");
});

t.test("every new cacheable route keeps ETag/304, compression, HEAD and rate-limit headers (none on a public answer)", async (t) => {
  const player = players[3]!;
  const routes: [string, string, boolean][] = [
    [`/api/players/${player._id}`, "private, max-age=3600", true],
    [`/api/players/${player._id}/versions`, "private, max-age=3600", true],
    [`/api/players/${player._id}/attribute/overall`, "private, max-age=3600", true],
    ["/api/trending?limit=50", "private, max-age=300", true],
    ["/api/badges", "private, max-age=3600", true],
    ["/api/badges/categories", "private, max-age=3600", true],
    ["/api/badges/deadeye", "private, max-age=3600", true],
    ["/api/badges/deadeye/players?limit=100", "private, max-age=3600", true],
    ["/api/stats", "public, max-age=1800", false],
    ["/api/public/players?limit=100", "public, max-age=3600", false],
  ];
  for (const [path, cacheControl, isKeyed] of routes) {
    const first = await h.get(path, { "accept-encoding": "br" });
    const bytes = Buffer.from(await first.arrayBuffer());
    t.equal(first.status, 200, path);
    t.equal(first.headers.get("cache-control"), cacheControl, `${path} cache policy`);
    t.equal(first.headers.get("vary"), "Accept-Encoding", path);
    t.equal(first.headers.get("x-ratelimit-limit"), isKeyed ? "100000" : null, `${path} bucket`);
    t.equal(first.headers.get("ratelimit"), isKeyed ? first.headers.get("ratelimit") : null, `${path}: no RateLimit either when public`);
    t.equal(first.headers.get("x-content-type-options"), "nosniff", `${path} nosniff`);
    if (bytes.length > 1024) t.equal(first.headers.get("content-encoding"), "br", `${path} compressed`);
    const etag = first.headers.get("etag");
    t.ok(etag, `${path} has an ETag`);
    const again = await h.get(path, { "if-none-match": etag! });
    t.equal(again.status, 304, `${path} revalidates`);
    t.equal(again.headers.get("cache-control"), cacheControl);
    t.equal(again.headers.get("x-ratelimit-remaining") !== null, isKeyed, `${path} 304 keeps the rate-limit headers, where its 200 has them`);
    const head = await fetch(h.base + path, { method: "HEAD", headers: { "x-api-key": h.key } });
    t.equal(head.status, 200, `HEAD ${path}`);
  }
});

t.test("every answer with a body is sent with X-Content-Type-Options: nosniff: JSON, errors, pages", async (t) => {
  for (const [path, status] of [["/api/players?limit=2", 200], ["/api/health", 200], ["/api/players?limit=abc", 400], ["/api/nothing-here", 404], ["/docs", 200], ["/api/openapi.json", 200]] as const) {
    const response = await h.get(path);
    await response.arrayBuffer();
    t.equal(response.status, status, path);
    t.equal(response.headers.get("x-content-type-options"), "nosniff", `${path} (${response.headers.get("content-type")})`);
  }
});
