import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { MAX_KEY_SLOTS } from "../../src/limits/token-buckets.js";
import { applyKeyOperation } from "../../src/keys/key-writer.js";
import { digestKey, generateKey, KeyStoreError, MAX_KEY_RECORDS, type KeyInfo, type KeyRecord, type KeyStoreFile } from "../../src/keys/key-records.js";
import { readKeyStore, withKeysFileLock } from "../../src/keys/key-file.js";
import { createKey, ensureDemoKey, listKeys, regenerateKey, revokeKey, withNewKey } from "../../src/keys/key-operations.js";
import { KeyRegistry, KeyChanges } from "../../src/keys/key-registry.js";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const LATER = new Date("2025-03-02T08:30:00.000Z");

const keysFile = (dir: string): string => join(dir, "keys.json");

/** Resolves once `check` holds, polling every 25 ms; rejects after `limitMs`. */
async function eventually(check: () => boolean, limitMs: number): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

t.test("a generated key is 2k_ followed by 32 lower-case letters and digits, using all 36", async (t) => {
  const keys = Array.from({ length: 300 }, generateKey);
  for (const key of keys) t.match(key, /^2k_[a-z0-9]{32}$/);
  t.equal(new Set(keys).size, keys.length, "no two keys alike");
  const symbols = new Set(keys.flatMap((key) => [...key.slice(3)]));
  t.equal(symbols.size, 36);
});

t.test("the file holds the key's SHA-256 digest and never the key", async (t) => {
  const file = keysFile(t.testdir());
  const { key, record } = createKey(file, { email: "a@b.co", name: "laptop", now: NOW });
  const text = readFileSync(file, "utf8");
  t.notOk(text.includes(key), "key not in the file");
  t.notOk(text.includes(key.slice(3)), "key body not in the file");
  const stored = text.trimEnd().split("\n").map((line) => JSON.parse(line));
  t.same(stored, [
    { format: "courtside-keys", version: 2 },
    { op: "create", record: { id: record.id, digest: digestKey(key), email: "a@b.co", name: "laptop", rateLimit: 500, createdAt: NOW.toISOString() } },
  ]);
  t.match(record.id, /^k_[0-9a-f]{8}$/);
  t.notOk("digest" in record, "the returned record carries no digest");
});

t.test("the keys file is created with mode 0600 and no temporary file is left behind", { skip: process.platform === "win32" }, async (t) => {
  const file = keysFile(t.testdir());
  createKey(file, { email: "a@b.co", now: NOW });
  t.equal(statSync(file).mode & 0o777, 0o600);
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  regenerateKey(file, { key, now: LATER });
  t.equal(statSync(file).mode & 0o777, 0o600, "still 0600 after a rewrite");
  t.same(readdirSync(join(file, "..")), ["keys.json"]);
});

t.test("rate limit defaults to 500 and must be a positive whole number", async (t) => {
  const file = keysFile(t.testdir());
  t.equal(createKey(file, { email: "a@b.co", now: NOW }).record.rateLimit, 500);
  t.equal(createKey(file, { email: "c@d.co", rateLimit: 20000, now: NOW }).record.rateLimit, 20000);
  t.throws(() => createKey(file, { email: "e@f.co", rateLimit: 0, now: NOW }), KeyStoreError);
  t.throws(() => createKey(file, { email: "e@f.co", rateLimit: 2.5, now: NOW }), KeyStoreError);
  t.equal(listKeys(file).length, 2, "refused keys were not written");
});

t.test("an e-mail address must look like x@y.z", async (t) => {
  const file = keysFile(t.testdir());
  for (const email of ["", "ab.co", "a@b", "a b@c.co", "@b.co"]) {
    t.throws(() => createKey(file, { email, now: NOW }), { name: "KeyStoreError", message: /e-mail/ }, JSON.stringify(email));
  }
  t.equal(listKeys(file).length, 0);
});

t.test("an e-mail address holds at most 3 active keys, compared lower-case", async (t) => {
  const file = keysFile(t.testdir());
  createKey(file, { email: "Pat@Example.com", now: NOW });
  createKey(file, { email: "pat@example.com", now: NOW });
  createKey(file, { email: "PAT@EXAMPLE.COM", now: NOW });
  t.throws(() => createKey(file, { email: "pat@example.COM", now: NOW }), { name: "KeyStoreError", message: /3 active keys/ });
  t.equal(listKeys(file).length, 3);
  t.ok(createKey(file, { email: "other@example.com", now: NOW }).key, "another address is unaffected");
});

t.test("revoking a key frees a place for a new one", async (t) => {
  const file = keysFile(t.testdir());
  const first = createKey(file, { email: "a@b.co", now: NOW });
  createKey(file, { email: "a@b.co", now: NOW });
  createKey(file, { email: "a@b.co", now: NOW });
  t.throws(() => createKey(file, { email: "a@b.co", now: NOW }), KeyStoreError);
  revokeKey(file, { key: first.key, now: LATER });
  const fourth = createKey(file, { email: "a@b.co", now: LATER });
  t.match(fourth.key, /^2k_/);
  t.equal(listKeys(file).length, 4, "the revoked record stays");
});

t.test("regenerating keeps the id, changes the key, and the old key stops verifying", async (t) => {
  const file = keysFile(t.testdir());
  createKey(file, { email: "x@y.co", now: NOW });
  const { key: oldKey, record } = createKey(file, { email: "a@b.co", rateLimit: 900, now: NOW });
  const regenerated = regenerateKey(file, { key: oldKey, now: LATER });
  t.not(regenerated.key, oldKey);
  t.equal(regenerated.record.id, record.id);
  t.equal(regenerated.record.createdAt, NOW.toISOString());
  t.equal(regenerated.record.regeneratedAt, LATER.toISOString());
  const registry = new KeyRegistry(file);
  t.equal(registry.verify(oldKey), undefined);
  t.same(registry.verify(regenerated.key), { id: record.id, slot: 1, rateLimit: 900 });
  t.throws(() => regenerateKey(file, { key: oldKey, now: LATER }), { name: "KeyStoreError", message: /no key/ });
});

t.test("a revoked key stops verifying and cannot be revoked or regenerated again", async (t) => {
  const file = keysFile(t.testdir());
  const { key, record } = createKey(file, { email: "a@b.co", now: NOW });
  const revoked = revokeKey(file, { key, now: LATER });
  t.equal(revoked.id, record.id);
  t.equal(revoked.revokedAt, LATER.toISOString());
  t.equal(new KeyRegistry(file).verify(key), undefined);
  t.throws(() => revokeKey(file, { key, now: LATER }), { message: new RegExp(`${record.id} was revoked`) });
  t.throws(() => regenerateKey(file, { key, now: LATER }), { message: /revoked/ });
});

t.test("an unknown or malformed key is a clear error", async (t) => {
  const file = keysFile(t.testdir());
  createKey(file, { email: "a@b.co", now: NOW });
  t.throws(() => revokeKey(file, { key: generateKey(), now: NOW }), { name: "KeyStoreError", message: /no key .* matches/ });
  t.throws(() => revokeKey(file, { key: "hello", now: NOW }), { name: "KeyStoreError", message: /not a key/ });
});

t.test("a missing file is an empty store", async (t) => {
  const file = keysFile(t.testdir());
  t.same(listKeys(file), []);
  t.same(readKeyStore(file), { version: 1, keys: [] });
  t.equal(new KeyRegistry(file).verify(generateKey()), undefined);
});

t.test("a corrupt file is an error naming the file", async (t) => {
  const file = keysFile(t.testdir());
  const cases = ["{not json", "[]", '{"version":2,"keys":[]}', '{"version":1,"keys":[{"id":"k_1"}]}'];
  for (const text of cases) {
    writeFileSync(file, text);
    t.throws(() => listKeys(file), { name: "KeyStoreError", message: file }, text);
    t.throws(() => createKey(file, { email: "a@b.co", now: NOW }), { message: file }, text);
    t.throws(() => new KeyRegistry(file), { message: file }, text);
  }
  t.equal(readFileSync(file, "utf8"), cases.at(-1), "a corrupt file is never overwritten");
});

t.test("verify returns the active key's id, slot in file order and rate limit", async (t) => {
  const file = keysFile(t.testdir());
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const b = createKey(file, { email: "b@b.co", now: NOW });
  revokeKey(file, { key: a.key, now: LATER });
  const c = createKey(file, { email: "c@b.co", rateLimit: 42, now: LATER });
  const registry = new KeyRegistry(file);
  t.equal(registry.slotCount, 3);
  t.equal(registry.verify(a.key), undefined);
  t.same(registry.verify(b.key), { id: b.record.id, slot: 1, rateLimit: 500 });
  t.same(registry.verify(c.key), { id: c.record.id, slot: 2, rateLimit: 42 }, "a revoked record keeps its slot");
});

t.test("verify refuses keys of the wrong shape and near misses", async (t) => {
  const file = keysFile(t.testdir());
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  const registry = new KeyRegistry(file);
  t.ok(registry.verify(key));
  const flipped = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
  for (const wrong of ["", key.toUpperCase(), `${key} `, key.slice(0, -1), `${key}a`, flipped, digestKey(key)]) {
    t.equal(registry.verify(wrong), undefined, JSON.stringify(wrong));
  }
});

t.test("a watching registry refuses a regenerated key within a second", async (t) => {
  const file = keysFile(t.testdir());
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  const registry = new KeyRegistry(file);
  t.teardown(() => registry.close());
  registry.watch();
  t.ok(registry.verify(key));
  const regenerated = regenerateKey(file, { key, now: LATER });
  const waited = await eventually(() => registry.verify(key) === undefined, 1500);
  t.ok(waited <= 1500, `refused after ${waited} ms`);
  t.ok(registry.verify(regenerated.key), "the new key verifies");
});

t.test("a watching registry sees a key created and then revoked while it runs", async (t) => {
  const file = keysFile(t.testdir());
  const registry = new KeyRegistry(file);
  t.teardown(() => registry.close());
  registry.watch(100);
  await new Promise((resolve) => setTimeout(resolve, 150));
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  await eventually(() => registry.verify(key) !== undefined, 1500);
  revokeKey(file, { key, now: LATER });
  await eventually(() => registry.verify(key) === undefined, 1500);
  t.pass("created then revoked were both seen");
});

t.test("reload keeps the old keys when the file turns corrupt, and reports it", async (t) => {
  const file = keysFile(t.testdir());
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  const errors: KeyStoreError[] = [];
  const registry = new KeyRegistry(file, { onError: (error) => errors.push(error) });
  writeFileSync(file, '{"version":1,"keys":[');
  t.equal(registry.reload(), false);
  t.ok(registry.verify(key), "old key still verifies");
  t.equal(errors.length, 1);
  t.match(errors[0]?.message, file);
});

t.test("a watching registry keeps its keys through a corrupt write and picks up the repair", async (t) => {
  const file = keysFile(t.testdir());
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  // Written back in the earlier single-document format, which still loads.
  const good = { version: 1, keys: readKeyStore(file).keys.map((record) => ({ ...record })) as Record<string, unknown>[] };
  const errors: KeyStoreError[] = [];
  const registry = new KeyRegistry(file, { onError: (error) => errors.push(error) });
  t.teardown(() => registry.close());
  registry.watch(100);
  await new Promise((resolve) => setTimeout(resolve, 150));
  writeFileSync(file, "garbage");
  await eventually(() => errors.length > 0, 1500);
  t.match(errors[0]?.message, file);
  t.ok(registry.verify(key), "old key still verifies");
  (good.keys[0] as Record<string, unknown>).revokedAt = LATER.toISOString();
  writeFileSync(file, JSON.stringify(good));
  await eventually(() => registry.verify(key) === undefined, 1500);
  t.pass("the repaired file, with the key revoked, was picked up");
});

t.test("ensureDemoKey creates a demo key only when no active key exists", async (t) => {
  const file = keysFile(t.testdir());
  const demo = ensureDemoKey(file, NOW);
  t.ok(demo);
  t.match(demo?.record, { email: "demo@courtside.local", name: "demo", rateLimit: 500 } satisfies Partial<KeyInfo>);
  t.equal(ensureDemoKey(file, NOW), undefined, "second start: the key exists");
  revokeKey(file, { key: demo?.key ?? "", now: LATER });
  const again = ensureDemoKey(file, LATER);
  t.ok(again, "all keys revoked: a new demo key");
  t.not(again?.key, demo?.key);
  t.ok(new KeyRegistry(file).verify(again?.key ?? ""));
});

t.test("writers wait for the keys file's lock, and break one whose holder is gone", async (t) => {
  const dir = t.testdir({});
  const file = keysFile(dir);
  const lock = `${file}.lock`;
  // A lock held by a live process (this one's parent stands in for another writer) is waited for, then reported.
  writeFileSync(lock, `${process.ppid}\n`);
  t.throws(() => withKeysFileLock(file, () => 1), /another writer has held the keys file's lock/, "waited for, then reported");
  // A holder that no longer exists (pid 2^22 + 1 is above Linux's pid_max default) left a stale lock.
  writeFileSync(lock, "4194305\n");
  t.equal(withKeysFileLock(file, () => 42), 42, "the stale lock is broken");
  t.throws(() => statSync(lock), /ENOENT/, "and released afterwards");
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  t.equal(listKeys(file).length, 1);
  t.ok(key);
});

t.test("refusals say why: invalid input, the e-mail limit, an unknown or revoked key", async (t) => {
  const dir = t.testdir({});
  const file = keysFile(dir);
  const failure = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (error) {
      return error instanceof KeyStoreError ? error.failure : "other";
    }
    return undefined;
  };
  t.equal(failure(() => createKey(file, { email: "nope", now: NOW })), "invalid");
  const keys = [0, 1, 2].map(() => createKey(file, { email: "x@y.co", now: NOW }).key);
  t.equal(failure(() => createKey(file, { email: "X@Y.CO", now: NOW })), "limit");
  t.equal(failure(() => regenerateKey(file, { key: generateKey(), now: NOW })), "unknown-key");
  revokeKey(file, { key: keys[0] as string, now: NOW });
  t.equal(failure(() => revokeKey(file, { key: keys[0] as string, now: NOW })), "revoked");
});

t.test("the key-change counter makes the registry re-read the file on its next check", async (t) => {
  const dir = t.testdir({});
  const file = keysFile(dir);
  const { key } = createKey(file, { email: "a@b.co", now: NOW });
  const changes = new KeyChanges();
  // A second view of the same shared counter, as another thread would hold.
  const registry = new KeyRegistry(file, { changes: new KeyChanges(changes.buffer) });
  t.ok(registry.verify(key));
  const outcome = applyKeyOperation(file, { kind: "revoke", key, now: LATER.toISOString() }, changes);
  t.equal(outcome.kind, "revoked");
  t.equal(registry.verify(key), undefined, "refused by the very next check, no watcher involved");
  const issued = applyKeyOperation(file, { kind: "register", email: "b@c.co", name: "b", purpose: "tests", now: LATER.toISOString() }, changes);
  t.equal(issued.kind, "issued");
  if (issued.kind !== "issued") return;
  const view = registry.verify(issued.key);
  t.ok(view);
  t.same(registry.info(view?.slot ?? -1), { ...issued.record });
  t.equal(issued.record.purpose, "tests");
  const refused = applyKeyOperation(file, { kind: "regenerate", key, now: LATER.toISOString() }, changes);
  t.same(refused.kind === "refused" ? refused.failure : refused.kind, "revoked");
});

t.test("the per-e-mail limit counts mailboxes: case, a trailing dot, plus-tags and Gmail's dots do not make a new one", async (t) => {
  const file = keysFile(t.testdir());
  for (const email of ["Ann.Lee+news@Gmail.com", "annlee@googlemail.com.", "ANNLEE+shop@gmail.com"]) createKey(file, { email, now: NOW });
  t.throws(() => createKey(file, { email: "ann.lee@gmail.com", now: NOW }), { name: "KeyStoreError", message: /active keys/ });
  for (const email of ["bob+a@example.org", "BOB@example.org.", "bob+b@EXAMPLE.org"]) createKey(file, { email, now: NOW });
  t.throws(() => createKey(file, { email: "bob@example.org", now: NOW }), { name: "KeyStoreError", message: /active keys/ });
  t.doesNotThrow(() => createKey(file, { email: "b.ob@example.org", now: NOW }), "dots only fold for Gmail");
});

t.test("control and invisible characters are refused in e-mails, names and purposes, naming the field", async (t) => {
  const file = keysFile(t.testdir());
  t.throws(() => createKey(file, { email: "a@b.co", name: "x\u001b[2J", now: NOW }), { name: "KeyStoreError", message: /name contains a control or invisible character/ });
  t.throws(() => createKey(file, { email: "a\u200b@b.co", now: NOW }), { name: "KeyStoreError", message: /email contains/ });
  t.throws(() => createKey(file, { email: "a@b.co", purpose: "line\nbreak", now: NOW }), { name: "KeyStoreError", message: /purpose contains/ });
  t.throws(() => createKey(file, { email: "a@b.co", name: "bidi \u202e", now: NOW }), { name: "KeyStoreError", message: /name contains/ });
});

t.test("a store holding the most key records refuses another key as full, never growing past the rate-limit slots", async (t) => {
  const full: KeyStoreFile = { version: 1, keys: new Array<KeyRecord>(MAX_KEY_RECORDS) };
  t.throws(() => withNewKey(full, { email: "late@example.com", now: new Date() }), { name: "KeyStoreError", failure: "full", message: /holds 4194304 key records/ });
  t.equal(MAX_KEY_SLOTS, MAX_KEY_RECORDS, "the token buckets hold a slot for every record the store can hold");
});
