// One sync: the source's edition list, each edition's bulk answers (conditional on the last
// ETags), every row checked, every edition planned through the builder build-index uses, and
// only then anything written — all of it (temp files, then renames) or nothing at all.

import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { planEdition } from "../data/build-edition.js";
import { ImportReport, settleSlugs } from "../data/import-report.js";
import { encodeSnapshot, readSnapshot, snapshotChecksum, SnapshotError } from "../data/snapshot.js";
import { ERAS, type Era, type EditionStatus } from "../model/eras.js";
import type { EditionSource, PlayerRecord } from "../model/player.js";
import { snapshotFiles } from "../store/editions.js";
import { readBulk, readEditionList, readPlayers, type SourceEdition } from "./read-answers.js";
import { SourceClient, type Answer } from "./source-client.js";
import { SyncError } from "./sync-error.js";
import { DEFAULT_SYNC_DEADLINE_SECONDS, DEFAULT_SYNC_MAX_ANSWER_MB, DEFAULT_SYNC_READ_TIMEOUT_SECONDS } from "../usage.js";
import { emptySyncState, readSyncState, syncStatePath, syncStateText, type EditionState, type SyncState } from "./sync-state.js";

export interface SyncReporter {
  /** The requests this sync expects to send, the edition list included (retries aside). */
  start(requests: number): void;
  /** One request answered. */
  step(label: string): void;
  /** A wait, a retry, a problem that does not stop the sync. */
  note(text: string): void;
}

export interface SyncOptions {
  /** The source's root address. */
  from: URL;
  key: string;
  /** The data directory written. */
  out: string;
  /** YYYY-MM-DD: dates the current edition's week, as build-index --as-of. */
  asOf: string;
  /** Edition keys to copy (upper case); empty copies every edition the source lists. */
  editions: readonly string[];
  /** How long the whole sync may spend waiting out 429s. */
  maxWaitMs: number;
  retries?: number;
  backoffMs?: number;
  /** A read that brings no byte for this long fails (and is retried). */
  readTimeoutMs?: number;
  /** The whole sync stops after this long, waits and retries included. */
  deadlineMs?: number;
  /** The largest body of one answer, after decompression (see SourceClientOptions). */
  maxAnswerBytes?: number;
  /** MAX_SNAPSHOT_MB: a snapshot already in `out` larger than this is refused unread. */
  maxSnapshotBytes?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  reporter: SyncReporter;
}

export type EditionOutcome =
  /** Every answer was 304: the snapshot on disk is still the source's. */
  | { kind: "not-modified"; gameVersion: string }
  /** Fetched, and what the directory already holds. */
  | { kind: "unchanged"; gameVersion: string; file: string }
  | { kind: "written"; gameVersion: string; file: string; status: EditionStatus; players: number; bytes: number }
  /** An archive on disk whose content the source has changed: reported, never copied. */
  | { kind: "refused"; gameVersion: string; file: string; reason: string };

export interface SyncResult {
  outcomes: EditionOutcome[];
  /** Requests sent, retries included. */
  requests: number;
  /** Whether anything in the directory changed (snapshots or the ETag file). */
  wroteFiles: boolean;
}

interface BulkRequest {
  path: string;
  era: Era | "all";
}

/** What one edition's answers came to before anything is planned. */
type Fetched =
  | { kind: "not-modified"; gameVersion: string }
  | { kind: "fetched"; source: EditionSource; etags: Record<string, string> };

interface LocalEdition {
  file: string;
  status: EditionStatus;
  checksum: string;
  contentHash: string;
  capturedAt: string;
}

/** A real sync stays far inside these (the demo's current edition with badge lists is one 5.6 MB answer for 1,842 players). */
export const SYNC_DEFAULTS = {
  retries: 3,
  backoffMs: 1_000,
  readTimeoutMs: DEFAULT_SYNC_READ_TIMEOUT_SECONDS * 1000,
  deadlineMs: DEFAULT_SYNC_DEADLINE_SECONDS * 1000,
  maxAnswerBytes: DEFAULT_SYNC_MAX_ANSWER_MB * 1024 ** 2,
};

export async function syncFromSource(options: SyncOptions): Promise<SyncResult> {
  const { reporter } = options;
  const local = readLocalEditions(options.out, options.maxSnapshotBytes);
  const { state: previous, problem } = readSyncState(options.out);
  if (problem !== undefined) reporter.note(problem);
  const sourceName = options.from.href;
  const state: SyncState = previous?.source === sourceName
    ? { ...previous, editions: { ...previous.editions } }
    : emptySyncState(sourceName);

  const client = new SourceClient({
    base: options.from,
    key: options.key,
    maxWaitMs: options.maxWaitMs,
    retries: options.retries ?? SYNC_DEFAULTS.retries,
    backoffMs: options.backoffMs ?? SYNC_DEFAULTS.backoffMs,
    readTimeoutMs: options.readTimeoutMs ?? SYNC_DEFAULTS.readTimeoutMs,
    deadlineMs: options.deadlineMs ?? SYNC_DEFAULTS.deadlineMs,
    maxAnswerBytes: options.maxAnswerBytes ?? SYNC_DEFAULTS.maxAnswerBytes,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    now: options.now ?? Date.now,
    onNote: (text) => reporter.note(text),
  });
  try {
    const listPath = "/api/versions";
    const list = await client.get(listPath, { edition: undefined, etag: undefined, withKey: false });
    const listed = readEditionList(client.urlOf(listPath).href, answerText(list));
    const wanted = selectEditions(listed, options.editions, client.urlOf(listPath).href);
    reporter.start(1 + wanted.reduce((sum, edition) => sum + requestsOf(edition).length, 0));
    reporter.step(`edition list: ${listed.map((edition) => edition.gameVersion).join(", ")}`);

    const fetched: Fetched[] = [];
    for (const edition of wanted) {
      fetched.push(await fetchEdition(client, edition, local.get(edition.gameVersion), state.editions[edition.gameVersion], options));
    }
    const { outcomes, writes } = planWrites(fetched, local, state, options);
    checkOneCurrent(local, outcomes, options.out);
    const stateText = syncStateText(state);
    const wroteFiles = commit(options.out, writes, stateText);
    return { outcomes, requests: client.requestCount, wroteFiles };
  } finally {
    client.close();
  }
}

/**
 * In the hosted service's dialect (docs/compatibility.md#fidelity-rules: its bulk routes accept `teamType`, never `era`):
 * the current edition in full from the unversioned bulk with no parameter (its default is every
 * era; badge lists included); an archive one era at a time, by `teamType`. Courtside answers both.
 */
function requestsOf(edition: SourceEdition): BulkRequest[] {
  if (edition.status === "current") return [{ path: "/api/players/bulk", era: "all" }];
  return ERAS.map((era) => ({ path: `/api/versions/${edition.gameVersion}/players/bulk?teamType=${era}`, era }));
}

function selectEditions(listed: readonly SourceEdition[], keys: readonly string[], url: string): SourceEdition[] {
  if (keys.length === 0) return [...listed];
  return keys.map((key) => {
    const edition = listed.find((candidate) => candidate.gameVersion === key);
    if (edition === undefined) {
      throw new SyncError(key, url, `the source has no edition ${key} (it lists ${listed.map((e) => e.gameVersion).join(", ")})`);
    }
    return edition;
  });
}

async function fetchEdition(
  client: SourceClient,
  edition: SourceEdition,
  local: LocalEdition | undefined,
  remembered: EditionState | undefined,
  options: SyncOptions,
): Promise<Fetched> {
  const key = edition.gameVersion;
  // ETags are only worth sending while the snapshot they produced is the one on disk.
  const mayRevalidate = remembered !== undefined && local !== undefined && remembered.snapshot === local.checksum;
  const answers: { request: BulkRequest; answer: Answer }[] = [];
  for (const request of requestsOf(edition)) {
    const etag = mayRevalidate ? remembered.etags[request.path] : undefined;
    const answer = await client.get(request.path, { edition: key, etag, withKey: true });
    options.reporter.step(`${key} ${request.era}: ${describeAnswer(answer)}`);
    answers.push({ request, answer });
  }
  if (answers.every(({ answer }) => answer.status === 304)) return { kind: "not-modified", gameVersion: key };
  // An edition is rebuilt from all its answers, so an era that answered 304 while another
  // changed is fetched again in full (at most two more requests, and only then).
  for (const entry of answers) {
    if (entry.answer.status !== 304) continue;
    entry.answer = await client.get(entry.request.path, { edition: key, etag: undefined, withKey: true });
    options.reporter.step(`${key} ${entry.request.era} again in full: ${describeAnswer(entry.answer)}`);
  }

  const bulks = answers.map(({ request, answer }) => {
    const url = client.urlOf(request.path).href;
    return { request, url, bulk: readBulk(key, url, answerText(answer)), etag: answer.status === 200 ? answer.etag : undefined };
  });
  const capturedAt = edition.capturedAt
    ?? bulks.find(({ bulk }) => bulk.capturedAt !== undefined)?.bulk.capturedAt
    ?? local?.capturedAt
    ?? `${options.asOf}T00:00:00.000Z`;
  const report = new ImportReport();
  const read = bulks.map(({ request, url, bulk }) => ({ url, era: request.era, players: readPlayers(key, url, bulk.rows, request.era, capturedAt, report) }));
  checkEdition(edition, read);
  const players = settleSlugs(read.flatMap((answer) => answer.players), report);
  options.reporter.note(`${key}: ${report.lines(players).join("; ")}`);
  const etags: Record<string, string> = {};
  for (const { request, etag } of bulks) if (etag !== undefined) etags[request.path] = etag;
  return {
    kind: "fetched",
    source: {
      gameVersion: key,
      status: edition.status,
      capturedAt,
      source: edition.source ?? bulks.find(({ bulk }) => bulk.source !== undefined)?.bulk.source ?? `sync of ${client.urlOf("").href}`,
      players,
      history: [],
    },
    etags,
  };
}

/**
 * Ids unique within the edition, and counts as the edition list states them; a problem names the
 * answer it was found in. Slugs may repeat (docs/data.md#source-values-kept-exactly: a traded player's old and new row share
 * one), and are kept as they are.
 */
function checkEdition(edition: SourceEdition, answers: readonly { url: string; era: Era | "all"; players: readonly PlayerRecord[] }[]): void {
  const key = edition.gameVersion;
  const ids = new Set<string>();
  const counts: Record<Era, number> = { curr: 0, class: 0, allt: 0 };
  for (const { url, players } of answers) {
    for (const [row, player] of players.entries()) {
      if (ids.has(player._id)) throw new SyncError(key, url, `row ${row} (${player.slug}): the id ${player._id} is another row's too; ids are unique within an edition`);
      ids.add(player._id);
      counts[player.teamType] += 1;
    }
  }
  const urlOf = (era: Era): string => (answers.find((answer) => answer.era === era) ?? answers[0])?.url ?? "";
  for (const era of ERAS) {
    const listed = edition.teamTypeCounts[era];
    if (listed !== undefined && listed !== counts[era]) {
      throw new SyncError(key, urlOf(era), `the edition list counts ${listed} ${era} players, the bulk answers hold ${counts[era]}; the source changed mid-sync or is inconsistent`);
    }
  }
  const total = counts.curr + counts.class + counts.allt;
  if (edition.playerCount !== undefined && edition.playerCount !== total) {
    throw new SyncError(key, answers[0]?.url ?? "", `the edition list counts ${edition.playerCount} players, the bulk answers hold ${total}`);
  }
}

/** Each fetched edition through planEdition; updates `state` for what will be on disk. */
function planWrites(
  fetched: readonly Fetched[],
  local: ReadonlyMap<string, LocalEdition>,
  state: SyncState,
  options: SyncOptions,
): { outcomes: EditionOutcome[]; writes: { file: string; bytes: Buffer }[] } {
  const outcomes: EditionOutcome[] = [];
  const writes: { file: string; bytes: Buffer }[] = [];
  for (const entry of fetched) {
    if (entry.kind === "not-modified") {
      outcomes.push(entry);
      continue;
    }
    const { source, etags } = entry;
    const key = source.gameVersion;
    const onDisk = local.get(key);
    let plan: ReturnType<typeof planEdition>;
    try {
      plan = planEdition(options.out, source, options.asOf, options.maxSnapshotBytes);
    } catch (error) {
      if (error instanceof SnapshotError) throw new SyncError(key, error.file, error.reason);
      throw error;
    }
    if (plan.kind === "refused") {
      // The ETags are not remembered, so the next sync fetches it again and says so again.
      outcomes.push({ kind: "refused", gameVersion: key, file: plan.file, reason: plan.reason });
      continue;
    }
    // Same players and status as on disk: nothing to write (the current edition's week is
    // added when its ratings change, as a 304 adds none either).
    if (plan.kind === "unchanged" || (onDisk?.status === source.status && onDisk.contentHash === plan.payload.meta.contentHash)) {
      outcomes.push({ kind: "unchanged", gameVersion: key, file: plan.file });
      if (onDisk !== undefined) state.editions[key] = { snapshot: onDisk.checksum, etags };
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = encodeSnapshot(plan.payload);
    } catch (error) {
      if (error instanceof SnapshotError) throw new SyncError(key, plan.file, error.reason);
      throw error;
    }
    writes.push({ file: plan.file, bytes });
    state.editions[key] = { snapshot: snapshotChecksum(bytes), etags };
    outcomes.push({ kind: "written", gameVersion: key, file: plan.file, status: source.status, players: plan.payload.meta.playerCount, bytes: bytes.length });
  }
  return { outcomes, writes };
}

/** The server needs exactly one current edition in its directory; a sync never leaves it otherwise. */
function checkOneCurrent(local: ReadonlyMap<string, LocalEdition>, outcomes: readonly EditionOutcome[], out: string): void {
  const written = outcomes.filter((outcome) => outcome.kind === "written");
  if (written.length === 0) return;
  const statusAfter = new Map<string, { status: EditionStatus; origin: string }>();
  for (const [key, edition] of local) statusAfter.set(key, { status: edition.status, origin: `already in ${out}` });
  for (const outcome of written) statusAfter.set(outcome.gameVersion, { status: outcome.status, origin: "from the source" });
  const currents = [...statusAfter].filter(([, after]) => after.status === "current");
  if (currents.length === 1) return;
  const named = currents.map(([key, after]) => `${key} (${after.origin})`).join(", ") || "none";
  throw new SyncError(undefined, out, `writing would leave ${currents.length} current editions in the directory (${named}); the server needs exactly one. `
    + "Sync into an empty directory, move the other snapshots away, or include the source's current edition");
}

/** Temp files first, renames after: a failed write leaves the directory as it was. */
function commit(out: string, writes: readonly { file: string; bytes: Buffer }[], stateText: string): boolean {
  const statePath = syncStatePath(out);
  const isStateChanged = !existsSync(statePath) || readFileSync(statePath, "utf8") !== stateText;
  if (writes.length === 0 && !isStateChanged) return false;
  const staged: { temp: string; file: string }[] = [];
  try {
    mkdirSync(out, { recursive: true });
    for (const { file, bytes } of writes) {
      const temp = `${file}.${process.pid}.sync.tmp`;
      writeFileSync(temp, bytes);
      staged.push({ temp, file });
    }
    if (isStateChanged) {
      const temp = `${statePath}.${process.pid}.tmp`;
      writeFileSync(temp, stateText);
      staged.push({ temp, file: statePath });
    }
  } catch (error) {
    for (const { temp } of staged) {
      try { unlinkSync(temp); } catch { /* never created, or already gone */ }
    }
    throw new SyncError(undefined, out, `cannot write the snapshots (${(error as Error).message}); the directory is as it was`);
  }
  for (const { temp, file } of staged) renameSync(temp, file);
  return true;
}

function readLocalEditions(dir: string, maxSnapshotBytes: number | undefined): Map<string, LocalEdition> {
  const editions = new Map<string, LocalEdition>();
  if (!existsSync(dir)) return editions;
  let files: string[];
  try {
    files = snapshotFiles(dir);
  } catch (error) {
    throw new SyncError(undefined, dir, `cannot read the data directory (${(error as Error).message})`);
  }
  for (const file of files) {
    try {
      const { payload, checksum } = readSnapshot(file, maxSnapshotBytes);
      const { gameVersion, status, contentHash, capturedAt } = payload.meta;
      editions.set(gameVersion, { file, status, checksum, contentHash, capturedAt });
    } catch (error) {
      if (!(error instanceof SnapshotError)) throw error;
      throw new SyncError(undefined, file, `the snapshot already there is refused (${error.reason}); move it away before syncing`);
    }
  }
  return editions;
}

function answerText(answer: Answer): string {
  // Only a request that sent If-None-Match can be answered 304, and the edition list never does.
  if (answer.status !== 200) throw new Error("a 304 reached a reader that needs a body");
  return answer.text;
}

function describeAnswer(answer: Answer): string {
  return answer.status === 304 ? "304 not modified" : `${Math.max(1, Math.round(answer.bytes / 1024)).toLocaleString("en")} KiB`;
}
