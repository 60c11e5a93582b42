// GET /api/live: the change stream over uWS's own WebSocket. The upgrade is admitted like any
// keyed request (X-API-Key, one token; refusals are the JSON envelope, before any upgrade), then
// capped per key across every worker (a shared counter). A client subscribes to topics and may
// ask for a replay after a sequence number; each swap of the current edition publishes its new
// events to this thread's sockets (every worker computes the same log and serves its own sockets,
// so each subscriber gets each event once). Bounded everywhere: message size (uWS's
// maxPayloadLength), topics per socket, bad messages a minute (then 1008), bytes buffered for a
// socket that does not read (then 1013). Shutdown closes every socket with 1001.

import type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_socket_context_t } from "uWebSockets.js";
import { ERAS } from "../model/eras.js";
import { sinceSequence, type ChangeLog, type LoggedEvent } from "../store/change-log.js";
import type { EditionSet } from "../store/editions.js";
import { ApiError } from "../query/api-error.js";
import type { LiveConnectionCounts } from "./live-connections.js";
import type { Admission, Dispatcher, IncomingRequest, Outgoing } from "./dispatch.js";
import { TOPIC_VALUE_MAX_LENGTH } from "./routes/changes.js";

export const LIVE_PATH = "/api/live";
/** A client message longer than this closes the connection (uWS, code 1009). */
export const LIVE_MAX_MESSAGE_BYTES = 16 * 1024;
export const LIVE_MAX_TOPICS = 100;
/** More bad messages than this within a minute close the connection with 1008. */
export const LIVE_BAD_MESSAGES_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
const ALL_TOPIC = "all";
const TOPIC_PATTERN = new RegExp(`^(all|era:(${ERAS.join("|")})|(player|team):[A-Za-z0-9_-]{1,${TOPIC_VALUE_MAX_LENGTH}})$`);

export interface LiveOptions {
  changes: () => ChangeLog;
  editions: () => EditionSet;
  /** Per key, across every worker. */
  connectionsPerKey: number;
  /** A socket whose unsent bytes pass this is closed with 1013. */
  maxBufferedBytes: number;
  /**
   * Live connections per key record and worker, in shared memory every worker views: this worker
   * adds to its own counters and the cap sums every worker's, so a worker that dies takes its count
   * with it (the supervisor clears its counters).
   */
  connectionCounts: LiveConnectionCounts;
  /** This worker's row. */
  row: number;
}

interface Subscriber {
  keySlot: number;
  topics: Set<string>;
  isAll: boolean;
  badMessages: number[];
  isClosed: boolean;
}

type Socket = WebSocket<Subscriber>;

export interface LiveHub {
  /** Sends the events new since the last publish and an `edition` message per edition added or changed. */
  publish(events: readonly LoggedEvent[], editionMessages: readonly string[]): void;
  /** Closes every socket with 1001 (what was sent before still goes out first); resolves when all are closed or after `graceMs`. */
  closeAll(graceMs?: number): Promise<void>;
  count(): number;
}

/** Registers the WebSocket route on `app`; `writeRefusal` writes an envelope answer on a plain response. */
export function attachLive(
  app: TemplatedApp,
  uWS: { DISABLED: unknown },
  dispatcher: Dispatcher,
  options: LiveOptions,
  readRequest: (res: HttpResponse, req: HttpRequest) => IncomingRequest,
  writeRefusal: (res: HttpResponse, outgoing: Outgoing) => void,
): LiveHub {
  const sockets = new Set<Socket>();
  const everything = new Set<Socket>();
  const byTopic = new Map<string, Set<Socket>>();
  const counts = options.connectionCounts;
  const worker = options.row;

  const send = (ws: Socket, json: string): boolean => {
    const data = ws.getUserData();
    if (data.isClosed) return false;
    ws.send(json, false);
    if (ws.getBufferedAmount() <= options.maxBufferedBytes) return true;
    // It does not read: never let it grow this process's memory.
    data.isClosed = true;
    ws.end(1013, "not reading: too many bytes waiting");
    return false;
  };

  const unsubscribe = (ws: Socket) => {
    const data = ws.getUserData();
    if (everything.delete(ws) && !data.isClosed) ws.unsubscribe(ALL_TOPIC);
    for (const topic of data.topics) {
      const set = byTopic.get(topic);
      set?.delete(ws);
      if (set?.size === 0) byTopic.delete(topic);
    }
    data.topics = new Set();
    data.isAll = false;
  };

  const matches = (data: Subscriber, logged: LoggedEvent) => data.isAll || logged.topics.some((topic) => data.topics.has(topic));

  const refuseMessage = (ws: Socket, reason: string) => {
    const data = ws.getUserData();
    const now = Date.now();
    data.badMessages = data.badMessages.filter((at) => at > now - MINUTE_MS);
    data.badMessages.push(now);
    if (data.badMessages.length > LIVE_BAD_MESSAGES_PER_MINUTE) {
      data.isClosed = true;
      ws.end(1008, `more than ${LIVE_BAD_MESSAGES_PER_MINUTE} bad messages a minute`);
      return;
    }
    send(ws, JSON.stringify({ type: "error", code: "BAD_MESSAGE", message: reason, badMessages: data.badMessages.length, limit: LIVE_BAD_MESSAGES_PER_MINUTE }));
  };

  const onMessage = (ws: Socket, message: ArrayBuffer, isBinary: boolean) => {
    const data = ws.getUserData();
    if (data.isClosed) return;
    const parsed = isBinary ? { error: "messages are JSON text, not binary" } : parseSubscription(Buffer.from(message).toString("utf8"));
    if ("error" in parsed) {
      refuseMessage(ws, parsed.error);
      return;
    }
    unsubscribe(ws);
    data.topics = new Set(parsed.topics);
    data.isAll = data.topics.has("all");
    if (data.isAll) {
      everything.add(ws);
      // "all" is uWS's own topic: one publish reaches every such socket from native code.
      ws.subscribe(ALL_TOPIC);
    }
    else {
      for (const topic of data.topics) {
        const set = byTopic.get(topic);
        if (set) set.add(ws);
        else byTopic.set(topic, new Set([ws]));
      }
    }
    const log = options.changes();
    let replayed = 0;
    ws.cork(() => {
      if (parsed.since !== undefined) {
        for (let i = log.firstAfter(parsed.since); i < log.events.length; i++) {
          const logged = log.events[i] as LoggedEvent;
          if (!matches(data, logged)) continue;
          if (!send(ws, logged.json)) return;
          replayed += 1;
        }
      }
      send(ws, JSON.stringify({ type: "subscribed", topics: [...data.topics], since: parsed.since ?? null, replayed, newestSequence: log.newestSequence }));
    });
  };

  app.ws<Subscriber>(LIVE_PATH, {
    compression: uWS.DISABLED as never,
    maxPayloadLength: LIVE_MAX_MESSAGE_BYTES,
    // uWS drops what passes this; the hub closes the socket (1013) before it matters.
    maxBackpressure: options.maxBufferedBytes * 2 + LIVE_MAX_MESSAGE_BYTES,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const request = readRequest(res, req);
      const secKey = req.getHeader("sec-websocket-key");
      const protocol = req.getHeader("sec-websocket-protocol");
      const extensions = req.getHeader("sec-websocket-extensions");
      const reserve = (admission: Admission) => {
        const slot = admission.key?.slot ?? 0;
        if (!counts.reserve(slot, worker, options.connectionsPerKey)) {
          throw new ApiError("TOO_MANY_CONNECTIONS", { limit: options.connectionsPerKey }, `This key holds ${options.connectionsPerKey} live connections already (the most allowed); close one first`);
        }
        return slot;
      };
      const decided = dispatcher.upgrade(request, reserve);
      const finish = (decision: Awaited<typeof decided>) => {
        if (decision.kind === "refused") writeRefusal(res, decision.outgoing);
        else res.upgrade<Subscriber>({ keySlot: decision.value, topics: new Set(), isAll: false, badMessages: [], isClosed: false }, secKey, protocol, extensions, context);
      };
      if (!(decided instanceof Promise)) {
        finish(decided);
        return;
      }
      // The shared buckets (REDIS_URL) answer later: the client may leave meanwhile.
      let isAborted = false;
      res.onAborted(() => { isAborted = true; });
      void decided.then((decision) => {
        if (isAborted) {
          if (decision.kind === "admitted") counts.release(decision.value, worker);
          return;
        }
        res.cork(() => finish(decision));
      });
    },
    open: (ws) => {
      sockets.add(ws);
      const log = options.changes();
      send(ws, JSON.stringify({
        type: "welcome", gameVersion: log.gameVersion, newestSequence: log.newestSequence, oldestSequence: log.oldestSequence,
        limits: { topics: LIVE_MAX_TOPICS, messageBytes: LIVE_MAX_MESSAGE_BYTES, badMessagesPerMinute: LIVE_BAD_MESSAGES_PER_MINUTE, bufferedBytes: options.maxBufferedBytes, connectionsPerKey: options.connectionsPerKey },
      }));
    },
    message: onMessage,
    close: (ws) => {
      const data = ws.getUserData();
      data.isClosed = true;
      sockets.delete(ws);
      unsubscribe(ws);
      counts.release(data.keySlot, worker);
    },
  });

  return {
    publish(events, editionMessages) {
      if (sockets.size === 0) return;
      // Per socket, its events in order, each once however many of its topics it matches.
      const wanted = new Map<Socket, LoggedEvent[]>();
      if (byTopic.size > 0) {
        for (const logged of events) {
          for (const topic of logged.topics) {
            for (const ws of byTopic.get(topic) ?? []) {
              const list = wanted.get(ws);
              if (list === undefined) wanted.set(ws, [logged]);
              else if (list.at(-1) !== logged) list.push(logged);
            }
          }
        }
      }
      // Every socket subscribed to "all": through uWS's topic, then the ones that did not read are closed.
      if (everything.size > 0) {
        for (const message of editionMessages) app.publish(ALL_TOPIC, message, false);
        for (const logged of events) app.publish(ALL_TOPIC, logged.json, false);
        for (const ws of [...everything]) {
          if (ws.getBufferedAmount() <= options.maxBufferedBytes) continue;
          ws.getUserData().isClosed = true;
          ws.end(1013, "not reading: too many bytes waiting");
        }
      }
      for (const ws of [...sockets]) {
        const data = ws.getUserData();
        if (data.isClosed || data.isAll) continue;
        const list = wanted.get(ws) ?? [];
        ws.cork(() => {
          for (const message of editionMessages) if (!send(ws, message)) return;
          for (const logged of list) if (!send(ws, logged.json)) return;
        });
      }
    },
    async closeAll(graceMs = 2_000) {
      for (const ws of [...sockets]) {
        const data = ws.getUserData();
        if (data.isClosed) continue;
        data.isClosed = true;
        ws.end(1001, "server shutting down");
      }
      const deadline = Date.now() + graceMs;
      while (sockets.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    count: () => sockets.size,
  };
}

/** `{ "subscribe": [...topics], "since"?: sequence }`, or what is wrong with it. */
export function parseSubscription(text: string): { topics: string[]; since?: number } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "not JSON: send {\"subscribe\": [\"all\" | \"player:<id or slug>\" | \"team:<slug>\" | \"era:<era>\"], \"since\"?: <sequence>}" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { error: "the message must be a JSON object with a subscribe array" };
  const unknown = Object.keys(value).filter((name) => name !== "subscribe" && name !== "since");
  if (unknown.length > 0) return { error: `unknown field ${JSON.stringify(unknown[0]?.slice(0, 40))}: only subscribe and since` };
  const { subscribe, since } = value as { subscribe?: unknown; since?: unknown };
  if (!Array.isArray(subscribe) || subscribe.length === 0) return { error: "subscribe must be a non-empty array of topics" };
  if (subscribe.length > LIVE_MAX_TOPICS) return { error: `at most ${LIVE_MAX_TOPICS} topics per subscription` };
  for (const topic of subscribe) {
    if (typeof topic !== "string" || !TOPIC_PATTERN.test(topic)) {
      return { error: `bad topic ${JSON.stringify(typeof topic === "string" ? topic.slice(0, 120) : topic)}: use all, player:<id or slug>, team:<slug> or era:${ERAS.join("|")}` };
    }
  }
  if (since === undefined) return { topics: [...new Set(subscribe as string[])] };
  const sequence = typeof since === "number" ? (Number.isSafeInteger(since) && since >= 0 ? since : undefined) : typeof since === "string" && since.length <= 40 ? sinceSequence(since) : undefined;
  if (sequence === undefined) return { error: "since must be a non-negative integer sequence number (or an ISO date)" };
  return { topics: [...new Set(subscribe as string[])], since: sequence };
}
