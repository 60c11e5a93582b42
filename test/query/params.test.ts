import t from "tap";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { ApiError } from "../../src/query/api-error.js";
import { compileParams, CURSOR_PARAM, limitParam, SUGGESTED_NAMES, suggestParam, validateParams, type ParamWarning } from "../../src/query/params.js";

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

// Typed values (issue 33): validation gives each route a value object typed from its schemas,
// defaults applied once. The type assertions below are checked by the build (tsc over test/).

const typedSchemas = {
  limit: limitParam(100, 50),
  cursor: CURSOR_PARAM,
  minRating: { type: "integer", minimum: 0, maximum: 99, description: "a bound", "x-decimal": "exact" },
  era: { type: "string", enum: ["curr", "class", "allt"], description: "era", "x-normalise": "lower", "x-empty": "refuse" },
  position: { type: "string", enum: ["PG", "SG"], description: "lenient", "x-normalise": "position", "x-lenient": true },
  fields: { type: "string", pattern: "^[A-Za-z_,\\s]*$", description: "a list", "x-reason": "must be a comma-separated list of field names" },
  team: { type: "string", maxLength: 10, description: "text" },
  three_ball_gte: { type: "integer", minimum: 0, maximum: 99, description: "listed bound", "x-decimal": "exact", "x-attribute-bound": true },
} as const;
const typedParams = compileParams(typedSchemas);
const validate = (query: Record<string, string>, warnings: ParamWarning[] = []) => validateParams(typedParams, new Map(Object.entries(query)), warnings);

t.test("absent parameters read as their defaults, given once at validation; a cursor reads as 0", async (t) => {
  const values = validate({});
  const limit: number = values.limit;
  const cursor: number = values.cursor;
  t.equal(limit, 50, "the schema's default");
  t.equal(cursor, 0, "no cursor is the first page");
  t.same(values.bounds, [], "no bounds");
  t.equal(values.era, undefined, "a parameter without a default stays absent");
  t.same(validate({ limit: "50" }), values, "the default given explicitly is the same value object");
});

t.test("each parameter type reads as its type", async (t) => {
  const warnings: ParamWarning[] = [];
  const values = validate({ limit: "20.9", cursor: "40", minRating: " 75.5 ", era: "CLASS", position: "pg", fields: "name, overall", team: "Bos" }, warnings);
  t.equal(values.limit, 20, "integer: a decimal rounded down (with a warning)");
  t.equal(values.cursor, 40, "cursor: a number, not the text");
  t.equal(values.minRating, 75.5, "number: a decimal kept where it compares exactly");
  const era: "curr" | "class" | "allt" | undefined = values.era;
  t.equal(era, "class", "enum: canonicalised, its union type");
  const position: string | undefined = values.position;
  t.equal(position, "PG", "lenient enum: canonical case");
  t.equal(values.fields, "name, overall", "list: the text as sent (the route splits it)");
  t.equal(values.team, "Bos", "string: as sent");
  t.same(warnings.map((w) => w.parameter), ["limit"], "only the rounded limit is warned of");
  t.same(validate({ position: "center" }, warnings).position, "center", "an unknown lenient value is kept as sent");
  // @ts-expect-error: a name the schemas do not declare is not on the type
  t.equal(values.nope, undefined);
});

t.test("a cursor that is no number reads as the hosted service reads it, with a warning", async (t) => {
  const warnings: ParamWarning[] = [];
  t.equal(validate({ cursor: "12abc" }, warnings).cursor, 12);
  t.equal(validate({ cursor: "abc" }, warnings).cursor, 0);
  t.equal(validate({ cursor: "99999999999999" }, warnings).cursor, 1_000_000_000, "capped: never a float");
  t.same(warnings.map((w) => w.message), ["not an offset: read as 12", "not an offset: read as 0"], "a cap is no misreading: all digits were read");
});

t.test("attribute bounds are split once into `bounds`, listed or not, in query order", async (t) => {
  const players = route("GET", "/api/players").params;
  const values = validateParams(players, new Map([["three_ball_lte", "90"], ["made_up_gte", "70.5"], ["three_ball_gte", "80"]]));
  t.same(values.bounds, [
    { parameter: "three_ball_lte", attribute: "three_ball", isLower: false, value: 90 },
    { parameter: "made_up_gte", attribute: "made_up", isLower: true, value: 70.5 },
    { parameter: "three_ball_gte", attribute: "three_ball", isLower: true, value: 80 },
  ]);
  t.notOk("three_ball_gte" in values, "a bound is not also a named value");
  t.same(validate({ three_ball_gte: "60" }).bounds, [{ parameter: "three_ball_gte", attribute: "three_ball", isLower: true, value: 60 }], "a listed bound");
});

t.test("bad values are the same 400s: INVALID_PARAMETER naming parameter, value and reason", async (t) => {
  const failure = (query: Record<string, string>) => {
    try {
      validate(query);
    } catch (error) {
      if (error instanceof ApiError) return { code: error.code, status: error.status, details: error.details };
      throw error;
    }
    return undefined;
  };
  t.match(failure({ limit: "0" }), { code: "INVALID_PARAMETER", status: 400, details: { parameter: "limit", value: "0", reason: "must be a number from 1 to 100" } });
  t.match(failure({ limit: "" }), { code: "INVALID_PARAMETER", details: { parameter: "limit", value: "" } }, "an empty limit is refused, not defaulted");
  t.match(failure({ minRating: "high" }), { code: "INVALID_PARAMETER", details: { parameter: "minRating", value: "high" } });
  t.match(failure({ era: "future" }), { code: "INVALID_PARAMETER", details: { parameter: "era", value: "future", reason: "must be one of the allowed values", allowed: ["curr", "class", "allt"] } });
  t.match(failure({ fields: "name;overall" }), { code: "INVALID_PARAMETER", details: { parameter: "fields", reason: "must be a comma-separated list of field names" } });
  t.match(failure({ team: "a much longer team name" }), { code: "INVALID_PARAMETER", details: { parameter: "team" } });
  t.match(failure({ three_ball_gte: "100" }), { code: "INVALID_PARAMETER", details: { parameter: "three_ball_gte", value: "100" } });
  t.match(failure({ limit: "0", nope: "1" }), { code: "UNKNOWN_PARAMETERS", details: { unknownParams: [{ param: "nope" }] } }, "an unknown name outranks a bad value, wherever it is");
  t.match(failure({ nope: "1", limit: "0" }), { code: "UNKNOWN_PARAMETERS" });
});

t.test("where unknown names are ignored, their warnings come before what was read leniently", async (t) => {
  const lenient = compileParams(typedSchemas, { ignoresUnknown: true });
  const warnings: ParamWarning[] = [{ parameter: "earlier", value: "", message: "kept first" }];
  const values = validateParams(lenient, new Map([["limit", "2.5"], ["nope", "1"], ["_", "123"]]), warnings);
  t.equal(values.limit, 2);
  t.same(warnings.map((w) => w.parameter), ["earlier", "nope", "limit"], "the cache buster `_` is ignored silently");
});
