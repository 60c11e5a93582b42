import t from "tap";
import { compileParams } from "../../src/query/params.js";
import { comparePrecedence, Router, type Method, type RouteDefinition } from "../../src/http/router.js";
import { buildRoutes } from "../../src/http/routes/route-table.js";

const route = (method: Method, path: string): RouteDefinition => ({
  method, path, access: "key", params: compileParams({}), summary: path, handle: () => { throw new Error("unused"); },
});
const matched = (router: Router, method: string, path: string) => {
  const match = router.match(method, path.split("/").slice(1));
  return match.kind === "found" ? `${match.route.method} ${match.route.path} ${JSON.stringify(match.pathParams)}` : match.kind === "wrong-method" ? `405 ${match.allowed.join(",")}` : "404";
};

t.test("a literal beats a parameter at the first position where the patterns differ", async (t) => {
  t.ok(comparePrecedence(["api", "players", "slug", ":slug"], ["api", "players", ":id", "versions"]) < 0);
  t.ok(comparePrecedence(["api", "players", ":id", "versions"], ["api", "players", "slug", ":slug"]) > 0);
  t.equal(comparePrecedence(["api", ":a"], ["api", ":b"]), 0);
  // A total order: a literal route appended after routes of other lengths still outranks its parameter twin.
  const late = new Router([
    ...["/api/versions/:version/players/:slug", "/api/players/:id/similar", "/api/versions/:version/players", "/api/players/:id"].map((path) => route("GET", path)),
    route("GET", "/api/versions/:version/players/compare"),
  ]);
  const found = late.match("GET", ["api", "versions", "2K26", "players", "compare"]);
  t.equal(found.kind === "found" ? found.route.path : found.kind, "/api/versions/:version/players/compare");
  // Whatever order the table lists them in.
  for (const order of [0, 1]) {
    const table = [route("GET", "/api/players/:id/versions"), route("GET", "/api/players/slug/:slug"), route("GET", "/api/players/:id"), route("GET", "/api/players/bulk"), route("POST", "/api/players/batch")];
    const router = new Router(order === 0 ? table : [...table].reverse());
    t.equal(matched(router, "GET", "/api/players/slug/versions"), 'GET /api/players/slug/:slug {"slug":"versions"}', "the slug route, not :id/versions");
    t.equal(matched(router, "GET", "/api/players/lebron/versions"), 'GET /api/players/:id/versions {"id":"lebron"}');
    t.equal(matched(router, "GET", "/api/players/bulk"), 'GET /api/players/bulk {}');
    t.equal(matched(router, "HEAD", "/api/players/bulk"), 'GET /api/players/bulk {}');
    t.equal(matched(router, "GET", "/api/players/batch"), "405 POST", "batch is never an :id");
    t.equal(matched(router, "GET", "/api/players/abc"), 'GET /api/players/:id {"id":"abc"}');
    t.equal(matched(router, "GET", "/api/players/"), "404", "an empty segment is no parameter");
    t.equal(matched(router, "GET", "/api/players/slug"), 'GET /api/players/:id {"id":"slug"}', "a literal only wins where its whole pattern matches");
  }
});

t.test("in the real table, every literal path of the players routes is its own route", async (t) => {
  const router = new Router(buildRoutes(() => true));
  t.match(matched(router, "GET", "/api/players/search"), /^GET \/api\/players\/search /);
  t.match(matched(router, "GET", "/api/players/bulk"), /^GET \/api\/players\/bulk /);
  t.equal(matched(router, "GET", "/api/players/batch"), "405 POST");
  t.match(matched(router, "GET", "/api/players/slug/history"), /^GET \/api\/players\/slug\/:slug /);
  t.match(matched(router, "GET", "/api/players/slug/versions"), /^GET \/api\/players\/slug\/:slug /);
  t.match(matched(router, "GET", "/api/versions/2K26/players/bulk"), /^GET \/api\/versions\/:version\/players\/bulk /);
  t.match(matched(router, "GET", "/api/badges/categories"), /^GET \/api\/badges\/categories /);
  t.match(matched(router, "GET", "/"), /^GET \/ /);
});
