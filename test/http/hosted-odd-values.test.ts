// Issue 29, docs/data.md#source-values-kept-exactly: values a source gives are served exactly as given, however odd. The
// fixture (test/fixtures/hosted-odd-values.json, 13 hosted-shaped rows, one a line) holds names and
// teams with doubled, leading and trailing spaces, unicode names, weights as the number 250, the
// text "250", 195.5 and "230lbs", positions spelled `pg`, ` c `, `Guard`, three of them and none,
// heights `6-11`, "" and the number 88, a wingspan `7'2 "`, `javascript:` and `data:` image
// addresses (a badge's too), a badge named with two spaces, text fields with spaces around them,
// hot zones `Hot` and `midPost`, badge tiers `gold` and `SILVER`.
// Built by build-index and synced from the stand-in, every row comes back by _id, by slug and in
// bulk deep-equal to its document; the filters still find them by meaning (position=PG finds
// `pg`, a name search finds `Drew  Peterson`, a team spaced twice is the team spaced once); the
// report says what was kept.

import t, { type Test } from "tap";
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import SwaggerParser from "@apidevtools/swagger-parser";
import { runBuildIndex } from "../../src/pipeline/build-index-cli.js";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { buildOpenApi } from "../../src/http/describe/openapi.js";
import { runSync, startCourtside, type Courtside } from "../sync/helpers.js";
import { STAND_IN_KEY, startStandIn } from "../sync/stand-in.js";

t.setTimeout(180_000);

type Doc = Record<string, any>;
const FIXTURE = new URL("../fixtures/hosted-odd-values.json", import.meta.url).pathname;
const documents: Doc[] = JSON.parse(readFileSync(FIXTURE, "utf8"));
const AS_OF = "2025-11-25";
const byName = (name: string): Doc => documents.find((doc) => doc["name"] === name)!;

/** The OpenAPI document's Player (what the typed client is generated from): it must describe every odd value served. */
const openApi = (await SwaggerParser.dereference(structuredClone(buildOpenApi(buildRoutes(() => true), { version: "1.0.0" })) as any)) as Doc;
const isDocumentedPlayer = new Ajv2020({ allErrors: true, strict: false }).compile(openApi["components"]["schemas"]["Player"]);

/** Key-sorted, array order kept: equal exactly when deep-equal with array order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/**
 * The served row is the document, field for field (types included: 250 stays a number), plus only
 * our names (`editionRatings` on single-player routes, `slug` on each badge entry).
 */
function checkExact(t: Test, doc: Doc, served: Doc | undefined, label: string): number {
  if (served === undefined) {
    t.fail(`${label}: no row for ${doc["_id"]}`);
    return 1;
  }
  const { editionRatings: _ours, ...rest } = served;
  const badges = rest["badges"] === undefined ? undefined
    : { ...rest["badges"], list: rest["badges"].list.map(({ slug: _slug, ...entry }: Doc) => entry) };
  const got: Doc = { ...rest, badges };
  if (JSON.stringify(canonical(got)) === JSON.stringify(canonical(doc))) return 0;
  const differing = Object.keys({ ...doc, ...got }).filter((key) => JSON.stringify(canonical(got[key])) !== JSON.stringify(canonical(doc[key])));
  t.fail(`${label} ${JSON.stringify(doc["name"])}: fields differ: ${differing.join(", ")}`, { got: Object.fromEntries(differing.map((key) => [key, got[key]])), want: Object.fromEntries(differing.map((key) => [key, doc[key]])) });
  return 1;
}

t.test("the fixture holds the odd values it is about", async (t) => {
  t.ok(documents.length >= 12, `${documents.length} rows`);
  t.ok(documents.some((doc) => doc["name"].includes("  ")), "a name with two spaces");
  t.ok(documents.some((doc) => doc["name"].endsWith(" ") && doc["team"].endsWith(" ")), "a trailing space on a name and a team");
  t.ok(documents.some((doc) => doc["name"].startsWith(" ")), "a leading space");
  t.ok(documents.some((doc) => /[^\x00-\x7f]/.test(doc["name"])), "unicode names");
  t.ok(documents.some((doc) => doc["weight"] === 250), "a weight that is the number 250");
  t.ok(documents.some((doc) => doc["weight"] === "250"), "a weight that is the text 250");
  t.ok(documents.some((doc) => doc["positions"].includes("pg")), "a position in lower case");
  t.ok(documents.some((doc) => doc["height"] === "6-11") && documents.some((doc) => doc["height"] === ""), "heights not like 6'8\"");
  t.ok(documents.some((doc) => String(doc["playerImage"]).startsWith("javascript:")), "a javascript: image");
  t.ok(documents.some((doc) => doc["badges"]["list"].some((entry: Doc) => entry.name.includes("  "))), "a badge name with two spaces");
  t.ok(documents.some((doc) => doc["badges"]["list"].some((entry: Doc) => entry.tier === "gold")), "a badge tier in lower case");
  t.ok(documents.some((doc) => doc["hotZones"]?.["paint"] === "Hot" && doc["hotZones"]["midPost"] !== undefined), "a zone value and a zone name spelled otherwise");
});

function build(t: Test): { code: number; output: string; out: string } {
  const out = t.testdir({});
  let output = "";
  const io = { env: {}, stderr: { write: (text: string) => { output += text; return true; }, isTTY: false } as unknown as NodeJS.WriteStream };
  const code = runBuildIndex(["--edition", "2K26", "--status", "current", "--input", FIXTURE, "--out", out, "--as-of", AS_OF], io);
  return { code, output, out };
}

/** The report's lines on what was kept (the same whether built or synced). */
function checkReport(t: Test, output: string): void {
  t.match(output, /2K26: 13 rows; /);
  t.match(output, /3 names, 2 teams, 2 badge names with doubled, leading or trailing spaces, kept as given/);
  t.match(output, /5 position lists not written as PG, SG, SF, PF or C once each, kept as given \(the position filter reads them case- and space-insensitively; 1 entry names no position, not filterable by position\)/);
  t.match(output, /3 heights not like 6'8", kept as given/);
  t.match(output, /1 wingspan not like 7'0", kept as given/);
  t.match(output, /4 weights not like 250 lbs \(2 numbers\), kept as given/);
  t.match(output, /4 badge tiers not written Bronze, Silver, Gold, Hall of Fame, Legendary, kept as given \(read case- and punctuation-insensitively\)/);
  t.match(output, /2 hot zones are not a hosted zone name with hot, cold or neutral, kept as given/);
  t.match(output, /5 image addresses are not http\(s\) URLs, kept as data \(pages never use them as links\)/);
  t.notMatch(output, /refused|generated|suffixed/);
}

async function checkServed(t: Test, courtside: Courtside, label: string): Promise<void> {
  let mismatches = 0;
  for (const doc of documents) {
    const byId = await courtside.json(`/api/players/${doc["_id"]}`);
    t.equal(byId.status, 200, `${label} GET /api/players/${doc["_id"]}`);
    mismatches += checkExact(t, doc, byId.body.data, `${label} by _id`);
    t.ok(isDocumentedPlayer(byId.body.data), `${label} ${JSON.stringify(doc["name"])} validates against the OpenAPI Player`, { errors: isDocumentedPlayer.errors });
    const bySlug = await courtside.json(`/api/players/slug/${doc["slug"]}`);
    t.equal(bySlug.body.data?._id, doc["_id"], `${label} /api/players/slug/${doc["slug"]}`);
    mismatches += checkExact(t, doc, bySlug.body.data, `${label} by slug`);
  }
  const bulk = await courtside.json("/api/players/bulk?teamType=curr");
  const served = new Map<string, Doc>(bulk.body.data.map((row: Doc) => [row["_id"], row]));
  for (const doc of documents) mismatches += checkExact(t, doc, served.get(doc["_id"]), `${label} bulk`);
  t.equal(mismatches, 0, `${label}: every row exactly as the source gave it`);
  t.equal(typeof byName("Drew  Peterson")["weight"], "number");
  t.equal((await courtside.json(`/api/players/${byName("Drew  Peterson")["_id"]}`)).body.data.weight, 250, "the number 250 stays the number 250");

  // Filters and search read the values by meaning.
  const ids = (rows: Doc[]) => rows.map((row) => row["_id"]).sort();
  const positionsOf = (doc: Doc) => (doc["positions"] as string[]).map((entry) => entry.trim().toUpperCase());
  for (const position of ["PG", "pg", "C"]) {
    const page = await courtside.json(`/api/players?position=${position}&limit=100`);
    t.equal(page.status, 200);
    t.same(ids(page.body.data), ids(documents.filter((doc) => positionsOf(doc).includes(position.toUpperCase()))), `${label} position=${position}: the lists naming it in any case or spacing`);
  }
  t.ok((await courtside.json("/api/players?position=PG&limit=100")).body.data.some((row: Doc) => row["positions"][0] === "pg"), "position=PG finds [\"pg\"], served as given");
  const guards = await courtside.json("/api/players?position=guard&limit=100");
  t.notOk(guards.body.data.some((row: Doc) => row["name"] === "Shai Gilgeous-Alexander"), "an entry that is no position (Guard) matches none");
  for (const [q, name] of [
    ["drew peterson", "Drew  Peterson"], ["Drew  Peterson", "Drew  Peterson"], ["jalen brunson", "Jalen Brunson "],
    ["nikola jokic", " Nikola Jokić"], ["porzingis", "Kristaps Porziņģis"],
  ] as const) {
    const search = await courtside.json(`/api/players/search?q=${encodeURIComponent(q)}`);
    t.equal(search.status, 200);
    t.equal(search.body.data[0]?._id, byName(name)["_id"], `${label} search ${q} finds ${JSON.stringify(name)} first`);
    t.equal(search.body.data[0]?.name, name, "served as given");
  }
  const listed = await courtside.json(`/api/players?search=${encodeURIComponent("drew  peterson")}`);
  t.same(ids(listed.body.data), [byName("Drew  Peterson")["_id"]], "the list's search= finds the double-spaced name");

  // A team spaced twice or with a trailing space is the team spaced once; each row keeps its own spelling.
  const boston = await courtside.json("/api/teams/boston-celtics/roster");
  t.equal(boston.status, 200);
  t.same(boston.body.data.map((row: Doc) => row["team"]).sort(), ["Boston  Celtics", "Boston Celtics"], `${label}: one roster, each row's team as given`);
  const byTeam = await courtside.json(`/api/players?team=${encodeURIComponent("Boston Celtics")}&limit=100`);
  t.equal(byTeam.body.data.length, 2, "team=Boston Celtics finds both spellings");
  const knicks = await courtside.json(`/api/players?team=${encodeURIComponent("New York Knicks")}&limit=100`);
  t.same(knicks.body.data.map((row: Doc) => row["team"]), ["New York Knicks "], "team=New York Knicks finds the row spelt with a trailing space");
  const teams = (await courtside.json("/api/teams?teamType=curr")).body.data as Doc[];
  t.equal(teams.filter((team) => team["slug"] === "boston-celtics").length, 1, "one Boston Celtics team");
  t.equal(teams.find((team) => team["slug"] === "milwaukee-bucks")?.["logo"], "", "a javascript: teamImg never becomes a team's logo");
  // A tier written `gold` is Gold to the badge filter and the holders list, and served as written.
  const lively = byName("Dereck Lively II");
  const deadeyeGold = await courtside.json("/api/badges/deadeye/players?tier=Gold&limit=100");
  t.ok(deadeyeGold.body.data.some((row: Doc) => row["_id"] === lively["_id"]), `${label}: tier "gold" holds Deadeye at Gold`);
  const filtered = await courtside.json("/api/players?badge=deadeye&badgeTier=gold&limit=100");
  t.ok(filtered.body.data.some((row: Doc) => row["_id"] === lively["_id"]), `${label}: badge=deadeye&badgeTier=gold finds the row`);
  const livelyRow = (await courtside.json(`/api/players/${lively["_id"]}`)).body.data;
  t.same([livelyRow.badges.gold, livelyRow.badges.silver], [lively["badges"]["gold"], lively["badges"]["silver"]], "counts as stated");
  const compare = await courtside.json(`/api/players/compare?ids=${byName("Victor Wembanyama")["_id"]},${byName("Stephen Curry")["_id"]}`);
  t.equal(compare.status, 200);
  t.same(compare.body.data.hotZones.find((row: Doc) => row["zone"] === "paint")?.values, ["Hot", "neutral"], "compare shows zones as given");
  t.same(compare.body.data.hotZones.find((row: Doc) => row["zone"] === "midPost")?.values, ["cold", null]);
  const profile = await courtside.json("/api/teams/boston-celtics/profile");
  t.equal(profile.status, 200);
  t.equal(profile.body.data.positions.primary.PG, 1, "a team profile reads `pg` as PG");
}

t.test("build-index keeps every odd value as given, says so, and serves every row back exactly", async (t) => {
  const { code, output, out } = build(t);
  t.equal(code, 0, "exit code 0", { output });
  checkReport(t, output);
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  await checkServed(t, courtside, "build-index");
});

t.test("npm run sync keeps the same values from a stand-in serving them as they are", async (t) => {
  const standIn = await startStandIn([{
    gameVersion: "2K26", status: "current", players: [], documents,
    entry: { label: "NBA 2K26", capturedAt: "2025-11-24T00:00:00.000Z", withCounts: true },
  }]);
  t.teardown(() => standIn.close());
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(code, 0, "exit code 0", { output });
  checkReport(t, output);
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  await checkServed(t, courtside, "sync");
});
