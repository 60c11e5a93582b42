// The `courtside` command line: one table of subcommands (serve, build-index, keys, sync), each with
// its usage text, run with the same flags and variables as its npm script. `--help` on any of
// them prints its usage; `--version` prints the package version. The single binary and `npm start`
// both come through here; only the entries (bin/courtside.ts, main.ts) touch process.

import { packageVersion } from "./assets.js";
import { BUILD_INDEX_USAGE, runBuildIndex } from "./data/build-index-cli.js";
import { KEYS_USAGE, runKeysCommand } from "./keys/cli.js";
import { KeyStoreError } from "./keys/key-store.js";
import { runServe, StartupError, type ServeRuntime } from "./serve.js";
import { runSyncCli, SYNC_USAGE } from "./sync/cli.js";

export interface CliContext {
  readonly env: NodeJS.ProcessEnv;
  readonly serve: ServeRuntime;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export interface CliCommand {
  readonly summary: string;
  readonly usage: string;
  /** Resolves to the exit code, or to undefined for a command that keeps running (serve). */
  run(argv: string[], context: CliContext): Promise<number | undefined> | number;
}

export const SERVE_USAGE = `usage: courtside serve [options]     (npm start -- [options])

Serves the snapshots in the data directory (building the demo editions there first when it has
none) and prints a demo API key once when the keys file has no active key. Every option is also
an environment variable; the flag wins.

  --port N            PORT            listen port (default 3000; 0 = any)
  --host ADDRESS      HOST            listen address (default 0.0.0.0)
  --data-dir DIR      DATA_DIR        snapshot directory (default data)
  --keys-file PATH    KEYS_FILE       key store (default keys.json)
  --workers N         WORKERS         worker threads (default 1)
  --log-level LEVEL   LOG_LEVEL       debug, info, warn, error, silent (default info)
  --cors-origins LIST CORS_ORIGINS    comma-separated origins, or *
  --cache-mb N        RESPONSE_CACHE_MB  response cache budget per worker (default 64)
  --metrics-port N    METRICS_PORT    Prometheus metrics port (default 9464; 0 = any)
  --trust-proxy LIST  TRUST_PROXY     reverse proxies (addresses, CIDRs) whose X-Forwarded-For
                                      names the client for per-address limits
  --registration open|closed  REGISTRATION  open: anyone may get a key (POST /api/register,
                                      /dashboard); closed: keys come from the keys command (default open)
                      BODY_TIMEOUT_MS a POST body must arrive within this time (default 10000)
  --redis-url URL     REDIS_URL       share keys, key rate limits and usage with other replicas
                                      through this Redis 7 (redis://host:port)`;

/** The subcommands. Adding one (e.g. `sync`) is one entry here. */
export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  serve: {
    summary: "serve the API (what npm start runs)",
    usage: SERVE_USAGE,
    run: async (argv, context) => {
      await runServe(argv, context.env, context.serve);
      return undefined;
    },
  },
  "build-index": {
    summary: "build the demo editions, or an edition from JSON/CSV files, into the data directory",
    usage: BUILD_INDEX_USAGE,
    run: (argv, context) => runBuildIndex(argv, { env: context.env, stderr: process.stderr }),
  },
  keys: {
    summary: "create, list, regenerate and revoke API keys",
    usage: KEYS_USAGE.replace("npm run keys --", "courtside keys"),
    run: (argv, context) => runKeysCommand(argv, {
      keysFile: context.env["KEYS_FILE"] || "keys.json",
      redisUrl: context.env["REDIS_URL"],
      now: () => new Date(),
      out: context.out,
      err: context.err,
    }),
  },
  sync: {
    summary: "copy every edition from a service that speaks this API into the data directory",
    usage: SYNC_USAGE,
    run: (argv, context) => runSyncCli(argv, context.env),
  },
};

function mainUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    "usage: courtside <command> [options]",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    "",
    "  courtside <command> --help   that command's options",
    "  courtside --version          the version",
  ].join("\n");
}

/** Runs one command line; the exit code, or undefined while a server keeps running. */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number | undefined> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    context.out(packageVersion());
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? context.err : context.out)(mainUsage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    context.err(`courtside: unknown command "${name}"\n\n${mainUsage()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    context.out(command.usage);
    return 0;
  }
  try {
    return await command.run(rest, context);
  } catch (error) {
    // A refusal to start is one line; anything else is a bug, and its stack helps.
    if (error instanceof StartupError || error instanceof KeyStoreError) {
      context.err(`courtside ${name}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
