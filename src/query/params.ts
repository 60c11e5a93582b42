// Query-parameter schemas per route (ajv-compiled once; the OpenAPI document is generated from
// the same objects) and validation of a raw parameter map against them. Values are strings on
// the wire. docs/compatibility.md#fidelity-rules: what the hosted service answers, we answer: an empty value is an absent
// one (except where the hosted service refuses it, `x-empty: "refuse"`); numbers are read as the
// hosted service reads them (surrounding spaces, decimals: `limit=2.5` is 2, `minRating=75.5`
// compares as 75.5); an unknown value of a lenient enum (`x-lenient`) matches nothing instead of
// failing; a cursor that is no number reads as 0. Whatever was not understood as sent is said in
// `meta.warnings` (ParamWarning); case-insensitive enums are canonicalised first.
// Validation gives each route a typed value object inferred from its schemas (ValuesOf): numbers
// are numbers, enums their union, defaults applied once here, attribute bounds parsed once into
// `bounds`; handlers read it as it is, never re-parse or restate a default.

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
  /** Required: absent, empty or blank is a 400 MISSING_PARAMETER with this message (the OpenAPI document marks it required). */
  "x-required"?: string;
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

/**
 * What one validated parameter holds, read from its schema: a number for an integer (a decimal
 * kept where `x-decimal: exact`) and for a cursor (the offset it reads as); the enum's union for a
 * strict enum; a string otherwise (a lenient enum keeps an unknown value as sent).
 */
export type ParamValue<S> =
  S extends { "x-normalise": "cursor" } ? number
    : S extends { type: "integer" } ? number
      : S extends { "x-lenient": true } ? string
        : S extends { enum: readonly (infer E extends string)[] } ? E
          : string;

/** A parameter always present once validated: its schema has a default (a cursor reads as 0). */
type IsDefaulted<S> = S extends { default: string | number } ? true : S extends { "x-normalise": "cursor" } ? true : S extends { "x-required": string } ? true : false;

/** The parameters a route names (not the index signature of the attribute bounds, which go to `bounds`). */
type NamedParams<S> = { [K in keyof S as string extends K ? never : S[K] extends { "x-attribute-bound": true } ? never : K]: S[K] };

/** One attribute bound as sent (`three_ball_gte=80`), its name split once at validation. */
export interface BoundValue {
  /** The parameter as sent, for messages. */
  readonly parameter: string;
  /** The attribute part of the name, as sent (an alias is resolved by the player selection). */
  readonly attribute: string;
  /** `_gte` (a lower bound) or `_lte`. */
  readonly isLower: boolean;
  readonly value: number;
}

/**
 * The value object of a route whose query parameters are `S`: every named parameter with its type,
 * required where it has a default or is required (`x-required`), and the attribute bounds sent, in query order.
 */
export type ValuesOf<S> =
  & { readonly [K in keyof NamedParams<S> as IsDefaulted<NamedParams<S>[K]> extends true ? K : never]: ParamValue<NamedParams<S>[K]> }
  & { readonly [K in keyof NamedParams<S> as IsDefaulted<NamedParams<S>[K]> extends true ? never : K]?: ParamValue<NamedParams<S>[K]> }
  & { readonly bounds: readonly BoundValue[] };

/** Any route's values, as code that does not know the route sees them. */
export type ParamValues = { readonly [name: string]: unknown; readonly bounds: readonly BoundValue[] };

const ERA_VALUES = ["curr", "class", "allt"] as const;
const ERA_PARAM = {
  type: "string",
  enum: ERA_VALUES,
  description: "Era: curr (default), class or allt",
  "x-normalise": "lower",
  "x-empty": "refuse",
} as const satisfies ParamSchema;
const ERA_OR_ALL_PARAM = {
  ...ERA_PARAM,
  enum: [...ERA_VALUES, "all"],
  description: "Era: curr (default), class, allt, or all",
} as const satisfies ParamSchema;
const rating = (description: string) => ({ type: "integer", minimum: 0, maximum: 99, description: `${description} (a decimal compares exactly)`, "x-decimal": "exact" }) as const satisfies ParamSchema;

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
export function playerFilterParams(options: { withAllEras: boolean; isAllErasDefault?: boolean }) {
  // GET /api/players/bulk reads every era when none is given, as the hosted service's does.
  const era = !options.withAllEras ? ERA_PARAM
    : options.isAllErasDefault === true ? { ...ERA_OR_ALL_PARAM, description: "Era: curr, class, allt, or all (default: every era, as the hosted service answers)" }
    : ERA_OR_ALL_PARAM;
  return {
    era,
    teamType: { ...era, description: "Alias of era (era wins when both are given)" },
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
  } as const satisfies ParamSchemas;
}

/** What a player-listing route's values may hold: any of the filters (a route takes all of them, or a few). */
export type PlayerFilterValues = Partial<ValuesOf<ReturnType<typeof playerFilterParams>>>;

export const CURSOR_PARAM = {
  type: "string", pattern: "^\\d{1,10}$", description: "Offset cursor from meta.pagination.nextCursor (read as the hosted service reads it: its leading digits, otherwise 0, with a warning)",
  "x-reason": "must be a non-negative decimal integer", "x-normalise": "cursor",
} as const satisfies ParamSchema;
export const OFFSET_PARAM = { type: "integer", minimum: 0, maximum: 1_000_000_000, default: 0, description: "Rows to skip" } as const satisfies ParamSchema;
export const limitParam = (maximum: number, fallback: number) => ({
  type: "integer", minimum: 1, maximum, default: fallback, description: `Page size, 1 to ${maximum}, default ${fallback} (a decimal is rounded down; empty is refused)`, "x-empty": "refuse",
}) as const satisfies ParamSchema;
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
ajv.addKeyword({ keyword: "x-required" });

/** A validator of a request's JSON body (call-route.ts) by the same ajv as the parameters: one instance for everything a client sends. */
export function requestValidator<T>(schema: Readonly<Record<string, unknown>>): ValidateFunction<T> {
  return validatorOnFirstUse<T>(ajv, schema);
}

export interface CompiledParams<V = ParamValues> {
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
  /** The listed bound names split once (`three_ball_gte` → three_ball, lower), so a request never matches them. */
  readonly listedBounds: ReadonlyMap<string, { attribute: string; isLower: boolean }>;
  /** What an absent parameter reads as, where it reads as something: its default; a cursor 0. */
  readonly defaults: readonly (readonly [name: string, value: string | number])[];
  /** The required parameters (`x-required`) with the message their absence gets. */
  readonly required: readonly (readonly [name: string, message: string])[];
  /** Type only, never set: the value object validateParams gives for these schemas. */
  readonly values?: V;
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

export function compileParams<const S extends ParamSchemas>(schemas: S, options: { ignoresUnknown?: boolean } = {}): CompiledParams<ValuesOf<S>> {
  const entries: [string, ParamSchema][] = Object.entries(schemas);
  const bound = entries.find(([, schema]) => schema["x-attribute-bound"] === true)?.[1];
  const listedBounds = new Map<string, { attribute: string; isLower: boolean }>();
  const defaults: [string, string | number][] = [];
  const required: [string, string][] = [];
  for (const [name, schema] of entries) {
    if (schema["x-required"] !== undefined) required.push([name, schema["x-required"]]);
    const match = schema["x-attribute-bound"] === true ? ATTRIBUTE_BOUND_NAME.exec(name) : null;
    if (match !== null) listedBounds.set(name, { attribute: match[1] as string, isLower: match[2] === "gte" });
    if (schema.default !== undefined) defaults.push([name, schema.default]);
    else if (schema["x-normalise"] === "cursor") defaults.push([name, 0]);
  }
  return {
    schemas,
    ignoresUnknown: options.ignoresUnknown === true,
    names: Object.keys(schemas),
    validators: new Map(entries.map(([name, schema]) => [name, compileOne(schema)])),
    anyBound: bound === undefined ? undefined : { schema: { ...bound, description: "Bound on an attribute of the edition" }, validate: compileOne(bound) },
    listedBounds,
    defaults,
    required,
  };
}

/** The values of a route that takes no attribute bounds share this empty list. */
const NO_BOUNDS: readonly BoundValue[] = Object.freeze([]);

/**
 * Unknown names → UNKNOWN_PARAMETERS (or, where the route ignores them, a warning); bad values →
 * INVALID_PARAMETER naming parameter, value and reason; then a required one absent (or blank) →
 * MISSING_PARAMETER. What was accepted leniently (docs/compatibility.md#fidelity-rules)
 * is pushed onto `warnings`. One pass over the parameters: each name is looked up once (an
 * attribute bound's name matched at most once); an unknown name still outranks a bad value.
 */
export function validateParams<V>(compiled: CompiledParams<V>, params: QueryParams, warnings: ParamWarning[] = []): V {
  const values: Record<string, unknown> = {};
  let bounds: BoundValue[] | undefined;
  let unknown: string[] | undefined;
  let failure: unknown;
  const warnedFrom = warnings.length;
  for (const [name, raw] of params) {
    let schema: ParamSchema;
    let validate: ValidateFunction;
    let boundName: { attribute: string; isLower: boolean } | undefined;
    // hasOwn: `__proto__` or `constructor` from a client must not find Object's members.
    if (Object.hasOwn(compiled.schemas, name)) {
      schema = compiled.schemas[name] as ParamSchema;
      validate = compiled.validators.get(name) as ValidateFunction;
      boundName = schema["x-attribute-bound"] === true ? compiled.listedBounds.get(name) : undefined;
    } else {
      const match = compiled.anyBound === undefined ? null : ATTRIBUTE_BOUND_NAME.exec(name);
      if (match === null || compiled.anyBound === undefined) {
        (unknown ??= []).push(name);
        continue;
      }
      ({ schema, validate } = compiled.anyBound);
      boundName = { attribute: match[1] as string, isLower: match[2] === "gte" };
    }
    // After a bad value only the names are still read: an unknown one among them is the answer.
    if (failure !== undefined) continue;
    // An empty value is an absent one (`team=` from a form left blank), unless the hosted service refuses it.
    if (raw.trim().length === 0 && schema["x-empty"] !== "refuse") continue;
    try {
      if (schema.type === "integer") {
        const value = readNumber(name, schema, raw, warnings);
        if (boundName === undefined) values[name] = value;
        else (bounds ??= []).push({ parameter: name, attribute: boundName.attribute, isLower: boundName.isLower, value });
        continue;
      }
      values[name] = readText(name, schema, validate, raw, warnings);
    } catch (error) {
      failure = error;
    }
  }
  if (unknown !== undefined && !compiled.ignoresUnknown) throw unknownParameters(compiled, unknown);
  if (failure !== undefined) throw failure;
  for (const [name, message] of compiled.required) {
    const value = values[name];
    if (value === undefined || (typeof value === "string" && value.trim().length === 0)) throw new ApiError("MISSING_PARAMETER", { parameter: name }, message);
  }
  if (unknown !== undefined) {
    // Warned of first, before what was read leniently, as a client reads its query from the left.
    const ignored: ParamWarning[] = [];
    for (const name of unknown) {
      if (name.startsWith("_")) continue;
      const suggestion = suggestParam(name, compiled.names);
      ignored.push(paramWarning(name.slice(0, WARNED_VALUE_LENGTH), params.get(name) ?? "", "unknown parameter, ignored", suggestion === undefined ? undefined : [suggestion]));
    }
    warnings.splice(warnedFrom, 0, ...ignored);
  }
  for (const [name, value] of compiled.defaults) if (values[name] === undefined) values[name] = value;
  values.bounds = bounds ?? NO_BOUNDS;
  // The boundary where the types are proven: every value above was read with the schema its
  // name has in `compiled`, which is what V is inferred from (ValuesOf).
  return values as V;
}

function unknownParameters(compiled: CompiledParams<unknown>, unknown: readonly string[]): ApiError {
  return new ApiError(
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

/** A string parameter: canonicalised, then validated; a lenient enum keeps an unknown value (warned of). */
function readText(name: string, schema: ParamSchema, validate: ValidateFunction, raw: string, warnings: ParamWarning[]): string | number {
  // The hosted service's parseInt: leading digits count, anything else is 0. Always a valid offset.
  if (schema["x-normalise"] === "cursor") return readCursor(name, raw, warnings);
  const value = normalise(schema, raw);
  if (validate(value)) return value;
  const error = validate.errors?.[0];
  if (error?.keyword === "enum" && schema["x-lenient"] === true && schema.enum !== undefined) {
    // Kept as sent: the route reads it as matching nothing.
    warnings.push(paramWarning(name, raw, `${raw.slice(0, WARNED_VALUE_LENGTH)} is not a known ${name}: nothing matches it`, closest(raw, schema.enum, 3)));
    return value;
  }
  throw describeFailure(name, schema, raw, error);
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

function normalise(schema: ParamSchema, raw: string): string {
  switch (schema["x-normalise"]) {
    case "lower": return raw.trim().toLowerCase();
    case "position": {
      const text = raw.trim();
      return /^(pg|sg|sf|pf|c)$/i.test(text) ? text.toUpperCase() : text.toLowerCase();
    }
    case "badgeTier": return parseBadgeTier(raw.trim()) ?? raw.trim();
    default: return raw;
  }
}

/** A cursor as the hosted service reads it (parseInt: its leading digits, otherwise 0), capped at MAX_CURSOR. */
function readCursor(name: string, raw: string, warnings: ParamWarning[]): number {
  const digits = /^\s*\+?(\d+)/.exec(raw)?.[1];
  const offset = digits === undefined ? 0 : Math.min(Number(digits.slice(0, 10)), MAX_CURSOR);
  if (digits === undefined || digits !== raw.trim()) warnings.push(paramWarning(name, raw, `not an offset: read as ${offset}`));
  return offset;
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
