// The nearest-profile index answers exactly what the plain scan answers (similarRowsByScan, the
// reference): on a generated edition whose rows share profiles (ties at every distance), with
// a column most rows lack, a column without spread, rows that lack some or most columns, rookies
// without attributes, any era and position scope and limit; and on the real 2K26 samples.
import t from "tap";
import { fileURLToPath } from "node:url";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { generateScaleEdition } from "../../src/pipeline/demo.js";
import { importFiles } from "../../src/pipeline/import.js";
import { decodeSnapshot, encodeSnapshot, type SnapshotPayload } from "../../src/store/snapshot.js";
import { ALL_ERAS_MASK } from "../../src/query/plan.js";
import { profileColumnsOf, profileIndexOf, similarRows, similarRowsByScan, type SimilarQuery } from "../../src/store/attribute-profile.js";
import { Edition } from "../../src/store/edition.js";
import { editionOf } from "../../src/store/derived-tables.js";
import { mulberry32 } from "../fixtures/random-edition.js";
import { ABSENT_RATING } from "../../src/model/attributes.js";

/**
 * A generated edition of `players`, then in both attribute layouts: `sparse` held by a third of
 * the rows, `flat` the same value wherever held (no spread), 4 % of the profiled rows losing 1–30
 * of their columns, half the rows moved by ±1–2 in a few columns (distinct distances beside the
 * shared profiles' ties). Returns the edition and the rows that lost columns.
 */
function generatedEdition(players: number, seed: number): { edition: Edition; partial: number[] } {
  const payload: SnapshotPayload = buildSnapshotPayload(generateScaleEdition({ players, seed }));
  const rows = payload.meta.playerCount;
  const { attributes, attributeColumns } = payload.columns;
  const keyCount = attributes.length / rows;
  const columns = profileColumnsOf(new Edition(payload, "probe"));
  const random = mulberry32(seed);
  const set = (row: number, column: number, value: number) => {
    attributes[row * keyCount + column] = value;
    attributeColumns[column * rows + row] = value;
  };
  const [sparse, flat] = [columns[3] as number, columns[11] as number];
  const partial: number[] = [];
  for (let row = 0; row < rows; row++) {
    if (attributes[row * keyCount + (columns[0] as number)] === ABSENT_RATING) continue; // a rookie: no attributes
    if (random() < 2 / 3) set(row, sparse, ABSENT_RATING);
    set(row, flat, 60);
    if (random() < 0.5) {
      for (let n = 0; n < 3; n++) {
        const column = columns[Math.floor(random() * columns.length)] as number;
        const value = attributes[row * keyCount + column] as number;
        if (value !== ABSENT_RATING && column !== flat) set(row, column, Math.max(25, Math.min(99, value + (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 2)))));
      }
    }
    if (random() < 0.04) {
      const losses = 1 + Math.floor(random() * 30);
      for (let n = 0; n < losses; n++) set(row, columns[Math.floor(random() * columns.length)] as number, ABSENT_RATING);
      partial.push(row);
    }
  }
  // The columns changed after the build: its stored index and tables no longer describe them (the edition builds its own).
  delete payload.profileIndex;
  delete payload.profileTables;
  return { edition: editionOf(payload, `generated-${players}-${seed}`), partial };
}

function randomQuery(random: () => number, row: number): SimilarQuery {
  const eraMask = random() < 0.5 ? 0 : 1 + Math.floor(random() * ALL_ERAS_MASK); // 0: the row's own era, set by the caller
  const positionMask = random() < 0.5 ? 0 : 1 + Math.floor(random() * 31);
  return { row, eraMask, positionMask, limit: 1 + Math.floor(random() * 50) };
}

t.test("on a generated edition: equal to the scan on random queries, partial targets and rookies included", async (t) => {
  const { edition, partial } = generatedEdition(12_000, 24);
  const index = profileIndexOf(edition);
  t.ok(index.partialRows.length > 0 && index.partialRows.length < edition.rowCount / 10, "rows lacking a common column are checked one by one");
  t.ok(index.columns.length > 20, "the common columns leave out the sparse one and the flat one");
  const random = mulberry32(7);
  const { era } = edition.payload.columns;
  let compared = 0;
  let answered = 0;
  let mismatches = 0;
  const targets = [
    ...Array.from({ length: 500 }, () => Math.floor(random() * edition.rowCount)),
    ...Array.from({ length: 150 }, () => partial[Math.floor(random() * partial.length)] as number),
  ];
  for (const row of targets) {
    const query = randomQuery(random, row);
    if (query.eraMask === 0) query.eraMask = 1 << (era[row] as number);
    const expected = similarRowsByScan(edition, query);
    const actual = similarRows(edition, query);
    compared++;
    if (expected.length > 0) answered++;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      mismatches++;
      if (mismatches <= 3) t.same(actual, expected, `row ${row}, ${JSON.stringify(query)}`);
    }
  }
  t.equal(mismatches, 0, `${compared} queries, every answer (rows, similarity, shared) the scan's`);
  t.ok(answered > compared / 2, "most queries have answers");
});

t.test("ties: rows sharing one profile come in name order, as in the scan", async (t) => {
  const { edition } = generatedEdition(12_000, 5);
  const { nameRank } = edition.payload.columns;
  let tiedQueries = 0;
  for (let row = 0; row < edition.rowCount && tiedQueries < 20; row += 37) {
    const query = { row, eraMask: ALL_ERAS_MASK, positionMask: 0, limit: 50 };
    const actual = similarRows(edition, query);
    const tied = actual.filter((match, i) => i > 0 && match.similarity === actual[i - 1]?.similarity && match.shared === actual[i - 1]?.shared);
    if (tied.length === 0) continue;
    tiedQueries++;
    t.same(actual, similarRowsByScan(edition, query));
    for (let i = 1; i < actual.length; i++) {
      const [a, b] = [actual[i - 1], actual[i]];
      if (a && b && a.similarity === b.similarity && a.shared === b.shared) t.ok((nameRank[a.row] as number) !== (nameRank[b.row] as number));
    }
  }
  t.ok(tiedQueries >= 5, "the edition has tied answers to check");
});

t.test("the index looks at far fewer rows than the scope without a position filter", async (t) => {
  const { edition } = generatedEdition(40_000, 11);
  const index = profileIndexOf(edition);
  const { era } = edition.payload.columns;
  let looked = 0;
  let scope = 0;
  for (let row = 0; row < edition.rowCount; row += 401) {
    const code = era[row] as number;
    similarRows(edition, { row, eraMask: 1 << code, positionMask: 0, limit: 10 });
    looked += index.work.rows;
    scope += (edition.eraStart[code + 1] as number) - (edition.eraStart[code] as number);
  }
  t.ok(looked < scope / 2, `looked at ${looked} rows of ${scope} in scope`);
});

t.test("on the real 2K26 samples: every player's answer equals the scan's", async (t) => {
  const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
  const capturedAt = "2025-08-01T00:00:00.000Z";
  const players = importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt });
  const edition = new Edition(buildSnapshotPayload({ gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players, history: [] }), "real-2k26");
  const { era } = edition.payload.columns;
  let mismatches = 0;
  for (let row = 0; row < edition.rowCount; row++) {
    for (const query of [
      { row, eraMask: 1 << (era[row] as number), positionMask: 0, limit: 10 },
      { row, eraMask: ALL_ERAS_MASK, positionMask: 0b00011, limit: 50 },
    ]) {
      if (JSON.stringify(similarRows(edition, query)) !== JSON.stringify(similarRowsByScan(edition, query))) mismatches++;
    }
  }
  t.equal(mismatches, 0, `${edition.rowCount} players, two scopes each`);
});

t.test("the index build-index stores is the one a thread would build, read back from the file, and is the one searched", async (t) => {
  const payload = buildSnapshotPayload(generateScaleEdition({ players: 6_000, seed: 3 }));
  t.ok(payload.profileIndex !== undefined, "the build stores it");
  const back = decodeSnapshot("x.msgpack", encodeSnapshot(payload));
  const stored = new Edition(back, "stored");
  const { profileIndex: _stored, ...withoutIndex } = back;
  const built = editionOf(withoutIndex, "built");
  const fromFile = profileIndexOf(stored);
  t.equal(fromFile.rows.buffer, back.profileIndex?.rows.buffer, "the search reads the file's arrays, not a rebuilt copy");
  const fresh = profileIndexOf(built);
  for (const name of ["columns", "weights", "rows", "rootOfEra", "nodeStart", "nodeEnd", "boxLow", "boxHigh", "partialRows", "nodePositions"] as const) {
    t.same([...fromFile[name]], [...fresh[name]], `${name}: as derived at load for a file without it`);
  }
  const random = mulberry32(19);
  let mismatches = 0;
  for (let n = 0; n < 200; n++) {
    const query = randomQuery(random, Math.floor(random() * stored.rowCount));
    if (query.eraMask === 0) query.eraMask = ALL_ERAS_MASK;
    if (JSON.stringify(similarRows(stored, query)) !== JSON.stringify(similarRowsByScan(stored, query))) mismatches++;
  }
  t.equal(mismatches, 0, "and it answers as the scan does");
});
