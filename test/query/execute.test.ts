import t from "tap";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { Edition } from "../../src/store/edition.js";
import { executeQuery } from "../../src/query/execute.js";
import { defaultQuery, type PlayerQuery } from "../../src/query/plan.js";
import { ATTRIBUTE_COUNT } from "../../src/model/attributes.js";
import { BADGE_COUNT } from "../../src/model/badges.js";
import { ARCHETYPES, COLLEGES, mulberry32, randomEdition } from "../fixtures/random-edition.js";
import { oracle, type OracleTexts } from "./oracle.js";
import { recordsOf } from "../fixtures/records.js";

const edition = new Edition(buildSnapshotPayload(randomEdition(600, 7)), "test");
const teamKey = (code: number) => `${edition.teams[code]!.teamType}/${edition.teams[code]!.teamName}`;

/** Search texts as people type them: a first name, a last-name start, two words in any order, accents, a hyphen joined, no match. */
const SEARCHES = ["nikola", "jok", "DONČ", "luka d", "d luka", "shai gilgeousal", "gilgeousalexander", "o'ne", "zoe", "angel", "deaaron", "de", "s", "eric sa", "kev dur", "xyz", "curry stephen"];
const casing = (text: string, random: () => number) => (random() < 0.5 ? text.toUpperCase() : text.toLowerCase());

function randomQuery(random: () => number): { query: PlayerQuery; texts: OracleTexts } {
  const query = defaultQuery();
  const texts: OracleTexts = {};
  const chance = (p: number) => random() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  query.eraMask = int(1, 7);
  if (chance(0.3)) query.positionMask = int(1, 31);
  if (chance(0.2)) query.teamCodes = [int(0, edition.teams.length - 1)];
  if (chance(0.3)) { query.minOverall = int(68, 75); query.maxOverall = int(query.minOverall, 80); }
  if (chance(0.4)) query.attributeBounds = [{ column: int(0, ATTRIBUTE_COUNT - 1), min: int(55, 65), max: int(65, 75) }];
  if (chance(0.2)) query.badge = int(0, BADGE_COUNT - 1);
  if (chance(0.2)) query.badgeTier = int(1, 5);
  if (chance(0.25)) query.search = SEARCHES[int(0, SEARCHES.length - 1)]!;
  if (chance(0.2)) {
    texts.archetype = chance(0.1) ? "Point Forward" : casing(ARCHETYPES[int(0, ARCHETYPES.length - 1)]!, random);
    query.archetypeCode = edition.archetypes.codeOf(texts.archetype);
  }
  if (chance(0.2)) {
    texts.college = casing(COLLEGES[int(0, COLLEGES.length - 1)]!, random);
    query.collegeCode = edition.colleges.codeOf(texts.college);
  }
  const sortRoll = random();
  query.sortKey = sortRoll < 0.3 ? "overall" : sortRoll < 0.45 ? "name" : int(0, ATTRIBUTE_COUNT - 1);
  query.isDescending = chance(0.5);
  return { query, texts };
}

t.test("seeded random filter/sort/page queries equal the naive oracle", async (t) => {
  const random = mulberry32(99);
  let nonEmpty = 0;
  const used = { search: 0, archetype: 0, college: 0 };
  for (let i = 0; i < 600; i++) {
    const { query, texts } = randomQuery(random);
    const expected = oracle(recordsOf(edition), teamKey, query, texts);
    if (expected.length > 0) {
      if (query.search !== null) used.search++;
      if (texts.archetype !== undefined) used.archetype++;
      if (texts.college !== undefined) used.college++;
    }
    const offset = random() < 0.5 ? 0 : Math.floor(random() * (expected.length + 5));
    const limit = 1 + Math.floor(random() * 60);
    const result = executeQuery(edition, query, offset, limit);
    const got = [...result.rows].map((row) => recordsOf(edition)[row]!._id);
    const want = expected.slice(offset, offset + limit).map((player) => player._id);
    if (result.total !== expected.length || JSON.stringify(got) !== JSON.stringify(want)) {
      t.fail(`query ${i} differs: ${JSON.stringify(query)} offset ${offset} limit ${limit}`);
      t.same(got, want);
      return;
    }
    if (got.length > 0) nonEmpty++;
  }
  t.ok(nonEmpty > 200, `most queries return rows (${nonEmpty})`);
  t.ok(used.search > 20 && used.archetype > 20 && used.college > 20, `the new filters were exercised with matches (${JSON.stringify(used)})`);
});

t.test("walking pages to the end yields every match exactly once", async (t) => {
  for (const sortKey of ["overall", "name", 3] as const) {
    for (const isDescending of [true, false]) {
      const query = { ...defaultQuery(), eraMask: 7, sortKey, isDescending };
      const seen: number[] = [];
      let total = 0;
      for (let offset = 0; ; offset += 50) {
        const page = executeQuery(edition, query, offset, 50);
        total = page.total;
        if (page.rows.length === 0) break;
        seen.push(...page.rows);
      }
      t.equal(seen.length, total, `${sortKey} ${isDescending}`);
      t.equal(new Set(seen).size, total);
    }
  }
});

t.test("a filter that matches nothing gives an empty page and total 0", async (t) => {
  const result = executeQuery(edition, { ...defaultQuery(), minOverall: 99 }, 0, 50);
  t.equal(result.total, 0);
  t.equal(result.rows.length, 0);
});

t.test("an offset past the end gives an empty page but the real total", async (t) => {
  const result = executeQuery(edition, { ...defaultQuery(), eraMask: 7 }, 10_000, 50);
  t.equal(result.total, 600);
  t.equal(result.rows.length, 0);
});

t.test("the search, archetype and college filters combine with each other and with every other filter", async (t) => {
  const jokic = recordsOf(edition).filter((p) => p.name.endsWith("Jokić"));
  t.ok(jokic.length > 3, "the fixture has several Jokićs");
  const query = { ...defaultQuery(), eraMask: 7, search: "JOKIC" };
  t.equal(executeQuery(edition, query, 0, 1000).total, jokic.length, "accents and case never matter");
  const oneArchetype = jokic[0]!.archetype!;
  const both = { ...query, archetypeCode: edition.archetypes.codeOf(oneArchetype.toUpperCase()) };
  t.equal(executeQuery(edition, both, 0, 1000).total, jokic.filter((p) => p.archetype === oneArchetype).length);
  t.equal(executeQuery(edition, { ...both, archetypeCode: edition.archetypes.codeOf("No Such Archetype") }, 0, 10).total, 0, "an unknown value matches nothing");
  const montreal = recordsOf(edition).filter((p) => p.college === "Université de Montréal").length;
  t.ok(montreal > 0);
  t.equal(executeQuery(edition, { ...defaultQuery(), eraMask: 7, collegeCode: edition.colleges.codeOf("université de montréal") }, 0, 10).total, montreal, "exact: accents count, case does not");
});

t.test("byte columns a file left unaligned (written before every array was 8-byte aligned) keep the four-rows-at-a-time pass and its answers", async (t) => {
  const payload = buildSnapshotPayload(randomEdition(600, 7));
  const shifted = (column: Uint8Array) => {
    const bytes = new Uint8Array(column.length + 1);
    bytes.set(column, 1);
    return bytes.subarray(1);
  };
  const unaligned = new Edition({ ...payload, columns: { ...payload.columns, overall: shifted(payload.columns.overall), positions: shifted(payload.columns.positions) } }, "unaligned");
  t.equal(unaligned.payload.columns.overall.byteOffset % 4, 1, "the column is not 4-byte aligned");
  t.ok(unaligned.overallWords !== null && unaligned.positionWords !== null, "the edition reads it four rows at a time all the same");
  const random = mulberry32(5);
  for (let i = 0; i < 200; i++) {
    const { query } = randomQuery(random);
    const a = executeQuery(edition, query, 0, 50);
    const b = executeQuery(unaligned, query, 0, 50);
    if (a.total !== b.total || JSON.stringify([...a.rows]) !== JSON.stringify([...b.rows])) {
      t.fail(`query ${i} differs on the unaligned columns: ${JSON.stringify(query)}`);
      return;
    }
  }
  t.pass("200 random queries answer alike");
});
