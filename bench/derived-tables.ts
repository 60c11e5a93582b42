// What the derived tables cost in the file and at load (docs/design-decisions.md#derived-tables-one-mechanism):
// each demo edition (and, with a player count, a generated edition of that size) encoded with and
// without the `percentiles` section, and loaded (best of several) as build-index writes it and as a
// file written before the derived tables (no profileTables, profileIndex or percentiles), which
// loading derives once: by loadEdition (one thread) and by the supervisor's loadSnapshot.
// Usage: node dist/bench/derived-tables.js [players]   (prints one JSON line per edition)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSnapshotPayload } from "../src/pipeline/build-snapshot.js";
import { generateDemoEditions, generateScaleEdition } from "../src/pipeline/demo.js";
import { encodeSnapshot, writeSnapshotAtomic } from "../src/store/snapshot.js";
import { loadEdition } from "../src/store/derived-tables.js";
import { loadSnapshot } from "../src/store/editions.js";

const dir = mkdtempSync(join(tmpdir(), "courtside-derived-"));
const scale = Number(process.argv[2] ?? 0);
const sources = generateDemoEditions({ asOf: "2026-11-20" });
if (scale > 0) sources.push(generateScaleEdition({ players: scale, gameVersion: "2K99" }));

function bestMs(run: () => unknown, times: number): string {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best.toFixed(1);
}

try {
  for (const source of sources) {
    const payload = buildSnapshotPayload(source);
    const { percentiles: _percentiles, ...withoutPercentiles } = payload;
    const { profileTables: _tables, profileIndex: _index, ...older } = withoutPercentiles;
    const fileBytes = encodeSnapshot(payload).length;
    const withoutBytes = encodeSnapshot(withoutPercentiles).length;
    const key = payload.meta.gameVersion;
    const [stored, before] = [join(dir, `${key}-stored.msgpack`), join(dir, `${key}-older.msgpack`)];
    writeSnapshotAtomic(stored, payload);
    writeSnapshotAtomic(before, older);
    const times = payload.meta.playerCount > 10_000 ? 3 : 7;
    console.log(JSON.stringify({
      key, rows: payload.meta.playerCount, fileKiB: Math.round(fileBytes / 1024), percentilesKiB: Math.round((fileBytes - withoutBytes) / 1024),
      percentilesShare: `${((100 * (fileBytes - withoutBytes)) / withoutBytes).toFixed(1)} %`,
      loadEditionMs: { stored: bestMs(() => loadEdition(stored), times), older: bestMs(() => loadEdition(before), times) },
      loadSnapshotMs: { stored: bestMs(() => loadSnapshot(stored), times), older: bestMs(() => loadSnapshot(before), times) },
    }));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
