// Micro-benchmark of the query kernel (tinybench), in process, no HTTP: the 2,000 queries of load
// mix (b) and the 500 searches of mix (c), each call one query, cycling. Stages timed apart:
// plan (query string → PlayerQuery), execute (→ row ids), render (→ envelope bytes), search,
// and execute of queries using the search / archetype / college filters.
// Usage: npm run bench:kernel [-- --edition 2K27 --time 1000 --no-readme]

import { parseArgs } from "node:util";
import { Bench } from "tinybench";
import { ERAS } from "../src/model/eras.js";
import { executeQuery, type QueryResult } from "../src/query/execute.js";
import { compileParams, CURSOR_PARAM, limitParam, playerFilterParams, validateParams } from "../src/query/params.js";
import { planQuery, selectPlayers } from "../src/query/player-params.js";
import type { PlayerQuery } from "../src/query/plan.js";
import { parseQueryString } from "../src/query/query-string.js";
import { loadEditionSet } from "../src/store/editions.js";
import type { Edition } from "../src/store/edition.js";
import type { RowShape } from "../src/store/fragments.js";
import { UsageRings } from "../src/limits/usage-rings.js";
import { buildMixes } from "./mixes.js";
import { machine, table, today, writeResults, writeSection } from "./report.js";
import { ensureDemoData } from "./demo-data.js";
import { playerPage } from "../src/http/routes/player-rows.js";

const { values: flags } = parseArgs({
  options: {
    edition: { type: "string" },
    time: { type: "string", default: "1000" },
    "data-dir": { type: "string", default: process.env.DATA_DIR ?? "data" },
    "no-readme": { type: "boolean", default: false },
  },
});

const editions = loadEditionSet(ensureDemoData(flags["data-dir"]));
// The largest edition that keeps badge lists (archives keep counts only, and refuse badge filters).
const edition: Edition = flags.edition !== undefined
  ? (editions.byKey.get(flags.edition.toUpperCase()) ?? editions.current)
  : [...editions.ordered].filter((candidate) => candidate.hasBadgeLists).sort((a, b) => b.rowCount - a.rowCount)[0] ?? editions.current;
const mixes = buildMixes(edition);
const listParams = compileParams({ ...playerFilterParams({ withAllEras: true }), limit: limitParam(100, 50), cursor: CURSOR_PARAM });

interface Planned {
  rawQuery: string;
  query: PlayerQuery;
  offset: number;
  limit: number;
  shape: RowShape;
  result: QueryResult;
}

function plan(rawQuery: string): Omit<Planned, "result"> {
  const values = validateParams(listParams, parseQueryString(rawQuery));
  const selection = selectPlayers(values, { era: "curr" });
  return {
    rawQuery,
    query: planQuery(edition, selection),
    offset: Number(values.cursor ?? 0),
    limit: (values.limit as number | undefined) ?? 50,
    shape: { fieldMask: selection.fieldMask, isVersioned: false },
  };
}

const rawQueries = (mixes.find((mix) => mix.name === "b")?.paths ?? []).map((path) => path.split("?")[1] ?? "");
const planned: Planned[] = rawQueries.map((raw) => {
  const p = plan(raw);
  return { ...p, result: executeQuery(edition, p.query, p.offset, p.limit) };
});
const searches = (mixes.find((mix) => mix.name === "c")?.paths ?? []).map((path) => {
  const params = new URLSearchParams(path.split("?")[1] ?? "");
  const era = params.get("teamType");
  return { q: params.get("q") ?? "", eraMask: era === null ? 0b111 : 1 << ERAS.indexOf(era as (typeof ERAS)[number]), limit: Number(params.get("limit") ?? 50) };
});
const defaultPage = plan("");
// The filters of the hosted service's extra routes (docs/compatibility.md#the-hosted-services-extra-routes): a name-word start, an archetype, a college, alone and with other
// filters, drawn from the edition's own rows (every 7th), so most queries match something.
const filterQueries: Planned[] = [];
for (let row = 0; row < edition.rowCount && filterQueries.length < 300; row += 7) {
  const player = edition.record(row);
  const word = player.name.split(" ").pop()?.slice(0, 3) ?? "a";
  const kind = filterQueries.length % 4;
  const raw = kind === 0 ? `era=all&search=${encodeURIComponent(word)}`
    : kind === 1 && player.archetype !== undefined ? `era=all&archetype=${encodeURIComponent(player.archetype)}&sort=speed:desc`
    : kind === 2 && player.college !== undefined ? `college=${encodeURIComponent(player.college)}&position=guard`
    : `era=all&search=${encodeURIComponent(word)}&minRating=70&three_ball_gte=60`;
  const p = plan(raw);
  filterQueries.push({ ...p, result: executeQuery(edition, p.query, p.offset, p.limit) });
}

let i = 0;
const next = <T>(items: readonly T[]): T => items[(i++) % items.length] as T;
const meta = (p: Planned) => ({ count: p.result.rows.length, pagination: { total: p.result.total, limit: p.limit, cursor: String(p.offset), nextCursor: null, hasMore: false } });

// Usage tracking's share of a keyed request (src/service.ts onResponse): one ring write. Timed as a
// batch of 100 over 100 keys, since one write is far below the timer's resolution.
const usageRings = new UsageRings(4096, () => ["/api/players", "/api/teams", "/api/players/search"]);
const usageRoutes = ["/api/players", "/api/teams", "/api/players/search"] as const;
/** A page's ETag is folded from its cache key: one of typical length (the key itself is built before the cache, outside "render"). */
const PAGE_KEY = "/api/players|2K27@1|{\"teamType\":\"curr\",\"position\":\"PG\",\"sort\":\"overall\"}|268435455|50|0";
let usageAt = Date.now();

const bench = new Bench({ time: Number(flags.time), warmupTime: 200 });
bench
  .add("plan: query string → PlayerQuery (mix b)", () => { plan(next(rawQueries)); })
  .add("execute: filter + sort + page (mix b)", () => { const p = next(planned); executeQuery(edition, p.query, p.offset, p.limit); })
  .add("render: page → envelope bytes (mix b)", () => { const p = next(planned); playerPage(edition, p.result.rows, p.shape, meta(p), PAGE_KEY); })
  .add("execute + render: default page (50 rows)", () => {
    const result = executeQuery(edition, defaultPage.query, 0, 50);
    playerPage(edition, result.rows, defaultPage.shape, { count: result.rows.length }, PAGE_KEY);
  })
  .add("execute: search / archetype / college filters", () => { const p = next(filterQueries); executeQuery(edition, p.query, p.offset, p.limit); })
  .add("search: ranked name search (mix c)", () => { const s = next(searches); edition.nameIndex.search(s.q, s.eraMask, s.limit); })
  .add("usage rings: 100 keyed requests recorded (÷100 = one)", () => {
    usageAt += 1;
    for (let k = 0; k < 100; k++) usageRings.record(k, usageRoutes[k % 3] as string, "GET", 200, 0.25, usageAt);
  });
await bench.run();

const rows = bench.tasks.map((task) => {
  const result = task.result;
  if (result.state !== "completed") return [task.name, "–", "–", "–", result.state];
  const { latency } = result;
  const us = (ms: number) => (ms * 1000).toFixed(1);
  return [task.name, us(latency.p50), us(latency.p99), us(latency.mean), Math.round(1000 / latency.mean).toLocaleString("en")];
});
const pageBytes = planned.reduce((sum, p) => sum + playerPage(edition, p.result.rows, p.shape, meta(p), PAGE_KEY).body.length, 0) / planned.length;
const section = [
  `Last run: ${today()} on ${machine()}.`,
  `Edition ${edition.key} (${edition.rowCount.toLocaleString("en")} rows: the largest edition with badge lists). Mix (b): ${planned.length} queries, mean page ${(pageBytes / 1024).toFixed(1)} KiB; mix (c): ${searches.length} searches; ${filterQueries.length} search / archetype / college filter queries.`,
  "",
  table(["stage (one call = one query of the mix)", "p50 µs", "p99 µs", "mean µs", "calls/s"], rows),
].join("\n");
process.stdout.write(`${section}\n`);
if (!flags["no-readme"]) {
  writeResults("kernel", { edition: edition.key, rows: edition.rowCount, stages: Object.fromEntries(rows.map((row) => [row[0], { p50Us: Number(row[1]), p99Us: Number(row[2]), meanUs: Number(row[3]) }])) });
  writeSection("kernel", section);
}
