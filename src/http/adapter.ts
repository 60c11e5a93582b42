// The HTTP adapter: what turns sockets into IncomingRequests for the Dispatcher and writes its
// Outgoing back. Two implement the same HttpServer: uWebSockets.js (server.ts, the fast path the
// design asks for) and Node's own node:http with the `ws` package for /api/live (node-server.ts),
// for every machine where no uWS addon loads (Node 26, Node 22/24 on glibc older than 2.38,
// Alpine's musl). Nothing above this file knows which one runs.
//
// HTTP_ADAPTER=uws|node forces one; unset, uWS is chosen where its addon loads, else node. The
// choice is made once per thread and is the same in every thread of a process (the addon either
// loads or it does not; COURTSIDE_UWS in uws.ts keeps the build the same).

import { loadUws, uwsInfo } from "./uws.js";
import { startServer as startUwsServer, type HttpServer, type ServerOptions } from "./server.js";
import { startNodeServer } from "./node-server.js";

export { canShareNodePort } from "./node-server.js";

export type { HttpServer, ServerOptions } from "./server.js";

export type HttpAdapterName = "uws" | "node";
export const HTTP_ADAPTERS: readonly HttpAdapterName[] = ["uws", "node"];

export interface AdapterChoice {
  readonly name: HttpAdapterName;
  /** Why the node adapter runs when nobody asked for it (the uWS loader's refusal); undefined otherwise. */
  readonly fallbackReason?: string;
}

let chosen: AdapterChoice | undefined;

/**
 * Picks the adapter. `forced`: HTTP_ADAPTER; a forced uws throws the loader's refusal (Node, ABI,
 * glibc) as before. Unforced, the same machine always gets the same answer (the addon loads or not).
 * The last choice is what /api/health and the start line report (one server per thread, outside tests).
 */
export function chooseAdapter(options: { forced?: HttpAdapterName | undefined; maxHeadersKb?: number | undefined } = {}): AdapterChoice {
  if (options.forced === "node") {
    chosen = { name: "node" };
  } else if (options.forced === "uws") {
    loadUws({ maxHeadersKb: options.maxHeadersKb });
    chosen = { name: "uws" };
  } else {
    try {
      loadUws({ maxHeadersKb: options.maxHeadersKb });
      chosen = { name: "uws" };
    } catch (error) {
      chosen = { name: "node", fallbackReason: (error as Error).message };
    }
  }
  return chosen;
}

/** The adapter this thread chose last (undefined before chooseAdapter ran). */
export function adapterChoice(): AdapterChoice | undefined {
  return chosen;
}

/** "uWebSockets.js 20.57.0" or "node:http (Node's own HTTP server)": for the start line and --version. */
export function adapterLabel(choice: AdapterChoice | undefined = chosen): string {
  if (choice === undefined) return "no HTTP adapter chosen";
  return choice.name === "uws" ? `uWebSockets.js ${uwsInfo()?.version ?? "?"}` : "node:http (Node's own HTTP server)";
}

/** Starts the chosen adapter (chooseAdapter's, forced by `adapter` when given). */
export async function startServer(options: ServerOptions & { adapter?: HttpAdapterName | undefined }): Promise<HttpServer> {
  const choice = chooseAdapter({ forced: options.adapter, maxHeadersKb: options.maxHeadersKb });
  if (choice.name === "uws") return startUwsServer(options);
  return startNodeServer(options);
}
