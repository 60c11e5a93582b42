// The targets against the last recorded results (bench/results/*.json): one table in
// bench/README.md saying met or missed, by how much. Reads results only; measures nothing.

import { readResults, table, writeSection } from "./report.js";

export interface Cell { rps: number; p50: number; p99: number }
export type LoadSummary = Record<string, Record<"ceiling" | "courtside" | "peer", Cell>>;
interface ScaleSummary { players: number; readMs: number; editionMs: number; totalP50Ms: number; totalP99Ms: number; rssMiB: number }
interface BootSummary { serverReadyMs: number; serverRssMiB: number; loadMs: number; bareUwsReadyMs?: number; byWorkers?: Record<string, { readyMs: number; rssMiB: number; settledRssMiB?: number }> }

type Row = [target: string, measured: string, verdict: string];

function verdict(isMet: boolean | undefined): string {
  return isMet === undefined ? "not measured" : isMet ? "**met**" : "**missed**";
}

export function renderTargets(): string {
  const load = readResults<{ mixes: LoadSummary; paced?: Record<string, Record<string, Cell & { pauseMs: number }>> }>("load");
  const scale = readResults<ScaleSummary>("scale");
  const boot = readResults<BootSummary>("boot");
  const rows: Row[] = [];
  const mix = (name: string) => load?.mixes[name];
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
  const x = (a: number, b: number) => `${(a / b).toFixed(1)}×`;

  const a = mix("a");
  rows.push(["(a) default page, cache on: Courtside ≥ 85 % of the ceiling's req/s", a ? `${pct(a.courtside.rps, a.ceiling.rps)} (${a.courtside.rps.toFixed(0)} vs ${a.ceiling.rps.toFixed(0)} req/s)` : "–", verdict(a && a.courtside.rps >= 0.85 * a.ceiling.rps)]);
  const b = mix("b");
  rows.push(["(b) filtered mix, cache off: ≥ 50 % of the ceiling", b ? `${pct(b.courtside.rps, b.ceiling.rps)} (${b.courtside.rps.toFixed(0)} vs ${b.ceiling.rps.toFixed(0)} req/s)` : "–", verdict(b && b.courtside.rps >= 0.5 * b.ceiling.rps)]);
  rows.push(["(b) ≥ 3× the peer", b ? `${x(b.courtside.rps, b.peer.rps)} (vs ${b.peer.rps.toFixed(0)} req/s)` : "–", verdict(b && b.courtside.rps >= 3 * b.peer.rps)]);
  const paced = (name: string) => {
    const run = load?.paced?.[name]?.courtside;
    return run ? `; at half load (${run.rps.toFixed(0)} req/s, 64 connections pacing) p99 ${run.p99.toFixed(2)} ms` : "";
  };
  rows.push(["(b) p99 ≤ 2 ms at 64 connections", b ? `${b.courtside.p99.toFixed(2)} ms flat out (the ceiling's own: ${b.ceiling.p99.toFixed(2)} ms)${paced("b")}` : "–", verdict(b && b.courtside.p99 <= 2)]);
  const c = mix("c");
  rows.push(["(c) search: ≥ 3× the peer", c ? `${x(c.courtside.rps, c.peer.rps)} (${c.courtside.rps.toFixed(0)} vs ${c.peer.rps.toFixed(0)} req/s)` : "–", verdict(c && c.courtside.rps >= 3 * c.peer.rps)]);
  const f = mix("f");
  if (f) rows.push(["(c) for reference, the same searches with the cache off (mix f): no target", `${x(f.courtside.rps, f.peer.rps)} the peer (${f.courtside.rps.toFixed(0)} vs ${f.peer.rps.toFixed(0)} req/s), p99 ${f.courtside.p99.toFixed(2)} ms`, ""]);
  rows.push(["(c) search: p99 ≤ 2 ms", c ? `${c.courtside.p99.toFixed(2)} ms flat out (the ceiling's own: ${c.ceiling.p99.toFixed(2)} ms)${paced("c")}` : "–", verdict(c && c.courtside.p99 <= 2)]);
  const d = mix("d");
  rows.push(["(d) bulk, brotli from memory: ≥ 90 % of the ceiling", d ? `${pct(d.courtside.rps, d.ceiling.rps)} (${d.courtside.rps.toFixed(0)} vs ${d.ceiling.rps.toFixed(0)} req/s)` : "–", verdict(d && d.courtside.rps >= 0.9 * d.ceiling.rps)]);
  const players = scale ? `${(scale.players / 1e6).toFixed(scale.players % 1e6 === 0 ? 0 : 1)} M` : "1 M";
  rows.push([`${players} players: filter+sort+page p50 ≤ 5 ms in process`, scale ? `${scale.totalP50Ms.toFixed(2)} ms` : "–", verdict(scale && scale.totalP50Ms <= 5)]);
  rows.push([`${players} players: p99 ≤ 25 ms in process`, scale ? `${scale.totalP99Ms.toFixed(2)} ms` : "–", verdict(scale && scale.totalP99Ms <= 25)]);
  rows.push([`${players} players: loads in ≤ 5 s`, scale ? `${((scale.readMs + scale.editionMs) / 1000).toFixed(1)} s (read + decode ${(scale.readMs / 1000).toFixed(1)} s, Edition ${(scale.editionMs / 1000).toFixed(1)} s)` : "–", verdict(scale && scale.readMs + scale.editionMs <= 5000)]);
  rows.push(["8 demo editions: boot ≤ 1.5 s", boot ? `${boot.serverReadyMs} ms to /ready (loadEditionSet alone ${boot.loadMs} ms)` : "–", verdict(boot && boot.serverReadyMs <= 1500)]);
  rows.push(["8 demo editions: resident memory ≤ 400 MB", boot ? `${boot.serverRssMiB} MiB (server process)` : "–", verdict(boot && boot.serverRssMiB * 1.048576 <= 400)]);
  // Issue 15: the shared columnar store.
  // Running resident memory: after the idle seconds in which V8 gives back what booting grew (bench/boot.ts); 1 s after /ready beside it.
  const settled = (n: number) => boot?.byWorkers?.[String(n)]?.settledRssMiB ?? boot?.byWorkers?.[String(n)]?.rssMiB;
  const early = (n: number) => boot?.byWorkers?.[String(n)]?.rssMiB;
  const w1 = settled(1);
  const counts = Object.keys(boot?.byWorkers ?? {}).map(Number).filter((n) => n > 1).sort((p, q) => p - q);
  const perWorker = counts.map((n) => [n, ((settled(n) ?? 0) - (w1 ?? 0)) / (n - 1), ((early(n) ?? 0) - (early(1) ?? 0)) / (n - 1)] as const);
  rows.push(["8 demo editions, WORKERS=1: resident ≤ 110 MiB (issue 15)", w1 !== undefined ? `${w1} MiB running (${early(1)} MiB 1 s after /ready)` : "–", verdict(w1 === undefined ? undefined : w1 <= 110)]);
  rows.push(["each further worker ≤ +20 MiB (issue 15)", perWorker.length > 0 ? perWorker.map(([n, d, e]) => `W=${n}: +${d.toFixed(1)} (+${e.toFixed(1)})`).join(", ") + " MiB per worker running (1 s after /ready)" : "–", verdict(perWorker.length === 0 ? undefined : perWorker.every(([, d]) => d <= 20))]);
  const bare = boot?.bareUwsReadyMs;
  rows.push(["spawn → /ready ≤ 3× a bare uWS app's, same run (issue 15)", boot && bare ? `${x(boot.serverReadyMs, bare)} (${boot.serverReadyMs} vs ${bare} ms)` : "–", verdict(boot && bare ? boot.serverReadyMs <= 3 * bare : undefined)]);
  rows.push([`${players} players: load ≤ 5 s, resident ≤ 2.5 GB (issue 15)`, scale ? `${((scale.readMs + scale.editionMs) / 1000).toFixed(1)} s, ${(scale.rssMiB / 1024).toFixed(2)} GiB` : "–", verdict(scale && scale.readMs + scale.editionMs <= 5000 && scale.rssMiB * 1048576 <= 2.5e9)]);
  rows.push([`${players} players: p50 ≤ 2 ms, p99 ≤ 10 ms in process (issue 15)`, scale ? `${scale.totalP50Ms.toFixed(2)} / ${scale.totalP99Ms.toFixed(2)} ms` : "–", verdict(scale && scale.totalP50Ms <= 2 && scale.totalP99Ms <= 10)]);
  const dates = [load?.date && `load ${load.date}`, scale?.date && `scale ${scale.date}`, boot?.date && `boot ${boot.date}`].filter(Boolean).join(", ");
  return [`From the last recorded results (${dates || "none yet"}).`, "", table(["target (issue 5)", "measured", ""], rows)].join("\n");
}

export function refreshTargets(): void {
  writeSection("targets", renderTargets());
}
