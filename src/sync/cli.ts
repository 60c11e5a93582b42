// The sync command (`npm run sync`, `courtside sync`): a faithful copy of another service that
// speaks this API, into the data directory a running server hot-reloads. Usage (docs/deploy.md#what-deploying-it-promises):
//   sync --from URL [--key K] [--edition 2K26 …] [--out DIR] [--as-of YYYY-MM-DD] [--max-wait S]
//        [--max-answer-mb N] [--read-timeout S] [--deadline S]
// The key may come from COURTSIDE_SYNC_KEY instead of --key, which keeps it out of process lists.
// Everything it prints goes through one funnel: never the key, and whatever the source wrote
// (names, messages) escaped onto the line it belongs to (docs/data.md#source-values-kept-exactly).

import { parseArgs } from "node:util";
import { createProgress, type Progress, type ProgressStream } from "../data/progress.js";
import { normaliseEditionKey } from "../model/eras.js";
import { maxSnapshotBytesOf } from "../data/snapshot-limit.js";
import { printableLine } from "../ops/printable.js";
import { SyncError } from "./sync-error.js";
import { syncFromSource, type EditionOutcome, type SyncResult } from "./sync.js";
import {
  DEFAULT_MAX_WAIT_SECONDS, DEFAULT_SYNC_DEADLINE_SECONDS, DEFAULT_SYNC_MAX_ANSWER_MB, DEFAULT_SYNC_READ_TIMEOUT_SECONDS, SYNC_KEY_VARIABLE, SYNC_USAGE,
} from "../usage.js";


class UsageError extends Error {}

interface CliOptions {
  from: URL;
  key: string;
  editions: string[];
  out: string;
  asOf: string;
  maxWaitMs: number;
  maxAnswerBytes: number;
  readTimeoutMs: number;
  deadlineMs: number;
  maxSnapshotBytes: number;
}

/** What the tests (and an embedding binary) may replace; the defaults are the process's own. */
export interface SyncCliIo {
  stderr: ProgressStream;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  backoffMs?: number;
}

export async function runSyncCli(argv: readonly string[], env: NodeJS.ProcessEnv, io: SyncCliIo = { stderr: process.stderr }): Promise<number> {
  let options: CliOptions;
  try {
    options = parseOptions(argv, env, io.now ?? Date.now);
  } catch (error) {
    const message = error instanceof UsageError || error instanceof TypeError ? error.message : String(error);
    io.stderr.write(`${message ? `sync: ${message}\n` : ""}${SYNC_USAGE}\n`);
    return message ? 2 : 0;
  }
  // One funnel for everything printed: whatever a source echoes, the key never reaches the output,
  // and every line is one line (a source's newline or escape sequence is written out, not obeyed).
  const redact = (text: string): string => text.split(options.key).join("[key]");
  const stream: ProgressStream = {
    write: (text: string) => io.stderr.write(redact(text)),
    ...(io.stderr.isTTY === true ? { isTTY: true } : {}),
  };
  // Redacted before it is cut, so a long message never ends in half a key.
  const line = (text: string): string => printableLine(redact(text));
  let progress: Progress | undefined;
  const reporter = {
    start: (requests: number) => { progress = createProgress(requests, stream, "sync"); },
    step: (label: string) => progress?.step(line(label)),
    note: (text: string) => (progress ? progress.note(line(text)) : stream.write(`sync: ${line(text)}\n`)),
  };
  let result: SyncResult;
  try {
    result = await syncFromSource({
      from: options.from,
      key: options.key,
      out: options.out,
      asOf: options.asOf,
      editions: options.editions,
      maxWaitMs: options.maxWaitMs,
      maxAnswerBytes: options.maxAnswerBytes,
      readTimeoutMs: options.readTimeoutMs,
      deadlineMs: options.deadlineMs,
      maxSnapshotBytes: options.maxSnapshotBytes,
      reporter,
      ...(io.sleep ? { sleep: io.sleep } : {}),
      ...(io.now ? { now: io.now } : {}),
      ...(io.backoffMs !== undefined ? { backoffMs: io.backoffMs } : {}),
    });
  } catch (error) {
    if (!(error instanceof SyncError)) throw error;
    const finish = progress ? (text: string) => progress?.done(text) : (text: string) => stream.write(`sync: ${text}\n`);
    finish(line(`failed: ${error.message}`));
    stream.write(`sync: nothing was written to ${options.out}\n`);
    return 1;
  }
  for (const outcome of result.outcomes) {
    const text = describeOutcome(outcome);
    if (text !== undefined) reporter.note(text);
  }
  progress?.done(line(summarise(result, options)));
  return result.outcomes.some((outcome) => outcome.kind === "refused") ? 1 : 0;
}

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv, now: () => number): CliOptions {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      from: { type: "string" },
      key: { type: "string" },
      edition: { type: "string", multiple: true },
      out: { type: "string" },
      "as-of": { type: "string" },
      "max-wait": { type: "string" },
      "max-answer-mb": { type: "string" },
      "read-timeout": { type: "string" },
      deadline: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) throw new UsageError("");
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  if (values.from === undefined) throw new UsageError("--from URL is required: the root address of the service to copy");
  const from = parseSource(values.from);
  const key = values.key ?? env[SYNC_KEY_VARIABLE] ?? "";
  if (key === "") throw new UsageError(`no API key: set ${SYNC_KEY_VARIABLE} (or give --key)`);
  const editions = (values.edition ?? []).map((text) => {
    const key = normaliseEditionKey(text);
    if (key === undefined) throw new UsageError(`--edition ${text} is not 2K + two digits`);
    return key;
  });
  const asOf = values["as-of"] ?? new Date(now()).toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`))) throw new UsageError(`--as-of ${asOf} is not a YYYY-MM-DD date`);
  const maxWait = values["max-wait"] ?? String(DEFAULT_MAX_WAIT_SECONDS);
  if (!/^\d+$/.test(maxWait)) throw new UsageError(`--max-wait ${maxWait} is not a whole number of seconds`);
  /** A flag, else its environment variable, else the default: a whole number from 1 to `max`. */
  const bound = (flag: string, flagValue: string | undefined, variable: string, fallback: number, max: number, unit: string): number => {
    const given = flagValue ?? env[variable];
    if (given === undefined || given === "") return fallback;
    const value = Number(given);
    if (!/^\d+$/.test(given) || value < 1 || value > max) throw new UsageError(`${flag} (${variable}) must be a whole number of ${unit} from 1 to ${max}, not ${given}`);
    return value;
  };
  let maxSnapshotBytes: number;
  try {
    maxSnapshotBytes = maxSnapshotBytesOf(env.MAX_SNAPSHOT_MB);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return {
    from,
    key,
    editions: [...new Set(editions)],
    out: values.out ?? env.DATA_DIR ?? "data",
    asOf,
    maxWaitMs: Number(maxWait) * 1000,
    maxAnswerBytes: bound("--max-answer-mb", values["max-answer-mb"], "COURTSIDE_SYNC_MAX_ANSWER_MB", DEFAULT_SYNC_MAX_ANSWER_MB, 4096, "MiB") * 1024 ** 2,
    readTimeoutMs: bound("--read-timeout", values["read-timeout"], "COURTSIDE_SYNC_READ_TIMEOUT", DEFAULT_SYNC_READ_TIMEOUT_SECONDS, 3600, "seconds") * 1000,
    deadlineMs: bound("--deadline", values.deadline, "COURTSIDE_SYNC_DEADLINE", DEFAULT_SYNC_DEADLINE_SECONDS, 86_400, "seconds") * 1000,
    maxSnapshotBytes,
  };
}

/** An http(s) root address; credentials or a query in it would end up in messages, so they are refused. */
function parseSource(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--from ${text} is not an address (e.g. https://ratings.example.com)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--from must be an http or https address, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "") throw new UsageError("--from must not carry credentials; the key goes in " + SYNC_KEY_VARIABLE);
  if (url.search !== "" || url.hash !== "") throw new UsageError("--from is the service's root address, without a query or fragment");
  return url;
}

function describeOutcome(outcome: EditionOutcome): string | undefined {
  switch (outcome.kind) {
    case "written": return `wrote ${outcome.file} (${outcome.status}, ${outcome.players.toLocaleString("en")} players, ${Math.round(outcome.bytes / 1024).toLocaleString("en")} KiB)`;
    case "unchanged": return `${outcome.gameVersion} unchanged: ${outcome.file} already holds the source's content`;
    case "refused": return `refused ${outcome.gameVersion}, not copied: ${outcome.reason}`;
    case "not-modified": return undefined;
  }
}

function summarise(result: SyncResult, options: CliOptions): string {
  const count = (kind: EditionOutcome["kind"]) => result.outcomes.filter((outcome) => outcome.kind === kind).length;
  const requests = `${result.requests} request${result.requests === 1 ? "" : "s"}`;
  if (count("not-modified") === result.outcomes.length) {
    return `nothing changed at the source: every bulk answer was 304 Not Modified; wrote nothing to ${options.out} (${requests})`;
  }
  const parts = [
    `${count("written")} written`,
    `${count("unchanged")} unchanged`,
    `${count("not-modified")} not modified (304)`,
    ...(count("refused") > 0 ? [`${count("refused")} refused`] : []),
  ];
  const snapshots = count("written");
  const wrote = snapshots > 0 ? `wrote ${snapshots} snapshot${snapshots === 1 ? "" : "s"} into ${options.out}`
    : result.wroteFiles ? `wrote no snapshot, only the ETags in ${options.out}` : `wrote nothing to ${options.out}`;
  return `synced ${result.outcomes.length} editions from ${options.from.href}: ${parts.join(", ")}; ${wrote} (${requests})`;
}
