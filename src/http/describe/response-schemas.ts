// The JSON Schemas of what routes answer: the records (from src/model/schemas.ts, never written
// twice) as named components, the builders routes use to declare their envelope's data and meta,
// and the shared error envelope. Plain data: the OpenAPI document and the drift test read it.

import { ERAS } from "../../model/eras.js";
import { BADGE_TIERS } from "../../model/badges.js";
import { badgeCountsSchema, editionEntrySchema, playerSchema } from "../../model/schemas.js";
import { ERROR_TABLE } from "../../query/api-error.js";
import type { JsonSchema, RouteResponse } from "../router.js";

export const COMPONENT_NAMES = [
  "Player", "PlayerFields", "SummaryPlayer", "Team", "BadgeCounts", "EditionEntry", "RatingSnapshot",
  "TrendingPlayer", "ChangeEvent", "Badge", "BadgeHolder", "PublicPlayer", "ErrorCode", "ErrorEnvelope",
] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** A record schema from src/model as a mutable, `$id`-free copy (an `$id` would rebase `$ref`s). */
function fromModel(schema: object, description: string, extraProperties: Record<string, JsonSchema> = {}): Record<string, unknown> {
  // JSON round trip: the model schemas are deep-readonly `as const` literals sharing arrays.
  const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown> & { properties: Record<string, JsonSchema> };
  delete copy.$id;
  return { description, ...copy, properties: { ...copy.properties, ...extraProperties } };
}

const copyOf = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema;
const playerProperties = playerSchema.properties;
const pick = (names: readonly (keyof typeof playerProperties)[]): Record<string, JsonSchema> =>
  Object.fromEntries(names.map((name) => [name, copyOf(playerProperties[name])]));

export const ref = (name: ComponentName): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({
  type: "array", items, ...(description === undefined ? {} : { description }),
});
export const integer = (description: string): JsonSchema => ({ type: "integer", minimum: 0, description });
export const text = (description: string): JsonSchema => ({ type: "string", description });
export const boolean = (description: string): JsonSchema => ({ type: "boolean", description });
export const oneOf = (values: readonly string[], description?: string): JsonSchema => ({
  enum: [...values], ...(description === undefined ? {} : { description }),
});

/**
 * An object with exactly these properties (no others), every one required except those named in
 * `optional`: strict, so a field a route starts sending without documenting it fails the drift test.
 */
export function exactObject(properties: Record<string, JsonSchema>, optional: readonly string[] = [], description?: string): JsonSchema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    additionalProperties: false,
    ...(required.length > 0 ? { required } : {}),
    properties,
  };
}

export const gameVersion: JsonSchema = { type: "string", pattern: "^2K\\d{2}$", description: "Edition key, e.g. 2K26", examples: ["2K26"] };
export const era: JsonSchema = { enum: [...ERAS], description: "curr, class or allt" };
export const timestamp = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });
export const filtersMeta: JsonSchema = {
  type: "object",
  description: "The hosted service's five filters, every one present (null when unset), then every other filter applied, as parsed",
  required: ["teamType", "team", "minRating", "maxRating", "position"],
  properties: {
    teamType: { enum: [...ERAS, null], description: "The era applied; null for every era" },
    team: { type: ["string", "null"] },
    minRating: { type: ["number", "null"] },
    maxRating: { type: ["number", "null"] },
    position: { type: ["string", "null"] },
  },
};

/** `meta.pagination` of the cursor-paged routes: the hosted service's five fields, plus `cursor`. */
export const cursorPagination = (totalDescription: string): JsonSchema => exactObject({
  hasMore: boolean("True when another page follows"),
  nextCursor: { type: "string", description: "Pass as `cursor` for the next page; absent on the last page (as the hosted service sends it)" },
  count: integer("Rows on this page"),
  limit: integer("Page size"),
  total: integer(totalDescription),
  cursor: text("The offset of this page"),
}, ["nextCursor"]);

const tier: JsonSchema = oneOf(BADGE_TIERS, "Bronze < Silver < Gold < Hall of Fame < Legendary");
const tierChange = exactObject({ name: text("Badge"), from: tier, to: tier });

/** Examples for the patterned fields: the UI's examples generated from their patterns read as noise. */
const PLAYER_EXAMPLES: Readonly<Record<string, string>> = {
  name: "LeBron James", slug: "lebron-james", team: "Los Angeles Lakers", height: `6'9"`, weight: "250 lbs", wingspan: `7'0"`,
};

const playerExtras: Record<string, JsonSchema> = {
  ...Object.fromEntries(Object.entries(PLAYER_EXAMPLES).map(([name, example]) => [
    name,
    { ...copyOf(playerProperties[name as keyof typeof playerProperties]), examples: [example] },
  ])),
  gameVersion: { type: "string", description: "The source's as it gave it (e.g. 2K26), else the edition the row belongs to; on every row", examples: ["2K26"] },
  ratingHistory: {
    type: "array",
    description: "The source's rating history exactly as it gave it (even `[]`); where the source gave none, the overall in every edition the build knew to hold the player, newest first; on every row",
    items: {
      type: "object",
      description: "As the source gave it (keys we do not know included)",
      required: ["gameVersion", "overall"],
      properties: { gameVersion: text("Edition, e.g. 2K26"), overall: { type: "number" }, delta: { type: "number", description: "Change since the next older entry" } },
    },
  },
  editionRatings: {
    type: "array",
    description: "Ours (single-player routes only): ratingHistory merged with the overall of every edition this service holds with the same _id, newest first",
    items: exactObject({ gameVersion: text("Edition, e.g. 2K26"), overall: { type: "number" }, delta: { type: "number", description: "Change since the next older entry" } }, ["delta"]),
  },
};

/**
 * The wire record: the model's fields, where `extra` (the source's pass-through fields) is not a
 * field but its members, each under its own name beside ours: so other properties are allowed.
 */
function wirePlayer(description: string): Record<string, unknown> & { required?: unknown } {
  const schema = fromModel(playerSchema, description, playerExtras) as Record<string, unknown> & { properties: Record<string, unknown> };
  const { extra: _extra, ...properties } = schema.properties;
  // No `additionalProperties` at all: JSON Schema then allows the pass-through fields, and the
  // typed client (openapi-typescript adds no index signature for an absent keyword) still
  // refuses a misspelt field at compile time.
  const { additionalProperties: _closed, ...open } = schema;
  return { ...open, properties };
}
const PASS_THROUGH = " Rows copied from a source also carry its other top-level fields (e.g. `seasonMovement`, `build`) under their own names.";
const player = wirePlayer(`A player record in full; a field with no value is omitted, never null.${PASS_THROUGH}`);
const { required: _required, ...playerFields } = wirePlayer(
  "A player record trimmed by `fields` to the fields asked for: any of the Player fields, each optional.",
);

/** What moved in a player's ratings from one weekly snapshot to the next (the history's `changes`, and a change event's). */
const weekChanges: JsonSchema = exactObject({
  attributes: {
    type: "object",
    description: "Every attribute whose rating moved, by camelCase key",
    additionalProperties: exactObject({ from: { type: "integer" }, to: { type: "integer" } }),
  },
  badges: exactObject({
    added: arrayOf(exactObject({ name: text("Badge"), tier })),
    removed: arrayOf(exactObject({ name: text("Badge"), tier })),
    upgraded: arrayOf(tierChange),
    downgraded: arrayOf(tierChange),
  }, [], "Only where both weeks kept badge lists"),
}, ["badges"], "What moved since the week before (absent on the first week)");

const teamRef = exactObject({ team: text("Full team name"), slug: text("Team slug") });
const nullableText = (description: string): JsonSchema => ({ type: ["string", "null"], description });

export const COMPONENT_SCHEMAS: Readonly<Record<ComponentName, JsonSchema>> = {
  Player: player,
  PlayerFields: playerFields,
  SummaryPlayer: {
    type: "object",
    description: "A search result",
    additionalProperties: false,
    required: ["_id", "name", "slug", "team", "teamType", "overall"],
    properties: pick(["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg"]),
  },
  Team: exactObject({
    teamName: text("Full team name: Boston Celtics, 1995-96 Chicago Bulls, All-Time Chicago Bulls, Free Agency"),
    slug: text("Lower-case hyphenated team name, accepted wherever a team name is"),
    teamType: era,
    playerCount: integer("Players on the roster"),
    averageRating: { type: "integer", description: "Mean overall, rounded to an integer (as the hosted service sends it)" },
    meanOverall: { type: "number", description: "The exact mean overall" },
    logo: { type: "string", description: "Logo URL; an empty string when unknown" },
  }),
  BadgeCounts: fromModel(badgeCountsSchema, "Badge counts per tier"),
  EditionEntry: fromModel(editionEntrySchema, "One game edition: `current` follows the live data, `archived` never changes"),
  RatingSnapshot: exactObject({
    _id: text("This record's id: the player's _id and the week's date"),
    playerId: text("The player's _id"),
    scrapedAt: timestamp("The week's snapshot time (its date, midnight UTC)"),
    gameVersion,
    previousOverall: { type: "integer", minimum: 0, maximum: 99, description: "The overall the week before (absent on the first week)" },
    newOverall: { type: "integer", minimum: 0, maximum: 99, description: "The overall this week" },
    overallDelta: { type: "integer", description: "newOverall − previousOverall, when it moved" },
    attributeChanges: {
      type: "object",
      description: "Every attribute that moved since the week before, by camelCase key (the hosted service's shape)",
      additionalProperties: exactObject({ prev: { type: "integer" }, new: { type: "integer" } }),
    },
    badgeChanges: exactObject({
      added: arrayOf(exactObject({ name: text("Badge"), tier })),
      removed: arrayOf(exactObject({ name: text("Badge"), tier })),
      upgraded: arrayOf(exactObject({ name: text("Badge"), fromTier: tier, toTier: tier })),
      downgraded: arrayOf(exactObject({ name: text("Badge"), fromTier: tier, toTier: tier })),
    }, [], "Badges that moved since the week before (the hosted service's shape)"),
    changeType: oneOf(["initial", "update", "unchanged"], "initial: the first week held; update: something moved; unchanged (ours): nothing did"),
    date: { type: "string", format: "date" },
    overall: { type: "integer", minimum: 0, maximum: 99 },
    delta: { type: "integer", description: "Change of overall since the previous snapshot (absent on the first)" },
    attributes: copyOf(playerProperties.attributes),
    badges: ref("BadgeCounts"),
    changes: weekChanges,
  }, ["previousOverall", "overallDelta", "attributeChanges", "badgeChanges", "delta", "changes"], "One weekly snapshot of a player's ratings in the current edition, as a change record"),
  TrendingPlayer: exactObject({
    playerId: text("The player's _id"),
    totalDelta: { type: "integer", description: "Sum of the overall's weekly changes in the window" },
    changes: integer("Weeks in the window in which the overall changed"),
    player: { type: "object", additionalProperties: false, required: ["_id", "name", "slug", "team", "teamType", "overall"], properties: pick(["_id", "name", "slug", "team", "teamType", "overall", "playerImage"]) },
  }),
  ChangeEvent: exactObject({
    type: { const: "change" },
    seq: integer("Sequence number: the same on every replica for the same snapshots (day of the week's date × 2^21 + position in that week)"),
    kind: oneOf(["changed", "added", "removed", "traded"], "changed: ratings moved; added/removed: in this week's snapshot and not the week before, or the reverse (a player back under a new _id on another team is one traded or changed event, not both); traded: only the team changed"),
    date: { type: "string", format: "date", description: "The weekly snapshot the change appeared in" },
    gameVersion,
    playerId: text("The player's _id"),
    name: nullableText("Name (null when a removed player is unknown to this server)"),
    slug: nullableText("Slug"),
    team: nullableText("Team"),
    teamSlug: nullableText("Team slug"),
    teamType: { enum: [...ERAS, null], description: "curr, class or allt" },
    overall: exactObject({ from: { type: "integer" }, to: { type: "integer" } }, ["from", "to"], "Overall the week before (absent when added) and this week (absent when removed)"),
    changes: weekChanges,
    trade: exactObject({ from: teamRef, to: teamRef }, [], "The team changed from the week before to this one"),
    previousPlayerId: text("The player's _id the week before, when his row came back under another one (a trade: a generated _id follows the team, the hosted service makes a new row)"),
  }, ["changes", "trade", "previousPlayerId"], "One change event of /api/changes and /api/live"),
  Badge: exactObject({
    _id: text("Stable id of the badge (24 hexadecimal characters of its slug)"),
    name: text("Badge name, e.g. Post-Up Poet"),
    slug: text("Lower-case hyphenated name, e.g. post-up-poet"),
    category: text("The category its source gives (2kratings' pills; the demo's: Outside Scoring, Inside Scoring, Playmaking, Defense, Rebounding, General Offense; a newer game may add others), else Other"),
    description: text("What the badge boosts"),
    imageUrl: text("The badge's image, where the source gave one"),
    gameVersion,
    lastUpdated: timestamp("When the edition's data was captured"),
    createdAt: timestamp("When the edition's data was captured"),
    holders: ref("BadgeCounts"),
  }, ["imageUrl"]),
  BadgeHolder: {
    type: "object",
    additionalProperties: false,
    required: ["_id", "name", "slug", "team", "teamType", "overall", "badgeTier"],
    properties: { ...pick(["_id", "name", "slug", "team", "teamType", "overall", "playerImage"]), badgeTier: tier },
  },
  PublicPlayer: {
    type: "object",
    description: "A summary player plus height",
    additionalProperties: false,
    required: ["_id", "name", "slug", "team", "teamType", "overall"],
    properties: pick(["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg", "height"]),
  },
  ErrorCode: {
    type: "string",
    enum: Object.keys(ERROR_TABLE),
    description: Object.entries(ERROR_TABLE).map(([code, { status, message }]) => `${code} (${status}): ${message}`).join("\n\n"),
  },
  ErrorEnvelope: {
    type: "object",
    additionalProperties: false,
    required: ["success", "error"],
    properties: {
      success: { const: false },
      error: {
        type: "object",
        additionalProperties: false,
        required: ["code", "message", "timestamp"],
        properties: {
          code: { $ref: "#/components/schemas/ErrorCode" },
          message: text("What went wrong, for people"),
          details: { type: "object", description: "For some codes: the parameter, value, reason, allowed values, suggestions, hint" },
          timestamp: timestamp("When the error was answered (as the hosted service says it)"),
        },
      },
    },
  },
};

/** A page of player rows a `fields` parameter may trim: full records unless `fields` names some. */
export const playerRows: JsonSchema = arrayOf(
  { anyOf: [ref("Player"), ref("PlayerFields")] },
  "Full player records, or with `fields` only the fields asked for",
);

/** docs/compatibility.md#fidelity-rules: `meta.warnings`, what a lenient answer did not understand as sent. */
export const warningsSchema: JsonSchema = arrayOf(exactObject({
  parameter: text("The parameter"),
  value: text("Its value as sent (at most 100 characters)"),
  message: text("What was not understood, and what was done instead"),
  suggestions: arrayOf({ type: "string" }, "What was probably meant"),
}, ["suggestions"]), "Present when a value was read leniently (an unknown value matching nothing, a decimal rounded down, an unknown parameter ignored)");

/** docs/data.md#demo-data: `meta.dataSource`, present (`"demo"`) on answers built from demo ratings only. */
export const dataSourceSchema: JsonSchema = { const: "demo", description: "Present on answers built from demo data (generated ratings, real names); absent over real data" };

/** A meta object that may also carry `warnings` and `dataSource` (every envelope's meta may). */
function withWarnings(meta: JsonSchema): JsonSchema {
  const properties = meta.properties as Record<string, JsonSchema> | undefined;
  if (meta.type !== "object" || properties === undefined) return meta;
  return { ...meta, properties: { ...properties, ...("warnings" in properties ? {} : { warnings: warningsSchema }), ...("dataSource" in properties ? {} : { dataSource: dataSourceSchema }) } };
}

/** The success envelope around a route's data and meta. */
export function envelopeSchema(response: Extract<RouteResponse, { kind: "envelope" }>): JsonSchema {
  const hasMeta = response.meta !== undefined;
  const topLevel = response.topLevel ?? {};
  return {
    type: "object",
    additionalProperties: false,
    required: [...(hasMeta ? ["success", "data", "meta"] : ["success", "data"]), ...Object.keys(topLevel)],
    properties: { success: { const: true }, data: response.data, ...(hasMeta ? { meta: withWarnings(response.meta as JsonSchema) } : {}), ...topLevel },
  };
}
