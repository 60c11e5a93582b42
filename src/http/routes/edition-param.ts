// The `:version` path parameter: shape (400 INVALID_VERSION) and existence (404 VERSION_NOT_FOUND).

import { normaliseEditionKey } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import type { Edition } from "../../store/edition.js";
import type { EditionSet } from "../../store/editions.js";

export function resolveEdition(editions: EditionSet, text: string): Edition {
  const key = normaliseEditionKey(text);
  if (key === undefined) {
    throw new ApiError("INVALID_VERSION", { version: text, hint: "Use 2K followed by two digits, e.g. 2K26 (any case)" }, `Invalid game version ${text}: use 2K followed by two digits`);
  }
  const edition = editions.byKey.get(key);
  if (!edition) {
    throw new ApiError("VERSION_NOT_FOUND", { version: key, availableVersions: editions.keys() }, `Game version ${key} is not available; available: ${editions.keys().join(", ")}`);
  }
  return edition;
}

/** `gameVersion=` of the routes that answer for any edition (default the current one). */
export const GAME_VERSION_PARAM = {
  type: "string", pattern: "^2[Kk]\\d{2}$", description: "Edition key (2K26, any case); default the current edition",
  "x-reason": "must be 2K followed by two digits, e.g. 2K26",
} as const;

/** The edition a request asks for: the versioned prefix's `:version`, else `gameVersion=`, else the current one. */
export function requestedEdition(editions: EditionSet, pathVersion: string | undefined, gameVersion: unknown): Edition {
  if (pathVersion !== undefined) return resolveEdition(editions, pathVersion);
  return typeof gameVersion === "string" ? resolveEdition(editions, gameVersion) : editions.current;
}
