import t from "tap";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runBuildIndex } from "../../src/pipeline/build-index-cli.js";
import { loadEdition } from "../../src/store/derived-tables.js";
import { readSnapshot } from "../../src/store/snapshot.js";
import { recordsOf } from "../fixtures/records.js";

const real = (name: string) => new URL(`../../../shared/realdata/${name}`, import.meta.url).pathname;
const CURRENT = real("2k26-curr.csv");
const ALL_TIME = real("2k26-allt.csv");
const SAMPLE = real("2k26-api-export-sample.json");

function quietIo() {
  const lines: string[] = [];
  return { io: { env: {}, stderr: { write: (text: string) => lines.push(text), isTTY: false } as unknown as NodeJS.WriteStream }, lines };
}

/** An independent reading of the CSV (regex split, header-keyed) to compare the store against. */
function csvRows(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(file, "utf8").split(/\r?\n/).filter((line) => line.length > 0);
  // Every field follows a comma once one is prepended, so no match is ever empty at the start.
  const split = (line: string) => [...`,${line}`.matchAll(/,("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1]!.replace(/^"|"$/g, "").replace(/""/g, '"'));
  const names = split(header!);
  return lines.map((line) => Object.fromEntries(split(line).map((value, i) => [names[i], value])));
}

t.test("build-index builds an edition from the real CSV scrapes and the store answers with the CSV's own values", async (t) => {
  const out = t.testdir({});
  const { io } = quietIo();
  t.equal(runBuildIndex(["--edition", "2k26", "--status", "current", "--input", CURRENT, "--input", ALL_TIME, "--out", out, "--as-of", "2025-09-01"], io), 0);
  const edition = loadEdition(join(out, "2K26.msgpack"));
  t.equal(edition.rowCount, 457 + 461);
  t.equal(edition.payload.meta.teamTypeCounts.curr, 457);
  t.equal(edition.payload.meta.teamTypeCounts.allt, 461);
  const bySlug = (slug: string) => recordsOf(edition)[edition.rowsBySlug.get(slug)![0]!]!;

  const fox = bySlug("deaaron-fox");
  t.equal(fox.name, "De’Aaron Fox", "the curly apostrophe is kept");
  t.equal(fox.team, "San Antonio Spurs");
  t.same(fox.positions, ["PG"]);
  t.equal(fox.height, `6'3"`);
  t.equal(fox.weight, "185 lbs");
  t.equal(fox.wingspan, `6'7"`);
  t.equal(fox.overall, 85);
  t.equal(fox.attributes.threePointShot, 73);
  t.equal(fox.attributes.drivingLayup, 97);
  t.equal(fox.attributes.durability, 80);
  t.equal(fox.attributes.defending, 68, "group scores as scraped");
  t.equal(fox.college, "Kentucky");
  t.equal(fox.archetype, "2-Way Inside-The-Arc Playmaker");

  const rookie = bySlug("jeremiah-fears");
  t.equal(rookie.overall, 73, "a rookie keeps his overall");
  t.equal(rookie.attributes.threePointShot, undefined, "and lacks the ratings the scrape left empty");
  t.equal(rookie.wingspan, undefined);
  t.equal(rookie.archetype, undefined);
  t.same(rookie.positions, ["PG", "SG"]);

  const russell = bySlug("bill-russell-all-time-boston-celtics");
  t.equal(russell.teamType, "allt");
  t.equal(russell.overall, 98);
  t.equal(russell.attributes.agility, undefined, "a row without agility");
  t.equal(russell.attributes.defending, 91);
  t.same(russell.positions, ["C", "PF"]);

  // Forty rows of each file, field by field against the independent reading.
  for (const [file, era] of [[CURRENT, "curr"], [ALL_TIME, "allt"]] as const) {
    const rows = csvRows(file);
    t.equal(rows.length, era === "curr" ? 457 : 461);
    for (const row of rows.filter((_, i) => i % 12 === 0)) {
      const name = row.name!.replace(/\s+/g, " ").trim();
      const player = recordsOf(edition).find((p) => p.teamType === era && p.name === name && p.team === row.team);
      if (!player) { t.fail(`${name} of ${row.team} is missing`); continue; }
      t.equal(player.overall, Number(row.overall), `${name} overall`);
      const expect = (value: string | undefined) => (value === undefined || value === "" ? undefined : Number(value));
      t.equal(player.attributes.threePointShot, expect(row.three_point_shot), `${name} three`);
      t.equal(player.attributes.drivingLayup, expect(row.layup), `${name} layup`);
      t.equal(player.attributes.durability, expect(row.overall_durability), `${name} durability`);
      t.equal(player.attributes.rebounding, expect(row.group_rebounding), `${name} rebounding group`);
      t.equal(player.height, row.height_feet || undefined, `${name} height`);
      const tiers = Object.entries(row).filter(([key, value]) => key.startsWith("badge_") && value !== "").length;
      t.equal(player.badges.total, tiers, `${name} badge count`);
    }
  }
  const snapshot = readSnapshot(join(out, "2K26.msgpack")).payload;
  t.same(snapshot.history?.weeks.map((week) => week.date), ["2025-09-01"], "the current edition starts its weekly history");
});

t.test("build-index builds an edition from the API-shaped JSON sample", async (t) => {
  const out = t.testdir({});
  const { io } = quietIo();
  t.equal(runBuildIndex(["--edition", "2K26", "--status", "archived", "--input", SAMPLE, "--out", out], io), 0);
  const edition = loadEdition(join(out, "2K26.msgpack"));
  t.equal(edition.rowCount, 63);
  const hakeem = recordsOf(edition)[edition.rowsBySlug.get("hakeem-olajuwon-all-time-houston-rockets")![0]!]!;
  t.equal(hakeem.overall, 99);
  t.equal(hakeem.attributes.postControl, 99);
  t.equal(hakeem.attributes.insideScoring, 94, "cats.ins");
  t.same(hakeem.badges.top, [{ name: "Post Lockdown", tier: "Legendary" }, { name: "Post-Up Poet", tier: "Legendary" }, { name: "Brick Wall", tier: "Hall of Fame" }]);
  t.equal(hakeem.badges.total, 19);
});

t.test("a bad input stops the build naming file, line and field, and writes nothing", async (t) => {
  const out = t.testdir({ "bad.csv": ",name,team,position_1,overall\n0,Good Player,Boston Celtics,PG,80\n1,Bad Player,Boston Celtics,PG,180\n" });
  const { io, lines } = quietIo();
  t.equal(runBuildIndex(["--edition", "2K26", "--status", "current", "--input", join(out, "bad.csv"), "--out", join(out, "data")], io), 1);
  t.match(lines.join(""), /bad\.csv line 3, field overall/);
  t.match(lines.join(""), /nothing was written/);
  t.throws(() => readFileSync(join(out, "data", "2K26.msgpack")));
});

t.test("an empty team in a real scrape builds a Free Agency player and prints a warning naming file and line", async (t) => {
  const lines = readFileSync(CURRENT, "utf8").split("\n");
  lines[1] = (lines[1] as string).replace(",Denver Nuggets,", ",,");
  const out = t.testdir({ "2k26-curr.csv": lines.join("\n") });
  const { io, lines: output } = quietIo();
  const input = join(out, "2k26-curr.csv");
  t.equal(runBuildIndex(["--edition", "2K26", "--status", "current", "--input", input, "--out", join(out, "data"), "--as-of", "2025-09-01"], io), 0);
  t.match(output.join(""), `build-index: warning: ${input} line 2, field team: the team is empty: imported as Free Agency (era curr)`);
  const edition = loadEdition(join(out, "data", "2K26.msgpack"));
  t.equal(edition.rowCount, 457);
  const gordon = edition.record(edition.rowsBySlug.get("aaron-gordon")![0]!);
  t.equal(gordon.team, "Free Agency");
  t.equal(gordon.teamType, "curr");
  t.ok(edition.findTeams("free-agency", "curr").length === 1, "Free Agency is a current team");
});

t.test("usage errors exit 2 with the usage text", async (t) => {
  for (const argv of [["--edition", "2K2"], ["--input", "x.csv"], ["--status", "live", "--edition", "2K26", "--input", "x.csv"], ["--as-of", "yesterday"], ["--bogus"], ["--edition", "2K26"]]) {
    const { io, lines } = quietIo();
    t.equal(runBuildIndex(argv, io), 2, argv.join(" "));
    t.match(lines.join(""), /usage: build-index/);
  }
});

t.test("the demo build writes eight editions that load, 2K27 current with weekly history", async (t) => {
  const out = t.testdir({});
  const { io, lines } = quietIo();
  t.equal(runBuildIndex(["--out", out, "--as-of", "2026-11-20"], io), 0);
  t.match(lines.join(""), /8\/8 editions/);
  const current = readSnapshot(join(out, "2K27.msgpack")).payload;
  t.equal(current.meta.status, "current");
  t.ok((current.history?.weeks.length ?? 0) >= 11, "a week per week since early September");
  t.equal(readSnapshot(join(out, "2K20.msgpack")).payload.meta.status, "archived");
  t.equal(runBuildIndex(["--out", out, "--as-of", "2026-11-20"], io), 0, "rebuilding identical archives is allowed");
});
