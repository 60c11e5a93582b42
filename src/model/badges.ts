import { createHash } from "node:crypto";

// The badge catalogue of the current game (40 badges), badge tiers and their ordering. Categories
// are 2kratings' (its badge pills), the vocabulary the hosted service's data carries.

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

export const BADGE_CATEGORIES = ["Outside Scoring", "Inside Scoring", "Playmaking", "Defense", "Rebounding", "General Offense"] as const;
export type BadgeCategory = (typeof BADGE_CATEGORIES)[number];
/** The names our categories had before docs/compatibility.md#fidelity-rules, still accepted by the `category` filter. */
export const LEGACY_BADGE_CATEGORIES: Readonly<Record<string, BadgeCategory>> = {
  Shooting: "Outside Scoring", Finishing: "Inside Scoring", General: "General Offense",
};

const CATALOGUE: Readonly<Record<BadgeCategory, readonly string[]>> = {
  "Outside Scoring": ["Deadeye", "Limitless Range", "Mini Marksman", "Set Shot Specialist", "Shifty Shooter"],
  "Inside Scoring": [
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
  "General Offense": ["Brick Wall", "Slippery Off-Ball", "Pogo Stick"],
};

/** One line per badge: what it boosts, for the badge routes. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  "Deadeye": "Jump shots taken with a defender closing out lose less accuracy",
  "Limitless Range": "Extends the range a player can shoot threes from comfortably",
  "Mini Marksman": "Boosts shots of smaller players over taller defenders",
  "Set Shot Specialist": "Boosts stand-still jump shots",
  "Shifty Shooter": "Boosts off-the-dribble and high-difficulty jump shots",
  "Aerial Wizard": "Boosts alley-oops and putbacks",
  "Float Game": "Boosts floaters and runners",
  "Hook Specialist": "Boosts post hooks",
  "Layup Mixmaster": "Boosts creative layups: euro steps, reverses, scoops",
  "Paint Prodigy": "Boosts finishing moves close to the rim",
  "Physical Finisher": "Finishes through contact on layups",
  "Post Fade Phenom": "Boosts fadeaways and shots out of the post",
  "Post Powerhouse": "Backs defenders down more effectively in the post",
  "Post-Up Poet": "Boosts post moves and shots from the post",
  "Posterizer": "Raises the chance of dunking on a defender",
  "Rise Up": "Raises the chance of dunking or finishing in the paint from a standstill",
  "Ankle Assassin": "Dribble moves break defenders' ankles more often",
  "Bail Out": "Passes out of a jump shot or layup are more accurate",
  "Break Starter": "Boosts long outlet passes after a defensive rebound",
  "Dimer": "Teammates shoot better off this player's passes",
  "Handles for Days": "Dribble moves cost less energy",
  "Lightning Launch": "Faster first step when attacking from the perimeter",
  "Strong Handle": "Keeps the dribble through contact",
  "Unpluckable": "Harder to strip of the ball",
  "Versatile Visionary": "Boosts passes of every kind to open teammates",
  "Challenger": "Better contests of perimeter shots",
  "Glove": "Better at stealing the ball from a ball handler or shooter",
  "High-Flying Denier": "Boosts chase-down and weak-side blocks",
  "Immovable Enforcer": "Holds position against drives and post-ups",
  "Interceptor": "More passing lanes cut off and intercepted",
  "Off-Ball Pest": "Harder to get open against when the player is off the ball",
  "On-Ball Menace": "Stays in front of ball handlers on the perimeter",
  "Paint Patroller": "Better at blocking and contesting shots at the rim",
  "Pick Dodger": "Navigates through and around screens",
  "Post Lockdown": "Defends post moves and strips post players",
  "Boxout Beast": "Boxes out opponents for rebounds",
  "Rebound Chaser": "Tracks down rebounds from farther away",
  "Brick Wall": "Screens hit harder and cost defenders more energy",
  "Slippery Off-Ball": "Gets open off screens and cuts more easily",
  "Pogo Stick": "Jumps again quickly after landing",
};

export interface BadgeDefinition {
  readonly name: string;
  readonly slug: string;
  readonly category: BadgeCategory;
  readonly description: string;
  /** snake_case form, as in the scrape's `badge_<snake>` columns. */
  readonly snake: string;
}

export function badgeSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/**
 * What a badge is matched by (docs/data.md#source-values-kept-exactly): its name or slug folded to lower-case letters and
 * digits, so `Post-Up Poet`, `post up poet`, `post-up-poet` and `Handles For Days` against
 * `Handles for Days` meet.
 */
export function foldBadgeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The catalogue in a fixed order; a badge's position is its column code. */
export const BADGES: readonly BadgeDefinition[] = BADGE_CATEGORIES.flatMap((category) =>
  CATALOGUE[category].map((name) => ({
    name, slug: badgeSlug(name), category, description: DESCRIPTIONS[name] ?? name, snake: badgeSlug(name).replace(/-/g, "_"),
  })),
);
export const BADGE_COUNT = BADGES.length;

export const BADGE_INDEX_BY_SLUG: ReadonlyMap<string, number> = new Map(BADGES.map((badge, i) => [badge.slug, i]));
/** By name folded (foldBadgeName), so `Post-Up Poet`, `post up poet` and `postuppoet` meet. */
export const BADGE_INDEX_BY_FOLDED_NAME: ReadonlyMap<string, number> = new Map(
  BADGES.map((badge, i) => [foldBadgeName(badge.name), i]),
);

/** A badge document's `_id`: stable for its slug, in every edition. */
export function badgeId(slug: string): string {
  return createHash("sha1").update(`badge\u0000${slug}`).digest("hex").slice(0, 24);
}
