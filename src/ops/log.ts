// Structured JSON logs (pino) written straight to stdout's file descriptor, which works the same
// from worker threads. Never given an API key: the access line names the route template only.

import pino, { type Logger } from "pino";
import type { Config } from "../config.js";

export type { Logger };

/** pino's number for `warn`. */
const WARN_LEVEL = 40;

export function createLogger(level: Config["logLevel"], bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { pid: process.pid, ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Access lines are buffered (4 KiB); a warning or an error is written at once, not at the next 4 KiB or at shutdown.
    hooks: {
      logMethod(args, method, logLevel) {
        method.apply(this, args);
        if (logLevel >= WARN_LEVEL) this.flush();
      },
    },
  }, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}
