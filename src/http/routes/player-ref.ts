// Resolving the `:id` of the per-player routes: an `_id`, or (where the route allows it) a slug,
// narrowed by teamType. And rows rendered as objects that wrap or extend a player's fragments.

import { ERA_CODE, type Era } from "../../model/eras.js";
import { PLAYER_ID_PATTERN } from "../../model/player.js";
import { ApiError } from "../../query/api-error.js";
import { ALL_ERAS_MASK } from "../../query/plan.js";
import type { Edition } from "../../store/edition.js";
import { hashBytes } from "../../store/hash.js";
import { dataSourceMeta, weakEtag, type Reply, type ReplyOptions } from "../reply.js";
import { rowsForSlug } from "./player-rows.js";

/**
 * `/api/players/:id`: the row of its `_id`, else the rows of its slug (the slug route's rule and
 * order; `era` narrows either). Neither an `_id` nor a slug of the edition: 404 PLAYER_NOT_FOUND
 * with slug suggestions, or 400 INVALID_ID where the text cannot be an `_id` (and no slug is it).
 */
export function rowsOfIdOrSlug(edition: Edition, id: string, era: Era | undefined): readonly number[] {
  const row = edition.rowById.get(id);
  if (row !== undefined && (era === undefined || edition.eraOf(row) === era)) return [row];
  if (!PLAYER_ID_PATTERN.test(id)) {
    // A slug longer than an `_id` may be (classic rosters' run to ~70 characters) is still a slug.
    const rows = edition.rowsForSlug(id.toLowerCase(), era === undefined ? ALL_ERAS_MASK : 1 << ERA_CODE[era]);
    if (rows.length > 0) return rows;
    throw new ApiError("INVALID_ID", { id: id.slice(0, 100), hint: "Use a player's _id (1–64 characters of A–Z, a–z, 0–9, _ and -) or its slug (lebron-james)" }, `${id.slice(0, 100)} is not a player id or slug`);
  }
  return rowsForSlug(edition, id, era);
}

/** An `_id` or a slug (the first roster of curr, class, allt that has it, or of the given era). */
export function rowOfIdOrSlug(edition: Edition, idOrSlug: string, era: Era | undefined): number {
  const row = edition.rowById.get(idOrSlug);
  if (row !== undefined && (era === undefined || edition.eraOf(row) === era)) return row;
  return rowsForSlug(edition, idOrSlug, era)[0] as number;
}

const NO_BYTES = Buffer.alloc(0);
const DATA_PREFIX = Buffer.from('{"success":true,"data":[');
const COMMA = Buffer.from(",");

/**
 * A success envelope whose data is `[obj,obj,…]`, each obj `before(i)` + the row's fields (bytes
 * copied from the fragments, braces included) with `inside(i)` spliced before its closing brace +
 * `after(i)`. Built from byte ranges, never re-serialised; ETag of the body, given cache policy.
 */
export function rowObjectsReply(
  edition: Edition,
  rows: ArrayLike<number>,
  fieldMask: number,
  parts: { before?: (i: number) => string; inside?: (i: number) => string; after?: (i: number) => string },
  meta: Record<string, unknown>,
  options: ReplyOptions,
): Reply {
  const pieces: Buffer[] = [DATA_PREFIX];
  const shape = { fieldMask, isVersioned: false };
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) pieces.push(COMMA);
    if (parts.before) pieces.push(Buffer.from(parts.before(i)));
    // `[{…}]` of one row: keep `{…` and add the closing brace after `inside`.
    const row = edition.fragments.renderRows([rows[i] as number], shape, NO_BYTES, NO_BYTES).body;
    pieces.push(row.subarray(1, -2));
    pieces.push(Buffer.from(`${parts.inside ? parts.inside(i) : ""}}${parts.after ? parts.after(i) : ""}`));
  }
  pieces.push(Buffer.from(`],"meta":${JSON.stringify({ ...meta, ...dataSourceMeta(edition) })}}`));
  const body = Buffer.concat(pieces);
  return {
    status: 200,
    body,
    ...(options.isCacheable ? { etag: weakEtag(hashBytes(body), body.length) } : {}),
    ...(options.cacheControl === undefined ? {} : { cacheControl: options.cacheControl }),
  };
}
