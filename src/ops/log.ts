// Structured JSON logs (pino) written straight to stdout's file descriptor, which works the same
// from worker threads. Never given an API key: the access line names the route template only.

import pino, { type Logger } from "pino";
import type { Config } from "../config.js";

export type { Logger };

export function createLogger(level: Config["logLevel"], bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}
