// Starts the real service on port 0 over a fixture data directory, with a key and a movable clock.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeEdition } from "../../src/pipeline/build-edition.js";
import { loadConfig } from "../../src/config.js";
import { startService, type Service } from "../../src/app/service.js";
import type { EditionSource } from "../../src/model/player.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { createKey } from "../../src/keys/key-operations.js";

export interface Harness {
  service: Service;
  base: string;
  key: string;
  dir: string;
  clock: { now: number };
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  json(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): void;
}

export function fixtureEditions(): EditionSource[] {
  const current = randomEdition(400, 21);
  const archived = { ...randomEdition(300, 22, "archived"), gameVersion: "2K26" };
  return [current, archived];
}

export async function startHarness(options: { sources?: EditionSource[]; rateLimit?: number; env?: Record<string, string>; reloadIntervalMs?: number } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "courtside-test-"));
  const dataDir = join(dir, "data");
  const keysFile = join(dir, "keys.json");
  mkdirSync(dataDir);
  for (const source of options.sources ?? fixtureEditions()) writeEdition(dataDir, source, "2026-11-20");
  const { key } = createKey(keysFile, { email: "test@example.com", now: new Date(), rateLimit: options.rateLimit ?? 100_000 });
  const clock = { now: Date.parse("2026-11-22T12:00:00Z") };
  // HTTP_ADAPTER (uws or node) from the run's environment: the same tests over either adapter (issue 41).
  const adapter = process.env["HTTP_ADAPTER"] === undefined ? {} : { HTTP_ADAPTER: process.env["HTTP_ADAPTER"] };
  const config = loadConfig([], { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, KEYS_FILE: keysFile, ...adapter, ...options.env });
  // Reloads happen when a test calls reload.check(), unless it asks for the poll.
  const service = await startService(config, { now: () => clock.now, reloadIntervalMs: options.reloadIntervalMs ?? 3_600_000 });
  const base = `http://127.0.0.1:${service.port}`;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers: { "x-api-key": key, ...headers } });
  return {
    service, base, key, dir, clock, get,
    async json(path, headers) {
      const response = await get(path, headers);
      return { status: response.status, body: await response.json(), headers: response.headers };
    },
    close() {
      service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Raw HTTP/1.1 over a socket, for what fetch will not send (bad encodings, odd methods). */
export async function rawRequest(port: number, request: string): Promise<{ status: number; head: string; body: string }> {
  const { connect } = await import("node:net");
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return;
      const head = data.slice(0, end);
      // A HEAD response declares the GET's length but sends no body.
      const length = request.startsWith("HEAD ") ? 0 : Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (data.length >= end + 4 + length) {
        socket.end();
        resolve({ status: Number(head.split(" ")[1]), head, body: data.slice(end + 4, end + 4 + length) });
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: 0, head: "", body: data }));
    socket.setTimeout(5000, () => { socket.destroy(); reject(new Error("timeout")); });
  });
}
