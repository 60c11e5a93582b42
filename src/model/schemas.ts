// JSON Schemas of the records (validated with ajv in the build and the tests) with the
// TypeScript types they describe declared in player.ts. Compiled on first use (an import or a
// build), never by a server that only serves snapshots.

import { Ajv } from "ajv";
import { validatorOnFirstUse } from "./validator.js";
import { ATTRIBUTE_KEYS } from "./attributes.js";
import { BADGE_TIERS } from "./badges.js";
import { ERAS, EDITION_STATUSES } from "./eras.js";
import { POSITIONS } from "./positions.js";
import { HOT_ZONE_KEYS, HOT_ZONE_VALUES, type EditionEntry, type PlayerRecord } from "./player.js";

const rating = { type: "integer", minimum: 0, maximum: 99 } as const;
/** A source's measure as given (docs/data.md#source-values-kept-exactly): text like `6'8"` usually; other text, or a number, kept as it came. */
const measure = { type: ["string", "number"], description: "As the source gives it, usually text like 6'8\"; other text or a number is kept as it came" } as const;
const image = { type: "string", description: "As the source gives it: usually an http(s) URL, \"\" where it has none; any other text is kept as data (pages never link it)" } as const;
const count = { type: "integer", minimum: 0 } as const;
/** A badge entry's tier as the source writes it (docs/data.md#source-values-kept-exactly), usually one of BADGE_TIERS; filters read it by meaning. */
const badgeTier = { type: "string", description: `As the source writes it, usually ${BADGE_TIERS.join(", ")}` } as const;

export const badgeCountsSchema = {
  type: "object",
  required: ["total", "legendary", "hallOfFame", "gold", "silver", "bronze"],
  properties: { total: count, legendary: count, hallOfFame: count, gold: count, silver: count, bronze: count },
} as const;

export const playerSchema = {
  $id: "Player",
  type: "object",
  additionalProperties: false,
  required: ["_id", "name", "slug", "team", "teamType", "overall", "attributes", "badges"],
  properties: {
    _id: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$", description: "Generated (24 hexadecimal characters) or kept from the source" },
    _creationTime: { type: "number", description: "When the row was first seen, ms since the epoch" },
    name: { type: "string", minLength: 1 },
    slug: { type: "string", pattern: "^[a-z0-9]+(-[a-z0-9]+)*$" },
    playerUrl: { type: "string", description: "The player's page at the source, where known" },
    team: { type: "string", minLength: 1 },
    teamType: { enum: ERAS },
    overall: rating,
    positions: {
      type: "array",
      items: { type: "string" },
      description: `As the source gives them, usually one or two of ${POSITIONS.join(", ")}; the position filter reads them case- and space-insensitively`,
    },
    height: measure,
    weight: { type: ["string", "number"], description: "As the source gives it, usually text like 250 lbs; a number (250) or other text is kept as it came" },
    wingspan: measure,
    archetype: { type: "string" },
    college: { type: "string" },
    playerImage: image,
    teamImg: image,
    attributes: {
      type: "object",
      description: "camelCase keys, integers 0–99; the demo's 43 keys are listed, an edition's data may hold others",
      properties: Object.fromEntries(ATTRIBUTE_KEYS.map((key) => [key, rating])),
      additionalProperties: rating,
      propertyNames: { pattern: "^[a-z][A-Za-z0-9]*$" },
    },
    badges: {
      type: "object",
      description: "Counts as the source states them; keys of the source's we do not know pass through",
      required: badgeCountsSchema.required,
      properties: {
        ...badgeCountsSchema.properties,
        list: {
          type: "array",
          description: "As the source gives it: its order, a badge named twice kept twice (hosted lists name each badge by tier, then again by category)",
          items: {
            type: "object",
            description: "The source's entry as it came (keys we do not know included), with our slug where it has none",
            required: ["name", "slug", "tier"],
            properties: {
              name: { type: "string" }, slug: { type: "string" }, tier: badgeTier,
              category: { type: "string", description: "2kratings' badge category, e.g. Outside Scoring" },
              description: { type: "string" },
              imageUrl: { type: "string" },
            },
          },
        },
        top: {
          type: "array",
          maxItems: 3,
          items: { type: "object", required: ["name", "tier"], properties: { name: { type: "string" }, tier: badgeTier } },
        },
      },
    },
    hotZones: {
      type: "object",
      additionalProperties: { type: "string" },
      description: `The hosted service's zone names, each optional, each ${HOT_ZONE_VALUES.join(", ")}; a zone or value a source spells otherwise is kept as it came`,
      properties: Object.fromEntries(HOT_ZONE_KEYS.map((key) => [key, { type: "string" }])),
    },
    gameVersion: { type: "string", description: "The source's where it gives one (e.g. 2K26), as given; else the edition's" },
    ratingHistory: {
      type: "array",
      description: "The source's rating history as it came (even []); where the source gives none, the overall in every edition known to hold the player, newest first",
      items: {
        type: "object",
        required: ["gameVersion", "overall"],
        properties: { gameVersion: { type: "string", minLength: 1 }, overall: { type: "number" }, delta: { type: "number" } },
      },
    },
    lastUpdated: { type: "string" },
    createdAt: { type: "string", description: "ISO 8601: when the row was first seen" },
    extra: { type: "object", description: "The source's other top-level fields, passed through under their own names" },
  },
} as const;

export const editionEntrySchema = {
  $id: "EditionEntry",
  type: "object",
  additionalProperties: false,
  required: ["gameVersion", "label", "status", "playerCount", "teamTypeCounts", "capturedAt", "source"],
  properties: {
    gameVersion: { type: "string", pattern: "^2K\\d{2}$" },
    label: { type: "string" },
    status: { enum: EDITION_STATUSES },
    playerCount: count,
    teamTypeCounts: { type: "object", required: ERAS, additionalProperties: false, properties: { curr: count, class: count, allt: count } },
    capturedAt: { type: "string" },
    source: { type: "string" },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, formats: { uri: (text: string) => /^https?:\/\/\S+$/.test(text) } });

export const isPlayerRecord = validatorOnFirstUse<PlayerRecord>(ajv, playerSchema);
export const isEditionEntry = validatorOnFirstUse<EditionEntry>(ajv, editionEntrySchema);

/** ajv's errors as one line each, for build messages. */
export function describeErrors(errors: readonly { instancePath: string; message?: string }[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`).join("; ");
}
