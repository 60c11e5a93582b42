// Text someone else wrote (a source's names and messages, a key holder's e-mail) made safe for a
// terminal or a log line: every character that could forge or hide output written out as
// `\u{…}`, and a long text cut with its length said. Our own messages go through it unchanged.

/** Control characters (C0, DEL, C1), line and paragraph separators, and invisible format characters (zero-width, bidi overrides, BOM). */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const UNPRINTABLE_ALL = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** Whether `text` holds a character that could forge or hide output on a terminal (an escape sequence, a newline, a bidi override). */
export function hasUnprintable(text: string): boolean {
  return UNPRINTABLE.test(text);
}

/** `text` with every unprintable character written as `\u{…}`, for a terminal. */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE_ALL, (character) => `\\u{${(character.codePointAt(0) as number).toString(16)}}`);
}

/** One printable line of at most about `maxLength` characters: escaped, and cut (saying how much was left out) when longer. */
export function printableLine(text: string, maxLength = 2000): string {
  const cut = text.length > maxLength ? `${text.slice(0, maxLength)}… (${(text.length - maxLength).toLocaleString("en")} more characters)` : text;
  return escapeUnprintable(cut);
}
