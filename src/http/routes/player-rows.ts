// What the player routes share (/api/players, the slug, id and versioned routes, teams, bulk,
// batch, badges, compare, similar, history, team profiles): a page of rows rendered from the
// fragments with its ETag, the cursor paging of `meta.pagination`, a slug's rows (404 with
// suggestions) and a player's full detail with editionRatings.

import { ERA_CODE, type Era } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import { suggestSlugs } from "../../query/suggest.js";
import { ALL_ERAS_MASK } from "../../query/plan.js";
import type { Edition } from "../../store/edition.js";
import type { EditionSet } from "../../store/editions.js";
import { ALL_FIELDS_MASK, withEditionRating, type RatingHistoryEntry } from "../../model/player.js";
import type { RowShape } from "../../store/fragments.js";
import { FragmentBody } from "../fragment-body.js";
import { dataSourceMeta, type Reply } from "../reply.js";

/** Bumped when a page renders the same rows and meta differently (its ETag then changes with it). */
const PAGE_RENDER_VERSION = 1;

/**
 * A page of player rows in the envelope, `{"success":true,"data":[…],"meta":{…}}`, the rows copied
 * from the fragments (fragment-body.ts), its ETag folded from `key`, the page's cache key (none
 * for an answer without one: a POST's). Rendered into the scratch buffer: whoever keeps the reply
 * (the response cache, a memo) keeps a copy.
 */
export function playerPage(edition: Edition, rows: ArrayLike<number>, shape: RowShape, meta: Record<string, unknown>, key: string | undefined): Reply {
  return new FragmentBody(edition.fragments).text('{"success":true,"data":').run(rows, shape)
    .text(`,"meta":${JSON.stringify({ ...meta, ...dataSourceMeta(edition) })}}`).reply(key, PAGE_RENDER_VERSION);
}

/**
 * `meta.pagination` of the cursor-paged routes, the hosted service's five fields (docs/compatibility.md#fidelity-rules:
 * `nextCursor` absent on the last page, not null) plus ours, `cursor` (this page's offset).
 */
export function cursorPaging(offset: number, count: number, limit: number, total: number): Record<string, unknown> {
  const next = offset + count;
  const hasMore = next < total;
  return { hasMore, ...(hasMore ? { nextCursor: String(next) } : {}), count, limit, total, cursor: String(offset) };
}

/** Rows with the slug, narrowed to an era when given; throws PLAYER_NOT_FOUND with a hint. */
export function rowsForSlug(edition: Edition, slug: string, era: Era | undefined): readonly number[] {
  const rows = edition.rowsForSlug(slug.toLowerCase(), era === undefined ? ALL_ERAS_MASK : 1 << ERA_CODE[era]);
  if (rows.length > 0) return rows;
  const similar = suggestSlugs(edition, slug, 3);
  throw new ApiError(
    "PLAYER_NOT_FOUND",
    {
      slug,
      ...(era ? { teamType: era } : {}),
      hint: similar.length > 0
        ? `No player ${slug}${era ? ` in ${era}` : ""} in ${edition.key}. Did you mean ${similar.join(", ")}? Search by name with /api/players/search?q=…`
        : `No player ${slug}${era ? ` in ${era}` : ""} in ${edition.key}. Search by name with /api/players/search?q=…`,
      ...(similar.length > 0 ? { suggestions: similar } : {}),
    },
    `No player with slug ${slug}`,
  );
}

/**
 * The full detail of one row: the row as stored (its `ratingHistory` the source's, as given), and
 * ours beside it, `editionRatings` (docs/data.md#source-values-kept-exactly): that history with the overall of every loaded
 * edition holding the same `_id` that it does not name yet, newest first.
 */
export function playerDetailJson(editions: EditionSet, edition: Edition, row: number, isVersioned: boolean): string {
  const stored = edition.fragments.rowJson(row, { fieldMask: ALL_FIELDS_MASK, isVersioned });
  const editionRatings = editionRatingsOf(editions, edition, row);
  // The stored row's bytes, then ours: `{…row…,"editionRatings":[…]}`.
  return `${stored.slice(0, -1)}${stored.length > 2 ? "," : ""}"editionRatings":${JSON.stringify(editionRatings)}}`;
}

/** A row's `editionRatings`: the source's rating history with the overall of every loaded edition holding its `_id` that it does not name yet, newest first. */
export function editionRatingsOf(editions: EditionSet, edition: Edition, row: number): RatingHistoryEntry[] {
  let editionRatings = edition.field(row, "ratingHistory") ?? [];
  for (const entry of editions.ratingHistory(edition, row)) editionRatings = withEditionRating(editionRatings, entry.gameVersion, entry.overall);
  return editionRatings.map(({ gameVersion, overall, delta }) => ({ gameVersion, overall, ...(delta === undefined ? {} : { delta }) }));
}
