// The nearest profiles build-index stores (store/neighbour-tables.ts, `payload.neighbours`): on the
// demo editions every stored list equals a naive ranking of the row's era (every distance from the
// records' attributes and the columns' spreads, sorted by distance, then name), and `similar`
// (answered from the lists in the default scope, by the index in any other) is the plain scan's
// answer (similarRowsByScan), every second row, limits 1, 10 and 50; an edition above
// NEIGHBOUR_ROWS_MAX rows stores none.
import t from "tap";
import { ERA_CODE } from "../../src/model/eras.js";
import { POSITION_BIT, POSITIONS, parsePositionMask } from "../../src/model/positions.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { generateDemoEditions, generateScaleEdition } from "../../src/pipeline/demo.js";
import { attributeSpreadOf, profileColumnsOf, similarRows, similarRowsByScan } from "../../src/store/attribute-profile.js";
import { Edition } from "../../src/store/edition.js";
import { NEIGHBOUR_ROWS_MAX, NEIGHBOURS_KEPT, type StoredNeighbours } from "../../src/store/neighbour-tables.js";
import { decodeSnapshot, encodeSnapshot, type SnapshotPayload } from "../../src/store/snapshot.js";

const built: SnapshotPayload[] = generateDemoEditions({ asOf: "2026-11-20" }).map((source) => buildSnapshotPayload(source));
/** Rows checked against the naive ranking in each edition (every STRIDE-th; the answers below check every second row). */
const STRIDE = 25;

/** Each row's attribute values by column, read from its record (undefined where it lacks one): once per edition. */
const valuesOf = new WeakMap<Edition, (number | undefined)[][]>();
function recordValues(edition: Edition): (number | undefined)[][] {
  let values = valuesOf.get(edition);
  if (values === undefined) {
    const keys = edition.catalogue.attributeKeys;
    values = Array.from({ length: edition.rowCount }, (_, row) => {
      const attributes = edition.record(row).attributes as Record<string, number | undefined>;
      return keys.map((key) => attributes[key]);
    });
    valuesOf.set(edition, values);
  }
  return values;
}

/** The scope's rows nearest `row`, naively: every row's distance from the records, sorted by distance then name; the first NEIGHBOURS_KEPT. */
function naiveList(edition: Edition, row: number, inScope: (other: number) => boolean): number[] {
  const values = recordValues(edition);
  const { stddev } = attributeSpreadOf(edition);
  const columns = profileColumnsOf(edition).filter((column) => (stddev[column] as number) > 0);
  const own = values[row] as (number | undefined)[];
  const held = columns.filter((column) => own[column] !== undefined);
  if (held.length === 0) return [];
  const { nameRank } = edition.payload.columns;
  const ranked: { other: number; distance: number }[] = [];
  for (let other = 0; other < edition.rowCount; other++) {
    if (other === row || !inScope(other)) continue;
    const theirs = values[other] as (number | undefined)[];
    // The squared standardised gaps summed in float32, in column order, as the tables hold them.
    let sum = 0;
    let shared = 0;
    for (const column of held) {
      const value = theirs[column];
      if (value === undefined) continue;
      sum = Math.fround(sum + Math.fround(((value - (own[column] as number)) * (1 / (stddev[column] as number))) ** 2));
      shared++;
    }
    if (shared >= Math.ceil(held.length / 2)) ranked.push({ other, distance: Math.sqrt(sum / shared) });
  }
  ranked.sort((a, b) => a.distance - b.distance || (nameRank[a.other] as number) - (nameRank[b.other] as number));
  return ranked.slice(0, NEIGHBOURS_KEPT).map(({ other }) => other);
}

function storedList(edition: Edition, tables: StoredNeighbours, row: number): number[] {
  const start = row * tables.kept;
  return Array.from(tables.rows.subarray(start, start + tables.kept)).filter((other) => other < edition.rowCount);
}

/** The rows (every STRIDE-th) whose stored list differs from the naive ranking of their era. */
function mismatchesOf(edition: Edition, tables: StoredNeighbours): string[] {
  const { era } = edition.payload.columns;
  const wrong: string[] = [];
  for (let row = 0; row < edition.rowCount; row += STRIDE) {
    const naive = naiveList(edition, row, (other) => era[other] === era[row]);
    const stored = storedList(edition, tables, row);
    if (naive.length !== stored.length || naive.some((other, i) => other !== stored[i])) wrong.push(`row ${row}`);
  }
  return wrong;
}

const editions = built.map((payload) => {
  // As a server reads them: through the file's encoding.
  const read = decodeSnapshot(`${payload.meta.gameVersion}.msgpack`, encodeSnapshot(payload));
  return { payload, read, edition: new Edition(read, payload.meta.gameVersion) };
});

t.test("every demo edition: the stored lists equal a naive ranking of each scope's rows", async (t) => {
  for (const { read, edition } of editions) {
    t.ok(read.neighbours, `${edition.key}: the file holds the lists`);
    t.equal(edition.payload.neighbours, read.neighbours, `${edition.key}: the file's lists are the ones read (not rebuilt)`);
    t.ok(edition.payload.neighbours.rows instanceof Uint16Array, `${edition.key}: ${edition.rowCount} rows, listed as 16-bit rows`);
    t.same(mismatchesOf(edition, edition.payload.neighbours), [], `${edition.key}: every ${STRIDE}th row's list`);
  }
});

t.test("an edition of more than NEIGHBOUR_ROWS_MAX rows stores no lists, and similar searches the index for it", async (t) => {
  const large = buildSnapshotPayload(generateScaleEdition({ players: NEIGHBOUR_ROWS_MAX + 1, gameVersion: "2K99" }));
  const edition = new Edition(decodeSnapshot("2K99.msgpack", encodeSnapshot(large)), "2K99");
  t.equal(edition.rowCount, NEIGHBOUR_ROWS_MAX + 1);
  t.same({ kept: edition.payload.neighbours.kept, entries: edition.payload.neighbours.rows.length }, { kept: 0, entries: 0 }, "no lists stored");
  let differing = 0;
  for (let row = 0; row < edition.rowCount; row += 97) {
    const query = { row, eraMask: 1 << (edition.payload.columns.era[row] as number), positionMask: 0, limit: 10 };
    if (JSON.stringify(similarRows(edition, query)) !== JSON.stringify(similarRowsByScan(edition, query))) differing++;
  }
  t.equal(differing, 0, "its answers are the scan's");
});

t.test("the naive check tells a wrong list apart", async (t) => {
  const { edition } = editions[editions.length - 1] as (typeof editions)[number];
  const { kept, rows } = edition.payload.neighbours;
  const altered = Uint16Array.from(rows);
  // Row 0's list with its first two entries swapped.
  [altered[0], altered[1]] = [altered[1] as number, altered[0] as number];
  t.ok(mismatchesOf(edition, { kept, rows: altered }).length > 0, "a swapped pair shows");
});

t.test("similar answers as the scan does, from the lists or the index: every second row, own era (with no position, each position and group in turn), every era", async (t) => {
  const masks = [...POSITIONS.map((position) => POSITION_BIT[position]), ...["guard", "wing", "big"].map((group) => parsePositionMask(group) as number)];
  for (const { edition } of editions) {
    let differing = 0;
    let checked = 0;
    let nonEmpty = 0;
    for (let row = 0; row < edition.rowCount; row += 2) {
      const ownMask = 1 << (edition.payload.columns.era[row] as number);
      // Each row its own era without a position (the stored lists); every sixth one also a position
      // scope of its era (in turn) and every era (the index); limits 1, 10 and 50 in turn.
      const limit = [1, 10, 50][row % 3] as number;
      const queries = [
        { row, eraMask: ownMask, positionMask: 0, limit },
        ...(row % 6 === 0 ? [{ row, eraMask: ownMask, positionMask: masks[(row / 6) % masks.length] as number, limit }, { row, eraMask: 0b111, positionMask: 0, limit }] : []),
      ];
      for (const query of queries) {
        const stored = similarRows(edition, query);
        const scanned = similarRowsByScan(edition, query);
        checked++;
        if (stored.length > 0) nonEmpty++;
        if (JSON.stringify(stored) !== JSON.stringify(scanned)) differing++;
      }
    }
    t.equal(differing, 0, `${edition.key}: ${checked} queries (${nonEmpty} with matches) answered as the scan answers them`);
  }
  t.equal(ERA_CODE.curr, 0, "era codes as the masks above assume");
});
