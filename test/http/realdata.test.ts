// Every route of the interface (docs/api.md) on editions built from the real samples: current 2K26 from the two CSV
// scrapes, archived 2K25 from the API-shaped JSON (counts and top, no badge lists).
import t from "tap";
import { fileURLToPath } from "node:url";
import { importFiles } from "../../src/data/import.js";
import type { EditionSource } from "../../src/model/player.js";
import { startHarness } from "./harness.js";

const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
const capturedAt = "2025-08-01T00:00:00.000Z";
const current: EditionSource = { gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players: importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt }), history: [] };
const archived: EditionSource = { gameVersion: "2K25", status: "archived", capturedAt, source: "api export", players: importFiles([real("2k26-api-export-sample.json")], { capturedAt }), history: [] };
const h = await startHarness({ sources: [current, archived] });
t.teardown(() => h.close());

t.test("every GET route answers on real data", async (t) => {
  const routes: [string, (body: any) => boolean][] = [
    ["/api/players?position=guard&three_ball_gte=85&sort=speed:desc&fields=name,overall,attributes", (b) => b.data.length > 0 && b.data.every((p: any) => p.attributes.threePointShot >= 85)],
    ["/api/players?badge=deadeye&badgeTier=hof&era=all", (b) => b.data.every((p: any) => p.badges.list.some((x: any) => x.slug === "deadeye" && x.tier === "Hall of Fame"))],
    ["/api/players/slug/nikola-jokic", (b) => b.data.name === "Nikola Jokic" || b.data.name === "Nikola Jokić"],
    ["/api/players/search?q=jokic", (b) => /Joki/.test(b.data[0].name)],
    ["/api/players/bulk?era=allt&position=C", (b) => b.meta.count > 0 && b.data.every((p: any) => p.teamType === "allt")],
    ["/api/players/deaaron-fox/history", (b) => b.data.length === 1 && b.data[0].overall === 85],
    ["/api/teams", (b) => b.data.some((team: any) => team.teamName === "Denver Nuggets")],
    ["/api/teams?era=allt", (b) => b.data.some((team: any) => team.teamName === "All-Time Utah Jazz")],
    // docs/compatibility.md#fidelity-rules: meta.team is the team as asked; the team found is meta.teamName.
    ["/api/teams/denver-nuggets/roster", (b) => b.meta.team === "denver-nuggets" && b.meta.teamName === "Denver Nuggets" && b.data.some((p: any) => p.name === "Aaron Gordon")],
    ["/api/versions", (b) => b.meta.current === "2K26" && b.data[1].gameVersion === "2K25"],
    ["/api/versions/2K25/players?era=all", (b) => b.meta.total === 63 && b.data.every((p: any) => p.gameVersion === "2K25")],
    ["/api/versions/2k25/players/bulk?era=allt", (b) => b.data.length > 0 && b.data[0].badges.top !== undefined],
    ["/api/versions/2K25/players/hakeem-olajuwon", (b) => b.data.overall === 99 || b.data[0]?.overall === 99],
    ["/api/versions/2K26/teams?era=allt", (b) => b.data.length > 0],
  ];
  for (const [path, check] of routes) {
    const { status, body } = await h.json(path);
    t.equal(status, 200, path);
    t.ok(check(body), `${path} answers what the data says`);
  }
});

t.test("batch resolves real names ignoring case, accents and punctuation", async (t) => {
  const response = await fetch(`${h.base}/api/players/batch`, {
    method: "POST",
    headers: { "x-api-key": h.key, "content-type": "application/json" },
    body: JSON.stringify({ names: ["shai gilgeous alexander", "DeAaron Fox", "Luka Doncic"], teamType: "curr", fields: "name,team" }),
  });
  const body = await response.json() as any;
  t.equal(response.status, 200);
  t.same(body.meta.unmatched, []);
  const fold = (name: string) => name.normalize("NFD").replace(/\p{M}/gu, "").replace(/[’']/g, "").toLowerCase();
  t.same(body.data.map((p: any) => fold(p.name)).sort(), ["deaaron fox", "luka doncic", "shai gilgeous-alexander"]);
});

t.test("a badge filter on the archive built from the API export is refused by name", async (t) => {
  const { status, body } = await h.json("/api/versions/2K25/players?badge=deadeye");
  t.equal(status, 400);
  t.match(body.error.details.reason, /2K25/);
});

t.test("an exact roster slug is exact: the current roster alone, not every roster of the name", async (t) => {
  const versioned = await h.json("/api/versions/2K26/players/shai-gilgeous-alexander");
  t.equal(versioned.status, 200);
  t.notOk(Array.isArray(versioned.body.data), "one roster is an object");
  t.equal(versioned.body.data.slug, "shai-gilgeous-alexander");
  t.equal(versioned.body.data.teamType, "curr");
  t.equal(versioned.body.meta.variants, undefined);
  const bySlug = await h.json("/api/players/slug/shai-gilgeous-alexander");
  t.equal(bySlug.body.data.teamType, "curr");
  t.equal(bySlug.body.meta.variants, undefined, "the slug names one roster, so there are no variants");
  // The all-time roster under its own slug, and under the name slug when narrowed to its era.
  const alltime = await h.json("/api/versions/2K26/players/shai-gilgeous-alexander-all-time-oklahoma-city-thunder");
  t.equal(alltime.body.data.teamType, "allt");
  const narrowed = await h.json("/api/versions/2K26/players/shai-gilgeous-alexander?teamType=allt");
  t.equal(narrowed.body.data.team, "All-Time Oklahoma City Thunder");
  // A name slug that is no roster's slug still stands for every roster of the name.
  const shaq = await h.json("/api/versions/2K26/players/shaquille-oneal");
  t.ok(Array.isArray(shaq.body.data));
  t.equal(shaq.body.data.length, 3);
  t.equal(shaq.body.meta.variants.length, 3);

  const response = await fetch(`${h.base}/api/players/batch`, {
    method: "POST",
    headers: { "x-api-key": h.key, "content-type": "application/json" },
    body: JSON.stringify({ slugs: ["shai-gilgeous-alexander", "shaquille-oneal"], fields: "slug,teamType" }),
  });
  const body = await response.json() as any;
  t.equal(response.status, 200);
  t.same(body.data.filter((p: any) => p.slug.startsWith("shai")), [{ slug: "shai-gilgeous-alexander", teamType: "curr" }]);
  t.equal(body.data.filter((p: any) => p.slug.startsWith("shaquille")).length, 3);
  // docs/compatibility.md#fidelity-rules: matched is the rows returned, as the hosted service counts it; resolved the identifiers.
  t.equal(body.meta.matched, 4);
  t.equal(body.meta.resolved, 2);
});

t.test("search, archetype and college filter the real editions as a user writes them", async (t) => {
  const kentucky = current.players.filter((p) => p.teamType === "curr" && p.college === "Kentucky");
  t.equal(kentucky.length, 27);
  const byCollege = await h.json("/api/players?college=KENTUCKY&limit=100&fields=name,college");
  t.equal(byCollege.body.meta.pagination.total, 27);
  t.ok(byCollege.body.data.every((p: any) => p.college === "Kentucky"));
  const ampersand = await h.json(`/api/players?archetype=${encodeURIComponent("catch & shoot ace")}&limit=100&fields=name,archetype`);
  t.equal(ampersand.body.meta.pagination.total, 15);
  const combined = await h.json("/api/players?college=duke&position=guard&three_ball_gte=80&sort=three_point_shot:desc&fields=name,college,positions,attributes");
  const expected = current.players.filter((p) => p.teamType === "curr" && p.college === "Duke" && (p.positions ?? []).some((x) => x === "PG" || x === "SG") && (p.attributes.threePointShot ?? -1) >= 80);
  t.equal(combined.body.meta.pagination.total, expected.length);
  t.ok(expected.length > 0);
  const shai = await h.json("/api/players/bulk?search=shai%20gilgeous&fields=name,teamType");
  t.same(shai.body.data.map((p: any) => p.teamType).sort(), ["allt", "curr"], "one man, both rosters");
  const jokic = await h.json("/api/players/bulk?era=all&search=JOKIĆ&fields=name");
  t.ok(jokic.body.data.length > 0 && jokic.body.data.every((p: any) => /Joki/.test(p.name)), "accents never matter");
  // The archive built from the API export: a college with a typographic dash, matched exactly.
  const stVincent = await h.json(`/api/versions/2K25/players?era=all&college=${encodeURIComponent("st. vincent–st. mary high school")}`);
  t.equal(stVincent.body.meta.total, 4);
});
