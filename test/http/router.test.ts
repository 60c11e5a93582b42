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

/** The linear scan the tree replaced, kept as the reference the tree must agree with. */
function scanMatch(definitions: readonly RouteDefinition[], method: string, segments: readonly string[]): string {
  const routes = definitions
    .map((definition) => {
      const pattern = definition.path.split("/").slice(1);
      return { definition, pattern, shape: pattern.map((segment) => (segment.startsWith(":") ? ":" : segment)).join("/") };
    })
    .sort((a, b) => comparePrecedence(a.pattern, b.pattern));
  const wanted = method === "HEAD" ? "GET" : method;
  const allowed: string[] = [];
  let matchedShape: string | undefined;
  for (const route of routes) {
    if (matchedShape !== undefined && route.shape !== matchedShape) continue;
    if (route.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let isMatch = true;
    for (let i = 0; i < route.pattern.length && isMatch; i++) {
      const expected = route.pattern[i] as string;
      const actual = segments[i] as string;
      if (expected.startsWith(":")) {
        if (actual.length === 0) isMatch = false;
        else params[expected.slice(1)] = actual;
      } else if (expected !== actual) {
        isMatch = false;
      }
    }
    if (!isMatch) continue;
    matchedShape ??= route.shape;
    if (route.definition.method === wanted) return `${route.definition.method} ${route.definition.path} ${JSON.stringify(params)}`;
    allowed.push(route.definition.method);
  }
  return allowed.length === 0 ? "404" : `405 ${[...new Set(allowed)].join(",")}`;
}

const METHODS = ["GET", "HEAD", "POST", "DELETE", "PUT", "PATCH", "OPTIONS"];

/** Paths for every pattern: its parameters filled with each literal of the table and a plain value, and near misses of each. */
function probePaths(definitions: readonly RouteDefinition[]): string[] {
  const literals = [...new Set(definitions.flatMap((definition) => definition.path.split("/").slice(1).filter((segment) => !segment.startsWith(":"))))];
  const paths = new Set<string>(["/", "", "//", "/api", "/api/", "/nope"]);
  for (const definition of definitions) {
    const pattern = definition.path.split("/").slice(1);
    const fills = [...literals, "x", "2K26", "lebron-james", ""];
    for (const fill of fills) {
      const path = `/${pattern.map((segment) => (segment.startsWith(":") ? fill : segment)).join("/")}`;
      paths.add(path);
      paths.add(`${path}/`);
      paths.add(`${path}/extra`);
      paths.add(path.slice(0, path.lastIndexOf("/")) || "/");
      paths.add(`${path.slice(0, path.lastIndexOf("/"))}/x`);
      paths.add(path.toUpperCase());
    }
  }
  return [...paths];
}

t.test("the tree answers every path of the real table as the linear scan did: route, parameters, 404, 405 and Allow", async (t) => {
  const definitions = buildRoutes(() => true);
  const router = new Router(definitions);
  const paths = probePaths(definitions);
  let compared = 0;
  for (const path of paths) {
    for (const method of METHODS) {
      const segments = path.split("/").slice(1);
      const expected = scanMatch(definitions, method, segments);
      const actual = matched(router, method, path);
      if (actual !== expected) t.equal(actual, expected, `${method} ${path}`);
      compared++;
    }
  }
  t.ok(compared > 5000, `${compared} method and path pairs agree`);
  // Every route of the table is found by its own path (parameters filled), with its own method.
  for (const definition of definitions) {
    const path = definition.path.replace(/:[^/]+/g, "zz-value");
    const found = router.match(definition.method, path.split("/").slice(1));
    t.equal(found.kind === "found" ? `${found.route.method} ${found.route.path}` : found.kind, `${definition.method} ${definition.path}`, `${definition.method} ${path}`);
  }
});

t.test("the tree agrees with the linear scan on random tables, whatever their order", async (t) => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = ["a", "b", "c", "bulk", ""];
  for (let table = 0; table < 200; table++) {
    const definitions: RouteDefinition[] = [];
    const count = 2 + Math.floor(random() * 10);
    for (let i = 0; i < count; i++) {
      const length = 1 + Math.floor(random() * 4);
      const segments = Array.from({ length }, (_, position) => (random() < 0.35 ? `:p${position}${pick(["", "x"])}` : pick(words)));
      definitions.push(route(pick(["GET", "POST", "DELETE"] as const), `/${segments.join("/")}`));
    }
    const router = new Router(definitions);
    for (const path of probePaths(definitions)) {
      for (const method of ["GET", "HEAD", "POST", "PUT"]) {
        const expected = scanMatch(definitions, method, path.split("/").slice(1));
        const actual = matched(router, method, path);
        if (actual !== expected) t.equal(actual, expected, `table ${table} (${definitions.map((d) => `${d.method} ${d.path}`).join("; ")}): ${method} ${path}`);
      }
    }
  }
  t.pass("200 random tables compared");
});
