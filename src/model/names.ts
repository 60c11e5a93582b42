// Text folding shared by slugs, matching and search: accents, case and punctuation never matter.

/** Strip accents and fold case: `Jokić` → `jokic`, `Ødegaard` → `odegaard`. Punctuation is kept. */
export function foldAccents(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[øØ]/g, "o")
    .replace(/[łŁ]/g, "l")
    .replace(/[đĐ]/g, "d")
    .replace(/ß/g, "ss")
    .replace(/[æÆ]/g, "ae")
    .toLowerCase();
}

/**
 * The matching key of a name: accents and case folded, apostrophes (straight or curly) and
 * periods dropped inside words, every other run of non-alphanumerics one space.
 * `De’Aaron  Fox` → `deaaron fox`, `Shai Gilgeous-Alexander` → `shai gilgeous alexander`.
 */
export function foldName(text: string): string {
  return foldAccents(text)
    .replace(/['’‘`´.]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Lower-case, every run of non-alphanumerics one `-`, no leading or trailing `-`. */
export function slugify(text: string): string {
  return foldAccents(text)
    .replace(/['’‘`´]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    // Runs are one `-` by now, so one at each end is all there is (`-+$` would backtrack quadratically).
    .replace(/^-|-$/g, "");
}
