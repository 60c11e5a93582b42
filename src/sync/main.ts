// `npm run sync`: the sync command as a process (src/sync/cli.ts holds the command itself).

import { runSyncCli } from "./cli.js";

process.exitCode = await runSyncCli(process.argv.slice(2), process.env);
