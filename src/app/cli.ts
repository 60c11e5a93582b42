// The `courtside` command line: one table of subcommands (serve, build-index, keys, sync), each with
// its usage text, run with the same flags and variables as its npm script. `--help` on any of
// them prints its usage; `--version` prints the package version, then the Node and uWS versions. The single binary and
// every npm script come through here: the entries (main.ts under Node, binary.ts in the binary) call runProcess, the
// one function here that touches process; runCli gets everything injected (the tests call it).

import { packageVersion } from "../assets.js";
import { adapterLabel, chooseAdapter } from "../http/adapter.js";
import { runServe, StartupError, type ServeRuntime } from "./serve.js";
import { BUILD_INDEX_USAGE, KEYS_USAGE, MCP_USAGE, SERVE_USAGE, SYNC_USAGE } from "../usage.js";
import { KeyStoreError } from "../keys/key-records.js";

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

/** The subcommands. Adding one (e.g. `sync`) is one entry here; each loads its modules when it runs. */
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
    run: async (argv, context) => (await import("../pipeline/build-index-cli.js")).runBuildIndex(argv, { env: context.env, stderr: process.stderr }),
  },
  keys: {
    summary: "create, list, regenerate and revoke API keys",
    usage: KEYS_USAGE.replace("npm run keys --", "courtside keys"),
    run: async (argv, context) => (await import("./keys-command.js")).runKeysCommand(argv, {
      keysFile: context.env["KEYS_FILE"] || "keys.json",
      redisUrl: context.env["REDIS_URL"],
      now: () => new Date(),
      out: context.out,
      err: context.err,
    }),
  },
  mcp: {
    summary: "the MCP tools over stdio, reading the data directory itself (for AI assistants; docs/mcp.md)",
    usage: MCP_USAGE,
    run: async (argv, context) => (await import("./mcp-stdio.js")).runMcpStdio(argv, context.env, context.err),
  },
  sync: {
    summary: "copy every edition from a service that speaks this API into the data directory",
    usage: SYNC_USAGE,
    run: async (argv, context) => (await import("../sync/cli.js")).runSyncCli(argv, context.env),
  },
};

/** The second line of --version: the Node running and the HTTP adapter serve would use (HTTP_ADAPTER honoured). */
function runtimeVersions(): string {
  const forced = process.env["HTTP_ADAPTER"];
  try {
    const choice = chooseAdapter({ forced: forced === "uws" || forced === "node" ? forced : undefined });
    return `Node ${process.version}, ${adapterLabel(choice)}${choice.fallbackReason === undefined ? "" : ` (no uWebSockets.js addon loads: ${choice.fallbackReason})`}`;
  } catch (error) {
    return `Node ${process.version}, no uWebSockets.js addon: ${(error as Error).message}`;
  }
}

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
    context.out(`${packageVersion()}\n${runtimeVersions()}`);
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

/**
 * One command line as a process runs it: the process's environment and streams, then its exit
 * code (a server keeps running: no exit). `mcp` speaks its protocol on stdout, so what it says
 * besides goes to stderr. A refused start may leave a log stream or a closing socket behind: the
 * process exits rather than wait for them.
 */
export async function runProcess(argv: readonly string[], serve: ServeRuntime): Promise<void> {
  const out = argv[0] === "mcp" ? process.stderr : process.stdout;
  let code: number | undefined;
  try {
    code = await runCli(argv, {
      env: process.env,
      serve,
      out: (text) => out.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    });
  } catch (error) {
    process.stderr.write(`courtside: ${String((error as Error)?.stack ?? error)}\n`);
    code = 1;
  }
  if (code !== undefined) process.exit(code);
}
