// Resolving the `:id` of the per-player routes: an `_id`, or (where the route allows it) a slug,
// narrowed by teamType. And rows rendered as objects that wrap or extend a player's fragments.

import type { Era } from "../../model/eras.js";
import { PLAYER_ID_PATTERN } from "../../model/player.js";
import { ApiError } from "../../query/api-error.js";
import type { Edition } from "../../store/edition.js";
import { rowsForSlug } from "./players.js";

/** `/api/players/:id`: only an `_id`. Not shaped like one: 400 INVALID_ID; unknown: 404 PLAYER_NOT_FOUND. */
export function rowOfId(edition: Edition, id: string): number {
  if (!PLAYER_ID_PATTERN.test(id)) {
    throw new ApiError("INVALID_ID", { id: id.slice(0, 100), hint: "Use a player's _id (24 hexadecimal characters), or /api/players/slug/:slug for a slug" }, `${id.slice(0, 100)} is not a player id`);
  }
  const row = edition.rowById.get(id);
  if (row === undefined) {
    throw new ApiError("PLAYER_NOT_FOUND", { id, hint: `No player with _id ${id} in ${edition.key}. Search by name with /api/players/search?q=…` }, `No player with _id ${id}`);
  }
  return row;
}

/** An `_id` or a slug (the first roster of curr, class, allt that has it, or of the given era). */
export function rowOfIdOrSlug(edition: Edition, idOrSlug: string, era: Era | undefined): number {
  const row = edition.rowById.get(idOrSlug);
  if (row !== undefined && (era === undefined || edition.record(row).teamType === era)) return row;
  return rowsForSlug(edition, idOrSlug, era)[0] as number;
}

/** `[obj,obj,…]` where each obj is `wrap(i, the row's fields as JSON)`; fields come from the fragments. */
export function rowObjectsJson(edition: Edition, rows: ArrayLike<number>, fieldMask: number, wrap: (i: number, playerJson: string) => string): string {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i++) parts.push(wrap(i, edition.fragments.rowJson(rows[i] as number, { fieldMask, isVersioned: false })));
  return `[${parts.join(",")}]`;
}
