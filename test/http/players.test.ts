import t from "tap";
import { startHarness } from "./harness.js";
import { oracle } from "../query/oracle.js";
import { ARCHETYPES, COLLEGES, mulberry32 } from "../fixtures/random-edition.js";
import { ATTRIBUTE_KEYS, ATTRIBUTE_PARAM_NAMES } from "../../src/model/attributes.js";
import { BADGES } from "../../src/model/badges.js";
import { recordsOf } from "../fixtures/records.js";

const h = await startHarness();
t.teardown(() => h.close());
const edition = h.service.editions().current;
const teamKey = (code: number) => `${edition.teams[code]!.teamType}/${edition.teams[code]!.teamName}`;

t.test("the default page is 50 current-era players by overall desc with pagination meta", async (t) => {
  const { status, body, headers } = await h.json("/api/players");
  t.equal(status, 200);
  t.equal(body.success, true);
  t.equal(body.data.length, 50);
  t.ok(body.data.every((p: any) => p.teamType === "curr"));
  const overalls = body.data.map((p: any) => p.overall);
  t.same(overalls, [...overalls].sort((a, b) => b - a));
  t.equal(body.meta.pagination.total, edition.eraRange("curr")[1] - edition.eraRange("curr")[0]);
  t.equal(body.meta.pagination.nextCursor, "50");
  t.match(headers.get("etag"), /^W\/"/);
  t.equal(headers.get("cache-control"), "private, max-age=3600");
  t.equal(headers.get("x-ratelimit-limit"), "100000");
  t.ok(headers.get("x-request-id"));
});

t.test("every filter agrees with the oracle", async (t) => {
  const random = mulberry32(5);
  const positions = ["PG", "sg", "guard", "wing", "BIG", "c"];
  for (let i = 0; i < 60; i++) {
    const params = new URLSearchParams();
    params.set("era", ["curr", "class", "allt", "all"][i % 4]!);
    if (random() < 0.4) params.set("position", positions[Math.floor(random() * positions.length)]!);
    if (random() < 0.3) params.set("minRating", String(70 + Math.floor(random() * 4)));
    if (random() < 0.3) params.set("maxRating", String(74 + Math.floor(random() * 4)));
    if (random() < 0.4) params.set(`${ATTRIBUTE_PARAM_NAMES[Math.floor(random() * 43)]}_gte`, String(60 + Math.floor(random() * 8)));
    if (random() < 0.2) params.set("three_ball_lte", "68");
    if (random() < 0.2) params.set("badge", BADGES[Math.floor(random() * 40)]!.slug);
    if (random() < 0.2) params.set("badgeTier", ["Hall of Fame", "hall-of-fame", "gold", "Legendary"][Math.floor(random() * 4)]!);
    if (random() < 0.2) params.set("team", edition.teams[Math.floor(random() * edition.teams.length)]!.teamName);
    if (random() < 0.25) params.set("search", ["jokic", "Luka D", "gilgeous-alex", "ZOË", "o’neal", "kev dur", "s"][Math.floor(random() * 7)]!);
    if (random() < 0.2) params.set("archetype", [...ARCHETYPES, "point forward"][Math.floor(random() * 6)]!.toLowerCase());
    if (random() < 0.2) params.set("college", COLLEGES[Math.floor(random() * COLLEGES.length)]!.toUpperCase());
    const sortName = ["overall", "name", "speed", "shot_iq", "three_ball"][Math.floor(random() * 5)]!;
    params.set("sort", `${sortName}:${random() < 0.5 ? "asc" : "desc"}`);
    params.set("limit", String(1 + Math.floor(random() * 100)));
    const { status, body } = await h.json(`/api/players?${params}`);
    t.equal(status, 200, params.toString());
    // The oracle's query is written out here from the contract's words, not by the code under test.
    const era = params.get("era")!;
    const positionText = params.get("position")?.toLowerCase();
    const positionMask = positionText === undefined ? 0
      : ({ pg: 1, sg: 2, sf: 4, pf: 8, c: 16, guard: 3, wing: 6, big: 24 } as Record<string, number>)[positionText]!;
    const tierText = params.get("badgeTier");
    const tierCode = tierText === null ? 0 : ({ "Hall of Fame": 4, "hall-of-fame": 4, gold: 3, Legendary: 5 } as Record<string, number>)[tierText]!;
    const bounds = [...params].filter(([name]) => /_(gte|lte)$/.test(name)).map(([name, value]) => {
      const attribute = name.replace(/_(gte|lte)$/, "");
      const column = attribute === "three_ball" ? ATTRIBUTE_KEYS.indexOf("threePointShot") : ATTRIBUTE_PARAM_NAMES.indexOf(attribute);
      return name.endsWith("_gte") ? { column, min: Number(value), max: 99 } : { column, min: 0, max: Number(value) };
    });
    const [sortField, direction] = params.get("sort")!.split(":") as [string, string];
    const sortKey: "overall" | "name" | number = sortField === "overall" || sortField === "name" ? sortField
      : sortField === "three_ball" ? ATTRIBUTE_KEYS.indexOf("threePointShot") : ATTRIBUTE_PARAM_NAMES.indexOf(sortField);
    const team = params.get("team");
    const query = {
      eraMask: era === "all" ? 7 : 1 << ["curr", "class", "allt"].indexOf(era),
      positionMask,
      teamCodes: team === null ? null : edition.teams.filter((info) => info.teamName === team).map((info) => info.code),
      search: params.get("search"),
      // The oracle compares the texts; the codes are the kernel's business.
      archetypeCode: -1,
      collegeCode: -1,
      minOverall: Number(params.get("minRating") ?? 0),
      maxOverall: Number(params.get("maxRating") ?? 99),
      attributeBounds: bounds,
      badge: params.has("badge") ? BADGES.findIndex((badge) => badge.slug === params.get("badge")) : -1,
      badgeTier: tierCode,
      sortKey,
      isDescending: direction === "desc",
    };
    const texts = { ...(params.has("archetype") ? { archetype: params.get("archetype")! } : {}), ...(params.has("college") ? { college: params.get("college")! } : {}) };
    const expected = oracle(recordsOf(edition), teamKey, query, texts);
    t.equal(body.meta.pagination.total, expected.length, `total for ${params}`);
    t.same(body.data.map((p: any) => p._id), expected.slice(0, Number(params.get("limit"))).map((p) => p._id), `rows for ${params}`);
  }
});

t.test("walking the cursor to the end yields exactly total players", async (t) => {
  // docs/compatibility.md#fidelity-rules: nextCursor is absent on the last page (it was null), as the hosted service sends it.
  let cursor: string | undefined = "0";
  const seen = new Set<string>();
  let total = 0;
  while (cursor !== undefined) {
    const { body } = await h.json(`/api/players?era=all&limit=100&sort=name:asc&cursor=${cursor}`);
    total = body.meta.pagination.total;
    for (const player of body.data) seen.add(player._id);
    cursor = body.meta.pagination.nextCursor;
  }
  t.equal(seen.size, total);
  t.equal(total, edition.rowCount);
});

t.test("fields trims every row to the named fields", async (t) => {
  const { body } = await h.json("/api/players?fields=name,overall,attributes&limit=5");
  for (const player of body.data) t.same(Object.keys(player).sort(), ["attributes", "name", "overall"].filter((k) => k in player).sort());
  t.ok(body.data.every((p: any) => typeof p.name === "string" && typeof p.overall === "number"));
});

t.test("rows carry the full record shape with badge lists and no nulls", async (t) => {
  const { body } = await h.json("/api/players?limit=100");
  for (const player of body.data) {
    t.notOk(JSON.stringify(player).includes("null"), "no null values");
    t.ok(player._id && player.slug && Array.isArray(player.positions));
    t.ok(Array.isArray(player.badges.list), "unversioned rows carry the badge list");
    t.equal(player.badges.top, undefined, "unversioned rows carry no top");
    for (const key of Object.keys(player.attributes)) t.ok(ATTRIBUTE_KEYS.includes(key as never));
  }
});

t.test("teamType is an alias of era and era wins when both are given", async (t) => {
  const alias = await h.json("/api/players?teamType=allt&limit=5");
  t.ok(alias.body.data.every((p: any) => p.teamType === "allt"));
  const both = await h.json("/api/players?teamType=allt&era=class&limit=5");
  t.ok(both.body.data.every((p: any) => p.teamType === "class"));
});

t.test("invalid values are 400 INVALID_PARAMETER naming parameter, value and reason", async (t) => {
  // docs/compatibility.md#fidelity-rules moved the values the hosted service answers (limit=2.5, cursor=-1 or 1.5,
  // minRating over maxRating, an unknown position, badge or tier, sort=overall:up, limit=0x10,
  // limit=%205) to 200s with meta.warnings (test/http/hosted-clients.test.ts); these stay 400s.
  const cases: [string, string][] = [
    ["limit=", "limit"], ["limit=101", "limit"], ["limit=0", "limit"], ["minRating=abc", "minRating"],
    ["minRating=100", "minRating"], ["era=future", "era"], ["era=", "era"], ["sort=height:desc", "sort"],
    ["fields=name,salary", "fields"], ["speed_gte=1e2", "speed_gte"], ["limit=0.5", "limit"], ["maxRating=-1", "maxRating"],
  ];
  for (const [query, parameter] of cases) {
    const { status, body } = await h.json(`/api/players?${query}`);
    t.equal(status, 400, query);
    t.equal(body.error.code, "INVALID_PARAMETER", query);
    t.equal(body.error.details.parameter, parameter, query);
    t.ok(body.error.details.reason, `${query} says why`);
    t.ok("value" in body.error.details, `${query} echoes the value`);
  }
  const allowed = await h.json("/api/players?era=future");
  t.same(allowed.body.error.details.allowed, ["curr", "class", "allt", "all"]);
});

t.test("unknown parameters are 400 UNKNOWN_PARAMETERS with suggestions", async (t) => {
  const { status, body } = await h.json("/api/players?page=2&per_page=10&pos=PG&type=curr&name=x&limt=5");
  t.equal(status, 400);
  t.equal(body.error.code, "UNKNOWN_PARAMETERS");
  const suggestions = Object.fromEntries(body.error.details.unknownParams.map((u: any) => [u.param, u.suggestion]));
  t.same(suggestions, { page: "cursor", per_page: "limit", pos: "position", type: "teamType", name: "/api/players/search", limt: "limit" });
  t.ok(body.error.details.validParams.includes("cursor"));
});

t.test("a filter that matches nothing is a 200 with an empty page", async (t) => {
  const { status, body } = await h.json("/api/players?minRating=99");
  t.equal(status, 200);
  t.same(body.data, []);
  t.equal(body.meta.pagination.total, 0);
  t.notOk("nextCursor" in body.meta.pagination, "no nextCursor on the last page (docs/compatibility.md#fidelity-rules)");
});

t.test("a player by slug comes in full with hot zones, rating history and variants", async (t) => {
  // A current player with no namesake in the all-time era (a name's slug finds every roster).
  const player = recordsOf(edition).find((p) => p.teamType === "curr" && !recordsOf(edition).some((o) => o.teamType === "allt" && o.name === p.name))!;
  const { status, body } = await h.json(`/api/players/slug/${player.slug}`);
  t.equal(status, 200);
  t.equal(body.data._id, player._id);
  t.ok(Array.isArray(body.data.ratingHistory));
  t.equal(body.data.ratingHistory[0].gameVersion, "2K27");
  const missing = await h.json("/api/players/slug/nobody-at-all");
  t.equal(missing.status, 404);
  t.equal(missing.body.error.code, "PLAYER_NOT_FOUND");
  t.ok(missing.body.error.details.hint);
  const wrongEra = await h.json(`/api/players/slug/${player.slug}?teamType=allt`);
  t.equal(wrongEra.status, 404);
  const badEra = await h.json(`/api/players/slug/${player.slug}?teamType=nope`);
  t.equal(badEra.status, 400);
});

t.test("GET /api/players/:id answers a slug as the slug route does, an _id first; neither is a 404 or a 400", async (t) => {
  const player = recordsOf(edition).find((p) => p.teamType === "curr")!;
  const bySlug = await h.json(`/api/players/slug/${player.slug}`);
  const byId = await h.json(`/api/players/${player.slug}`);
  t.equal(byId.status, 200);
  t.same(byId.body, bySlug.body, "the same answer, variants and all");
  t.same((await h.json(`/api/players/${player.slug.toUpperCase()}`)).body.data._id, bySlug.body.data._id, "any case, as the slug route");
  t.equal((await h.json(`/api/players/${player.slug}?teamType=curr`)).body.data._id, bySlug.body.data._id, "teamType narrows");
  t.equal((await h.json(`/api/players/${player._id}`)).body.data._id, player._id, "an _id is its row");
  const unknown = await h.json("/api/players/nobody-at-all");
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, "PLAYER_NOT_FOUND");
  const garbage = await h.json("/api/players/no%20such%20thing!");
  t.equal(garbage.status, 400);
  t.equal(garbage.body.error.code, "INVALID_ID");
  t.equal((await h.json(`/api/players/${player.slug}?bogus=1`)).body.error.code, "UNKNOWN_PARAMETERS");
});

t.test("a bound of 0 or 99 is a bound: it excludes players lacking the attribute, on every attribute, both directions", async (t) => {
  const era = "all";
  // The unbounded answers first, so a bound that keyed the cache like no bound would be served them.
  const unbounded = await h.json(`/api/players?era=${era}&limit=1`);
  const unboundedBulk = await h.json(`/api/players/bulk?era=${era}&fields=name`);
  t.equal(unbounded.body.meta.pagination.total, edition.rowCount);
  t.equal(unboundedBulk.body.meta.total, edition.rowCount);
  const names = [...ATTRIBUTE_PARAM_NAMES, "three_ball", "dunk", "layup", "defense", "mid_range"];
  const aliasOf: Record<string, string> = { three_ball: "threePointShot", dunk: "drivingDunk", layup: "drivingLayup", defense: "perimeterDefense", mid_range: "midRangeShot" };
  for (const name of names) {
    const key = aliasOf[name] ?? ATTRIBUTE_KEYS[ATTRIBUTE_PARAM_NAMES.indexOf(name)]!;
    const holders = recordsOf(edition).filter((p) => p.attributes[key as keyof typeof p.attributes] !== undefined).length;
    t.ok(holders < edition.rowCount, `${name}: some fixture players lack it`);
    for (const bound of [`${name}_gte=0`, `${name}_lte=99`]) {
      const { body } = await h.json(`/api/players?era=${era}&limit=1&${bound}`);
      t.equal(body.meta.pagination.total, holders, `/api/players ${bound}`);
      const bulk = await h.json(`/api/players/bulk?era=${era}&fields=name&${bound}`);
      t.equal(bulk.body.meta.total, holders, `bulk ${bound}`);
    }
  }
  const echoed = await h.json("/api/players/bulk?three_ball_gte=0&speed_lte=99&fields=name");
  t.match(echoed.body.meta.filters, { three_point_shot_gte: 0, speed_lte: 99 });
  const versioned = await h.json("/api/versions/2K27/players?era=all&limit=1&steal_gte=0");
  t.equal(versioned.body.meta.total, recordsOf(edition).filter((p) => p.attributes.steal !== undefined).length);
});

t.test("search, archetype and college filter every listing route and combine with sort, paging, fields and ETags", async (t) => {
  const archived = h.service.editions().byKey.get("2K26")!;
  const query = "search=JOK&archetype=SHARPSHOOTER&era=all";

  const list = await h.json(`/api/players?${query}&sort=name:asc&limit=2&fields=name,archetype`);
  t.equal(list.status, 200, JSON.stringify(list.body.error));
  const all = recordsOf(edition).filter((p) => p.name.endsWith("Jokić") && p.archetype === "Sharpshooter");
  t.ok(all.length > 0, "the fixture has sharpshooting Jokićs");
  t.equal(list.body.meta.pagination.total, all.length);
  t.ok(list.body.data.every((p: any) => p.archetype === "Sharpshooter" && Object.keys(p).length === 2));
  const names = list.body.data.map((p: any) => p.name);
  t.same(names, [...names].sort());
  if (all.length > 2) {
    const next = await h.json(`/api/players?${query}&sort=name:asc&limit=2&fields=name,archetype&cursor=${list.body.meta.pagination.nextCursor}`);
    t.equal(next.body.data.length, Math.min(2, all.length - 2), "the next page goes on");
  }

  const bulk = await h.json(`/api/players/bulk?${query}&college=${encodeURIComponent("Université de Montréal")}`);
  t.equal(bulk.status, 200);
  // docs/compatibility.md#fidelity-rules: the hosted service's five filters first (null when unset), then ours.
  t.same(bulk.body.meta.filters, { teamType: null, team: null, minRating: null, maxRating: null, position: null, era: "all", search: "jok", archetype: "sharpshooter", college: "université de montréal" });
  t.equal(bulk.body.meta.total, all.filter((p) => p.college === "Université de Montréal").length);

  const versioned = await h.json(`/api/versions/2K26/players?era=all&college=duke&position=guard&sort=speed:desc&limit=100`);
  t.equal(versioned.status, 200, JSON.stringify(versioned.body).slice(0, 300));
  t.equal(versioned.body.meta.total, recordsOf(archived).filter((p) => p.college === "Duke" && (p.positions ?? []).some((x) => x === "PG" || x === "SG")).length);
  const versionedBulk = await h.json("/api/versions/2K26/players/bulk?era=class&search=nikola");
  t.equal(versionedBulk.status, 200);
  t.equal(versionedBulk.body.meta.total, recordsOf(archived).filter((p) => p.teamType === "class" && p.name.startsWith("Nikola ")).length);
  t.same(versionedBulk.body.meta.filters, { teamType: "class", team: null, minRating: null, maxRating: null, position: null, era: "class", search: "nikola" });

  // Each filter changes the ETag and the cache key: the same query without one answers differently.
  const without = await h.get("/api/players?era=all&search=jok&limit=5");
  const withArchetype = await h.get("/api/players?era=all&search=jok&archetype=sharpshooter&limit=5");
  t.not(without.headers.get("etag"), withArchetype.headers.get("etag"));
  const again = await h.get("/api/players?era=all&search=JOK&archetype=Sharpshooter&limit=5", { "if-none-match": withArchetype.headers.get("etag")! });
  t.equal(again.status, 304, "the same filter in another case is the same answer");
  const noMatch = await h.json("/api/players?archetype=point%20forward");
  t.equal(noMatch.status, 200);
  t.same(noMatch.body.data, []);
});

t.test("search, archetype and college reject punctuation-only and over-long values; empty ones are absent", async (t) => {
  // docs/compatibility.md#fidelity-rules: an empty value is an absent one (search=, archetype=, college= were 400s).
  for (const query of ["search=", "archetype=", "college=", "search=%20%20"]) {
    const { status, body } = await h.json(`/api/players?${query}&limit=3`);
    t.equal(status, 200, query);
    t.equal(body.meta.pagination.total, (await h.json("/api/players?limit=3")).body.meta.pagination.total, `${query} filters nothing`);
  }
  for (const [query, parameter] of [["search=%20!!%20", "search"], [`search=${"a".repeat(81)}`, "search"], [`college=${"x".repeat(101)}`, "college"]] as const) {
    for (const route of ["/api/players", "/api/players/bulk", "/api/versions/2K27/players", "/api/versions/2K27/players/bulk"]) {
      const { status, body } = await h.json(`${route}?${query}`);
      t.equal(status, 400, `${route}?${query}`);
      t.equal(body.error.code, "INVALID_PARAMETER");
      t.equal(body.error.details.parameter, parameter);
      t.ok(body.error.details.reason);
    }
  }
  t.equal((await h.json(`/api/players?search=${"a".repeat(80)}`)).status, 200, "80 characters are allowed");
});
