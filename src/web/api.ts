// How the service's own pages (explore/, dashboard/) call its API: relative URLs (a page works
// behind a proxy that mounts the service under a prefix), the key held in this module's memory
// only (never in a URL, a cookie or storage), and every failure (the error envelope, an answer
// that is not JSON, no answer at all) turned into an Error whose message a person can read.

/** The envelope of a successful answer; `meta` as the route documents it. */
export interface Success<Data, Meta = Record<string, unknown>> {
  success: true;
  data: Data;
  meta: Meta;
}

interface Failure {
  success: false;
  error: { code: string; message: string };
}

/** A refusal by the API: its message and code, as the error envelope gives them. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(message: string, code: string, status: number) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
  }
}

export interface CallOptions {
  method?: "GET" | "POST" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  /** Send the key (default); routes that need none (register, the edition list) say false. */
  withKey?: boolean;
  /** For answers that must be fresh (a key's usage): the browser's cache is skipped. */
  isFresh?: boolean;
}

let apiKey = "";

/** Holds `key` for the calls that follow (an empty one forgets it). */
export function useKey(key: string): void {
  apiKey = key.trim();
}

export function hasKey(): boolean {
  return apiKey !== "";
}

/** The text of any error for the page: the API's message and code, or what went wrong on the way. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * One call: the success envelope, or an ApiError with the envelope's message; an answer that is
 * not the envelope (a proxy's error page) and a network failure become plain Errors saying so.
 */
export async function call<Data, Meta = Record<string, unknown>>(path: string, options: CallOptions = {}): Promise<Success<Data, Meta>> {
  const withKey = options.withKey ?? true;
  if (withKey && apiKey === "") throw new Error("Paste your API key (or register for one) first.");
  const headers: Record<string, string> = {};
  if (withKey) headers["X-API-Key"] = apiKey;
  const init: RequestInit = { method: options.method ?? "GET", headers, credentials: "omit" };
  if (options.isFresh === true) init.cache = "no-store";
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Error(`The service could not be reached (${error instanceof Error ? error.message : String(error)}).`);
  }
  // The boundary: the body is taken as the route's OpenAPI document describes it, once it is an envelope.
  let payload: Partial<Success<Data, Meta> | Failure> | null = null;
  try {
    payload = (await response.json()) as Partial<Success<Data, Meta> | Failure> | null;
  } catch {
    // Not JSON: said below.
  }
  if (payload?.success === true) return payload as Success<Data, Meta>;
  if (payload?.success === false && payload.error !== undefined) throw new ApiError(payload.error.message, payload.error.code, response.status);
  throw new Error(`The service answered ${response.status} ${response.statusText} without its JSON envelope.`);
}
