// The bulk routes' exports (docs/exports.md), read back with libraries that did not write them:
// CSV with csv-parse, DuckDB and pandas (over HTTP, the key in a header); Parquet with hyparquet
// and DuckDB (written by hyparquet-writer); Arrow with apache-arrow (written by flechette). Every
// cell of every demo edition equals the JSON bulk's value for the same row. Then what a remote
// reader speaks: HEAD, Range (206, 416), ETag and 304; a wrong key is a 401 in every format.

import t from "tap";
import { execFile } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { register } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Test } from "tap";
import { importFiles } from "../../src/pipeline/import.js";
import type { EditionSource } from "../../src/model/player.js";
import type { Harness } from "../http/harness.js";
import { parse } from "csv-parse/sync";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { tableFromIPC } from "apache-arrow";
import { DuckDBInstance } from "@duckdb/node-api";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { heldBadges } from "../../src/model/badge-summary.js";
import { ATTRIBUTE_KEYS } from "../../src/model/attributes.js";
import { BADGES } from "../../src/model/badges.js";
import { HOT_ZONE_KEYS } from "../../src/model/player.js";

// Before the service is imported: the tests' TypeScript loader needs help to resolve hyparquet-writer's imports.
register(new URL("../fixtures/hyparquet-resolve.mjs", import.meta.url));
const { startHarness } = await import("../http/harness.js");
const editions = generateDemoEditions({ asOf: "2026-11-20" });
const h = await startHarness({ sources: editions });
t.teardown(() => h.close());

type Cell = string | number | null;
type Row = Record<string, any>;

/** `handles-for-days` → `HandlesForDays`. */
const pascal = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
const text = (value: unknown): Cell => (value === undefined || value === null ? null : String(value));
const COUNTS = { badgesTotal: "total", badgesLegendary: "legendary", badgesHallOfFame: "hallOfFame", badgesGold: "gold", badgesSilver: "silver", badgesBronze: "bronze" } as const;
const LEADING = ["_id", "name", "slug", "team", "teamType", "gameVersion", "overall", "positions", "height", "weight", "wingspan", "archetype", "college"];

/** What docs/exports.md says a column holds for a JSON bulk row, read from that row alone. */
function expectedCell(row: Row, column: string): Cell {
  if (column === "positions") return row.positions === undefined || row.positions.length === 0 ? null : row.positions.join("/");
  if (LEADING.includes(column)) return typeof row[column] === "number" ? row[column] : text(row[column]);
  if (column in COUNTS) return row.badges[COUNTS[column as keyof typeof COUNTS]] ?? null;
  if (column.startsWith("hotZone") && /^[A-Z]/.test(column.slice(7))) {
    const key = HOT_ZONE_KEYS.find((zone) => "hotZone" + pascal(zone) === column);
    if (key !== undefined) return text(row.hotZones?.[key]);
  }
  if (column.startsWith("badge") && /^[A-Z]/.test(column.slice(5))) {
    const held = heldBadges(row.badges.list ?? []).find((badge) => "badge" + pascal(badge.slug) === column);
    return held === undefined ? null : held.tier;
  }
  return row.attributes[column] ?? null;
}

const bytesOf = (path: string, headers: Record<string, string> = {}) => bytesOfOn(path, headers, h);
async function bytesOfOn(path: string, headers: Record<string, string> = {}, harness: Harness = h): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const response = await harness.get(path, headers);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

/** The first cell of `table` (rows of cells by column name) that differs from the JSON rows', or "". */
function firstMismatch(jsonRows: Row[], columns: string[], cellAt: (row: number, column: string) => Cell): string {
  for (let r = 0; r < jsonRows.length; r++) {
    for (const column of columns) {
      const expected = expectedCell(jsonRows[r]!, column);
      const actual = cellAt(r, column);
      if (actual !== expected) return `row ${r} (${jsonRows[r]!._id}) ${column}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
    }
  }
  return "";
}

const duck = await (await DuckDBInstance.create(":memory:")).connect();
const dir = mkdtempSync(join(tmpdir(), "courtside-exports-"));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** DuckDB's count and mean overall of a file. */
async function duckSummary(sql: string): Promise<{ count: number; mean: number }> {
  const rows = (await duck.runAndReadAll(sql)).getRows();
  return { count: Number(rows[0]![0]), mean: Number(rows[0]![1]) };
}

const mean = (rows: Row[]) => rows.reduce((sum, row) => sum + row.overall, 0) / rows.length;

/** Every edition: its curr rows by the versioned route, and the current edition's every era by /api/players/bulk. */
const EXPORTS = [
  ...editions.map((edition) => `/api/versions/${edition.gameVersion}/players/bulk`),
  "/api/players/bulk",
  "/api/versions/2K24/players/bulk?era=allt",
];

let firstHeader: string[] | undefined;
/** One bulk URL exported in the three formats, read back, every cell compared with the JSON bulk's. */
async function roundTrip(t: Test, harness: Harness, path: string): Promise<void> {
    const bytesOf = (url: string, headers: Record<string, string> = {}) => bytesOfOn(url, headers, harness);
    const json = await harness.json(path);
    t.equal(json.status, 200);
    const rows = json.body.data as Row[];
    t.ok(rows.length > 10, `${rows.length} rows`);
    const sep = path.includes("?") ? "&" : "?";

    const csv = await bytesOf(`${path}${sep}format=csv`);
    t.equal(csv.status, 200);
    t.match(csv.headers.get("content-type"), /^text\/csv; charset=utf-8/);
    t.equal(csv.headers.get("x-total-count"), String(json.body.meta.total));
    const [header, ...records] = parse(csv.body.toString("utf8"), { relax_quotes: false }) as string[][];
    const columns = header!;
    t.same(columns.slice(0, LEADING.length), LEADING, "the leading columns, in order");
    t.same(columns.slice(LEADING.length, LEADING.length + ATTRIBUTE_KEYS.length), ATTRIBUTE_KEYS, "the registry's attributes next, every edition alike");
    t.equal(records.length, rows.length);
    t.equal(firstMismatch(rows, columns, (r, column) => {
      const cell = records[r]![columns.indexOf(column)]!;
      const expected = expectedCell(rows[r]!, column);
      // CSV is text: a number is its decimal digits, an absent cell empty.
      return cell === "" && expected === null ? null : typeof expected === "number" ? Number(cell) : cell;
    }), "", "every CSV cell");
    firstHeader ??= columns;
    const common = LEADING.length + ATTRIBUTE_KEYS.length + 6 + BADGES.length;
    t.same(columns.slice(0, common), firstHeader.slice(0, common), "the same columns as the first edition's, up to its own extras");

    const parquet = await bytesOf(`${path}${sep}format=parquet`);
    t.equal(parquet.status, 200);
    t.equal(parquet.headers.get("content-type"), "application/vnd.apache.parquet");
    t.equal(parquet.headers.get("content-encoding"), null, "a Parquet file is compressed inside: never again");
    const file = parquet.body.buffer.slice(parquet.body.byteOffset, parquet.body.byteOffset + parquet.body.byteLength) as ArrayBuffer;
    const metadata = parquetMetadata(file);
    t.same(metadata.schema.slice(1).map((element) => element.name), columns, "the Parquet columns are the CSV's");
    t.equal(metadata.schema.find((element) => element.name === "overall")?.converted_type, "INT_16", "ratings are 16-bit integers");
    const objects = await parquetReadObjects({ file }) as Row[];
    t.equal(objects.length, rows.length);
    t.equal(firstMismatch(rows, columns, (r, column) => objects[r]![column] as Cell), "", "every Parquet cell (read by hyparquet)");

    const arrow = await bytesOf(`${path}${sep}format=arrow`, { "accept-encoding": "gzip" });
    t.equal(arrow.status, 200);
    t.equal(arrow.headers.get("content-type"), "application/vnd.apache.arrow.stream");
    const table = tableFromIPC(arrow.body);
    t.same(table.schema.fields.map((field) => field.name), columns, "the Arrow columns are the CSV's");
    t.equal(String(table.schema.fields.find((field) => field.name === "overall")?.type), "Int16");
    t.match(String(table.schema.fields.find((field) => field.name === "team")?.type), /^Dictionary<Int32, Utf8>/, "text columns of few values are dictionary-encoded");
    t.equal(table.numRows, rows.length);
    const vectors = new Map(columns.map((column) => [column, table.getChild(column)!]));
    t.equal(firstMismatch(rows, columns, (r, column) => (vectors.get(column)!.get(r) ?? null) as Cell), "", "every Arrow cell (read by apache-arrow)");

    const name = path.replace(/\W+/g, "-");
    writeFileSync(join(dir, `${name}.parquet`), parquet.body);
    writeFileSync(join(dir, `${name}.csv`), csv.body);
    const expected = { count: rows.length, mean: mean(rows) };
    const fromParquet = await duckSummary(`SELECT count(*), avg(overall) FROM read_parquet('${join(dir, `${name}.parquet`)}')`);
    const fromCsv = await duckSummary(`SELECT count(*), avg(overall) FROM read_csv('${join(dir, `${name}.csv`)}')`);
    t.equal(fromParquet.count, expected.count, "DuckDB counts the Parquet file's rows");
    t.ok(Math.abs(fromParquet.mean - expected.mean) < 1e-9, `DuckDB's avg(overall) over Parquet ${fromParquet.mean} = ${expected.mean}`);
    t.equal(fromCsv.count, expected.count, "DuckDB counts the CSV's rows");
    t.ok(Math.abs(fromCsv.mean - expected.mean) < 1e-9, `DuckDB's avg(overall) over CSV ${fromCsv.mean} = ${expected.mean}`);
}

for (const path of EXPORTS) {
  t.test(`${path}: CSV, Parquet and Arrow hold the JSON bulk's rows, cell for cell`, (t) => roundTrip(t, h, path));
}

// The real samples (docs/data.md): 2K26 from the two CSV scrapes (badge lists, hot zones, measures
// as scraped), 2K25 from the hosted API's JSON (counts and top badges only).
const real = (file: string) => fileURLToPath(new URL(`../../../shared/realdata/${file}`, import.meta.url));
const hasReal = existsSync(real("2k26-curr.csv"));
t.test("the real 2K26 and 2K25 samples: every cell of every format", { skip: hasReal ? false : "../shared/realdata is not here" }, async (t) => {
  const capturedAt = "2025-08-01T00:00:00.000Z";
  const current: EditionSource = { gameVersion: "2K26", status: "current", capturedAt, source: "2kratings scrape", players: importFiles([real("2k26-curr.csv"), real("2k26-allt.csv")], { capturedAt }), history: [] };
  const archived: EditionSource = { gameVersion: "2K25", status: "archived", capturedAt, source: "api export", players: importFiles([real("2k26-api-export-sample.json")], { capturedAt }), history: [] };
  const realHarness = await startHarness({ sources: [current, archived] });
  t.teardown(() => realHarness.close());
  for (const path of ["/api/players/bulk", "/api/versions/2K25/players/bulk?era=allt"]) await t.test(path, (t) => roundTrip(t, realHarness, path));
});

t.test("docs/exports.md lists the columns in the order the files hold them", async (t) => {
  const doc = readFileSync(new URL("../../docs/exports.md", import.meta.url), "utf8");
  const list = doc.slice(doc.indexOf("The names, in order"), doc.indexOf("A badge column is"));
  const documented = [...list.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((name) => name !== "test/export/exports.test.ts");
  t.equal(documented.length, LEADING.length + ATTRIBUTE_KEYS.length + 6 + BADGES.length + HOT_ZONE_KEYS.length);
  for (const path of ["/api/players/bulk?format=csv", "/api/versions/2K20/players/bulk?format=csv"]) {
    const csv = await bytesOf(path);
    const header = csv.body.subarray(0, csv.body.indexOf("\r\n")).toString("utf8").split(",");
    t.same(header.slice(0, documented.length), documented, `${path}: the documented columns first, in order`);
  }
});

t.test("a filtered export: the JSON's rows (at most 10,000), X-Total-Count, and Accept chooses the format", async (t) => {
  const path = "/api/players/bulk?position=PG&minRating=70";
  const json = await h.json(path);
  const rows = json.body.data as Row[];
  t.ok(rows.length > 0 && rows.length < 1000, `${rows.length} rows`);
  const csv = await bytesOf(path, { accept: "text/csv" });
  t.match(csv.headers.get("content-type"), /^text\/csv/);
  t.match(csv.headers.get("vary"), /Accept\b/);
  const [header, ...records] = parse(csv.body.toString("utf8")) as string[][];
  t.same(records.map((record) => record[header!.indexOf("_id")]), rows.map((row) => row._id), "the same rows in the same order");
  t.equal(csv.headers.get("x-total-count"), String(json.body.meta.total));
  const parquet = await bytesOf(path, { accept: "application/vnd.apache.parquet;q=0.9, text/csv;q=0.5" });
  t.equal(parquet.headers.get("content-type"), "application/vnd.apache.parquet", "the type Accept prefers");
  const arrow = await bytesOf(path, { accept: "application/vnd.apache.arrow.stream" });
  t.equal(tableFromIPC(arrow.body).numRows, rows.length);
  const forced = await bytesOf(`${path}&format=csv`, { accept: "application/vnd.apache.parquet" });
  t.match(forced.headers.get("content-type"), /^text\/csv/, "format= wins over Accept");
  const browser = await h.json(path, { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" });
  t.equal(browser.body.success, true, "an Accept naming none of ours gets JSON");
  const again = await h.json(path);
  t.same(again.body.data.length, rows.length, "and JSON stays the default after an export of the same URL");
  const bad = await h.json(`${path}&format=xlsx`);
  t.equal(bad.status, 400);
  t.equal(bad.body.error.code, "INVALID_PARAMETER");
  const fields = await h.json(`${path}&format=csv&fields=name`);
  t.equal(fields.status, 400, "fields= selects JSON fields: an export carries every column");
});

t.test("a wrong or missing key gets 401 in every format", async (t) => {
  for (const query of ["format=csv", "format=parquet", "format=arrow", ""]) {
    for (const key of ["wrong-key", ""]) {
      const response = await fetch(`${h.base}/api/players/bulk?${query}`, { headers: { "x-api-key": key, accept: "text/csv" } });
      t.equal(response.status, 401, `${query || "Accept: text/csv"} with ${key || "no key"}`);
      const body = await response.json() as { error: { code: string } };
      t.match(body.error.code, /API_KEY/);
    }
  }
});

t.test("HEAD, Range and 416: what DuckDB's httpfs reads a remote file by", async (t) => {
  const path = "/api/versions/2K27/players/bulk?format=parquet";
  const whole = await bytesOf(path);
  const length = whole.body.length;
  t.equal(whole.headers.get("accept-ranges"), "bytes");
  const head = await fetch(h.base + path, { method: "HEAD", headers: { "x-api-key": h.key } });
  t.equal(head.status, 200);
  t.equal(head.headers.get("content-length"), String(length), "HEAD declares the GET's length");
  t.equal(head.headers.get("accept-ranges"), "bytes");
  t.equal(head.headers.get("etag"), whole.headers.get("etag"));
  t.equal((await head.arrayBuffer()).byteLength, 0);

  const part = await bytesOf(path, { range: "bytes=0-3" });
  t.equal(part.status, 206);
  t.equal(part.headers.get("content-range"), `bytes 0-3/${length}`);
  t.equal(part.body.toString("latin1"), "PAR1");
  const tail = await bytesOf(path, { range: "bytes=-8" });
  t.equal(tail.status, 206);
  t.same(tail.body, whole.body.subarray(length - 8), "a suffix range: the footer length and PAR1");
  // A file read back in pieces, as a remote reader does, is the file.
  const pieces: Buffer[] = [];
  for (let first = 0; first < length; first += 65_536) {
    const piece = await bytesOf(path, { range: `bytes=${first}-${Math.min(length, first + 65_536) - 1}`, "accept-encoding": "gzip, br" });
    t.equal(piece.status, 206);
    t.equal(piece.headers.get("content-encoding"), null, "a range is of the identity body");
    pieces.push(piece.body);
  }
  t.ok(Buffer.concat(pieces).equals(whole.body), "the pieces make the whole file");
  const beyond = await bytesOf(path, { range: `bytes=${length}-` });
  t.equal(beyond.status, 416);
  t.equal(beyond.headers.get("content-range"), `bytes */${length}`);
  const clipped = await bytesOf(path, { range: `bytes=${length - 2}-${length + 100}` });
  t.equal(clipped.status, 206, "a range running past the end is cut at the end");
  t.equal(clipped.body.length, 2);
  const several = await bytesOf(path, { range: "bytes=0-1,4-5" });
  t.equal(several.status, 200, "several ranges: the whole body");
  t.equal(several.body.length, length);
  // RFC 9110 §14.2: range handling is defined for GET only; a HEAD with Range is the whole body's HEAD.
  const headRange = await fetch(h.base + path, { method: "HEAD", headers: { "x-api-key": h.key, range: "bytes=0-99" } });
  t.equal(headRange.status, 200, "HEAD ignores Range");
  t.equal(headRange.headers.get("content-length"), String(length), "and declares the whole body's length");
  t.equal(headRange.headers.get("content-range"), null);
  // A Range over RANGE_HEADER_MAX_LENGTH characters is not read: the whole body (issue 40's backtracking shape).
  const hostile = await bytesOf(path, { range: `bytes=${" ".repeat(200)}-${" ".repeat(4000)}x` });
  t.equal(hostile.status, 200, "an over-long Range: the whole body");
  t.equal(hostile.body.length, length);
  const padded = await bytesOf(path, { range: `bytes =${" ".repeat(200)}0 - 3` });
  t.equal(padded.status, 206, "whitespace within the bound is still read");
  const csvRange = await bytesOf("/api/players/bulk?format=csv", { range: "bytes=0-2" });
  t.equal(csvRange.body.toString(), "_id", "CSV answers ranges too");
  const jsonRange = await bytesOf("/api/players/bulk", { range: "bytes=0-2" });
  t.equal(jsonRange.status, 200, "the JSON bulk ignores Range");
});

t.test("ETag and 304 as the JSON bulk's; formats never share an ETag", async (t) => {
  const tags = new Set<string>();
  for (const format of ["csv", "parquet", "arrow"]) {
    for (const path of [`/api/players/bulk?format=${format}`, `/api/players/bulk?format=${format}&position=C`]) {
      const first = await bytesOf(path);
      const etag = first.headers.get("etag")!;
      t.match(etag, /^W\/"/);
      tags.add(etag);
      const second = await bytesOf(path, { "if-none-match": etag });
      t.equal(second.status, 304, `${path}: 304`);
      t.equal(second.body.length, 0);
    }
  }
  tags.add((await bytesOf("/api/players/bulk")).headers.get("etag")!);
  t.equal(tags.size, 7, "JSON and every format and filter: each its own ETag");
  const cached = await bytesOf("/api/players/bulk?format=csv");
  const repeat = await bytesOf("/api/players/bulk?format=csv");
  t.ok(cached.body.equals(repeat.body), "the whole edition is the same bytes each time (encoded once)");
});

/** Debian's python3 with python3-pandas (another python3 first on PATH may lack it). */
function pythonWithPandas(): string | undefined {
  for (const python of ["/usr/bin/python3", "python3"]) {
    try {
      execFileSync(python, ["-c", "import pandas"], { stdio: "ignore" });
      return python;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const python = pythonWithPandas();
t.test("pandas reads the CSV over HTTP with the key in a header", {
  skip: python === undefined ? "python3-pandas is missing: install Debian's python3-pandas (bash .ci/install-debian 'python3-pandas:/usr/bin/python3 -c \"import pandas\"')" : false,
}, async (t) => {
  if (python === undefined) return;
  const json = await h.json("/api/players/bulk");
  const rows = json.body.data as Row[];
  const script = [
    "import json, sys, pandas as pd",
    "df = pd.read_csv(sys.argv[1], storage_options={'X-API-Key': sys.argv[2]})",
    "print(json.dumps({'count': int(len(df)), 'mean': float(df['overall'].mean()), 'first': df['_id'].iloc[0], 'columns': list(df.columns)[:8]}))",
  ].join("\n");
  const { stdout } = await promisify(execFile)(python, ["-c", script, `${h.base}/api/players/bulk?format=csv`, h.key]);
  const read = JSON.parse(stdout) as { count: number; mean: number; first: string; columns: string[] };
  t.equal(read.count, rows.length, "pandas counts the JSON bulk's rows");
  t.ok(Math.abs(read.mean - mean(rows)) < 1e-9, `pandas' mean overall ${read.mean} = ${mean(rows)}`);
  t.equal(read.first, rows[0]!._id);
  t.same(read.columns, LEADING.slice(0, 8));
  const refused = await promisify(execFile)(python, ["-c", script, `${h.base}/api/players/bulk?format=csv`, "wrong-key"]).then(() => "read", (error: { stderr: string }) => error.stderr);
  t.match(refused, /401/, "with a wrong key pandas gets the 401");
});

