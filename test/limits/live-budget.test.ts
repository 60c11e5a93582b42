// The /api/live budgets of one worker thread (src/limits/live-budget.ts), on a clock of our own: a
// key's connections share them, reopening a connection never refills them, each open connection
// adds its minute's worth to the rate, and a key with none is forgotten once they are full again.

import t from "tap";
import { LiveBudgets } from "../../src/limits/live-budget.js";

const RATES = { messagesPerMinute: 30, topicsPerMinute: 300, replaysPerMinute: 1 };

t.test("a key's connections share its budgets; reconnecting does not refill them", async (t) => {
  const budgets = new LiveBudgets(RATES);
  let now = 1_000_000;
  const first = budgets.open(7, now);
  t.equal(budgets.shortOf(first, "replays", 1, now), 0, "a full replay at first");
  budgets.spend(first, "replays", 1);
  t.equal(budgets.shortOf(first, "replays", 1, now), 60_000, "the next in a minute");
  budgets.close(first, now);
  const reopened = budgets.open(7, now);
  t.equal(reopened, first, "the same budgets");
  t.equal(budgets.shortOf(reopened, "replays", 1, now), 60_000, "still a minute: reopening refilled nothing");
  t.equal(budgets.shortOf(reopened, "replays", 0.25, now + 15_000), 0, "a quarter of the log after 15 s");
  const other = budgets.open(8, now);
  t.equal(budgets.shortOf(other, "replays", 1, now), 0, "another key's budgets are its own");

  // A second connection of key 7 doubles its rate (and what it may hold), not what it holds now.
  now += 15_000;
  const second = budgets.open(7, now);
  t.equal(second, first);
  t.equal(budgets.shortOf(second, "replays", 1, now), 22_500, "0.25 held, 0.75 more at two a minute");
  t.equal(budgets.shortOf(second, "replays", 2, now), 52_500, "two held (the most now) in 52.5 s");
  t.equal(budgets.shortOf(second, "messages", 60, now), 30_000, "30 messages held, 60 a minute now: opening added none");
  budgets.spend(second, "messages", 30);
  t.equal(budgets.shortOf(second, "messages", 1, now), 1_000, "one message a second at 60 a minute");
});

t.test("a key with no connection is forgotten only once its budgets are full again", async (t) => {
  const budgets = new LiveBudgets(RATES);
  const now = 5_000_000;
  const spent = budgets.open(3, now);
  budgets.close(spent, now);
  for (let slot = 0; slot < 64; slot++) {
    const budget = budgets.open(slot, now);
    budgets.spend(budget, "topics", 300);
    budgets.close(budget, now);
  }
  t.equal(budgets.size, 64);
  const late = budgets.open(100, now + 59_000);
  t.equal(budgets.size, 65, "none full yet: none forgotten");
  budgets.close(late, now + 59_000);
  for (let slot = 101; slot < 200; slot++) budgets.close(budgets.open(slot, now + 61_000), now + 61_000);
  t.equal(budgets.size, 100, "65 keys and 99 more, less the 64 full again: forgotten when the table grew");
  const back = budgets.open(3, now + 61_000);
  t.not(back, spent, "a forgotten key: new budgets");
  t.equal(budgets.shortOf(back, "topics", 300, now + 61_000), 0, "full, as the old ones would be by now");
});
