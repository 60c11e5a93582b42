// Which browser origins a route that checks them (POST /mcp) answers: the Streamable HTTP
// transport says a server MUST validate Origin and answer 403 to one that is not allowed, so a
// web page cannot use a browser to reach a server it should not (DNS rebinding: evil.example
// resolving to 127.0.0.1 sends `Host: evil.example` and `Origin: http://evil.example`, so a
// match of Origin against Host proves nothing). Allowed: no Origin (not a browser), a loopback
// page's (http(s)://localhost, 127.0.0.0/8, [::1], any port), and MCP_ALLOWED_ORIGINS (or `*`).

import { ApiError } from "../query/api-error.js";

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Throws 403 ORIGIN_NOT_ALLOWED unless `origin` ("" when absent) may call the route. */
export function checkOrigin(origin: string, allowed: readonly string[]): void {
  if (origin.length === 0 || allowed.includes(origin) || allowed.includes("*")) return;
  if (isLoopbackOrigin(origin)) return;
  throw new ApiError("ORIGIN_NOT_ALLOWED", { origin: origin.slice(0, 200) },
    `Requests from the web page at ${origin.slice(0, 200)} are refused: /mcp answers browser pages of this machine (localhost) and the origins listed in MCP_ALLOWED_ORIGINS`);
}

function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed page, a file), or not an origin at all
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.origin === origin.toLowerCase() && LOOPBACK_HOST.test(url.hostname);
}
