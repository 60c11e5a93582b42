// Offline index build step (`npm run build-index`): see src/pipeline/build-index-cli.ts for the usage.

import { runBuildIndex } from "./src/pipeline/build-index-cli.js";

process.exitCode = runBuildIndex(process.argv.slice(2));
