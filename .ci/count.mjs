// Sums tap's closing summary lines ("# { total: N, pass: N, fail: N, ... }") into "N passed, N failed".
import { readFileSync } from "node:fs";
const text = readFileSync(process.argv[2], "utf8");
let passed = 0;
let failed = 0;
for (const match of text.matchAll(/^# \{ total: \d+(.*)\}$/gm)) {
  passed += Number(/pass: (\d+)/.exec(match[1])?.[1] ?? 0);
  failed += Number(/fail: (\d+)/.exec(match[1])?.[1] ?? 0);
}
const ran = passed + failed > 0;
console.log(`${passed} passed, ${failed} failed`);
if (!ran) process.exitCode = 1;
