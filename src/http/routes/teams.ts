// GET /api/teams and GET /api/teams/:teamName/roster.

import { ERAS } from "../../model/eras.js";
import { ApiError } from "../../query/api-error.js";
import { closest } from "../../query/suggest.js";
import { compileParams, type ValuesOf } from "../../query/params.js";
import type { RequestContext } from "../context.js";
import { cacheKey } from "../cache-key.js";
import { dataSourceMeta, successReply, type Reply } from "../reply.js";
import type { RouteDefinition, JsonSchema } from "../router.js";
import { arrayOf, era, exactObject, integer, ref, text } from "../describe/response-schemas.js";
import { executeQuery } from "../../query/execute.js";
import { defaultQuery } from "../../query/plan.js";
import { ALL_FIELDS_MASK } from "../../model/player.js";
import { playerPage } from "./player-rows.js";

const eraSchema = { type: "string", enum: ERAS, description: "curr (default), class or allt", "x-normalise": "lower", "x-empty": "refuse" } as const;
const teamsSchemas = { era: eraSchema, teamType: { ...eraSchema, description: "Alias of era" } } as const;
export const teamsParams = compileParams(teamsSchemas);
export type TeamsValues = ValuesOf<typeof teamsSchemas>;

export function listTeams(context: RequestContext<TeamsValues>, editionKey?: string): Reply {
  const edition = editionKey === undefined ? context.editions.current : (context.editions.byKey.get(editionKey) ?? context.editions.current);
  const era = context.values.era ?? context.values.teamType ?? "curr";
  return context.cached(cacheKey(editionKey === undefined ? "/api/teams" : "/api/versions/:version/teams", edition, [era]), () => {
    const teams = edition.teamRows(era);
    return successReply(teams, { count: teams.length, teamType: era, ...(editionKey ? { gameVersion: edition.key } : {}), ...dataSourceMeta(edition) }, { isCacheable: true });
  });
}

const rosterSchemas = { teamType: { ...eraSchema, description: "curr, class or allt, to disambiguate a franchise in several eras" } } as const;
const rosterParams = compileParams(rosterSchemas);

function roster(context: RequestContext<ValuesOf<typeof rosterSchemas>>): Reply {
  const edition = context.editions.current;
  const name = context.pathParams.teamName ?? "";
  const era = context.values.teamType;
  const teams = edition.findTeams(name, era);
  const team = teams[0];
  if (!team) {
    const candidates = edition.teams.filter((info) => era === undefined || info.teamType === era).map((info) => info.teamName);
    throw new ApiError("TEAM_NOT_FOUND", { team: name, ...(era ? { teamType: era } : {}), suggestions: closest(name, candidates, 5) }, `No team ${name}${era ? ` in ${era}` : ""}`);
  }
  // docs/compatibility.md#fidelity-rules: meta.team and meta.teamType are as asked (the hosted service echoes them); the
  // team found is teamName, slug and era beside them.
  const key = cacheKey("/api/teams/:teamName/roster", edition, [team.code, name, era]);
  return context.cached(key, () => {
    const query = { ...defaultQuery(), eraMask: 0b111, teamCodes: [team.code] };
    const { rows } = executeQuery(edition, query, 0, team.playerCount);
    return playerPage(edition, rows, { fieldMask: ALL_FIELDS_MASK, isVersioned: false }, {
      team: name, teamType: era ?? "all", count: rows.length,
      teamName: team.teamName, slug: team.slug, era: team.teamType,
      averageRating: team.averageRating, meanOverall: team.meanOverall, logo: team.logo ?? "",
    }, key);
  });
}

/** The meta of a teams list; versioned lists add their gameVersion. */
export const teamsMeta = (extra: Record<string, JsonSchema> = {}): JsonSchema =>
  exactObject({ count: integer("Teams returned"), teamType: era, ...extra });

export const teamRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/teams", access: "key", params: teamsParams, summary: "Teams of one era with player count and average rating",
    response: { kind: "envelope", description: "Teams of one era, by name", data: arrayOf(ref("Team")), meta: teamsMeta() },
    handle: (context: RequestContext<TeamsValues>) => listTeams(context),
  },
  {
    method: "GET", path: "/api/teams/:teamName/roster", access: "key", params: rosterParams, summary: "One team's full roster",
    response: {
      kind: "envelope",
      description: "The team's players, overall desc",
      data: arrayOf(ref("Player")),
      meta: exactObject({
        team: text("The team as asked (full name or slug), as the hosted service echoes it"),
        teamType: { enum: [...ERAS, "all"], description: "The teamType asked for, or all" },
        count: integer("Players"),
        teamName: text("The team's full name"), slug: text("Team slug"), era,
        averageRating: { type: "integer", description: "Mean overall, rounded" }, meanOverall: { type: "number", description: "The exact mean overall" },
        logo: { type: "string", description: "Logo URL; an empty string when unknown" },
      }),
    },
    errors: ["TEAM_NOT_FOUND"],
    handle: roster,
  },
];
