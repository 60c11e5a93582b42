// `npm run bench:keys`: what key writes cost other clients. A keys file of KEYS keys (100,000 by
// default); one client sends keyed requests one after another, first at rest, then while another
// client regenerates keys in a loop over HTTP. Prints each phase's latency percentiles and the
// p99 ratio (target: within 2×).
//
// Env: KEYS (100000), SECONDS per phase (5), WORKERS (2), POOL keys regenerated round-robin (2000:
// each key's owner bucket allows 30 owner requests a minute), DATA_DIR (data).

import { mkdtempSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDemoData } from "./demo-data.js";
import { startServerProcess } from "./server-process.js";
import { digestKey, generateKey, type KeyRecord } from "../src/keys/key-records.js";
import { writeKeyStore } from "../src/keys/key-file.js";

const KEYS = Number(process.env.KEYS ?? 100_000);
const SECONDS = Number(process.env.SECONDS ?? 5);
const WORKERS = Number(process.env.WORKERS ?? 2);
const POOL = Math.min(Number(process.env.POOL ?? 2_000), KEYS - 1);
const PATH = "/api/teams";

function buildKeysFile(file: string): { measured: string; pool: string[] } {
  const createdAt = new Date().toISOString();
  const records: KeyRecord[] = [];
  const pool: string[] = [];
  let measured = "";
  for (let i = 0; i < KEYS; i++) {
    const key = generateKey();
    const id = `k_${i.toString(16).padStart(8, "0")}`;
    records.push({ id, digest: digestKey(key), email: `holder${i}@example.com`, rateLimit: 1_000_000_000, createdAt });
    if (i === 0) measured = key;
    else if (pool.length < POOL) pool.push(key);
  }
  writeKeyStore(file, { version: 1, keys: records });
  return { measured, pool };
}

interface Phase {
  readonly requests: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

async function measure(base: string, key: string, seconds: number): Promise<Phase> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(base + PATH, { headers: { "x-api-key": key } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${PATH} answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { requests: latencies.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: latencies[latencies.length - 1] ?? Number.NaN };
}

/** Regenerates pool keys round-robin, one request at a time, until stopped; returns how many succeeded. */
function regenerateLoop(base: string, pool: string[]): { stop(): Promise<number> } {
  let isStopping = false;
  let done = 0;
  const running = (async () => {
    for (let i = 0; !isStopping; i = (i + 1) % pool.length) {
      const response = await fetch(`${base}/api/keys/regenerate`, { method: "POST", headers: { "x-api-key": pool[i] as string } });
      const body = (await response.json()) as { data?: { apiKey?: string } };
      if (!response.ok || body.data?.apiKey === undefined) throw new Error(`regenerate answered ${response.status}: ${JSON.stringify(body)}`);
      pool[i] = body.data.apiKey;
      done++;
    }
  })();
  return {
    stop: async () => {
      isStopping = true;
      await running;
      return done;
    },
  };
}

const dataDir = ensureDemoData(process.env.DATA_DIR ?? "data");
const keysFile = join(mkdtempSync(join(tmpdir(), "courtside-key-writes-")), "keys.json");
const built = performance.now();
const { measured, pool } = buildKeysFile(keysFile);
process.stderr.write(`keys file of ${KEYS} keys written in ${Math.round(performance.now() - built)} ms\n`);
const server = await startServerProcess({ dataDir, workers: WORKERS, env: { KEYS_FILE: keysFile } });
try {
  const base = `http://127.0.0.1:${server.port}`;
  await measure(base, measured, 1);
  const rest = await measure(base, measured, SECONDS);
  const loop = regenerateLoop(base, pool);
  const started = performance.now();
  const during = await measure(base, measured, SECONDS);
  const regenerations = await loop.stop();
  const rate = regenerations / ((performance.now() - started) / 1000);
  const row = (name: string, phase: Phase): string =>
    `| ${name} | ${phase.requests} | ${phase.p50.toFixed(2)} | ${phase.p90.toFixed(2)} | ${phase.p99.toFixed(2)} | ${phase.max.toFixed(1)} |`;
  console.log(`${KEYS} keys, ${WORKERS} workers, ${SECONDS} s per phase, GET ${PATH} one at a time; ${cpus().length} × ${cpus()[0]?.model ?? "?"}, Node ${process.version}`);
  console.log("| phase | requests | p50 ms | p90 ms | p99 ms | max ms |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(row("at rest", rest));
  console.log(row(`during regenerations (${Math.round(rate)}/s)`, during));
  console.log(`p99 during / at rest: ${(during.p99 / rest.p99).toFixed(2)}× (target ≤ 2×)`);
} finally {
  await server.stop();
}
