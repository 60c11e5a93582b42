// One worker thread: a uWS app on the shared port serving every edition, drawing from the token
// buckets and usage rings every worker shares. Talks to the supervisor by messages: ready/fatal
// and key operations out; drain, stats and key outcomes in. Started by worker-main.ts (npm start)
// or by the single binary's bundle in a thread.

import { parentPort, workerData, threadId } from "node:worker_threads";
import type { Config } from "./config.js";
import { ADDRESS_SLOTS, KEY_SLOTS, REGISTRATION_SLOTS, TokenBuckets } from "./http/token-buckets.js";
import { KeyChanges } from "./keys/key-store.js";
import { threadKeyWriter, type KeyReplyMessage, type KeyRequestMessage } from "./keys/key-writer.js";
import { createLogger } from "./ops/log.js";
import { startService } from "./service.js";

export interface WorkerData {
  config: Config;
  buckets: SharedArrayBuffer;
  registrations: SharedArrayBuffer;
  usage: SharedArrayBuffer;
  keyChanges: SharedArrayBuffer;
  index: number;
}

export type ToWorker = { type: "drain" } | { type: "stats"; id: number } | KeyReplyMessage;
export type FromWorker =
  | KeyRequestMessage
  | { type: "ready"; port: number; bootMs: number; editions: string[]; current: string }
  | { type: "fatal"; message: string }
  | { type: "stats"; id: number; stats: unknown }
  | { type: "drained" };

export async function runWorker(): Promise<void> {
  const data = workerData as WorkerData;
  const port = parentPort;
  const send = (message: FromWorker) => port?.postMessage(message);
  const logger = createLogger(data.config.logLevel, { worker: data.index, thread: threadId });
  try {
    const started = performance.now();
    const service = await startService(data.config, {
      buckets: new TokenBuckets(KEY_SLOTS, ADDRESS_SLOTS, data.buckets),
      registrationBuckets: new TokenBuckets(0, REGISTRATION_SLOTS, data.registrations),
      usageBuffer: data.usage,
      keyChanges: new KeyChanges(data.keyChanges),
      // The supervisor is the server's one writer of the keys file.
      ...(port ? { keyWriter: threadKeyWriter({ postMessage: (message) => port.postMessage(message), on: (event, listener) => port.on(event, listener) }) } : {}),
      logger,
    });
    const editions = service.editions();
    send({ type: "ready", port: service.port, bootMs: Math.round(performance.now() - started), editions: editions.keys(), current: editions.current.key });
    port?.on("message", (message: ToWorker) => {
      if (message.type === "stats") {
        send({ type: "stats", id: message.id, stats: service.stats() });
        return;
      }
      if (message.type === "keys") return;
      void service.drain().then(() => {
        logger.flush();
        send({ type: "drained" });
        // One turn later uWS has released its sockets; exiting earlier trips libuv's open-handle check.
        setTimeout(() => process.exit(0), 20);
      });
    });
  } catch (error) {
    send({ type: "fatal", message: (error as Error).message });
    logger.flush();
    process.exit(1);
  }
}
