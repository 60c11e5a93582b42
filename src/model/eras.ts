// Eras (`teamType`) and edition keys.

export const ERAS = ["curr", "class", "allt"] as const;
export type Era = (typeof ERAS)[number];
export const ERA_CODE: Readonly<Record<Era, number>> = { curr: 0, class: 1, allt: 2 };

export function isEra(text: string): text is Era {
  return (ERAS as readonly string[]).includes(text);
}

/** The era a team name implies: `All-Time …` → allt, a season prefix `1995-96 …` → class, else curr. */
export function eraOfTeamName(team: string): Era {
  if (/^all-time\s/i.test(team)) return "allt";
  if (/^\d{4}-\d{2}\s/.test(team)) return "class";
  return "curr";
}

export const EDITION_KEY_PATTERN = /^2K\d{2}$/i;
export const EDITION_STATUSES = ["current", "archived"] as const;
export type EditionStatus = (typeof EDITION_STATUSES)[number];

/** `2k26` → `2K26`; undefined when not the shape 2K + two digits. */
export function normaliseEditionKey(text: string): string | undefined {
  return EDITION_KEY_PATTERN.test(text) ? text.toUpperCase() : undefined;
}

/** `2K26` → `NBA 2K26`. */
export function editionLabel(key: string): string {
  return `NBA ${key}`;
}
