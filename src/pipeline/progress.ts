// Build progress: a redrawn bar on a terminal, periodic plain lines otherwise (CI logs).

export interface Progress {
  step(label: string): void;
  /** A line of its own (a wait, a retry) that does not advance the bar. */
  note(text: string): void;
  done(summary: string): void;
}

/** Where progress goes: a terminal (redrawn bar) or anything else (plain lines). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** `name` prefixes the plain lines: the command that prints them. */
export function createProgress(total: number, stream: ProgressStream = process.stderr, name = "build-index"): Progress {
  let completed = 0;
  const isTerminal = stream.isTTY === true;
  const width = 24;
  let isBarDrawn = false;
  return {
    step(label) {
      completed += 1;
      if (isTerminal) {
        const filled = Math.round((Math.min(completed, total) / Math.max(total, 1)) * width);
        stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${completed}/${total} ${label.padEnd(40)}`);
        isBarDrawn = true;
      } else {
        stream.write(`${name}: ${completed}/${total} ${label}\n`);
      }
    },
    note(text) {
      // On a terminal the note takes the bar's line; the next step draws the bar again below it.
      stream.write(isTerminal ? `${isBarDrawn ? "\r\u001b[2K" : ""}${text}\n` : `${name}: ${text}\n`);
      isBarDrawn = false;
    },
    done(summary) {
      stream.write(isTerminal ? `${isBarDrawn ? "\n" : ""}${summary}\n` : `${name}: ${summary}\n`);
      isBarDrawn = false;
    },
  };
}
