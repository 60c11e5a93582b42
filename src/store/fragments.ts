// Per-record JSON fragments, serialised once at load: a page is a copy of byte ranges, never a
// JSON.stringify of fresh objects. Each fragment also has a fingerprint so a page's ETag is a
// fold of integers instead of a digest of its body.

import type { PlayerRecord } from "../model/player.js";
import { hashBytes, mixHash, HASH_SEED } from "./hash.js";

/** The top-level fields of a player row, in wire order; `fields=` selects among them. */
export const PLAYER_FIELDS = [
  "_id", "name", "slug", "team", "teamType", "overall", "positions", "height", "weight", "wingspan",
  "archetype", "college", "playerImage", "teamImg", "attributes", "badges", "lastUpdated",
] as const;
export type PlayerField = (typeof PLAYER_FIELDS)[number];
export const ALL_FIELDS_MASK = (1 << PLAYER_FIELDS.length) - 1;
export const FIELD_BIT: Readonly<Record<PlayerField, number>> = Object.fromEntries(
  PLAYER_FIELDS.map((field, i) => [field, 1 << i]),
) as Record<PlayerField, number>;

export const SUMMARY_FIELDS_MASK = (["_id", "name", "slug", "team", "teamType", "overall", "positions", "playerImage", "teamImg"] as const)
  .reduce((mask, field) => mask | FIELD_BIT[field], 0);

const BADGES_FIELD = PLAYER_FIELDS.indexOf("badges");
/** Physical slot of the versioned badges fragment (with `top`), after the logical fields. */
const VERSIONED_BADGES_SLOT = PLAYER_FIELDS.length;
const SLOTS = PLAYER_FIELDS.length + 1;

export interface RowShape {
  fieldMask: number;
  /** Versioned rows carry `gameVersion` and badges with `top`. */
  isVersioned: boolean;
}

export class RecordFragments {
  private readonly bytes: Buffer;
  /** row * SLOTS + slot → start in bytes; one extra entry closes the last fragment. */
  private readonly starts: Uint32Array;
  private readonly hashes: Uint32Array;
  private readonly gameVersionFragment: Buffer;
  private readonly gameVersionHash: number;

  constructor(players: readonly PlayerRecord[], gameVersion: string) {
    const parts: string[] = [];
    for (const player of players) {
      const { top, ...unversioned } = player.badges;
      for (const field of PLAYER_FIELDS) {
        const value = field === "badges" ? unversioned : player[field];
        parts.push(value === undefined ? "" : `${JSON.stringify(field)}:${JSON.stringify(value)}`);
      }
      parts.push(`"badges":${JSON.stringify(top ? { ...unversioned, top } : unversioned)}`);
    }
    const encoded = parts.map((part) => Buffer.from(part, "utf8"));
    this.bytes = Buffer.concat(encoded);
    this.starts = new Uint32Array(encoded.length + 1);
    this.hashes = new Uint32Array(encoded.length);
    let offset = 0;
    encoded.forEach((part, i) => {
      this.starts[i] = offset;
      this.hashes[i] = hashBytes(part);
      offset += part.length;
    });
    this.starts[encoded.length] = offset;
    this.gameVersionFragment = Buffer.from(`"gameVersion":${JSON.stringify(gameVersion)}`);
    this.gameVersionHash = hashBytes(this.gameVersionFragment);
  }

  /**
   * Writes `prefix [row,row,…] suffix` into one Buffer and folds the fragment fingerprints of
   * exactly those bytes into `hash`, so equal bodies give equal hashes and any changed byte
   * (with overwhelming likelihood) changes it.
   */
  renderRows(rows: ArrayLike<number>, shape: RowShape, prefix: Buffer, suffix: Buffer): { body: Buffer; hash: number } {
    const slots = this.slotsOf(shape);
    let length = prefix.length + suffix.length + 2 + Math.max(0, rows.length - 1);
    for (let i = 0; i < rows.length; i++) length += this.rowLength(rows[i] as number, slots, shape.isVersioned);
    const body = Buffer.allocUnsafe(length);
    let at = prefix.copy(body, 0);
    body[at++] = 0x5b; // [
    let hash = mixHash(HASH_SEED, rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) body[at++] = 0x2c; // ,
      const row = rows[i] as number;
      body[at++] = 0x7b; // {
      let isFirst = true;
      for (const slot of slots) {
        const index = row * SLOTS + slot;
        const start = this.starts[index] as number;
        const end = this.starts[index + 1] as number;
        if (start === end) continue;
        if (!isFirst) body[at++] = 0x2c;
        isFirst = false;
        at += this.bytes.copy(body, at, start, end);
        hash = mixHash(hash, this.hashes[index] as number);
      }
      if (shape.isVersioned) {
        if (!isFirst) body[at++] = 0x2c;
        at += this.gameVersionFragment.copy(body, at);
        hash = mixHash(hash, this.gameVersionHash);
      }
      body[at++] = 0x7d; // }
    }
    body[at++] = 0x5d; // ]
    at += suffix.copy(body, at);
    return { body: at === length ? body : body.subarray(0, at), hash };
  }

  /** One row as a JSON object string, for routes that add fields (hot zones, history) around it. */
  rowJson(row: number, shape: RowShape): string {
    return this.renderRows([row], shape, Buffer.alloc(0), Buffer.alloc(0)).body.subarray(1, -1).toString("utf8");
  }

  private rowLength(row: number, slots: readonly number[], isVersioned: boolean): number {
    let length = 2;
    let present = 0;
    for (const slot of slots) {
      const index = row * SLOTS + slot;
      const size = (this.starts[index + 1] as number) - (this.starts[index] as number);
      if (size > 0) { length += size; present += 1; }
    }
    if (isVersioned) { length += this.gameVersionFragment.length; present += 1; }
    return length + Math.max(0, present - 1);
  }

  private readonly slotCache = new Map<number, number[]>();
  private slotsOf(shape: RowShape): readonly number[] {
    const key = shape.fieldMask * 2 + (shape.isVersioned ? 1 : 0);
    let slots = this.slotCache.get(key);
    if (!slots) {
      slots = [];
      for (let field = 0; field < PLAYER_FIELDS.length; field++) {
        if ((shape.fieldMask & (1 << field)) === 0) continue;
        slots.push(field === BADGES_FIELD && shape.isVersioned ? VERSIONED_BADGES_SLOT : field);
      }
      this.slotCache.set(key, slots);
    }
    return slots;
  }
}
