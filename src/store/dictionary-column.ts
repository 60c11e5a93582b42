// A text field as a dictionary-coded column (archetype, college): one small integer per row,
// built at build time and stored in the snapshot (codes and the texts in code order), so an exact any-case filter on the field is one integer compare per row in the
// query kernel, like team codes. Must not decide what a filter means; it only codes text.

/** The code of rows without the field. Real values are coded 1 … size. */
export const NO_VALUE_CODE = 0;

/** What the snapshot keeps of a column: the codes, and the keys (lower-cased texts) in code order (key i has code i + 1). */
export interface StoredDictionary {
  codes: Uint16Array | Uint32Array;
  keys: string[];
}

export class DictionaryColumn {
  /** Code per row; NO_VALUE_CODE where the row has no value. */
  readonly codes: Uint16Array | Uint32Array;
  /** Distinct values (compared lower-case) in first-seen row order. */
  readonly size: number;
  private readonly codeByKey: ReadonlyMap<string, number>;

  /** Codes a column (build time), or views a stored one (load: the map is the distinct texts only). */
  constructor(rowCount: number, valueOf: (row: number) => string | undefined);
  constructor(stored: StoredDictionary);
  constructor(source: number | StoredDictionary, valueOf?: (row: number) => string | undefined) {
    if (typeof source !== "number") {
      this.codes = source.codes;
      this.size = source.keys.length;
      this.codeByKey = new Map(source.keys.map((key, i) => [key, i + 1]));
      return;
    }
    const rowCount = source;
    const codeByKey = new Map<string, number>();
    // Rows repeat a few hundred texts: each distinct spelling is lower-cased once, not once per row.
    const codeBySpelling = new Map<string, number>();
    const codes = new Uint32Array(rowCount);
    for (let row = 0; row < rowCount; row++) {
      const value = valueOf?.(row);
      if (value === undefined) continue;
      let code = codeBySpelling.get(value);
      if (code === undefined) {
        const key = keyOf(value);
        code = codeByKey.get(key) ?? codeByKey.size + 1;
        codeByKey.set(key, code);
        codeBySpelling.set(value, code);
      }
      codes[row] = code;
    }
    // Sized by the largest code, as team codes are: a handful of archetypes, a few hundred colleges.
    this.codes = codeByKey.size <= 0xffff ? Uint16Array.from(codes) : codes;
    this.size = codeByKey.size;
    this.codeByKey = codeByKey;
  }

  stored(): StoredDictionary {
    return { codes: this.codes, keys: [...this.codeByKey.keys()] };
  }

  /** The code of `text` compared exactly but in any case; a text no row holds gets a code no row has. */
  codeOf(text: string): number {
    return this.codeByKey.get(keyOf(text)) ?? this.size + 1;
  }
}

/** What "exact, any case" compares: the text lower-cased, nothing else (accents and spaces count). */
export function keyOf(text: string): string {
  return text.toLowerCase();
}
