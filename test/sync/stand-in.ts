// A stand-in for the hosted service, on node:http, written from docs/compatibility.md#fidelity-rules, docs/data.md#source-values-kept-exactly and issues 22 and
// 29: its validation (its bulk routes take only teamType, team, minRating, maxRating, position, the
// versioned one also era; anything else is a 400, logged as refused) and its document shape
// (Convex ids, _creationTime with a fraction, createdAt, playerUrl, gameVersion, ratingHistory,
// the 35 attribute keys of real 2K data plus one the demo catalogue lacks, a badge it lacks, badge
// descriptions and image URLs, partial hot zones under its names, rows without positions,
// `teamImg: ""`, seasonMovement and build, archived rows with source, capturedAt and importedAt),
// the shapes of its real documents (badge lists naming every badge twice, by tier then by
// category, some second passes partial; a traded player's old and new row sharing a slug; older
// rows without gameVersion or ratingHistory whose badge entries are short; a rookie's
// `ratingHistory: []`; badge names as 2kratings spells them, `Handles For Days`), its quirks (no
// nextCursor, archived rows with badges.top but no list, an edition list with fields left out,
// an error message that echoes the key) and, on demand, the failures a sync must survive or
// refuse. An edition may also be given as documents served exactly as they are (a real dump's
// rows). Every request is logged.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { GROUP_SCORE_KEYS } from "../../src/model/attributes.js";
import { countBadges } from "../../src/model/badge-summary.js";
import type { BadgeTier } from "../../src/model/badges.js";
import { ERAS, isEra, type Era } from "../../src/model/eras.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { randomPlayers } from "../fixtures/random-edition.js";

export const STAND_IN_KEY = "2k_standin0123456789abcdefghijklmn";

export type Fault =
  | "truncate" | "reset" | "retry-after-1" | "retry-after-long" | "success-false" | "short" | "bad-row" | "cut-json" | "server-error"
  | "drop-row";

export interface StandInEdition {
  gameVersion: string;
  status: "current" | "archived";
  /** Fixture records (their _id is ours); served in the hosted shape (hostedRow). */
  players: PlayerRecord[];
  /** The hosted service's own documents, served exactly as they are (instead of `players`). */
  documents?: Record<string, unknown>[];
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
  /** Why the hosted service would have refused the request (its validation), if it would. */
  refused?: string;
}

/** The query parameters the hosted service's bulk routes accept (its rejectUnknownParams and zod schemas). */
const CURRENT_BULK_PARAMS = new Set(["teamType", "team", "minRating", "maxRating", "position"]);
const VERSIONED_BULK_PARAMS = new Set([...CURRENT_BULK_PARAMS, "era"]);

/** Keys the hosted attribute records never have: the group scores and two traits (35 keys remain). */
const NOT_HOSTED_ATTRIBUTES: ReadonlySet<string> = new Set([...GROUP_SCORE_KEYS, "intangibles", "potential"]);
const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";

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
    { gameVersion: "2K26", status: "current", players: withTrades(randomPlayers(60, 31), 2), entry: { label: "NBA 2K26", capturedAt: "2026-11-01T00:00:00.000Z", withCounts: true } },
    { gameVersion: "2K25", status: "archived", players: randomPlayers(45, 32), entry: { withCounts: false } },
    {
      gameVersion: "2K24", status: "archived", players: randomPlayers(45, 33),
      entry: { label: "NBA 2K24", capturedAt: "2025-09-01T00:00:00.000Z", source: "hosted", withCounts: true },
      metaCapturedAt: "2025-09-01T00:00:00.000Z",
    },
  ];
}

/**
 * The players, plus a second row for `count` current players traded since: another team, another
 * _id, the same slug (docs/data.md#source-values-kept-exactly), created after every other row (the old row stays first in
 * the hosted service's order).
 */
function withTrades(players: PlayerRecord[], count: number): PlayerRecord[] {
  const teams = [...new Set(players.filter((player) => player.teamType === "curr").map((player) => player.team))];
  const traded = players.filter((player) => player.teamType === "curr").slice(0, count).map((player, k): PlayerRecord => {
    const team = teams.find((candidate) => candidate !== player.team) ?? "Free Agency";
    return { ...player, _id: `${player._id}-traded`, team, overall: player.overall - 1, _creationTime: 1_760_000_000_000 + k * 1_000 + 0.5 };
  });
  return [...players, ...traded];
}

/** A Convex-shaped id (`j` + 31 characters of its base-32 alphabet), stable for the row and edition. */
export function convexId(seed: string): string {
  const digest = createHash("sha256").update(seed).digest();
  let id = "j";
  for (let i = 0; id.length < 32; i++) id += BASE32[(digest[i] as number) % 32];
  return id;
}

/** How 2kratings spells the badges our registry spells otherwise (kept as spelled: docs/data.md#source-values-kept-exactly). */
const HOSTED_SPELLING: Readonly<Record<string, string>> = { "Handles for Days": "Handles For Days" };
const TIER_ORDER: readonly string[] = ["Legendary", "Hall of Fame", "Gold", "Silver", "Bronze"];
const CATEGORY_ORDER: readonly string[] = ["Outside Scoring", "Inside Scoring", "Playmaking", "Defense", "Rebounding", "General Offense", "All Around"];

/**
 * A record as the hosted service sends it (a document of its players table, or of its
 * rosterArchive for an archive). Row `i` of an answer: every 8th from the 6th is an older row
 * (created months earlier, no gameVersion, no ratingHistory, badge entries without description
 * and image); every 11th from the 8th a rookie with `ratingHistory: []`; every 10th from the 4th
 * has a second badge pass that leaves out its Defense badges (or its last badge).
 */
export function hostedRow(player: PlayerRecord, i: number, edition: StandInEdition): Record<string, unknown> {
  const { list = [], ...rest } = player.badges;
  const isCurrent = edition.status === "current";
  const isOld = i % 8 === 5 && player._creationTime === undefined;
  const isRookie = i % 11 === 7;
  // Its badges: 2kratings' names and categories, descriptions and images on newer rows; one badge the demo catalogue lacks.
  const badges: Record<string, unknown>[] = list.map((badge, b) => ({
    category: badge.category, name: HOSTED_SPELLING[badge.name] ?? badge.name, tier: badge.tier,
    ...(!isOld && b % 2 === 0 ? { description: `What ${badge.name} does, as 2kratings says it` } : {}),
    ...(!isOld && b % 3 === 0 ? { imageUrl: `https://www.2kratings.com/wp-content/uploads/${badge.slug}.png` } : {}),
  }));
  if (i % 4 === 1) badges.push({ name: "Spark Plug", tier: "Gold", category: "All Around", ...(isOld ? {} : { description: "A badge of a newer game", imageUrl: "https://www.2kratings.com/wp-content/uploads/spark-plug.png" }) });
  // Its list: each badge once by tier, then each again by category; some second passes partial.
  const rank = (order: readonly string[], value: unknown) => order.indexOf(String(value));
  const byTier = [...badges].sort((a, b) => rank(TIER_ORDER, a["tier"]) - rank(TIER_ORDER, b["tier"]));
  let byCategory = [...badges].sort((a, b) => rank(CATEGORY_ORDER, a["category"]) - rank(CATEGORY_ORDER, b["category"]));
  if (i % 10 === 3) {
    const withoutDefense = byCategory.filter((badge) => badge["category"] !== "Defense");
    byCategory = withoutDefense.length < byCategory.length ? withoutDefense : byCategory.slice(0, -1);
  }
  const counts = countBadges(badges.map((badge) => ({ tier: badge["tier"] as BadgeTier })));
  const attributes = Object.fromEntries(Object.entries(player.attributes).filter(([key]) => !NOT_HOSTED_ATTRIBUTES.has(key)));
  if (i % 3 === 0 && Object.keys(attributes).length > 0) attributes["clutchShooting"] = 60 + (i % 30);
  const creationTime = player._creationTime ?? 1_735_000_000_000 + i * 1_000 + 0.25 - (isOld ? 9_000_000_000 : 0);
  const older = `2K${Number(edition.gameVersion.slice(2)) - 1}`;
  return {
    _id: convexId(`${edition.gameVersion}/${player._id}`),
    _creationTime: creationTime,
    name: player.name,
    slug: player.slug,
    playerUrl: `https://www.2kratings.com/${player.slug}`,
    team: player.team,
    teamType: player.teamType,
    overall: player.overall,
    teamImg: i % 7 === 0 ? "" : `https://www.2kratings.com/wp-content/uploads/${player.team.replace(/\W+/g, "-")}.svg`,
    ...(i % 6 === 3 ? {} : { positions: player.positions }),
    ...(i % 5 === 0 || player.height === undefined ? {} : { height: player.height }),
    ...(Object.keys(attributes).length === 0 ? {} : { attributes }),
    badges: isCurrent ? { ...counts, list: badges.length === 0 ? [] : [...byTier, ...byCategory] } : { ...rest },
    ...(i % 4 === 0 ? { hotZones: { leftCornerThree: "hot", topKeyThree: "neutral", paint: "cold" } } : {}),
    ...(isOld ? {} : {
      ratingHistory: isRookie ? [] : [{ gameVersion: edition.gameVersion, overall: player.overall, delta: 2 }, { gameVersion: older, overall: player.overall - 2 }],
      gameVersion: edition.gameVersion,
    }),
    ...(i % 5 === 2 ? { seasonMovement: { start: player.overall - 1, current: player.overall } } : {}),
    ...(i % 9 === 4 || !isOld ? { build: "Slasher" } : {}),
    lastUpdated: "2026-10-30T12:00:00.000Z",
    createdAt: new Date(creationTime).toISOString(),
    ...(isCurrent ? {} : { source: "2kratings archive", capturedAt: "2025-09-01T00:00:00.000Z", importedAt: "2025-09-02T08:30:00.000Z" }),
  };
}

/** The documents an edition serves for one era (or all): its own documents, or its players in the hosted shape. */
export function hostedDocuments(edition: StandInEdition, era: Era | "all"): Record<string, unknown>[] {
  if (edition.documents !== undefined) return edition.documents.filter((document) => era === "all" || document["teamType"] === era);
  return edition.players.filter((player) => era === "all" || player.teamType === era).map((player, i) => hostedRow(player, i, edition));
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
    const data = hostedDocuments(edition, era);
    // The hosted service's versioned bulk pages nothing, but says so without a nextCursor.
    const meta = edition.status === "current"
      ? { count: data.length, total: data.length, filters: { teamType: era === "all" ? null : era, team: null, minRating: null, maxRating: null, position: null } }
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
            playerCount: hostedDocuments(edition, "all").length,
            teamTypeCounts: Object.fromEntries(ERAS.map((era) => [era, hostedDocuments(edition, era).length])),
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
    const versioned = /^\/api\/versions\/(2K\d\d)\/players\/bulk$/.exec(url.pathname);
    const edition = url.pathname === "/api/players/bulk"
      ? editions.find((candidate) => candidate.status === "current")
      : editions.find((candidate) => candidate.gameVersion === versioned?.[1] && candidate.status === "archived");
    if (edition === undefined) {
      send(request, response, path, 404, { success: false, error: { code: "NOT_FOUND", message: `No route for ${url.pathname}` } });
      return;
    }
    // Its validation: unknown parameters are refused, and so is an era outside curr, class, allt.
    const accepted = versioned ? VERSIONED_BULK_PARAMS : CURRENT_BULK_PARAMS;
    const unknown = [...url.searchParams.keys()].filter((name) => !accepted.has(name));
    const asked = url.searchParams.get("teamType") ?? (versioned ? url.searchParams.get("era") : null);
    const refusal = unknown.length > 0 ? `unknown parameters: ${unknown.join(", ")}`
      : asked !== null && !isEra(asked) ? `teamType ${asked} is not curr, class or allt` : undefined;
    if (refusal !== undefined) {
      log.push({ path, status: 400, ifNoneMatch: header(request, "if-none-match"), key: given, refused: refusal });
      const body = Buffer.from(JSON.stringify({ success: false, error: { code: "INVALID_PARAMETERS", message: refusal } }));
      response.writeHead(400, { "content-type": "application/json", "content-length": String(body.length) });
      response.end(body);
      return;
    }
    // The current bulk's default is every era; the versioned one's is curr.
    const era: Era | "all" = asked !== null && isEra(asked) ? asked : versioned ? "curr" : "all";
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
