// The attribute registry: the 43 camelCase attribute keys, their groups, their snake_case
// filter/sort names and friendly aliases. Computed once at import; everything else looks up.

export const ATTRIBUTE_GROUPS = {
  outsideScoring: ["closeShot", "midRangeShot", "threePointShot", "freeThrow", "shotIQ", "offensiveConsistency"],
  athleticism: ["speed", "agility", "strength", "vertical", "stamina", "hustle", "durability"],
  insideScoring: ["drivingLayup", "standingDunk", "drivingDunk", "postHook", "postFade", "postControl", "drawFoul", "hands"],
  playmaking: ["passAccuracy", "ballHandle", "speedWithBall", "passIQ", "passVision"],
  defending: ["interiorDefense", "perimeterDefense", "steal", "block", "helpDefenseIQ", "passPerception", "defensiveConsistency"],
  rebounding: ["offensiveRebound", "defensiveRebound"],
  overallTraits: ["intangibles", "potential"],
} as const;

/**
 * A rating a row does not have, in every byte column that holds ratings (attributes, weekly
 * overalls): ratings are 0–99 (importers refuse others), so 255 is never one.
 */
export const ABSENT_RATING = 255;

export type AttributeGroup = keyof typeof ATTRIBUTE_GROUPS;
type GroupMembers = (typeof ATTRIBUTE_GROUPS)[AttributeGroup][number];

/** The six group scores, each the rounded mean of its group (as scraped, where scraped). */
export const GROUP_SCORE_KEYS = [
  "outsideScoring", "athleticism", "insideScoring", "playmaking", "defending", "rebounding",
] as const;
export type GroupScoreKey = (typeof GROUP_SCORE_KEYS)[number];

export type AttributeKey = GroupMembers | GroupScoreKey;

/** Base attributes (37) in group order, then the six group scores: 43 keys, one column each. */
export const ATTRIBUTE_KEYS: readonly AttributeKey[] = [
  ...Object.values(ATTRIBUTE_GROUPS).flat(),
  ...GROUP_SCORE_KEYS,
];

export const ATTRIBUTE_COUNT = ATTRIBUTE_KEYS.length;

/** `shotIQ` → `shot_iq`, `helpDefenseIQ` → `help_defense_iq`: every capital run becomes `_` + lower case. */
export function toSnakeCase(camel: string): string {
  return camel.replace(/[A-Z]+/g, (run) => "_" + run.toLowerCase());
}

export const ATTRIBUTE_ALIASES: Readonly<Record<string, AttributeKey>> = {
  three_ball: "threePointShot",
  dunk: "drivingDunk",
  layup: "drivingLayup",
  defense: "perimeterDefense",
  mid_range: "midRangeShot",
};

/** Column index of every attribute, by camelCase key. */
export const ATTRIBUTE_INDEX: ReadonlyMap<string, number> = new Map(ATTRIBUTE_KEYS.map((key, i) => [key, i]));

/** Column index by every accepted snake_case name or alias. */
export const ATTRIBUTE_BY_PARAM_NAME: ReadonlyMap<string, number> = new Map([
  ...ATTRIBUTE_KEYS.map((key, i) => [toSnakeCase(key), i] as const),
  ...Object.entries(ATTRIBUTE_ALIASES).map(([alias, key]) => [alias, ATTRIBUTE_INDEX.get(key) ?? -1] as const),
]);

/** The snake_case names in column order (the canonical filter/sort names). */
export const ATTRIBUTE_PARAM_NAMES: readonly string[] = ATTRIBUTE_KEYS.map(toSnakeCase);

/** Which group a base attribute belongs to. */
export const GROUP_OF_ATTRIBUTE: ReadonlyMap<string, AttributeGroup> = new Map(
  Object.entries(ATTRIBUTE_GROUPS).flatMap(([group, keys]) => keys.map((key) => [key, group as AttributeGroup] as const)),
);

export type Attributes = Partial<Record<AttributeKey, number>>;
