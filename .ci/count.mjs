// Sums tap's closing summary lines ("# { total: N, pass: N, fail: N, ... }") into "N passed, N failed", and
// before that line names every failed assertion (file > subtest > assertion, with tap's found/wanted), so
// the tail of a CI log says what failed without the rest of it.
import { readFileSync } from "node:fs";
const text = readFileSync(process.argv[2], "utf8");
let passed = 0;
let failed = 0;
for (const match of text.matchAll(/^# \{ total: \d+(.*)\}$/gm)) {
  passed += Number(/pass: (\d+)/.exec(match[1])?.[1] ?? 0);
  failed += Number(/fail: (\d+)/.exec(match[1])?.[1] ?? 0);
}

// TAP nests a subtest four spaces deeper: "# Subtest: name" opens it, "ok/not ok N - name" closes it. A
// failed assertion is a "not ok" line whose depth has no subtest open under it.
const lines = text.split("\n");
const open = []; // names of the subtests open at each depth
const failures = [];
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  const indent = /^ */.exec(line)[0].length;
  const depth = indent / 4;
  const body = line.slice(indent);
  const subtest = /^# Subtest: (.*)$/.exec(body);
  if (subtest) {
    open.length = depth;
    open[depth] = subtest[1];
    continue;
  }
  const result = /^(not ok|ok) \d+ - (.*?)(?: # time=.*)?$/.exec(body);
  if (!result) continue;
  const wasSubtest = open.length > depth && open[depth] !== undefined;
  open.length = depth;
  if (result[1] !== "not ok" || wasSubtest) continue;
  const details = [];
  const diagnostics = [];
  for (let j = i + 1; j < lines.length && j < i + 80 && !/^\s*\.\.\.\s*$/.test(lines[j]); j++) {
    const detail = /^\s+(found|wanted|message|code|signal|lineNumber|fileName): ?(.*)$/.exec(lines[j]);
    // What a process the test ran printed (a test adds it as `processLog`): its last lines, a line each.
    const diagnostic = /^(\s+)processLog: ?(\|[-+]?)?(.*)$/.exec(lines[j]);
    if (diagnostic) {
      let end = j + 1;
      while (end < lines.length && (lines[end].startsWith(`${diagnostic[1]}  `) || lines[end].trim() === "")) end++;
      const block = diagnostic[2] === undefined ? [diagnostic[3]] : lines.slice(j + 1, end).map((text) => text.trim()).filter(Boolean);
      diagnostics.push(...block.slice(-25).map((text) => `        ${text.slice(0, 300)}`));
      j = end - 1;
      continue;
    }
    if (detail) details.push(`${detail[1]}: ${detail[2].slice(0, 200)}`);
    else if (/^\s+[-+](?![-+]{2} )(?!-*\^)(?!-*$)/.test(lines[j]) && details.length < 12) details.push(lines[j].trim().slice(0, 200));
  }
  failures.push(`  ${[...open.filter(Boolean), result[2]].join(" > ")}${details.length ? `\n      ${details.join(" | ")}` : ""}${diagnostics.length ? `\n${diagnostics.join("\n")}` : ""}`);
}
if (failures.length > 0) {
  console.log(`failed (${failures.length}):`);
  for (const failure of failures.slice(0, 30)) console.log(failure);
  if (failures.length > 30) console.log(`  … and ${failures.length - 30} more`);
}
const ran = passed + failed > 0;
console.log(`${passed} passed, ${failed} failed`);
if (!ran) process.exitCode = 1;
