// The one writer of answers made of rows (src/http/fragment-body.ts): text, single rows (closed or
// left open for fields the route adds) and runs of rows, in any order, written as the JSON the
// records make; the ETag folded from the answer's cache key and render version, none without a key.

import t from "tap";
import { buildSnapshotPayload } from "../../src/pipeline/build-snapshot.js";
import { Edition } from "../../src/store/edition.js";
import { ALL_FIELDS_MASK, FIELD_BIT } from "../../src/model/player.js";
import { FragmentBody } from "../../src/http/fragment-body.js";
import { randomEdition } from "../fixtures/random-edition.js";

const edition = new Edition(buildSnapshotPayload(randomEdition(40, 9)), "x");
const full = { fieldMask: ALL_FIELDS_MASK, isVersioned: false };
const named = { fieldMask: FIELD_BIT._id | FIELD_BIT.name, isVersioned: false };
const row = (r: number, shape = full) => {
  const { top: _top, ...badges } = edition.record(r).badges;
  const record = { ...edition.record(r), badges } as Record<string, unknown>;
  if (shape === full) return record;
  return { _id: record["_id"], name: record["name"] };
};

t.test("text, rows, open rows and runs in any order make the JSON of the records", async (t) => {
  const body = new FragmentBody(edition.fragments).text('{"a":').run([3, 1, 2], full).text(',"b":').row(5, named).text(',"c":[')
    .row(7, named, true).text(',"extra":1}').text(",").run([], named).text("],\"d\":").run([9], named).text("}");
  const reply = body.reply(undefined, 1);
  t.same(JSON.parse(reply.body.toString("utf8")), {
    a: [row(3), row(1), row(2)],
    b: row(5, named),
    c: [{ ...row(7, named), extra: 1 }, []],
    d: [row(9, named)],
  });
  t.equal(reply.etag, undefined, "no key: no ETag");
  t.equal(reply.status, 200);
});

t.test("the ETag names the key and the render version, and the length", async (t) => {
  const render = (key: string, version: number, rows = [1, 2]) => new FragmentBody(edition.fragments).text("[").run(rows, named).text("]").reply(key, version);
  const a = render("k1", 1);
  t.match(a.etag, /^W\/"[0-9a-f]{16}"$/, "a weak ETag");
  t.equal(render("k1", 1).etag, a.etag, "the same key and version: the same ETag");
  t.not(render("k2", 1).etag, a.etag, "another key: another ETag");
  t.not(render("k1", 2).etag, a.etag, "another render version: another ETag");
  t.not(render("k1", 1, [1, 2, 3]).etag, a.etag, "another length (what the key names changed without the key: a bug elsewhere, still seen)");
});
