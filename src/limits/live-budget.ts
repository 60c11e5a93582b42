// What /api/live messages may spend: per API key on this worker thread, three budgets (messages,
// topics added to a subscription, replays of the change log) that hold a minute's worth for each
// of the key's connections here and refill continuously at that rate. A connection's messages
// draw on its key's budgets, so closing and reopening connections never refills them: a key that
// spent them waits, however many times it reconnects. A key with no connection here is forgotten
// once its budgets are full again (a minute after its last spend).

const MINUTE_MS = 60_000;
/** The most topics one subscription holds (so the least a topics budget may be). */
export const LIVE_MAX_TOPICS = 100;

/** What one connection adds a minute to its key's budgets. */
export interface LiveBudget {
  /** Messages of any kind. */
  messagesPerMinute: number;
  /** Topics added to a subscription (a subscribe's topics it did not hold). */
  topicsPerMinute: number;
  /** Full replays of the kept log; a replay of k of its n events takes k/n of one. */
  replaysPerMinute: number;
}

export type BudgetName = "messages" | "topics" | "replays";

/** One key's budgets on this thread, shared by its connections here. */
export interface KeyBudget {
  /** What is left of each, as of `at`. */
  left: Record<BudgetName, number>;
  at: number;
  connections: number;
}

export class LiveBudgets {
  readonly #byKey = new Map<number, KeyBudget>();
  /** Forgotten keys are looked for when the table passes this size (then twice what is left). */
  #sweepAt = 64;
  readonly #perMinute: Record<BudgetName, number>;

  constructor(rates: LiveBudget) {
    this.#perMinute = { messages: rates.messagesPerMinute, topics: rates.topicsPerMinute, replays: rates.replaysPerMinute };
  }

  /** A connection of key record `slot` opened: the budgets it will draw on (its key's here; full for a key not seen for a minute). */
  open(slot: number, now: number): KeyBudget {
    let budget = this.#byKey.get(slot);
    if (budget === undefined) {
      if (this.#byKey.size >= this.#sweepAt) this.#sweep(now);
      budget = { left: { ...this.#perMinute }, at: now, connections: 0 };
      this.#byKey.set(slot, budget);
    }
    this.#refill(budget, now);
    budget.connections += 1;
    return budget;
  }

  close(budget: KeyBudget, now: number): void {
    this.#refill(budget, now);
    budget.connections -= 1;
  }

  /** How long (ms) until `budget` holds `cost` of `name`; 0 when it does now. */
  shortOf(budget: KeyBudget, name: BudgetName, cost: number, now: number): number {
    this.#refill(budget, now);
    const missing = cost - budget.left[name];
    return missing <= 0 ? 0 : Math.ceil((missing / this.#rate(budget, name)) * MINUTE_MS);
  }

  /** Takes `cost` of `name` (after shortOf said it is there). */
  spend(budget: KeyBudget, name: BudgetName, cost: number): void {
    budget.left[name] -= cost;
  }

  /** Keys tracked on this thread (for tests). */
  get size(): number {
    return this.#byKey.size;
  }

  /** A minute's worth for each connection the key has here (at least one). */
  #rate(budget: KeyBudget, name: BudgetName): number {
    return this.#perMinute[name] * Math.max(1, budget.connections);
  }

  #refill(budget: KeyBudget, now: number): void {
    const minutes = Math.max(0, now - budget.at) / MINUTE_MS;
    for (const name of ["messages", "topics", "replays"] as const) {
      const rate = this.#rate(budget, name);
      budget.left[name] = Math.min(rate, budget.left[name] + minutes * rate);
    }
    budget.at = Math.max(budget.at, now);
  }

  /** Drops the keys with no connection whose budgets are full again: the same as a fresh entry. */
  #sweep(now: number): void {
    for (const [slot, budget] of this.#byKey) if (budget.connections === 0 && now - budget.at >= MINUTE_MS) this.#byKey.delete(slot);
    this.#sweepAt = Math.max(64, this.#byKey.size * 2);
  }
}
