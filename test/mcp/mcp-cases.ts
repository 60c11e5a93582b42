// The questions the MCP tests ask: each tool's good arguments beside the REST path that answers the
// same question, and bad arguments with the argument the tool error must name.

export interface Sample { id: string; slug: string; team: string; otherId: string }

export function goodCases(sample: Sample): { tool: string; args: Record<string, unknown>; rest: string }[] {
  const team = encodeURIComponent(sample.team);
  return [
    { tool: "search_players", args: { q: sample.slug.split("-")[0] as string }, rest: `/api/players/search?q=${encodeURIComponent(sample.slug.split("-")[0] as string)}` },
    { tool: "find_players", args: { teamType: "curr", limit: 5, sort: "overall", close_shot_gte: 50 }, rest: "/api/players?teamType=curr&limit=5&sort=overall&close_shot_gte=50" },
    { tool: "get_player", args: { id: sample.id }, rest: `/api/players/${sample.id}` },
    { tool: "get_player", args: { slug: sample.slug }, rest: `/api/players/slug/${sample.slug}` },
    { tool: "compare_players", args: { ids: `${sample.id},${sample.otherId}` }, rest: `/api/players/compare?ids=${sample.id},${sample.otherId}` },
    { tool: "similar_players", args: { id: sample.id }, rest: `/api/players/${sample.id}/similar` },
    { tool: "player_percentiles", args: { id: sample.id }, rest: `/api/players/${sample.id}/percentiles` },
    { tool: "player_percentiles", args: { id: sample.slug, cohort: "era" }, rest: `/api/players/${sample.slug}/percentiles?cohort=era` },
    { tool: "team_profile", args: { teamName: sample.team }, rest: `/api/teams/${team}/profile` },
    { tool: "team_roster", args: { teamName: sample.team }, rest: `/api/teams/${team}/roster` },
    { tool: "player_history", args: { id: sample.id }, rest: `/api/players/${sample.id}/history` },
    { tool: "list_editions", args: {}, rest: "/api/versions" },
  ];
}

export const BAD_CASES: { tool: string; args: Record<string, unknown>; names: string }[] = [
  { tool: "search_players", args: {}, names: "q" },
  { tool: "find_players", args: { limit: 0 }, names: "limit" },
  { tool: "find_players", args: { teamType: "nope" }, names: "teamType" },
  { tool: "find_players", args: { bogus: 1 }, names: "bogus" },
  { tool: "find_players", args: { team: { nested: true } }, names: "team" },
  { tool: "get_player", args: {}, names: "id" },
  { tool: "get_player", args: { id: "x", gameVersion: "2K26" }, names: "gameVersion" },
  { tool: "compare_players", args: { ids: "only-one" }, names: "ids" },
  { tool: "similar_players", args: {}, names: "id" },
  { tool: "player_percentiles", args: {}, names: "id" },
  { tool: "player_percentiles", args: { id: "x", cohort: "team" }, names: "cohort" },
  { tool: "team_profile", args: { teamName: "" }, names: "teamName" },
  { tool: "team_roster", args: { teamType: "curr" }, names: "teamName" },
  { tool: "player_history", args: { id: 5 }, names: "id" },
  { tool: "list_editions", args: { extra: "1" }, names: "extra" },
  { tool: "no_such_tool", args: {}, names: "no_such_tool" },
];

export const TOOL_NAMES = ["search_players", "find_players", "get_player", "compare_players", "similar_players", "player_percentiles", "team_profile", "team_roster", "player_history", "list_editions"];

/** The REST envelope as a tool's structured result: { data, meta } without success. */
export function asStructured(body: { data: unknown; meta?: unknown }): Record<string, unknown> {
  return { data: body.data, ...(body.meta === undefined ? {} : { meta: body.meta }) };
}
