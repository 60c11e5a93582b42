// A stand-in for the hosted service, on node:http: its wire shapes and quirks (absent fields, no
// nextCursor, archived rows with badges.top but no list, a Mongo-style _id, an edition list with
// fields left out, integer team averages, an error message that echoes the key) and, on demand,
// the failures a sync must survive or refuse. Every request is logged.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { ERAS, type Era } from "../../src/model/eras.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { randomPlayers } from "../fixtures/random-edition.js";

export const STAND_IN_KEY = "2k_standin0123456789abcdefghijklmn";

export type Fault =
  | "truncate" | "reset" | "retry-after-1" | "retry-after-long" | "success-false" | "short" | "bad-row" | "cut-json" | "server-error"
  | "duplicate-slug" | "drop-row";

export interface StandInEdition {
  gameVersion: string;
  status: "current" | "archived";
  /** Fixture records (their _id is ours); served in the hosted shape. */
  players: PlayerRecord[];
  /** The edition list entry's optional fields, as the stand-in lists them. */
  entry: { label?: string; capturedAt?: string; source?: string; withCounts: boolean };
  /** Whether the versioned bulk's meta carries capturedAt. */
  metaCapturedAt?: string;
}

export interface LoggedRequest {
  path: string;
  status: number;
  ifNoneMatch: string | undefined;
  key: string | undefined;
}

export interface StandIn {
  base: string;
  editions: StandInEdition[];
  log: LoggedRequest[];
  /** Makes the next `times` requests for `path` fail with `fault`. */
  fail(path: string, fault: Fault, times?: number): void;
  /** New content: every ETag changes. */
  bump(): void;
  /** A new ETag for one path only, its content the same. */
  touch(path: string): void;
  close(): Promise<void>;
}

export function standInEditions(): StandInEdition[] {
  return [
    { gameVersion: "2K26", status: "current", players: randomPlayers(60, 31), entry: { label: "NBA 2K26", capturedAt: "2026-11-01T00:00:00.000Z", withCounts: true } },
    { gameVersion: "2K25", status: "archived", players: randomPlayers(45, 32), entry: { withCounts: false } },
    {
      gameVersion: "2K24", status: "archived", players: randomPlayers(45, 33),
      entry: { label: "NBA 2K24", capturedAt: "2025-09-01T00:00:00.000Z", source: "hosted", withCounts: true },
      metaCapturedAt: "2025-09-01T00:00:00.000Z",
    },
  ];
}

/** A record as the hosted service sends it: its own _id, some fields absent, badge list or top by edition. */
export function hostedRow(player: PlayerRecord, i: number, edition: StandInEdition): Record<string, unknown> {
  const { list, top, ...counts } = player.badges;
  return {
    _id: createHash("md5").update(player._id).digest("hex").slice(0, 24),
    name: player.name,
    slug: player.slug,
    team: player.team,
    teamType: player.teamType,
    overall: player.overall,
    positions: player.positions,
    ...(i % 5 === 0 || player.height === undefined ? {} : { height: player.height }),
    ...(Object.keys(player.attributes).length === 0 ? {} : { attributes: player.attributes }),
    badges: edition.status === "current" ? { ...counts, list } : { ...counts, top },
    ...(edition.status === "archived" ? { gameVersion: edition.gameVersion } : {}),
  };
}

export async function startStandIn(editions = standInEditions()): Promise<StandIn> {
  const log: LoggedRequest[] = [];
  const faults = new Map<string, Fault[]>();
  let version = 1;
  const touched = new Map<string, number>();

  const send = (request: IncomingMessage, response: ServerResponse, path: string, status: number, body: unknown, headers: Record<string, string> = {}) => {
    log.push({ path, status, ifNoneMatch: header(request, "if-none-match"), key: header(request, "x-api-key") });
    let bytes = Buffer.from(JSON.stringify(body));
    const extra: Record<string, string> = { "content-type": "application/json; charset=utf-8", ...headers };
    if (status === 200 && (header(request, "accept-encoding") ?? "").includes("gzip") && path.startsWith("/api/players/bulk")) {
      bytes = gzipSync(bytes);
      extra["content-encoding"] = "gzip";
    }
    response.writeHead(status, { ...extra, "content-length": String(bytes.length) });
    response.end(bytes);
  };

  const bulkAnswer = (edition: StandInEdition, era: Era | "all"): { data: Record<string, unknown>[]; meta: Record<string, unknown> } => {
    const players = edition.players.filter((player) => era === "all" || player.teamType === era);
    const data = players.map((player, i) => hostedRow(player, i, edition));
    // The hosted service's versioned bulk pages nothing, but says so without a nextCursor.
    const meta = edition.status === "current"
      ? { count: data.length, total: data.length, filters: { era } }
      : { gameVersion: edition.gameVersion, count: data.length, pagination: { total: data.length, hasMore: false }, filters: { era }, ...(edition.metaCapturedAt ? { capturedAt: edition.metaCapturedAt } : {}) };
    return { data, meta };
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const path = `${url.pathname}${url.search}`;
    const fault = faults.get(path)?.shift();
    if (fault === "reset") {
      log.push({ path, status: 0, ifNoneMatch: header(request, "if-none-match"), key: header(request, "x-api-key") });
      request.socket.destroy();
      return;
    }
    if (url.pathname === "/api/versions") {
      send(request, response, path, 200, {
        success: true,
        data: editions.map((edition) => ({
          gameVersion: edition.gameVersion,
          status: edition.status,
          ...(edition.entry.label ? { label: edition.entry.label } : {}),
          ...(edition.entry.withCounts ? {
            playerCount: edition.players.length,
            teamTypeCounts: Object.fromEntries(ERAS.map((era) => [era, edition.players.filter((player) => player.teamType === era).length])),
          } : {}),
          ...(edition.entry.capturedAt ? { capturedAt: edition.entry.capturedAt } : {}),
          ...(edition.entry.source ? { source: edition.entry.source } : {}),
        })),
        meta: { count: editions.length, current: editions.find((edition) => edition.status === "current")?.gameVersion },
      });
      return;
    }
    const given = header(request, "x-api-key");
    if (given !== STAND_IN_KEY) {
      // Echoes the key it refuses, as a careless service might: the sync must not print it.
      send(request, response, path, 401, { success: false, error: { code: given ? "INVALID_API_KEY" : "MISSING_API_KEY", message: `Invalid API key ${given ?? ""}` } });
      return;
    }
    if (fault === "retry-after-1" || fault === "retry-after-long") {
      send(request, response, path, 429, { success: false, error: { code: "RATE_LIMIT_EXCEEDED", message: "Too many requests" } }, { "retry-after": fault === "retry-after-1" ? "1" : "3600" });
      return;
    }
    if (fault === "server-error") {
      send(request, response, path, 502, { success: false, error: { code: "BAD_GATEWAY", message: "upstream unavailable" } });
      return;
    }
    if (url.pathname === "/api/teams") {
      const current = editions.find((edition) => edition.status === "current")!;
      const teams = [...new Set(current.players.map((player) => player.team))].map((teamName) => ({ teamName, teamType: "curr", playerCount: 1, averageRating: 77 }));
      send(request, response, path, 200, { success: true, data: teams, meta: { count: teams.length } });
      return;
    }
    const era = url.searchParams.get("era") as Era | "all" | null;
    const versioned = /^\/api\/versions\/(2K\d\d)\/players\/bulk$/.exec(url.pathname);
    const edition = url.pathname === "/api/players/bulk"
      ? editions.find((candidate) => candidate.status === "current")
      : editions.find((candidate) => candidate.gameVersion === versioned?.[1] && candidate.status === "archived");
    if (edition === undefined || era === null) {
      send(request, response, path, 404, { success: false, error: { code: "NOT_FOUND", message: `No route for ${url.pathname}` } });
      return;
    }
    const etag = `W/"${createHash("sha1").update(`${version}|${touched.get(path) ?? 0}|${path}`).digest("hex").slice(0, 16)}"`;
    if (header(request, "if-none-match") === etag && fault === undefined) {
      log.push({ path, status: 304, ifNoneMatch: etag, key: given });
      response.writeHead(304, { etag });
      response.end();
      return;
    }
    // A row missing from the players while the answer's own counts agree: only the edition list's counts reveal it.
    const answer = bulkAnswer(fault === "drop-row" ? { ...edition, players: edition.players.filter((player) => player.teamType !== era).concat(edition.players.filter((player) => player.teamType === era).slice(1)) } : edition, era);
    if (fault === "success-false") {
      send(request, response, path, 200, { success: false, error: { code: "INTERNAL_ERROR", message: "database unavailable" } });
      return;
    }
    if (fault === "short") {
      answer.data.pop();
      answer.meta["count"] = answer.data.length;
    }
    if (fault === "bad-row" && answer.data[0]) answer.data[0]["overall"] = 104;
    if (fault === "duplicate-slug" && answer.data[0] && answer.data[1]) {
      answer.data[1] = { ...answer.data[1], slug: answer.data[0]["slug"] };
    }
    const body = Buffer.from(JSON.stringify({ success: true, ...answer }));
    if (fault === "truncate") {
      log.push({ path, status: 200, ifNoneMatch: header(request, "if-none-match"), key: given });
      response.writeHead(200, { "content-type": "application/json", "content-length": String(body.length), etag });
      response.write(body.subarray(0, body.length >> 1), () => response.destroy());
      return;
    }
    if (fault === "cut-json") {
      // A body that arrives whole by its Content-Length but is not complete JSON.
      log.push({ path, status: 200, ifNoneMatch: header(request, "if-none-match"), key: given });
      const cut = body.subarray(0, body.length - 40);
      response.writeHead(200, { "content-type": "application/json", "content-length": String(cut.length), etag });
      response.end(cut);
      return;
    }
    send(request, response, path, 200, { success: true, ...answer }, { etag });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    editions,
    log,
    fail(path, fault, times = 1) {
      faults.set(path, [...(faults.get(path) ?? []), ...new Array<Fault>(times).fill(fault)]);
    },
    bump() {
      version += 1;
    },
    touch(path) {
      touched.set(path, (touched.get(path) ?? 0) + 1);
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
