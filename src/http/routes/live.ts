// GET /api/live as the route table knows it: documented (OpenAPI, llms.txt) and, when asked
// without a WebSocket upgrade, answered 426. The stream itself is src/http/live.ts, which uWS
// hands the upgrade before this table is consulted.

import { ApiError } from "../../query/api-error.js";
import { compileParams } from "../../query/params.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { exactObject, integer, oneOf, ref, text } from "../describe/response-schemas.js";
import { LIVE_MAX_TOPICS } from "../../limits/live-budget.js";
import { LIVE_MAX_MESSAGE_BYTES, LIVE_MAX_PAYLOAD_BYTES, LIVE_REFUSALS_PER_MINUTE } from "../live.js";

function upgradeRequired(): Reply {
  throw new ApiError("UPGRADE_REQUIRED", { upgrade: "websocket" }, "GET /api/live is a WebSocket: connect with a WebSocket client (Upgrade: websocket) and the X-API-Key header");
}

/** What the server sends, one JSON object per message. */
const serverMessage = {
  oneOf: [
    { ...ref("ChangeEvent"), description: "type change: one change event (replayed after `since` first, then live)" },
    exactObject({
      type: { const: "welcome" }, gameVersion: text("The current edition"), newestSequence: integer("Newest event's sequence number"), oldestSequence: integer("Oldest kept event's sequence number"),
      limits: { type: "object", description: "topics, messageBytes, messagesPerMinute, topicsPerMinute, replaysPerMinute, refusedPerMinute, bufferedBytes, connectionsPerKey" },
    }, [], "Sent once on connect"),
    exactObject({
      type: { const: "subscribed" }, topics: { type: "array", items: { type: "string" } }, since: { type: ["integer", "null"] },
      replayed: integer("Events replayed after since"), newestSequence: integer("Newest event's sequence number"),
    }, [], "After each subscribe message, once its replay has been sent"),
    exactObject({
      type: { const: "edition" }, event: oneOf(["added", "changed"]), gameVersion: text("Edition key"), status: oneOf(["current", "archived"]),
      checksum: text("The snapshot's checksum"), playerCount: integer("Players"), capturedAt: text("When the data was captured"),
      newestSequence: integer("Newest event's sequence number after the swap"),
      swappedAt: { type: "string", format: "date-time", description: "When this server swapped the edition in" },
    }, [], "An edition appeared or changed (sent to every socket, subscribed or not)"),
    exactObject({
      type: { const: "error" }, code: oneOf(["BAD_MESSAGE", "OVER_BUDGET"]), message: text("What was wrong; the message changed nothing"),
      budget: oneOf(["messages", "topics", "replay"], "OVER_BUDGET: the budget of the connection the message would pass"),
      retryAfterMs: integer("OVER_BUDGET: when that budget will hold what the message asked"),
      refused: integer("Refused messages (bad or over budget) in the last minute"), limit: integer("Refused messages a minute before the close (1008)"),
    }, ["budget", "retryAfterMs"], "A refused message (the connection stays open)"),
  ],
};

export const liveRoutes: RouteDefinition[] = [
  {
    method: "GET", path: "/api/live", access: "key", params: compileParams({}),
    summary: "WebSocket stream of change events: send {\"subscribe\": [\"all\" | \"player:<id or slug>\" | \"team:<slug>\" | \"era:<era>\"], \"since\"?: <sequence>}",
    response: {
      kind: "body",
      status: 101,
      description: `101 Switching Protocols, then JSON messages. The key goes in the X-API-Key header of the upgrade, which takes one token; `
        + `refusals (401, 429, 503) are answered before the upgrade. Client messages: {"subscribe": [topics], "since"?: sequence} (replaces the subscription; `
        + `at most ${LIVE_MAX_TOPICS} topics; a longer message than ${LIVE_MAX_MESSAGE_BYTES} bytes closes with 1009, one over ${LIVE_MAX_PAYLOAD_BYTES} is dropped with the connection (1006)). `
        + "The key has budgets a minute for each of its connections (welcome's limits; reconnecting does not refill them): messages, topics added, and full replays of the kept log (a replay takes its share of one). "
        + `A bad or over-budget message gets {"type":"error"}, changes nothing, and the connection stays open; `
        + `more than ${LIVE_REFUSALS_PER_MINUTE} refused a minute close it with 1008. A client that stops reading is closed with 1013; shutdown closes with 1001. `
        + "A plain GET without the upgrade gets 426.",
      content: { "application/json": serverMessage },
    },
    errors: ["UPGRADE_REQUIRED", "TOO_MANY_CONNECTIONS"],
    handle: upgradeRequired,
  },
];
