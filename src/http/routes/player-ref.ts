// Resolving the `:id` of the per-player routes: an `_id`, or (where the route allows it) a slug,
// narrowed by teamType.

import { ERA_CODE, type Era } from "../../model/eras.js";
import { PLAYER_ID_PATTERN } from "../../model/player.js";
import { ApiError } from "../../query/api-error.js";
import { ALL_ERAS_MASK } from "../../query/plan.js";
import type { Edition } from "../../store/edition.js";
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
