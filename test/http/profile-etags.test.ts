// The profile routes' ETags (similar, compare, team profile) are folded from what names the answer
// (its cache key: route, the editions' checksums, the request's values) and a render version, not
// hashed from the body. So: two different bodies never share one; the same answer has the same one
// with the response cache on or off, in another process over the same files, and answers 304 to
// it; and when the data under an answer changes (a player renamed), its ETag changes with its body.
import t from "tap";
import type { EditionSource, PlayerRecord } from "../../src/model/player.js";
import { fixtureEditions, startHarness, type Harness } from "./harness.js";

type Answer = { status: number; etag: string; body: string };

async function answer(h: Harness, path: string): Promise<Answer> {
  const response = await h.get(path);
  return { status: response.status, etag: response.headers.get("etag") ?? "", body: await response.text() };
}

const sources = fixtureEditions();
const [current, archived] = sources as [EditionSource, EditionSource];
const withAttributes = (source: EditionSource) => source.players.filter((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 20);

const h = await startHarness({ sources });
const uncached = await startHarness({ sources, env: { RESPONSE_CACHE_MB: "0" } });
t.teardown(() => {
  h.close();
  uncached.close();
});

// The renamed player: the leader of the first attribute of the first team profile, so the rename shows in all three routes.
const team = current.players.find((p) => p.teamType === "curr")?.team as string;
const teamPath = `/api/teams/${encodeURIComponent(team)}/profile?teamType=curr`;
const profile = JSON.parse((await answer(h, teamPath)).body);
const renamedId = profile.data.attributes[0].best.player._id as string;
const others = withAttributes(current).filter((p) => p._id !== renamedId).slice(0, 6);

const paths = [
  teamPath,
  `/api/players/${renamedId}/similar`,
  `/api/players/${renamedId}/similar?limit=5`,
  `/api/players/${renamedId}/similar?era=all&position=C`,
  `/api/players/compare?ids=${renamedId},${(others[0] as PlayerRecord)._id}`,
  `/api/players/compare?ids=${(others[0] as PlayerRecord)._id},${renamedId}`,
  `/api/players/compare?ids=${renamedId},${(others[1] as PlayerRecord)._id},${(others[2] as PlayerRecord)._id}`,
  ...others.map((p) => `/api/players/${p._id}/similar?limit=3`),
  ...others.slice(0, 3).map((p) => `/api/players/compare?ids=${p._id},${renamedId}&gameVersion=${current.gameVersion}`),
  ...withAttributes(archived).slice(0, 4).map((p) => `/api/versions/${archived.gameVersion}/players/${p._id}/similar`),
  ...[...new Set(archived.players.map((p) => `${p.team}|${p.teamType}`))].slice(0, 4).map((name) => {
    const [teamName, era] = name.split("|") as [string, string];
    return `/api/versions/${archived.gameVersion}/teams/${encodeURIComponent(teamName)}/profile?teamType=${era}`;
  }),
];

const before = new Map<string, Answer>();
for (const path of paths) before.set(path, await answer(h, path));

t.test("every answer is a 200 with an ETag; different bodies, different ETags; each ETag answers 304", async (t) => {
  const bodyOfEtag = new Map<string, string>();
  for (const [path, { status, etag, body }] of before) {
    t.equal(status, 200, path);
    t.match(etag, /^W\/"[0-9a-f]{8}[0-9a-f]*"$/, `${path}: a weak ETag`);
    const seen = bodyOfEtag.get(etag);
    if (seen !== undefined) t.equal(seen, body, `${path}: an ETag already given is given to the same body only`);
    bodyOfEtag.set(etag, body);
    const again = await h.get(path, { "if-none-match": etag });
    t.equal(again.status, 304, `${path}: If-None-Match with its ETag`);
    await again.arrayBuffer();
  }
  t.ok(new Set([...before.values()].map((a) => a.body)).size >= paths.length - 1, "the paths give different bodies (the two compare orders included)");
  t.equal(bodyOfEtag.size, new Set([...before.values()].map((a) => a.body)).size, "as many ETags as different bodies");
});

t.test("the same answer, the same ETag: response cache on and off, repeated, in another process over the same files", async (t) => {
  for (const [path, expected] of before) {
    t.same(await answer(h, path), expected, `${path}: asked again (cached)`);
    t.same(await answer(uncached, path), expected, `${path}: rendered by a server without a response cache`);
  }
});

t.test("a player renamed: every answer naming it changes body and ETag", async (t) => {
  const renamed = sources.map((source) => ({
    ...source,
    players: source.players.map((p) => (source === current && p._id === renamedId ? { ...p, name: `${p.name} Jr.` } : p)),
  }));
  const changed = await startHarness({ sources: renamed });
  t.teardown(() => changed.close());
  let naming = 0;
  for (const [path, old] of before) {
    const now = await answer(changed, path);
    t.equal(now.status, 200, path);
    if (path === teamPath || path.includes(renamedId)) {
      // The team profile names it as its first attribute's leader; its similar and compares as the player.
      t.not(now.body, old.body, `${path}: the body names the new name`);
      naming++;
    }
    if (now.body !== old.body) t.not(now.etag, old.etag, `${path}: a changed body has a changed ETag`);
  }
  t.ok(naming >= 8, `${naming} answers named the renamed player`);
});
