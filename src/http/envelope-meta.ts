// Adding a request's warnings to a finished success envelope without reading it again: the
// envelope's `meta` is found by walking its top-level members back from the closing brace (meta
// and the hosted service's top-level keys come after `data`, so the walk reads a few hundred bytes,
// never the rows), and the warnings are written into it as text. The route's own warnings (kept in
// a cached body) stay first, the request's come after them.

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

const ENVELOPE_START = Buffer.from('{"success":true');

/** One member of a JSON object, found walking back: its key's first byte (the quote) and its value's span. */
interface Member {
  keyStart: number;
  key: string;
  valueStart: number;
  /** The value's last byte. */
  valueEnd: number;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpaceBack(body: Buffer, at: number): number {
  while (at >= 0 && isSpace(body[at] as number)) at--;
  return at;
}

/** The opening quote of the string whose closing quote is at `end` (a quote after an odd run of backslashes is escaped). */
function stringStartBack(body: Buffer, end: number): number {
  for (let at = end - 1; at >= 0; at--) {
    if (body[at] !== QUOTE) continue;
    let backslashes = 0;
    while (at - 1 - backslashes >= 0 && body[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** The first byte of the value whose last byte is at `end`; -1 when the text is not JSON. */
function valueStartBack(body: Buffer, end: number): number {
  const last = body[end] as number;
  if (last === QUOTE) return stringStartBack(body, end);
  if (last !== CLOSE_BRACE && last !== CLOSE_BRACKET) {
    // A number, true, false or null.
    let at = end;
    while (at > 0) {
      const byte = body[at - 1] as number;
      if (byte === COMMA || byte === COLON || byte === OPEN_BRACKET || byte === OPEN_BRACE || isSpace(byte)) break;
      at--;
    }
    return at;
  }
  let depth = 0;
  for (let at = end; at >= 0; at--) {
    const byte = body[at] as number;
    if (byte === QUOTE) {
      at = stringStartBack(body, at);
      if (at < 0) return -1;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth++;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth--;
      if (depth === 0) return at;
    }
  }
  return -1;
}

/**
 * The object's members, last first, whose closing brace is at `close`, until `stop` returns true
 * for one (it is the last yielded). Undefined when the text is not an object.
 */
function membersBack(body: Buffer, close: number, stop: (member: Member) => boolean): Member[] | undefined {
  const members: Member[] = [];
  let at = skipSpaceBack(body, close - 1);
  if (body[at] === OPEN_BRACE) return members;
  for (;;) {
    const valueEnd = at;
    const valueStart = valueStartBack(body, valueEnd);
    if (valueStart < 0) return undefined;
    const colon = skipSpaceBack(body, valueStart - 1);
    if (body[colon] !== COLON) return undefined;
    const keyEnd = skipSpaceBack(body, colon - 1);
    if (body[keyEnd] !== QUOTE) return undefined;
    const keyStart = stringStartBack(body, keyEnd);
    if (keyStart < 0) return undefined;
    const member = { keyStart, key: JSON.parse(body.toString("utf8", keyStart, keyEnd + 1)) as string, valueStart, valueEnd };
    members.push(member);
    if (stop(member)) return members;
    const before = skipSpaceBack(body, keyStart - 1);
    if (body[before] === OPEN_BRACE) return members;
    if (body[before] !== COMMA) return undefined;
    at = skipSpaceBack(body, before - 1);
  }
}

/**
 * The success envelope `body` with `warnings` (JSON texts of ParamWarning objects) appended to
 * `meta.warnings`; undefined when `body` is not a success envelope (left as it is).
 */
export function bodyWithWarnings(body: Buffer, warnings: readonly string[]): Buffer | undefined {
  if (warnings.length === 0 || body.length < ENVELOPE_START.length || !body.subarray(0, ENVELOPE_START.length).equals(ENVELOPE_START)) return undefined;
  const close = skipSpaceBack(body, body.length - 1);
  if (body[close] !== CLOSE_BRACE) return undefined;
  const items = warnings.join(",");
  const top = membersBack(body, close, (member) => member.key === "meta" || member.key === "data");
  if (top === undefined) return undefined;
  const meta = top.find((member) => member.key === "meta");
  // No meta: one is added after the last member, as assigning it to the parsed envelope would.
  if (meta === undefined) return splice(body, close, `,"meta":{"warnings":[${items}]}`);
  if (body[meta.valueEnd] !== CLOSE_BRACE) return undefined;
  const inMeta = membersBack(body, meta.valueEnd, (member) => member.key === "warnings");
  if (inMeta === undefined) return undefined;
  const own = inMeta.find((member) => member.key === "warnings");
  if (own !== undefined && body[own.valueEnd] === CLOSE_BRACKET) {
    const isEmpty = body[skipSpaceBack(body, own.valueEnd - 1)] === OPEN_BRACKET;
    return splice(body, own.valueEnd, isEmpty ? items : `,${items}`);
  }
  if (own !== undefined) return undefined;
  return splice(body, meta.valueEnd, inMeta.length === 0 ? `"warnings":[${items}]` : `,"warnings":[${items}]`);
}

/** `body` with `text` inserted before the byte at `at`. */
function splice(body: Buffer, at: number, text: string): Buffer {
  const inserted = Buffer.byteLength(text);
  const spliced = Buffer.allocUnsafe(body.length + inserted);
  body.copy(spliced, 0, 0, at);
  spliced.write(text, at);
  body.copy(spliced, at + inserted, at);
  return spliced;
}
