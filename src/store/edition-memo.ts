// What a thread works out once per edition and keeps with it (edition.memo): header texts, sort
// run starts, compare rows, profile tables, whole-edition bodies. One typed map per Edition, so
// nothing per edition lives in module-level maps and a reload drops it with the edition.

/** A memo key: its text names the entry, its type parameter the value kept under it. */
export type MemoKey<T> = string & { readonly __memoValue?: T };

/** A key for values of type T (keys are compared by text: give each module its own prefix). */
export function memoKey<T>(name: string): MemoKey<T> {
  return name as MemoKey<T>;
}

export class EditionMemo {
  readonly #values = new Map<string, unknown>();

  get<T>(key: MemoKey<T>): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  set<T>(key: MemoKey<T>, value: T): void {
    this.#values.set(key, value);
  }

  delete(key: MemoKey<unknown>): void {
    this.#values.delete(key);
  }

  /** The value under `key`, made by `make` the first time it is asked for. */
  of<T>(key: MemoKey<T>, make: () => T): T {
    let value = this.#values.get(key) as T | undefined;
    if (value === undefined) {
      value = make();
      this.#values.set(key, value);
    }
    return value;
  }

  /** Every entry (for tests and diagnostics). */
  entries(): IterableIterator<[string, unknown]> {
    return this.#values.entries();
  }
}
