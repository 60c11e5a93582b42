// GET /api/players/search: ranked name search over the current edition (the ranking lives in
// store/name-index.ts), full player records (docs/compatibility.md#fidelity-rules: the hosted search returns whole player
// documents; rows are copied from the stored fragments like every list). Every body carries the
// request's own timestamp, so the ranked page is cached as a template with the timestamp written
// per request; its weak ETag is folded from the template's cache key (the same results, whatever the timestamp).
// From a template's second use, its bytes up to the timestamp are kept compressed (encoding.ts
// `withTail`), so a repeated search costs its own few bytes, not a compression of the whole page.

import { ERA_CODE, ERAS } from "../../model/eras.js";
import { compileParams, limitParam, type ValuesOf } from "../../query/params.js";
import type { RowShape } from "../../store/fragments.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import type { Edition } from "../../store/edition.js";
import { scratchBuffer } from "../../store/scratch.js";
import { KeptHeads, withTail } from "../encoding.js";
import { FragmentBody } from "../fragment-body.js";
import { dataSourceMeta, type Reply } from "../reply.js";
import { arrayOf, boolean, exactObject, integer, ref, text, timestamp } from "../describe/response-schemas.js";
import type { RouteDefinition } from "../router.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";

export const SEARCH_QUERY_MAX_LENGTH = 100;
export const SEARCH_LIMIT_MAX = 50;
const ALL_ERAS_MASK = (1 << ERAS.length) - 1;
const FULL_SHAPE: RowShape = { fieldMask: ALL_FIELDS_MASK, isVersioned: false };
/** The hosted service keeps search answers 5 minutes; ours are private (a keyed answer, docs/compatibility.md#fidelity-rules rule 5). */
export const SEARCH_CACHE_CONTROL = "private, max-age=300";

const searchSchemas = {
  q: {
    type: "string",
    pattern: `^[\\s\\S]{0,${SEARCH_QUERY_MAX_LENGTH}}$`,
    description: "Name to search for (required): whole or partial words in any order; case, accents and punctuation never matter, one typo per word is forgiven",
    "x-reason": `must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`,
    "x-required": "The search text q is required, e.g. /api/players/search?q=lebron",
  },
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt; omitted: every era", "x-normalise": "lower", "x-empty": "refuse" },
  limit: limitParam(SEARCH_LIMIT_MAX, SEARCH_LIMIT_MAX),
} as const;
const searchParams = compileParams(searchSchemas);

function searchPlayers(context: RequestContext<ValuesOf<typeof searchSchemas>>): Reply {
  const { q, teamType: era, limit } = context.values;
  const eraMask = era === undefined ? ALL_ERAS_MASK : 1 << ERA_CODE[era];
  const edition = context.editions.current;
  const timestamp = new Date(context.now).toISOString();
  if (timestamp.length !== TIMESTAMP_PLACEHOLDER.length) return renderSearch(edition, q, eraMask, limit, timestamp, undefined);
  // The ranked page depends only on the data and the query: it is cached as a template whose
  // timestamp is written per request.
  const key = cacheKey("/api/players/search", edition, [eraMask, limit, q]);
  const template = context.cached(key, () => renderSearch(edition, q, eraMask, limit, TIMESTAMP_PLACEHOLDER, key));
  if (template.isScratch === true) {
    // Rendered for this request alone (the response cache is off): the timestamp goes in place.
    template.body.write(timestamp, template.timestampAt ?? 0, "latin1");
    return { status: 200, body: template.body, isScratch: true, cacheControl: SEARCH_CACHE_CONTROL, ...(template.etag === undefined ? {} : { etag: template.etag }) };
  }
  const at = template.timestampAt ?? 0;
  const copied = { cacheControl: SEARCH_CACHE_CONTROL, ...(template.etag === undefined ? {} : { etag: template.etag }), template: template.body, timestampAt: at };
  const head = template.body.length - at <= SPLICED_TAIL_MAX ? keptHeads.get(template.body, "page", () => template.body.subarray(0, at)) : undefined;
  if (head !== undefined) {
    const tail = Buffer.allocUnsafe(template.body.length - at);
    tail.write(timestamp, 0, "latin1");
    template.body.copy(tail, TIMESTAMP_PLACEHOLDER.length, at + TIMESTAMP_PLACEHOLDER.length);
    return withTail(head, tail, copied);
  }
  const { buffer: body, isScratch } = scratchBuffer(template.body.length);
  template.body.copy(body);
  body.write(timestamp, at, "latin1");
  return { status: 200, body, isScratch, ...copied };
}

/** A page's bytes from its timestamp on (its meta: the timestamp, the query echoed, the data source) are far below this. */
const SPLICED_TAIL_MAX = 60_000;

/** Per cached template, its bytes up to the timestamp, compressed from its second use. */
const keptHeads = new KeptHeads<"page">();

/** `toISOString()` of any date in years 0–9999: 24 ASCII characters. */
const TIMESTAMP_PLACEHOLDER = "0000-00-00T00:00:00.000Z";

/** Bumped when a search page renders the same matches differently (its ETag then changes with it). */
const SEARCH_RENDER_VERSION = 1;

/**
 * The ranked page with `timestamp` in its meta and the offset of that timestamp (a template's is
 * rewritten per request); its ETag folded from `key`, the template's cache key (the timestamp is
 * not part of what the ETag names: the matches are).
 */
function renderSearch(edition: Edition, q: string, eraMask: number, limit: number, timestamp: string, key: string | undefined): Reply {
  const { rows, total } = edition.nameIndex.search(q, eraMask, limit);
  const suffixHead = `,"meta":${JSON.stringify({ count: rows.length, total, truncated: total > rows.length, timestamp: "" }).slice(0, -2)}`;
  const suffix = `${suffixHead}${timestamp}",${JSON.stringify({ query: q, ...dataSourceMeta(edition) }).slice(1)}}`;
  const rendered = new FragmentBody(edition.fragments).text('{"success":true,"data":').run(rows, FULL_SHAPE).text(suffix).reply(key, SEARCH_RENDER_VERSION);
  const timestampAt = rendered.body.length - Buffer.byteLength(suffix) + Buffer.byteLength(suffixHead);
  return { ...rendered, cacheControl: SEARCH_CACHE_CONTROL, timestampAt };
}

export const searchRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/players/search", access: "key", params: searchParams, cacheControl: SEARCH_CACHE_CONTROL, summary: "Search players by name (ranked, typo-tolerant)",
    response: {
      kind: "envelope",
      description: "Full player records ranked by how well their name matches",
      data: arrayOf(ref("Player")),
      meta: exactObject({
        count: integer("Results returned"),
        total: integer("Names matching"),
        truncated: boolean("True when more matches exist beyond limit"),
        timestamp: timestamp("When the search ran"),
        query: text("The search text as sent"),
      }),
    },
    handle: searchPlayers,
  },
];
