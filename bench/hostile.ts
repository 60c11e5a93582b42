// Issue 40's socket attacks against the real server (WORKERS=1, demo data): an honest client asks
// GET /api/players?limit=20 every 100 ms and its p99 is measured quiet, then during each attack,
// side by side in one run. The attacker runs in a child process of its own (this file with
// `attack <kind> <port> <key>`), so what it does never delays the measuring process.
//   pipeline  two sockets each write 20,000 × GET / in one write, again as soon as they are closed
//   unread    ten sockets pipeline 64 × GET /api/players?limit=100 (keyed) batch after batch and never read
//   exports   32 distinct filtered CSV exports of one key in flight at all times (each new one uncached)
//   slowloris 2,000 sockets each send a request head one byte every 2 s and never end it (reopened when cut)
// Usage: npm run bench:hostile [-- --seconds 20] [--only <kind>]; HTTP_ADAPTER=node|uws chooses the server's adapter.

import { fork } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { ensureDemoData } from "./demo-data.js";
import { startServerProcess } from "./server-process.js";

const KINDS = ["pipeline", "unread", "exports", "slowloris"] as const;
type Kind = (typeof KINDS)[number];

if (process.argv[2] === "attack") {
  const [, , , kind, port, key] = process.argv as [string, string, string, Kind, string, string];
  attack(kind, Number(port), key);
} else {
  await main();
}

function attack(kind: Kind, port: number, key: string): void {
  let sent = 0;
  process.on("SIGTERM", () => {
    process.stdout.write(JSON.stringify({ kind, sent }) + "\n");
    process.exit(0);
  });
  if (kind === "pipeline") {
    const payload = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".repeat(20_000);
    const open = () => {
      const socket = connect(port, "127.0.0.1", () => { socket.write(payload); sent += 20_000; });
      socket.on("data", () => undefined);
      socket.on("error", () => undefined);
      socket.on("close", () => setTimeout(open, 5));
    };
    open();
    open();
  } else if (kind === "unread") {
    const batch = `GET /api/players?limit=100 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`.repeat(64);
    const open = () => {
      const socket = connect(port, "127.0.0.1");
      socket.pause();
      const next = () => {
        if (socket.destroyed) return;
        sent += 64;
        socket.write(batch, () => setImmediate(next));
      };
      socket.on("connect", next);
      socket.on("error", () => undefined);
      socket.on("close", () => setTimeout(open, 5));
    };
    for (let i = 0; i < 10; i++) open();
  } else if (kind === "slowloris") {
    const head = `GET /api/players?limit=20 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Slow: `;
    const open = () => {
      const socket = connect(port, "127.0.0.1");
      let at = 0;
      const drip = setInterval(() => {
        if (socket.destroyed) return;
        socket.write(at < head.length ? (head[at] as string) : "a");
        at++;
        sent++;
      }, 2_000);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearInterval(drip);
        setTimeout(open, 50);
      });
    };
    for (let i = 0; i < 2_000; i++) open();
  } else {
    let n = 0;
    const one = () => {
      // A query no earlier request asked: never in the response cache.
      const i = n++;
      const path = `/api/players/bulk?format=csv&minRating=${40 + (i % 40)}&maxRating=${99 - Math.floor(i / 40) % 40}`;
      sent += 1;
      fetch(`http://127.0.0.1:${port}${path}`, { headers: { "x-api-key": key } })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined)
        .finally(one);
    };
    for (let i = 0; i < 32; i++) one();
  }
}

async function honest(port: number, key: string, seconds: number): Promise<{ p50: number; p99: number; max: number; n: number; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const inFlight: Promise<void>[] = [];
  while (Date.now() < end) {
    const started = performance.now();
    inFlight.push(fetch(`http://127.0.0.1:${port}/api/players?limit=20`, { headers: { "x-api-key": key } })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) errors++;
        times.push(performance.now() - started);
      })
      .catch(() => { errors++; }));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await Promise.all(inFlight);
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN) * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), max: at(1), n: times.length, errors };
}

async function main(): Promise<void> {
  const secondsFlag = process.argv.indexOf("--seconds");
  const seconds = secondsFlag === -1 ? 20 : Number(process.argv[secondsFlag + 1]);
  const dataDir = ensureDemoData(process.env.DATA_DIR ?? "data");
  const server = await startServerProcess({ dataDir, workers: 1, otherKeys: [1_000_000_000] });
  const honestKey = server.otherKeys[0] as string;
  console.log(JSON.stringify({ node: process.version, adapter: process.env.HTTP_ADAPTER ?? "chosen at start (uWS where its addon loads)", load: (await import("node:os")).loadavg()[0] }));
  const rows: Record<string, unknown>[] = [];
  try {
    await honest(server.port, honestKey, 2);
    const quiet = await honest(server.port, honestKey, seconds);
    rows.push({ phase: "quiet", ...quiet });
    console.log(JSON.stringify(rows.at(-1)));
    const onlyFlag = process.argv.indexOf("--only");
    for (const kind of onlyFlag === -1 ? KINDS : KINDS.filter((one) => one === process.argv[onlyFlag + 1])) {
      const attacker = fork(fileURLToPath(import.meta.url), ["attack", kind, String(server.port), server.key], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
      let report = "";
      attacker.stdout?.on("data", (chunk) => { report += chunk; });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const during = await honest(server.port, honestKey, seconds);
      attacker.kill("SIGTERM");
      await new Promise((resolve) => attacker.on("exit", resolve));
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(await import("node:fs").then((fs) => fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8")))?.[1] ?? 0);
      rows.push({ phase: kind, ...during, serverRssMiB: Math.round(rssKb / 1024), attacker: report.trim() });
      console.log(JSON.stringify(rows.at(-1)));
      // Let the server settle (closed sockets, finished exports) before the next attack.
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  } finally {
    await server.stop();
  }
  console.log(`| phase | honest p50 ms | p99 ms | max ms | answers | errors |\n|---|---|---|---|---|---|`);
  for (const row of rows) console.log(`| ${row.phase} | ${row.p50} | ${row.p99} | ${row.max} | ${row.n} | ${row.errors} |`);
}
