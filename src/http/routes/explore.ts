// GET /explore: the explorer page (search, a filterable players table, player, team and comparison
// views with Chart.js charts), served entirely by the service: the page, its style sheet and its
// script are src/web/explore/, built by `npm run build` into dist/web/explore/ (the script bundled
// with Chart.js; all three embedded in the single binary). The key lives only in the script's
// memory, as on /dashboard.

import { compileParams } from "../../query/params.js";
import type { RouteDefinition } from "../router.js";
import { builtPage, pageAsset } from "../static-reply.js";

export const EXPLORE_PATH = "/explore";
export const EXPLORE_ASSET_PATH = "/explore/assets/:file";

/** Self only, no inline script or style; the script sends every request (forms submit nowhere). */
const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

export function exploreRoutes(): RouteDefinition[] {
  const { html, assets } = builtPage("explore", [["Content-Security-Policy", PAGE_POLICY], ["Referrer-Policy", "no-referrer"]]);
  const noParams = compileParams({});
  return [
    {
      method: "GET", path: EXPLORE_PATH, access: "address", params: noParams, summary: "Explorer page: search, players table, player, team and comparison views with charts (no API key to load; it asks for one)",
      response: { kind: "body", description: "The explorer page", content: { "text/html": { type: "string" } } },
      handle: () => html(),
    },
    {
      method: "GET", path: EXPLORE_ASSET_PATH, access: "address", params: noParams, summary: "Files of the explorer page (its script bundles Chart.js)",
      response: { kind: "body", description: "A file of the explorer page", content: { "text/css": { type: "string" }, "text/javascript": { type: "string" } } },
      errors: ["NOT_FOUND"],
      handle: (context) => {
        return pageAsset(assets, context.pathParams.file ?? "", context.path)();
      },
    },
  ];
}
