// The request-head limit's default (MAX_HEADERS_KB): the configuration reads it, and the uWS
// adapter applies it on both builds (src/http/uws.ts).

/** MAX_HEADERS_KB's default: Node's own http server's limit. */
export const DEFAULT_MAX_HEADERS_KB = 16;
