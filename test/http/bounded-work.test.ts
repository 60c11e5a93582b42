import t from "tap";
import { startHarness } from "./harness.js";
import { LENGTH_LIMITS } from "../../src/query/limits.js";
import { MAX_CANDIDATES_PER_SLUG, MAX_NAME_SEARCHES_PER_SLUG, SUGGEST_MAX_LENGTH } from "../../src/query/suggest.js";
import { workCountsNow, type WorkCounts } from "../../src/store/work-counts.js";

// The service runs in this process and answers one request at a time here, so the change in
// workCounts around a request is that request's work: handlers run, identifiers looked up, name
// searches, postings visited, suggestion candidates scored. Counted, not timed: a busy machine
// changes none of these numbers, and an unbounded implementation changes them every time.
// (Latency beside hostile requests is measured in bench/: npm run bench:fuzz, bench/README.md.)
// Request heads up to 256 KiB (MAX_HEADERS_KB; 16 by default, and a longer head is a 431 before any
// handler runs): what is checked here is the handlers' own bounds on a 120 KB slug.
const h = await startHarness({ env: { MAX_HEADERS_KB: "256" } });
t.teardown(() => h.close());

const post = (body: unknown) =>
  fetch(`${h.base}/api/players/batch`, { method: "POST", headers: { "x-api-key": h.key, "content-type": "application/json" }, body: JSON.stringify(body) });

/** The work counted while `request` ran (and its body was read). */
async function workOf<T>(request: () => Promise<T>): Promise<{ value: T; work: WorkCounts }> {
  const before = workCountsNow();
  const value = await request();
  const work = workCountsNow();
  for (const name of Object.keys(work) as (keyof WorkCounts)[]) work[name] -= before[name];
  return { value, work };
}

const NO_WORK: WorkCounts = { handlerCalls: 0, identifierLookups: 0, nameSearches: 0, postingsVisited: 0, candidatesScored: 0, requestsHeld: 0 };

/** Letters only, so nothing is a real slug (the fixture's names are letters and hyphens too, but never this long). */
function unknownSlug(length: number, seed: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += i % 9 === 8 ? "-" : String.fromCharCode(97 + ((seed * 31 + i * 17) % 26));
  return text;
}

/**
 * uWS sometimes resets a connection whose request head nears its bound (~128 KiB) instead of
 * reading it (refused, never served: test/ops/hostile.test.ts); a fresh connection is then tried.
 */
async function jsonOrRetry(path: string): Promise<{ status: number; body: any }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await h.json(path, { connection: "close" });
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

t.test("a 120 KB slug is a 400 naming the limit, answered before any handler or lookup runs", async (t) => {
  const slug = "a".repeat(120 * 1024);
  const paths = [`/api/players/slug/${slug}`, `/api/players/${slug}/history`, `/api/players/${slug}/versions`, `/api/players/${slug}/attribute/speed`, `/api/versions/2K27/players/${slug}`, `/api/teams/${slug}/roster`, `/api/badges/${slug}`];
  for (const path of paths) {
    // The same route at a plausible length runs its handler (a 404, or an empty 200 as the hosted
    // service answers some): the counters see these routes.
    const plausible = await workOf(() => h.json(path.replace(slug, "no-such-player")));
    t.equal(plausible.work.handlerCalls, 1, `${path.replace(slug, "no-such-player")} reaches its handler`);
    const { value: response, work } = await workOf(() => jsonOrRetry(path));
    t.equal(response.status, 400, path.slice(0, 40));
    t.equal(response.body.error.details.limit, LENGTH_LIMITS.pathSegment);
    t.match(response.body.error.message, `limit of ${LENGTH_LIMITS.pathSegment} characters`);
    t.same(work, NO_WORK, `${path.slice(0, 30)}…: no handler, no lookup, no search, no suggestion`);
  }
});

t.test("a batch of 100 long unknown slugs is a lookup each and no suggestion work, each unmatched", async (t) => {
  // At the identifier limit (past SUGGEST_MAX_LENGTH): looked up, never suggested for.
  t.ok(LENGTH_LIMITS.identifier > SUGGEST_MAX_LENGTH);
  const slugs = Array.from({ length: 100 }, (_, i) => unknownSlug(LENGTH_LIMITS.identifier, i));
  const { value: response, work } = await workOf(async () => {
    const answer = await post({ slugs });
    return { status: answer.status, body: await answer.json() as any };
  });
  t.equal(response.status, 200);
  t.equal(response.body.meta.unmatched.length, 100);
  t.same(response.body.meta.unmatched.filter((entry: any) => entry.candidates !== undefined), [], "no suggestions");
  t.same(work, { ...NO_WORK, handlerCalls: 1, identifierLookups: 100 }, "one slug lookup each, nothing else");

  // Past the limit: unmatched without a lookup (docs/compatibility.md#fidelity-rules).
  const tooLong = Array.from({ length: 100 }, (_, i) => unknownSlug(LENGTH_LIMITS.identifier + 1 + i, i));
  const refused = await workOf(async () => {
    const answer = await post({ slugs: tooLong });
    return { status: answer.status, body: await answer.json() as any };
  });
  t.equal(refused.value.status, 200);
  t.equal(refused.value.body.meta.unmatched.length, 100);
  t.same(refused.work, { ...NO_WORK, handlerCalls: 1 }, "over the identifier limit: not even a lookup");
});

t.test("a batch of 100 unknown slugs of plausible length does a bounded name search each, never every slug", async (t) => {
  const edition = h.service.editions().current;
  // Typos of real name slugs (two letters swapped, which the name index's one-edit rule misses as a
  // whole) find candidates; letters at random mostly find none. Both kinds are unmatched.
  const typos = Array.from({ length: 50 }, (_, i) => {
    const slug = edition.foldedName(i * 7).replace(/ /g, "-");
    return `${slug.slice(0, 2)}${slug[3] ?? ""}${slug[2] ?? ""}${slug.slice(4)}x`;
  });
  // Many short words (`abc-bcd-…`, 16 of them in 63 characters): only the first SLUG_WORDS are searched.
  const wordy = Array.from({ length: 10 }, (_, i) => Array.from({ length: 16 }, (_, w) => unknownSlug(3, i * 16 + w)).join("-"));
  const slugs = [...typos, ...wordy, ...Array.from({ length: 40 }, (_, i) => unknownSlug(30, i))];
  t.ok(slugs.every((slug) => slug.length <= SUGGEST_MAX_LENGTH && edition.rowsForSlug(slug, 0b111).length === 0), "every slug is unknown and of plausible length");
  const { value: response, work } = await workOf(async () => {
    const answer = await post({ slugs });
    return { status: answer.status, body: await answer.json() as any };
  });
  t.equal(response.status, 200);
  t.equal(response.body.meta.unmatched.length, 100);
  const suggested = response.body.meta.unmatched.filter((entry: any) => entry.candidates !== undefined).length;
  t.ok(suggested > 0, `${suggested} of the typos get candidates`);
  t.comment(`work of the batch: ${JSON.stringify(work)} (edition of ${edition.nameIndex.rowCount} rows)`);
  // A name search each (more only for a slug whose words together find nobody), never past the bound.
  t.ok(work.nameSearches >= 100 && work.nameSearches <= 100 * MAX_NAME_SEARCHES_PER_SLUG, `${work.nameSearches} name searches, at most ${MAX_NAME_SEARCHES_PER_SLUG} a slug`);
  t.ok(work.candidatesScored > 0 && work.candidatesScored <= 100 * MAX_CANDIDATES_PER_SLUG, `${work.candidatesScored} candidates scored, at most ${MAX_CANDIDATES_PER_SLUG} a slug`);
  t.ok(work.identifierLookups <= 100 * (1 + MAX_CANDIDATES_PER_SLUG), `${work.identifierLookups} slug lookups: the slug, then one per candidate`);
  // And slug by slug, each within the bound.
  let most = { ...NO_WORK };
  for (const slug of slugs) {
    const { work: one } = await workOf(() => post({ slugs: [slug] }).then((answer) => answer.arrayBuffer()));
    most = { handlerCalls: 1, identifierLookups: Math.max(most.identifierLookups, one.identifierLookups), nameSearches: Math.max(most.nameSearches, one.nameSearches), postingsVisited: Math.max(most.postingsVisited, one.postingsVisited), candidatesScored: Math.max(most.candidatesScored, one.candidatesScored), requestsHeld: 0 };
  }
  t.comment(`the most work of one slug: ${JSON.stringify(most)}`);
  t.ok(most.nameSearches <= MAX_NAME_SEARCHES_PER_SLUG, `at most ${most.nameSearches} name searches for one slug`);
  t.ok(most.candidatesScored <= MAX_CANDIDATES_PER_SLUG, `at most ${most.candidatesScored} candidates scored for one slug`);
  t.ok(most.identifierLookups <= 1 + MAX_CANDIDATES_PER_SLUG, `at most ${most.identifierLookups} slug lookups for one slug`);
  // The searches walk postings of the name words near each slug's words, never every row for each slug.
  t.ok(work.postingsVisited < 100 * edition.nameIndex.rowCount, `${work.postingsVisited} postings visited, fewer than a scan of the ${edition.nameIndex.rowCount} rows per slug`);
});

t.test("the worker reports its work counts (summed over workers in /metrics as courtside_work_total)", async (t) => {
  await post({ slugs: ["no-such-player"] }).then((answer) => answer.arrayBuffer());
  const reported = h.service.stats().work;
  t.same(reported, workCountsNow());
  t.ok((reported?.handlerCalls ?? 0) > 0 && (reported?.nameSearches ?? 0) > 0);
});

t.test("identifiers, parameter names and values past their limits are 400s naming the limit", async (t) => {
  // docs/compatibility.md#fidelity-rules: the hosted service answers an over-long batch identifier, so it is unmatched as
  // not_found (it was a 400), never looked up: its work stays bounded by the same limit.
  const tooLong = await post({ slugs: ["a".repeat(LENGTH_LIMITS.identifier + 1)] });
  t.equal(tooLong.status, 200);
  t.same((await tooLong.json() as any).meta.unmatched, [{ query: "a".repeat(LENGTH_LIMITS.identifier), reason: "not_found" }]);
  const name = await h.json(`/api/players?${"n".repeat(LENGTH_LIMITS.parameterName + 1)}=1`);
  t.equal(name.status, 400);
  t.equal(name.body.error.details.limit, LENGTH_LIMITS.parameterName);
  const value = await h.json(`/api/players?team=${"v".repeat(LENGTH_LIMITS.parameterValue + 1)}`);
  t.equal(value.status, 400);
  t.equal(value.body.error.details.limit, LENGTH_LIMITS.parameterValue);
  t.equal(value.body.error.details.parameter, "team");
  // At the limit a name is still only an unknown parameter, with no suggestion computed past plausibility.
  const atLimit = await h.json(`/api/players?${"n".repeat(LENGTH_LIMITS.parameterName)}=1`);
  t.equal(atLimit.status, 400);
  t.equal(atLimit.body.error.code, "UNKNOWN_PARAMETERS");
});
