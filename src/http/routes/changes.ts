// GET /api/changes: the change events of the current edition after `since` (a sequence number or
// an ISO date), oldest first, paged: the polling form of the /api/live stream (same events, same
// numbers). The events come from the change log (store/change-log.ts); filters narrow by era,
// team slug and player (_id or slug), each answered from the log's topic index.

import { ERAS, type Era } from "../../model/eras.js";
import { ApiError, invalidParameter } from "../../query/api-error.js";
import { LENGTH_LIMITS } from "../../query/limits.js";
import { compileParams, limitParam, type ValuesOf } from "../../query/params.js";
import { sinceSequence, type ChangeLog } from "../../store/change-log.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, weakEtag, type Reply } from "../reply.js";
import { hashBytes } from "../../store/hash.js";
import type { RouteDefinition } from "../router.js";
import { arrayOf, exactObject, integer, ref, text } from "../describe/response-schemas.js";

export const CHANGES_CACHE_CONTROL = "private, max-age=60";
/** A topic value (player id or slug, team slug) is at most this long, in the feed and the stream alike: an identifier's limit. */
export const TOPIC_VALUE_MAX_LENGTH = LENGTH_LIMITS.identifier;
export const TOPIC_VALUE_PATTERN = "^[A-Za-z0-9_-]+$";

const changesSchemas = {
  since: {
    type: "string", minLength: 1, maxLength: 40, pattern: "^(\\d{1,16}|\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?)$",
    description: "A sequence number (events after it) or an ISO date or date-time (events of weeks dated after it); omitted: every event kept",
    "x-reason": "must be a sequence number or an ISO date (YYYY-MM-DD) or date-time",
  },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt", "x-normalise": "lower" },
  team: { type: "string", minLength: 1, maxLength: TOPIC_VALUE_MAX_LENGTH, pattern: TOPIC_VALUE_PATTERN, description: "Team slug, e.g. boston-celtics (a trade counts for both teams)", "x-reason": "must be a team slug (letters, digits, - and _)" },
  player: { type: "string", minLength: 1, maxLength: TOPIC_VALUE_MAX_LENGTH, pattern: TOPIC_VALUE_PATTERN, description: "A player's _id or slug", "x-reason": "must be a player _id or slug (letters, digits, - and _)" },
  limit: limitParam(1000, 100),
} as const;
const changesParams = compileParams(changesSchemas);

function changes(context: RequestContext<ValuesOf<typeof changesSchemas>>): Reply {
  const log = context.changes();
  const { since: raw, teamType: era, team, player, limit } = context.values;
  const since = raw === undefined ? 0 : sinceSequence(raw);
  if (since === undefined || !Number.isSafeInteger(since)) throw invalidParameter("since", raw, "must be a sequence number or an ISO date (YYYY-MM-DD) or date-time");
  if (log === undefined) throw new ApiError("SERVICE_UNAVAILABLE", undefined, "The change log is not available on this server");
  return context.cached(cacheKey("/api/changes", log, [log.newestSequence, since, era, team, player, limit]), () => renderChanges(log, since, { ...(era ? { era } : {}), ...(team ? { team } : {}), ...(player ? { player } : {}) }, limit, context.editions.current));
}

/** `current`: the edition the log is of (its demo-ness goes in meta). */
function renderChanges(log: ChangeLog, since: number, filters: { era?: Era; team?: string; player?: string }, limit: number, current: { readonly isDemo: boolean }): Reply {
  const { events, hasMore } = log.query(since, filters, limit);
  const last = events.at(-1)?.seq;
  const meta = {
    count: events.length, since, newestSequence: log.newestSequence, oldestSequence: log.oldestSequence, gameVersion: log.gameVersion,
    hasMore, nextSince: hasMore && last !== undefined ? last : null, ...dataSourceMeta(current),
  };
  // The events' JSON is kept with the log: spliced, never re-serialised.
  const body = Buffer.from(`{"success":true,"data":[${events.map((logged) => logged.json).join(",")}],"meta":${JSON.stringify(meta)}}`, "utf8");
  return { status: 200, body, etag: weakEtag(hashBytes(body), body.length), cacheControl: CHANGES_CACHE_CONTROL };
}

export const changesRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/changes", access: "key", cacheControl: CHANGES_CACHE_CONTROL, params: changesParams,
    summary: "Change events of the current edition after a sequence number or date, oldest first (the polling form of /api/live)",
    response: {
      kind: "envelope",
      description: "Change events after `since`, oldest first",
      data: arrayOf(ref("ChangeEvent")),
      meta: exactObject({
        count: integer("Events returned"), since: integer("The sequence number read after"),
        newestSequence: integer("The newest event's sequence number (0 when none is kept)"), oldestSequence: integer("The oldest kept event's sequence number (0 when none)"),
        gameVersion: text("The current edition the events belong to"),
        hasMore: { type: "boolean", description: "More events follow: ask again with since=nextSince" },
        nextSince: { type: ["integer", "null"], description: "The since of the next page, or null" },
      }),
    },
    handle: changes,
  },
];
