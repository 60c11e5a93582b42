// Raw query string → ordered name/value pairs. Broken percent-encoding, invalid UTF-8, repeated
// parameters and oversized values are client errors, never exceptions that escape.

import { ApiError, invalidParameter } from "./api-error.js";
import { checkLength, MAX_PARAMETERS } from "./limits.js";

export type QueryParams = ReadonlyMap<string, string>;

export function parseQueryString(raw: string): QueryParams {
  const params = new Map<string, string>();
  if (raw.length === 0) return params;
  const parts = raw.split("&");
  if (parts.length > MAX_PARAMETERS) {
    throw new ApiError("INVALID_PARAMETER", { parameter: "query", reason: `more than ${MAX_PARAMETERS} parameters` }, `At most ${MAX_PARAMETERS} query parameters`);
  }
  for (const part of parts) {
    if (part.length === 0) continue;
    const equals = part.indexOf("=");
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? "" : part.slice(equals + 1);
    const name = decodeComponent(rawName, "query", rawName);
    checkLength("parameterName", "parameter name", name);
    const value = decodeComponent(rawValue, name, rawValue);
    checkLength("parameterValue", name, value);
    if (params.has(name)) throw invalidParameter(name, value, "given more than once");
    params.set(name, value);
  }
  return params;
}

function decodeComponent(text: string, parameter: string, raw: string): string {
  // Most names and values are plain: nothing to decode, no regular expression to run.
  if (text.indexOf("%") === -1 && text.indexOf("+") === -1) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw invalidParameter(parameter.slice(0, 64), raw.slice(0, 64), "malformed percent-encoding or invalid UTF-8");
  }
}
