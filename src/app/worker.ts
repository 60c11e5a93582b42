// One worker thread: a uWS app on the shared port serving every edition, drawing from the token
// buckets and usage rings every worker shares. The editions are views over the snapshots the
// supervisor loaded once into SharedArrayBuffers; a reload arrives as a whole new set, swapped in
// at once. Talks to the supervisor by messages: ready/fatal and key operations out; drain, stats,
// editions and key outcomes in. Started by worker-main.ts (npm start) or by the single binary's
// bundle in a thread.

import { parentPort, workerData, threadId } from "node:worker_threads";
import type { Config } from "../config.js";
import { ADDRESS_SLOTS, KEY_SLOTS, PROBE_SLOTS, REGISTRATION_SLOTS, TokenBuckets } from "../limits/token-buckets.js";
import { threadKeyWriter, type KeyReplyMessage, type KeyRequestMessage } from "../keys/key-writer.js";
import { createLogger } from "../ops/log.js";
import { startService, type Service } from "./service.js";
import { editionSetOfShared, type SharedSnapshot } from "../store/editions.js";
import { ChangeLog, type SharedChangeLog } from "../store/change-log.js";
import { KeyChanges } from "../keys/key-registry.js";

export interface WorkerData {
  config: Config;
  buckets: SharedArrayBuffer;
  registrations: SharedArrayBuffer;
  probes: SharedArrayBuffer;
  owners: SharedArrayBuffer;
  usage: SharedArrayBuffer;
  keyChanges: SharedArrayBuffer;
  /** Open /api/live connections per key slot, shared by every worker. */
  liveConnections: SharedArrayBuffer;
  index: number;
  /** The editions to serve, loaded once by the supervisor; without them the worker loads and watches its own. */
  snapshots?: SharedSnapshot[];
  /** The supervisor is loading the editions while this worker boots: they arrive as the first `editions` message. */
  awaitEditions?: boolean;
  /** With the snapshots: the change log of their current edition, derived once by the supervisor. */
  changes?: SharedChangeLog | undefined;
}

export type ToWorker = { type: "drain" } | { type: "stats"; id: number } | { type: "editions"; snapshots: SharedSnapshot[]; changes?: SharedChangeLog | undefined } | KeyReplyMessage;
export type FromWorker =
  | KeyRequestMessage
  | { type: "ready"; port: number; bootMs: number; editions: string[]; current: string }
  | { type: "fatal"; message: string }
  | { type: "stats"; id: number; stats: unknown }
  | { type: "drained" };

/** What the supervisor hands over: a set's snapshots and, derived from them there, its change log. */
interface Handover {
  snapshots: SharedSnapshot[];
  changes: SharedChangeLog | undefined;
}

export async function runWorker(): Promise<void> {
  const data = workerData as WorkerData;
  const port = parentPort;
  const send = (message: FromWorker) => port?.postMessage(message);
  const logger = createLogger(data.config.logLevel, { worker: data.index, thread: threadId });

  // Listening from the start: a reload handed over while the service boots is applied once it runs.
  let service: Service | undefined;
  let pending: Handover | undefined;
  let onFirstEditions: ((handover: Handover) => void) | undefined;
  const replace = (handover: Handover) => {
    if (service === undefined) {
      pending = handover;
      onFirstEditions?.(handover);
      return;
    }
    try {
      const changes = handover.changes === undefined ? undefined : ChangeLog.fromShared(handover.changes);
      service.replaceEditions(editionSetOfShared(handover.snapshots, service.editions()), changes);
    } catch (error) {
      // The supervisor checked these bytes already; keep serving the set in hand.
      logger.error({ err: error }, "refused the editions handed over; keeping the ones loaded before");
    }
  };
  // A drain asked for while booting (a SIGTERM just after start) is kept and done once the service
  // runs: ignored, the thread would listen on until the supervisor's budget ran out and terminate()
  // it with uWS's socket still open, which aborts the process (libuv's open-handle check).
  let isDrainAsked = false;
  let drainOnce: (() => void) | undefined;
  port?.on("message", (message: ToWorker) => {
    if (message.type === "editions") replace({ snapshots: message.snapshots, changes: message.changes });
    else if (message.type === "drain") {
      isDrainAsked = true;
      drainOnce?.();
    }
  });

  try {
    const started = performance.now();
    // Booting beside the supervisor's load: the modules were loaded meanwhile.
    const handover: Handover | undefined = data.snapshots !== undefined ? { snapshots: data.snapshots, changes: data.changes } : (data.awaitEditions === true
      ? pending ?? await new Promise<Handover>((resolve) => { onFirstEditions = resolve; })
      : undefined);
    pending = undefined;
    const running = await startService(data.config, {
      buckets: new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS, data.buckets),
      registrationBuckets: new TokenBuckets(0, REGISTRATION_SLOTS, data.registrations),
      probeBuckets: new TokenBuckets(0, PROBE_SLOTS, data.probes),
      ownerBuckets: new TokenBuckets(KEY_SLOTS, 1, data.owners),
      usageBuffer: data.usage,
      keyChanges: new KeyChanges(data.keyChanges),
      liveConnections: data.liveConnections,
      liveRow: data.index,
      // The supervisor is the server's one writer of the keys file.
      ...(port ? { keyWriter: threadKeyWriter({ postMessage: (message) => port.postMessage(message), on: (event, listener) => port.on(event, listener) }) } : {}),
      logger,
      ...(handover ? { editions: editionSetOfShared(handover.snapshots) } : {}),
      ...(handover?.changes ? { changes: ChangeLog.fromShared(handover.changes) } : {}),
    });
    service = running;
    if (pending !== undefined) replace(pending);
    const editions = running.editions();
    send({ type: "ready", port: running.port, bootMs: Math.round(performance.now() - started), editions: editions.keys(), current: editions.current.key });
    let isDraining = false;
    drainOnce = () => {
      if (isDraining) return;
      isDraining = true;
      void running.drain().then(() => {
        logger.flush();
        send({ type: "drained" });
        // One turn later uWS has released its sockets; exiting earlier trips libuv's open-handle check.
        setTimeout(() => process.exit(0), 20);
      });
    };
    port?.on("message", (message: ToWorker) => {
      if (message.type === "stats") send({ type: "stats", id: message.id, stats: running.stats() });
    });
    if (isDrainAsked) drainOnce();
  } catch (error) {
    send({ type: "fatal", message: (error as Error).message });
    logger.flush();
    process.exit(1);
  }
}
