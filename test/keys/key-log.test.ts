import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { COMPACT_MIN_LINES, KeyLog } from "../../src/keys/key-log.js";
import { applyKeyOperation } from "../../src/keys/key-writer.js";
import { digestKey } from "../../src/keys/key-records.js";
import { readKeyStore } from "../../src/keys/key-file.js";
import { createKey, listKeys, regenerateKey, revokeKey } from "../../src/keys/key-operations.js";
import { KeyChanges, KeyRegistry } from "../../src/keys/key-registry.js";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const HEADER = '{"format":"courtside-keys","version":2}';

const keysFile = (dir: string): string => join(dir, "keys.json");
const linesOf = (file: string): string[] => readFileSync(file, "utf8").split("\n").filter((line) => line !== "");

t.test("each key write appends one line to the same file instead of rewriting it", async (t) => {
  const file = keysFile(t.testdir());
  const first = createKey(file, { email: "a@b.co", now: NOW });
  const inode = statSync(file).ino;
  const before = readFileSync(file, "utf8");
  const regenerated = regenerateKey(file, { key: first.key, now: NOW });
  createKey(file, { email: "c@d.co", now: NOW });
  revokeKey(file, { key: regenerated.key, now: NOW });
  t.equal(statSync(file).ino, inode, "the same file, not a replacement");
  const text = readFileSync(file, "utf8");
  t.ok(text.startsWith(before), "earlier lines are untouched");
  const lines = linesOf(file).map((line) => JSON.parse(line));
  t.same(lines.map((line) => line.op ?? line.format), ["courtside-keys", "create", "regenerate", "create", "revoke"]);
  t.equal(lines[2].record.digest, digestKey(regenerated.key));
  t.notOk(text.includes(first.key) || text.includes(regenerated.key), "never a key, only digests");
});

t.test("replaying the log gives every record in slot order with its last state", async (t) => {
  const file = keysFile(t.testdir());
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const b = createKey(file, { email: "b@b.co", now: NOW });
  const a2 = regenerateKey(file, { key: a.key, now: NOW });
  revokeKey(file, { key: b.key, now: NOW });
  const records = readKeyStore(file).keys;
  t.same(records.map((record) => record.id), [a.record.id, b.record.id]);
  t.equal(records[0]?.digest, digestKey(a2.key));
  t.ok(records[1]?.revokedAt, "b is revoked");
  const registry = new KeyRegistry(file);
  t.same(registry.verify(a2.key), { id: a.record.id, slot: 0, rateLimit: 500 });
  t.equal(registry.verify(a.key), undefined);
  t.equal(registry.verify(b.key), undefined);
});

t.test("a reader applies only the lines appended since its last read", async (t) => {
  const file = keysFile(t.testdir());
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const reader = new KeyLog(file);
  t.same(reader.catchUp(), { kind: "replaced", problems: [] }, "the first read is whole");
  t.same(reader.catchUp(), { kind: "changes", changes: [], problems: [] }, "nothing new");
  const a2 = regenerateKey(file, { key: a.key, now: NOW });
  const b = createKey(file, { email: "b@b.co", now: NOW });
  const update = reader.catchUp();
  t.equal(update.kind, "changes");
  if (update.kind !== "changes") return;
  t.same(update.changes.map((change) => [change.slot, change.before?.digest, change.after.digest]), [
    [0, digestKey(a.key), digestKey(a2.key)],
    [1, undefined, digestKey(b.key)],
  ]);
  t.equal(reader.slotOfDigest(digestKey(b.key)), 1);
});

t.test("a line still being written, or torn by a crash, is left unread and cut off by the next writer", async (t) => {
  const file = keysFile(t.testdir());
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const reader = new KeyRegistry(file);
  // A crash mid-append: half a line, no newline.
  appendFileSync(file, '{"op":"revoke","record":{"id":"k_');
  t.ok(reader.reload(), "a torn last line is not an error");
  t.ok(reader.verify(a.key), "and changes nothing");
  t.equal(listKeys(file).length, 1, "a fresh read ignores it too");
  const b = createKey(file, { email: "b@b.co", now: NOW });
  const lines = linesOf(file);
  t.equal(lines.length, 3, "the torn bytes were cut off before the append");
  t.notOk(readFileSync(file, "utf8").includes('"id":"k_{'));
  t.ok(reader.reload());
  t.ok(reader.verify(b.key), "the reader then reads the new line");
  t.ok(reader.verify(a.key));
});

t.test("a corrupt complete line is a problem naming the file and line, skipped; a reader keeps its keys and reads the lines after it", async (t) => {
  const file = keysFile(t.testdir());
  const a = createKey(file, { email: "a@b.co", now: NOW });
  const errors: string[] = [];
  const problems: string[] = [];
  const registry = new KeyRegistry(file, { onError: (error) => errors.push(error.message), onProblem: (problem) => problems.push(problem.message) });
  appendFileSync(file, "not json\n");
  const b = createKey(file, { email: "b@b.co", now: NOW });
  t.equal(registry.reload(), true);
  t.ok(registry.verify(a.key));
  t.ok(registry.verify(b.key), "the line after it is read");
  t.same(errors, []);
  t.match(problems, [/keys\.json: corrupt keys file: line 3 is not valid JSON .*; the line is skipped/]);
  t.same(readKeyStore(file).keys.map((record) => record.email), ["a@b.co", "b@b.co"]);
});

t.test("the log is compacted when it grows past its bound, atomically, and readers follow", async (t) => {
  const dir = t.testdir();
  const file = keysFile(dir);
  let issued = createKey(file, { email: "a@b.co", now: NOW });
  const other = createKey(file, { email: "b@b.co", now: NOW });
  const registry = new KeyRegistry(file);
  const writer = new KeyLog(file);
  const changes = new KeyChanges();
  let inode = statSync(file).ino;
  let compactions = 0;
  for (let i = 0; i < COMPACT_MIN_LINES + 10; i++) {
    const outcome = applyKeyOperation(file, { kind: "regenerate", key: issued.key, now: NOW.toISOString() }, changes, writer);
    if (outcome.kind !== "issued") throw new Error(JSON.stringify(outcome));
    issued = { key: outcome.key, record: outcome.record };
    const now = statSync(file).ino;
    if (now !== inode) compactions++;
    inode = now;
    if (i % 100 === 0) registry.reload();
  }
  t.equal(compactions, 1, "compacted once, by rename");
  t.ok(linesOf(file).length < 20, "down to one line per record, plus the lines since");
  t.same(readdirSync(dir).filter((name) => name.endsWith(".tmp")), [], "no temporary file left");
  t.equal(statSync(file).mode & 0o777, 0o600);
  t.ok(registry.reload());
  t.same(registry.verify(issued.key), { id: issued.record.id, slot: 0, rateLimit: 500 });
  t.ok(registry.verify(other.key));
  t.same(readKeyStore(file).keys.map((record) => record.id), [issued.record.id, other.record.id]);
});

t.test("a keys file of the earlier format loads, and the first write converts it to the log", async (t) => {
  const file = keysFile(t.testdir());
  const key = "2k_abcdefghijklmnopqrstuvwxyz012345";
  const old = {
    version: 1,
    keys: [
      { id: "k_00000001", digest: digestKey(key), email: "a@b.co", name: "old", rateLimit: 500, createdAt: NOW.toISOString() },
      { id: "k_00000002", digest: digestKey("2k_0000000000000000000000000000000z"), email: "b@b.co", rateLimit: 900, createdAt: NOW.toISOString(), revokedAt: NOW.toISOString() },
    ],
  };
  writeFileSync(file, `${JSON.stringify(old, null, 2)}\n`);
  const registry = new KeyRegistry(file);
  t.same(registry.verify(key), { id: "k_00000001", slot: 0, rateLimit: 500 });
  t.same(readKeyStore(file), old);
  const fresh = createKey(file, { email: "c@d.co", now: NOW });
  const lines = linesOf(file);
  t.equal(lines[0], HEADER, "now a log");
  t.same(lines.slice(1).map((line) => JSON.parse(line)), [
    { op: "create", record: old.keys[0] },
    { op: "create", record: old.keys[1] },
    { op: "create", record: { ...fresh.record, digest: digestKey(fresh.key) } },
  ]);
  t.ok(registry.reload());
  t.same(registry.verify(key), { id: "k_00000001", slot: 0, rateLimit: 500 }, "old keys keep their slots");
  t.same(registry.verify(fresh.key), { id: fresh.record.id, slot: 2, rateLimit: 500 });
});
