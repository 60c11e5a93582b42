// The URL mixes of the load benchmark, drawn deterministically (seeded) from the current demo
// edition so every server is asked the same paths in the same order. Knows nothing of servers.

import { BADGE_TIERS } from "../src/model/badges.js";
import { foldName } from "../src/model/names.js";
import type { Edition } from "../src/store/edition.js";
import { mulberry32 } from "../test/fixtures/random-edition.js";

export const MIX_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"] as const;
export type MixName = (typeof MIX_NAMES)[number];

export interface Mix {
  readonly name: MixName;
  readonly title: string;
  /** Whether Courtside serves it with its response cache on (the default) or off (RESPONSE_CACHE_MB=0). */
  readonly isCacheOn: boolean;
  /** Sent as Accept-Encoding on every request, or "" for none (identity bodies). */
  readonly acceptEncoding: string;
  readonly paths: readonly string[];
  /** Whether the conventional peer serves these routes (it has none of the hosted service's extra routes, docs/compatibility.md#the-hosted-services-extra-routes): without it, ceiling and Courtside only. */
  readonly hasPeer: boolean;
}


export function buildMixes(edition: Edition, seed = 5): Mix[] {
  const current = edition.payload;
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const chance = (p: number) => random() < p;
  const query = (params: [string, string | number][]) =>
    params.length === 0 ? "" : `?${params.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join("&")}`;

  // A browser's Accept-Encoding: the cached reply's brotli body is what goes out (and what the ceiling replays).
  const defaultPage: Mix = { name: "a", title: "default players page, cache on, `Accept-Encoding: gzip, deflate, br`", isCacheOn: true, acceptEncoding: "gzip, deflate, br", paths: ["/api/players"], hasPeer: true };

  // (b) What a ratings site's filter panel sends: mostly the current era, a position, a rating floor,
  // an attribute bound or two, sometimes a team or a badge, a sort, sometimes a field list and a later page.
  const teamsOfEra = (era: string) => current.teams.filter((team) => team.teamType === era);
  // The edition's own attributes and badges (the demo's: the 43 and the 40 in registry order, so the mixes are as before).
  const ATTRIBUTE_PARAM_NAMES = edition.catalogue.paramNames;
  const BADGES = edition.catalogue.badges;
  const sortable = ["overall", "name", ...ATTRIBUTE_PARAM_NAMES];
  const fieldSets = ["name,overall,positions,team", "name,slug,overall,attributes", "_id,name,overall,teamImg,playerImage", "name,overall,badges"];
  const filtered = new Set<string>();
  while (filtered.size < 2000) {
    const params: [string, string | number][] = [];
    const era = chance(0.7) ? undefined : pick(["class", "allt", "all"]);
    if (era !== undefined) params.push(["era", era]);
    if (chance(0.12)) params.push(["team", pick(teamsOfEra(era === undefined || era === "all" ? "curr" : era)).slug]);
    if (chance(0.5)) params.push(["position", pick(["PG", "SG", "SF", "PF", "C", "guard", "wing", "big"])]);
    if (chance(0.4)) params.push(["minRating", int(60, 88)]);
    if (chance(0.08)) params.push(["maxRating", int(89, 99)]);
    const bounds = chance(0.5) ? int(1, 2) : 0;
    for (const name of new Set(Array.from({ length: bounds }, () => pick(ATTRIBUTE_PARAM_NAMES)))) params.push([`${name}_gte`, int(55, 90)]);
    if (chance(0.12)) {
      params.push(["badge", pick(BADGES).slug]);
      if (chance(0.5)) params.push(["badgeTier", pick(BADGE_TIERS)]);
    } else if (chance(0.05)) {
      params.push(["badgeTier", pick(BADGE_TIERS)]);
    }
    if (chance(0.6)) params.push(["sort", `${pick(sortable)}:${chance(0.8) ? "desc" : "asc"}`]);
    if (chance(0.3)) params.push(["fields", pick(fieldSets)]);
    const limit = chance(0.5) ? 50 : pick([10, 20, 25, 100]);
    if (limit !== 50) params.push(["limit", limit]);
    if (chance(0.25)) params.push(["cursor", limit * int(1, 4)]);
    filtered.add(`/api/players${query(params)}`);
  }

  // (c) Names people type: full names, a last name, a first-name prefix, "first last-prefix", a typo.
  // A random row's name, decoded from its record (the same draw as picking from a list of names).
  const randomName = () => edition.record(Math.floor(random() * edition.rowCount)).name;
  const searches = new Set<string>();
  while (searches.size < 500) {
    const name = randomName();
    const words = name.split(/\s+/);
    const first = words[0] ?? name;
    const last = words[words.length - 1] ?? name;
    const kind = random();
    let q: string;
    if (kind < 0.25) q = name;
    else if (kind < 0.5) q = last;
    else if (kind < 0.7) q = first.slice(0, int(3, 4));
    else if (kind < 0.85) q = `${first} ${last.slice(0, int(2, 4))}`;
    else {
      const folded = foldName(last);
      const at = int(1, Math.max(1, folded.length - 1));
      q = folded.length >= 4 ? folded.slice(0, at) + folded.slice(at + 1) : folded;
    }
    const params: [string, string | number][] = [["q", q]];
    if (chance(0.2)) params.push(["teamType", pick(["curr", "class", "allt"])]);
    if (chance(0.3)) params.push(["limit", pick([10, 20])]);
    searches.add(`/api/players/search${query(params)}`);
  }

  const bulk = ["/api/players/bulk", "/api/players/bulk?era=curr", "/api/players/bulk?era=class", "/api/players/bulk?era=allt"];

  // (e) Every team's roster (by slug) and the three team lists.
  const rosters = current.teams.map((team) => `/api/teams/${encodeURIComponent(team.slug)}/roster`);
  const teamLists = ["/api/teams", "/api/teams?era=class", "/api/teams?era=allt"];

  // (g) The drop-in parity routes (docs/compatibility.md#the-hosted-services-extra-routes) a fantasy app, a bot and a sync script call: one
  // badge's holders (a tier, an era, a later page), the badge catalogue, trending windows, and
  // players by _id (the record, its versions, an attribute series).
  const parity = new Set<string>(["/api/badges", "/api/badges/categories", "/api/trending"]);
  // Rows holding a badge where the edition keeps lists (the tier mask is set from the counts).
  const everyRow = Array.from({ length: edition.rowCount }, (_, row) => row);
  const withBadges = current.columns.badgeTiers === null ? [] : everyRow.filter((row) => current.columns.tierMask[row] !== 0);
  for (let attempt = 0; parity.size < 1000 && attempt < 20_000; attempt++) {
    const kind = random();
    if (kind < 0.35) {
      const params: [string, string | number][] = [];
      if (chance(0.3)) params.push(["tier", pick(BADGE_TIERS)]);
      if (chance(0.3)) params.push(["teamType", pick(["curr", "class", "allt"])]);
      const limit = chance(0.6) ? 50 : pick([10, 20, 100]);
      if (limit !== 50) params.push(["limit", limit]);
      if (chance(0.2)) params.push(["cursor", limit * int(1, 3)]);
      parity.add(`/api/badges/${pick(BADGES).slug}/players${query(params)}`);
    } else if (kind < 0.42) {
      parity.add(chance(0.5) ? `/api/badges/${pick(BADGES).slug}` : `/api/badges?category=${pick(["shooting", "finishing", "playmaking", "defense", "rebounding", "general"])}`);
    } else if (kind < 0.6) {
      const params: [string, string | number][] = [];
      if (chance(0.6)) params.push(["days", pick([1, 7, 14, 30, 60, 90])]);
      if (chance(0.4)) params.push(["teamType", pick(["curr", "class", "allt"])]);
      if (chance(0.4)) params.push(["direction", pick(["up", "down"])]);
      if (chance(0.4)) params.push(["limit", pick([5, 10, 50])]);
      parity.add(`/api/trending${query(params)}`);
    } else {
      const player = edition.record(pick(chance(0.5) && withBadges.length > 0 ? withBadges : everyRow));
      const route = random();
      parity.add(route < 0.6 ? `/api/players/${player._id}` : route < 0.8 ? `/api/players/${player._id}/versions` : `/api/players/${player._id}/attribute/${pick(["overall", ...ATTRIBUTE_PARAM_NAMES])}`);
    }
  }

  // (i) The profile routes (issue 24): players like one player (an era or a position scope, a
  // limit), two to four players side by side, one team's profile. Without the response cache each
  // `similar` searches its scope in the profile index, each profile ranks its team's groups.
  const profiles = new Set<string>();
  const currentRows = everyRow.filter((row) => current.columns.era[row] === 0);
  for (let attempt = 0; profiles.size < 1000 && attempt < 20_000; attempt++) {
    const kind = random();
    if (kind < 0.6) {
      const params: [string, string | number][] = [];
      if (chance(0.2)) params.push(["era", pick(["all", "curr", "class", "allt"])]);
      if (chance(0.3)) params.push(["position", pick(["PG", "SG", "SF", "PF", "C", "guard", "wing", "big"])]);
      if (chance(0.4)) params.push(["limit", pick([5, 20, 50])]);
      profiles.add(`/api/players/${edition.record(pick(everyRow))._id}/similar${query(params)}`);
    } else if (kind < 0.85) {
      const ids = Array.from({ length: int(2, 4) }, () => edition.record(pick(currentRows))._id);
      if (new Set(ids).size === ids.length) profiles.add(`/api/players/compare?ids=${ids.join(",")}`);
    } else {
      const team = pick(current.teams);
      profiles.add(`/api/teams/${encodeURIComponent(team.slug)}/profile?teamType=${team.teamType}`);
    }
  }

  // (j) The exports of the whole edition and each era (docs/exports.md), Parquet and CSV: encoded
  // once, served from memory. (k) Filtered CSV exports (drawn after every other mix, so theirs stay
  // as they were): a position, a rating floor, an era, sometimes a team or an attribute bound.
  const wholeExports = ["", "era=curr&", "era=class&", "era=allt&"].flatMap((era) => ["parquet", "csv"].map((format) => `/api/players/bulk?${era}format=${format}`));
  const filteredExports = new Set<string>();
  while (filteredExports.size < 500) {
    const params: [string, string | number][] = [];
    const era = chance(0.6) ? undefined : pick(["class", "allt", "all"]);
    if (era !== undefined) params.push(["era", era]);
    if (chance(0.15)) params.push(["team", pick(teamsOfEra(era === undefined || era === "all" ? "curr" : era)).slug]);
    if (chance(0.6)) params.push(["position", pick(["PG", "SG", "SF", "PF", "C", "guard", "wing", "big"])]);
    if (chance(0.5)) params.push(["minRating", int(60, 88)]);
    if (chance(0.3)) params.push([`${pick(ATTRIBUTE_PARAM_NAMES)}_gte`, int(55, 90)]);
    params.push(["format", "csv"]);
    filteredExports.add(`/api/players/bulk${query(params)}`);
  }

  return [
    defaultPage,
    { name: "b", title: "2,000 distinct filtered/sorted/paged queries, cache off", isCacheOn: false, acceptEncoding: "", paths: [...filtered], hasPeer: true },
    { name: "c", title: "500 distinct name searches", isCacheOn: true, acceptEncoding: "", paths: [...searches], hasPeer: true },
    { name: "d", title: "bulk download (whole edition and each era), `Accept-Encoding: br`", isCacheOn: true, acceptEncoding: "br", paths: bulk, hasPeer: true },
    { name: "e", title: `team lists and every roster (${rosters.length + teamLists.length} URLs)`, isCacheOn: true, acceptEncoding: "", paths: [...teamLists, ...rosters], hasPeer: true },
    // (c) again without the response cache: every search ranks afresh (with it, a repeated query's
    // ranked page is a cached template and only the timestamp is written).
    { name: "f", title: "the same 500 searches, cache off", isCacheOn: false, acceptEncoding: "", paths: [...searches], hasPeer: true },
    { name: "g", title: "1,000 parity URLs: badge holders, trending, players by _id (no peer: it has no such routes)", isCacheOn: true, acceptEncoding: "", paths: [...parity], hasPeer: false },
    // (g) without the response cache: every request slices the precomputed holder runs and
    // trending windows and renders from fragments; this is the routes' own cost per request.
    { name: "h", title: "the same 1,000 parity URLs, cache off", isCacheOn: false, acceptEncoding: "", paths: [...parity], hasPeer: false },
    { name: "i", title: `${profiles.size} profile URLs: similar players, comparisons, team profiles, cache off (no peer: it has no such routes)`, isCacheOn: false, acceptEncoding: "", paths: [...profiles], hasPeer: false },
    { name: "j", title: "exports of the whole edition and each era, Parquet and CSV, cache on (no peer: it has no exports)", isCacheOn: true, acceptEncoding: "", paths: wholeExports, hasPeer: false },
    { name: "k", title: `${filteredExports.size} filtered CSV exports, cache off (no peer: it has no exports)`, isCacheOn: false, acceptEncoding: "", paths: [...filteredExports], hasPeer: false },
  ];
}
