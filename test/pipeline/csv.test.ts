import { readFileSync } from "node:fs";
import t from "tap";
import { parseCsv, type CsvRow } from "../../src/pipeline/csv.js";
import { ImportError } from "../../src/pipeline/import-error.js";

const rows = (text: string): CsvRow[] => [...parseCsv("test.csv", text)];
const realFile = (name: string): string => readFileSync(new URL(`../../../shared/realdata/${name}`, import.meta.url), "utf8");

t.test("plain cells split on commas, rows on LF", async (t) => {
  t.same(rows("a,b,c\n1,2,3\n"), [
    { line: 1, cells: ["a", "b", "c"] },
    { line: 2, cells: ["1", "2", "3"] },
  ]);
});

t.test("CRLF and a missing final line end read the same as LF", async (t) => {
  t.same(rows("a,b\r\n1,2\r\n3,4"), [
    { line: 1, cells: ["a", "b"] },
    { line: 2, cells: ["1", "2"] },
    { line: 3, cells: ["3", "4"] },
  ]);
});

t.test("quoted cells keep commas and doubled quotes", async (t) => {
  t.same(rows('h,w\n"6\'8""","San Jose, California"\n')[1]?.cells, ["6'8\"", "San Jose, California"]);
});

t.test("empty cells stay empty strings, including a trailing one", async (t) => {
  t.same(rows("a,b,c\n,,\n1,,")[1]?.cells, ["", "", ""]);
  t.same(rows("a,b,c\n,,\n1,,")[2]?.cells, ["1", "", ""]);
});

t.test("a line break inside quotes stays in the cell and the next row gets its true line", async (t) => {
  const parsed = rows('name,bio\n"A","first\r\nsecond\nthird"\nB,x\n');
  t.same(parsed[1], { line: 2, cells: ["A", "first\r\nsecond\nthird"] });
  t.same(parsed[2], { line: 5, cells: ["B", "x"] });
});

t.test("a byte-order mark is not part of the first header name", async (t) => {
  t.same(rows("\uFEFFname,team\n")[0]?.cells, ["name", "team"]);
});

t.test("a quote that does not open a cell is kept as text", async (t) => {
  t.same(rows("h\n6'8\"\n")[1]?.cells, ["6'8\""]);
});

t.test("a quoted cell that never closes is an ImportError at the line where it opened, naming the column", async (t) => {
  const error = t.throws(() => rows('name,height,team\nA,"6\'8""",Bulls\nB,"6\'9\nC,x,y\n')) as ImportError;
  t.type(error, ImportError);
  t.equal(error.file, "test.csv");
  t.equal(error.line, 3);
  t.equal(error.field, "height");
  t.match(error.reason, /never closes.*truncated/);
});

t.test("text after a closing quote is an ImportError", async (t) => {
  const error = t.throws(() => rows('a,b\n"x"y,z\n')) as ImportError;
  t.type(error, ImportError);
  t.equal(error.line, 2);
  t.equal(error.field, "a");
  t.match(error.reason, /after a closing quote/);
});

t.test("the real scrape files have one header and one row per player, all of the header's width", async (t) => {
  for (const [name, players, width] of [["2k26-curr.csv", 457, 105], ["2k26-allt.csv", 461, 106]] as const) {
    const parsed = [...parseCsv(name, realFile(name))];
    t.equal(parsed.length, players + 1, name);
    t.ok(parsed.every((row) => row.cells.length === width), `${name} rows are ${width} wide`);
    t.equal(parsed.at(-1)?.line, players + 1, `${name} last row line`);
  }
});
