// GET /api/live: the change stream over uWS's own WebSocket. The upgrade is admitted like any
// keyed request (X-API-Key, one token; refusals are the JSON envelope, before any upgrade), then
// capped per key across every worker (a shared counter). A client subscribes to topics and may
// ask for a replay after a sequence number; each swap of the current edition publishes its new
// events to this thread's sockets (every worker computes the same log and serves its own sockets,
// so each subscriber gets each event once).
//
// Every message costs what it does, from its key's budgets on this thread (live-budget.ts: a
// minute's worth for each of the key's connections, never refilled by reconnecting): one message
// token each (good or bad, spent before it is parsed), one topic token per topic a subscribe adds
// (churn), and a replay the share of the kept log it sends (a full replay takes one connection's
// whole replay budget). A message over a budget changes nothing and gets an OVER_BUDGET error
// saying when to come back; more than LIVE_REFUSALS_PER_MINUTE refused messages (bad or over
// budget) close the connection with 1008. Bounded everywhere else too: message size (1009 up to
// uWS's maxPayloadLength, which drops the connection past it), topics per socket, bytes buffered
// for a socket that does not read (then 1013). Shutdown closes every socket with 1001.

import type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_socket_context_t } from "uWebSockets.js";
import { ERAS } from "../model/eras.js";
import { sinceSequence, type ChangeLog, type LoggedEvent } from "../store/change-log.js";
import type { EditionSet } from "../store/editions.js";
import { ApiError } from "../query/api-error.js";
import type { LiveConnectionCounts } from "../limits/live-connections.js";
import { LIVE_MAX_TOPICS, LiveBudgets, type KeyBudget, type LiveBudget } from "../limits/live-budget.js";
import type { Admission } from "./context.js";
import type { Dispatcher, IncomingRequest, Outgoing } from "./dispatch.js";
import { LENGTH_LIMITS } from "../query/limits.js";

export const LIVE_PATH = "/api/live";
/** A client message longer than this closes the connection with 1009. */
export const LIVE_MAX_MESSAGE_BYTES = 16 * 1024;
/**
 * uWS's maxPayloadLength: what it buffers of one message before handing it over. Past it uWS
 * closes the TCP connection itself, without a close frame (us_socket_close in its forceClose, in
 * 20.30 and 20.57 alike): the client sees 1006. Between the two, this module closes with 1009.
 */
export const LIVE_MAX_PAYLOAD_BYTES = 4 * LIVE_MAX_MESSAGE_BYTES;
/** More refused messages (bad or over budget) than this within a minute close the connection with 1008. */
export const LIVE_REFUSALS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
const ALL_TOPIC = "all";
/** A topic of a subscription message (tested linear with every pattern applied to request input: test/http/linear-patterns.test.ts). */
export const TOPIC_PATTERN = new RegExp(`^(all|era:(${ERAS.join("|")})|(player|team):[A-Za-z0-9_-]{1,${LENGTH_LIMITS.identifier}})$`);

export interface LiveOptions {
  changes: () => ChangeLog;
  budget: LiveBudget;
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
  /** Its key's budgets on this thread (set on open). */
  budget: KeyBudget | undefined;
  /** When each refused message of the last minute came. */
  refusals: number[];
  isClosed: boolean;
}

type Socket = WebSocket<Subscriber>;

export interface LiveHub {
  /** Sends the events new since the last publish and an `edition` message per edition added or changed. */
  publish(events: readonly LoggedEvent[], editionMessages: readonly string[]): void;
  /** Closes every socket with 1001 (what was sent before still goes out first); resolves when all are closed or after `graceMs`. */
  closeAll(graceMs?: number): Promise<void>;
  count(): number;
  /** Closes (LIVE_KEY_WITHDRAWN) every socket opened with a key in one of these registry slots: it was revoked or regenerated. */
  closeKeys(slots: readonly number[]): number;
}

/** The close code of a socket whose key was revoked or regenerated (docs/live.md). */
export const LIVE_KEY_WITHDRAWN = 4401;

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

  const subscribeTo = (ws: Socket, topic: string) => {
    if (topic === ALL_TOPIC) {
      everything.add(ws);
      // "all" is uWS's own topic: one publish reaches every such socket from native code.
      ws.subscribe(ALL_TOPIC);
      return;
    }
    const set = byTopic.get(topic);
    if (set) set.add(ws);
    else byTopic.set(topic, new Set([ws]));
  };

  const unsubscribeFrom = (ws: Socket, topic: string) => {
    if (topic === ALL_TOPIC) {
      if (everything.delete(ws) && !ws.getUserData().isClosed) ws.unsubscribe(ALL_TOPIC);
      return;
    }
    const set = byTopic.get(topic);
    set?.delete(ws);
    if (set?.size === 0) byTopic.delete(topic);
  };

  /** The socket's subscription becomes `topics`: only the topics that differ are touched. */
  const resubscribe = (ws: Socket, topics: ReadonlySet<string>) => {
    const data = ws.getUserData();
    for (const topic of data.topics) if (!topics.has(topic)) unsubscribeFrom(ws, topic);
    for (const topic of topics) if (!data.topics.has(topic)) subscribeTo(ws, topic);
    data.topics = new Set(topics);
    data.isAll = topics.has(ALL_TOPIC);
  };

  const budgets = new LiveBudgets(options.budget);
  const { messagesPerMinute, topicsPerMinute, replaysPerMinute } = options.budget;

  /** A refused message: an error saying why; past LIVE_REFUSALS_PER_MINUTE in a minute, 1008. */
  const refuse = (ws: Socket, now: number, error: { code: "BAD_MESSAGE" | "OVER_BUDGET"; message: string; budget?: string; retryAfterMs?: number }) => {
    const data = ws.getUserData();
    data.refusals = data.refusals.filter((at) => at > now - MINUTE_MS);
    data.refusals.push(now);
    if (data.refusals.length > LIVE_REFUSALS_PER_MINUTE) {
      data.isClosed = true;
      ws.end(1008, `more than ${LIVE_REFUSALS_PER_MINUTE} refused messages a minute`);
      return;
    }
    send(ws, JSON.stringify({ type: "error", ...error, refused: data.refusals.length, limit: LIVE_REFUSALS_PER_MINUTE }));
  };

  const onMessage = (ws: Socket, message: ArrayBuffer, isBinary: boolean) => {
    const data = ws.getUserData();
    if (data.isClosed) return;
    if (message.byteLength > LIVE_MAX_MESSAGE_BYTES) {
      data.isClosed = true;
      ws.end(1009, `a message is at most ${LIVE_MAX_MESSAGE_BYTES} bytes`);
      return;
    }
    const now = Date.now();
    const budget = data.budget as KeyBudget;
    const messageWait = budgets.shortOf(budget, "messages", 1, now);
    if (messageWait > 0) {
      refuse(ws, now, {
        code: "OVER_BUDGET", budget: "messages", retryAfterMs: messageWait,
        message: `more than ${messagesPerMinute} messages a minute for each of this key's connections: this one was not read`,
      });
      return;
    }
    budgets.spend(budget, "messages", 1);
    const parsed = isBinary ? { error: "messages are JSON text, not binary" } : parseSubscription(Buffer.from(message).toString("utf8"));
    if ("error" in parsed) {
      refuse(ws, now, { code: "BAD_MESSAGE", message: parsed.error });
      return;
    }
    const topics = new Set(parsed.topics);
    let added = 0;
    for (const topic of topics) if (!data.topics.has(topic)) added += 1;
    const topicWait = budgets.shortOf(budget, "topics", added, now);
    if (topicWait > 0) {
      refuse(ws, now, {
        code: "OVER_BUDGET", budget: "topics", retryAfterMs: topicWait,
        message: `this subscribe adds ${added} topics, more than this key may add now (${topicsPerMinute} a minute for each of its connections); the subscription is unchanged`,
      });
      return;
    }
    const log = options.changes();
    const isAll = topics.has(ALL_TOPIC);
    // The replay, counted from the log's indexes before anything is sent.
    const start = parsed.since === undefined ? log.events.length : log.firstAfter(parsed.since);
    const positions = parsed.since === undefined || isAll ? undefined : log.positionsAfter(parsed.since, topics);
    const count = positions?.length ?? log.events.length - start;
    const cost = count === 0 ? 0 : count / log.events.length;
    const replayWait = budgets.shortOf(budget, "replays", cost, now);
    if (replayWait > 0) {
      refuse(ws, now, {
        code: "OVER_BUDGET", budget: "replay", retryAfterMs: replayWait,
        message: `this replay would send ${count} of the ${log.events.length} kept events, more than this key may replay now (the whole log ${replaysPerMinute} time(s) a minute `
          + "for each of its connections; a part takes its share): ask with a later since, or later; the subscription is unchanged",
      });
      return;
    }
    budgets.spend(budget, "topics", added);
    budgets.spend(budget, "replays", cost);
    resubscribe(ws, topics);
    ws.cork(() => {
      if (positions === undefined) {
        for (let i = start; i < log.events.length; i++) if (!send(ws, (log.events[i] as LoggedEvent).json)) return;
      } else {
        for (const position of positions) if (!send(ws, (log.events[position] as LoggedEvent).json)) return;
      }
      send(ws, JSON.stringify({ type: "subscribed", topics: [...data.topics], since: parsed.since ?? null, replayed: count, newestSequence: log.newestSequence }));
    });
  };

  app.ws<Subscriber>(LIVE_PATH, {
    compression: uWS.DISABLED as never,
    maxPayloadLength: LIVE_MAX_PAYLOAD_BYTES,
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
        else res.upgrade<Subscriber>({ keySlot: decision.value, topics: new Set(), isAll: false, budget: undefined, refusals: [], isClosed: false }, secKey, protocol, extensions, context);
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
      const data = ws.getUserData();
      data.budget = budgets.open(data.keySlot, Date.now());
      const log = options.changes();
      send(ws, JSON.stringify({
        type: "welcome", gameVersion: log.gameVersion, newestSequence: log.newestSequence, oldestSequence: log.oldestSequence,
        limits: {
          topics: LIVE_MAX_TOPICS, messageBytes: LIVE_MAX_MESSAGE_BYTES, messagesPerMinute, topicsPerMinute, replaysPerMinute,
          refusedPerMinute: LIVE_REFUSALS_PER_MINUTE, bufferedBytes: options.maxBufferedBytes, connectionsPerKey: options.connectionsPerKey,
        },
      }));
    },
    message: onMessage,
    close: (ws) => {
      const data = ws.getUserData();
      data.isClosed = true;
      sockets.delete(ws);
      resubscribe(ws, new Set());
      if (data.budget !== undefined) budgets.close(data.budget, Date.now());
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
    closeKeys(slots) {
      const withdrawn = new Set(slots);
      let closed = 0;
      for (const ws of [...sockets]) {
        const data = ws.getUserData();
        if (data.isClosed || !withdrawn.has(data.keySlot)) continue;
        data.isClosed = true;
        ws.end(LIVE_KEY_WITHDRAWN, "the API key was revoked or regenerated");
        closed++;
      }
      return closed;
    },
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
