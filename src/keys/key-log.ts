// The keys file as a log: a header line, then one JSON line per change (`create`, `regenerate`,
// `revoke`), each carrying the record as it stands after the change (SHA-256 digests only, never a
// key). Writers append one line under the keys file's lock; readers keep their place (inode and
// byte offset) and apply only the lines added since, so a change costs every reader one short read,
// not a parse of the whole store. When the log holds twice as many lines as records (and at least
// COMPACT_MIN_LINES), the writer rewrites it as one `create` line per record, atomically (a
// temporary file renamed over it); readers see a new inode and read it whole once.
//
// A line without its newline is a write still under way, or torn by a crash: readers leave it
// unread, and the next writer (holding the lock, so no write is under way) cuts it off before
// appending. A complete line that cannot be applied (not JSON, a record that fails its checks, a
// key created twice) is skipped and reported as a KeyLogProblem naming the file and the line, and
// every other line is applied: one bad line never stops a boot or a write, and never costs another
// key. A change of a key whose create line was skipped carries the whole record, so the key is
// taken from it. A skipped line stays in the file (a log holding one is never compacted, which
// would drop it) until the operator fixes or removes it. A file of today's earlier format (one JSON
// document, `{"version":1,"keys":[…]}`) still loads; the first write converts it to the log.

import { closeSync, fchmodSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { escapeUnprintable } from "../text/printable.js";
import { KeyStoreError, mailboxOf, validateKeyRecord, validateKeyStore, type KeyLookup, type KeyRecord } from "./key-records.js";

export const KEYS_LOG_FORMAT = "courtside-keys";
export const KEYS_LOG_VERSION = 2;
const HEADER_LINE = `${JSON.stringify({ format: KEYS_LOG_FORMAT, version: KEYS_LOG_VERSION })}\n`;
/** A log shorter than this is never compacted: rewriting a small file saves nothing. */
export const COMPACT_MIN_LINES = 1024;

export type KeyLogOp = "create" | "regenerate" | "revoke";

/** One line of the log: what happened, and the record as it stands afterwards. */
export interface KeyLogEntry {
  readonly op: KeyLogOp;
  readonly record: KeyRecord;
}

/** What one applied line changed: the record at `slot` before (none for a create) and after. */
export interface KeyLogChange {
  readonly slot: number;
  readonly before: KeyRecord | undefined;
  readonly after: KeyRecord;
}

/** A complete line that was not applied as written: `message` names the file and the line, for the operator's log. */
export interface KeyLogProblem {
  readonly line: number;
  readonly message: string;
  /** Skipped (its content is lost to the keys until it is fixed), rather than applied another way. */
  readonly isSkipped: boolean;
}

/**
 * What catchUp found: `replaced` when the whole file was (re)read, else the lines applied since the
 * last call; either way the lines among them that could not be applied as written.
 */
export type KeyLogUpdate =
  | { readonly kind: "replaced"; readonly problems: readonly KeyLogProblem[] }
  | { readonly kind: "changes"; readonly changes: readonly KeyLogChange[]; readonly problems: readonly KeyLogProblem[] };

const NO_CHANGES: KeyLogUpdate = { kind: "changes", changes: [], problems: [] };
const REPLACED_CLEANLY: KeyLogUpdate = { kind: "replaced", problems: [] };

/** A parsed line and where it was, for a problem found when it is applied. */
interface NumberedEntry {
  readonly entry: KeyLogEntry;
  readonly line: number;
}

type Format = "unread" | "missing" | "legacy" | "log";

/**
 * One reader's (and, under the lock, writer's) view of a keys file: its records in slot order and
 * the indexes the key operations need, kept current by catchUp().
 */
export class KeyLog implements KeyLookup {
  readonly file: string;
  #records: KeyRecord[] = [];
  #slotById = new Map<string, number>();
  #slotByDigest = new Map<string, number>();
  #activeIdsByMailbox = new Map<string, string[]>();
  #format: Format = "unread";
  #inode = -1;
  /** Bytes of the file applied so far (log format): the next read starts here. */
  #offset = 0;
  /** Record lines in the log since it was last written whole. */
  #lines = 0;
  /** The number of the next line to read (the header is line 1): problems name their line. */
  #nextLine = 1;
  /** Lines of the file as it is now that could not be applied as written (reset when it is read whole). */
  #problems: KeyLogProblem[] = [];
  /** Size and mtime of a legacy file when read: it is read again whole when either moves. */
  #legacyStamp = "";

  constructor(file: string) {
    this.file = file;
  }

  /** Records in slot order, revoked included. The array is this log's own: read it, never keep it across a catchUp. */
  get records(): readonly KeyRecord[] {
    return this.#records;
  }

  /** Every line of the file as read so far that could not be applied as written. */
  get problems(): readonly KeyLogProblem[] {
    return this.#problems;
  }

  /** Whether the file is still in the earlier single-document format (or absent): the next write rewrites it whole. */
  get isLog(): boolean {
    return this.#format === "log";
  }

  activeIdsFor(mailbox: string): readonly string[] {
    return this.#activeIdsByMailbox.get(mailbox) ?? [];
  }

  hasId(id: string): boolean {
    return this.#slotById.has(id);
  }

  slotOfDigest(digest: string): number | undefined {
    return this.#slotByDigest.get(digest);
  }

  /**
   * Brings this view up to the file: new complete lines are applied (a line that cannot be is
   * skipped and reported in the update), a replaced file (compaction, conversion, a hand edit) or
   * a legacy one that moved is read whole. Throws a KeyStoreError for an unreadable file, or a
   * legacy one that does not parse, having applied nothing of it.
   */
  catchUp(): KeyLogUpdate {
    let stats;
    try {
      stats = statSync(this.file);
    } catch (error) {
      if (!isErrnoException(error) || error.code !== "ENOENT") throw new KeyStoreError(`${this.file}: cannot read the keys file (${describe(error)})`);
      if (this.#format === "missing") return NO_CHANGES;
      this.#reset([], "missing", -1, 0, 0, "");
      return REPLACED_CLEANLY;
    }
    if (this.#format === "log" && stats.ino === this.#inode && stats.size >= this.#offset) {
      return stats.size === this.#offset ? NO_CHANGES : this.#readTail();
    }
    if (this.#format === "legacy" && stats.ino === this.#inode && `${stats.size}:${stats.mtimeMs}` === this.#legacyStamp) return NO_CHANGES;
    this.#readWhole();
    return { kind: "replaced", problems: this.#problems };
  }

  /**
   * Writes `entry` (already checked against the current records by the caller, who holds the
   * lock and has just called catchUp): appended as one line, or, for a legacy or absent file or a
   * log due for compaction, the whole store rewritten atomically with it.
   */
  write(entry: KeyLogEntry): void {
    this.#apply([{ entry, line: this.#nextLine }]);
    // A log holding a skipped line is never compacted: the rewrite would drop what it held.
    const isCompactionDue = this.#lines >= Math.max(COMPACT_MIN_LINES, 2 * this.#records.length) && !this.#problems.some((problem) => problem.isSkipped);
    try {
      if (this.#format !== "log" || isCompactionDue) this.#writeWhole();
      else this.#append(entry);
    } catch (error) {
      // The file may or may not hold the change: read it whole next time rather than guess.
      this.#format = "unread";
      throw new KeyStoreError(`${this.file}: cannot write the keys file (${describe(error)})`);
    }
  }

  /** Writes `records` as a fresh log (the rewrite of a compaction, a conversion, or a whole store given by a caller). */
  replaceWith(records: readonly KeyRecord[]): void {
    this.#reset([], "log", -1, 0, 0, "");
    this.#apply(records.map((record, i) => ({ entry: { op: "create", record }, line: i + 2 })));
    try {
      this.#writeWhole();
    } catch (error) {
      this.#format = "unread";
      throw new KeyStoreError(`${this.file}: cannot write the keys file (${describe(error)})`);
    }
  }

  #readTail(): KeyLogUpdate {
    const fd = openSync(this.file, "r");
    let bytes: Buffer;
    let read = 0;
    try {
      // Opened by name after the stat: a compaction renamed in between shows as another inode.
      const stats = fstatSync(fd);
      if (stats.ino !== this.#inode || stats.size < this.#offset) bytes = Buffer.alloc(0);
      else {
        bytes = Buffer.allocUnsafe(stats.size - this.#offset);
        while (read < bytes.length) {
          const n = readSync(fd, bytes, read, bytes.length - read, this.#offset + read);
          if (n === 0) break;
          read += n;
        }
      }
      if (stats.ino !== this.#inode || stats.size < this.#offset) read = -1;
    } finally {
      closeSync(fd);
    }
    if (read < 0) {
      this.#readWhole();
      return { kind: "replaced", problems: this.#problems };
    }
    const end = read === 0 ? -1 : bytes.lastIndexOf(0x0a, read - 1);
    if (end < 0) return NO_CHANGES;
    const parsed = parseLines(this.file, bytes.toString("utf8", 0, end + 1), this.#nextLine);
    const { changes, problems } = this.#apply(parsed.entries);
    const found = [...parsed.problems, ...problems].sort((a, b) => a.line - b.line);
    this.#problems.push(...found);
    this.#nextLine = parsed.nextLine;
    this.#offset += end + 1;
    return { kind: "changes", changes, problems: found };
  }

  #readWhole(): void {
    let fd: number;
    try {
      fd = openSync(this.file, "r");
    } catch (error) {
      if (isErrnoException(error) && error.code === "ENOENT") {
        this.#reset([], "missing", -1, 0, 0, "");
        return;
      }
      throw new KeyStoreError(`${this.file}: cannot read the keys file (${describe(error)})`);
    }
    let text: string;
    let stats;
    try {
      stats = fstatSync(fd);
      const bytes = Buffer.allocUnsafe(stats.size);
      let read = 0;
      while (read < bytes.length) {
        const n = readSync(fd, bytes, read, bytes.length - read, read);
        if (n === 0) break;
        read += n;
      }
      text = bytes.toString("utf8", 0, read);
    } catch (error) {
      throw new KeyStoreError(`${this.file}: cannot read the keys file (${describe(error)})`);
    } finally {
      closeSync(fd);
    }
    if (text.startsWith(HEADER_LINE)) {
      const end = text.lastIndexOf("\n") + 1;
      const parsed = parseLines(this.file, text.slice(HEADER_LINE.length, end), 2);
      this.#reset([], "log", stats.ino, end, 0, "");
      const { problems } = this.#apply(parsed.entries);
      this.#problems = [...parsed.problems, ...problems].sort((a, b) => a.line - b.line);
      this.#nextLine = parsed.nextLine;
      return;
    }
    if (text.trim() === "") {
      this.#reset([], "legacy", stats.ino, 0, 0, `${stats.size}:${stats.mtimeMs}`);
      return;
    }
    const records = parseLegacy(this.file, text);
    this.#reset([], "legacy", stats.ino, 0, 0, `${stats.size}:${stats.mtimeMs}`);
    this.#apply(records.map((record, i) => ({ entry: { op: "create", record }, line: i + 1 })));
  }

  #reset(records: KeyRecord[], format: Format, inode: number, offset: number, lines: number, legacyStamp: string): void {
    this.#records = records;
    this.#slotById = new Map();
    this.#slotByDigest = new Map();
    this.#activeIdsByMailbox = new Map();
    this.#format = format;
    this.#inode = inode;
    this.#offset = offset;
    this.#lines = lines;
    this.#legacyStamp = legacyStamp;
    this.#nextLine = 2;
    this.#problems = [];
  }

  /**
   * Applies entries already parsed, one after another. A create of a taken id is skipped (the key
   * already created keeps its record); a change of an id never created is applied as its create
   * (the line carries the whole record: a key whose create line was skipped is not lost).
   */
  #apply(entries: readonly NumberedEntry[]): { changes: KeyLogChange[]; problems: KeyLogProblem[] } {
    const changes: KeyLogChange[] = [];
    const problems: KeyLogProblem[] = [];
    for (const { entry: { op, record }, line } of entries) {
      let slot = this.#slotById.get(record.id);
      if (op === "create" && slot !== undefined) {
        problems.push(problemAt(this.file, line, `key ${record.id} is created twice (first on an earlier line)`, true));
        continue;
      }
      if (op !== "create" && slot === undefined) {
        problems.push(problemAt(this.file, line, `${op} of key ${record.id}, which was never created; the key is taken from this line, which carries its whole record`, false));
      }
      this.#lines++;
      const before = slot === undefined ? undefined : this.#records[slot];
      if (before !== undefined) {
        if (this.#slotByDigest.get(before.digest) === slot) this.#slotByDigest.delete(before.digest);
        if (before.revokedAt === undefined) this.#forgetActive(before);
      }
      if (slot === undefined) {
        slot = this.#records.length;
        this.#records.push(record);
        this.#slotById.set(record.id, slot);
      } else {
        this.#records[slot] = record;
      }
      this.#slotByDigest.set(record.digest, slot);
      if (record.revokedAt === undefined) {
        const mailbox = mailboxOf(record.email);
        const ids = this.#activeIdsByMailbox.get(mailbox);
        if (ids === undefined) this.#activeIdsByMailbox.set(mailbox, [record.id]);
        else ids.push(record.id);
      }
      changes.push({ slot, before, after: record });
    }
    return { changes, problems };
  }

  #forgetActive(record: KeyRecord): void {
    const mailbox = mailboxOf(record.email);
    const ids = this.#activeIdsByMailbox.get(mailbox);
    if (ids === undefined) return;
    const remaining = ids.filter((id) => id !== record.id);
    if (remaining.length === 0) this.#activeIdsByMailbox.delete(mailbox);
    else this.#activeIdsByMailbox.set(mailbox, remaining);
  }

  /** Appends one line (O_APPEND, one write, flushed), first cutting off a torn line left by a crash. */
  #append(entry: KeyLogEntry): void {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, "utf8");
    const fd = openSync(this.file, "a");
    try {
      const stats = fstatSync(fd);
      if (stats.ino !== this.#inode) throw new Error("the file was replaced while its lock was held");
      if (stats.size > this.#offset) ftruncateSync(fd, this.#offset);
      writeSync(fd, line);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.#offset += line.length;
    this.#nextLine += 1;
  }

  /**
   * Writes every record as a fresh log: a temporary file in the same directory (so the rename never
   * crosses file systems), flushed, then renamed over the old one, so a reader sees the old file or
   * the new one, never half of one. Mode 0600: digests are not keys, but the file says who holds keys.
   */
  #writeWhole(): void {
    const temporary = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    const parts = [HEADER_LINE];
    for (const record of this.#records) parts.push(`${JSON.stringify({ op: "create", record } satisfies KeyLogEntry)}\n`);
    const bytes = Buffer.from(parts.join(""), "utf8");
    let fd: number | undefined;
    try {
      fd = openSync(temporary, "wx", 0o600);
      // openSync's mode is filtered by the umask; fchmod makes 0600 exact whatever the umask.
      fchmodSync(fd, 0o600);
      writeSync(fd, bytes);
      fsyncSync(fd);
      const inode = fstatSync(fd).ino;
      closeSync(fd);
      fd = undefined;
      renameSync(temporary, this.file);
      this.#format = "log";
      this.#inode = inode;
      this.#offset = bytes.length;
      this.#lines = this.#records.length;
      this.#nextLine = this.#records.length + 2;
      this.#problems = [];
      this.#legacyStamp = "";
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      try {
        unlinkSync(temporary);
      } catch {
        // Nothing to clean up: the temporary file was never created or was already renamed.
      }
      throw error;
    }
  }
}

/**
 * Parses complete lines (each ending in a newline) of the log; `firstLine` numbers them. A line
 * that is not an entry is a problem (skipped), never a reason to refuse the others.
 */
function parseLines(file: string, text: string, firstLine: number): { entries: NumberedEntry[]; problems: KeyLogProblem[]; nextLine: number } {
  const entries: NumberedEntry[] = [];
  const problems: KeyLogProblem[] = [];
  let start = 0;
  let lineNumber = firstLine;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end < 0 ? text.length : end);
    start = end < 0 ? text.length : end + 1;
    const number = lineNumber++;
    if (line.trim() === "") continue;
    try {
      entries.push({ entry: parseEntry(file, line, `line ${number}`), line: number });
    } catch (error) {
      if (!(error instanceof KeyStoreError)) throw error;
      problems.push({ line: number, message: `${error.message}; ${SKIPPED}`, isSkipped: true });
    }
  }
  return { entries, problems, nextLine: lineNumber };
}

const SKIPPED = "the line is skipped and every other key kept (fix or remove it: until then the file is never compacted)";

function problemAt(file: string, line: number, reason: string, isSkipped: boolean): KeyLogProblem {
  return { line, message: `${file}: corrupt keys file: line ${line}: ${reason}${isSkipped ? `; ${SKIPPED}` : ""}`, isSkipped };
}

/** One line as an entry, or a KeyStoreError naming the line and what is wrong with it. */
function parseEntry(file: string, line: string, at: string): KeyLogEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new KeyStoreError(`${file}: corrupt keys file: ${at} is not valid JSON (${escapeUnprintable(describe(error))})`);
  }
  if (typeof parsed !== "object" || parsed === null) throw new KeyStoreError(`${file}: corrupt keys file: ${at} is not an object`);
  const { op, record } = parsed as { op?: unknown; record?: unknown };
  if (op !== "create" && op !== "regenerate" && op !== "revoke") throw new KeyStoreError(`${file}: corrupt keys file: ${at} has an unknown op ${escapeUnprintable(String(JSON.stringify(op)).slice(0, 100))}`);
  return { op, record: validateKeyRecord(file, `${at}.record`, record) };
}

function parseLegacy(file: string, text: string): readonly KeyRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new KeyStoreError(`${file}: the keys file is not valid JSON (${describe(error)})`);
  }
  return validateKeyStore(file, parsed).keys;
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
