import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import t from "tap";
import { runKeysCommand } from "../../src/app/keys-command.js";
import { digestKey } from "../../src/keys/key-records.js";
import { readKeyStore } from "../../src/keys/key-file.js";
import { listKeys } from "../../src/keys/key-operations.js";
import { KeyRegistry } from "../../src/keys/key-registry.js";

const NOW = new Date("2025-03-01T12:00:00.000Z");

interface Run {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
}

async function keys(keysFile: string, ...argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCommand(argv, { keysFile, now: () => NOW, out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out, err };
}

const keysFile = (dir: string): string => join(dir, "keys.json");

t.test("create --json prints one JSON object whose key is the new key", async (t) => {
  const file = keysFile(t.testdir());
  const run = await keys(file, "create", "--email", "a@b.co", "--name", "ci", "--rate-limit", "1200", "--json");
  t.equal(run.code, 0);
  t.same(run.err, []);
  t.equal(run.out.length, 1, "one write");
  const printed = JSON.parse(run.out[0] ?? "");
  t.match(printed.key, /^2k_[a-z0-9]{32}$/);
  t.same(printed, { key: printed.key, id: printed.id, email: "a@b.co", name: "ci", rateLimit: 1200, createdAt: NOW.toISOString() });
  t.same(new KeyRegistry(file).verify(printed.key), { id: printed.id, slot: 0, rateLimit: 1200 });
});

t.test("create prints the key once with a warning that it cannot be shown again", async (t) => {
  const file = keysFile(t.testdir());
  const run = await keys(file, "create", "--email", "a@b.co");
  t.equal(run.code, 0);
  const text = run.out.join("\n");
  const key = /2k_[a-z0-9]{32}/.exec(text)?.[0] ?? "";
  t.ok(new KeyRegistry(file).verify(key), "the printed key works");
  t.match(text, /cannot be shown again/);
  t.equal(text.split(key).length - 1, 1, "printed exactly once");
});

t.test("list shows every record and never a digest or a key", async (t) => {
  const file = keysFile(t.testdir());
  const first = JSON.parse((await keys(file, "create", "--email", "a@b.co", "--name", "laptop", "--json")).out[0] ?? "");
  const second = JSON.parse((await keys(file, "create", "--email", "c@d.co", "--json")).out[0] ?? "");
  await keys(file, "revoke", "--key", first.key);
  const secrets = [first.key, second.key, digestKey(first.key), digestKey(second.key)];

  const table = await keys(file, "list");
  t.equal(table.code, 0);
  const text = table.out.join("\n");
  for (const secret of secrets) t.notOk(text.includes(secret), "no key or digest in the table");
  t.notOk(/[0-9a-f]{64}|2k_/.test(text), "nothing that looks like one either");
  const lines = text.split("\n");
  t.match(lines[0], /^ID\s+EMAIL\s+NAME\s+RATE LIMIT\s+CREATED\s+STATUS$/);
  t.match(lines[1], new RegExp(`^${first.id}\\s+a@b\\.co\\s+laptop\\s+500\\s+${NOW.toISOString()}\\s+revoked`));
  t.match(lines[2], new RegExp(`^${second.id}\\s+c@d\\.co\\s+-\\s+500\\s+\\S+\\s+active$`));

  const json = await keys(file, "list", "--json");
  for (const secret of secrets) t.notOk(json.out.join("").includes(secret), "no key or digest in the JSON");
  const records = JSON.parse(json.out[0] ?? "");
  t.same(
    records.map((record: { id: string; status: string }) => [record.id, record.status]),
    [
      [first.id, "revoked"],
      [second.id, "active"],
    ],
  );
  t.notOk("digest" in records[0]);
});

t.test("list of an empty store says so", async (t) => {
  const file = keysFile(t.testdir());
  t.same((await keys(file, "list")), { code: 0, out: [`No keys in ${file}.`], err: [] });
  t.same((await keys(file, "list", "--json")), { code: 0, out: ["[]"], err: [] });
});

t.test("regenerate --json prints the new key under the same id and the old one stops working", async (t) => {
  const file = keysFile(t.testdir());
  const created = JSON.parse((await keys(file, "create", "--email", "a@b.co", "--json")).out[0] ?? "");
  const run = await keys(file, "regenerate", "--key", created.key, "--json");
  t.equal(run.code, 0);
  t.equal(run.out.length, 1);
  const regenerated = JSON.parse(run.out[0] ?? "");
  t.equal(regenerated.id, created.id);
  t.not(regenerated.key, created.key);
  const registry = new KeyRegistry(file);
  t.equal(registry.verify(created.key), undefined);
  t.ok(registry.verify(regenerated.key));

  const again = await keys(file, "regenerate", "--key", created.key);
  t.equal(again.code, 1);
  t.match(again.err.join("\n"), /no key/);
  t.same(again.out, []);
});

t.test("revoke --json prints the revoked id", async (t) => {
  const file = keysFile(t.testdir());
  const created = JSON.parse((await keys(file, "create", "--email", "a@b.co", "--json")).out[0] ?? "");
  t.same((await keys(file, "revoke", "--key", created.key, "--json")), { code: 0, out: [JSON.stringify({ revoked: created.id })], err: [] });
  t.equal(new KeyRegistry(file).verify(created.key), undefined);
  const human = await keys(file, "revoke", "--key", created.key);
  t.equal(human.code, 1, "revoking twice fails");
  t.match(human.err[0], /revoked/);
});

t.test("a fourth active key for one e-mail fails with exit code 1 and a message", async (t) => {
  const file = keysFile(t.testdir());
  for (const email of ["a@b.co", "A@b.co", "a@B.CO"]) t.equal((await keys(file, "create", "--email", email)).code, 0);
  const run = await keys(file, "create", "--email", "a@b.co");
  t.equal(run.code, 1);
  t.same(run.out, []);
  t.match(run.err.join("\n"), /3 active keys/);
  t.equal(listKeys(file).length, 3);
});

t.test("a corrupt keys file fails with exit code 1 naming the file", async (t) => {
  const file = keysFile(t.testdir());
  writeFileSync(file, "{");
  const run = await keys(file, "list");
  t.equal(run.code, 1);
  t.match(run.err.join("\n"), file);
});

t.test("usage errors print the usage and exit 2", async (t) => {
  const file = keysFile(t.testdir());
  const cases: string[][] = [
    [],
    ["frobnicate"],
    ["create"],
    ["create", "--email"],
    ["create", "--email", "a@b.co", "--colour", "red"],
    ["create", "--email", "a@b.co", "--rate-limit", "lots"],
    ["create", "--email", "a@b.co", "--rate-limit", "1e3"],
    ["list", "--email", "a@b.co"],
    ["list", "extra"],
    ["regenerate"],
    ["revoke", "--email", "a@b.co"],
  ];
  for (const argv of cases) {
    const run = await keys(file, ...argv);
    t.equal(run.code, 2, argv.join(" ") || "(no arguments)");
    t.match(run.err.join("\n"), /Usage: npm run keys/);
    t.same(run.out, []);
  }
  t.same(listKeys(file), [], "nothing was created");
});

t.test("--help prints the usage and exits 0", async (t) => {
  const run = await keys(keysFile(t.testdir()), "--help");
  t.equal(run.code, 0);
  t.match(run.out.join("\n"), /Usage: npm run keys/);
});

t.test("--keys-file overrides the keys file from the environment", async (t) => {
  const dir = t.testdir();
  const fromEnv = join(dir, "env.json");
  const fromFlag = join(dir, "flag.json");
  t.equal((await keys(fromEnv, "create", "--email", "a@b.co", "--keys-file", fromFlag)).code, 0);
  t.equal(listKeys(fromFlag).length, 1);
  t.equal(listKeys(fromEnv).length, 0);
});

t.test("run as a process (the entry, `keys`) it honours KEYS_FILE and sets the exit code", async (t) => {
  const dir = t.testdir();
  const file = join(dir, "from-env.json");
  const script = fileURLToPath(new URL("../../src/app/main.ts", import.meta.url));
  const run = (...argv: string[]) =>
    spawnSync(process.execPath, [...process.execArgv, script, "keys", ...argv], { env: { ...process.env, KEYS_FILE: file }, encoding: "utf8" });

  const created = run("create", "--email", "a@b.co", "--json");
  t.equal(created.status, 0, created.stderr);
  const printed = JSON.parse(created.stdout);
  t.same(readFileSync(file, "utf8").includes(digestKey(printed.key)), true);
  t.equal(run("list", "--bogus").status, 2);
  t.equal(run("revoke", "--key", "2k_00000000000000000000000000000000").status, 1);
});

t.test("list prints names and e-mails escaped: a record cannot forge a row or clear the screen", async (t) => {
  const file = keysFile(t.testdir());
  await keys(file, "create", "--email", "a@b.co", "--name", "plain");
  // A record written before such characters were refused, or by hand.
  const store = { version: 1, keys: readKeyStore(file).keys.map((record) => ({ ...record })) as Record<string, unknown>[] };
  (store.keys[0] as Record<string, unknown>).name = "evil\u001b[2J\nk_fake  forged@row  -  500";
  (store.keys[0] as Record<string, unknown>).email = "a\u202e@b.co";
  writeFileSync(file, JSON.stringify(store));
  const run = await keys(file, "list");
  t.equal(run.code, 0);
  const printed = run.out.join("\n");
  t.notOk(/[\u0000-\u001f\u007f\u202e]/.test(printed.replace(/\n/g, "")), "no control or bidi character reaches the terminal");
  t.equal(printed.split("\n").length, 2, "a header and one row");
  t.match(printed, /evil\\u\{1b\}\[2J\\u\{a\}k_fake/);
  t.match(printed, /a\\u\{202e\}@b\.co/);
});
