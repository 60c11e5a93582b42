// GET /api/teams/:teamName/profile (and under /api/versions/:version/): what one roster is strong
// and weak at: mean and best per attribute and attribute group, its rank among the teams of its
// era per group, badge counts by category and tier, players per position: all of it from the team
// tables build-index stores per edition (store/profile-tables.ts); a request renders them.

import { ERAS } from "../../model/eras.js";
import { displayLabel } from "../../model/labels.js";
import { FIELD_BIT } from "../../model/player.js";
import { POSITIONS } from "../../model/positions.js";
import { ApiError } from "../../query/api-error.js";
import { closest } from "../../query/suggest.js";
import { attributeGroupsOf, attributeKeysOf, groupScore, teamAttributeSummary, teamCounts, teamGroupStanding } from "../../store/attribute-profile.js";
import { teamRowOf, type Edition, type TeamInfo } from "../../store/edition.js";
import { memoKey } from "../../store/edition-memo.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema, RouteResponse } from "../router.js";
import { arrayOf, exactObject, gameVersion, integer, ref, text } from "../describe/response-schemas.js";
import { everyEditionRoutes, requestedEdition, type EveryEditionValues } from "./edition-param.js";
import { FragmentBody } from "../fragment-body.js";

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
  const key = cacheKey("/api/teams/:teamName/profile", edition, [team.code]);
  return context.cached(key, () => profileBody(edition, team).reply(key, RENDER_VERSION));
}

/** Bumped when the answer is rendered differently from the same data (the ETag names key and rendering). */
const RENDER_VERSION = 1;
const LEADER_SHAPE = { fieldMask: FIELD_BIT._id | FIELD_BIT.name | FIELD_BIT.slug, isVersioned: false };

/** A number as JSON.stringify writes it (null when not finite). */
const json = (value: number) => (Number.isFinite(value) ? String(value) : "null");

/** Per edition, the fixed heads of its attribute and group entries (`{"attribute":…,"label":…,"mean":`), written once, not per request. */
const ENTRY_HEADS = memoKey<{ attributes: readonly string[]; groups: readonly string[] }>("team-profile|entry-heads");
function entryHeadsOf(edition: Edition): { attributes: readonly string[]; groups: readonly string[] } {
  return edition.memo.of(ENTRY_HEADS, () => ({
    attributes: attributeKeysOf(edition).map((attribute) => `{"attribute":${JSON.stringify(attribute)},"label":${JSON.stringify(displayLabel(attribute))},"mean":`),
    groups: attributeGroupsOf(edition).map(({ group }) => `{"group":${JSON.stringify(group)},"label":${JSON.stringify(displayLabel(group))},"mean":`),
  }));
}

/**
 * The answer from the edition's precomputed team tables (store/attribute-profile.ts), written as
 * text; each leader (`{"_id","name","slug"}`) is its row's fragments, copied.
 */
function profileBody(edition: Edition, team: TeamInfo): FragmentBody {
  const body = new FragmentBody(edition.fragments).text(`{"success":true,"data":{"team":${JSON.stringify(teamRowOf(team))},"attributes":[`);
  const heads = entryHeadsOf(edition);
  let separator = "";
  for (let column = 0; column < heads.attributes.length; column++) {
    const { holders, mean, best, bestRow } = teamAttributeSummary(edition, team.code, column);
    if (holders === 0) continue;
    body.text(`${separator}${heads.attributes[column] as string}${json(round1(mean))},"holders":${holders},"best":{"value":${json(best)},"player":`)
      .row(bestRow, LEADER_SHAPE).text("}}");
    separator = ",";
  }
  body.text('],"groups":[');
  separator = "";
  for (let g = 0; g < heads.groups.length; g++) {
    const { mean, bestRow, rank, of } = teamGroupStanding(edition, team.code, g);
    if (Number.isNaN(mean)) continue;
    body.text(`${separator}${heads.groups[g] as string}${json(round1(mean))},"best":{"score":${json(round1(groupScore(edition, bestRow, g)))},"player":`)
      .row(bestRow, LEADER_SHAPE).text(`},"rank":${json(rank)},"of":${json(of)}}`);
    separator = ",";
  }
  // The counts are stored as `{"badges":…,"positions":…}` (JSON.stringify at build): spliced in as they are.
  const counts = teamCounts(edition, team.code);
  const warnings = counts.hasLists || team.playerCount === 0 ? [] : [{
    parameter: "teamName", value: team.teamName,
    message: `${edition.key} keeps badge counts, not badge lists, for this roster: badges.byCategory is left out`,
  }];
  return body.text(`],${counts.json.slice(1)},"meta":${JSON.stringify({ gameVersion: edition.key, ...dataSourceMeta(edition), ...(warnings.length > 0 ? { warnings } : {}) })}}`);
}

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
