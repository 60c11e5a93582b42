// Query-parameter schemas per route (ajv-compiled once; the OpenAPI document is generated from
// the same objects) and validation of a raw parameter map against them. Values are strings on
// the wire: strict decimal integers are converted before validation, so `1e2`, `0x10`, ` 5` and
// `2.5` fail as non-integers; case-insensitive enums are canonicalised first.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { ATTRIBUTE_BY_PARAM_NAME } from "../model/attributes.js";
import { REQUEST_AJV_OPTIONS, validatorOnFirstUse } from "../model/validator.js";
import { BADGES, BADGE_TIERS, parseBadgeTier } from "../model/badges.js";
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
  /** Canonicalise before validation (case-insensitive enums). */
  "x-normalise"?: "lower" | "position" | "badgeTier";
}

export type ParamSchemas = Readonly<Record<string, ParamSchema>>;

const ERA_VALUES = ["curr", "class", "allt"] as const;
const era = (withAll: boolean): ParamSchema => ({
  type: "string",
  enum: withAll ? [...ERA_VALUES, "all"] : ERA_VALUES,
  description: withAll ? "Era: curr (default), class, allt, or all" : "Era: curr (default), class or allt",
  "x-normalise": "lower",
});
const rating = (description: string): ParamSchema => ({ type: "integer", minimum: 0, maximum: 99, description });

/** `{attribute}_gte` / `{attribute}_lte` for every snake_case name and alias. */
const attributeBoundParams: ParamSchemas = Object.fromEntries(
  [...ATTRIBUTE_BY_PARAM_NAME.keys()].flatMap((name) => [
    [`${name}_gte`, rating(`Lower bound on ${name}`)],
    [`${name}_lte`, rating(`Upper bound on ${name}`)],
  ]),
);

export const SEARCH_FILTER_MAX_LENGTH = 80;

/** The filters shared by every player-listing route. */
export function playerFilterParams(options: { withAllEras: boolean }): ParamSchemas {
  return {
    era: era(options.withAllEras),
    teamType: { ...era(options.withAllEras), description: "Alias of era (era wins when both are given)" },
    position: {
      type: "string",
      enum: [...POSITIONS, ...Object.keys(POSITION_GROUPS)],
      description: "PG, SG, SF, PF, C, or a group: guard (PG, SG), wing (SG, SF), big (PF, C); any case",
      "x-normalise": "position",
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
    badge: { type: "string", enum: BADGES.map((badge) => badge.slug), description: "Badge slug, e.g. post-up-poet" },
    badgeTier: {
      type: "string",
      enum: BADGE_TIERS,
      description: "Badge tier (Hall of Fame, hall-of-fame, hallOfFame, any case); with badge the exact tier, alone any badge of that tier",
      "x-normalise": "badgeTier",
    },
    sort: {
      type: "string",
      pattern: "^[a-z_]+(:(asc|desc))?$",
      description: "<field>:<asc|desc>: overall, name or any attribute's snake_case name; default overall:desc",
      "x-reason": "must look like <field>:<asc|desc>, e.g. three_point_shot:desc",
    },
    fields: {
      type: "string",
      pattern: "^[A-Za-z_]+(,[A-Za-z_]+)*$",
      description: "Comma-separated top-level fields to return, e.g. name,overall,attributes",
      "x-reason": "must be a comma-separated list of field names",
    },
  };
}

export const CURSOR_PARAM: ParamSchema = { type: "string", pattern: "^\\d{1,9}$", description: "Offset cursor from meta.pagination.nextCursor", "x-reason": "must be a non-negative decimal integer" };
export const OFFSET_PARAM: ParamSchema = { type: "integer", minimum: 0, maximum: 1_000_000_000, default: 0, description: "Rows to skip" };
export const limitParam = (maximum: number, fallback: number): ParamSchema => ({
  type: "integer", minimum: 1, maximum, default: fallback, description: `Page size, 1 to ${maximum}, default ${fallback}`,
});

/**
 * Names people try → what to use instead, best first: the hosted service's table (CONTRACT §6)
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

export interface CompiledParams {
  readonly schemas: ParamSchemas;
  readonly names: readonly string[];
  /** One validator per parameter: a request pays for the parameters it sends, not for all ~100. */
  readonly validators: ReadonlyMap<string, ValidateFunction>;
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

export function compileParams(schemas: ParamSchemas): CompiledParams {
  return {
    schemas,
    names: Object.keys(schemas),
    validators: new Map(Object.entries(schemas).map(([name, schema]) => [name, compileOne(schema)])),
  };
}

export type ParamValues = Record<string, string | number>;

/** Unknown names → UNKNOWN_PARAMETERS; bad values → INVALID_PARAMETER naming parameter, value and reason. */
export function validateParams(compiled: CompiledParams, params: QueryParams): ParamValues {
  const unknown = [...params.keys()].filter((name) => !Object.hasOwn(compiled.schemas, name));
  if (unknown.length > 0) {
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
    const schema = compiled.schemas[name] as ParamSchema;
    const value = normalise(schema, raw);
    const validate = compiled.validators.get(name) as ValidateFunction;
    if (!validate(value)) throw describeFailure(name, schema, raw, validate.errors?.[0]);
    values[name] = value;
  }
  return values;
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

function normalise(schema: ParamSchema, raw: string): string | number {
  if (schema.type === "integer") return /^-?\d{1,10}$/.test(raw) ? Number(raw) : raw;
  switch (schema["x-normalise"]) {
    case "lower": return raw.toLowerCase();
    case "position": return /^(pg|sg|sf|pf|c)$/i.test(raw) ? raw.toUpperCase() : raw.toLowerCase();
    case "badgeTier": return parseBadgeTier(raw) ?? raw;
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
