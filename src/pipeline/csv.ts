// A small RFC 4180 reader: rows of text cells, each with the physical line it starts on.
// It knows nothing of players; the first row is taken as the header only to name columns in errors.

import { ImportError } from "./import-error.js";

export interface CsvRow {
  /** 1-based physical line the row starts on (a quoted cell may run over several lines). */
  readonly line: number;
  readonly cells: string[];
}

/**
 * Rows of `text` in order. Handles quoted cells, `""` inside quotes, CRLF or LF (or a lone CR)
 * line ends, and line breaks inside quotes. A leading byte-order mark is skipped and a final
 * line end does not make an empty row; an empty line elsewhere is a row of one empty cell.
 * A quote that never closes (a truncated file) or text after a closing quote is an ImportError.
 * A `"` that does not open a cell is kept as text: sloppy scrapes write `6'8"` unquoted.
 */
export function* parseCsv(file: string, text: string): Generator<CsvRow, void, undefined> {
  const end = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let header: readonly string[] | undefined;
  const columnName = (index: number): string => {
    const name = header?.[index];
    return name ? name : `column ${index + 1}`;
  };

  while (i < end) {
    const rowLine = line;
    const cells: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        const quoteLine = line;
        let value = "";
        i += 1;
        for (;;) {
          const close = text.indexOf('"', i);
          if (close === -1) {
            throw new ImportError(file, quoteLine, columnName(cells.length),
              "quoted cell never closes: the file ends inside quotes (is it truncated?)");
          }
          value += text.slice(i, close);
          line += countLineBreaks(text, i, close);
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            i = close + 2;
          } else {
            i = close + 1;
            break;
          }
        }
        cells.push(value);
      } else {
        let stop = i;
        while (stop < end) {
          const code = text.charCodeAt(stop);
          if (code === COMMA || code === CR || code === LF) break;
          stop += 1;
        }
        cells.push(text.slice(i, stop));
        i = stop;
      }

      if (i >= end) break;
      const code = text.charCodeAt(i);
      if (code === COMMA) {
        i += 1;
        continue;
      }
      if (code === CR || code === LF) {
        i += code === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
        line += 1;
        break;
      }
      throw new ImportError(file, line, columnName(cells.length - 1),
        `unexpected ${JSON.stringify(text[i])} after a closing quote (a quote inside a quoted cell must be doubled)`);
    }
    header ??= cells;
    yield { line: rowLine, cells };
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** Line breaks in text[from, to): CRLF counts once, as does a lone CR or LF. */
function countLineBreaks(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    if (code === LF) breaks += 1;
    else if (code === CR && text.charCodeAt(i + 1) !== LF) breaks += 1;
  }
  return breaks;
}
