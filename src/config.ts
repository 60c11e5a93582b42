// Environment and flags → one frozen Config. Flags win over the environment. Every refusal is a
// ConfigError with a one-line message naming the variable or flag.

import { parseArgs } from "node:util";
import { maxSnapshotBytesOf } from "./store/snapshot-limit.js";
import { DEFAULT_IPV6_PREFIX, parseTrustProxy, type ProxyTrust } from "./limits/trust-proxy.js";
import { LIVE_MAX_TOPICS, type LiveBudget } from "./limits/live-budget.js";
import { DEFAULT_MAX_HEADERS_KB } from "./limits/request-head.js";

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly keysFile: string;
  readonly workers: number;
  readonly logLevel: "debug" | "info" | "warn" | "error" | "silent";
  readonly corsOrigins: readonly string[];
  /**
   * MCP_ALLOWED_ORIGINS: the browser origins (`https://app.example`, or `*`) whose requests POST /mcp
   * answers besides loopback pages' (http://localhost, 127.0.0.1, [::1]); any other Origin is 403.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** Response cache budget in bytes; 0 turns the cache off. */
  readonly responseCacheBytes: number;
  readonly maxBodyBytes: number;
  /** MAX_HEADERS_KB: the largest request head (request line and headers) served; larger ones get 431 (uws.ts). */
  readonly maxHeadersKb: number;
  readonly bodyTimeoutMs: number;
  /** Prometheus metrics, aggregated across workers, on their own port (0 = any free port): METRICS_PORT, else PORT + METRICS_PORT_OFFSET. */
  readonly metricsPort: number;
  /** True when METRICS_PORT was not given and metricsPort follows PORT (a refusal says so). */
  readonly metricsPortFollowsPort: boolean;
  /** Where the metrics port listens: loopback unless METRICS_HOST widens it (metrics are for the operator, not the world). */
  readonly metricsHost: string;
  /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed; undefined = the header is ignored. */
  readonly trustProxy: ProxyTrust | undefined;
  /** IPv6 clients are limited per this many leading bits of their address (IPV6_PREFIX, default 64). */
  readonly ipv6Prefix: number;
  /** open: anyone may register for a key (POST /api/register, /dashboard); closed: keys come from the operator's command line. */
  readonly registration: "open" | "closed";
  /** Redis shared by several replicas (keys, rate limits, usage); undefined: this process alone. */
  readonly redisUrl: string | undefined;
  /** GET /api/live: open WebSocket connections one key may hold, across every worker. */
  readonly liveConnectionsPerKey: number;
  /** GET /api/live: bytes waiting to be sent to one socket before it is closed (1013) as not reading. */
  readonly liveMaxBufferedBytes: number;
  /** GET /api/live: what one connection may spend a minute (messages, topics added, full replays). */
  readonly liveBudget: LiveBudget;
  /** HTTP_ADAPTER: uws or node forces one; undefined: uWS where its addon loads, else node (src/http/adapter.ts). */
  readonly httpAdapter: "uws" | "node" | undefined;
  /** MAX_SNAPSHOT_MB: a snapshot file larger than this is refused before it is read (default: a quarter of memory, at most 8 GiB). */
  readonly maxSnapshotBytes: number;
}

/** The flags `serve` takes (each also an environment variable); shown by `courtside serve --help`. */
export const SERVE_OPTIONS = {
  port: { type: "string" }, host: { type: "string" }, "data-dir": { type: "string" }, "keys-file": { type: "string" },
  workers: { type: "string" }, "log-level": { type: "string" }, "cors-origins": { type: "string" }, "cache-mb": { type: "string" },
  "metrics-port": { type: "string" }, "metrics-host": { type: "string" }, "trust-proxy": { type: "string" }, "ipv6-prefix": { type: "string" }, registration: { type: "string" }, "redis-url": { type: "string" },
  "max-snapshot-mb": { type: "string" },
} as const;

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

export class ConfigError extends Error {}

/**
 * Where the metrics listen when METRICS_PORT is not set: PORT + 6464 (3000 → 9464, Prometheus's
 * usual exporter port), so a second instance on another PORT gets its own metrics port; any free
 * port (0) when PORT is 0 or the sum is past 65535.
 */
export const METRICS_PORT_OFFSET = 6464;

export function metricsPortOf(port: number): number {
  return port === 0 || port + METRICS_PORT_OFFSET > 65535 ? 0 : port + METRICS_PORT_OFFSET;
}

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  let values: ReturnType<typeof parseArgs<{ args: string[]; options: typeof SERVE_OPTIONS; strict: true }>>["values"];
  try {
    ({ values } = parseArgs({ args: [...argv], options: SERVE_OPTIONS, strict: true }));
  } catch (error) {
    // parseArgs reports an unknown flag or a missing value as a TypeError with a one-line message.
    throw new ConfigError((error as Error).message);
  }
  const integer = (name: string, text: string | undefined, fallback: number, min: number, max: number): number => {
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not ${text}`);
    return value;
  };
  const logLevel = (values["log-level"] ?? env.LOG_LEVEL ?? "info") as Config["logLevel"];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not ${logLevel}`);
  const cors = values["cors-origins"] ?? env.CORS_ORIGINS ?? "";
  const mcpAllowedOrigins = parseOrigins(env.MCP_ALLOWED_ORIGINS ?? "");
  const registration = values.registration ?? env.REGISTRATION ?? "open";
  if (registration !== "open" && registration !== "closed") throw new ConfigError(`REGISTRATION must be open or closed, not ${registration}`);
  const redisUrl = values["redis-url"] ?? env.REDIS_URL ?? "";
  if (redisUrl !== "" && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, not ${redisUrl}`);
  const httpAdapter = env.HTTP_ADAPTER ?? "";
  if (httpAdapter !== "" && httpAdapter !== "uws" && httpAdapter !== "node") throw new ConfigError(`HTTP_ADAPTER must be uws or node (or unset: uws where its addon loads), not ${httpAdapter}`);
  let maxSnapshotBytes: number;
  try {
    maxSnapshotBytes = maxSnapshotBytesOf(values["max-snapshot-mb"] ?? env.MAX_SNAPSHOT_MB);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const port = integer("PORT", values.port ?? env.PORT, 3000, 0, 65535);
  const metricsPortText = values["metrics-port"] ?? env.METRICS_PORT;
  const metricsPortFollowsPort = metricsPortText === undefined || metricsPortText === "";
  return Object.freeze({
    host: values.host ?? env.HOST ?? "0.0.0.0",
    port,
    dataDir: values["data-dir"] ?? env.DATA_DIR ?? "data",
    keysFile: values["keys-file"] ?? env.KEYS_FILE ?? "keys.json",
    workers: integer("WORKERS", values.workers ?? env.WORKERS, 1, 1, 64),
    logLevel,
    corsOrigins: cors.split(",").map((origin) => origin.trim()).filter((origin) => origin.length > 0),
    mcpAllowedOrigins,
    responseCacheBytes: integer("RESPONSE_CACHE_MB", values["cache-mb"] ?? env.RESPONSE_CACHE_MB, 64, 0, 65536) * 1024 * 1024,
    maxBodyBytes: 64 * 1024,
    maxHeadersKb: integer("MAX_HEADERS_KB", env.MAX_HEADERS_KB, DEFAULT_MAX_HEADERS_KB, 4, 256),
    bodyTimeoutMs: integer("BODY_TIMEOUT_MS", env.BODY_TIMEOUT_MS, 10_000, 100, 600_000),
    metricsPort: integer("METRICS_PORT", metricsPortText, metricsPortOf(port), 0, 65535),
    metricsPortFollowsPort,
    metricsHost: values["metrics-host"] ?? env.METRICS_HOST ?? "127.0.0.1",
    ipv6Prefix: integer("IPV6_PREFIX", values["ipv6-prefix"] ?? env.IPV6_PREFIX, DEFAULT_IPV6_PREFIX, 16, 128),
    trustProxy: parseTrustProxy(values["trust-proxy"] ?? env.TRUST_PROXY ?? "", (reason) => new ConfigError(`TRUST_PROXY ${reason}`)),
    registration,
    redisUrl: redisUrl === "" ? undefined : redisUrl,
    liveConnectionsPerKey: integer("LIVE_CONNECTIONS_PER_KEY", env.LIVE_CONNECTIONS_PER_KEY, 20, 1, 1_000_000),
    liveMaxBufferedBytes: integer("LIVE_MAX_BUFFERED_KB", env.LIVE_MAX_BUFFERED_KB, 1024, 16, 1_048_576) * 1024,
    liveBudget: Object.freeze({
      messagesPerMinute: integer("LIVE_MESSAGES_PER_MINUTE", env.LIVE_MESSAGES_PER_MINUTE, 30, 1, 1_000_000),
      // At least one whole subscription's worth: a connection can always subscribe once.
      topicsPerMinute: integer("LIVE_TOPICS_PER_MINUTE", env.LIVE_TOPICS_PER_MINUTE, 300, LIVE_MAX_TOPICS, 1_000_000),
      replaysPerMinute: integer("LIVE_REPLAYS_PER_MINUTE", env.LIVE_REPLAYS_PER_MINUTE, 1, 1, 1_000_000),
    }),
    maxSnapshotBytes,
    httpAdapter: httpAdapter === "" ? undefined : httpAdapter,
  });
}

/**
 * MCP_ALLOWED_ORIGINS: comma-separated origins, each `scheme://host[:port]` as a browser sends it
 * in Origin (kept in that serialised form, so `https://App.Example:443` matches
 * `https://app.example`), or `*`. A path, a query or a scheme other than http(s) is refused.
 */
function parseOrigins(text: string): readonly string[] {
  const origins: string[] = [];
  for (const entry of text.split(",").map((part) => part.trim()).filter((part) => part.length > 0)) {
    if (entry === "*") {
      origins.push(entry);
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
      throw new ConfigError(`MCP_ALLOWED_ORIGINS entry "${entry}" is not an origin: give scheme://host[:port] (https://app.example), or *`);
    }
    origins.push(url.origin);
  }
  return origins;
}
