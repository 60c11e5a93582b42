// Display names for the camelCase keys the API speaks (attributes, attribute groups, hot zones),
// as a person reads them: `threePointShot` → "Three-Point Shot", `shotIQ` → "Shot IQ",
// `topKeyThree` → "Top of the Key Three". The routes that describe attributes and zones send
// them beside the keys (compare, similar, team profile), so pages never spell a key themselves.
// A key this file does not name (an edition's own attribute) is read word by word.

/** Where reading the key word by word would not give the game's own name. */
const NAMED: Readonly<Record<string, string>> = {
  midRangeShot: "Mid-Range Shot",
  threePointShot: "Three-Point Shot",
  speedWithBall: "Speed with Ball",
  // The six group scores' groups, and the two groups of our own.
  groupScore: "Group Scores",
  other: "Other",
  // Hot zones, as the court is read.
  topKeyThree: "Top of the Key Three",
  topKey: "Top of the Key",
  underBasket: "Under the Basket",
};

const labels = new Map<string, string>();

/** `helpDefenseIQ` → "Help Defense IQ": each word capitalised, a run of capitals kept as one word. */
export function wordsOf(key: string): string {
  const words = key.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [key];
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ");
}

/** The display name of an attribute, attribute group or hot zone key. */
export function displayLabel(key: string): string {
  let label = labels.get(key);
  if (label === undefined) {
    label = Object.hasOwn(NAMED, key) ? (NAMED[key] as string) : wordsOf(key);
    // The keys are the editions' own (a few dozen); past that, nothing is kept.
    if (labels.size < 1024) labels.set(key, label);
  }
  return label;
}
