import t from "tap";
import { buildRoutes } from "../../src/http/app.js";
import { ApiError } from "../../src/query/api-error.js";
import { SUGGESTED_NAMES, suggestParam, validateParams } from "../../src/query/params.js";

const routes = buildRoutes(() => true);
const route = (method: string, path: string) => {
  const found = routes.find((r) => r.method === method && r.path === path);
  if (!found) throw new Error(`no route ${method} ${path}`);
  return found;
};
/** What a route suggests for each name, read from the error it answers with. */
function suggestionsOn(method: string, path: string, names: readonly string[]): Record<string, string | undefined> {
  const { params } = route(method, path);
  try {
    validateParams(params, new Map(names.map((name) => [name, "1"])));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const unknown = (error.details as { unknownParams: { param: string; suggestion?: string }[] }).unknownParams;
    return Object.fromEntries(unknown.map((u) => [u.param, u.suggestion]));
  }
  return {};
}

// docs/compatibility.md#the-hosted-services-extra-routes, the hosted service's table, on the route where every target exists.
const HOSTED_TABLE: Record<string, string> = {
  name: "/api/players/search", player: "/api/players/search",
  page: "cursor", offset: "cursor", skip: "cursor",
  per_page: "limit", pagesize: "limit", page_size: "limit", count: "limit",
  rating: "minRating", overall: "minRating", min_rating: "minRating", max_rating: "maxRating",
  type: "teamType", roster_type: "teamType", team_type: "teamType", roster: "teamType",
  pos: "position", positions: "position", team_name: "team", teamname: "team",
};

t.test("/api/players suggests the hosted service's table", async (t) => {
  t.same(suggestionsOn("GET", "/api/players", Object.keys(HOSTED_TABLE)), HOSTED_TABLE);
  // search is a filter here; query points at it rather than at a q the route does not have.
  t.same(suggestionsOn("GET", "/api/players", ["search", "query", "q"]), { query: "search", q: "search" });
});

t.test("the versioned players route pages by offset, so page and skip suggest offset, never cursor", async (t) => {
  const suggestions = suggestionsOn("GET", "/api/versions/:version/players", ["page", "skip", "offset", "per_page", "type", "pos", "rating", "teamname"]);
  t.same(suggestions, { page: "offset", skip: "offset", per_page: "limit", type: "teamType", pos: "position", rating: "minRating", teamname: "team" });
  t.notOk("offset" in suggestions, "offset is a parameter there, not an unknown one");
});

t.test("the search route suggests q for every name of the search text", async (t) => {
  const suggestions = suggestionsOn("GET", "/api/players/search", ["name", "search", "player", "query", "type", "roster", "per_page", "page"]);
  t.match(suggestions, { name: "q", search: "q", player: "q", query: "q", type: "teamType", roster: "teamType", per_page: "limit" });
  t.not(suggestions.page, "cursor", "the search route has no cursor");
});

t.test("bulk has no paging at all: page and per_page get no suggestion, not the nearest spelling", async (t) => {
  const suggestions = suggestionsOn("GET", "/api/players/bulk", ["page", "per_page", "name", "type"]);
  t.same(suggestions, { page: undefined, per_page: undefined, name: "/api/players/search", type: "teamType" });
});

t.test("on every route, every suggestion is a parameter that route accepts or a route that exists", async (t) => {
  const paths = routes.map((r) => r.path);
  for (const r of routes) {
    const names = SUGGESTED_NAMES.filter((name) => !r.params.names.includes(name));
    for (const [param, suggestion] of Object.entries(suggestionsOn(r.method, r.path, names))) {
      if (suggestion === undefined) continue;
      if (suggestion.startsWith("/")) {
        t.ok(paths.some((path) => path === suggestion || path.startsWith(suggestion.replace(/…$/, ""))), `${r.method} ${r.path}: ${param} → ${suggestion} is a route`);
      } else {
        t.ok(r.params.names.includes(suggestion), `${r.method} ${r.path}: ${param} → ${suggestion} is one of its parameters`);
      }
    }
  }
});

t.test("a name the table does not know gets the closest parameter, and Object's members find nothing", async (t) => {
  const names = route("GET", "/api/players").params.names;
  t.equal(suggestParam("limt", names), "limit");
  t.equal(suggestParam("__proto__", names), undefined);
  t.equal(suggestParam("constructor", names), undefined);
});
