// Positions and position groups as bit masks: PG=1, SG=2, SF=4, PF=8, C=16.

export const POSITIONS = ["PG", "SG", "SF", "PF", "C"] as const;
export type Position = (typeof POSITIONS)[number];

export const POSITION_BIT: Readonly<Record<Position, number>> = { PG: 1, SG: 2, SF: 4, PF: 8, C: 16 };

export const POSITION_GROUPS = { guard: ["PG", "SG"], wing: ["SG", "SF"], big: ["PF", "C"] } as const;

/** A position or group, any case, to the mask of positions it covers; undefined when unknown. */
export function parsePositionMask(text: string): number | undefined {
  const upper = text.toUpperCase();
  if ((POSITIONS as readonly string[]).includes(upper)) return POSITION_BIT[upper as Position];
  const group = POSITION_GROUPS[text.toLowerCase() as keyof typeof POSITION_GROUPS] as readonly Position[] | undefined;
  return group?.reduce((mask, position) => mask | POSITION_BIT[position], 0);
}

export function isPosition(text: string): text is Position {
  return (POSITIONS as readonly string[]).includes(text);
}
