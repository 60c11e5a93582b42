// courtside-client: the openapi-fetch client, typed by the service's own OpenAPI document
// (src/generated/openapi.ts, written at build time), with the API key header set, plus helpers for
// the common paths. Every helper returns the success envelope or throws a CourtsideError carrying
// the error envelope's code and message; nothing here knows a route the document does not.

import createFetchClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { liveEvents, type LiveEvent, type LiveOptions, type LiveTopic } from "./live.js";

export { LiveError, type ChangeEvent, type EditionMessage, type LiveEvent, type LiveOptions, type LiveSocket, type LiveSocketClass, type LiveTopic } from "./live.js";

export type { components, paths };
export type Player = components["schemas"]["Player"];
export type PlayerFields = components["schemas"]["PlayerFields"];
/** The summary fields: a subset of Player (search answers full records: docs/compatibility.md#fidelity-rules). */
export type SummaryPlayer = components["schemas"]["SummaryPlayer"];
export type ErrorCode = components["schemas"]["ErrorCode"];

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type SuccessOf<O> = O extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;
/** A page whose rows are full records: what the list routes answer when `fields` is not given. */
type FullRows<B> = Omit<B, "data"> & { data: Player[] };

export type PlayersQuery = QueryOf<Operation<"/api/players", "get">>;
export type PlayersPage = SuccessOf<Operation<"/api/players", "get">>;
export type SearchQuery = QueryOf<Operation<"/api/players/search", "get">>;
export type SearchResult = SuccessOf<Operation<"/api/players/search", "get">>;
export type PlayerQuery = QueryOf<Operation<"/api/players/slug/{slug}", "get">>;
export type PlayerResult = SuccessOf<Operation<"/api/players/slug/{slug}", "get">>;
export type BulkQuery = QueryOf<Operation<"/api/players/bulk", "get">>;
export type BulkResult = SuccessOf<Operation<"/api/players/bulk", "get">>;
/** The formats of GET /api/players/bulk's exports (docs/exports.md). */
export type ExportFormat = "csv" | "parquet" | "arrow";
export type BatchBody = NonNullable<Operation<"/api/players/batch", "post">["requestBody"]>["content"]["application/json"];
export type BatchResult = SuccessOf<Operation<"/api/players/batch", "post">>;
export type SimilarQuery = QueryOf<Operation<"/api/players/{id}/similar", "get">>;
export type SimilarResult = SuccessOf<Operation<"/api/players/{id}/similar", "get">>;
export type PercentilesQuery = QueryOf<Operation<"/api/players/{id}/percentiles", "get">>;
export type PercentilesResult = SuccessOf<Operation<"/api/players/{id}/percentiles", "get">>;
export type CompareQuery = QueryOf<Operation<"/api/players/compare", "get">>;
export type CompareResult = SuccessOf<Operation<"/api/players/compare", "get">>;
export type TeamProfileQuery = QueryOf<Operation<"/api/teams/{teamName}/profile", "get">>;
export type TeamProfileResult = SuccessOf<Operation<"/api/teams/{teamName}/profile", "get">>;

/** An answer outside 2xx/304, as the error envelope says it (or `UNEXPECTED_RESPONSE` when there is none). */
export class CourtsideError extends Error {
  override readonly name = "CourtsideError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "UNEXPECTED_RESPONSE",
    message: string,
    readonly details: Record<string, unknown> | undefined,
    /** Seconds, from the Retry-After header of a 429. */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** Where the service is, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** Sent as `X-API-Key`; routes without a key (versions, the documents) work without it. */
  apiKey?: string;
  /** On a 429, wait for its `Retry-After` and send the request once more (default false). */
  retryOnRateLimit?: boolean;
  /** Longer waits than this are not waited for: the 429 is thrown at once (default 60). */
  maxRetryAfterSeconds?: number;
  /** How to wait (tests inject one); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** The fetch to use; default the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface CourtsideHelpers {
  /** GET /api/players: one page; with no `fields`, every row is a full record. */
  players(query?: PlayersQuery & { fields?: never }): Promise<FullRows<PlayersPage>>;
  players(query: PlayersQuery): Promise<PlayersPage>;
  /** GET /api/players/search: ranked, typo-tolerant name search. */
  search(q: string, options?: Omit<SearchQuery, "q">): Promise<SearchResult>;
  /** GET /api/players/slug/{slug}: one player in full, with hot zones and rating history. */
  player(slug: string, options?: PlayerQuery): Promise<PlayerResult>;
  /**
   * GET /api/players/bulk, revalidated: the ETag of each query's last answer is kept in memory and
   * sent as If-None-Match; a 304 returns the very object the last 200 did (and costs no token).
   */
  bulk(query?: BulkQuery & { fields?: never }): Promise<FullRows<BulkResult>>;
  bulk(query: BulkQuery): Promise<BulkResult>;
  /**
   * GET /api/players/bulk as a file: CSV, Parquet or an Arrow IPC stream (docs/exports.md), one flat
   * row per player, the same filters as bulk(). Its bytes, for a CSV parser, hyparquet, DuckDB or Arrow.
   */
  exportBulk(format: ExportFormat, query?: Omit<BulkQuery, "format" | "fields">): Promise<ArrayBuffer>;
  /** POST /api/players/batch: resolve up to 100 names (and slugs, with `options.slugs`). */
  batch(names: readonly string[], options?: Omit<BatchBody, "names">): Promise<BatchResult>;
  /** GET /api/players/{id}/similar: the closest attribute profiles to one player's (`id`: _id or slug). */
  similar(id: string, options?: SimilarQuery): Promise<SimilarResult>;
  /** GET /api/players/{id}/percentiles: where one player (`id`: _id or slug) stands in its era and position (`cohort`: position, era, all), per attribute, group and overall. */
  percentiles(id: string, options?: PercentilesQuery): Promise<PercentilesResult>;
  /** GET /api/players/compare: two to four players (ids or slugs) side by side. */
  compare(ids: readonly string[], options?: Omit<CompareQuery, "ids">): Promise<CompareResult>;
  /** GET /api/teams/{teamName}/profile: a roster's means, bests, group ranks, badges and positions. */
  teamProfile(teamName: string, options?: TeamProfileQuery): Promise<TeamProfileResult>;
  /**
   * GET /api/live: change events (and `edition` messages) of the topics, as an async iterator;
   * replays after `options.since` first, and reconnects from the last event seen when dropped.
   */
  live(topics: readonly LiveTopic[], options: LiveOptions): AsyncIterableIterator<LiveEvent>;
}

export type CourtsideClient = Client<paths> & CourtsideHelpers;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function toError(response: Response, body: unknown): CourtsideError {
  const retryAfter = response.headers.get("retry-after");
  const seconds = retryAfter === null ? undefined : Number(retryAfter);
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (typeof error?.code === "string" && typeof error.message === "string") {
    return new CourtsideError(response.status, error.code as ErrorCode, error.message, error.details as Record<string, unknown> | undefined, seconds);
  }
  return new CourtsideError(response.status, "UNEXPECTED_RESPONSE", `HTTP ${response.status} without an error envelope`, undefined, seconds);
}

/** The envelope of a success, or the error envelope thrown. */
function unwrap<T>({ data, error, response }: Answer<T>): T {
  if (!response.ok || data === undefined) throw toError(response, error);
  return data;
}

/** A fetch that, when asked to, waits out one 429's Retry-After and tries once more. */
function retryingFetch(options: ClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  if (options.retryOnRateLimit !== true) return send;
  const maxSeconds = options.maxRetryAfterSeconds ?? 60;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request) => {
    // A body can be read once: keep a copy for the second attempt.
    const again = request.clone();
    const response = await send(request);
    if (response.status !== 429) return response;
    const seconds = Number(response.headers.get("retry-after"));
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > maxSeconds) return response;
    await response.body?.cancel();
    await sleep(seconds * 1000);
    return send(again);
  };
}

export function createClient(options: ClientOptions): CourtsideClient {
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.apiKey === undefined ? {} : { headers: { "X-API-Key": options.apiKey } }),
    fetch: retryingFetch(options),
  });
  const bulkCache = new Map<string, { etag: string; body: BulkResult }>();

  const helpers: CourtsideHelpers = {
    async players(query: PlayersQuery = {}) {
      return unwrap(await client.GET("/api/players", { params: { query } })) as FullRows<PlayersPage>;
    },
    async search(q, options = {}) {
      return unwrap(await client.GET("/api/players/search", { params: { query: { ...options, q } } }));
    },
    async player(slug, options = {}) {
      return unwrap(await client.GET("/api/players/slug/{slug}", { params: { path: { slug }, query: options } }));
    },
    async bulk(query: BulkQuery = {}) {
      const key = JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)));
      const kept = bulkCache.get(key);
      const answer = await client.GET("/api/players/bulk", {
        params: { query, ...(kept === undefined ? {} : { header: { "If-None-Match": kept.etag } }) },
      });
      if (answer.response.status === 304 && kept !== undefined) return kept.body as FullRows<BulkResult>;
      const body = unwrap(answer) as BulkResult;
      const etag = answer.response.headers.get("etag");
      if (etag !== null) bulkCache.set(key, { etag, body });
      return body as FullRows<BulkResult>;
    },
    async exportBulk(format, query = {}) {
      const answer = await client.GET("/api/players/bulk", { params: { query: { ...query, format } }, parseAs: "arrayBuffer" });
      return unwrap(answer as Answer<ArrayBuffer>);
    },
    async batch(names, options = {}) {
      return unwrap(await client.POST("/api/players/batch", { body: { ...options, names: [...names] } }));
    },
    async similar(id, options = {}) {
      return unwrap(await client.GET("/api/players/{id}/similar", { params: { path: { id }, query: options } }));
    },
    async percentiles(id, options = {}) {
      return unwrap(await client.GET("/api/players/{id}/percentiles", { params: { path: { id }, query: options } }));
    },
    async compare(ids, options = {}) {
      return unwrap(await client.GET("/api/players/compare", { params: { query: { ...options, ids: ids.join(",") } } }));
    },
    async teamProfile(teamName, options = {}) {
      return unwrap(await client.GET("/api/teams/{teamName}/profile", { params: { path: { teamName }, query: options } }));
    },
    live(topics, liveOptions) {
      return liveEvents(options.baseUrl, options.apiKey, topics, liveOptions);
    },
  };
  return Object.assign(client, helpers);
}
