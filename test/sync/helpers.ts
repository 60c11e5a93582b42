// Shared by the sync tests: a Courtside over an existing data directory, the sync command with
// its output captured, and a fingerprint of a whole directory (to prove a failure touched nothing).

import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.js";
import { startService, type Service } from "../../src/app/service.js";
import { runSyncCli, type SyncCliIo } from "../../src/sync/cli.js";
import { createKey } from "../../src/keys/key-operations.js";

export interface Courtside {
  service: Service;
  base: string;
  key: string;
  json(path: string): Promise<{ status: number; body: any }>;
  close(): void;
}

/** The real service on port 0 over `dataDir` (reloads only when a test calls reload.check()). */
export async function startCourtside(dataDir: string): Promise<Courtside> {
  const keysDir = mkdtempSync(join(tmpdir(), "courtside-sync-keys-"));
  const keysFile = join(keysDir, "keys.json");
  const { key } = createKey(keysFile, { email: "sync@example.com", now: new Date(), rateLimit: 100_000 });
  const config = loadConfig([], { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, KEYS_FILE: keysFile });
  const service = await startService(config, { reloadIntervalMs: 3_600_000 });
  const base = `http://127.0.0.1:${service.port}`;
  return {
    service, base, key,
    async json(path) {
      // Uncompressed: comparing answers needs no brotli work from either service.
      const response = await fetch(base + path, { headers: { "x-api-key": key, "accept-encoding": "identity" } });
      return { status: response.status, body: await response.json() };
    },
    close() {
      service.close();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}

/** Runs the command as `npm run sync` would, the key in the environment; returns the exit code and everything printed. */
export async function runSync(args: string[], key: string, io: Partial<SyncCliIo> = {}): Promise<{ code: number; output: string }> {
  let output = "";
  const code = await runSyncCli(args, { COURTSIDE_SYNC_KEY: key }, {
    stderr: { write: (text: string) => { output += text; return true; }, isTTY: false },
    backoffMs: 5,
    ...io,
  });
  return { code, output };
}

/** Every file's name, size and SHA-256, sorted: equal exactly when the directory is byte for byte the same. */
export function fingerprint(dir: string): string {
  const hash = createHash("sha256");
  const walk = (path: string, name: string): void => {
    if (statSync(path).isDirectory()) {
      hash.update(`dir ${name}\n`);
      for (const entry of readdirSync(path).sort()) walk(join(path, entry), `${name}/${entry}`);
      return;
    }
    const bytes = readFileSync(path);
    hash.update(`file ${name} ${bytes.length} `).update(bytes).update("\n");
  };
  walk(dir, ".");
  return hash.digest("hex");
}

/** Request counts by route and status between two stats snapshots of a service. */
export function requestsSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [key, count] of Object.entries(after)) {
    const added = count - (before[key] ?? 0);
    if (added > 0) delta[key.replace("\u0000", " ")] = added;
  }
  return delta;
}
