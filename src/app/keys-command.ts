// The keys command (`npm run keys -- …`, `courtside keys …`: the CLI table in cli.ts runs it):
// parses arguments, runs one key-store operation, prints the result. It touches no process state:
// runKeysCommand gets everything injected.

import { parseArgs } from "node:util";
import { escapeUnprintable } from "../text/printable.js";
import { KeyLog } from "../keys/key-log.js";
import { KEYS_USAGE } from "../usage.js";
import { KeyStoreError, toKeyInfo, type IssuedKey, type KeyInfo } from "../keys/key-records.js";
import { createKey, regenerateKey, revokeKey, withNewKey, withRegeneratedKey, withRevokedKey, type CreateKeyOptions, type KeyOperationOptions } from "../keys/key-operations.js";

export interface KeysCommandEnv {
  /** The keys file when no --keys-file is given (cli.ts passes $KEYS_FILE, else keys.json). */
  readonly keysFile: string;
  /** With a Redis URL ($REDIS_URL) the command works on the key store in Redis, not the file. */
  readonly redisUrl?: string | undefined;
  readonly now: () => Date;
  /** One call per block of output; runProcess (cli.ts) adds its line break. */
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const COMMANDS = {
  create: ["email", "name", "rate-limit"],
  list: [],
  regenerate: ["key"],
  revoke: ["key"],
} as const satisfies Record<string, readonly string[]>;
type Command = keyof typeof COMMANDS;

const OPTIONS = {
  email: { type: "string" },
  name: { type: "string" },
  "rate-limit": { type: "string" },
  key: { type: "string" },
  json: { type: "boolean" },
  "keys-file": { type: "string" },
  "redis-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;
// Accepted by every command.
const COMMON_OPTIONS: ReadonlySet<string> = new Set(["json", "keys-file", "redis-url", "help"]);

/** Raised for a malformed command line; turned into the usage text and exit code 2. */
class UsageError extends Error {}

/** Runs the keys command; returns the process exit code (0 done, 1 failed, 2 usage). */
export async function runKeysCommand(argv: string[], env: KeysCommandEnv): Promise<number> {
  try {
    return await run(argv, env);
  } catch (error) {
    if (error instanceof UsageError) {
      env.err(`${error.message}\n\n${KEYS_USAGE}`);
      return EXIT_USAGE;
    }
    if (error instanceof KeyStoreError) {
      env.err(error.message);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

/** Where the command's operations go: the keys file, or the key store in Redis. */
interface KeyStoreTarget {
  create(options: CreateKeyOptions): IssuedKey | Promise<IssuedKey>;
  list(): KeyInfo[] | Promise<KeyInfo[]>;
  regenerate(options: KeyOperationOptions): IssuedKey | Promise<IssuedKey>;
  revoke(options: KeyOperationOptions): KeyInfo | Promise<KeyInfo>;
  readonly where: string;
  close(): void;
}

/** The keys file; a line of it that cannot be applied is skipped and named on stderr (`warn`), the command still runs. */
function fileTarget(file: string, warn: (text: string) => void): KeyStoreTarget {
  const log = new KeyLog(file);
  const reported = new Set<number>();
  const warned = <T>(result: T): T => {
    for (const problem of log.problems) {
      if (reported.has(problem.line)) continue;
      reported.add(problem.line);
      warn(`warning: ${problem.message}`);
    }
    return result;
  };
  return {
    create: (options) => warned(createKey(file, options, log)),
    list: () => {
      log.catchUp();
      return warned(log.records.map(toKeyInfo));
    },
    regenerate: (options) => warned(regenerateKey(file, options, log)),
    revoke: (options) => warned(revokeKey(file, options, log)),
    where: file,
    close: () => {},
  };
}

async function redisTarget(url: string): Promise<KeyStoreTarget> {
  // Loaded only with a Redis URL, like everything Redis.
  const { RedisLink } = await import("../redis/link.js");
  const { readRedisKeys, updateRedisKeys, REDIS_WHERE } = await import("../redis/redis-keys.js");
  const link = new RedisLink(url);
  if (!(await link.waitShared(3_000))) {
    link.close();
    throw new KeyStoreError(`cannot reach Redis at ${url.replace(/\/\/[^@/]*@/, "//…@")}; nothing was changed`);
  }
  const { client } = link;
  return {
    create: (options) => updateRedisKeys(client, (store) => withNewKey(store, options)),
    list: async () => (await readRedisKeys(client)).store.keys.map(toKeyInfo),
    regenerate: (options) => updateRedisKeys(client, (store) => withRegeneratedKey(store, REDIS_WHERE, options)),
    revoke: (options) => updateRedisKeys(client, (store) => withRevokedKey(store, REDIS_WHERE, options)),
    where: REDIS_WHERE,
    close: () => link.close(),
  };
}

async function run(argv: string[], env: KeysCommandEnv): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs reports unknown options and missing option values as TypeErrors.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    env.out(KEYS_USAGE);
    return EXIT_OK;
  }
  const [commandName, ...extra] = positionals;
  if (commandName === undefined) throw new UsageError("Missing command.");
  if (!isCommand(commandName)) throw new UsageError(`Unknown command "${commandName}".`);
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);
  const allowed: readonly string[] = COMMANDS[commandName];
  for (const option of Object.keys(values)) {
    if (!COMMON_OPTIONS.has(option) && !allowed.includes(option)) throw new UsageError(`${commandName} does not take --${option}.`);
  }

  const redisUrl = values["redis-url"] ?? env.redisUrl;
  const target = redisUrl === undefined || redisUrl === "" ? fileTarget(values["keys-file"] ?? env.keysFile, env.err) : await redisTarget(redisUrl);
  try {
    return await runOn(target, commandName, values, env);
  } finally {
    target.close();
  }
}

async function runOn(target: KeyStoreTarget, commandName: Command, values: { email?: string | undefined; name?: string | undefined; "rate-limit"?: string | undefined; key?: string | undefined; json?: boolean | undefined }, env: KeysCommandEnv): Promise<number> {
  const isJson = values.json === true;
  switch (commandName) {
    case "create": {
      if (values.email === undefined) throw new UsageError("create needs --email.");
      const issued = await target.create({
        email: values.email,
        name: values.name,
        rateLimit: parseRateLimit(values["rate-limit"]),
        now: env.now(),
      });
      env.out(isJson ? issuedJson(issued) : issuedText("Created", issued));
      return EXIT_OK;
    }
    case "list": {
      const records = await target.list();
      env.out(isJson ? JSON.stringify(records.map(listEntry)) : listTable(target.where, records));
      return EXIT_OK;
    }
    case "regenerate": {
      if (values.key === undefined) throw new UsageError("regenerate needs --key.");
      const issued = await target.regenerate({ key: values.key, now: env.now() });
      env.out(isJson ? issuedJson(issued) : issuedText("Regenerated", issued));
      return EXIT_OK;
    }
    case "revoke": {
      if (values.key === undefined) throw new UsageError("revoke needs --key.");
      const record = await target.revoke({ key: values.key, now: env.now() });
      env.out(isJson ? JSON.stringify({ revoked: record.id }) : `Revoked key ${record.id} (${escapeUnprintable(record.email)}).`);
      return EXIT_OK;
    }
  }
}

function isCommand(name: string): name is Command {
  return Object.hasOwn(COMMANDS, name);
}

function parseRateLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  // Digits only: Number() would accept "1e3", "0x10" and " 5 ", none of which anyone means here.
  if (!/^[0-9]+$/.test(text)) throw new UsageError(`--rate-limit must be a whole number of requests per hour, got "${text}".`);
  return Number(text);
}

function issuedJson({ key, record }: IssuedKey): string {
  return JSON.stringify({ key, ...record });
}

function issuedText(verb: "Created" | "Regenerated", { key, record }: IssuedKey): string {
  const label = record.name === undefined ? "" : ` "${escapeUnprintable(record.name)}"`;
  return [
    `${verb} key ${record.id}${label} for ${escapeUnprintable(record.email)}, ${record.rateLimit} requests per hour.`,
    ...(verb === "Regenerated" ? ["The old key no longer works; a running server refuses it within a second."] : []),
    "",
    `  ${key}`,
    "",
    "Store it now: this key cannot be shown again (only its SHA-256 digest is kept).",
  ].join("\n");
}

function status(record: KeyInfo): string {
  return record.revokedAt === undefined ? "active" : `revoked ${record.revokedAt}`;
}

function listEntry(record: KeyInfo): KeyInfo & { status: "active" | "revoked" } {
  return { ...record, status: record.revokedAt === undefined ? "active" : "revoked" };
}

function listTable(file: string, records: readonly KeyInfo[]): string {
  if (records.length === 0) return `No keys in ${file}.`;
  const rows = [
    ["ID", "EMAIL", "NAME", "RATE LIMIT", "CREATED", "STATUS"],
    // Records may come from a file edited by hand or written before such characters were refused:
    // printed escaped, a name can neither forge a row nor clear the screen.
    ...records.map((record) => [record.id, record.email, record.name ?? "-", String(record.rateLimit), record.createdAt, status(record)].map(escapeUnprintable)),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd()).join("\n");
}
