import t from "tap";
import { rawRequest, startHarness } from "./harness.js";
import { randomEdition } from "../fixtures/random-edition.js";
import { playerId, playerSlug } from "../../src/model/player.js";

const current = randomEdition(300, 41);
const base = current.players.find((p) => p.teamType === "curr")!;
const add = (name: string, team: string, teamType: "curr" | "class" | "allt") => {
  const slug = playerSlug(name, teamType, team);
  current.players.push({ ...base, name, team, teamType, slug, _id: playerId(teamType, team, slug) });
};
add("Zaire Okonkwo-Müller", "Oklahoma City Thunder", "curr");
add("Bogdan Šćepanović", "Los Angeles Lakers", "curr");
add("Ja’Kobe Walter-Ndiaye", "San Antonio Spurs", "curr");
add("Bogdan Šćepanović", "All-Time Dallas Mavericks", "allt");
const h = await startHarness({ sources: [current] });
t.teardown(() => h.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${h.base}/api/players/batch`, { method: "POST", headers: { "x-api-key": h.key, "content-type": "application/json", ...headers }, body });

t.test("names resolve ignoring case, accents and punctuation; exact names give every roster in scope", async (t) => {
  const response = await post(JSON.stringify({ names: ["zaire okonkwo muller", "Bogdan Scepanovic", "JaKobe Walter Ndiaye", "nobody whatsoever"], fields: "name,team" }));
  t.equal(response.status, 200);
  const body = await response.json() as any;
  t.same(body.data.map((p: any) => `${p.name}|${p.team}`), [
    "Zaire Okonkwo-Müller|Oklahoma City Thunder",
    "Bogdan Šćepanović|Los Angeles Lakers",
    "Bogdan Šćepanović|All-Time Dallas Mavericks",
    "Ja’Kobe Walter-Ndiaye|San Antonio Spurs",
  ]);
  t.same(body.meta.unmatched, [{ query: "nobody whatsoever", reason: "not_found" }]);
  t.equal(body.meta.requested, 4);
  // docs/compatibility.md#fidelity-rules: matched counts the rows returned, as the hosted service does; resolved the identifiers.
  t.equal(body.meta.matched, 4);
  t.equal(body.meta.resolved, 3);
  const scoped = await (await post(JSON.stringify({ names: ["bogdan scepanovic"], teamType: "allt" }))).json() as any;
  t.same(scoped.data.map((p: any) => p.team), ["All-Time Dallas Mavericks"]);
});

t.test("slugs resolve, results keep request order without duplicates", async (t) => {
  const body = await (await post(JSON.stringify({ names: ["Ja'Kobe Walter-Ndiaye"], slugs: ["jakobe-walter-ndiaye", "zaire-okonkwo-muller", "no-such-slug"] }))).json() as any;
  t.same(body.data.map((p: any) => p.slug), ["jakobe-walter-ndiaye", "zaire-okonkwo-muller"]);
  t.equal(body.meta.unmatched[0].query, "no-such-slug");
  t.equal(body.meta.unmatched[0].reason, "not_found");
});

t.test("a close but not exact name resolves when unique and is ambiguous otherwise", async (t) => {
  const unique = await (await post(JSON.stringify({ names: ["okonkwo mull"] }))).json() as any;
  t.same(unique.data.map((p: any) => p.name), ["Zaire Okonkwo-Müller"]);
  const ambiguous = await (await post(JSON.stringify({ names: ["luka"] }))).json() as any;
  const luka = current.players.filter((p) => p.name.startsWith("Luka ")).map((p) => p.name);
  if (new Set(luka).size > 1) {
    t.equal(ambiguous.meta.unmatched[0].reason, "ambiguous");
    t.ok(ambiguous.meta.unmatched[0].candidates.length > 1);
  } else {
    t.equal(ambiguous.meta.resolved, 1);
  }
});

t.test("the body is validated: JSON, shape, at least one and at most 100 identifiers", async (t) => {
  const cases: [string, number, string][] = [
    ["{not json", 400, "INVALID_JSON"],
    ["[]", 400, "VALIDATION_ERROR"],
    ['{"names":"x"}', 400, "VALIDATION_ERROR"],
    ['{"names":[],"slugs":[]}', 400, "VALIDATION_ERROR"],
    ['{"names":[1]}', 400, "VALIDATION_ERROR"],
    ['{"names":["a"],"teamType":"now"}', 400, "VALIDATION_ERROR"],
    ['{"names":["a"],"fields":"name,salary"}', 400, "INVALID_PARAMETER"],
    [JSON.stringify({ names: Array.from({ length: 60 }, (_, i) => `n${i}`), slugs: Array.from({ length: 41 }, (_, i) => `s${i}`) }), 400, "TOO_MANY_IDENTIFIERS"],
  ];
  for (const [body, status, code] of cases) {
    const response = await post(body);
    t.equal(response.status, status, body.slice(0, 40));
    t.equal((await response.json() as any).error.code, code, body.slice(0, 40));
  }
  t.equal((await post(JSON.stringify({ names: Array.from({ length: 100 }, (_, i) => `n${i}`) }))).status, 200, "exactly 100 is fine");
});

t.test("as the hosted service: unknown body keys are ignored, an empty name is unmatched as empty, an over-long one not_found", async (t) => {
  // docs/compatibility.md#fidelity-rules (these were 400 VALIDATION_ERROR before).
  const response = await post(JSON.stringify({ names: ["", "x".repeat(101), "Bogdan Scepanovic"], extra: 1 }));
  t.equal(response.status, 200);
  const body = await response.json() as any;
  t.same(body.meta.unmatched, [{ query: "", reason: "empty" }, { query: "x".repeat(100), reason: "not_found" }]);
  t.equal(body.meta.matched, body.data.length);
  t.equal(body.meta.resolved, 1);
  const busted = await fetch(`${h.base}/api/players/batch?_=1735000000`, { method: "POST", headers: { "x-api-key": h.key, "content-type": "application/json" }, body: '{"names":["a"]}' });
  t.equal(busted.status, 200, "a cache buster in the query is ignored");
});

t.test("a wrong content type is 415 and an oversized body 413, after the key check", async (t) => {
  const wrongType = await post('{"names":["a"]}', { "content-type": "text/plain" });
  t.equal(wrongType.status, 415);
  t.equal((await wrongType.json() as any).error.code, "UNSUPPORTED_MEDIA_TYPE");
  const big = JSON.stringify({ names: ["x".repeat(70 * 1024)] });
  const tooLarge = await post(big);
  t.equal(tooLarge.status, 413);
  const body = await tooLarge.json() as any;
  t.equal(body.error.code, "PAYLOAD_TOO_LARGE");
  t.equal(body.error.details.limit, 65536);
  const noKey = await fetch(`${h.base}/api/players/batch`, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
  t.equal(noKey.status, 401, "the key is checked before the body");
});

t.test("a body declared larger than the cap is refused before it is read", async (t) => {
  const response = await rawRequest(h.service.port, `POST /api/players/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"names":`);
  t.equal(response.status, 413);
});

t.test("a chunked body over the cap is cut off as it streams", async (t) => {
  const chunk = "a".repeat(16 * 1024);
  const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("");
  const response = await rawRequest(h.service.port, `POST /api/players/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${h.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`);
  t.equal(response.status, 413);
});

t.test("GET on the batch route is 405 with Allow: POST", async (t) => {
  const response = await h.get("/api/players/batch");
  t.equal(response.status, 405);
  t.equal(response.headers.get("allow"), "POST");
});
