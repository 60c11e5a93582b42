// Reads a format-2 snapshot (a `COURTSDE` header, a JSON directory, then raw 8-aligned sections)
// only to convert it: `build-index --upgrade DIR` turns it back into the edition it was built
// from and rebuilds that with the current builder. The serving path never reads this format.
// What format 2 stored is frozen here (its container and its fragment layout), so a later change
// to the builder does not change how an old file is read.

import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { PlayerRecord, EditionSource } from "../model/player.js";
import type { EditionStatus } from "../model/eras.js";
import type { StringTable } from "./string-table.js";
import { REGISTRY_CATALOGUE } from "../model/catalogue.js";
import { SnapshotError, type SnapshotMeta } from "./snapshot.js";
import { stringCount, stringAt } from "./string-table.js";
import { contentHashV1V2 } from "./snapshot-v1.js";
import { type HistoryWeek, weeksFromColumns } from "./weekly-series.js";

const MAGIC = Buffer.from("COURTSDE", "latin1");
const DIGEST_AT = MAGIC.length + 12;
const HEADER_BYTES = 56;
const SECTION_TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f64: Float64Array } as const;
type SectionType = keyof typeof SECTION_TYPES;

/**
 * Format 2's fragment slots per row: the 15 fields before badges, badges as two slots (open,
 * close), lastUpdated, hotZones, then `top`; STRIDE = slots + the row's end.
 */
const FIELDS_BEFORE_BADGES = 15;
const LAST_UPDATED_SLOT = FIELDS_BEFORE_BADGES + 2;
const HOT_ZONES_SLOT = LAST_UPDATED_SLOT + 1;
const TOP_SLOT = HOT_ZONES_SLOT + 1;
const STRIDE = TOP_SLOT + 2;

/** What format 2's payload held that a rebuild reads. */
interface PayloadV2 {
  meta: SnapshotMeta & { status: EditionStatus };
  fragments: { bytes: Uint8Array; rowStart: Float64Array; slotStart: Uint16Array | Uint32Array };
  history: { ids: StringTable; weeks: HistoryWeek[] } | null;
}

/** The edition a format-2 file was built from: its rows (normalised, in row order), meta and weekly history. */
export function decodeSnapshotV2(file: string, bytes: Uint8Array): EditionSource {
  const name = basename(file);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < HEADER_BYTES || !view.subarray(0, MAGIC.length).equals(MAGIC) || view.readUInt32BE(MAGIC.length) !== 2) {
    throw new SnapshotError(name, "not a format-2 Courtside snapshot");
  }
  const length = Number(view.readBigUInt64BE(MAGIC.length + 4));
  // A private, aligned copy: the views below need 8-byte alignment, and this runs once per file.
  const body = Buffer.from(view.subarray(HEADER_BYTES));
  if (body.length !== length) throw new SnapshotError(name, `truncated or padded: payload is ${body.length} bytes, header says ${length}`);
  if (!createHash("sha256").update(body).digest().equals(view.subarray(DIGEST_AT, DIGEST_AT + 32))) {
    throw new SnapshotError(name, "checksum mismatch: the file is corrupt");
  }
  let payload: PayloadV2;
  try {
    const directoryLength = body.readUInt32BE(0);
    const { tree, sections } = JSON.parse(body.toString("utf8", 4, 4 + directoryLength)) as { tree: string; sections: [SectionType, number, number][] };
    payload = JSON.parse(tree, (_key, value: unknown) => {
      const ref = value as { $section?: unknown } | null;
      if (ref === null || typeof ref !== "object" || typeof ref.$section !== "number") return value;
      const entry = sections[ref.$section];
      const Type = entry && SECTION_TYPES[entry[0]];
      if (!entry || !Type) throw new Error(`unknown section ${ref.$section}`);
      return new Type(body.buffer, body.byteOffset + entry[1], entry[2]);
    }) as PayloadV2;
  } catch (error) {
    throw new SnapshotError(name, `payload does not decode: ${(error as Error).message}`);
  }
  const { meta, fragments, history } = payload;
  if (!meta || !(fragments?.rowStart instanceof Float64Array) || fragments.rowStart.length !== meta.playerCount + 1) {
    throw new SnapshotError(name, "payload is missing its fragments or its counts disagree");
  }
  const players = Array.from({ length: meta.playerCount }, (_, row) => recordOfRow(fragments, row));
  // The rows as they were built hash to the stored content hash: proof that nothing was lost reading them back.
  if (contentHashV1V2(players) !== meta.contentHash) {
    throw new SnapshotError(name, "its rows do not read back to the content hash it stores; left as it is");
  }
  const ids = history ? Array.from({ length: stringCount(history.ids) }, (_, i) => stringAt(history.ids, i)) : [];
  return {
    gameVersion: meta.gameVersion,
    status: meta.status,
    capturedAt: meta.capturedAt,
    source: meta.source,
    players,
    history: history ? weeksFromColumns(ids, history.weeks, REGISTRY_CATALOGUE) : [],
  };
}

/** A row's record from its fragments, keys in the order the builders made them (hotZones before lastUpdated, `top` last in badges). */
function recordOfRow(fragments: PayloadV2["fragments"], row: number): PlayerRecord {
  const { bytes, rowStart, slotStart } = fragments;
  const origin = rowStart[row] as number;
  const at = (slot: number) => origin + (slotStart[row * STRIDE + slot] as number);
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + at(from), at(to) - at(from)).toString("utf8");
  // Every fragment but `top` (and the absent ones, which are empty) starts with its comma.
  const fields = text(0, LAST_UPDATED_SLOT) + text(HOT_ZONES_SLOT, TOP_SLOT) + text(LAST_UPDATED_SLOT, HOT_ZONES_SLOT);
  const record = JSON.parse(`{${fields.slice(1)}}`) as PlayerRecord;
  const top = text(TOP_SLOT, TOP_SLOT + 1);
  if (top.length > 0) record.badges.top = (JSON.parse(`{${top.replace(/^,/, "")}}`) as { top: NonNullable<PlayerRecord["badges"]["top"]> }).top;
  return record;
}
