// Raw query string → ordered name/value pairs. Broken percent-encoding, invalid UTF-8, repeated
// parameters and oversized values are client errors, never exceptions that escape.

import { ApiError, invalidParameter } from "./api-error.js";
import { checkLength, MAX_PARAMETERS } from "./limits.js";

export type QueryParams = ReadonlyMap<string, string>;

export function parseQueryString(raw: string): QueryParams {
  const params = new Map<string, string>();
  if (raw.length === 0) return params;
  const parts = raw.split("&");
  checkParameterCount(parts.length);
  for (const part of parts) {
    if (part.length === 0) continue;
    const equals = part.indexOf("=");
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? "" : part.slice(equals + 1);
    const name = decodeComponent(rawName, "query", rawName);
    // Measured before its value is decoded: the value's error names it.
    checkLength("parameterName", "parameter name", name);
    addParameter(params, name, decodeComponent(rawValue, name, rawValue));
  }
  return params;
}

/**
 * The checks every query parameter passes, wherever it comes from (a query string, an MCP tool's
 * arguments: src/http/routes/mcp-tools.ts): its name and value measured (checkLength), a repeat refused.
 */
export function addParameter(params: Map<string, string>, name: string, value: string): void {
  checkLength("parameterName", "parameter name", name);
  checkLength("parameterValue", name, value);
  if (params.has(name)) throw invalidParameter(name, value, "given more than once");
  params.set(name, value);
}

/** At most MAX_PARAMETERS parameters, counted before any is read. */
export function checkParameterCount(count: number): void {
  if (count > MAX_PARAMETERS) {
    throw new ApiError("INVALID_PARAMETER", { parameter: "query", reason: `more than ${MAX_PARAMETERS} parameters` }, `At most ${MAX_PARAMETERS} query parameters`);
  }
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
