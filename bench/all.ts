// npm run bench: every benchmark in sequence, each in a fresh process, each writing its section
// of bench/README.md and its results JSON; then the targets table. Boot, kernel, scale and parity run
// first (scale builds its 1,000,000-player snapshot once and reuses it: the first run takes about
// four minutes longer), the load benchmark last. Extra arguments go to the load benchmark.

import { spawnSync } from "node:child_process";
import { refreshTargets } from "./targets.js";

const dist = new URL(".", import.meta.url).pathname;
const steps: [string, string[]][] = [
  ["boot", ["--expose-gc", `${dist}boot.js`]],
  // The kernel runs pinned, like the servers, so its numbers compare with the load runs.
  ["kernel", [`${dist}kernel.js`]],
  ["scale", [`${dist}scale.js`]],
  // The parity routes' cost per request in process, pinned like the kernel.
  ["parity", [`${dist}parity.js`]],
  ["load", [`${dist}load.js`, ...process.argv.slice(2)]],
];
const started = Date.now();
for (const [name, args] of steps) {
  process.stderr.write(`\n== bench:${name}\n`);
  const stepStarted = Date.now();
  const command = name === "kernel" || name === "parity" ? ["taskset", ["-c", "0", process.execPath, ...args]] as const : [process.execPath, args] as const;
  const result = spawnSync(command[0], command[1], { stdio: "inherit" });
  if (result.status !== 0) {
    process.stderr.write(`bench:${name} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
  process.stderr.write(`== bench:${name} took ${((Date.now() - stepStarted) / 1000).toFixed(0)} s\n`);
}
refreshTargets();
process.stderr.write(`\nall benchmarks in ${((Date.now() - started) / 1000).toFixed(0)} s; results in bench/README.md\n`);
