// The data directory a benchmark runs on, ready on a fresh clone: when it holds no snapshots the
// demo editions are built into it (what `npm start` does on first run, ~2 s); snapshots of an older format
// stop the benchmark with the one command that converts them.

import { mkdirSync } from "node:fs";
import { writeEdition } from "../src/pipeline/build-edition.js";
import { generateDemoEditions } from "../src/pipeline/demo.js";
import { SNAPSHOT_FORMAT_VERSION, UPGRADE_COMMAND, readSnapshotBytes, snapshotVersionOf } from "../src/store/snapshot.js";
import { snapshotFiles } from "../src/store/editions.js";

export function ensureDemoData(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const files = snapshotFiles(dir);
  if (files.length === 0) {
    const asOf = new Date().toISOString().slice(0, 10);
    process.stderr.write(`no snapshots in ${dir}: building the demo editions (npm run build-index)\n`);
    for (const source of generateDemoEditions({ asOf })) writeEdition(dir, source, asOf);
    return dir;
  }
  const old = files.find((file) => snapshotVersionOf(readSnapshotBytes(file)) !== SNAPSHOT_FORMAT_VERSION);
  if (old !== undefined) {
    process.stderr.write(`${old} is not a format-${SNAPSHOT_FORMAT_VERSION} snapshot: run \`${UPGRADE_COMMAND.replace("DIR", dir)}\` (or remove ${dir} to rebuild the demo editions)\n`);
    process.exit(1);
  }
  return dir;
}
