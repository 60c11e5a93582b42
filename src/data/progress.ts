// Build progress: a redrawn bar on a terminal, periodic plain lines otherwise (CI logs).

export interface Progress {
  step(label: string): void;
  done(summary: string): void;
}

export function createProgress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let completed = 0;
  const isTerminal = stream.isTTY === true;
  const width = 24;
  return {
    step(label) {
      completed += 1;
      if (isTerminal) {
        const filled = Math.round((completed / total) * width);
        stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${completed}/${total} ${label.padEnd(40)}`);
      } else {
        stream.write(`build-index: ${completed}/${total} ${label}\n`);
      }
    },
    done(summary) {
      stream.write(isTerminal ? `\n${summary}\n` : `build-index: ${summary}\n`);
    },
  };
}
