// Live connection counters: per key record and worker, shared, growing with the key store.
import t from "tap";
import { LiveConnectionCounts } from "../../src/limits/live-connections.js";
import { KEY_SLOTS } from "../../src/limits/token-buckets.js";

t.test("the cap counts every worker's connections of one key", async (t) => {
  const counts = new LiveConnectionCounts(2);
  t.ok(counts.reserve(7, 0, 2));
  t.ok(counts.reserve(7, 1, 2));
  t.notOk(counts.reserve(7, 0, 2), "a third connection across two workers passes a cap of 2");
  counts.release(7, 1);
  t.ok(counts.reserve(7, 0, 2), "a released connection frees its place");
});

t.test("a key past the first KEY_SLOTS records has counters of its own", async (t) => {
  const counts = new LiveConnectionCounts(2);
  const late = KEY_SLOTS + 904;
  t.ok(counts.reserve(904, 0, 1));
  t.ok(counts.reserve(late, 1, 1), "not sharing key 904's counters");
  t.ok(counts.keySlots > late, "the table grew with the key store");
  t.notOk(counts.reserve(late, 0, 1), "its own cap still holds");
  t.notOk(counts.reserve(904, 1, 1));
  // Another thread's view over the same buffer sees the grown table and its counts.
  const other = new LiveConnectionCounts(2, counts.buffer);
  t.notOk(other.reserve(late, 1, 1));
  t.throws(() => counts.reserve(-1, 0, 1), RangeError);
});

t.test("a dead worker's connections no longer count against any key", async (t) => {
  const counts = new LiveConnectionCounts(2);
  t.ok(counts.reserve(3, 1, 1));
  t.ok(counts.reserve(KEY_SLOTS * 3, 1, 1));
  counts.clearWorker(1);
  t.ok(counts.reserve(3, 0, 1));
  t.ok(counts.reserve(KEY_SLOTS * 3, 0, 1));
});
