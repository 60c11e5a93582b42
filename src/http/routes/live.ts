// GET /api/live as the route table knows it: documented (OpenAPI, llms.txt) and, when asked
// without a WebSocket upgrade, answered 426. The stream itself is src/http/live.ts, which uWS
// hands the upgrade before this table is consulted.

import { ApiError } from "../../query/api-error.js";
import { compileParams } from "../../query/params.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { exactObject, integer, oneOf, ref, text } from "../response-schemas.js";
import { LIVE_BAD_MESSAGES_PER_MINUTE, LIVE_MAX_MESSAGE_BYTES, LIVE_MAX_TOPICS } from "../live.js";

function upgradeRequired(): Reply {
  throw new ApiError("UPGRADE_REQUIRED", { upgrade: "websocket" }, "GET /api/live is a WebSocket: connect with a WebSocket client (Upgrade: websocket) and the X-API-Key header");
}

/** What the server sends, one JSON object per message. */
const serverMessage = {
  oneOf: [
    { ...ref("ChangeEvent"), description: "type change: one change event (replayed after `since` first, then live)" },
    exactObject({
      type: { const: "welcome" }, gameVersion: text("The current edition"), newestSequence: integer("Newest event's sequence number"), oldestSequence: integer("Oldest kept event's sequence number"),
      limits: { type: "object", description: "topics, messageBytes, badMessagesPerMinute, bufferedBytes, connectionsPerKey" },
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
    exactObject({ type: { const: "error" }, code: { const: "BAD_MESSAGE" }, message: text("What was wrong"), badMessages: integer("Bad messages in the last minute"), limit: integer("Bad messages a minute before the close (1008)") }),
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
        + `at most ${LIVE_MAX_TOPICS} topics, ${LIVE_MAX_MESSAGE_BYTES} bytes). A bad message gets {"type":"error"} and the connection stays open; `
        + `more than ${LIVE_BAD_MESSAGES_PER_MINUTE} a minute close it with 1008. A client that stops reading is closed with 1013; shutdown closes with 1001. `
        + "A plain GET without the upgrade gets 426.",
      content: { "application/json": serverMessage },
    },
    errors: ["UPGRADE_REQUIRED", "TOO_MANY_CONNECTIONS"],
    handle: upgradeRequired,
  },
];
