// The badges and zones compare writes, as the snapshot stores them (store/compare-tables.ts,
// `payload.compareTables`): built from records of the shapes real lists have (a badge named twice,
// a tier spelled by meaning, a tier that names none, a badge the catalogue lacks, zones with odd
// values or none), read back per row exactly; a file whose tables point past their strings or
// rows is refused at load, never read by a request.
import t from "tap";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { buildCompareTables, isCompareTablesShape, type CompareSource } from "../../src/store/compare-tables.js";
import { decodeSnapshot, encodeSnapshot } from "../../src/store/snapshot.js";
import { stringAt } from "../../src/store/string-table.js";

const catalogueBadges = [{ name: "Deadeye", slug: "deadeye", category: "Outside Scoring", description: "" }];
const records = [
  {
    badges: { list: [
      { name: "Deadeye", slug: "deadeye", tier: "gold" },
      { name: "Deadeye", slug: "Deadeye", tier: "Gold", category: "Shooting" },
      { name: "Brick Wall", slug: "brick-wall", tier: "HOF" },
      { name: "Ghost", slug: "ghost", tier: "Platinum-ish" },
    ] },
    hotZones: { leftCorner: "hot", topKey: 3, rightCorner: null },
  },
  { badges: {}, hotZones: undefined },
  { badges: { list: [{ name: "Deadeye", slug: "deadeye", tier: "Gold" }] }, hotZones: { topKey: "cold" } },
];
const source: CompareSource = {
  rowCount: records.length,
  catalogue: { badges: catalogueBadges, badgeOf: (slug: string) => (slug.toLowerCase() === "deadeye" ? 0 : undefined) },
  record: (row) => records[row] as never,
};

t.test("each row's held badges and zones, read back from the stored tables", async (t) => {
  const tables = buildCompareTables(source);
  t.ok(isCompareTablesShape(tables, records.length), "the shape a load accepts");
  const held = (row: number) => Array.from(tables.rowBadges.subarray(tables.badgeStart[row], tables.badgeStart[row + 1]), (entry) => ({
    key: stringAt(tables.badgeKey, entry), head: stringAt(tables.badgeHead, entry), tier: tables.badgeTier[entry],
  }));
  t.same(held(0), [
    { key: "deadeye", head: '{"name":"Deadeye","slug":"deadeye","category":"Outside Scoring"', tier: 2 },
    { key: "brick-wall", head: '{"name":"Brick Wall","slug":"brick-wall"', tier: 3 },
  ], "a badge named twice counts once (its first entry), a tier by meaning, one that names none holds nothing");
  t.same(held(1), [], "no list: nothing held");
  t.same(tables.rowBadges[tables.badgeStart[2] as number], tables.rowBadges[0], "the same badge at the same tier is one entry for every row holding it");
  const zones = (row: number) => Array.from(tables.zoneKey.subarray(tables.zoneStart[row], tables.zoneStart[row + 1]), (key, i) => [
    stringAt(tables.zoneKeys, key), stringAt(tables.zoneValues, tables.zoneValue[(tables.zoneStart[row] as number) + i] as number),
  ]);
  t.same(zones(0), [["leftCorner", '"hot"'], ["topKey", "3"], ["rightCorner", "null"]], "zones in the record's order, each value as the source gave it (as JSON)");
  t.same(zones(1), [], "no zones");
  t.same(zones(2), [["topKey", '"cold"']]);
});

t.test("tables that point past their strings or rows are refused at load", async (t) => {
  // The current demo edition: badge lists and zones (older ones keep counts only).
  const payload = buildSnapshotPayload(generateDemoEditions({ asOf: "2026-11-20" }).at(-1)!);
  const tables = payload.compareTables!;
  t.ok(isCompareTablesShape(tables, payload.meta.playerCount), "a demo edition's tables fit it");
  t.ok(tables.rowBadges.length > 0 && tables.zoneKey.length > 0, "it holds badges and zones");
  const broken = [
    { ...tables, rowBadges: Uint32Array.from(tables.rowBadges, (entry, i) => (i === 0 ? 1_000_000 : entry)) },
    { ...tables, zoneValue: Uint32Array.from(tables.zoneValue, (value, i) => (i === 0 ? 1_000_000 : value)) },
    { ...tables, badgeStart: tables.badgeStart.subarray(1) },
    { ...tables, zoneStart: Uint32Array.from(tables.zoneStart, (start, i) => (i === 1 ? (tables.zoneStart.at(-1) as number) + 1 : start)) },
    { ...tables, badgeTier: new Uint8Array(tables.badgeTier.length).fill(9) },
  ];
  for (const [i, compareTables] of broken.entries()) {
    t.throws(() => decodeSnapshot("2K27.msgpack", encodeSnapshot({ ...payload, compareTables })), /counts disagree/, `broken table ${i + 1}: refused`);
  }
});
