// The one table of request length limits, and the one check that applies them. Everything a
// client names (path segments, parameter names and values, identifiers in bodies) is measured
// here before any work depends on its length, so no input can make a request's work grow past
// what these bounds allow. A text over its limit is a 400 that names the limit.

import { ApiError } from "./api-error.js";

export const LENGTH_LIMITS = {
  /** One decoded path segment: a slug, a team name, an id, an edition key. The longest real slug is ~60. */
  pathSegment: 200,
  /** A query parameter's name: the longest we accept (`{attribute}_gte`) is ~30. */
  parameterName: 64,
  /** A query parameter's value. */
  parameterValue: 512,
  /** A name or slug in a batch body. */
  identifier: 100,
} as const;

export type LengthLimit = keyof typeof LENGTH_LIMITS;

/** At most this many query parameters per request. */
export const MAX_PARAMETERS = 100;

/** Throws 400 INVALID_PARAMETER naming `parameter` and the limit when `text` is longer than `kind` allows. */
export function checkLength(kind: LengthLimit, parameter: string, text: string): void {
  const limit = LENGTH_LIMITS[kind];
  if (text.length <= limit) return;
  // The parameter's own name may be what is too long: never echo more than a preview of either.
  const named = parameter.length > LENGTH_LIMITS.parameterName ? `${parameter.slice(0, 32)}…` : parameter;
  throw new ApiError(
    "INVALID_PARAMETER",
    { parameter: named, value: `${text.slice(0, 32)}…`, reason: `longer than ${limit} characters`, limit },
    `${named} is longer than the limit of ${limit} characters`,
  );
}
