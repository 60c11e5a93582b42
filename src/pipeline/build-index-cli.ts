// The build-index command: the demo generator or --input files → one MessagePack snapshot per
// edition in the data directory. Usage (docs/data.md#building-editions):
//   build-index                                   all demo editions into $DATA_DIR (default data/)
//   build-index --edition 2K26 --status current|archived --input FILE [--input FILE …] [--out DIR] [--as-of YYYY-MM-DD]
//   build-index --scale 1000000 --edition 2K99 [--out DIR]   a generated edition of N players (benchmarks)
//   build-index --upgrade DIR                     rebuilds format-1 and format-2 snapshots in DIR as the current format; stores the derived tables a format-3 file lacks

import { mkdirSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { generateDemoEditions, generateScaleEdition } from "./demo.js";
import { importFiles } from "./import.js";
import { ImportError } from "./import-error.js";
import { ImportReport } from "./import-report.js";
import { writeEdition, type WriteOutcome } from "./build-edition.js";
import { buildSnapshotPayload } from "./build-snapshot.js";
import { createProgress } from "./progress.js";
import { SNAPSHOT_FORMAT_VERSION, SnapshotError, readSnapshot, readSnapshotBytes, snapshotVersionOf, writeSnapshotAtomic } from "../store/snapshot.js";
import { editionOf, hasDerivedTables } from "../store/derived-tables.js";
import { maxSnapshotBytesOf } from "../store/snapshot-limit.js";
import { decodeSnapshotV1 } from "../store/snapshot-v1.js";
import { decodeSnapshotV2 } from "../store/snapshot-v2.js";
import { snapshotFiles } from "../store/editions.js";
import { EDITION_STATUSES, normaliseEditionKey, type EditionStatus } from "../model/eras.js";
import type { EditionSource } from "../model/player.js";
import { BUILD_INDEX_USAGE } from "../usage.js";

class UsageError extends Error {}

interface BuildOptions {
  out: string;
  asOf: string;
  edition: string | undefined;
  status: EditionStatus | undefined;
  inputs: string[];
  scale: number | undefined;
  upgrade: string | undefined;
  /** MAX_SNAPSHOT_MB: snapshots already in the directory larger than this are refused unread. */
  maxSnapshotBytes: number;
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BuildOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      edition: { type: "string" },
      status: { type: "string" },
      input: { type: "string", multiple: true },
      out: { type: "string" },
      "as-of": { type: "string" },
      scale: { type: "string" },
      upgrade: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) throw new UsageError("");
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const asOf = values["as-of"] ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`))) throw new UsageError(`--as-of ${asOf} is not a YYYY-MM-DD date`);
  const edition = values.edition === undefined ? undefined : normaliseEditionKey(values.edition);
  if (values.edition !== undefined && edition === undefined) throw new UsageError(`--edition ${values.edition} is not 2K + two digits`);
  const status = values.status as EditionStatus | undefined;
  if (status !== undefined && !EDITION_STATUSES.includes(status)) throw new UsageError(`--status must be current or archived, not ${status}`);
  const inputs = values.input ?? [];
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && (!Number.isInteger(scale) || scale < 1)) throw new UsageError(`--scale ${values.scale} is not a positive integer`);
  if (inputs.length > 0 && (edition === undefined || status === undefined)) throw new UsageError("--input needs --edition and --status");
  if (inputs.length === 0 && scale === undefined && (edition !== undefined || status !== undefined)) {
    throw new UsageError("--edition and --status build from --input files; without them every demo edition is built");
  }
  if (values.upgrade !== undefined && (inputs.length > 0 || scale !== undefined || edition !== undefined)) throw new UsageError("--upgrade takes only the data directory");
  let maxSnapshotBytes: number;
  try {
    maxSnapshotBytes = maxSnapshotBytesOf(env.MAX_SNAPSHOT_MB);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return { out: values.out ?? env.DATA_DIR ?? "data", asOf, edition, status, inputs, scale, upgrade: values.upgrade, maxSnapshotBytes };
}

/** The editions to build, and what the inputs held that is odd but kept (one line, for --input). */
function sourcesFor(options: BuildOptions, stderr: NodeJS.WriteStream): { sources: EditionSource[]; notes: string[] } {
  if (options.scale !== undefined) {
    return { sources: [generateScaleEdition({ players: options.scale, gameVersion: options.edition ?? "2K99" })], notes: [] };
  }
  if (options.inputs.length > 0) {
    const report = new ImportReport();
    const players = importFiles(options.inputs, {
      capturedAt: `${options.asOf}T00:00:00.000Z`,
      warn: (message) => stderr.write(`build-index: warning: ${message}\n`),
      report,
    });
    const gameVersion = options.edition as string;
    return {
      sources: [{
        gameVersion,
        status: options.status as EditionStatus,
        capturedAt: `${options.asOf}T00:00:00.000Z`,
        source: options.inputs.map((input) => input.split("/").pop()).join(", "),
        players,
        history: [],
      }],
      notes: [`${gameVersion}: ${report.lines(players).join("; ")}`],
    };
  }
  return { sources: generateDemoEditions({ asOf: options.asOf }), notes: [] };
}

function describe(outcome: WriteOutcome): string {
  switch (outcome.kind) {
    case "written": return `wrote ${outcome.file} (${outcome.payload.meta.playerCount} players, ${(outcome.bytes / 1024).toFixed(0)} KiB)`;
    case "unchanged": return `${outcome.file} unchanged (archived, same content)`;
    case "refused": return `refused ${outcome.file}: ${outcome.reason}`;
  }
}

export interface BuildIndexIo {
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WriteStream;
}

export function runBuildIndex(argv: string[], io: BuildIndexIo = { env: process.env, stderr: process.stderr }): number {
  let options: BuildOptions;
  try {
    options = parseOptions(argv, io.env);
  } catch (error) {
    const message = error instanceof UsageError || error instanceof TypeError ? error.message : String(error);
    io.stderr.write(`${message ? `build-index: ${message}\n` : ""}${BUILD_INDEX_USAGE}\n`);
    return 2;
  }
  const started = performance.now();
  if (options.upgrade !== undefined) return upgradeDirectory(options.upgrade, options.maxSnapshotBytes, io, started);
  const written: string[] = [];
  try {
    const { sources, notes } = sourcesFor(options, io.stderr);
    mkdirSync(options.out, { recursive: true });
    const progress = createProgress(sources.length, io.stderr);
    for (const note of notes) progress.note(note);
    let refused = 0;
    for (const source of sources) {
      const outcome = writeEdition(options.out, source, options.asOf, options.maxSnapshotBytes);
      if (outcome.kind === "refused") refused += 1;
      if (outcome.kind === "written") written.push(outcome.file);
      progress.step(describe(outcome));
    }
    progress.done(`${sources.length - refused}/${sources.length} editions in ${options.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return refused > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof ImportError || error instanceof SnapshotError) {
      const kept = written.length === 0
        ? "nothing was written"
        : `the editions before it were written (${written.join(", ")}); nothing was written for this one or the ones after it`;
      io.stderr.write(`build-index: ${error.message}\n${kept}\n`);
      return 1;
    }
    throw error;
  }
}


/**
 * Rebuilds every format-1 and format-2 snapshot of `dir` in the current format, and stores the
 * derived tables a format-3 file was written without (store/derived-tables.ts): each old file is
 * read back into the edition it was built from (rows, meta, weekly history; checked against the
 * content hash it stores), and that edition goes through today's builder, so the file holds
 * whatever the builder now makes of it. Archives included: their source files may be long gone.
 */
function upgradeDirectory(dir: string, maxSnapshotBytes: number, io: BuildIndexIo, started: number): number {
  let files: string[];
  try {
    files = snapshotFiles(dir);
  } catch (error) {
    io.stderr.write(`build-index: cannot read ${dir}: ${(error as Error).message}\n`);
    return 1;
  }
  if (files.length === 0) {
    io.stderr.write(`build-index: ${dir} holds no snapshots\n`);
    return 1;
  }
  const progress = createProgress(files.length, io.stderr);
  let failed = 0;
  let upgraded = 0;
  for (const file of files) {
    try {
      const bytes = readSnapshotBytes(file, maxSnapshotBytes);
      const version = snapshotVersionOf(bytes);
      if (version === SNAPSHOT_FORMAT_VERSION) {
        // A format-3 file written before some derived table (the server derives it at each load): stored now.
        const { payload } = readSnapshot(file, maxSnapshotBytes);
        if (hasDerivedTables(payload)) {
          progress.step(`${basename(file)} is already format ${SNAPSHOT_FORMAT_VERSION}`);
          continue;
        }
        editionOf(payload, "upgrade");
        const written = writeSnapshotAtomic(file, payload);
        upgraded += 1;
        progress.step(`upgraded ${file}: its derived tables stored (${payload.meta.playerCount} players, ${(written.length / 1024).toFixed(0)} KiB)`);
        continue;
      }
      if (version !== 1 && version !== 2) throw new SnapshotError(basename(file), `format version ${version} cannot be upgraded (only formats 1 and 2)`);
      const source = version === 1 ? decodeSnapshotV1(file, bytes) : decodeSnapshotV2(file, bytes);
      const payload = buildSnapshotPayload(source);
      const written = writeSnapshotAtomic(file, payload);
      upgraded += 1;
      progress.step(`upgraded ${file} from format ${version} to format ${SNAPSHOT_FORMAT_VERSION} (${payload.meta.playerCount} players, ${(written.length / 1024).toFixed(0)} KiB)`);
    } catch (error) {
      failed += 1;
      progress.step(`refused ${file}: ${error instanceof SnapshotError ? error.reason : (error as Error).message}`);
    }
  }
  progress.done(`${upgraded} upgraded, ${files.length - upgraded - failed} already current, ${failed} refused, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return failed > 0 ? 1 : 0;
}
