// The badge catalogue of the current game (40 badges), badge tiers and their ordering.

export const BADGE_TIERS = ["Bronze", "Silver", "Gold", "Hall of Fame", "Legendary"] as const;
export type BadgeTier = (typeof BADGE_TIERS)[number];

/** Tier codes as stored in columns: 0 = none, 1 = Bronze … 5 = Legendary. */
export const TIER_CODE: ReadonlyMap<BadgeTier, number> = new Map(BADGE_TIERS.map((tier, i) => [tier, i + 1]));

/** The count keys of a badges object, highest tier first, as in the wire shape. */
export const TIER_COUNT_KEYS = ["legendary", "hallOfFame", "gold", "silver", "bronze"] as const;
export type TierCountKey = (typeof TIER_COUNT_KEYS)[number];
export const COUNT_KEY_OF_TIER: Readonly<Record<BadgeTier, TierCountKey>> = {
  Legendary: "legendary", "Hall of Fame": "hallOfFame", Gold: "gold", Silver: "silver", Bronze: "bronze",
};

/** Accepts `Hall of Fame`, `hall-of-fame`, `hallOfFame`, `hof`, any case, for every tier. */
export function parseBadgeTier(text: string): BadgeTier | undefined {
  const folded = text.toLowerCase().replace(/[^a-z]/g, "");
  if (folded === "hof") return "Hall of Fame";
  return BADGE_TIERS.find((tier) => tier.toLowerCase().replace(/[^a-z]/g, "") === folded);
}

export const BADGE_CATEGORIES = ["Shooting", "Finishing", "Playmaking", "Defense", "Rebounding", "General"] as const;
export type BadgeCategory = (typeof BADGE_CATEGORIES)[number];

const CATALOGUE: Readonly<Record<BadgeCategory, readonly string[]>> = {
  Shooting: ["Deadeye", "Limitless Range", "Mini Marksman", "Set Shot Specialist", "Shifty Shooter"],
  Finishing: [
    "Aerial Wizard", "Float Game", "Hook Specialist", "Layup Mixmaster", "Paint Prodigy", "Physical Finisher",
    "Post Fade Phenom", "Post Powerhouse", "Post-Up Poet", "Posterizer", "Rise Up",
  ],
  Playmaking: [
    "Ankle Assassin", "Bail Out", "Break Starter", "Dimer", "Handles for Days", "Lightning Launch",
    "Strong Handle", "Unpluckable", "Versatile Visionary",
  ],
  Defense: [
    "Challenger", "Glove", "High-Flying Denier", "Immovable Enforcer", "Interceptor", "Off-Ball Pest",
    "On-Ball Menace", "Paint Patroller", "Pick Dodger", "Post Lockdown",
  ],
  Rebounding: ["Boxout Beast", "Rebound Chaser"],
  General: ["Brick Wall", "Slippery Off-Ball", "Pogo Stick"],
};

export interface BadgeDefinition {
  readonly name: string;
  readonly slug: string;
  readonly category: BadgeCategory;
  /** snake_case form, as in the scrape's `badge_<snake>` columns. */
  readonly snake: string;
}

export function badgeSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** The catalogue in a fixed order; a badge's position is its column code. */
export const BADGES: readonly BadgeDefinition[] = BADGE_CATEGORIES.flatMap((category) =>
  CATALOGUE[category].map((name) => ({ name, slug: badgeSlug(name), category, snake: badgeSlug(name).replace(/-/g, "_") })),
);
export const BADGE_COUNT = BADGES.length;

export const BADGE_INDEX_BY_SLUG: ReadonlyMap<string, number> = new Map(BADGES.map((badge, i) => [badge.slug, i]));
/** By name folded to lower-case letters only, so `Post-Up Poet`, `post up poet` and `postuppoet` meet. */
export const BADGE_INDEX_BY_FOLDED_NAME: ReadonlyMap<string, number> = new Map(
  BADGES.map((badge, i) => [badge.name.toLowerCase().replace(/[^a-z]/g, ""), i]),
);
