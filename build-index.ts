// The offline index build step (`npm run build-index`, `courtside build-index`; the usage is in
// src/usage.ts): the build-index command of the one command line (src/app/cli.ts).

import { runProcess } from "./src/app/cli.js";

await runProcess(["build-index", ...process.argv.slice(2)], { workerEntry: () => new URL("./src/app/worker-main.js", import.meta.url) });
