// The percentile tables build-index stores (store/percentiles.ts, `payload.percentiles`): for every
// demo edition and cohort kind, every stored run equals the cohort's values gathered from the
// full records and sorted naively (sizes, means, group scores and primary positions too); and a
// file written before the derived tables existed (no `percentiles`, `profileTables`, `profileIndex`, `neighbours` or `compareTables`) is
// answered byte for byte as the file with them, loaded alone or the way the server loads it
// (the supervisor derives them once, into shared memory, and workers view its payload).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { ABSENT_RATING } from "../../src/model/attributes.js";
import { ERA_CODE } from "../../src/model/eras.js";
import { POSITIONS, knownPositions } from "../../src/model/positions.js";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import type { IncomingRequest, Outgoing } from "../../src/http/dispatch.js";
import { attributeGroupsOf } from "../../src/store/attribute-profile.js";
import { Edition } from "../../src/store/edition.js";
import { EditionSet, editionSetOfShared, loadEditionSet, loadSnapshotSet, sharedSnapshotsOf } from "../../src/store/editions.js";
import { COHORT_KINDS, type CohortKind, type StoredCohortKind, type StoredPercentiles } from "../../src/store/percentiles.js";
import { decodeSnapshot, encodeSnapshot, writeSnapshotAtomic, type SnapshotPayload } from "../../src/store/snapshot.js";
import { dispatcherOf } from "../fixtures/dispatcher.js";

const NONE = 255;
const built: SnapshotPayload[] = generateDemoEditions({ asOf: "2026-11-20" }).map((source) => buildSnapshotPayload(source));

/** Float arrays equal bit for bit (NaN where NaN). */
function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a.length === b.length && Array.from(a).every((value, i) => Object.is(value, b[i]));
}

/** What each row is in the naive reading: its primary position (first entry naming a position), era, values per metric. */
/** Every typed array under `value`, by its path. */
function typedArraysOf(value: unknown, path = "", found = new Map<string, ArrayLike<number> & ArrayBufferView>()): Map<string, ArrayLike<number> & ArrayBufferView> {
  if (ArrayBuffer.isView(value)) found.set(path, value as unknown as ArrayLike<number> & ArrayBufferView);
  else if (value !== null && typeof value === "object") for (const [key, inner] of Object.entries(value)) typedArraysOf(inner, `${path}.${key}`, found);
  return found;
}

function naiveRows(edition: Edition) {
  const keys = edition.catalogue.attributeKeys;
  const groups = attributeGroupsOf(edition).map(({ columns }) => columns.map((column) => keys[column] as string));
  return Array.from({ length: edition.rowCount }, (_, row) => {
    const record = edition.record(row);
    const attributes = record.attributes as Record<string, number | undefined>;
    const first = knownPositions(record.positions)[0];
    const scores = groups.map((members) => {
      const held = members.map((key) => attributes[key]).filter((value): value is number => value !== undefined);
      return held.length === 0 ? undefined : held.reduce((a, b) => a + b, 0) / held.length;
    });
    return {
      primary: first === undefined ? NONE : POSITIONS.indexOf(first),
      era: ERA_CODE[record.teamType],
      /** Attribute columns, then overall. */
      ratings: [...keys.map((key) => attributes[key]), record.overall],
      scores,
    };
  });
}

type NaiveRow = ReturnType<typeof naiveRows>[number];

function naiveCohort(kind: CohortKind, row: NaiveRow): number {
  if (kind === "all") return 0;
  if (kind === "era") return row.era;
  return row.primary === NONE ? NONE : row.era * POSITIONS.length + row.primary;
}

/** The labels of every part of the stored tables that differs from the naive computation. */
function mismatchesOf(edition: Edition, tables: StoredPercentiles): string[] {
  const rows = naiveRows(edition);
  const wrong: string[] = [];
  if (!sameBits(tables.primaryPosition, rows.map((row) => row.primary))) wrong.push("primary positions");
  const ratingMetrics = edition.catalogue.attributeKeys.length + 1;
  const groupCount = attributeGroupsOf(edition).length;
  for (const kind of COHORT_KINDS) {
    const stored: StoredCohortKind = tables[kind];
    const C = stored.cohortCount;
    const cohortOfRow = rows.map((row) => naiveCohort(kind, row));
    if (!sameBits(stored.cohortOfRow, cohortOfRow)) wrong.push(`${kind}: each row's cohort`);
    for (let c = 0; c < C; c++) {
      const members = rows.filter((_, row) => cohortOfRow[row] === c);
      if (stored.cohortSize[c] !== members.length) wrong.push(`${kind} ${c}: size`);
      const check = (metric: string, values: number[], run: ArrayLike<number>, mean: number) => {
        values.sort((a, b) => a - b);
        // Summed ascending, as the run is: the mean of fractions is then bit-equal.
        const naiveMean = values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
        if (!sameBits(run, values)) wrong.push(`${kind} ${c} ${metric}: run`);
        if (!Object.is(mean, naiveMean)) wrong.push(`${kind} ${c} ${metric}: mean`);
      };
      for (let m = 0; m < ratingMetrics; m++) {
        const values = members.map((row) => row.ratings[m]).filter((value): value is number => value !== undefined && value !== ABSENT_RATING);
        const base = m * (C + 1) + c;
        check(`rating ${m}`, values, stored.ratings.subarray(stored.ratingStart[base], stored.ratingStart[base + 1]), stored.ratingMean[m * C + c] as number);
      }
      for (let g = 0; g < groupCount; g++) {
        const values = members.map((row) => row.scores[g]).filter((value): value is number => value !== undefined);
        const base = g * (C + 1) + c;
        check(`group ${g}`, values, stored.scores.subarray(stored.scoreStart[base], stored.scoreStart[base + 1]), stored.scoreMean[g * C + c] as number);
      }
    }
  }
  return wrong;
}

t.test("every demo edition, every cohort kind: the stored runs equal a naive computation from the records", async (t) => {
  for (const payload of built) {
    // As a server reads them: through the file's encoding.
    const read = decodeSnapshot(`${payload.meta.gameVersion}.msgpack`, encodeSnapshot(payload));
    t.ok(read.percentiles, `${payload.meta.gameVersion}: the file holds the percentile tables`);
    const edition = new Edition(read, payload.meta.gameVersion);
    t.equal(edition.payload.percentiles, read.percentiles, `${edition.key}: the file's tables are the ones read (not rebuilt)`);
    t.same(mismatchesOf(edition, edition.payload.percentiles), [], `${edition.key} (${edition.rowCount} rows): runs, sizes, means, cohorts and primary positions of ${COHORT_KINDS.join(", ")}`);
  }
});

t.test("the naive check tells a wrong table apart", async (t) => {
  const payload = built[built.length - 1] as SnapshotPayload;
  const edition = new Edition(payload, "altered");
  const { position } = payload.percentiles as StoredPercentiles;
  // Two different values of one run swapped: the run is no longer sorted.
  let at = 0;
  while (position.ratings[at] === position.ratings[at + 1]) at++;
  const ratings = Uint8Array.from(position.ratings);
  [ratings[at], ratings[at + 1]] = [ratings[at + 1] as number, ratings[at] as number];
  const altered = { ...(payload.percentiles as StoredPercentiles), position: { ...position, ratings } };
  t.ok(mismatchesOf(edition, altered).length > 0, "a swapped pair shows");
});

/** Status and body bytes of a GET (the body copied: it may be the dispatcher's scratch). */
function answer(dispatcher: ReturnType<typeof dispatcherOf>, url: string): string {
  const at = url.indexOf("?");
  const request: IncomingRequest = {
    method: "GET", url: at < 0 ? url : url.slice(0, at), rawQuery: at < 0 ? "" : url.slice(at + 1), apiKey: "test", ifNoneMatch: "",
    acceptEncoding: "", contentType: "", origin: "", address: () => "127.0.0.1", body: undefined, isBodyTooLarge: false,
  };
  const outgoing = dispatcher.dispatch(request) as Outgoing;
  return `${outgoing.status} ${(outgoing.body as Buffer).toString("utf8")}`;
}

/** Every percentile URL of every edition (every row, every kind), every team profile, and `similar` and `compare` on a sample. */
function urlsOf(editions: EditionSet): string[] {
  const urls: string[] = [];
  for (const edition of editions.ordered) {
    const prefix = `/api/versions/${edition.key}`;
    for (let row = 0; row < edition.rowCount; row++) {
      const id = edition.record(row)._id;
      for (const kind of COHORT_KINDS) urls.push(`${prefix}/players/${id}/percentiles?cohort=${kind}`);
      if (row % 50 === 0) urls.push(`${prefix}/players/${id}/similar`, `${prefix}/players/${id}/similar?position=guard&limit=50`, `${prefix}/players/${id}/similar?era=all`, `${prefix}/players/compare?ids=${id},${edition.record((row + 7) % edition.rowCount)._id}`);
    }
    for (const team of edition.teams) urls.push(`${prefix}/teams/${encodeURIComponent(team.slug)}/profile?teamType=${team.teamType}`);
  }
  return urls;
}

t.test("a file written before the derived tables answers the same bytes, loaded alone or as the server loads it", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "courtside-derived-"));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const [withTables, older] = [join(root, "with"), join(root, "older")];
  mkdirSync(withTables);
  mkdirSync(older);
  for (const payload of built) {
    const { profileTables: _tables, percentiles: _percentiles, profileIndex: _index, neighbours: _neighbours, compareTables: _compare, ...before } = payload;
    writeSnapshotAtomic(join(withTables, `${payload.meta.gameVersion}.msgpack`), payload);
    writeSnapshotAtomic(join(older, `${payload.meta.gameVersion}.msgpack`), before);
  }
  const stored = loadEditionSet(withTables);
  const alone = loadEditionSet(older);
  // The server: the supervisor loads and checks the files (deriving what an older one lacks), each worker views its payload.
  const supervisor = loadSnapshotSet(older);
  const worker = editionSetOfShared(structuredClone(sharedSnapshotsOf(supervisor)));

  for (const snapshot of supervisor.ordered) {
    const { percentiles, profileTables, profileIndex, neighbours, compareTables } = snapshot.payload;
    const derived = typedArraysOf({ percentiles, profileTables, profileIndex, neighbours, compareTables });
    t.ok(derived.size > 20 && [...derived.values()].every((array) => array.buffer instanceof SharedArrayBuffer), `${snapshot.key}: the supervisor derived the tables once, in shared memory (a worker views them)`);
    const fromFile = stored.byKey.get(snapshot.key) as Edition;
    const file = typedArraysOf({
      percentiles: fromFile.payload.percentiles, profileTables: fromFile.payload.profileTables, profileIndex: fromFile.payload.profileIndex,
      neighbours: fromFile.payload.neighbours, compareTables: fromFile.payload.compareTables,
    });
    const differing = [...file].filter(([path, array]) => !sameBits(array, derived.get(path) ?? []) || array.constructor !== derived.get(path)?.constructor).map(([path]) => path);
    t.same(differing, [], `${snapshot.key}: all ${file.size} derived arrays equal the stored ones bit for bit`);
  }

  const urls = urlsOf(stored);
  const [reference, fromAlone, fromWorker] = [stored, alone, worker].map((editions) => {
    const dispatcher = dispatcherOf(editions);
    return urls.map((url) => answer(dispatcher, url));
  }) as [string[], string[], string[]];
  t.ok(reference.every((text) => text.startsWith("200 ")), `every one of the ${urls.length} URLs answers 200`);
  t.equal(fromAlone.filter((text, i) => text !== reference[i]).length, 0, `older files loaded by one thread: all ${urls.length} answers byte-equal`);
  t.equal(fromWorker.filter((text, i) => text !== reference[i]).length, 0, `older files through the supervisor and a worker: all ${urls.length} answers byte-equal`);
});
