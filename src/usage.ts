// The usage texts of the commands, apart from their code: the command line prints any of them
// without loading every command's modules (serve boots without the importers, the generator and
// the sync client; boot time counts).

export const SERVE_USAGE = `usage: courtside serve [options]     (npm start -- [options])

Serves the snapshots in the data directory (building the demo editions there first when it has
none) and prints a demo API key once when the keys file has no active key. Every option is also
an environment variable; the flag wins.

  --port N            PORT            listen port (default 3000; 0 = any)
  --host ADDRESS      HOST            listen address (default 0.0.0.0)
  --data-dir DIR      DATA_DIR        snapshot directory (default data)
  --keys-file PATH    KEYS_FILE       key store (default keys.json)
  --workers N         WORKERS         worker threads (default 1)
  --log-level LEVEL   LOG_LEVEL       debug, info, warn, error, silent (default info)
  --cors-origins LIST CORS_ORIGINS    comma-separated origins, or *
  --cache-mb N        RESPONSE_CACHE_MB  response cache budget per worker (default 64)
  --metrics-port N    METRICS_PORT    Prometheus metrics port (default PORT + 6464: 9464; 0 = any)
  --metrics-host ADDRESS  METRICS_HOST  where the metrics port listens (default 127.0.0.1)
  --ipv6-prefix N     IPV6_PREFIX     IPv6 clients are limited per this prefix (default 64)
  --trust-proxy LIST  TRUST_PROXY     reverse proxies (addresses, CIDRs) whose X-Forwarded-For
                                      names the client for per-address limits
  --registration open|closed  REGISTRATION  open: anyone may get a key (POST /api/register,
                                      /dashboard); closed: keys come from the keys command (default open)
                      BODY_TIMEOUT_MS a POST body must arrive within this time (default 10000)
  --max-snapshot-mb N MAX_SNAPSHOT_MB a snapshot file larger than this is refused unread (default: a
                                      quarter of memory, at most 8192; build-index and sync honour it too)
  --redis-url URL     REDIS_URL       share keys, key rate limits and usage with other replicas
                                      through this Redis 7 (redis://host:port)`;

export const BUILD_INDEX_USAGE = `usage: build-index [--out DIR] [--as-of YYYY-MM-DD]
       build-index --edition 2K26 --status current|archived --input FILE [--input FILE …] [--out DIR] [--as-of YYYY-MM-DD]
       build-index --scale N [--edition 2K99] [--out DIR]
       build-index --upgrade DIR
Snapshots already in the directory larger than $MAX_SNAPSHOT_MB are refused unread.`;

export const SYNC_KEY_VARIABLE = "COURTSIDE_SYNC_KEY";
export const DEFAULT_MAX_WAIT_SECONDS = 300;
/** The sync's bounds (src/sync/sync.ts SYNC_DEFAULTS says the same in ms and bytes). */
export const DEFAULT_SYNC_MAX_ANSWER_MB = 64;
export const DEFAULT_SYNC_READ_TIMEOUT_SECONDS = 60;
export const DEFAULT_SYNC_DEADLINE_SECONDS = 900;

export const SYNC_USAGE = `usage: sync --from URL [--key K] [--edition 2K26 …] [--out DIR] [--as-of YYYY-MM-DD] [--max-wait SECONDS]
            [--max-answer-mb N] [--read-timeout SECONDS] [--deadline SECONDS]
  --from      root address of a service that speaks this API (the hosted one, or another Courtside)
  --key       its API key; better: set ${SYNC_KEY_VARIABLE}, so the key stays out of process lists
  --edition   copy only this edition (repeatable); default every edition the source lists
  --out       data directory to write; default $DATA_DIR, else data
  --as-of     the day that dates the current edition's weekly snapshot; default today (UTC)
  --max-wait  longest total wait for rate limits (429 Retry-After), in seconds; default ${DEFAULT_MAX_WAIT_SECONDS}
  --max-answer-mb  largest answer, in MiB after decompression (every answer together: 4 times it);
              default ${DEFAULT_SYNC_MAX_ANSWER_MB}, or $COURTSIDE_SYNC_MAX_ANSWER_MB
  --read-timeout   a read that brings no byte for this many seconds fails (and is retried);
              default ${DEFAULT_SYNC_READ_TIMEOUT_SECONDS}, or $COURTSIDE_SYNC_READ_TIMEOUT
  --deadline  the whole sync stops after this many seconds, waits and retries included;
              default ${DEFAULT_SYNC_DEADLINE_SECONDS}, or $COURTSIDE_SYNC_DEADLINE
  Snapshots already in --out larger than $MAX_SNAPSHOT_MB are refused unread.`;

export const KEYS_USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  create --email ADDRESS [--name NAME] [--rate-limit N]
                      create a key (at most 3 active keys per e-mail address);
                      N requests per hour, default 500
  list                list keys: id, e-mail, name, rate limit, created, status
  regenerate --key KEY
                      replace a key under the same id; the old key stops working
  revoke --key KEY    revoke a key

Options:
  --json              print JSON (create and regenerate: one object whose "key" is the new key)
  --keys-file PATH    the keys file (default: $KEYS_FILE, else keys.json)
  --redis-url URL     work on the key store in Redis instead (default: $REDIS_URL);
                      every running replica sees the change within a second
  -h, --help          show this text`;

export const MCP_USAGE = `usage: mcp [--data-dir DIR]
  The Model Context Protocol over stdio (docs/mcp.md): the player tools, answering from the data
  directory itself (no server, no key). An assistant starts it; stdout carries the protocol only.
  --data-dir  the data directory; default $DATA_DIR, else data`;
