// The profile and detail routes' answers of this build beside another's, byte for byte: every URL of load mix
// (i), every team profile of every edition, compares in every edition (2 to 4 players, by the
// versioned path and by `gameVersion`), `similar` for every player of the current edition and
// with each scope in the others, and their lenient and empty cases (an unknown position, a player
// without attributes); every player's detail, percentiles, history and versions, trending; the
// page family (the default page, the filtered pages, searches, rosters, badge holders, bulk pages,
// answers with warnings). For a change that must not change what is answered (issue 33: the
// profile routes rendered from fragments; issue 43: one row writer). Reports how many status, body and ETag values differ, and
// whether this build gives two different bodies one ETag. Exits 1 on any body or status difference.
// Usage: node dist/bench/answers.js --against ../other-worktree/dist [--data-dir data]

import { parseArgs } from "node:util";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Dispatcher, Outgoing } from "../src/http/dispatch.js";
import { loadEditionSet, type EditionSet } from "../src/store/editions.js";
import { benchDispatcher, benchRequest, type DispatcherModules } from "./in-process.js";
import { buildMixes } from "./mixes.js";

const { values: flags } = parseArgs({
  options: {
    against: { type: "string" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" },
  },
});
if (flags.against === undefined) throw new Error("--against <the other build's dist directory> is required");

const editions = loadEditionSet(flags["data-dir"]);
const otherDist = isAbsolute(flags.against) ? flags.against : resolve(flags.against);
const load = async (path: string): Promise<unknown> => import(pathToFileURL(`${otherDist}/${path}`).href);
const other = {
  routes: await load("src/http/routes/route-table.js") as Pick<DispatcherModules, "createDispatcher">,
  buckets: await load("src/limits/token-buckets.js") as Pick<DispatcherModules, "TokenBuckets">,
  editions: await load("src/store/editions.js") as { loadEditionSet: (dir: string) => EditionSet },
};
// One clock for both: an error's envelope carries the time it was answered.
const now = () => Date.parse("2026-11-27T12:00:00Z");
const ours = benchDispatcher(editions, { cacheBytes: 0, now });
const theirs = benchDispatcher(other.editions.loadEditionSet(flags["data-dir"]), { cacheBytes: 0, now, modules: { ...other.routes, ...other.buckets } });

function profileUrls(): string[] {
  const urls = new Set(buildMixes(editions.current).find((mix) => mix.name === "i")?.paths ?? []);
  for (const edition of editions.ordered) {
    const prefix = `/api/versions/${edition.key}`;
    for (const team of edition.teams) urls.add(`${prefix}/teams/${encodeURIComponent(team.slug)}/profile?teamType=${team.teamType}`);
    const id = (row: number) => edition.record(row % edition.rowCount)._id;
    // Compares: neighbours and rows far apart, 2, 3 and 4 players, by the versioned path and by gameVersion.
    for (let row = 0; row < edition.rowCount; row += 7) {
      const count = 2 + (row % 3);
      const ids = Array.from({ length: count }, (_, i) => id(row + i * Math.floor(edition.rowCount / 5) + i));
      if (new Set(ids).size !== ids.length) continue;
      urls.add(row % 2 === 0 ? `${prefix}/players/compare?ids=${ids.join(",")}` : `/api/players/compare?ids=${ids.join(",")}&gameVersion=${edition.key}`);
    }
    // Similar: every current player; a spread of the others' with each scope and limit.
    const step = edition === editions.current ? 1 : 11;
    const scopes = ["", "?era=all", "?era=class&limit=5", "?position=C", "?position=guard&limit=50", "?position=XX", "?teamType=allt"];
    for (let row = 0; row < edition.rowCount; row += step) {
      const scope = scopes[row % scopes.length] as string;
      urls.add(edition === editions.current ? `/api/players/${id(row)}/similar${scope}` : `${prefix}/players/${id(row)}/similar${scope}`);
    }
  }
  // The detail family (issue 43: rows written from their stored bytes, fields read one at a time,
  // no record parsed): every player of every edition by id, slug and versioned slug, with an era
  // that matches and one that does not, a team that is not theirs, and their percentiles, history
  // and versions; trending in each direction.
  for (const edition of editions.ordered) {
    const isCurrent = edition === editions.current;
    const prefix = `/api/versions/${edition.key}`;
    for (let row = 0; row < edition.rowCount; row += isCurrent ? 1 : 5) {
      const { _id, slug, teamType } = edition.record(row);
      urls.add(`${prefix}/players/${encodeURIComponent(slug)}`);
      urls.add(`${prefix}/players/${_id}/percentiles${row % 2 === 0 ? "" : "?cohort=era"}`);
      if (!isCurrent) continue;
      urls.add(`/api/players/${_id}`);
      urls.add(`/api/players/${_id}?teamType=${teamType === "curr" ? "class" : "curr"}`);
      urls.add(`/api/players/slug/${encodeURIComponent(slug)}`);
      urls.add(`/api/players/slug/${encodeURIComponent(slug)}?team=no-such-team`);
      urls.add(`/api/players/${_id}/percentiles?teamType=${teamType}`);
      urls.add(`/api/players/${_id}/history`);
      urls.add(`/api/players/${_id}/versions`);
    }
  }
  for (const query of ["", "?direction=up", "?direction=down&limit=50", "?teamType=curr&limit=100"]) urls.add(`/api/players/trending${query}`);
  // The page family (issue 43: every answer made of rows written by one writer, http/fragment-body.ts):
  // load mixes (a) the default page, (b) 2,000 filtered pages, (c) 500 searches, (e) team lists and
  // rosters, (g) badge holders, trending and players by _id; filtered and versioned bulk pages; and
  // answers that carry warnings (an unknown position, an unknown parameter).
  for (const mix of buildMixes(editions.current).filter(({ name }) => ["a", "b", "c", "e", "g"].includes(name))) for (const path of mix.paths) urls.add(path);
  for (const query of ["?teamType=curr&position=PG", "?teamType=class&minOverall=80", "?position=C&fields=name,overall"]) {
    urls.add(`/api/players/bulk${query}`);
    for (const edition of editions.ordered) urls.add(`/api/versions/${edition.key}/players/bulk${query}`);
  }
  for (const query of ["?position=XX", "?position=PG&colour=blue", "?limit=5&sort=overall&unknown=1"]) {
    urls.add(`/api/players${query}`);
    urls.add(`/api/versions/${editions.current.key}/players${query}`);
  }
  for (const query of ["", "?direction=up", "?teamType=class&limit=5", "?days=14"]) urls.add(`/api/trending${query}`);
  return [...urls];
}

function answer(dispatcher: Dispatcher, url: string): { status: number; etag: string; body: Buffer } {
  const outgoing = dispatcher.dispatch(benchRequest(url)) as Outgoing;
  if (outgoing instanceof Promise) throw new Error(`${url} answered asynchronously`);
  const etag = /(?:^|\r\n)ETag: ([^\r\n]*)/i.exec(outgoing.headers)?.[1] ?? "";
  // A copy: a scratch body is overwritten by the next render.
  return { status: outgoing.status, etag, body: Buffer.from(outgoing.body ?? Buffer.alloc(0)) };
}

const urls = profileUrls();
let statusDiffers = 0;
let bodyDiffers = 0;
let etagDiffers = 0;
const bodyOfEtag = new Map<string, Buffer>();
let sharedEtags = 0;
const statuses = new Map<number, number>();
for (const url of urls) {
  const a = answer(theirs, url);
  const b = answer(ours, url);
  statuses.set(b.status, (statuses.get(b.status) ?? 0) + 1);
  if (a.status !== b.status) statusDiffers++;
  if (!a.body.equals(b.body)) {
    if (bodyDiffers < 3) process.stdout.write(`body differs: ${url}\n  theirs ${a.body.toString("utf8", 0, 300)}\n  ours   ${b.body.toString("utf8", 0, 300)}\n`);
    bodyDiffers++;
  }
  if (a.etag !== b.etag) etagDiffers++;
  if (b.etag !== "") {
    const seen = bodyOfEtag.get(b.etag);
    if (seen !== undefined && !seen.equals(b.body)) sharedEtags++;
    bodyOfEtag.set(b.etag, b.body);
  }
}
process.stdout.write(`${urls.length} URLs (statuses ${[...statuses].map(([status, n]) => `${status}: ${n}`).join(", ")}) against ${otherDist}: `
  + `${statusDiffers} statuses and ${bodyDiffers} bodies differ; ${etagDiffers} ETags differ; ${sharedEtags} times two different bodies of ours had one ETag\n`);
if (statusDiffers > 0 || bodyDiffers > 0 || sharedEtags > 0) process.exitCode = 1;
