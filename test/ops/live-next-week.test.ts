// Issue 46's scenario, as a new user runs it: a current edition served with two worker threads,
// six /api/live sockets subscribed to `all`, then next week imported the documented way
// (build-index --edition 2K27 --status current --input week.json --as-of … --out STAGE, then one
// rename into the data directory). The week changes seven players: five ratings, one badge
// upgrade, one trade (team and team image to another current team, slug kept: the row comes back
// under a new generated _id), one removed, one added. Every socket gets exactly one event per
// changed player, the trade naming both teams; /api/changes answers the same; a restarted server
// numbers them the same.

import t from "tap";
import { copyFileSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runBuildIndex } from "../../src/pipeline/build-index-cli.js";
import { BADGE_TIERS, type BadgeTier } from "../../src/model/badges.js";
import { playerId, type PlayerRecord } from "../../src/model/player.js";
import { randomPlayers } from "../fixtures/random-edition.js";
import { freePort } from "../fixtures/free-port.js";
import { mustConnect, subscribe, type LiveClient, type LiveMessage } from "../fixtures/live-client.js";
import { spawnServer, type ServerProcess } from "../fixtures/server-process.js";
import { createKey } from "../../src/keys/key-operations.js";

t.setTimeout(180_000);

/** A record as a week's JSON input gives it: the public API's shape, without an _id (the build makes one from era, team and slug). */
function inputRow(player: PlayerRecord): Record<string, unknown> {
  const { _id, ...row } = player;
  return { ...row, teamImg: `https://example.com/${row.team.toLowerCase().replace(/\W+/g, "-")}.svg` };
}

function buildIndex(args: string[]): void {
  const lines: string[] = [];
  const code = runBuildIndex(args, { env: {}, stderr: { write: (text: string) => lines.push(text), isTTY: false } as unknown as NodeJS.WriteStream });
  if (code !== 0) throw new Error(`build-index exited ${code}: ${lines.join("")}`);
}

async function start(env: Record<string, string>): Promise<{ server: ServerProcess; port: number }> {
  const port = await freePort();
  const server = spawnServer({ LOG_LEVEL: "warn", PORT: String(port), METRICS_PORT: String(await freePort()), WORKERS: "2", ...env });
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ready`)).status === 200) return { server, port };
    } catch { /* not yet */ }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not get ready: ${server.output()}`);
}

t.test("next week imported and renamed in: every socket gets one event per changed player, the trade naming both teams; a restart numbers them the same", async (t) => {
  const dir = t.testdir({});
  const dataDir = join(dir, "data");
  const stage = join(dir, "stage");
  mkdirSync(dataDir);
  mkdirSync(stage);
  const players = randomPlayers(120, 46);
  writeFileSync(join(dir, "launch.json"), JSON.stringify(players.map(inputRow)));
  buildIndex(["--edition", "2K27", "--status", "current", "--input", join(dir, "launch.json"), "--as-of", "2026-11-20", "--out", dataDir]);

  // Next week: seven players change.
  const week = players.map((player) => structuredClone(player));
  const [traded, upgraded, removed, ...rest] = week.filter((player) => player.teamType === "curr" && player.team === "Boston Celtics"
    && (player.badges.list ?? []).some((badge) => badge.tier !== "Legendary"));
  if (traded === undefined || upgraded === undefined || removed === undefined || rest.length < 5) throw new Error("the fixture has too few Boston players");
  const rated = rest.slice(0, 5);
  traded.team = "Denver Nuggets";
  const badge = (upgraded.badges.list ?? []).find((entry) => entry.tier !== "Legendary")!;
  badge.tier = BADGE_TIERS[BADGE_TIERS.indexOf(badge.tier as BadgeTier) + 1]!;
  for (const player of rated) player.overall += player.overall < 99 ? 1 : -1;
  week.splice(week.indexOf(removed), 1);
  const added: PlayerRecord = { ...structuredClone(rated[0]!), name: "Zed Newcomer", slug: "zed-newcomer", _id: playerId("curr", "Boston Celtics", "zed-newcomer") };
  week.push(added);

  const keysFile = join(dir, "keys.json");
  const { key } = createKey(keysFile, { email: "live@example.com", now: new Date(), rateLimit: 100_000 });
  const env = { DATA_DIR: dataDir, KEYS_FILE: keysFile };
  let { server, port } = await start(env);
  t.teardown(() => { server.child.kill("SIGKILL"); });
  const sockets: LiveClient[] = [];
  for (let i = 0; i < 6; i++) {
    const socket = await mustConnect(`ws://127.0.0.1:${port}/api/live`, key);
    await subscribe(socket, ["all"]);
    sockets.push(socket);
  }

  // The documented import: build into a staging directory holding the current snapshot, then one rename.
  writeFileSync(join(dir, "week.json"), JSON.stringify(week.map(inputRow)));
  copyFileSync(join(dataDir, "2K27.msgpack"), join(stage, "2K27.msgpack"));
  buildIndex(["--edition", "2K27", "--status", "current", "--input", join(dir, "week.json"), "--as-of", "2026-11-27", "--out", stage]);
  renameSync(join(stage, "2K27.msgpack"), join(dataDir, "2K27.msgpack"));

  await Promise.all(sockets.map((socket) => socket.next((message) => message.type === "edition", 20_000)));
  const changes = async (query: string): Promise<LiveMessage[]> => {
    const answer = await fetch(`http://127.0.0.1:${port}/api/changes?${query}`, { headers: { "x-api-key": key } });
    t.equal(answer.status, 200);
    return ((await answer.json()) as { data: LiveMessage[] }).data;
  };
  const feed = await changes("since=2026-11-20&limit=1000");
  const deadline = Date.now() + 10_000;
  while (sockets.some((socket) => socket.changes().length < feed.length) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 300));

  const slugs = (events: LiveMessage[]) => events.map((event) => event.slug as string).sort();
  const changed = [traded, upgraded, removed, added, ...rated].map((player) => player.slug).sort();
  t.same(slugs(feed), changed, "/api/changes: exactly one event per changed player");
  for (const [i, socket] of sockets.entries()) t.same(socket.changes(), feed, `socket ${i}: the same events, once each, in order`);
  const bySlug = new Map(feed.map((event) => [event.slug as string, event]));
  const oldId = playerId("curr", "Boston Celtics", traded.slug);
  t.match(bySlug.get(traded.slug), {
    kind: "traded", playerId: playerId("curr", "Denver Nuggets", traded.slug), previousPlayerId: oldId, overall: { from: traded.overall, to: traded.overall },
    trade: { from: { team: "Boston Celtics", slug: "boston-celtics" }, to: { team: "Denver Nuggets", slug: "denver-nuggets" } },
  }, "the trade: one traded event naming both teams, under the new _id");
  t.match(bySlug.get(upgraded.slug), { kind: "changed", overall: { from: upgraded.overall, to: upgraded.overall }, changes: { attributes: {}, badges: { upgraded: [{ name: badge.name, to: badge.tier }] } } }, "the badge upgrade");
  for (const player of rated) t.match(bySlug.get(player.slug), { kind: "changed", playerId: player._id, overall: { to: player.overall } });
  t.match(bySlug.get(removed.slug), { kind: "removed", playerId: removed._id });
  t.match(bySlug.get(added.slug), { kind: "added", playerId: added._id });
  t.same(await changes(`player=${oldId}`), [bySlug.get(traded.slug)], "/api/changes?player=<the old _id> finds the trade");

  // A restart: the same events under the same numbers, on /api/changes and replayed to a socket.
  server.child.kill("SIGTERM");
  t.same((await Promise.all(sockets.map((socket) => socket.closed))).map((close) => close.code), sockets.map(() => 1001));
  t.equal(await server.exited, 0, server.output());
  ({ server, port } = await start(env));
  t.same(await changes("since=2026-11-20&limit=1000"), feed, "after a restart: the same events, numbers and bytes");
  const again = await mustConnect(`ws://127.0.0.1:${port}/api/live`, key);
  t.equal((await subscribe(again, ["all"], 0)).replayed, feed.length);
  t.same(again.changes(), feed, "a replay after the restart: the same numbers");
  again.close();
});
