// Shared by the benchmarks: the machine line, a median, a Markdown table, and replacing one
// marked section of bench/README.md so each benchmark records its own last results.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";

export const README = new URL("../../bench/README.md", import.meta.url);

export function machine(): string {
  const cpuinfo = existsSync("/proc/cpuinfo") ? readFileSync("/proc/cpuinfo", "utf8") : "";
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? "unknown CPU";
  const memKiB = Number(/^MemTotal:\s*(\d+)/m.exec(existsSync("/proc/meminfo") ? readFileSync("/proc/meminfo", "utf8") : "")?.[1] ?? 0);
  return `${cpus().length} cores, ${model}, ${(memKiB / 1024 / 1024).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
}

export function today(): string {
  return new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

/** Replaces the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` (appends the pair if missing). */
export function writeSection(name: string, body: string): void {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const text = existsSync(README) ? readFileSync(README, "utf8") : "# Benchmarks\n";
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  const section = `${open}\n${body.trim()}\n${close}`;
  const next = start >= 0 && end > start ? text.slice(0, start) + section + text.slice(end + close.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(README, next);
}

const RESULTS = new URL("../../bench/results/", import.meta.url);

/** Keeps a benchmark's last numbers as JSON beside the README, for the targets table. */
export function writeResults(name: string, value: unknown): void {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(new URL(`${name}.json`, RESULTS), `${JSON.stringify({ date: today(), machine: machine(), ...(value as object) }, null, 1)}\n`);
}

export function readResults<T>(name: string): (T & { date: string }) | undefined {
  const file = new URL(`${name}.json`, RESULTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T & { date: string }) : undefined;
}
