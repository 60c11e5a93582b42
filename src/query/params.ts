// Query-parameter schemas per route (ajv-compiled once; the OpenAPI document is generated from
// the same objects) and validation of a raw parameter map against them. Values are strings on
// the wire. docs/compatibility.md#fidelity-rules: what the hosted service answers, we answer: an empty value is an absent
// one (except where the hosted service refuses it, `x-empty: "refuse"`); numbers are read as the
// hosted service reads them (surrounding spaces, decimals: `limit=2.5` is 2, `minRating=75.5`
// compares as 75.5); an unknown value of a lenient enum (`x-lenient`) matches nothing instead of
// failing; a cursor that is no number reads as 0. Whatever was not understood as sent is said in
// `meta.warnings` (ParamWarning); case-insensitive enums are canonicalised first.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { ATTRIBUTE_ALIASES } from "../model/attributes.js";
import { REGISTRY_CATALOGUE } from "../model/catalogue.js";
import { REQUEST_AJV_OPTIONS, validatorOnFirstUse } from "../model/validator.js";
import { BADGE_TIERS, parseBadgeTier } from "../model/badges.js";
import { POSITIONS, POSITION_GROUPS } from "../model/positions.js";
import { ApiError, invalidParameter } from "./api-error.js";
import { closest } from "./suggest.js";
import type { QueryParams } from "./query-string.js";

export interface ParamSchema {
  type: "string" | "integer";
  description: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  default?: string | number;
  /** Why a pattern failed, in words (an annotation ajv ignores). */
  "x-reason"?: string;
  /** Canonicalise before validation (case-insensitive enums; a cursor read as the hosted service reads it). */
  "x-normalise"?: "lower" | "position" | "badgeTier" | "cursor";
  /** An empty value is a 400 (the hosted service refuses it: `limit=`, `teamType=`), not an absent one. */
  "x-empty"?: "refuse";
  /** A decimal is kept as sent (bounds compared exactly) instead of rounded down (sizes, offsets). */
  "x-decimal"?: "exact";
  /** A value outside the enum matches nothing (a 200 with an empty answer and a warning), not a 400. */
  "x-lenient"?: true;
  /**
   * An attribute bound: besides the names listed (the demo's attributes), any `<snake_case>_gte`
   * or `_lte` is validated with this schema; which attributes exist is the edition's to say
   * (planQuery), since every edition has its own catalogue.
   */
  "x-attribute-bound"?: true;
}

/** docs/compatibility.md#fidelity-rules: what a lenient answer adds in `meta.warnings`. */
export interface ParamWarning {
  parameter: string;
  value: string;
  message: string;
  suggestions?: string[];
}

/** Warnings echo at most this much of a value (values are up to MAX_PARAMETER_LENGTH). */
const WARNED_VALUE_LENGTH = 100;
export function paramWarning(parameter: string, value: string, message: string, suggestions?: readonly string[]): ParamWarning {
  return {
    parameter, value: value.slice(0, WARNED_VALUE_LENGTH), message,
    ...(suggestions !== undefined && suggestions.length > 0 ? { suggestions: [...suggestions] } : {}),
  };
}

export type ParamSchemas = Readonly<Record<string, ParamSchema>>;

const ERA_VALUES = ["curr", "class", "allt"] as const;
const era = (withAll: boolean): ParamSchema => ({
  type: "string",
  enum: withAll ? [...ERA_VALUES, "all"] : ERA_VALUES,
  description: withAll ? "Era: curr (default), class, allt, or all" : "Era: curr (default), class or allt",
  "x-normalise": "lower",
  "x-empty": "refuse",
});
const rating = (description: string): ParamSchema => ({ type: "integer", minimum: 0, maximum: 99, description: `${description} (a decimal compares exactly)`, "x-decimal": "exact" });

/**
 * `{attribute}_gte` / `{attribute}_lte`, listed for the demo's attributes and the aliases; an
 * edition with other attributes takes theirs too (ATTRIBUTE_BOUND_NAME).
 */
const attributeBoundParams: ParamSchemas = Object.fromEntries(
  [...REGISTRY_CATALOGUE.paramNames, ...Object.keys(ATTRIBUTE_ALIASES)].flatMap((name) => [
    [`${name}_gte`, { ...rating(`Lower bound on ${name}`), "x-attribute-bound": true }],
    [`${name}_lte`, { ...rating(`Upper bound on ${name}`), "x-attribute-bound": true }],
  ]),
);

/** Any attribute bound's name: a snake_case attribute name (an edition's own key), then _gte or _lte. */
export const ATTRIBUTE_BOUND_NAME = /^([a-z][a-z0-9_]{0,58})_(gte|lte)$/;

export const SEARCH_FILTER_MAX_LENGTH = 80;

/** The filters shared by every player-listing route. */
export function playerFilterParams(options: { withAllEras: boolean }): ParamSchemas {
  return {
    era: era(options.withAllEras),
    teamType: { ...era(options.withAllEras), description: "Alias of era (era wins when both are given)" },
    position: {
      type: "string",
      enum: [...POSITIONS, ...Object.keys(POSITION_GROUPS)],
      description: "PG, SG, SF, PF, C, or a group: guard (PG, SG), wing (SG, SF), big (PF, C); any case (another value matches nothing, with a warning)",
      "x-normalise": "position",
      "x-lenient": true,
    },
    team: { type: "string", description: "Exact full team name (historic teams use the season prefix), or its slug" },
    search: {
      type: "string", minLength: 1, maxLength: SEARCH_FILTER_MAX_LENGTH,
      description: `Name filter, the search route's matching: every word the start of a word of the name, any order; case, accents and punctuation never matter (at most ${SEARCH_FILTER_MAX_LENGTH} characters)`,
    },
    archetype: { type: "string", minLength: 1, maxLength: 100, description: "Exact archetype, any case, e.g. 2-Way 3-Level Scorer" },
    college: { type: "string", minLength: 1, maxLength: 100, description: "Exact college (or club before the league), any case, e.g. Kentucky" },
    minRating: rating("Lowest overall"),
    maxRating: rating("Highest overall"),
    ...attributeBoundParams,
    badge: {
      type: "string", minLength: 1, maxLength: 100,
      description: "Badge slug, e.g. post-up-poet, or its name, case and punctuation aside (Post Up Poet): one of the edition's badges (GET /api/badges lists them; an unknown one matches nothing, with a warning)",
    },
    badgeTier: {
      type: "string",
      enum: BADGE_TIERS,
      description: "Badge tier (Hall of Fame, hall-of-fame, hallOfFame, any case); with badge the exact tier, alone any badge of that tier (an unknown one matches nothing, with a warning)",
      "x-normalise": "badgeTier",
      "x-lenient": true,
    },
    sort: {
      type: "string",
      pattern: "^\\s*[a-z][a-z0-9_]*\\s*(:[^:]*)?$",
      maxLength: 64,
      description: "<field>:<asc|desc>: overall, name or any attribute's snake_case name or alias (the edition's attributes: an edition may have others than the demo's); default overall:desc. The direction is read in any case, anything but asc meaning desc",
      "x-reason": "must look like <field>:<asc|desc>, e.g. three_point_shot:desc",
    },
    fields: {
      type: "string",
      pattern: "^[A-Za-z_,\\s]*$",
      description: "Comma-separated top-level fields to return, e.g. name,overall,attributes (spaces and empty entries are ignored)",
      "x-reason": "must be a comma-separated list of field names",
    },
  };
}

export const CURSOR_PARAM: ParamSchema = {
  type: "string", pattern: "^\\d{1,10}$", description: "Offset cursor from meta.pagination.nextCursor (read as the hosted service reads it: its leading digits, otherwise 0, with a warning)",
  "x-reason": "must be a non-negative decimal integer", "x-normalise": "cursor",
};
export const OFFSET_PARAM: ParamSchema = { type: "integer", minimum: 0, maximum: 1_000_000_000, default: 0, description: "Rows to skip" };
export const limitParam = (maximum: number, fallback: number): ParamSchema => ({
  type: "integer", minimum: 1, maximum, default: fallback, description: `Page size, 1 to ${maximum}, default ${fallback} (a decimal is rounded down; empty is refused)`, "x-empty": "refuse",
});
/** Cursors past this read as it (an empty page), so a huge number never becomes a float. */
const MAX_CURSOR = 1_000_000_000;

/**
 * Names people try → what to use instead, best first: the hosted service's table (docs/compatibility.md#the-hosted-services-extra-routes)
 * plus a few of our own. A route suggests the first candidate it accepts, or a path (another
 * route); a parameter it does not have is never suggested (`page` → `cursor` on cursor routes,
 * `offset` on the offset-paged versioned route). Names the route accepts never get here.
 */
const SEARCH_ROUTE = "/api/players/search";
const VERSIONED_ROUTE = "/api/versions/:version/…";
const PAGING = ["cursor", "offset"];
const SUGGESTIONS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...["name", "search", "player"].map((name) => [name, ["q", SEARCH_ROUTE]] as const),
  ["query", ["q", "search", SEARCH_ROUTE]],
  ["q", ["search", SEARCH_ROUTE]],
  ...["page", "offset", "skip", "start"].map((name) => [name, PAGING] as const),
  ...["per_page", "pagesize", "page_size", "count", "perPage", "pageSize", "size"].map((name) => [name, ["limit"]] as const),
  ...["rating", "overall", "min_rating", "minOverall"].map((name) => [name, ["minRating"]] as const),
  ...["max_rating", "maxOverall"].map((name) => [name, ["maxRating"]] as const),
  ...["type", "roster_type", "team_type", "roster"].map((name) => [name, ["teamType", "era"]] as const),
  ...["pos", "positions"].map((name) => [name, ["position"]] as const),
  ...["team_name", "teamname"].map((name) => [name, ["team"]] as const),
  ...["order", "sortBy", "sort_by"].map((name) => [name, ["sort"]] as const),
  ["tier", ["badgeTier"]],
  ...["version", "gameVersion"].map((name) => [name, ["gameVersion", VERSIONED_ROUTE]] as const),
]);

/** Every name the table knows (for tests and the README). */
export const SUGGESTED_NAMES: readonly string[] = [...SUGGESTIONS.keys()];

const ajv = new Ajv({ ...REQUEST_AJV_OPTIONS, allErrors: false });
ajv.addKeyword({ keyword: "x-reason" });
ajv.addKeyword({ keyword: "x-normalise" });
ajv.addKeyword({ keyword: "x-empty" });
ajv.addKeyword({ keyword: "x-decimal" });
ajv.addKeyword({ keyword: "x-lenient" });
ajv.addKeyword({ keyword: "x-attribute-bound" });

export interface CompiledParams {
  readonly schemas: ParamSchemas;
  /**
   * docs/compatibility.md#fidelity-rules: routes where the hosted service ignores unknown parameters (cache busters such as
   * `?_=1735000000`) ignore them too, with a warning unless the name starts with `_`.
   */
  readonly ignoresUnknown: boolean;
  readonly names: readonly string[];
  /** One validator per parameter: a request pays for the parameters it sends, not for all ~100. */
  readonly validators: ReadonlyMap<string, ValidateFunction>;
  /** The schema of any attribute bound (ATTRIBUTE_BOUND_NAME) where the route takes them, else undefined. */
  readonly anyBound: { schema: ParamSchema; validate: ValidateFunction } | undefined;
}

/** Parameters of the same schema (the ~100 attribute bounds) share one validator, compiled on first use. */
const validatorsBySchema = new Map<string, ValidateFunction>();

function compileOne(schema: ParamSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validatorsBySchema.get(key);
  if (!validate) {
    validate = validatorOnFirstUse(ajv, schema);
    validatorsBySchema.set(key, validate);
  }
  return validate;
}

export function compileParams(schemas: ParamSchemas, options: { ignoresUnknown?: boolean } = {}): CompiledParams {
  const bound = Object.values(schemas).find((schema) => schema["x-attribute-bound"] === true);
  return {
    schemas,
    ignoresUnknown: options.ignoresUnknown === true,
    names: Object.keys(schemas),
    validators: new Map(Object.entries(schemas).map(([name, schema]) => [name, compileOne(schema)])),
    anyBound: bound === undefined ? undefined : { schema: { ...bound, description: "Bound on an attribute of the edition" }, validate: compileOne(bound) },
  };
}

/** The schema and validator of a parameter the route takes, or undefined. */
function paramOf(compiled: CompiledParams, name: string): { schema: ParamSchema; validate: ValidateFunction } | undefined {
  // hasOwn: `__proto__` or `constructor` from a client must not find Object's members.
  if (Object.hasOwn(compiled.schemas, name)) return { schema: compiled.schemas[name] as ParamSchema, validate: compiled.validators.get(name) as ValidateFunction };
  return compiled.anyBound !== undefined && ATTRIBUTE_BOUND_NAME.test(name) ? compiled.anyBound : undefined;
}

export type ParamValues = Record<string, string | number>;

/**
 * Unknown names → UNKNOWN_PARAMETERS (or, where the route ignores them, a warning); bad values →
 * INVALID_PARAMETER naming parameter, value and reason. What was accepted leniently (docs/compatibility.md#fidelity-rules)
 * is pushed onto `warnings`.
 */
export function validateParams(compiled: CompiledParams, params: QueryParams, warnings: ParamWarning[] = []): ParamValues {
  const unknown = [...params.keys()].filter((name) => paramOf(compiled, name) === undefined);
  if (unknown.length > 0 && compiled.ignoresUnknown) {
    for (const name of unknown) {
      if (name.startsWith("_")) continue;
      const suggestion = suggestParam(name, compiled.names);
      warnings.push(paramWarning(name.slice(0, WARNED_VALUE_LENGTH), params.get(name) ?? "", "unknown parameter, ignored", suggestion === undefined ? undefined : [suggestion]));
    }
  } else if (unknown.length > 0) {
    throw new ApiError(
      "UNKNOWN_PARAMETERS",
      {
        unknownParams: unknown.map((param) => {
          const suggestion = suggestParam(param, compiled.names);
          return suggestion === undefined ? { param } : { param, suggestion };
        }),
        validParams: compiled.names.filter((name) => !/_(gte|lte)$/.test(name)).concat("{attribute}_gte", "{attribute}_lte"),
      },
      `Unknown query parameter${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
    );
  }
  const values: ParamValues = {};
  for (const [name, raw] of params) {
    const param = paramOf(compiled, name);
    // A name the route does not take is ignored here (the route ignores unknown names).
    if (param === undefined) continue;
    const { schema, validate } = param;
    // An empty value is an absent one (`team=` from a form left blank), unless the hosted service refuses it.
    if (raw.trim().length === 0 && schema["x-empty"] !== "refuse") continue;
    if (schema.type === "integer") {
      values[name] = readNumber(name, schema, raw, warnings);
      continue;
    }
    const value = normalise(schema, raw, name, warnings);
    if (!validate(value)) {
      const error = validate.errors?.[0];
      if (error?.keyword === "enum" && schema["x-lenient"] === true && schema.enum !== undefined) {
        // Kept as sent: the route reads it as matching nothing.
        warnings.push(paramWarning(name, raw, `${raw.slice(0, WARNED_VALUE_LENGTH)} is not a known ${name}: nothing matches it`, closest(raw, schema.enum, 3)));
        values[name] = value;
        continue;
      }
      throw describeFailure(name, schema, raw, error);
    }
    values[name] = value;
  }
  return values;
}

/**
 * A number as the hosted service reads one (`Number()` of the text: spaces around it, decimals,
 * exponents); then the schema's range. A decimal is kept for exact bounds, rounded down (with a
 * warning) for sizes and offsets.
 */
function readNumber(name: string, schema: ParamSchema, raw: string, warnings: ParamWarning[]): number {
  const text = raw.trim();
  const value = text.length === 0 ? Number.NaN : Number(text);
  const minimum = schema.minimum ?? 0;
  const maximum = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(value) || value < minimum || value > maximum) {
    throw invalidParameter(name, raw, `must be a number from ${minimum} to ${schema.maximum ?? "any"}`);
  }
  if (Number.isInteger(value) || schema["x-decimal"] === "exact") return value;
  const whole = Math.floor(value);
  if (whole < minimum) throw invalidParameter(name, raw, `must be a number from ${minimum} to ${schema.maximum ?? "any"}`);
  warnings.push(paramWarning(name, raw, `${name} is a whole number: ${text} was read as ${whole}`));
  return whole;
}

/**
 * The suggestion for an unknown parameter on a route accepting `names`: for a name of the table,
 * its first candidate that fits (none when none does: `page` on bulk, which has no paging, must
 * not become the nearest spelling, `badge`); for any other name, the closest parameter.
 */
export function suggestParam(param: string, names: readonly string[]): string | undefined {
  // A Map, not an object: `__proto__` or `constructor` from a client must not find Object's members.
  const candidates = SUGGESTIONS.get(param);
  if (candidates !== undefined) return candidates.find((candidate) => candidate.startsWith("/") || names.includes(candidate));
  return closest(param, names, 1)[0];
}

function normalise(schema: ParamSchema, raw: string, name: string, warnings: ParamWarning[]): string {
  switch (schema["x-normalise"]) {
    case "lower": return raw.trim().toLowerCase();
    case "position": {
      const text = raw.trim();
      return /^(pg|sg|sf|pf|c)$/i.test(text) ? text.toUpperCase() : text.toLowerCase();
    }
    case "badgeTier": return parseBadgeTier(raw.trim()) ?? raw.trim();
    case "cursor": {
      // The hosted service's parseInt: leading digits count, anything else is 0.
      const digits = /^\s*\+?(\d+)/.exec(raw)?.[1];
      const offset = digits === undefined ? 0 : Math.min(Number(digits.slice(0, 10)), MAX_CURSOR);
      if (digits === undefined || digits !== raw.trim()) warnings.push(paramWarning(name, raw, `not an offset: read as ${offset}`));
      return String(offset);
    }
    default: return raw;
  }
}

function describeFailure(name: string, schema: ParamSchema, value: string, error: ErrorObject | undefined): ApiError {
  switch (error?.keyword) {
    case "type":
    case "minimum":
    case "maximum":
      return invalidParameter(name, value, `must be a decimal integer from ${schema.minimum ?? 0} to ${schema.maximum ?? "any"}`);
    case "enum":
      return invalidParameter(name, value, `must be one of the allowed values`, schema.enum);
    case "pattern":
      return invalidParameter(name, value, schema["x-reason"] ?? `must match ${schema.pattern}`);
    case "minLength":
    case "maxLength":
      return invalidParameter(name, value, `must be ${schema.minLength ?? 0} to ${schema.maxLength ?? "any number of"} characters`);
    default:
      return invalidParameter(name, value, error?.message ?? "is invalid");
  }
}
