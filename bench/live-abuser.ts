// The abusive /api/live client of `npm run bench:live -- --abuse`, in its own process so that
// what it receives never delays the measuring process: REPLAY sockets each ask for the whole
// change log again as soon as the last ask was answered (four asks in flight), CHURN sockets each
// subscribe to 100 topics never held before, again and again; every socket the server closes
// (1008, 1013) or refuses (429) is reopened after 50 ms. Runs until SIGTERM, then prints one JSON
// line of what it got.
// Usage: node dist/bench/live-abuser.js <port> <key> <replay sockets> <churn sockets>

import WebSocket from "ws";

const [port, key, replays, churns] = process.argv.slice(2) as [string, string, string, string];
const IN_FLIGHT = 4;
const REOPEN_MS = 50;

const got = { bytes: 0, changes: 0, subscribed: 0, overBudget: 0, badMessage: 0, opened: 0, refusedUpgrades: 0, closes: {} as Record<string, number> };
let isStopping = false;
let churnTopic = 0;

function open(kind: "replay" | "churn"): void {
  if (isStopping) return;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { "x-api-key": key }, perMessageDeflate: false });
  let isRefused = false;
  const ask = () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (kind === "replay") ws.send('{"subscribe":["all"],"since":0}');
    else ws.send(JSON.stringify({ subscribe: Array.from({ length: 100 }, () => `player:churn-${(churnTopic++).toString(36)}`) }));
  };
  ws.on("open", () => {
    got.opened += 1;
    for (let i = 0; i < IN_FLIGHT; i++) ask();
  });
  ws.on("message", (data: Buffer) => {
    got.bytes += data.length;
    // No parse: the type is the message's first field.
    const head = data.subarray(0, 40).toString();
    if (head.startsWith('{"type":"change"')) got.changes += 1;
    else if (head.startsWith('{"type":"subscribed"')) { got.subscribed += 1; ask(); }
    else if (head.startsWith('{"type":"error","code":"OVER_BUDGET"')) { got.overBudget += 1; ask(); }
    else if (head.startsWith('{"type":"error"')) { got.badMessage += 1; ask(); }
  });
  ws.on("unexpected-response", (_request, response) => {
    got.refusedUpgrades += 1;
    isRefused = true;
    response.resume();
    // Aborting the handshake closes the socket: reopened below.
    ws.terminate();
  });
  ws.on("error", () => undefined);
  ws.on("close", (code) => {
    if (!isRefused) got.closes[code] = (got.closes[code] ?? 0) + 1;
    setTimeout(() => open(kind), REOPEN_MS);
  });
}

for (let i = 0; i < Number(replays); i++) open("replay");
for (let i = 0; i < Number(churns); i++) open("churn");
process.on("SIGTERM", () => {
  isStopping = true;
  process.stdout.write(`${JSON.stringify(got)}\n`);
  process.exit(0);
});
