// Reads every `--input` file of one edition, dispatching by extension, and merges their records
// into one deterministic list in which each (teamType, slug) names exactly one player.

import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { compareText } from "../model/badge-summary.js";
import { ERA_CODE } from "../model/eras.js";
import { foldName } from "../model/names.js";
import { playerId, type PlayerRecord } from "../model/player.js";
import { importCsv, type ImportOptions } from "./import-csv.js";
import { ImportError } from "./import-error.js";
import { importJson } from "./import-json.js";

/** All records of `paths`, merged, sorted by era, team, name (then slug, so ties cannot reorder). */
export function importFiles(paths: readonly string[], options: ImportOptions): PlayerRecord[] {
  const merged = new Merge();
  paths.forEach((path, file) => {
    importFile(path, options).forEach((record, index) => merged.add(record, file, index));
  });
  checkUniqueIds(merged.records, merged.origins, paths);
  return merged.records.sort(
    (a, b) => ERA_CODE[a.teamType] - ERA_CODE[b.teamType] || compareText(a.team, b.team)
      || compareText(a.name, b.name) || compareText(a.slug, b.slug),
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
 * Records keyed two ways: by who they are (era, team, folded name) to spot the same row given
 * twice, and by (era, slug) to keep slugs unique. Folding the name lets `Nikola Jokic` from one
 * source and `Nikola Jokić` from another count as one row.
 */
class Merge {
  readonly records: PlayerRecord[] = [];
  /** Per record: the input file it came from and its position among that file's rows. */
  readonly origins: { file: number; index: number }[] = [];
  private readonly rowOfPlayer = new Map<string, number>();
  private readonly rowOfSlug = new Map<string, number>();
  /** Current-era rows by folded name, with the input they came from. */
  private readonly currentRowsByName = new Map<string, { row: number; file: number }[]>();

  add(record: PlayerRecord, file: number, index: number): void {
    const player = `${record.teamType}\u0000${record.team}\u0000${foldName(record.name)}`;
    const existing = this.rowOfPlayer.get(player) ?? this.tradedFrom(record, file);
    if (existing !== undefined) {
      // The same player on the same team again: inputs are given oldest first (a newer scrape
      // after an older one), so the later row is the truth and replaces the earlier in place.
      const replaced = this.records[existing];
      if (replaced !== undefined) this.rowOfSlug.delete(slugKey(replaced.teamType, replaced.slug));
      const unique = this.uniqueSlug(record);
      this.records[existing] = unique;
      this.origins[existing] = { file, index };
      this.rowOfSlug.set(slugKey(unique.teamType, unique.slug), existing);
      this.rowOfPlayer.set(player, existing);
      return;
    }
    // A different player whose slug is taken (two namesakes in one era): the later one gets
    // `-2`, `-3` …, so the first keeps the slug clients already know.
    const unique = this.uniqueSlug(record);
    const row = this.records.push(unique) - 1;
    this.origins[row] = { file, index };
    this.rowOfPlayer.set(player, row);
    this.rowOfSlug.set(slugKey(unique.teamType, unique.slug), row);
    if (record.teamType === "curr") {
      const name = foldName(record.name);
      this.currentRowsByName.set(name, [...(this.currentRowsByName.get(name) ?? []), { row, file }]);
    }
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

  private uniqueSlug(record: PlayerRecord): PlayerRecord {
    if (!this.rowOfSlug.has(slugKey(record.teamType, record.slug))) return record;
    let suffix = 2;
    while (this.rowOfSlug.has(slugKey(record.teamType, `${record.slug}-${suffix}`))) suffix += 1;
    const slug = `${record.slug}-${suffix}`;
    // A generated id follows the slug; an id kept from the source is the source's to keep.
    const isGenerated = record._id === playerId(record.teamType, record.team, record.slug);
    return { ...record, _id: isGenerated ? playerId(record.teamType, record.team, slug) : record._id, slug };
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

function slugKey(teamType: string, slug: string): string {
  return `${teamType}\u0000${slug}`;
}
