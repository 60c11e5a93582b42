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

/**
 * The positions a source's list names, read by meaning (docs/data.md#source-values-kept-exactly: the list itself is served as
 * given): case and surrounding spaces aside (`pg`, ` PG ` are PG), each once; an entry that is no
 * position names none. What the position filter and team profiles read.
 */
export function knownPositions(given: readonly string[] | undefined): Position[] {
  const known: Position[] = [];
  for (const entry of given ?? []) {
    const text = entry.trim().toUpperCase();
    if (isPosition(text) && !known.includes(text)) known.push(text);
  }
  return known;
}

/** True when a list names positions only, each spelled as ours (`PG`), once: a list the report need not mention. */
export function isPlainPositionList(given: readonly string[]): boolean {
  return given.every((entry, i) => isPosition(entry) && given.indexOf(entry) === i);
}
