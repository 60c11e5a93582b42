// Reads every `--input` file of one edition, dispatching by extension, and merges their records
// into one deterministic list: a player given again by a later input replaces its earlier row,
// a source's slug is kept however many rows share it, and only a slug an importer made is
// suffixed where another row holds it (settleSlugs). The report counts what was met and kept.

import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { compareText } from "../model/badge-summary.js";
import { ERA_CODE } from "../model/eras.js";
import { foldName } from "../model/names.js";
import { playerId, teamKey, type PlayerRecord } from "../model/player.js";
import { importCsv, type ImportOptions } from "./import-csv.js";
import { ImportError } from "./import-error.js";
import { importJson } from "./import-json.js";
import { ImportReport, settleSlugs } from "./import-report.js";

/** All records of `paths`, merged, sorted by era, team, name (then slug, then id, so ties cannot reorder). */
export function importFiles(paths: readonly string[], options: ImportOptions): PlayerRecord[] {
  const report = options.report ?? new ImportReport();
  const merged = new Merge(report);
  paths.forEach((path, file) => {
    importFile(path, { ...options, report }).forEach((record, index) => merged.add(record, file, index));
  });
  const records = settleSlugs(merged.records, report);
  checkUniqueIds(records, merged.origins, paths);
  return records.sort(
    (a, b) => ERA_CODE[a.teamType] - ERA_CODE[b.teamType] || compareText(a.team, b.team)
      || compareText(a.name, b.name) || compareText(a.slug, b.slug) || compareText(a._id, b._id),
  );
}

function importFile(path: string, options: ImportOptions): PlayerRecord[] {
  const extension = extname(path).toLowerCase();
  if (extension !== ".csv" && extension !== ".json") {
    throw new ImportError(path, undefined, undefined, `cannot import ${extension || "a file without an extension"}: inputs are .csv or .json`);
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "";
    throw new ImportError(path, undefined, undefined, `cannot read the file${code ? ` (${code})` : ""}`);
  }
  return extension === ".csv" ? importCsv(path, text, options) : importJson(path, text, options);
}

/**
 * Records keyed by who they are (era, team, folded name) to spot the same row given again.
 * Folding the name lets `Nikola Jokic` from one source and `Nikola Jokić` from another count as
 * one row. Two rows of one input with distinct ids of the source's are two documents, whatever
 * they share (docs/data.md#source-values-kept-exactly: nothing the source gives is dropped).
 */
class Merge {
  readonly records: PlayerRecord[] = [];
  /** Per record: the input file it came from and its position among that file's rows. */
  readonly origins: { file: number; index: number }[] = [];
  private readonly rowOfPlayer = new Map<string, number>();
  /** Current-era rows by folded name, with the input they came from. */
  private readonly currentRowsByName = new Map<string, { row: number; file: number }[]>();

  constructor(private readonly report: ImportReport) {}

  add(record: PlayerRecord, file: number, index: number): void {
    const player = `${record.teamType}\u0000${teamKey(record.team)}\u0000${foldName(record.name)}`;
    const existing = this.rowOfPlayer.get(player) ?? this.tradedFrom(record, file);
    const earlier = existing === undefined ? undefined : this.records[existing];
    if (existing !== undefined && earlier !== undefined && !this.areTwoDocuments(earlier, record, this.origins[existing]?.file === file)) {
      // The same player again: inputs are given oldest first (a newer scrape after an older
      // one), so the later row is the truth and replaces the earlier in place.
      this.records[existing] = record;
      this.origins[existing] = { file, index };
      this.rowOfPlayer.set(player, existing);
      this.report.replaced += 1;
      return;
    }
    const row = this.records.push(record) - 1;
    this.origins[row] = { file, index };
    this.rowOfPlayer.set(player, row);
    if (record.teamType === "curr") {
      const name = foldName(record.name);
      this.currentRowsByName.set(name, [...(this.currentRowsByName.get(name) ?? []), { row, file }]);
    }
  }

  /** Rows of one input that both carry an id of the source's, and different ones. */
  private areTwoDocuments(earlier: PlayerRecord, later: PlayerRecord, isSameInput: boolean): boolean {
    const isKept = (record: PlayerRecord) => record._id !== playerId(record.teamType, record.team, record.slug);
    return isSameInput && isKept(earlier) && isKept(later) && earlier._id !== later._id;
  }

  /**
   * A player stands on one current roster at a time, so one earlier input's only current row
   * with this name, on another team, is the same person traded since: the later input wins.
   * Namesakes inside one input (two Marcus Williams on two teams) stay two players.
   */
  private tradedFrom(record: PlayerRecord, file: number): number | undefined {
    if (record.teamType !== "curr") return undefined;
    const earlier = (this.currentRowsByName.get(foldName(record.name)) ?? []).filter((entry) => entry.file < file);
    return earlier.length === 1 ? earlier[0]?.row : undefined;
  }
}

/** Ids are unique within an edition: a second row with one is refused, naming both rows. */
function checkUniqueIds(records: readonly PlayerRecord[], origins: readonly { file: number; index: number }[], paths: readonly string[]): void {
  const firstOf = new Map<string, number>();
  records.forEach((record, row) => {
    const first = firstOf.get(record._id);
    if (first === undefined) {
      firstOf.set(record._id, row);
      return;
    }
    const at = origins[row] as { file: number; index: number };
    const earlier = origins[first] as { file: number; index: number };
    const where = earlier.file === at.file ? `row ${earlier.index + 1}` : `row ${earlier.index + 1} of ${paths[earlier.file] ?? "an earlier input"}`;
    throw new ImportError(paths[at.file] ?? "input", undefined, "_id", `row ${at.index + 1} (${record.slug}): the id ${record._id} is already ${where}'s; ids are unique within an edition`);
  });
}
