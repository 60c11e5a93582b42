import t from "tap";
import { startHarness } from "./harness.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { playerId, playerSlug } from "../../src/model/player.js";
import { recordsOf } from "../fixtures/records.js";

// Michael Jordan on two classic squads and an all-time team, to exercise multi-roster slugs.
const current = randomEdition(400, 31);
const legend = current.players.find((p) => p.teamType === "class")!;
for (const team of ["1995-96 Chicago Bulls", "1991-92 Chicago Bulls"] as const) {
  const slug = playerSlug("Michael Jordan", "class", team);
  current.players.push({ ...legend, name: "Michael Jordan", team, teamType: "class", slug, _id: playerId("class", team, slug) });
}
const alltSlug = playerSlug("Michael Jordan", "allt", "All-Time Chicago Bulls");
current.players.push({ ...legend, name: "Michael Jordan", team: "All-Time Chicago Bulls", teamType: "allt", slug: alltSlug, _id: playerId("allt", "All-Time Chicago Bulls", alltSlug) });
const archived = { ...randomEdition(300, 32, "archived"), gameVersion: "2K26" };

const h = await startHarness({ sources: [current, archived] });
t.teardown(() => h.close());

t.test("edition keys are validated: shape 400 INVALID_VERSION, unknown 404 VERSION_NOT_FOUND", async (t) => {
  for (const bad of ["2K2", "3K26", "2K266", "twentysix", "2K2x"]) {
    const { status, body } = await h.json(`/api/versions/${bad}/players`);
    t.equal(status, 400, bad);
    t.equal(body.error.code, "INVALID_VERSION");
    t.equal(body.error.details.version, bad);
    t.ok(body.error.details.hint);
  }
  const { status, body } = await h.json("/api/versions/2K19/teams");
  t.equal(status, 404);
  t.equal(body.error.code, "VERSION_NOT_FOUND");
  t.same(body.error.details.availableVersions, ["2K27", "2K26"]);
});

t.test("edition keys are case-insensitive", async (t) => {
  const lower = await h.json("/api/versions/2k26/players?limit=3");
  const upper = await h.json("/api/versions/2K26/players?limit=3");
  t.equal(lower.status, 200);
  t.same(lower.body, upper.body);
  t.equal(lower.body.meta.gameVersion, "2K26");
});

t.test("versioned players page by offset, every row stamped with gameVersion and badges.top", async (t) => {
  const first = await h.json("/api/versions/2K26/players?limit=10");
  t.same(Object.keys(first.body.meta).sort(), ["count", "gameVersion", "hasMore", "limit", "offset", "total"]);
  t.equal(first.body.meta.limit, 10);
  t.equal(first.body.meta.offset, 0);
  t.equal(first.body.meta.hasMore, true);
  for (const row of first.body.data) {
    t.equal(row.gameVersion, "2K26");
    t.ok(Array.isArray(row.badges.top), "archived rows carry top");
    t.equal(row.badges.list, undefined, "archived rows carry no list");
  }
  const second = await h.json("/api/versions/2K26/players?limit=10&offset=10");
  t.equal(second.body.meta.offset, 10);
  t.notSame(second.body.data[0]._id, first.body.data[0]._id);
  const all: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await h.json(`/api/versions/2K26/players?era=all&limit=100&offset=${offset}`);
    all.push(...page.body.data.map((p: any) => p._id));
    if (!page.body.meta.hasMore) break;
  }
  t.equal(new Set(all).size, 300);
  t.equal((await h.json("/api/versions/2K26/players?offset=-1")).status, 400);
  t.equal((await h.json("/api/versions/2K26/players?cursor=5")).status, 400, "cursor is the unversioned route's name");
});

// docs/compatibility.md#fidelity-rules: unversioned rows carry gameVersion too now, so a versioned row differs by `top` alone.
t.test("the current edition's versioned rows equal the unversioned rows plus top", async (t) => {
  const plain = await h.json("/api/players?position=guard&sort=speed:desc&limit=20");
  const versioned = await h.json("/api/versions/2K27/players?position=guard&sort=speed:desc&limit=20");
  t.equal(versioned.body.meta.total, plain.body.meta.pagination.total);
  versioned.body.data.forEach((row: any, i: number) => {
    const { badges: { top, ...badges }, ...rest } = row;
    t.equal(row.gameVersion, "2K27");
    t.equal(plain.body.data[i].gameVersion, "2K27");
    t.ok(Array.isArray(top));
    t.same({ ...rest, badges }, plain.body.data[i]);
  });
});

t.test("a badge filter on an archive without badge lists is a 400 naming the edition", async (t) => {
  const { status, body } = await h.json("/api/versions/2K26/players?badge=deadeye");
  t.equal(status, 400);
  t.equal(body.error.code, "INVALID_PARAMETER");
  t.match(body.error.message + body.error.details.reason, /2K26/);
  t.equal((await h.json("/api/versions/2K27/players?badge=deadeye")).status, 200);
});

t.test("a single player: one roster is an object, several are an array with variants", async (t) => {
  const several = await h.json("/api/versions/2K27/players/michael-jordan");
  t.equal(several.status, 200);
  t.ok(Array.isArray(several.body.data));
  t.equal(several.body.data.length, 3);
  t.same(several.body.meta.variants.map((v: any) => v.teamType), ["class", "class", "allt"]);
  t.ok(several.body.data.every((p: any) => p.gameVersion === "2K27" && p.ratingHistory));
  const classic = await h.json("/api/versions/2K27/players/michael-jordan?teamType=class");
  t.equal(classic.body.data.length, 2, "teamType narrows to one era but may keep several rosters");
  const alltime = await h.json("/api/versions/2K27/players/michael-jordan?teamType=allt");
  t.equal(alltime.body.data.team, "All-Time Chicago Bulls");
  const exact = await h.json(`/api/versions/2K27/players/${alltSlug}`);
  t.equal(exact.body.data.slug, alltSlug);
  const missing = await h.json("/api/versions/2K27/players/nobody-at-all");
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, "PLAYER_NOT_FOUND");
  t.ok(missing.body.error.details.hint);
});

t.test("bulk is never read as a slug", async (t) => {
  const bulk = await h.json("/api/versions/2K26/players/bulk");
  t.equal(bulk.status, 200);
  t.ok(Array.isArray(bulk.body.data));
  t.same(Object.keys(bulk.body.meta).sort(), ["capturedAt", "count", "filters", "gameVersion", "source", "total"]);
});

t.test("versioned bulk: era default curr, no all, filters echoed, overall desc", async (t) => {
  const { body } = await h.json("/api/versions/2K26/players/bulk?position=big&minRating=72");
  t.ok(body.data.every((p: any) => p.teamType === "curr" && p.overall >= 72 && p.positions.some((x: string) => x === "PF" || x === "C")));
  // docs/compatibility.md#fidelity-rules: the hosted service's five filters are always present (null when unset), ours follow.
  t.same(body.meta.filters, { teamType: "curr", team: null, minRating: 72, maxRating: null, position: "big", era: "curr" });
  const overalls = body.data.map((p: any) => p.overall);
  t.same(overalls, [...overalls].sort((a: number, b: number) => b - a));
  t.equal((await h.json("/api/versions/2K26/players/bulk?era=all")).status, 400);
  t.equal(body.meta.source, "test");
});

t.test("bulk of the current edition defaults to every era and is cached with an ETag", async (t) => {
  const response = await h.get("/api/players/bulk");
  const body = await response.json() as any;
  t.equal(body.meta.count, 400 + 3);
  t.equal(body.meta.total, 403);
  t.same(body.meta.filters, { teamType: null, team: null, minRating: null, maxRating: null, position: null, era: "all" });
  const etag = response.headers.get("etag")!;
  t.equal((await h.get("/api/players/bulk", { "if-none-match": etag })).status, 304);
  const trimmed = await h.json("/api/players/bulk?fields=name,overall&era=class");
  t.ok(trimmed.body.data.every((p: any) => Object.keys(p).length === 2));
  t.equal((await h.json("/api/players/bulk?limit=5")).status, 400, "bulk takes no limit");
});

t.test("versioned teams carry logos and validate the edition", async (t) => {
  const { status, body, headers } = await h.json("/api/versions/2K26/teams?era=class");
  t.equal(status, 200);
  t.ok(body.data.every((team: any) => team.teamType === "class" && typeof team.playerCount === "number"));
  t.match(headers.get("etag"), /^W\//);
  t.equal((await h.json("/api/versions/2KXX/teams")).status, 400);
});

t.test("history answers by _id or slug, newest first, with limit", async (t) => {
  const player = recordsOf(h.service.editions().current).find((p) => p.teamType === "curr")!;
  const byId = await h.json(`/api/players/${player._id}/history`);
  t.equal(byId.status, 200);
  t.equal(byId.body.meta.playerId, player._id);
  t.equal(byId.body.meta.slug, player.slug);
  t.ok(byId.body.data.length >= 1);
  // docs/compatibility.md#fidelity-rules: each week is also the hosted service's change record (its optional fields only when something moved).
  const optional = ["delta", "changes", "previousOverall", "overallDelta", "attributeChanges", "badgeChanges"];
  t.same(Object.keys(byId.body.data[0]).filter((k) => !optional.includes(k)).sort(), ["_id", "attributes", "badges", "changeType", "date", "gameVersion", "newOverall", "overall", "playerId", "scrapedAt"]);
  t.equal(byId.body.data[0].overall, player.overall);
  t.equal(byId.body.data[0].newOverall, player.overall);
  t.equal(byId.body.data[0].playerId, player._id);
  t.equal(byId.body.data[byId.body.data.length - 1].changeType, "initial");
  const bySlug = await h.json(`/api/players/${player.slug}/history?limit=1`);
  t.equal(bySlug.body.data.length, 1);
  t.equal(bySlug.body.meta.playerId, player._id);
  // docs/compatibility.md#fidelity-rules: an unknown player's history is 200 with data: [] (it was a 404), as the hosted service answers.
  const missing = await h.json("/api/players/nobody/history");
  t.equal(missing.status, 200);
  t.same(missing.body.data, []);
  t.same((await h.json(`/api/players/${player._id}/history?gameVersion=2K20`)).body.data, [], "another edition holds no weekly history");
  t.equal((await h.json(`/api/players/${player._id}/history?gameVersion=2k27&_=1`)).body.data.length, byId.body.data.length);
  t.equal((await h.json(`/api/players/${player.slug}/history?limit=101`)).status, 400);
});

t.test("unknown paging names suggest offset here (the route pages by offset), and offset itself is accepted", async (t) => {
  const { status, body } = await h.json("/api/versions/2K27/players?page=2&per_page=10&query=x");
  t.equal(status, 400);
  t.same(body.error.details.unknownParams, [{ param: "page", suggestion: "offset" }, { param: "per_page", suggestion: "limit" }, { param: "query", suggestion: "search" }]);
  t.equal((await h.json("/api/versions/2K27/players?offset=10")).status, 200);
});
