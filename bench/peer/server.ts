// The conventional peer of the load benchmark: the benchmarked routes written the way most teams
// would write them. Fastify 5, the current edition's records as plain objects in an array, and
// per request filter → sort → slice → JSON.stringify (Fastify's default serialiser, no response
// schema). Not a straw man: query strings are validated by Fastify's compiled JSON Schemas, names
// are folded once at load, API keys are checked by SHA-256 against the same keys file. What it
// does not do: rate limiting (Courtside does, per key, on every request).
//
// Usage: PORT=3103 DATA_DIR=data KEYS_FILE=keys.json node dist/bench/peer/server.js

import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants } from "node:zlib";
import Fastify from "fastify";
import { ATTRIBUTE_BY_PARAM_NAME, ATTRIBUTE_KEYS, type AttributeKey } from "../../src/model/attributes.js";
import { foldName, slugify } from "../../src/model/names.js";
import type { Era } from "../../src/model/eras.js";
import type { PlayerRecord } from "../../src/model/player.js";
import { POSITION_GROUPS, knownPositions, type Position } from "../../src/model/positions.js";
import { loadEditionSet } from "../../src/store/editions.js";
import { readKeyStore } from "../../src/keys/key-file.js";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A list row as the API shows it (docs/compatibility.md#fidelity-rules: the full record, hot zones included), badges without `top`. */
type ListPlayer = PlayerRecord;
interface Entry {
  player: ListPlayer;
  /** Folded once at load: the sort tie-break and the search haystack. */
  foldedName: string;
}

const dataDir = process.env.DATA_DIR ?? "data";
const keysFile = process.env.KEYS_FILE ?? "keys.json";
const port = Number(process.env.PORT ?? 3103);

const current = loadEditionSet(dataDir).current;
// The peer holds plain objects, as most services would: every record decoded once at load.
const entries: Entry[] = Array.from({ length: current.rowCount }, (_, row) => current.record(row)).map(({ badges: { top: _top, ...badges }, ...rest }) => ({
  player: { ...rest, badges },
  foldedName: foldName(rest.name),
}));
const slugOfTeam = new Map(entries.map(({ player }) => [player.team, slugify(player.team)]));
const keyDigests = new Set(readKeyStore(keysFile).keys.filter((record) => record.revokedAt === undefined).map((record) => record.digest));

const byName = (a: Entry, b: Entry): number =>
  a.foldedName < b.foldedName ? -1 : a.foldedName > b.foldedName ? 1 : a.player.name < b.player.name ? -1 : a.player.name > b.player.name ? 1 : a.player._id < b.player._id ? -1 : a.player._id > b.player._id ? 1 : 0;
const byOverallDesc = (a: Entry, b: Entry): number => b.player.overall - a.player.overall || byName(a, b);

const app = Fastify({ logger: false });

app.addHook("onRequest", async (request, reply) => {
  const key = request.headers["x-api-key"];
  if (typeof key !== "string" || !keyDigests.has(createHash("sha256").update(key).digest("hex"))) {
    return reply.code(401).send({ success: false, error: { code: "INVALID_API_KEY", message: "Invalid API key" } });
  }
  return undefined;
});

const rating = { type: "integer", minimum: 0, maximum: 99 } as const;
const filterSchema = {
  era: { type: "string", enum: ["curr", "class", "allt", "all"] },
  teamType: { type: "string", enum: ["curr", "class", "allt", "all"] },
  position: { type: "string", enum: ["PG", "SG", "SF", "PF", "C", "guard", "wing", "big"] },
  team: { type: "string" },
  minRating: rating,
  maxRating: rating,
  badge: { type: "string" },
  badgeTier: { type: "string", enum: ["Bronze", "Silver", "Gold", "Hall of Fame", "Legendary"] },
  sort: { type: "string", pattern: "^[a-z_]+(:(asc|desc))?$" },
  fields: { type: "string" },
} as const;

interface ListQuery {
  era?: Era | "all";
  teamType?: Era | "all";
  position?: string;
  team?: string;
  minRating?: number;
  maxRating?: number;
  badge?: string;
  badgeTier?: string;
  sort?: string;
  fields?: string;
  limit?: number;
  cursor?: string;
  [bound: string]: string | number | undefined;
}

function filterPlayers(query: ListQuery, defaultEra: Era | "all"): Entry[] {
  const era = query.era ?? query.teamType ?? (query.team === undefined ? defaultEra : "all");
  const positions: readonly Position[] | undefined = query.position === undefined ? undefined
    : query.position in POSITION_GROUPS ? POSITION_GROUPS[query.position as keyof typeof POSITION_GROUPS] : [query.position as Position];
  const bounds = Object.entries(query).flatMap(([name, value]) => {
    const match = /^(.+)_(gte|lte)$/.exec(name);
    const column = match ? ATTRIBUTE_BY_PARAM_NAME.get(match[1] as string) : undefined;
    return column === undefined || typeof value !== "number" ? [] : [{ key: ATTRIBUTE_KEYS[column] as AttributeKey, isMin: match?.[2] === "gte", value }];
  });
  return entries.filter(({ player }) => {
    if (era !== "all" && player.teamType !== era) return false;
    if (query.team !== undefined && player.team !== query.team && slugOfTeam.get(player.team) !== query.team) return false;
    if (positions && !knownPositions(player.positions).some((position) => positions.includes(position))) return false;
    if (query.minRating !== undefined && player.overall < query.minRating) return false;
    if (query.maxRating !== undefined && player.overall > query.maxRating) return false;
    for (const bound of bounds) {
      const value = player.attributes[bound.key];
      if (value === undefined || (bound.isMin ? value < bound.value : value > bound.value)) return false;
    }
    const list = player.badges.list ?? [];
    if (query.badge !== undefined) {
      const held = list.find((badge) => badge.slug === query.badge);
      if (!held || (query.badgeTier !== undefined && held.tier !== query.badgeTier)) return false;
    } else if (query.badgeTier !== undefined && !list.some((badge) => badge.tier === query.badgeTier)) {
      return false;
    }
    return true;
  });
}

function sortPlayers(matches: Entry[], sort: string | undefined): Entry[] {
  const [name = "overall", direction] = (sort ?? "overall:desc").split(":");
  const isDescending = direction === undefined ? name !== "name" : direction === "desc";
  if (name === "name") return matches.sort((a, b) => (isDescending ? byName(b, a) : byName(a, b)));
  const column = name === "overall" ? undefined : ATTRIBUTE_BY_PARAM_NAME.get(name);
  const key = column === undefined ? undefined : ATTRIBUTE_KEYS[column];
  const valueOf = (entry: Entry) => (key === undefined ? entry.player.overall : entry.player.attributes[key]);
  return matches.sort((a, b) => {
    const va = valueOf(a);
    const vb = valueOf(b);
    // Players lacking the attribute come last in both directions.
    if (va === undefined || vb === undefined) return (va === undefined ? 1 : 0) - (vb === undefined ? 1 : 0) || byName(a, b);
    return (isDescending ? vb - va : va - vb) || byName(a, b);
  });
}

function project(player: ListPlayer, fields: string | undefined): Partial<ListPlayer> {
  if (fields === undefined) return player;
  const picked: Record<string, unknown> = {};
  for (const field of fields.split(",")) if (field in player) picked[field] = player[field as keyof ListPlayer];
  return picked;
}

app.get<{ Querystring: ListQuery }>("/api/players", {
  schema: {
    querystring: {
      type: "object",
      properties: { ...filterSchema, limit: { type: "integer", minimum: 1, maximum: 100, default: 50 }, cursor: { type: "string", pattern: "^\\d{1,9}$" } },
      patternProperties: { "_(gte|lte)$": rating },
    },
  },
}, async (request) => {
  const { limit = 50, cursor = "0", fields, sort } = request.query;
  const offset = Number(cursor);
  const matches = sortPlayers(filterPlayers(request.query, "curr"), sort);
  const data = matches.slice(offset, offset + limit).map((entry) => project(entry.player, fields));
  const next = offset + data.length;
  const total = matches.length;
  return {
    success: true,
    data,
    meta: { count: data.length, pagination: { total, limit, cursor: String(offset), nextCursor: next < total ? String(next) : null, hasMore: next < total } },
  };
});

app.get<{ Querystring: { q: string; teamType?: Era; limit?: number } }>("/api/players/search", {
  schema: {
    querystring: {
      type: "object",
      required: ["q"],
      properties: { q: { type: "string", minLength: 1, maxLength: 100 }, teamType: { type: "string", enum: ["curr", "class", "allt"] }, limit: { type: "integer", minimum: 1, maximum: 50, default: 50 } },
    },
  },
}, async (request) => {
  const { q, teamType, limit = 50 } = request.query;
  const needle = foldName(q);
  // The substring scan: every name, every request.
  const matches = entries
    .filter((entry) => (teamType === undefined || entry.player.teamType === teamType) && entry.foldedName.includes(needle))
    .sort(byOverallDesc);
  // docs/compatibility.md#fidelity-rules: search answers full records, as the hosted service does.
  const data = matches.slice(0, limit).map(({ player }) => player);
  return { success: true, data, meta: { count: data.length, total: matches.length, truncated: matches.length > data.length, timestamp: new Date().toISOString(), query: q } };
});

app.get<{ Querystring: ListQuery }>("/api/players/bulk", {
  schema: { querystring: { type: "object", properties: filterSchema, patternProperties: { "_(gte|lte)$": rating } } },
}, async (request, reply) => {
  const matches = sortPlayers(filterPlayers(request.query, "all"), undefined);
  const data = matches.slice(0, 10_000).map((entry) => project(entry.player, request.query.fields));
  const { sort: _sort, ...filters } = { era: request.query.era ?? request.query.teamType ?? "all", ...request.query };
  const body = Buffer.from(JSON.stringify({ success: true, data, meta: { count: data.length, total: matches.length, filters } }));
  reply.header("content-type", "application/json; charset=utf-8");
  // Compressed per request, as @fastify/compress would (its default brotli quality is 4).
  const accept = request.headers["accept-encoding"] ?? "";
  if (accept.includes("br")) {
    reply.header("content-encoding", "br");
    return reply.send(await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  }
  if (accept.includes("gzip")) {
    reply.header("content-encoding", "gzip");
    return reply.send(await gzipAsync(body));
  }
  return reply.send(body);
});

const eraQuery = { type: "object", properties: { era: { type: "string", enum: ["curr", "class", "allt"] }, teamType: { type: "string", enum: ["curr", "class", "allt"] } } } as const;

app.get<{ Querystring: { era?: Era; teamType?: Era } }>("/api/teams", { schema: { querystring: eraQuery } }, async (request) => {
  const era = request.query.era ?? request.query.teamType ?? "curr";
  const teams = new Map<string, { teamName: string; slug: string; teamType: Era; sum: number; playerCount: number; logo: string | undefined }>();
  for (const { player } of entries) {
    if (player.teamType !== era) continue;
    const team = teams.get(player.team) ?? { teamName: player.team, slug: slugOfTeam.get(player.team) ?? "", teamType: era, sum: 0, playerCount: 0, logo: player.teamImg };
    team.sum += player.overall;
    team.playerCount += 1;
    teams.set(player.team, team);
  }
  const data = [...teams.values()]
    .sort((a, b) => (a.teamName < b.teamName ? -1 : a.teamName > b.teamName ? 1 : 0))
    .map(({ teamName, slug, teamType, sum, playerCount, logo }) => ({
      teamName, slug, teamType, playerCount, averageRating: Math.round((sum / playerCount) * 10) / 10, ...(logo ? { logo } : {}),
    }));
  return { success: true, data, meta: { count: data.length, teamType: era } };
});

app.get<{ Params: { teamName: string }; Querystring: { teamType?: Era } }>("/api/teams/:teamName/roster", {
  schema: { querystring: { type: "object", properties: { teamType: { type: "string", enum: ["curr", "class", "allt"] } } } },
}, async (request, reply) => {
  const { teamName } = request.params;
  const { teamType } = request.query;
  const first = entries.find(({ player }) => (teamType === undefined || player.teamType === teamType) && (player.team === teamName || slugOfTeam.get(player.team) === teamName));
  if (!first) return reply.code(404).send({ success: false, error: { code: "TEAM_NOT_FOUND", message: `No team ${teamName}` } });
  const { team, teamType: era, teamImg } = first.player;
  const roster = entries.filter(({ player }) => player.team === team && player.teamType === era).sort(byOverallDesc);
  const averageRating = Math.round((roster.reduce((sum, { player }) => sum + player.overall, 0) / roster.length) * 10) / 10;
  return {
    success: true,
    data: roster.map(({ player }) => player),
    meta: { team, slug: slugOfTeam.get(team), teamType: era, count: roster.length, averageRating, ...(teamImg ? { logo: teamImg } : {}) },
  };
});

await app.listen({ port, host: process.env.HOST ?? "127.0.0.1" });
process.stdout.write(`peer listening on ${port} (${entries.length} players of ${current.key})\n`);
