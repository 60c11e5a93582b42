// Starts nginx or Caddy with the shipped config (deploy/nginx.conf, deploy/Caddyfile) on free
// loopback ports in front of a service the test started: only the ports in the file change.
// Plain node:http requests (no decompression, a chosen source address) and raw sockets.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const DEPLOY = fileURLToPath(new URL("../../deploy/", import.meta.url));

export type ProxyKind = "nginx" | "caddy";

/** Why the proxy cannot run here (its Debian package is missing), or undefined. */
export function missingProxy(kind: ProxyKind): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${kind}`], { encoding: "utf8" });
  if (found.status === 0) return undefined;
  return `${kind} is not installed (Debian package ${kind === "nginx" ? "nginx-light" : "caddy"}; .ci/run installs it)`;
}

import { freePort } from "../fixtures/free-port.js";

export { freePort };

export interface Proxy {
  readonly port: number;
  readonly base: string;
  /** The shipped file with only its ports changed, as run. */
  readonly config: string;
  close(): Promise<void>;
}

/** The shipped config with the service port (3000), the listen port (80) and Caddy's admin port (2019) replaced. */
export function substitutedConfig(kind: ProxyKind, ports: { service: number; listen: number; admin: number }): string {
  const shipped = readFileSync(join(DEPLOY, kind === "nginx" ? "nginx.conf" : "Caddyfile"), "utf8");
  const config = kind === "nginx"
    ? shipped.replace("server 127.0.0.1:3000;", `server 127.0.0.1:${ports.service};`).replace("listen 80;", `listen ${ports.listen};`)
    : shipped.replace("reverse_proxy 127.0.0.1:3000", `reverse_proxy 127.0.0.1:${ports.service}`).replace(/^:80 \{/m, `:${ports.listen} {`).replace("admin localhost:2019", `admin localhost:${ports.admin}`);
  const changed = config.split("\n").filter((line, i) => line !== shipped.split("\n")[i]);
  if (changed.length !== (kind === "nginx" ? 2 : 3)) throw new Error(`the ${kind} config no longer has the ports this test substitutes: ${changed.join(" | ")}`);
  return config;
}

export async function startProxy(kind: ProxyKind, servicePort: number): Promise<Proxy> {
  const dir = mkdtempSync(join(tmpdir(), `courtside-${kind}-`));
  const port = await freePort();
  const config = substitutedConfig(kind, { service: servicePort, listen: port, admin: await freePort() });
  let child: ChildProcess;
  let log = "";
  if (kind === "nginx") {
    writeFileSync(join(dir, "courtside.conf"), config);
    for (const sub of ["body", "proxy"]) mkdirSync(join(dir, sub));
    // The main file a distribution's nginx.conf provides, with everything in the test's directory.
    writeFileSync(join(dir, "nginx.conf"), [
      ...(process.getuid?.() === 0 ? ["user root;"] : []),
      "worker_processes 1;", "daemon off;", `pid ${join(dir, "nginx.pid")};`, "error_log stderr warn;",
      "events { worker_connections 256; }",
      `http { access_log off; client_body_temp_path ${join(dir, "body")}; proxy_temp_path ${join(dir, "proxy")}; include ${join(dir, "courtside.conf")}; }`,
    ].join("\n"));
    child = spawn("nginx", ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  } else {
    writeFileSync(join(dir, "Caddyfile"), config);
    child = spawn("caddy", ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, "config"), XDG_DATA_HOME: join(dir, "data") },
    });
  }
  child.stdout?.on("data", (chunk) => { log += chunk; });
  child.stderr?.on("data", (chunk) => { log += chunk; });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${kind} exited at start: ${log}`);
    try {
      if ((await send(`${base}/health`)).status === 200) break;
    } catch { /* not listening yet */ }
    if (Date.now() - started > 20_000) {
      child.kill("SIGKILL");
      throw new Error(`${kind} did not answer /health: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port, base, config,
    async close() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Sent { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** One request by node:http: bodies as sent (never decompressed); `localAddress` picks the source address. */
export function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers ?? {}, agent: false, ...(options.localAddress ? { localAddress: options.localAddress } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(8_000, () => req.destroy(new Error(`no answer from ${url} within 8 s`)));
    req.end(options.body);
  });
}

/** Raw bytes over a socket, read until the peer closes: for requests node:http will not send (HTTP/1.0, `_` in a name). */
export function sendRaw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => { data += chunk; });
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
    // uWS would leave such a request unanswered for its 10 s idle timeout: 5 s means "no prompt answer".
    socket.setTimeout(5_000, () => { socket.destroy(); resolve(data); });
  });
}
