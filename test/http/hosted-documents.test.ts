// Issue 29, docs/data.md#source-values-kept-exactly: the hosted service's real documents, as a dump of them holds them
// (test/fixtures/hosted-dump.json: 26 current-era rows written from the description, one a
// line), go in through build-index and through sync from a stand-in serving them as they are, and
// come back over HTTP exactly: every source field deep-equal (array order included), our
// additions only under names of ours. Shared slugs, repeated badge lists, old short rows and the
// rookie's `ratingHistory: []` are what this file is about.

import t, { type Test } from "tap";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBuildIndex } from "../../src/pipeline/build-index-cli.js";
import { fingerprint, runSync, startCourtside, type Courtside } from "../sync/helpers.js";
import { STAND_IN_KEY, startStandIn, type StandInEdition } from "../sync/stand-in.js";

t.setTimeout(180_000);

type Doc = Record<string, any>;
const DUMP = new URL("../fixtures/hosted-dump.json", import.meta.url).pathname;
const documents: Doc[] = JSON.parse(readFileSync(DUMP, "utf8"));
const AS_OF = "2025-11-25";

/** Names of ours: what a served row may hold that the source's document does not. */
const OURS = new Set(["editionRatings"]);
/** The fidelity rules' fields (docs/compatibility.md#fidelity-rules) on every row: filled in (never changed) only where the source has none. */
const FILLED = new Set(["gameVersion", "ratingHistory", "createdAt", "_creationTime", "lastUpdated"]);

/** Key-sorted, array order kept: equal exactly when the values are deep-equal with their array order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * Every field of the document served under its own name with the same value; nothing else but
 * ours (and the fidelity rules' where the document lacks it); inside badges, our `slug` on each entry and, on a
 * versioned row, `top`. Returns the number of mismatches (each reported).
 */
function checkExact(t: Test, doc: Doc, served: Doc | undefined, label: string, isVersioned = false): number {
  if (served === undefined) {
    t.fail(`${label}: no row for ${doc["_id"]}`);
    return 1;
  }
  let mismatches = 0;
  const fail = (what: string, extra: Record<string, unknown>) => {
    mismatches++;
    t.fail(`${label} ${doc["name"]} (${doc["team"]}): ${what}`, extra);
  };
  for (const [key, value] of Object.entries(doc)) {
    let got = served[key];
    if (key === "badges" && got !== undefined) {
      const { top, list, ...counts } = got;
      if (isVersioned !== (top !== undefined)) fail("badges.top is on versioned rows only", { top });
      if (list !== undefined) {
        if (!list.every((entry: Doc) => typeof entry["slug"] === "string")) fail("every badge entry carries our slug", { list });
        got = { ...counts, list: list.map(({ slug: _slug, ...entry }: Doc) => entry) };
      } else got = counts;
    }
    if (!same(got, value)) fail(`field ${key} differs`, { got, want: value });
  }
  for (const key of Object.keys(served)) {
    if (key in doc || OURS.has(key) || FILLED.has(key)) continue;
    fail(`field ${key} is neither the source's nor ours`, { value: served[key] });
  }
  return mismatches;
}

const byCreation = (a: Doc, b: Doc) => a["_creationTime"] - b["_creationTime"];
const slugsShared = [...new Set(documents.map((doc) => doc["slug"]))].filter((slug) => documents.filter((doc) => doc["slug"] === slug).length > 1);
/** Each badge of a document once, by folded name, with its first tier. */
function distinctBadges(doc: Doc): Map<string, string> {
  const badges = new Map<string, string>();
  for (const entry of doc["badges"]["list"]) {
    const key = String(entry.name).toLowerCase().replace(/[^a-z0-9]/g, "");
    if (!badges.has(key)) badges.set(key, entry.tier);
  }
  return badges;
}

t.test("the fixture holds every quirk the issue lists", async (t) => {
  t.ok(documents.length >= 20, `${documents.length} rows`);
  t.ok(documents.every((doc) => /^j[0-9a-hjkmnp-tv-z]{31}$/.test(doc["_id"])), "Convex-shaped _ids");
  t.ok(documents.every((doc) => !Number.isInteger(doc["_creationTime"])), "_creationTime with a fraction");
  t.same(slugsShared.sort(), ["anthony-davis", "james-harden", "trae-young"], "three slugs on two rows each (traded players)");
  const trae = documents.filter((doc) => doc["slug"] === "trae-young");
  t.ok(trae[0]!["_creationTime"] > trae[1]!["_creationTime"], "one pair lists its newer row first, so source order and file order differ");
  const twice = documents.filter((doc) => doc["badges"]["list"].length === 2 * doc["badges"]["total"]);
  const partly = documents.filter((doc) => doc["badges"]["list"].length < 2 * doc["badges"]["total"]);
  t.equal(twice.length + partly.length, documents.length, "every badge list repeats its badges");
  t.ok(partly.length >= 3 && partly.some((doc) => doc["badges"]["total"] === 22 && doc["badges"]["list"].length === 41), "some second passes are partial (41 entries for a total of 22)");
  t.ok(documents.every((doc) => distinctBadges(doc).size === doc["badges"]["total"]), "counts count each badge once");
  const old = documents.filter((doc) => doc["gameVersion"] === undefined);
  t.ok(old.length >= 3 && old.every((doc) => doc["ratingHistory"] === undefined && doc["badges"]["list"].every((entry: Doc) => Object.keys(entry).sort().join() === "category,name,tier")), "older rows: no gameVersion, no ratingHistory, short badge entries");
  t.ok(documents.some((doc) => Array.isArray(doc["ratingHistory"]) && doc["ratingHistory"].length === 0), "a rookie with ratingHistory []");
  t.ok(documents.some((doc) => doc["badges"]["list"].some((entry: Doc) => entry.name === "Handles For Days")), "Handles For Days as 2kratings spells it");
  t.ok(documents.some((doc) => doc["archetype"] === "Crafty Iniside-Out Combo Guard"), "a source typo");
  t.ok(documents.filter((doc) => doc["build"] !== undefined).length > documents.length / 2, "build on most rows");
  t.ok(documents.every((doc) => doc["hotZones"] === undefined), "no hotZones");
  t.ok(documents.every((doc) => Object.keys(doc["attributes"]).length === 35), "35 attributes");
});

/** build-index's output lines, and the directory it wrote. */
function build(t: Test, input: string, out = t.testdir({})): { code: number; output: string; out: string } {
  let output = "";
  const io = { env: {}, stderr: { write: (text: string) => { output += text; return true; }, isTTY: false } as unknown as NodeJS.WriteStream };
  const code = runBuildIndex(["--edition", "2K26", "--status", "current", "--input", input, "--out", out, "--as-of", AS_OF], io);
  return { code, output, out };
}

/** Every document by _id, by slug (narrowed by its team: several rows share some slugs), and in the bulk answer, exactly. */
async function checkEveryRow(t: Test, courtside: Courtside, label: string): Promise<void> {
  let mismatches = 0;
  for (const doc of documents) {
    const byId = await courtside.json(`/api/players/${doc["_id"]}`);
    t.equal(byId.status, 200, `${label} GET /api/players/${doc["_id"]}`);
    mismatches += checkExact(t, doc, byId.body.data, `${label} by _id`);
    const bySlug = await courtside.json(`/api/players/slug/${doc["slug"]}?team=${encodeURIComponent(doc["team"])}`);
    t.equal(bySlug.body.data?._id, doc["_id"], `${label} /api/players/slug/${doc["slug"]}?team=${doc["team"]}`);
    mismatches += checkExact(t, doc, bySlug.body.data, `${label} by slug`);
  }
  const bulk = await courtside.json("/api/players/bulk?teamType=curr");
  const served = new Map<string, Doc>(bulk.body.data.map((row: Doc) => [row["_id"], row]));
  t.equal(served.size, documents.length, `${label}: one bulk row per document`);
  for (const doc of documents) mismatches += checkExact(t, doc, served.get(doc["_id"]), `${label} bulk`);
  t.equal(mismatches, 0, `${label}: every row, every field, exactly as the source gave it`);
}

t.test("build-index imports a hosted dump whole, says what it kept, and serves every row back exactly by _id and by slug", async (t) => {
  const { code, output, out } = build(t, DUMP);
  t.equal(code, 0, "exit code 0", { output });
  t.match(output, /2K26: 26 rows; 26 badge lists repeat entries \(23 each badge twice, 3 only some\), kept; each badge counted once per player/);
  t.match(output, /3 slugs on two rows, kept \(the slug route answers the first, meta\.variants names the others\)/);
  t.match(output, /3 rows have no gameVersion \(served with the edition's\); 3 rows have no ratingHistory \(served with the editions we hold\); 1 ratingHistory is \[\], kept/);
  t.notMatch(output, /generated|suffixed|refused/, "no slug was made or changed");
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  await checkEveryRow(t, courtside, "build-index");

  const rookie = documents.find((doc) => Array.isArray(doc["ratingHistory"]) && doc["ratingHistory"].length === 0)!;
  const detail = await courtside.json(`/api/players/${rookie["_id"]}`);
  t.same(detail.body.data.ratingHistory, [], "the rookie's ratingHistory: [] as given");
  t.same(detail.body.data.editionRatings, [{ gameVersion: "2K26", overall: rookie["overall"] }], "ours beside it, under our own name");
  const traded = documents.find((doc) => doc["slug"] === "anthony-davis")!;
  const tradedDetail = await courtside.json(`/api/players/${traded["_id"]}`);
  t.same(tradedDetail.body.data.ratingHistory, traded["ratingHistory"], "a source history as given");
  t.same(tradedDetail.body.data.editionRatings, traded["ratingHistory"], "ours is the source's where it names every edition we hold");
  const old = documents.find((doc) => doc["ratingHistory"] === undefined)!;
  const oldRow = (await courtside.json(`/api/players/${old["_id"]}`)).body.data;
  t.same([oldRow.gameVersion, oldRow.ratingHistory], ["2K26", [{ gameVersion: "2K26", overall: old["overall"] }]], "an older row carries the fields every row carries (docs/compatibility.md#fidelity-rules), filled from what we hold");
});

t.test("a shared slug: the slug route answers the first row in the hosted service's order after teamType/team narrowing and names the others; the versioned route answers every row", async (t) => {
  const { out } = build(t, DUMP);
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  for (const slug of slugsShared) {
    const rows = documents.filter((doc) => doc["slug"] === slug).sort(byCreation);
    const first = rows[0]!;
    const plain = await courtside.json(`/api/players/slug/${slug}`);
    t.equal(plain.status, 200);
    t.equal(plain.body.data._id, first["_id"], `${slug}: the row created first (Convex orders its by_slug index's ties by _creationTime)`);
    t.same(plain.body.meta.variants, rows.slice(1).map((doc) => ({ _id: doc["_id"], teamType: doc["teamType"], team: doc["team"], slug })), `${slug}: meta.variants names the other row`);
    const era = await courtside.json(`/api/players/slug/${slug}?teamType=curr`);
    t.equal(era.body.data._id, first["_id"], "teamType narrows to the same era: the same first row");
    // GET /api/players/:id answers a slug as the slug route does (ours: the hosted service knows only _ids there).
    const byIdRoute = await courtside.json(`/api/players/${slug}`);
    t.equal(byIdRoute.status, 200, `/api/players/${slug}`);
    t.same(byIdRoute.body, plain.body, `/api/players/${slug}: the slug route's answer, the same row and meta.variants`);
    const byIdRouteNarrowed = await courtside.json(`/api/players/${slug}?team=${encodeURIComponent(String(rows.at(-1)!["team"]))}`);
    t.equal(byIdRouteNarrowed.body.data._id, rows.at(-1)!["_id"], `/api/players/${slug}?team=…: narrowed as the slug route narrows`);
    for (const doc of rows) {
      // Each row's own _id still answers that row alone.
      const own = await courtside.json(`/api/players/${doc["_id"]}`);
      t.equal(own.body.data._id, doc["_id"], `/api/players/${doc["_id"]}`);
      t.equal(own.body.meta.variants, undefined, "by _id: one row, no variants");
    }
    for (const doc of rows) {
      for (const team of [doc["team"], String(doc["team"]).toLowerCase().replace(/[^a-z0-9]+/g, "-")]) {
        const narrowed = await courtside.json(`/api/players/slug/${slug}?team=${encodeURIComponent(team)}`);
        t.equal(narrowed.body.data._id, doc["_id"], `${slug}?team=${team}`);
        t.equal(narrowed.body.meta.variants, undefined, "one row left: no variants");
      }
    }
    const versioned = await courtside.json(`/api/versions/2K26/players/${slug}`);
    t.ok(Array.isArray(versioned.body.data), `${slug}: the versioned route answers an array`);
    t.same(versioned.body.data.map((row: Doc) => row["_id"]), rows.map((doc) => doc["_id"]), "every row, in the hosted order");
    t.same(versioned.body.meta.variants, rows.map((doc) => ({ teamType: doc["teamType"], team: doc["team"], _id: doc["_id"] })), "SPEC's variants: teamType and team (and _id) of each entry");
    t.equal(versioned.body.meta.count, rows.length);
    let mismatches = 0;
    versioned.body.data.forEach((row: Doc, i: number) => { mismatches += checkExact(t, rows[i]!, row, `versioned ${slug}`, true); });
    t.equal(mismatches, 0, "each entry exactly the source's, with badges.top (SPEC's versioned rows)");
  }
  const trae = documents.filter((doc) => doc["slug"] === "trae-young");
  t.equal((await courtside.json("/api/players/slug/trae-young")).body.data.team, "Atlanta Hawks", "not the row the file lists first (Washington), the row created first");
  t.equal(trae[0]!["team"], "Washington Wizards");
  const unique = await courtside.json("/api/versions/2K26/players/nikola-jokic");
  t.notOk(Array.isArray(unique.body.data), "a slug on one row: an object");
  t.equal((await courtside.json("/api/players/slug/nikola-jokic")).body.meta.variants, undefined);
  const id = await courtside.json("/api/players/anthony-davis/versions");
  t.equal(id.body.data.playerId, documents.filter((doc) => doc["slug"] === "anthony-davis").sort(byCreation)[0]!["_id"], "a route taking an _id or a slug takes the same first row");
  const similar = await courtside.json("/api/players/anthony-davis/similar?limit=3");
  t.equal(similar.status, 200, "similar answers a shared slug");
});

t.test("badge filters, holders, the catalogue, team profiles, compare and week changes count a player once per badge; names as the source spells them", async (t) => {
  const dir = t.testdir({});
  const { out } = build(t, DUMP, join(dir, "data"));
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  const catalogue = (await courtside.json("/api/badges")).body.data as Doc[];
  t.ok(catalogue.length >= 30, `${catalogue.length} badges`);
  let checked = 0;
  for (const badge of catalogue) {
    const key = String(badge["name"]).toLowerCase().replace(/[^a-z0-9]/g, "");
    const holders = documents.filter((doc) => distinctBadges(doc).has(key));
    const ids = holders.map((doc) => doc["_id"]).sort();
    const one = await courtside.json(`/api/badges/${badge["slug"]}`);
    t.equal(one.body.data.holders.total, holders.length, `${badge["slug"]}: holders counted once each`);
    const page = await courtside.json(`/api/badges/${badge["slug"]}/players?limit=100`);
    const pageIds = page.body.data.map((row: Doc) => row["_id"]);
    t.equal(new Set(pageIds).size, pageIds.length, `${badge["slug"]}: each holder listed once`);
    t.same([...pageIds].sort(), ids, `${badge["slug"]}: exactly its holders`);
    const filtered = await courtside.json(`/api/players?badge=${badge["slug"]}&limit=100`);
    const filteredIds = filtered.body.data.map((row: Doc) => row["_id"]);
    t.equal(new Set(filteredIds).size, filteredIds.length);
    t.same([...filteredIds].sort(), ids, `badge=${badge["slug"]}: exactly its holders, once each`);
    t.equal(filtered.body.meta.pagination.total, holders.length);
    checked++;
  }
  t.equal(checked, catalogue.length);

  const handles = await courtside.json("/api/badges/handles-for-days");
  t.equal(handles.body.data.name, "Handles For Days", "the catalogue names a badge as the source spells it");
  const holders = documents.filter((doc) => distinctBadges(doc).has("handlesfordays")).map((doc) => doc["_id"]).sort();
  for (const asked of ["Handles%20for%20days", "HANDLES_FOR_DAYS", "handles-for-days"]) {
    const byName = await courtside.json(`/api/players?badge=${asked}&limit=100`);
    t.same(byName.body.data.map((row: Doc) => row["_id"]).sort(), holders, `badge=${asked}: case and punctuation aside`);
  }

  const cleveland = documents.filter((doc) => doc["team"] === "Cleveland Cavaliers");
  const profile = await courtside.json("/api/teams/cleveland-cavaliers/profile");
  t.equal(profile.status, 200);
  const byCategory = Object.values(profile.body.data.badges.byCategory as Record<string, { total: number }>).reduce((sum, counts) => sum + counts.total, 0);
  t.equal(byCategory, cleveland.reduce((sum, doc) => sum + distinctBadges(doc).size, 0), "the team profile counts each badge once per player");
  t.equal(profile.body.data.badges.total, cleveland.reduce((sum, doc) => sum + doc["badges"]["total"], 0), "and sums the counts as stated");

  const [a, b] = cleveland;
  const compare = await courtside.json(`/api/players/compare?ids=${a!["_id"]},${b!["_id"]}`);
  t.equal(compare.status, 200);
  const slugs = compare.body.data.badges.map((entry: Doc) => entry["slug"]);
  t.equal(new Set(slugs).size, slugs.length, "compare lists each badge once");
  t.equal(slugs.length, new Set([...distinctBadges(a!).keys(), ...distinctBadges(b!).keys()]).size);

  // A week later one player's badge moves up a tier in both passes, and one is added to both.
  const mover = documents.find((doc) => doc["slug"] === "stephen-curry")!;
  const entries = mover["badges"]["list"] as Doc[];
  const silver = entries.find((entry) => entry.tier === "Silver")!.name;
  const nextWeek = documents.map((doc) => {
    if (doc !== mover) return doc;
    const has = new Set(entries.map((entry) => entry.name));
    const added = ["Deadeye", "Glove", "Dimer", "Pogo Stick"].find((name) => !has.has(name))!;
    const list = entries.map((entry) => (entry.name === silver ? { ...entry, tier: "Gold" } : entry));
    const extra = { category: "Outside Scoring", name: added, tier: "Bronze" };
    return { ...doc, badges: { ...doc["badges"], total: doc["badges"]["total"] + 1, silver: doc["badges"]["silver"] - 1, gold: doc["badges"]["gold"] + 1, bronze: doc["badges"]["bronze"] + 1, list: [...list.slice(0, list.length / 2), extra, ...list.slice(list.length / 2), extra] } };
  });
  const later = join(dir, "dump-next-week.json");
  writeFileSync(later, JSON.stringify(nextWeek));
  courtside.close();
  let output = "";
  const io = { env: {}, stderr: { write: (text: string) => { output += text; return true; }, isTTY: false } as unknown as NodeJS.WriteStream };
  t.equal(runBuildIndex(["--edition", "2K26", "--status", "current", "--input", later, "--out", out, "--as-of", "2025-12-02"], io), 0, output);
  const again = await startCourtside(out);
  t.teardown(() => again.close());
  const history = await again.json(`/api/players/${mover["_id"]}/history`);
  const changes = history.body.data[0].badgeChanges;
  t.equal(changes.upgraded.length, 1, "one badge upgraded, once");
  t.equal(changes.upgraded[0].name, silver);
  t.equal(changes.added.length, 1, "one badge added, once");
  t.same([changes.removed, changes.downgraded], [[], []]);
});

t.test("what cannot be served is refused with file, line and field, and a refused input writes nothing", async (t) => {
  const cases: { name: string; change: (doc: Doc) => Doc; row: number; field: string; reason: RegExp }[] = [
    { name: "no name", change: ({ name: _name, ...doc }) => doc, row: 4, field: "name", reason: /the name is missing or empty/ },
    { name: "an overall outside 0–99", change: (doc) => ({ ...doc, overall: 104 }), row: 9, field: "overall", reason: /104 is not an integer from 0 to 99/ },
    { name: "a non-object attributes", change: (doc) => ({ ...doc, attributes: [88, 90] }), row: 12, field: "attributes", reason: /attributes must be an object/ },
  ];
  for (const { name, change, row, field, reason } of cases) {
    const dir = t.testdir({});
    const input = join(dir, "dump.json");
    writeFileSync(input, `[\n${documents.map((doc, i) => JSON.stringify(i === row ? change(doc) : doc)).join(",\n")}\n]\n`);
    const { code, output } = build(t, input, join(dir, "data"));
    t.equal(code, 1, name);
    t.match(output, `${input} line ${row + 2}, field ${field}: `, `${name}: file, line and field`);
    t.match(output, reason);
    t.match(output, /nothing was written/);
    t.same(readdirSync(dir), ["dump.json"], `${name}: no data directory, no snapshot`);
  }
  const dir = t.testdir({});
  const input = join(dir, "dump.json");
  writeFileSync(input, JSON.stringify([...documents, { ...documents[5]!, team: "Utah Jazz" }]));
  const duplicate = build(t, input, join(dir, "data"));
  t.equal(duplicate.code, 1);
  t.match(duplicate.output, new RegExp(`field _id: row 27 \\(trae-young\\): the id ${documents[5]!["_id"]} is already row 6's`), "a duplicate _id names both rows");
  t.same(readdirSync(dir), ["dump.json"]);
});

t.test("npm run sync copies the same documents from a stand-in serving them as they are: every row back exactly, shared slugs kept, a second sync all 304s", async (t) => {
  const edition: StandInEdition = {
    gameVersion: "2K26", status: "current", players: [], documents,
    entry: { label: "NBA 2K26", capturedAt: "2025-11-24T00:00:00.000Z", withCounts: true },
  };
  const standIn = await startStandIn([edition]);
  t.teardown(() => standIn.close());
  const out = t.testdir({});
  const first = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(first.code, 0, "exit code 0", { output: first.output });
  t.match(first.output, /2K26: 26 rows; 26 badge lists repeat entries \(23 each badge twice, 3 only some\), kept/);
  t.match(first.output, /3 slugs on two rows, kept/);
  const courtside = await startCourtside(out);
  t.teardown(() => courtside.close());
  await checkEveryRow(t, courtside, "sync");
  const davis = documents.filter((doc) => doc["slug"] === "anthony-davis").sort(byCreation);
  const plain = await courtside.json("/api/players/slug/anthony-davis");
  t.equal(plain.body.data._id, davis[0]!["_id"]);
  t.same(plain.body.meta.variants.map((variant: Doc) => variant["_id"]), [davis[1]!["_id"]]);

  const before = fingerprint(out);
  standIn.log.length = 0;
  const second = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(second.code, 0, "exit code 0", { output: second.output });
  t.same(standIn.log.slice(1).map((entry) => entry.status), [304], "the bulk answer is 304");
  t.match(second.output, /nothing changed at the source/);
  t.equal(fingerprint(out), before, "nothing written");
});

t.test("a sync refuses a row that cannot be served, naming the answer, the row and the field, and writes nothing", async (t) => {
  const broken = documents.map((doc, i) => (i === 7 ? { ...doc, overall: -3 } : doc));
  const standIn = await startStandIn([{ gameVersion: "2K26", status: "current", players: [], documents: broken, entry: { withCounts: true } }]);
  t.teardown(() => standIn.close());
  const out = t.testdir({});
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(code, 1, "exit code 1", { output });
  t.match(output, `${standIn.base}/api/players/bulk: row 7 (${documents[7]!["slug"]}), field overall: -3 is not an integer from 0 to 99`);
  t.match(output, /nothing was written/);
  t.same(readdirSync(out), []);
});
