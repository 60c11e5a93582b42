// GET /api/teams/:teamName/profile (and under /api/versions/:version/): what one roster is strong
// and weak at: mean and best per attribute and attribute group, its rank among the teams of its
// era per group (from the per-team group means the store computes once per edition), badge counts
// by category and tier, players per position.

import { heldBadges } from "../../model/badge-summary.js";
import { TIER_COUNT_KEYS } from "../../model/badges.js";
import { ERAS } from "../../model/eras.js";
import { displayLabel } from "../../model/labels.js";
import { POSITIONS, knownPositions } from "../../model/positions.js";
import { ApiError } from "../../query/api-error.js";
import { closest } from "../../query/suggest.js";
import { executeQuery } from "../../query/execute.js";
import { defaultQuery } from "../../query/plan.js";
import { attributeGroupsOf, attributeKeysOf, attributeValue, groupScores, teamGroupMean } from "../../store/attribute-profile.js";
import { teamRowOf, type Edition, type TeamInfo } from "../../store/edition.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { successReply, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, ref, text } from "../describe/response-schemas.js";
import { everyEditionRoutes, requestedEdition, type EveryEditionValues } from "./edition-param.js";

const baseParams = {
  teamType: { type: "string", enum: ERAS, description: "curr, class or allt, to disambiguate a franchise in several eras", "x-normalise": "lower" },
} as const;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The team by name or slug in the edition (404 TEAM_NOT_FOUND with the closest names). */
function findTeam(edition: Edition, name: string, era: (typeof ERAS)[number] | undefined): TeamInfo {
  const team = edition.findTeams(name, era)[0];
  if (team) return team;
  const candidates = edition.teams.filter((info) => era === undefined || info.teamType === era).map((info) => info.teamName);
  throw new ApiError("TEAM_NOT_FOUND", { team: name, ...(era ? { teamType: era } : {}), suggestions: closest(name, candidates, 5) }, `No team ${name}${era ? ` in ${era}` : ""} in ${edition.key}`);
}

function teamProfile(context: RequestContext<EveryEditionValues<typeof baseParams>>): Reply {
  const edition = requestedEdition(context.editions, context.pathParams.version, context.values.gameVersion);
  const team = findTeam(edition, context.pathParams.teamName ?? "", context.values.teamType);
  return context.cached(cacheKey("/api/teams/:teamName/profile", edition, [team.code]), () => {
    const { data, warnings } = profileOf(edition, team);
    return successReply(data, { gameVersion: edition.key, ...(warnings.length > 0 ? { warnings } : {}) }, { isCacheable: true });
  });
}

interface Leader { _id: string; name: string; slug: string }

function profileOf(edition: Edition, team: TeamInfo): { data: Record<string, unknown>; warnings: { parameter: string; value: string; message: string }[] } {
  // The roster in the roster route's order (overall desc, then name): ties for best go to the first.
  const { rows } = executeQuery(edition, { ...defaultQuery(), eraMask: 0b111, teamCodes: [team.code] }, 0, team.playerCount);
  const records = [...rows].map((row) => edition.record(row));
  const leaderOf = (i: number): Leader => {
    const record = records[i] as (typeof records)[number];
    return { _id: record._id, name: record.name, slug: record.slug };
  };

  const attributes = attributeKeysOf(edition).flatMap((attribute, column) => {
    let sum = 0;
    let holders = 0;
    let best = -1;
    let bestAt = -1;
    rows.forEach((row, i) => {
      const value = attributeValue(edition, row, column);
      if (value === undefined) return;
      sum += value;
      holders++;
      if (value > best) { best = value; bestAt = i; }
    });
    return holders === 0 ? [] : [{ attribute, label: displayLabel(attribute), mean: round1(sum / holders), holders, best: { value: best, player: leaderOf(bestAt) } }];
  });

  const groups = attributeGroupsOf(edition);
  const peers = edition.teams.filter((info) => info.teamType === team.teamType && info.playerCount > 0);
  const scores = [...rows].map((row) => groupScores(edition, row));
  const groupRows = groups.flatMap(({ group }, g) => {
    const mean = teamGroupMean(edition, team.code, g);
    if (Number.isNaN(mean)) return [];
    let bestAt = -1;
    scores.forEach((score, i) => {
      const value = score[g] as number;
      if (!Number.isNaN(value) && (bestAt < 0 || value > (scores[bestAt]?.[g] as number))) bestAt = i;
    });
    const peerMeans = peers.map((info) => teamGroupMean(edition, info.code, g)).filter((value) => !Number.isNaN(value));
    return [{
      group, label: displayLabel(group), mean: round1(mean),
      best: { score: round1(scores[bestAt]?.[g] as number), player: leaderOf(bestAt) },
      rank: 1 + peerMeans.filter((value) => value > mean).length,
      of: peerMeans.length,
    }];
  });

  const byTier: Record<string, number> = { total: 0, ...Object.fromEntries(TIER_COUNT_KEYS.map((key) => [key, 0])) };
  const byCategory: Record<string, Record<string, number>> = {};
  let hasLists = records.length > 0;
  for (const record of records) {
    byTier.total = (byTier.total as number) + record.badges.total;
    for (const key of TIER_COUNT_KEYS) byTier[key] = (byTier[key] as number) + record.badges[key];
    if (record.badges.list === undefined) { hasLists = false; continue; }
    // Each badge once per player (a hosted list names each twice); a category the entry lacks is the edition's.
    for (const badge of heldBadges(record.badges.list)) {
      const category = badge.category ?? edition.catalogue.badges[edition.catalogue.badgeOf(badge.slug) ?? -1]?.category ?? UNCATEGORISED;
      const counts = (byCategory[category] ??= { total: 0, ...Object.fromEntries(TIER_COUNT_KEYS.map((key) => [key, 0])) });
      const tierKey = TIER_KEY[badge.tier];
      counts.total = (counts.total as number) + 1;
      if (tierKey !== undefined) counts[tierKey] = (counts[tierKey] as number) + 1;
    }
  }

  const primary: Record<string, number> = Object.fromEntries(POSITIONS.map((position) => [position, 0]));
  const any: Record<string, number> = Object.fromEntries(POSITIONS.map((position) => [position, 0]));
  for (const record of records) {
    // Read by meaning (`pg` is PG); the source's list itself is served as given.
    const positions = knownPositions(record.positions);
    const first = positions[0];
    if (first !== undefined) primary[first] = (primary[first] ?? 0) + 1;
    for (const position of positions) any[position] = (any[position] ?? 0) + 1;
  }

  const warnings = hasLists || records.length === 0 ? [] : [{
    parameter: "teamName", value: team.teamName,
    message: `${edition.key} keeps badge counts, not badge lists, for this roster: badges.byCategory is left out`,
  }];
  return {
    data: {
      team: teamRowOf(team),
      attributes,
      groups: groupRows,
      badges: { ...byTier, ...(hasLists ? { byCategory } : {}) },
      positions: { primary, any },
    },
    warnings,
  };
}

/** The category of a badge its source gave none. */
const UNCATEGORISED = "Other";

const TIER_KEY: Readonly<Record<string, (typeof TIER_COUNT_KEYS)[number]>> = {
  Legendary: "legendary", "Hall of Fame": "hallOfFame", Gold: "gold", Silver: "silver", Bronze: "bronze",
};

const leader: JsonSchema = exactObject({ _id: text("_id"), name: text("Name"), slug: text("Slug") });
const tierCounts = (description: string): JsonSchema => exactObject({
  total: integer("Badges"), legendary: integer("Legendary"), hallOfFame: integer("Hall of Fame"), gold: integer("Gold"), silver: integer("Silver"), bronze: integer("Bronze"),
}, [], description);
const positionCounts = (description: string): JsonSchema =>
  exactObject(Object.fromEntries(POSITIONS.map((position) => [position, integer(`Players at ${position}`)])), [], description);

const profileResponse: RouteResponse = {
  kind: "envelope",
  description: "The roster's strengths: per attribute and group its mean and best, group ranks in its era, badges, positions",
  data: exactObject({
    team: ref("Team"),
    attributes: arrayOf(exactObject({
      attribute: text("camelCase attribute key"),
      label: text("Its display name (Three-Point Shot)"),
      mean: { type: "number", description: "Mean over the players who have it, one decimal" },
      holders: integer("Players who have it"),
      best: exactObject({ value: { type: "integer", minimum: 0, maximum: 99 }, player: leader }),
    }), "Every attribute a player of the roster has, in the edition's column order (group scores included)"),
    groups: arrayOf(exactObject({
      group: text("Attribute group"),
      label: text("Its display name (Outside Scoring)"),
      mean: { type: "number", description: "Mean of the players' group scores (a player's group score: the mean of the group's attributes it has), one decimal" },
      best: exactObject({ score: { type: "number" }, player: leader }),
      rank: { type: "integer", minimum: 1, description: "1 + the teams of its era with a higher group mean" },
      of: integer("Teams of its era ranked"),
    })),
    badges: {
      ...tierCounts("Badge counts of the whole roster by tier"),
      properties: {
        ...(tierCounts("") as { properties: Record<string, JsonSchema> }).properties,
        byCategory: { type: "object", description: "Counts by category and tier (editions with badge lists)", additionalProperties: tierCounts("One category's counts") },
      },
    },
    positions: exactObject({
      primary: positionCounts("Players by primary position"),
      any: positionCounts("Players listed at each position (a player counts once per position)"),
    }),
  }),
  meta: exactObject({
    gameVersion,
    warnings: arrayOf(exactObject({ parameter: text("Parameter"), value: text("Value"), message: text("What was left out") })),
  }, ["warnings"]),
};

export const teamProfileRoutes: RouteDefinition[] = everyEditionRoutes("/api/teams/:teamName/profile", baseParams, {
  access: "key", response: profileResponse, errors: ["TEAM_NOT_FOUND"], handle: teamProfile,
  summary: "One roster's profile: mean and best per attribute and group, group ranks in its era, badge and position counts",
});
