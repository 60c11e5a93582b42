// The edition a request names: the `:version` path parameter (shape: 400 INVALID_VERSION;
// existence: 404 VERSION_NOT_FOUND) or `gameVersion=`, and the routes served both ways.

import { normaliseEditionKey } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import { compileParams, type ParamSchemas, type ValuesOf } from "../../query/params.js";
import type { Edition } from "../../store/edition.js";
import type { EditionSet } from "../../store/editions.js";
import type { RouteDefinition } from "../router.js";

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
export function requestedEdition(editions: EditionSet, pathVersion: string | undefined, gameVersion: string | undefined): Edition {
  if (pathVersion !== undefined) return resolveEdition(editions, pathVersion);
  return gameVersion === undefined ? editions.current : resolveEdition(editions, gameVersion);
}

/** The values of a route served both ways: its own, and `gameVersion` (absent under the versioned prefix). */
export type EveryEditionValues<S extends ParamSchemas> = ValuesOf<S & { gameVersion: typeof GAME_VERSION_PARAM }>;

/**
 * A GET route of any edition, served twice: at `path` (`/api/…`) with `gameVersion=`, and under the
 * versioned prefix (`/api/versions/:version/…`), whose path names the edition. Its handler reads the
 * edition with requestedEdition.
 */
export function everyEditionRoutes<const S extends ParamSchemas>(path: string, params: S, route: Omit<RouteDefinition<EveryEditionValues<S>>, "method" | "path" | "params">): RouteDefinition[] {
  // The one unchecked step: both tables give the handler what EveryEditionValues<S> says (the
  // versioned one only lacks gameVersion, which is optional there), which TypeScript cannot
  // follow through a generic S; each caller's S is concrete, and checked against its handler.
  const shared = route as unknown as Omit<RouteDefinition, "method" | "path" | "params">;
  return [
    { method: "GET", path, params: compileParams<ParamSchemas>({ ...params, gameVersion: GAME_VERSION_PARAM }), ...shared },
    { method: "GET", path: path.replace(/^\/api\//, "/api/versions/:version/"), params: compileParams<ParamSchemas>(params), ...shared },
  ];
}
