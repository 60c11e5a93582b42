// The MCP resources (docs/mcp.md): records as resources over the same REST routes the tools call
// (mcp-tools.ts), so a resource holds what its route answers, `{ data, meta }` as JSON text. One
// static resource (the editions) and three templates: a player by slug (optionally of an
// edition), a team's profile and a team's roster. An unknown URI or a record that does not exist
// is the protocol's resource-not-found error; a bad value the route's own message as invalid params.

import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type ReadResourceResult, type Resource, type ResourceTemplateType } from "@modelcontextprotocol/server";
import type { McpTools, ToolEnvironment } from "./mcp-tools.js";

const JSON_TYPE = "application/json";

export const MCP_RESOURCES: Resource[] = [
  { uri: "courtside://editions", name: "editions", title: "Game editions", description: "The game editions served, current first (GET /api/versions)", mimeType: JSON_TYPE },
];

export const MCP_RESOURCE_TEMPLATES: ResourceTemplateType[] = [
  { uriTemplate: "courtside://players/{slug}{?edition}", name: "player", title: "A player", description: "One player in full by slug, of the current edition or of `edition` (2K26): GET /api/players/slug/:slug or /api/versions/:version/players/:slug", mimeType: JSON_TYPE },
  { uriTemplate: "courtside://teams/{teamName}{?edition}", name: "team", title: "A team", description: "One team's profile (ratings, strengths, badges) by full name or slug, optionally of `edition`: GET /api/teams/:teamName/profile", mimeType: JSON_TYPE },
  { uriTemplate: "courtside://teams/{teamName}/roster", name: "roster", title: "A team's roster", description: "One team's full roster, current edition: GET /api/teams/:teamName/roster", mimeType: JSON_TYPE },
];

/** A resource URI as the tool call that answers it, or undefined when no resource has that form. */
function toolCallOf(uri: string): { tool: string; args: Record<string, unknown> } | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "courtside:" || url.hash !== "" || url.username !== "" || url.port !== "") return undefined;
  const segments = url.pathname.split("/").slice(1);
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  const query = [...url.searchParams.keys()];
  const edition = url.searchParams.get("edition");
  if (query.some((name) => name !== "edition") || url.searchParams.getAll("edition").length > 1) return undefined;
  const withEdition = edition === null ? {} : { gameVersion: edition };
  if (url.host === "editions" && url.pathname === "" && query.length === 0) return { tool: "list_editions", args: {} };
  if (url.host === "players" && decoded.length === 1 && decoded[0] !== "") return { tool: "get_player", args: { slug: decoded[0], ...withEdition } };
  if (url.host === "teams" && decoded.length === 1 && decoded[0] !== "") return { tool: "team_profile", args: { teamName: decoded[0], ...withEdition } };
  if (url.host === "teams" && decoded.length === 2 && decoded[0] !== "" && decoded[1] === "roster" && query.length === 0) return { tool: "team_roster", args: { teamName: decoded[0] } };
  return undefined;
}

/** resources/read: the record as JSON text, or the protocol's error. */
export function readResource(tools: McpTools, uri: string, environment: ToolEnvironment, requestId: string): ReadResourceResult {
  const shown = uri.slice(0, 200);
  const call = uri.length > 2_000 ? undefined : toolCallOf(uri);
  if (call === undefined) throw new ResourceNotFoundError(shown, `No resource ${shown}: the resources are courtside://editions, courtside://players/{slug}{?edition}, courtside://teams/{teamName}{?edition} and courtside://teams/{teamName}/roster`);
  const result = tools.call(call.tool, call.args, environment, requestId);
  if (result.isError === true) {
    const error = (result.structuredContent as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error ?? {};
    const message = `${error.code ?? "ERROR"}: ${error.message ?? "refused"}`;
    if (typeof error.code === "string" && error.code.endsWith("NOT_FOUND")) throw new ResourceNotFoundError(shown, message);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, message, { error });
  }
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(result.structuredContent) }] };
}
