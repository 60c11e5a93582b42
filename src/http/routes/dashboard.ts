// GET /dashboard: one hand-written page (HTML, a script and a style sheet, no framework, nothing
// from another host) where people register for a key, see its usage, regenerate and revoke it:
// src/web/dashboard/, built by `npm run build` into dist/web/dashboard/ (embedded in the single
// binary). The key lives only in the script's memory: never in a URL, a cookie, storage or a log.

import { compileParams } from "../../query/params.js";
import type { RouteDefinition } from "../router.js";
import { builtPage, pageAsset } from "../static-reply.js";

export const DASHBOARD_PATH = "/dashboard";
export const DASHBOARD_ASSET_PATH = "/dashboard/assets/:file";

/** Self only, no inline script or style; no form ever submits anywhere (the script sends the requests). */
const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

export function dashboardRoutes(): RouteDefinition[] {
  const { html, assets } = builtPage("dashboard", [["Content-Security-Policy", PAGE_POLICY], ["Referrer-Policy", "no-referrer"]]);
  const noParams = compileParams({});
  return [
    {
      method: "GET", path: DASHBOARD_PATH, access: "address", params: noParams, summary: "Key dashboard page: register, usage, regenerate, revoke (no API key)",
      response: { kind: "body", description: "The key dashboard page", content: { "text/html": { type: "string" } } },
      handle: () => html(),
    },
    {
      method: "GET", path: DASHBOARD_ASSET_PATH, access: "address", params: noParams, summary: "Files of the key dashboard page",
      response: { kind: "body", description: "A file of the dashboard page", content: { "text/css": { type: "string" }, "text/javascript": { type: "string" } } },
      errors: ["NOT_FOUND"],
      handle: (context) => {
        return pageAsset(assets, context.pathParams.file ?? "", context.path)();
      },
    },
  ];
}
