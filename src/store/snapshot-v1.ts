// Reads a format-1 snapshot (header + msgpackr records of the full player objects), only to
// convert it: `build-index --upgrade DIR` turns it back into the edition it was built from and
// rebuilds that with the current builder. The serving path never reads this format.

import { createHash } from "node:crypto";
import { basename } from "node:path";
import { Packr } from "msgpackr";
import type { EditionStatus } from "../model/eras.js";
import type { EditionSource, PlayerRecord, WeeklySnapshot } from "../model/player.js";
import { REGISTRY_CATALOGUE } from "../model/catalogue.js";
import { SnapshotError, type SnapshotMeta } from "./snapshot.js";
import { weeksFromColumns } from "./weekly-series.js";

const MAGIC = Buffer.from("COURTSDE", "latin1");
const HEADER_BYTES = MAGIC.length + 4 + 8 + 32;

interface HistoryV1 {
  ids: string[];
  weeks: { date: string; overall: Uint8Array; attributes: Uint8Array; badgeCounts: Uint8Array }[];
}

/** The edition a format-1 file was built from: its rows (normalised, in row order), meta and weekly history. */
export function decodeSnapshotV1(file: string, bytes: Uint8Array): EditionSource {
  const name = basename(file);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < HEADER_BYTES || !view.subarray(0, MAGIC.length).equals(MAGIC) || view.readUInt32BE(MAGIC.length) !== 1) {
    throw new SnapshotError(name, "not a format-1 Courtside snapshot");
  }
  const length = Number(view.readBigUInt64BE(MAGIC.length + 4));
  const body = view.subarray(HEADER_BYTES);
  if (body.length !== length) throw new SnapshotError(name, `truncated or padded: payload is ${body.length} bytes, header says ${length}`);
  if (!createHash("sha256").update(body).digest().equals(view.subarray(MAGIC.length + 12, HEADER_BYTES))) {
    throw new SnapshotError(name, "checksum mismatch: the file is corrupt");
  }
  let payload: { meta?: SnapshotMeta & { status: EditionStatus }; players?: PlayerRecord[]; history?: HistoryV1 | null };
  try {
    payload = new Packr({ useRecords: true, moreTypes: true }).unpack(body) as typeof payload;
  } catch (error) {
    throw new SnapshotError(name, `payload does not decode: ${(error as Error).message}`);
  }
  if (!payload?.meta || !Array.isArray(payload.players) || payload.meta.playerCount !== payload.players.length) {
    throw new SnapshotError(name, "payload is missing its players or its counts disagree");
  }
  if (contentHashV1V2(payload.players) !== payload.meta.contentHash) {
    throw new SnapshotError(name, "its rows do not hash to the content hash it stores; left as it is");
  }
  const { meta } = payload;
  return {
    gameVersion: meta.gameVersion,
    status: meta.status,
    capturedAt: meta.capturedAt,
    source: meta.source,
    players: payload.players,
    history: weeksOf(payload.history ?? null),
  };
}

/** The content hash formats 1 and 2 stored (SHA-256 of each row's JSON, in row order), frozen here for checking old files. */
export function contentHashV1V2(players: readonly PlayerRecord[]): string {
  const hash = createHash("sha256");
  for (const player of players) hash.update(JSON.stringify(player));
  return hash.digest("hex");
}

function weeksOf(history: HistoryV1 | null): WeeklySnapshot[] {
  return history ? weeksFromColumns(history.ids, history.weeks, REGISTRY_CATALOGUE) : [];
}
