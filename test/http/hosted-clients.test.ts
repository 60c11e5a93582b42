// The hosted service's clients' view (docs/compatibility.md#fidelity-rules): for every route the fidelity rules cover, a request shaped the
// way programs written for the hosted NBA 2K Ratings API send it (empty values, `DESC`, `fields`
// with spaces, `?_=…` cache busters, `team` on the slug route, a hosted-style id) answers 2xx with
// every field the hosted documents carry, with the right JSON types; and the strict cases still answer 400 with
// suggestions, as the hosted service does.

import t, { type Test } from "tap";
import { startHarness } from "./harness.js";
import { recordsOf } from "../fixtures/records.js";

const h = await startHarness();
t.teardown(() => h.close());
const edition = h.service.editions().current;
const records = recordsOf(edition);
/** A hosted-style id: 32 characters of a base-32 alphabet starting with `j`; no player has it here. */
const HOSTED_ID = "j9733j4termyc8t88mx7bppk0n7vg467";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const BUSTER = "_=1735000000";

/** Anything returned with a key, from the running server. */
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(h.base + path, { headers: { "x-api-key": h.key, ...headers } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

type Check = (t: Test, value: any, label: string) => void;

const isString: Check = (t, value, label) => t.equal(typeof value, "string", `${label} is a string`);
const isNumber: Check = (t, value, label) => t.equal(typeof value, "number", `${label} is a number`);
const isInteger: Check = (t, value, label) => t.ok(Number.isInteger(value), `${label} is an integer`);
const isBoolean: Check = (t, value, label) => t.equal(typeof value, "boolean", `${label} is a boolean`);
const isObject: Check = (t, value, label) => t.ok(typeof value === "object" && value !== null && !Array.isArray(value), `${label} is an object`);
const isArray: Check = (t, value, label) => t.ok(Array.isArray(value), `${label} is an array`);
const isTime: Check = (t, value, label) => t.match(value, ISO, `${label} is an ISO 8601 time`);

/** The player document's fields the fidelity rules name (those this data holds for every row). */
function checkPlayer(t: Test, player: any, label: string): void {
  isString(t, player._id, `${label}._id`);
  isString(t, player.name, `${label}.name`);
  isString(t, player.slug, `${label}.slug`);
  isString(t, player.team, `${label}.team`);
  t.ok(["curr", "class", "allt"].includes(player.teamType), `${label}.teamType is an era`);
  isInteger(t, player.overall, `${label}.overall`);
  isArray(t, player.positions, `${label}.positions`);
  isObject(t, player.attributes, `${label}.attributes`);
  isObject(t, player.badges, `${label}.badges`);
  isArray(t, player.badges.list, `${label}.badges.list`);
  // lastUpdated where the data has it (the test fixture does not).
  for (const key of ["height", "weight", "playerImage", "teamImg", "wingspan", "archetype", "college", "lastUpdated"]) {
    if (key in player) isString(t, player[key], `${label}.${key}`);
  }
}

/** `meta.pagination` as the hosted service sends it: nextCursor absent (not null) on the last page. */
function checkPagination(t: Test, pagination: any, label: string): void {
  isBoolean(t, pagination.hasMore, `${label}.hasMore`);
  isInteger(t, pagination.count, `${label}.count`);
  isInteger(t, pagination.limit, `${label}.limit`);
  isInteger(t, pagination.total, `${label}.total`);
  if (pagination.hasMore) isString(t, pagination.nextCursor, `${label}.nextCursor`);
  else t.notOk("nextCursor" in pagination, `${label}: no nextCursor on the last page`);
}

const current = records.find((p) => p.teamType === "curr" && p.badges.list !== undefined && p.badges.list.length > 0)!;
const teamSlug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

t.test("/api/players with the empty values a form sends, a decimal bound and a limit", async (t) => {
  const { status, body } = await get("/api/players?teamType=curr&team=&position=&cursor=&minRating=75.5&maxRating=&limit=10");
  t.equal(status, 200);
  t.ok(body.data.length > 0, "team= filters nothing (it answered an empty page before §9)");
  t.ok(body.data.every((p: any) => p.overall >= 76 && p.teamType === "curr"), "minRating=75.5 compares as 75.5");
  body.data.forEach((p: any, i: number) => checkPlayer(t, p, `data[${i}]`));
  checkPagination(t, body.meta.pagination, "meta.pagination");
  t.equal(body.meta.pagination.count, body.data.length);
  const last = await get(`/api/players?teamType=curr&minRating=75.5&limit=100&cursor=${Math.max(0, body.meta.pagination.total - 1)}`);
  checkPagination(t, last.body.meta.pagination, "last page");
  t.equal(last.body.meta.pagination.hasMore, false);
});

t.test("the lenient values answer 200 with meta.warnings saying what was read and suggesting what was meant", async (t) => {
  const desc = await get("/api/players?sort=overall:DESC&limit=5");
  t.equal(desc.status, 200);
  t.same(desc.body.data.map((p: any) => p.overall), [...desc.body.data.map((p: any) => p.overall)].sort((a: number, b: number) => b - a));
  t.equal(desc.body.meta.warnings, undefined, "DESC is understood: no warning");
  const asc = await get("/api/players?sort=overall:Asc&limit=5");
  t.ok(asc.body.data[0].overall <= asc.body.data[4].overall, "Asc in any case is ascending");
  const other = await get("/api/players?sort=overall:descending&limit=5");
  t.equal(other.status, 200, "anything but asc means desc");
  t.equal(other.body.meta.warnings[0].parameter, "sort");

  const fields = await get(`/api/players?fields=${encodeURIComponent("name, overall,,attributes ")}&limit=3`);
  t.equal(fields.status, 200, "fields with spaces and empty entries");
  t.ok(fields.body.data.every((p: any) => Object.keys(p).every((k) => ["name", "overall", "attributes"].includes(k))));

  const fractional = await get("/api/players?limit=2.5");
  t.equal(fractional.status, 200);
  t.equal(fractional.body.data.length, 2, "limit=2.5 is 2");
  t.same(fractional.body.meta.warnings.map((w: any) => w.parameter), ["limit"]);
  for (const w of fractional.body.meta.warnings) {
    isString(t, w.parameter, "warning.parameter");
    isString(t, w.value, "warning.value");
    isString(t, w.message, "warning.message");
  }

  const spaced = await get("/api/players?minRating=%2080%20&limit=3");
  t.equal(spaced.status, 200, "a number with spaces around it");
  t.ok(spaced.body.data.every((p: any) => p.overall >= 80));

  for (const [query, parameter] of [["minRating=80&maxRating=70", "minRating"], ["position=XX", "position"], ["badge=deadeyes", "badge"], ["badgeTier=platinum", "badgeTier"]] as const) {
    const { status, body } = await get(`/api/players?${query}`);
    t.equal(status, 200, query);
    t.same(body.data, [], `${query}: an empty page`);
    t.equal(body.meta.pagination.total, 0);
    t.equal(body.meta.warnings[0].parameter, parameter, `${query} is warned of`);
  }
  const badge = await get("/api/players?badge=deadeyes");
  t.ok(badge.body.meta.warnings[0].suggestions.includes("deadeye"), "the likely badge is suggested");
  // docs/data.md#source-values-kept-exactly: a badge is matched by slug, case and punctuation aside.
  const spelled = await get("/api/players?badge=Dead-Eye&limit=100");
  const exact = await get("/api/players?badge=deadeye&limit=100");
  t.ok(exact.body.meta.pagination.total > 0);
  t.same(spelled.body.data, exact.body.data, "badge=Dead-Eye is Deadeye");
  t.equal(spelled.body.meta.warnings, undefined, "with nothing to warn of");

  const cursor = await get("/api/players?cursor=abc&limit=3");
  const first = await get("/api/players?limit=3");
  t.equal(cursor.status, 200);
  t.same(cursor.body.data, first.body.data, "cursor=abc reads as 0");
  t.equal(cursor.body.meta.warnings[0].parameter, "cursor");
});

t.test("the strict cases stay 400 with suggestions, as the hosted service answers them", async (t) => {
  const unknown = await get("/api/players?page=2");
  t.equal(unknown.status, 400);
  t.equal(unknown.body.error.code, "UNKNOWN_PARAMETERS");
  t.equal(unknown.body.error.details.unknownParams[0].suggestion, "cursor");
  t.equal((await get(`/api/players?${BUSTER}`)).status, 400, "the hosted /api/players refuses a cache buster too");
  for (const query of ["limit=", "limit=101"]) {
    const { status, body } = await get(`/api/players?${query}`);
    t.equal(status, 400, query);
    t.equal(body.error.code, "INVALID_PARAMETER", query);
    t.equal(body.error.details.parameter, "limit");
    isTime(t, body.error.timestamp, `${query}: error.timestamp`);
  }
  const missing = await fetch(`${h.base}/api/players`);
  const refused = await missing.json() as any;
  t.equal(missing.status, 401);
  isTime(t, refused.error.timestamp, "a 401's error.timestamp");
});

t.test("/api/public/players: the same full records as /api/players, no key", async (t) => {
  const response = await fetch(`${h.base}/api/public/players?teamType=curr&team=&position=&limit=5`);
  const body = await response.json() as any;
  t.equal(response.status, 200);
  body.data.forEach((p: any, i: number) => checkPlayer(t, p, `data[${i}]`));
  checkPagination(t, body.meta.pagination, "meta.pagination");
  t.same(body.data, (await get("/api/players?teamType=curr&limit=5")).body.data);
});

t.test("/api/players/search: full records, count, total, truncated, timestamp; an ETag and a max-age", async (t) => {
  const q = current.name.split(" ")[0]!;
  const { status, body, headers } = await get(`/api/players/search?q=${encodeURIComponent(q)}&teamType=curr&limit=5`);
  t.equal(status, 200);
  t.ok(body.data.length > 0);
  body.data.forEach((p: any, i: number) => checkPlayer(t, p, `data[${i}]`));
  isInteger(t, body.meta.count, "meta.count");
  isInteger(t, body.meta.total, "meta.total");
  isBoolean(t, body.meta.truncated, "meta.truncated");
  isTime(t, body.meta.timestamp, "meta.timestamp");
  t.match(headers.get("etag"), /^W\//);
  t.match(headers.get("cache-control"), /max-age=\d+/);
  t.match(headers.get("x-ratelimit-reset"), ISO, "X-RateLimit-Reset is an ISO 8601 time");
});

t.test("/api/players/slug/:slug with team (name or slug) narrows like teamType; nothing left is 404", async (t) => {
  for (const team of [current.team, teamSlug(current.team)]) {
    const { status, body, headers } = await get(`/api/players/slug/${current.slug}?team=${encodeURIComponent(team)}`);
    t.equal(status, 200, team);
    checkPlayer(t, body.data, "data");
    t.equal(body.data.team, current.team);
    t.match(headers.get("etag"), /^W\//);
    t.match(headers.get("cache-control"), /max-age=\d+/);
  }
  const empty = await get(`/api/players/slug/${current.slug}?team=`);
  t.equal(empty.status, 200, "team= is absent");
  const elsewhere = records.find((p) => p.team !== current.team && p.teamType === "curr")!.team;
  const none = await get(`/api/players/slug/${current.slug}?team=${encodeURIComponent(elsewhere)}`);
  t.equal(none.status, 404);
  t.equal(none.body.error.code, "PLAYER_NOT_FOUND");
});

t.test("/api/players/:id/history: change records, gameVersion and limit, a cache buster; an unknown id is []", async (t) => {
  const { status, body, headers } = await get(`/api/players/${current._id}/history?gameVersion=${edition.key}&limit=5&${BUSTER}`);
  t.equal(status, 200);
  t.ok(body.data.length > 0);
  for (const [i, record] of body.data.entries()) {
    const label = `data[${i}]`;
    isString(t, record._id, `${label}._id`);
    t.equal(record.playerId, current._id);
    isTime(t, record.scrapedAt, `${label}.scrapedAt`);
    t.equal(record.gameVersion, edition.key);
    isInteger(t, record.newOverall, `${label}.newOverall`);
    isString(t, record.changeType, `${label}.changeType`);
    if ("previousOverall" in record) isInteger(t, record.previousOverall, `${label}.previousOverall`);
    if ("overallDelta" in record) t.equal(record.overallDelta, record.newOverall - record.previousOverall);
    if ("attributeChanges" in record) {
      for (const change of Object.values(record.attributeChanges) as any[]) t.ok(Number.isInteger(change.prev) && Number.isInteger(change.new), `${label}.attributeChanges: { prev, new }`);
    }
    if ("badgeChanges" in record) isObject(t, record.badgeChanges, `${label}.badgeChanges`);
  }
  isInteger(t, body.meta.count, "meta.count");
  t.match(headers.get("etag"), /^W\//);
  t.match(headers.get("cache-control"), /max-age=\d+/);
  const unknown = await get(`/api/players/${HOSTED_ID}/history`);
  t.equal(unknown.status, 200);
  t.same(unknown.body.data, []);
});

t.test("/api/players/:id/attribute/:attr: points with scrapedAt, meta echoes the path; unknown id or attribute is []", async (t) => {
  const { status, body } = await get(`/api/players/${current._id}/attribute/threePointShot?limit=5&${BUSTER}`);
  t.equal(status, 200);
  for (const point of body.data) {
    isTime(t, point.scrapedAt, "point.scrapedAt");
    isInteger(t, point.value, "point.value");
  }
  t.equal(body.meta.attribute, "threePointShot");
  t.equal(body.meta.playerId, current._id);
  isInteger(t, body.meta.dataPoints, "meta.dataPoints");
  for (const path of [`/api/players/${HOSTED_ID}/attribute/threePointShot`, `/api/players/${current._id}/attribute/jumpShot`]) {
    const answer = await get(path);
    t.equal(answer.status, 200, path);
    t.same(answer.body.data, [], path);
  }
});

t.test("/api/players/:id and /versions take a cache buster where the hosted service ignores it", async (t) => {
  const one = await get(`/api/players/${current._id}`);
  t.equal(one.status, 200);
  checkPlayer(t, one.body.data, "data");
  const versions = await get(`/api/players/${current._id}/versions?${BUSTER}`);
  t.equal(versions.status, 200);
  t.equal(versions.body.data.playerId, current._id);
  isString(t, versions.body.data.currentVersion, "currentVersion");
  isInteger(t, versions.body.data.currentOverall, "currentOverall");
  isArray(t, versions.body.data.ratingHistory, "ratingHistory");
});

t.test("teams: integer averageRating, string logo; roster meta as asked", async (t) => {
  const teams = await get("/api/teams?teamType=curr");
  t.equal(teams.status, 200);
  for (const team of teams.body.data) {
    isInteger(t, team.averageRating, `${team.teamName}.averageRating`);
    isString(t, team.logo, `${team.teamName}.logo`);
  }
  const asked = teamSlug(current.team);
  const roster = await get(`/api/teams/${asked}/roster?teamType=curr`);
  t.equal(roster.status, 200);
  t.equal(roster.body.meta.team, asked, "the team as asked");
  t.equal(roster.body.meta.teamType, "curr");
  isInteger(t, roster.body.meta.count, "meta.count");
  roster.body.data.forEach((p: any, i: number) => checkPlayer(t, p, `data[${i}]`));
  t.equal((await get(`/api/teams/${asked}/roster`)).body.meta.teamType, "all");
});

t.test("bulk: meta.filters holds the five hosted keys, null when unset; empty values are absent", async (t) => {
  const { status, body } = await get("/api/players/bulk?teamType=curr&team=&minRating=&position=");
  t.equal(status, 200);
  t.same(Object.keys(body.meta.filters).slice(0, 5), ["teamType", "team", "minRating", "maxRating", "position"]);
  t.match(body.meta.filters, { teamType: "curr", team: null, minRating: null, maxRating: null, position: null });
  isInteger(t, body.meta.count, "meta.count");
  isInteger(t, body.meta.total, "meta.total");
  t.equal(body.data.length, records.filter((p) => p.teamType === "curr").length);
});

t.test("batch: unknown body keys and a query cache buster ignored; empty and over-long names; matched = rows", async (t) => {
  const response = await fetch(`${h.base}/api/players/batch?${BUSTER}`, {
    method: "POST",
    headers: { "x-api-key": h.key, "content-type": "application/json" },
    body: JSON.stringify({ names: ["", "x".repeat(150), current.name], includeStats: true }),
  });
  const body = await response.json() as any;
  t.equal(response.status, 200);
  t.equal(body.meta.matched, body.data.length);
  t.same(body.meta.unmatched.map((u: any) => u.reason), ["empty", "not_found"]);
  body.data.forEach((p: any, i: number) => checkPlayer(t, p, `data[${i}]`));
});

t.test("trending, the badge routes, stats, / and /api/health, dashboard usage take cache busters", async (t) => {
  const trending = await get(`/api/trending?days=7&limit=10&${BUSTER}`);
  t.equal(trending.status, 200);
  isArray(t, trending.body.data, "trending data");

  const badges = await get(`/api/badges?category=&${BUSTER}`);
  t.equal(badges.status, 200);
  t.ok(badges.body.data.length > 0, "category= is absent");
  t.equal((await get(`/api/badges/categories?${BUSTER}`)).status, 200);
  t.equal((await get(`/api/badges/deadeye?${BUSTER}`)).status, 200);
  const holders = await get(`/api/badges/deadeye/players?tier=&limit=5&${BUSTER}`);
  t.equal(holders.status, 200);
  checkPagination(t, holders.body.meta.pagination, "holders pagination");
  const unknownCategory = await get("/api/badges?category=Passing");
  t.same(unknownCategory.body.data, []);
  t.equal(unknownCategory.body.meta.warnings[0].parameter, "category");
  const unknownBadge = await get("/api/badges/no-such-badge/players");
  t.equal(unknownBadge.status, 200);
  t.same(unknownBadge.body.data, []);

  const stats = await fetch(`${h.base}/api/stats?${BUSTER}`);
  const statsBody = await stats.json() as any;
  t.equal(stats.status, 200);
  isInteger(t, statsBody.data.avgOverall, "avgOverall");
  isInteger(t, statsBody.data.totalPlayers, "totalPlayers");

  const health = await (await fetch(`${h.base}/api/health?${BUSTER}`)).json() as any;
  t.equal(health.status, "ok");
  isTime(t, health.timestamp, "health.timestamp");
  isString(t, health.service, "health.service");
  isString(t, health.version, "health.version");
  const root = await (await fetch(`${h.base}/?${BUSTER}`)).json() as any;
  for (const key of ["service", "version", "message", "note"]) isString(t, root[key], `/.${key}`);
  isObject(t, root.links, "/.links");

  const usage = await get(`/api/dashboard/usage?${BUSTER}`);
  t.equal(usage.status, 200);
  for (const key of ["requestCount", "rateLimit", "requestsRemaining", "totalRequests"]) isInteger(t, usage.body.data[key], key);
  isTime(t, usage.body.data.resetAt, "resetAt");
  t.equal(usage.body.meta.warnings, undefined, "a cache buster is ignored without a warning");
});

// The record fields of every player row (docs/compatibility.md#fidelity-rules, "Player documents everywhere carry …").
t.test("every player row of every route carries gameVersion and ratingHistory (createdAt, _creationTime, playerUrl where known)", async (t) => {
  const rowsOf = async (): Promise<[string, any[]][]> => {
    const list = (await get("/api/players?limit=3")).body.data;
    const publicRows = (await (await fetch(`${h.base}/api/public/players?limit=3`)).json() as any).data;
    const search = (await get(`/api/players/search?q=${encodeURIComponent(current.name)}`)).body.data;
    const roster = (await get(`/api/teams/${teamSlug(current.team)}/roster`)).body.data;
    const bulk = (await get("/api/players/bulk?teamType=allt")).body.data.slice(0, 3);
    const slug = [(await get(`/api/players/slug/${current.slug}`)).body.data];
    const byId = [(await get(`/api/players/${current._id}`)).body.data];
    const versioned = (await get(`/api/versions/${edition.key}/players?limit=3`)).body.data;
    return [["list", list], ["public", publicRows], ["search", search], ["roster", roster], ["bulk", bulk], ["slug", slug], ["id", byId], ["versioned", versioned]];
  };
  for (const [route, rows] of await rowsOf()) {
    for (const [i, row] of rows.entries()) {
      const label = `${route}[${i}]`;
      isString(t, row.gameVersion, `${label}.gameVersion`);
      isArray(t, row.ratingHistory, `${label}.ratingHistory`);
      if ("createdAt" in row) isTime(t, row.createdAt, `${label}.createdAt`);
      if ("_creationTime" in row) isNumber(t, row._creationTime, `${label}._creationTime`);
      if ("playerUrl" in row) isString(t, row.playerUrl, `${label}.playerUrl`);
    }
  }
});
