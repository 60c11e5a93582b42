// GET /api/trending: players whose overall moved in the current edition's weekly snapshots of
// the last `days` days, by |total change| desc then name. The windows are precomputed at load
// (store/weekly-series.ts); a request filters one by era and direction, then takes `limit`.

import { ERAS } from "../../model/eras.js";
import { compileParams, limitParam, type ValuesOf } from "../../query/params.js";
import { TRENDING_MAX_DAYS } from "../../store/weekly-series.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, type Reply } from "../reply.js";
import { FragmentBody } from "../fragment-body.js";
import type { RowShape } from "../../store/fragments.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, exactObject, integer, oneOf, ref } from "../describe/response-schemas.js";
import { FIELD_BIT } from "../../model/player.js";

export const TRENDING_CACHE_CONTROL = "private, max-age=300";
const DIRECTIONS = ["up", "down", "both"] as const;
const PLAYER_SHAPE: RowShape = { fieldMask: (["_id", "name", "slug", "team", "teamType", "overall", "playerImage"] as const).reduce((mask, field) => mask | FIELD_BIT[field], 0), isVersioned: false };
/** Bumped when the trending answer renders the same rows differently (its ETag then changes with it). */
const TRENDING_RENDER_VERSION = 1;

const trendingSchemas = {
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt; omitted: every era", "x-normalise": "lower", "x-empty": "refuse" },
  days: { type: "integer", minimum: 1, maximum: TRENDING_MAX_DAYS, default: 7, description: `Window in days back from the newest weekly snapshot, 1 to ${TRENDING_MAX_DAYS}, default 7`, "x-empty": "refuse" },
  limit: limitParam(50, 20),
  direction: { type: "string", enum: DIRECTIONS, default: "both", description: "up, down or both (default)", "x-normalise": "lower" },
} as const;
// docs/compatibility.md#fidelity-rules: as the hosted service, unknown parameters are ignored here
const trendingParams = compileParams(trendingSchemas, { ignoresUnknown: true });

function trending(context: RequestContext<ValuesOf<typeof trendingSchemas>>): Reply {
  const edition = context.editions.current;
  const { teamType: era, days, limit, direction } = context.values;
  const weekly = edition.weekly;
  const window = weekly?.window(days);
  const key = cacheKey("/api/trending", edition, [window?.firstWeek ?? -1, days, era, direction, limit]);
  return context.cached(key, () => {
    const picked: number[] = [];
    if (window) {
      const [start, end] = era === undefined ? [0, edition.rowCount] : edition.eraRange(era);
      // The era and direction filters come before the limit: walk the window until it is full.
      for (let i = 0; i < window.rows.length && picked.length < limit; i++) {
        const row = window.rows[i] as number;
        const total = window.totalDelta[i] as number;
        if (row < start || row >= end) continue;
        if ((direction === "up" && total <= 0) || (direction === "down" && total >= 0)) continue;
        picked.push(i);
      }
    }
    const rows = picked.map((i) => (window as NonNullable<typeof window>).rows[i] as number);
    const dates = weekly && window ? weekly.dates(window) : { from: null, to: null };
    // `{"playerId":…,"totalDelta":…,"changes":…,"player":{…row…}}` per player.
    const body = new FragmentBody(edition.fragments).text('{"success":true,"data":[');
    for (let k = 0; k < rows.length; k++) {
      const i = picked[k] as number;
      const row = rows[k] as number;
      const entry = window as NonNullable<typeof window>;
      body.text(`${k === 0 ? "" : ","}{"playerId":${edition.fragments.valueJson(row, "_id") ?? "null"},"totalDelta":${entry.totalDelta[i] as number},"changes":${entry.changes[i] as number},"player":`)
        .row(row, PLAYER_SHAPE).text("}");
    }
    const meta = { count: rows.length, days, teamType: era ?? "all", direction, ...dates, ...dataSourceMeta(edition) };
    return { ...body.text(`],"meta":${JSON.stringify(meta)}}`).reply(key, TRENDING_RENDER_VERSION), cacheControl: TRENDING_CACHE_CONTROL };
  });
}

export const trendingRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/trending", access: "key", cacheControl: TRENDING_CACHE_CONTROL, params: trendingParams, summary: "Players whose overall moved most in the last days of weekly snapshots",
    response: {
      kind: "envelope",
      description: "Players whose overall moved in the window, by |totalDelta| desc then name",
      data: arrayOf(ref("TrendingPlayer")),
      meta: exactObject({
        count: integer("Players returned"), days: integer("Window in days"), teamType: oneOf([...ERAS, "all"]), direction: oneOf(DIRECTIONS),
        from: { type: ["string", "null"], format: "date", description: "Date of the snapshot the window compares against" },
        to: { type: ["string", "null"], format: "date", description: "Date of the newest snapshot" },
      }),
    },
    handle: trending,
  },
];
