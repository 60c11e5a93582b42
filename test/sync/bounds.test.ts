import t, { type Test } from "tap";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runSyncCli } from "../../src/sync/cli.js";
import { fingerprint, runSync } from "./helpers.js";
import { FORGED_TEXT, startHostileUpstream, type Attack, type HostileUpstream } from "./hostile-upstream.js";
import { STAND_IN_KEY, startStandIn, type StandIn } from "./stand-in.js";

// Every sync here is a process of its own (the built command, as `npm run sync` runs it), so its
// peak resident memory is its own: the kernel's high-water mark, printed as it exits.
t.setTimeout(240_000);

const SYNC_MAIN = fileURLToPath(new URL("../../dist/server/main.js", import.meta.url));
// VmHWM, the high-water mark of this process's own memory since its exec: resourceUsage().maxRSS
// (getrusage) keeps what the forking parent held at the fork across exec on Linux, so a child spawned
// while the test process held a just-made 256 MiB bomb reported that bomb as its own.
const PEAK_PROBE = `data:text/javascript,import{readFileSync}from"node:fs";process.on("exit",()=>process.stderr.write("\\npeak-rss-kib "+/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status","latin1"))[1]+"\\n"))`;
const AS_OF = "2026-11-20";
/** The last answer the sync asks for: every other answer of the sync is read (and held) before it. */
const LAST_PATH = "/api/versions/2K24/players/bulk?teamType=allt";
const MIB = 1024 ** 2;

interface ChildSync {
  code: number | null;
  output: string;
  peakRssBytes: number;
  elapsedMs: number;
}

function syncProcess(args: string[]): Promise<ChildSync> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", PEAK_PROBE, SYNC_MAIN, "sync", ...args], {
    env: { ...process.env, COURTSIDE_SYNC_KEY: STAND_IN_KEY },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => { output += chunk; });
  child.stderr.on("data", (chunk) => { output += chunk; });
  return new Promise((resolve) => child.on("close", (code) => {
    const peak = /\npeak-rss-kib (\d+)\n/.exec(output);
    resolve({ code, output: output.replace(/\npeak-rss-kib \d+\n/, ""), peakRssBytes: Number(peak?.[1] ?? Number.NaN) * 1024, elapsedMs: performance.now() - started });
  }));
}

interface Setup {
  standIn: StandIn;
  hostile: HostileUpstream;
  out: string;
  before: string;
}

/** A directory synced whole from the stand-in, the source changed since (a sync that got through would write), and a hostile upstream before it. */
async function setUp(t: Test): Promise<Setup> {
  const standIn = await startStandIn();
  t.teardown(() => standIn.close());
  const out = t.testdir({});
  const first = await runSync(["--from", standIn.base, "--out", out, "--as-of", AS_OF], STAND_IN_KEY);
  t.equal(first.code, 0, "the first sync completes", { output: first.output });
  standIn.editions[0]!.players[0]!.overall = 50;
  standIn.bump();
  const hostile = await startHostileUpstream(standIn.base);
  t.teardown(() => hostile.close());
  return { standIn, hostile, out, before: fingerprint(out) };
}

// The peak of a whole, successful sync of the same source into an empty directory: every answer
// read, every edition built and written. A refused sync must stay near it, whatever it was sent.
let baselinePeak = 0;
t.before(async () => {
  const standIn = await startStandIn();
  const out = t.testdir({});
  const whole = await syncProcess(["--from", standIn.base, "--out", out, "--as-of", AS_OF]);
  await standIn.close();
  if (whole.code !== 0 || !(whole.peakRssBytes > 0)) throw new Error(`the baseline sync failed: ${whole.output}`);
  baselinePeak = whole.peakRssBytes;
});

/** Each attack, the bound that refuses it, and the limits given (a 4 MiB answer limit unless said: 50,000 small rows need more, to reach the row cap). */
const cases: { attack: Attack; reason: RegExp; seconds?: number; limitMb?: number }[] = [
  { attack: "endless", reason: /the answer is larger than the 4 MiB one answer may hold \(--max-answer-mb\); the transfer was cut there/ },
  { attack: "gzip-bomb", reason: /the answer is larger than the 4 MiB one answer may hold \(--max-answer-mb\) once its gzip coding is undone \([\d,]+ bytes on the wire had inflated past it\)/ },
  { attack: "deflate-bomb", reason: /larger than the 4 MiB one answer may hold \(--max-answer-mb\) once its deflate coding is undone/ },
  { attack: "brotli-bomb", reason: /larger than the 4 MiB one answer may hold \(--max-answer-mb\) once its br coding is undone/ },
  { attack: "many-rows", limitMb: 16, reason: /the answer holds 50,000 rows, more than the 10,000 a bulk answer may hold; refused, not read/ },
  { attack: "trickle", seconds: 6, reason: /the sync passed its deadline of 6 s \(--deadline\) while an answer was arriving \([\d,]+ bytes so far\)/ },
];

for (const { attack, reason, seconds = 60, limitMb = 4 } of cases) {
  t.test(`${attack}: refused within its bounds, the data directory unchanged`, async (t) => {
    const { hostile, out, before } = await setUp(t);
    hostile.attack(LAST_PATH, attack);
    const run = await syncProcess(["--from", hostile.base, "--out", out, "--as-of", "2026-11-27", "--max-answer-mb", String(limitMb), "--deadline", String(seconds), "--read-timeout", "5"]);
    t.equal(run.code, 1, "exit code 1", { output: run.output });
    t.match(run.output, `failed: 2K24: ${hostile.base}${LAST_PATH}: `, "names the edition and the address");
    t.match(run.output, reason);
    t.match(run.output, `nothing was written to ${out}`);
    t.equal(fingerprint(out), before, "the data directory is byte for byte as it was");
    // Bounds, asserted generously: memory within a few answer limits of a whole sync's peak (the
    // brotli decoder alone keeps a 16 MiB window), time within the deadline and some start-up.
    const growth = run.peakRssBytes - baselinePeak;
    t.ok(run.peakRssBytes > 0, `peak resident memory measured: ${(run.peakRssBytes / MIB).toFixed(0)} MiB (a whole sync: ${(baselinePeak / MIB).toFixed(0)} MiB)`);
    t.ok(growth < 16 * limitMb * MIB, `peak ${(growth / MIB).toFixed(1)} MiB over a whole sync's, under 16 × the ${limitMb} MiB answer limit`);
    t.ok(run.elapsedMs < (seconds + 15) * 1000, `ended in ${(run.elapsedMs / 1000).toFixed(1)} s, within the --deadline of ${seconds} s and start-up`);
    if (attack === "endless") t.equal(hostile.sent.hungUp, 1, `the sync hung up on the endless body (${(hostile.sent.bytes / MIB).toFixed(1)} MiB written into the socket)`);
  });
}

t.test("a stall: no byte for --read-timeout fails the read, retried, then refused; the data directory unchanged", async (t) => {
  const { hostile, out, before } = await setUp(t);
  hostile.attack(LAST_PATH, "stall");
  const started = performance.now();
  const { code, output } = await runSync(["--from", hostile.base, "--out", out, "--as-of", "2026-11-27", "--read-timeout", "1"], STAND_IN_KEY);
  t.equal(code, 1, "exit code 1", { output });
  t.match(output, /no byte arrived for 1 s \(--read-timeout\); retry 1 of 3/);
  t.match(output, /no byte arrived for 1 s \(--read-timeout\) \(gave up after 4 attempts\)/);
  t.equal(fingerprint(out), before);
  t.ok(performance.now() - started < 30_000, "four attempts of about a second each");
});

t.test("a deadline shorter than a 429's Retry-After stops at once instead of waiting", async (t) => {
  const { standIn, out, before } = await setUp(t);
  standIn.fail(LAST_PATH, "retry-after-long");
  const { code, output } = await runSync(["--from", standIn.base, "--out", out, "--as-of", "2026-11-27", "--max-wait", "7200", "--deadline", "60"], STAND_IN_KEY);
  t.equal(code, 1, "exit code 1", { output });
  t.match(output, /rate limited \(429\): the source asks to wait 3600 s, and the sync's deadline \(--deadline\) leaves \d+(\.\d)? s; run the sync again later/);
  t.equal(fingerprint(out), before);
});

t.test("what a source writes is printed escaped: no terminal escape, no forged line", async (t) => {
  for (const attack of ["escapes-in-row", "escapes-in-error"] as const) {
    await t.test(attack, async (t) => {
      const { hostile, out, before } = await setUp(t);
      hostile.attack(LAST_PATH, attack);
      const { code, output } = await runSync(["--from", hostile.base, "--out", out, "--as-of", "2026-11-27"], STAND_IN_KEY);
      t.equal(code, 1, "exit code 1", { output });
      t.notMatch(output, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/u, "no control, separator or bidi character reaches the output");
      t.notMatch(output, /^sync: wrote data\/2K99/m, "the forged line is not a line");
      t.notMatch(output, /^sync: synced/m, "nor is the forged summary");
      t.match(output, "evil\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{9b}31m\\u{202e}\\u{a}sync: wrote data/2K99.msgpack", "the text is shown, escaped, on the line it belongs to");
      const lines = output.trimEnd().split("\n");
      t.ok(lines.every((line) => line.startsWith("sync: ")), "every line is the command's own");
      t.ok(lines.every((line) => line.length < 2200), "a long message is cut, saying how much was left out");
      if (attack === "escapes-in-error") t.match(output, /success: false BAD.*\(\d[\d,]* more characters\)/);
      else t.match(output, /row 0 \(evil.*\), field overall: 104 is not an integer from 0 to 99/);
      t.equal(fingerprint(out), before);
    });
  }
});

t.test("the bounds are flags or environment variables, checked", async (t) => {
  for (const [args, env, message] of [
    [["--max-answer-mb", "0"], {}, /--max-answer-mb \(COURTSIDE_SYNC_MAX_ANSWER_MB\) must be a whole number of MiB from 1 to 4096, not 0/],
    [["--deadline", "soon"], {}, /--deadline \(COURTSIDE_SYNC_DEADLINE\) must be a whole number of seconds from 1 to 86400, not soon/],
    [[], { COURTSIDE_SYNC_READ_TIMEOUT: "-1" }, /--read-timeout \(COURTSIDE_SYNC_READ_TIMEOUT\) must be a whole number of seconds from 1 to 3600, not -1/],
  ] as const) {
    let output = "";
    const code = await runSyncCli(["--from", "http://127.0.0.1:9", ...args], { COURTSIDE_SYNC_KEY: STAND_IN_KEY, ...env }, { stderr: { write: (text: string) => { output += text; return true; } } });
    t.equal(code, 2, args.join(" ") || JSON.stringify(env));
    t.match(output, message);
  }
});
