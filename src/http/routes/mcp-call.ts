// A `tools/call` over POST /mcp answered as the SDK answers it, without the SDK's per-message work
// (issue 45: its schema checks of the message and of the result, an asynchronous hop, the
// 2026-07-28 entry's web Request and Response, and a JSON.stringify and compression of the whole
// answer: 5-10 times the REST request's cost). Only a call that is plainly well-formed is taken
// here: a JSON-RPC request with nothing but an id, the method and `params` of a name, arguments and
// (2026-07-28) the revision's envelope, whose MCP headers agree with it. Every other message, and
// every doubt, is the SDK's to answer (mcp.ts), so what it refuses it still refuses in its words.
// test/mcp/mcp-direct.test.ts holds the two to the same answers.
//
// The answer is written from the route's reply: a success envelope `{"success":true,"data":…}`
// is the tool's structured result from its `"data"` on, so its bytes go into the JSON-RPC frame
// as they are (no parse, no re-serialisation), after the summary read once per cached reply
// (mcp-tools.ts). What precedes the caller's own bytes (its id; a search page's timestamp) is the
// same for every caller of a cached reply: from its second use it is kept compressed, and each
// answer appends its own few bytes (encoding.ts `withTail`).

import { classifyInboundRequest, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from "@modelcontextprotocol/server";
import { COMPRESS_MIN_BYTES, KeptHeads, withTail } from "../encoding.js";
import type { McpHeaders } from "../context.js";
import { sharedBodyOf, type Reply } from "../reply.js";
import type { McpTools, ToolOutcome } from "./mcp-tools.js";

/** The revision a message names in its `_meta` (2026-07-28), or legacy: a 2025 revision, agreed by `initialize` or not at all. */
export type Era = "legacy" | "modern";

export const MODERN_REVISION = "2026-07-28";

export interface PlainCall {
  readonly id: string | number;
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
  readonly era: Era;
}

/** An id written back as it came: a string of at most this many characters, or a safe integer. */
const MAX_ID_LENGTH = 200;
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How many keys the object has (a parsed message's own: JSON.parse makes no others). */
function keyCount(value: object): number {
  let count = 0;
  for (const _key in value) count++;
  return count;
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/**
 * The message as a plain tools/call, or undefined for the SDK to answer. A 2026-07-28 message's
 * MCP headers (`sent`) are either all absent (mcp.ts then shows the SDK those its message implies,
 * which agree with it) or exactly the ones it implies; anything else (one missing, one that
 * disagrees, a value the SDK would normalise) is the SDK's to judge. A 2025 message is answered
 * whatever it sent, as the SDK's server does.
 */
export function plainToolCall(message: unknown, sent: McpHeaders | undefined): PlainCall | undefined {
  // Exactly jsonrpc, id, method and params (each checked below, so four keys are those four).
  if (!isPlainObject(message) || message.jsonrpc !== "2.0" || message.method !== "tools/call" || keyCount(message) !== 4) return undefined;
  const { id, params } = message;
  if (!(typeof id === "string" ? id.length <= MAX_ID_LENGTH : Number.isSafeInteger(id)) || !isPlainObject(params)) return undefined;
  const { name, arguments: args, _meta: meta } = params;
  // A name, and arguments and _meta only when given: no other key.
  if (typeof name !== "string" || keyCount(params) !== 1 + ("arguments" in params ? 1 : 0) + ("_meta" in params ? 1 : 0)) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (!("_meta" in params)) return { id: id as string | number, name, args: args as Record<string, unknown> | undefined, era: "legacy" };
  // 2026-07-28: the envelope as the SDK's own classifier judges it, and the three headers it
  // requires of a request (its standard-header rung), absent or agreeing.
  if (!isPlainObject(meta) || !hasOnlyKeys(meta, ENVELOPE_KEYS) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  const isImplied = sent === undefined || (sent.protocolVersion === "" && sent.method === "" && sent.name === "");
  if (!isImplied && (sent.protocolVersion !== MODERN_REVISION || sent.method !== "tools/call" || !namesTool(sent.name, name))) return undefined;
  return isModernEnvelope(meta) ? { id: id as string | number, name, args: args as Record<string, unknown> | undefined, era: "modern" } : undefined;
}

const PRINTABLE = /^[\x21-\x7e]{1,200}$/;

/** An Mcp-Name header naming the tool: as it is (printable ASCII) or base64-encoded. */
function namesTool(header: string, name: string): boolean {
  if (header === name) return PRINTABLE.test(name);
  // (At most 1,000 characters: mcp.ts refuses a longer header before the SDK sees it.)
  return header.length <= 1_000 && header === `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
}

/** Envelopes the SDK's classifier was asked about (a client sends the same one each time), by their JSON text; cleared when full. */
const envelopes = new Map<string, boolean>();
const MAX_ENVELOPES = 256;
/** The envelope last judged and its verdict: most requests carry one equal to it, told without writing it as text. */
let last: { envelope: unknown; isModern: boolean } | undefined;

/**
 * Whether the SDK's own classifier (its schema checks cost ~14 µs a message) takes `_meta` as a
 * valid 2026-07-28 envelope: asked once per distinct envelope, of a tools/call carrying it and
 * nothing else, with the headers that agree with it.
 */
function isModernEnvelope(meta: Record<string, unknown>): boolean {
  if (last !== undefined && isSameJson(meta, last.envelope)) return last.isModern;
  const text = JSON.stringify(meta);
  let isModern = envelopes.get(text);
  if (isModern === undefined) {
    const route = classifyInboundRequest({
      httpMethod: "POST", protocolVersionHeader: MODERN_REVISION, mcpMethodHeader: "tools/call", mcpNameHeader: "x",
      body: { jsonrpc: "2.0", id: 0, method: "tools/call", params: { name: "x", _meta: JSON.parse(text) as unknown } },
    });
    isModern = route.kind === "modern" && route.messageKind === "request" && route.classification.revision === MODERN_REVISION;
    if (envelopes.size >= MAX_ENVELOPES) envelopes.clear();
    envelopes.set(text, isModern);
  }
  last = { envelope: JSON.parse(text) as unknown, isModern };
  return isModern;
}

/** Two parsed JSON values alike (keys in the same order, as their texts would be): work bounded by the smaller's size. */
function isSameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!isSameJson(a[i], other[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== otherKeys[i] || !isSameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * The JSON-RPC answer to a plain call, as `{"result":…,"jsonrpc":"2.0","id":…}`, the SDK's order:
 * a 2026-07-28 result ends with `resultType` and the server's identity in its `_meta`.
 */
export class CallAnswers {
  /** What a result's own members are followed by in each era (2026-07-28: `resultType` and the server's identity). */
  private readonly members: Readonly<Record<Era, string>>;
  /** Per shared body (a cached reply, a search template), its frame's head in each era, compressed from the second use. */
  private readonly heads = new KeptHeads<Era>();

  constructor(private readonly tools: McpTools, serverInfo: { name: string; version: string }) {
    this.members = { legacy: "", modern: `,${JSON.stringify({ resultType: "complete", _meta: { [SERVER_INFO_META_KEY]: serverInfo } }).slice(1, -1)}` };
  }

  reply(outcome: ToolOutcome, era: Era, id: string | number): Reply {
    const idText = JSON.stringify(id);
    const end = `${this.members[era]}${FRAME_CLOSE}`;
    const read = "error" in outcome ? undefined : this.tools.read(outcome);
    if (read === undefined || !read.isPlain) {
      // Written whole: a tool error, or an envelope of another shape.
      const text = JSON.stringify(this.tools.resultOf(outcome));
      return jsonAnswer(Buffer.from(`{"result":${text.slice(0, -1)}${end}${idText}}`));
    }
    const { reply } = outcome as Extract<ToolOutcome, { reply: Reply }>;
    const summary = read.result.content[0]?.text ?? "";
    // A search page: its template's bytes up to the timestamp, then its own.
    const template = reply.template !== undefined && reply.timestampAt !== undefined ? reply.template : undefined;
    const kept = template ?? (reply.template === undefined ? sharedBodyOf(reply) : undefined);
    const source = kept ?? reply.body;
    const ownAt = template === undefined ? source.length : reply.timestampAt as number;
    const headOf = (): Buffer => {
      const start = `{"result":{"content":[{"type":"text","text":${JSON.stringify(summary)}}],"structuredContent":{`;
      // The envelope from `"data"` on (its 16 bytes `{"success":true,` dropped) is `{ data, meta }` as it is written.
      return Buffer.concat([Buffer.from(start), source.subarray(ENVELOPE_HEAD_BYTES, ownAt), ...(template === undefined ? [Buffer.from(end)] : [])]);
    };
    // A spliced search page holds its own bytes apart (reply.tail): the whole page is not built for them.
    const tail = template === undefined ? Buffer.from(`${idText}}`) : Buffer.concat([reply.tail ?? reply.body.subarray(ownAt), Buffer.from(`${end}${idText}}`)]);
    const head = kept === undefined || tail.length > MAX_TAIL_BYTES || source.length < COMPRESS_MIN_BYTES ? undefined : this.heads.get(kept, era, headOf);
    return head === undefined ? jsonAnswer(Buffer.concat([headOf(), tail])) : withTail(head, tail);
  }
}

const FRAME_CLOSE = '},"jsonrpc":"2.0","id":';
/** `{"success":true,`: what an envelope has before `"data"`. */
const ENVELOPE_HEAD_BYTES = 16;
/** Beyond this a caller's own bytes are not appended to a kept head (the answer is compressed whole, as any). */
const MAX_TAIL_BYTES = 1_000;

function jsonAnswer(body: Buffer): Reply {
  return { status: 200, body, contentType: "application/json" };
}
