// Everything a handler may know about a request, read from uWS before any await.

import type { QueryParams } from "../query/query-string.js";
import type { ChangeLog } from "../store/change-log.js";
import type { EditionSet } from "../store/editions.js";
import type { ParamValues, ParamWarning } from "../query/params.js";
import type { Reply } from "./reply.js";
import type { Admission } from "./dispatch.js";

export interface RequestContext {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: QueryParams;
  /** The query validated against the route's schema. */
  values: ParamValues;
  /** docs/compatibility.md#fidelity-rules: what was read leniently; the dispatcher adds them to the answer's `meta.warnings`. */
  warnings: ParamWarning[];
  editions: EditionSet;
  /**
   * The current edition's change events (store/change-log.ts); undefined where the service keeps
   * none. A function: the log is built on its first use, so only the routes that read it pay for it.
   */
  changes: () => ChangeLog | undefined;
  requestId: string;
  body: Buffer | undefined;
  contentType: string;
  /** Returns the cached reply for `key` or builds, stores and returns it. */
  cached: (key: string, build: () => Reply) => Reply;
  now: number;
  /** Admission's outcome: on keyed routes the verified key, its bucket and what is left in it. */
  caller: Admission | undefined;
}
