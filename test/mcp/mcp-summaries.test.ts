// The tools' one-line summaries (content[0].text) over the demo editions, through POST /mcp: a
// count says "1 player", not "1 players"; a name that repeats in a list is told apart by its era
// and team ("Stephen Curry (curr, Golden State Warriors)"), never "Stephen Curry, Stephen Curry".
import t from "tap";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { startHarness } from "../http/harness.js";

const h = await startHarness({ sources: generateDemoEditions({ asOf: "2026-11-20" }) });
t.teardown(() => h.close());

let id = 0;
async function summary(name: string, args: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${h.base}/mcp`, {
    method: "POST",
    headers: { "x-api-key": h.key, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } }),
  });
  const message = await response.json() as { result: { isError?: boolean; content: { text: string }[] } };
  t.notOk(message.result.isError, `${name} ${JSON.stringify(args)} succeeds`);
  return message.result.content[0]!.text;
}

t.test("counts of one are singular", async (t) => {
  t.match(await summary("find_players", { limit: 1 }), /^1 player: [^,]+$/);
  t.match(await summary("team_roster", { teamName: "golden-state-warriors" }), /^\d+ players: /);
  t.match(await summary("search_players", { q: "curry", limit: 1 }), /^1 player matches: /);
  t.match(await summary("search_players", { q: "curry" }), /^\d+ players match: /);
});

t.test("a name that repeats is told apart by era and team", async (t) => {
  const text = await summary("search_players", { q: "stephen curry" });
  t.notMatch(text, /Stephen Curry, Stephen Curry/, text);
  t.match(text, /Stephen Curry \(curr, Golden State Warriors\)/, text);
  t.match(text, /Stephen Curry \((class|allt), [^)]+\)/, text);
  // A name once in the list stays bare.
  const once = await summary("find_players", { limit: 3 });
  t.notMatch(once, /\(/, once);
});
