// clients/typescript (courtside-client): built here from this repository's route table (types
// generated with openapi-typescript, then tsc), its usage example type-checked and run against a
// live server, a misspelt field or parameter refused by the type checker, and the helpers'
// behaviours (ETag revalidation, the error class, one wait on 429) checked in process.

import t from "tap";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startHarness } from "../http/harness.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const client = join(root, "clients", "typescript");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");

t.setTimeout(600_000);

interface Run { code: number; stdout: string; stderr: string }

function run(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr });
    });
  });
}

/**
 * The built client, loaded at run time: it exists only once this file has built it, after the root
 * tsc has checked this file, so its types cannot be imported here. Typed loosely at this boundary.
 */
type ClientModule = {
  createClient(options: Record<string, unknown>): any;
  CourtsideError: new (...args: never[]) => Error & { status: number; code: string; details?: Record<string, unknown>; retryAfter?: number };
};

const generated = await run([join(client, "scripts", "generate.mjs")]);
const built = generated.code === 0 ? await run([tsc, "-p", join(client, "tsconfig.json")]) : generated;

t.test("the client builds: types generated from the route table's document, then tsc", async (t) => {
  t.equal(generated.code, 0, generated.stderr);
  t.match(generated.stdout, /types for \d+ paths/);
  t.equal(built.code, 0, built.stdout + built.stderr);
  const types = readFileSync(join(client, "src", "generated", "openapi.ts"), "utf8");
  const document = JSON.parse(readFileSync(join(client, "openapi.json"), "utf8"));
  for (const path of Object.keys(document.paths)) t.ok(types.includes(`"${path}": {`), `types cover ${path}`);
  t.ok(existsSync(join(client, "dist", "src", "index.js")) && existsSync(join(client, "dist", "src", "index.d.ts")));
});

t.test("the usage example type-checks and runs against a live server", async (t) => {
  const checked = await run([tsc, "-p", join(client, "examples", "tsconfig.json")]);
  t.equal(checked.code, 0, checked.stdout + checked.stderr);
  const h = await startHarness();
  t.teardown(() => h.close());
  const ran = await run([join(client, "dist", "examples", "usage.js")], { COURTSIDE_URL: h.base, COURTSIDE_KEY: h.key });
  t.equal(ran.code, 0, ran.stderr);
  const out = JSON.parse(ran.stdout);
  const expected = (await h.json("/api/players?position=guard&sort=speed:desc&limit=5")).body;
  t.equal(out.players.count, expected.meta.count);
  t.equal(out.players.first, expected.data[0].name);
  t.equal(out.players.speed, expected.data[0].attributes.speed);
  t.same(out.trimmed, ["name,overall", "name,overall"], "fields trims the rows");
  t.equal(out.search.first, expected.data[0].name, "search finds the player by name");
  t.equal(out.player.slug, expected.data[0].slug);
  const direct = (await h.json(`/api/players/slug/${expected.data[0].slug}?teamType=curr`)).body.data;
  t.equal(out.player.zones, Object.keys(direct.hotZones ?? {}).length);
  t.equal(out.player.editions, direct.ratingHistory.length);
  t.ok(out.player.editions >= 1);
  const bulk = (await h.json("/api/players/bulk?era=curr")).body;
  t.same(out.bulk, { count: bulk.meta.count, total: bulk.meta.total, isSameObject: true }, "the second bulk is the first, revalidated");
  t.same(out.csv, { header: "_id", lines: bulk.meta.count }, "exportBulk: the CSV's header and a line per row");
  t.equal(out.batch.matched, 1);
  t.same(out.batch.unmatched, ["Nobody Atall"]);
  t.same(out.teams, (await h.json("/api/teams?era=allt")).body.data.map((team: { teamName: string }) => team.teamName));
  t.same(out.missing, { status: 404, code: "PLAYER_NOT_FOUND" });
  const similar = (await h.json(`/api/players/${expected.data[0]._id}/similar?limit=3`)).body.data;
  t.same(out.similar, similar.map((entry: { player: { slug: string }; similarity: number }) => ({ slug: entry.player.slug, similarity: entry.similarity })), "similar");
  const standing = (await h.json(`/api/players/${expected.data[0]._id}/percentiles?cohort=era`)).body.data;
  t.same(out.percentiles, { cohort: standing.cohort, speed: standing.attributes.find((row: { attribute: string }) => row.attribute === "speed").percentile }, "percentiles");
  t.ok(out.percentiles.speed > 50, "the fastest guard's speed is above the middle of its era");
  t.same(out.compare.players, [expected.data[0].slug, expected.data[1].slug], "compare, in the order asked");
  const profile = (await h.json(`/api/teams/${encodeURIComponent(expected.data[0].team)}/profile`)).body.data;
  t.same(out.profile, { team: expected.data[0].team, groups: profile.groups.map((group: { group: string }) => group.group) }, "teamProfile");
});

t.test("a misspelt field or parameter is a type error, exactly where marked", async (t) => {
  const source = readFileSync(join(client, "examples", "wrong-field.ts"), "utf8").split("\n");
  const expected = source.flatMap((line, i) => {
    const mark = /\/\/ expect-error (TS\d+) (.+)$/.exec(line);
    return mark ? [{ line: i + 1, code: mark[1] as string, text: mark[2] as string }] : [];
  });
  t.equal(expected.length, 4);
  const checked = await run([tsc, "-p", join(client, "examples", "tsconfig.wrong.json")]);
  t.not(checked.code, 0, "tsc refuses the example");
  const errors = [...checked.stdout.matchAll(/wrong-field\.ts\((\d+),\d+\): error (TS\d+): (.*)/g)].map((match) => ({
    line: Number(match[1]), code: match[2] as string, message: match[3] as string,
  }));
  t.same(errors.map(({ line, code }) => ({ line, code })), expected.map(({ line, code }) => ({ line, code })), checked.stdout);
  for (const { line, text } of expected) {
    const error = errors.find((entry) => entry.line === line);
    t.ok(error && (error.message.includes(text) || checked.stdout.includes(text)), `line ${line}: ${text}`);
  }
  t.match(checked.stdout, /Did you mean 'overall'\?/);
  t.match(checked.stdout, /Did you mean to write 'position'\?/);
});

t.test("helpers: ETag revalidation, the error envelope as an exception, one wait on 429", async (t) => {
  const { createClient, CourtsideError } = (await import(pathToFileURL(join(client, "dist", "src", "index.js")).href)) as ClientModule;
  const h = await startHarness({ rateLimit: 2 });
  t.teardown(() => h.close());
  const statuses: number[] = [];
  const recording = async (request: Request) => {
    const response = await fetch(request);
    statuses.push(response.status);
    return response;
  };
  const api = createClient({ baseUrl: h.base, apiKey: h.key, fetch: recording });

  const first = await api.bulk({ era: "class" });
  const second = await api.bulk({ era: "class" });
  t.equal(second, first, "a 304 gives back the kept body");
  t.same(statuses, [200, 304], "the second call revalidated, and it cost no token");
  t.equal((await api.players({ limit: 1 })).data.length, 1, "the second token");

  const refused = await api.players({ limit: 1 }).catch((error: unknown) => error);
  t.type(refused, CourtsideError);
  t.match(refused, { status: 429, code: "RATE_LIMIT_EXCEEDED", message: /Rate limit/ });
  t.ok(refused.retryAfter > 0, "Retry-After is on the error");

  const waits: number[] = [];
  const patient = createClient({
    baseUrl: h.base, apiKey: h.key, fetch: recording, retryOnRateLimit: true, maxRetryAfterSeconds: 7200,
    sleep: async (ms: number) => {
      waits.push(ms);
      h.clock.now += ms;
    },
  });
  statuses.length = 0;
  const batch = await patient.batch(["Nobody Atall"]);
  t.same(statuses, [429, 200], "waited once, then the same POST went through");
  t.equal(waits.length, 1);
  t.equal(waits[0], refused.retryAfter * 1000, "for Retry-After seconds");
  t.same(batch.meta.unmatched.map((entry: { query: string }) => entry.query), ["Nobody Atall"], "the body was sent again");

  statuses.length = 0;
  const stubborn = createClient({ baseUrl: h.base, apiKey: h.key, fetch: recording, retryOnRateLimit: true, maxRetryAfterSeconds: 7200, sleep: async () => {} });
  await t.rejects(stubborn.players({ limit: 1 }), { code: "RATE_LIMIT_EXCEEDED" }, "a second 429 is thrown, not waited for");
  t.same(statuses, [429, 429], "only once");

  statuses.length = 0;
  const hasty = createClient({ baseUrl: h.base, apiKey: h.key, fetch: recording, retryOnRateLimit: true, maxRetryAfterSeconds: 1, sleep: async () => t.fail("no wait") });
  await t.rejects(hasty.players({ limit: 1 }), { code: "RATE_LIMIT_EXCEEDED" }, "a wait past the cap is not waited for");
  t.same(statuses, [429]);

  h.clock.now += 1_800_000;
  const wrongKey = createClient({ baseUrl: h.base, apiKey: `2k_${"0".repeat(32)}` });
  await t.rejects(wrongKey.search("x"), { status: 401, code: "INVALID_API_KEY", message: /^The API key is invalid\. Get a key on the \/dashboard page or with POST \/api\/register/ });
  const invalid = await api.players({ limit: 0 }).catch((error: unknown) => error);
  t.match(invalid, { status: 400, code: "INVALID_PARAMETER", details: { parameter: "limit" } });
});

t.test("client.live: events as an async iterator, a dropped connection resumed from the last event, a bad key thrown", async (t) => {
  const { createClient } = (await import(pathToFileURL(join(client, "dist", "src", "index.js")).href)) as ClientModule;
  const { default: WebSocket } = await import("ws");
  const { writeEdition } = await import("../../src/pipeline/build-edition.js");
  const { nextWeek } = await import("../fixtures/next-week.js");
  const { fixtureEditions } = await import("../http/harness.js");
  const h = await startHarness();
  t.teardown(() => h.close());
  const dataDir = join(h.dir, "data");
  const first = fixtureEditions()[0]!;
  // The test's handle on the socket in use, to drop it as a network would.
  const sockets: InstanceType<typeof WebSocket>[] = [];
  class Tracked extends WebSocket {
    constructor(url: string, options: { headers: Record<string, string> }) {
      super(url, options);
      sockets.push(this);
    }
  }
  const resumed: (number | undefined)[] = [];
  const api = createClient({ baseUrl: h.base, apiKey: h.key });
  const events = api.live(["all"], { WebSocket: Tracked, reconnectDelayMs: 50, onReconnect: (since: number | undefined) => resumed.push(since) });
  // The first message is only sent once subscribed: wait for the socket's welcome.
  while (sockets.length === 0 || sockets[0]!.readyState !== WebSocket.OPEN) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = nextWeek(first, 31);
  writeEdition(dataDir, second, "2026-11-27");
  h.service.reload.check();
  const feed = (await h.json("/api/changes?limit=1000")).body.data as { seq: number }[];
  const received: { type: string; seq?: number }[] = [];
  for await (const event of events) {
    received.push(event);
    if (event.seq === feed.at(-1)?.seq) break;
  }
  t.same(received.filter((event) => event.type === "change"), feed, "every event of the swap, in order");
  t.ok(received.some((event) => event.type === "edition"), "and the edition message");

  const again = api.live(["all"], { WebSocket: Tracked, since: feed.at(-1)!.seq, reconnectDelayMs: 50, onReconnect: (since: number | undefined) => resumed.push(since) });
  while (sockets.at(-1)!.readyState !== WebSocket.OPEN) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 100));
  sockets.at(-1)!.terminate();
  writeEdition(dataDir, nextWeek(second, 32), "2026-12-04");
  h.service.reload.check();
  const missed = (await h.json(`/api/changes?limit=1000&since=${feed.at(-1)!.seq}`)).body.data as { seq: number }[];
  const after: { type: string; seq?: number }[] = [];
  for await (const event of again) {
    if (event.type === "change") after.push(event);
    if (event.seq === missed.at(-1)?.seq) break;
  }
  t.same(after, missed, "after the drop: exactly what was missed, nothing twice");
  t.same(resumed, [feed.at(-1)!.seq], "resumed once, from the last event seen");

  const refused = createClient({ baseUrl: h.base, apiKey: `2k_${"0".repeat(32)}` }).live(["all"], { WebSocket });
  await t.rejects(refused.next(), { name: "LiveError", status: 401 }, "a bad key ends the iterator with the status");
});
