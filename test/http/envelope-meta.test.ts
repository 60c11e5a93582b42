// A request's warnings written into a finished envelope as text: the same envelope, member for
// member, as reading it, adding them and writing it again, whatever the body holds.
import t from "tap";
import { bodyWithWarnings } from "../../src/http/envelope-meta.js";

/** What the text splice must equal: the envelope read, its meta.warnings extended, written again. */
function reference(body: string, warnings: readonly object[]): string | undefined {
  const value = JSON.parse(body) as Record<string, unknown>;
  if (value.success !== true) return undefined;
  const meta = (typeof value.meta === "object" && value.meta !== null ? value.meta : {}) as Record<string, unknown>;
  value.meta = { ...meta, warnings: [...(Array.isArray(meta.warnings) ? meta.warnings : []), ...warnings] };
  return JSON.stringify(value);
}

const warning = (parameter: string) => ({ parameter, value: `x"\\${parameter}`, message: "ignored: not a parameter of this route" });

const bodies: Record<string, unknown> = {
  "meta last": { success: true, data: [{ name: "A" }], meta: { count: 1, total: 1 } },
  "empty meta": { success: true, data: [], meta: {} },
  "no meta": { success: true, data: { status: "ok" } },
  "no meta, data empty": { success: true, data: {} },
  "the route's own warnings first": { success: true, data: [1, 2], meta: { warnings: [warning("era")], count: 2 } },
  "the route's own warnings last": { success: true, data: [1, 2], meta: { count: 2, warnings: [warning("era")] } },
  "empty own warnings": { success: true, data: null, meta: { warnings: [] } },
  "top-level keys after meta": { success: true, data: { editions: ["2K26"] }, meta: {}, service: "courtside", links: { health: "/health" }, version: "1.0.0" },
  "a meta key and quotes inside data": { success: true, data: [{ meta: { warnings: ["no"] }, name: "\"meta\":{\\", note: "a \\\" b }]" }], meta: { filters: { team: "\\" }, total: 3, page: [1, 2] } },
  "numbers, booleans and nulls at the ends": { success: true, data: { a: -1.5e-7, b: true }, meta: { last: null, ratio: 0.25, isDemo: false } },
  "non-ASCII": { success: true, data: [{ name: "Nikola Jokić", team: "Rōkā" }], meta: { query: "jokić ✓" } },
};

for (const [name, value] of Object.entries(bodies)) {
  t.test(name, async (t) => {
    const body = JSON.stringify(value);
    for (const warnings of [[warning("teem")], [warning("teem"), warning("sortt")]]) {
      const spliced = bodyWithWarnings(Buffer.from(body), warnings.map((w) => JSON.stringify(w)));
      t.equal(spliced?.toString("utf8"), reference(body, warnings), `${warnings.length} warning(s)`);
    }
  });
}

t.test("what is not a success envelope is left as it is", async (t) => {
  for (const body of ['{"success":false,"error":{"code":"NOT_FOUND"}}', '{"openapi":"3.1.0"}', "[1,2]", '{"success":true,"data":', ""]) {
    t.equal(bodyWithWarnings(Buffer.from(body), [JSON.stringify(warning("x"))]), undefined, body);
  }
  t.equal(bodyWithWarnings(Buffer.from('{"success":true,"data":1,"meta":{}}'), []), undefined, "no warnings, nothing to write");
});

t.test("a body of 50,000 rows whose strings hold brackets and quotes: the warnings land in its meta", async (t) => {
  const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `Player ${i}`, note: "}]\"{[" }));
  const body = Buffer.from(JSON.stringify({ success: true, data: rows, meta: { count: rows.length } }));
  const spliced = bodyWithWarnings(body, [JSON.stringify(warning("teem"))]) as Buffer;
  t.same((JSON.parse(spliced.toString("utf8")) as { meta: unknown }).meta, { count: rows.length, warnings: [warning("teem")] });
});
