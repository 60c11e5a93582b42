// The one table of error codes with their HTTP status and default message. Handlers throw
// ApiError; exactly one place (the HTTP funnel) turns it into an envelope.

/** Where a 401 says a key comes from. */
export const GET_A_KEY = "Get a key on the /dashboard page or with POST /api/register (or from this server's operator)";

export const ERROR_TABLE = {
  UNKNOWN_PARAMETERS: { status: 400, message: "Unknown query parameters" },
  INVALID_PARAMETER: { status: 400, message: "Invalid parameter value" },
  MISSING_PARAMETER: { status: 400, message: "A required parameter is missing" },
  INVALID_VERSION: { status: 400, message: "Invalid game version: use 2K followed by two digits, e.g. 2K26" },
  INVALID_ID: { status: 400, message: "Not a player id: ids are 1–64 characters of A–Z, a–z, 0–9, _ and -" },
  INVALID_JSON: { status: 400, message: "The request body is not valid JSON" },
  VALIDATION_ERROR: { status: 400, message: "The request body does not have the expected shape" },
  TOO_MANY_IDENTIFIERS: { status: 400, message: "At most 100 names and slugs per batch" },
  KEY_LIMIT_EXCEEDED: { status: 400, message: "This e-mail address already holds the most active keys allowed (3); revoke one first" },
  MISSING_API_KEY: { status: 401, message: `An API key is required: send it in the X-API-Key header. ${GET_A_KEY}` },
  INVALID_API_KEY: { status: 401, message: `The API key is invalid. ${GET_A_KEY}` },
  REGISTRATION_CLOSED: { status: 403, message: "Registration is closed on this server: ask its operator for a key" },
  ORIGIN_NOT_ALLOWED: { status: 403, message: "Requests from this web page's origin are refused (MCP_ALLOWED_ORIGINS)" },
  VERSION_NOT_FOUND: { status: 404, message: "No such game version" },
  PLAYER_NOT_FOUND: { status: 404, message: "Player not found" },
  TEAM_NOT_FOUND: { status: 404, message: "Team not found" },
  BADGE_NOT_FOUND: { status: 404, message: "Badge not found" },
  NOT_FOUND: { status: 404, message: "No such route" },
  METHOD_NOT_ALLOWED: { status: 405, message: "Method not allowed on this route" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "The request body is too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "The request body must be application/json" },
  HEADERS_TOO_LARGE: { status: 431, message: "The request head (request line and headers) is larger than this server accepts (MAX_HEADERS_KB)" },
  UPGRADE_REQUIRED: { status: 426, message: "This route is a WebSocket: send a WebSocket upgrade (Upgrade: websocket)" },
  RATE_LIMIT_EXCEEDED: { status: 429, message: "Rate limit exceeded" },
  TOO_MANY_CONNECTIONS: { status: 429, message: "This key holds the most live connections allowed; close one first" },
  REGISTRATION_RATE_LIMIT: { status: 429, message: "Too many registrations from this address; try again later" },
  INTERNAL_ERROR: { status: 500, message: "Internal error" },
  SERVICE_UNAVAILABLE: { status: 503, message: "The service is shutting down" },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export class ApiError extends Error {
  readonly status: number;
  constructor(readonly code: ErrorCode, readonly details?: Record<string, unknown>, message?: string) {
    super(message ?? ERROR_TABLE[code].message);
    this.name = "ApiError";
    this.status = ERROR_TABLE[code].status;
  }
}

export function invalidParameter(parameter: string, value: unknown, reason: string, allowed?: readonly unknown[]): ApiError {
  return new ApiError(
    "INVALID_PARAMETER",
    { parameter, value, reason, ...(allowed ? { allowed } : {}) },
    `Invalid value for ${parameter}: ${reason}`,
  );
}
