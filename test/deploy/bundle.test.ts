// The server bundles (`npm run build`, deploy/bundle.ts) are Latin-1 text, so V8 keeps each one
// byte per character in every thread that loads it; escaping a character changes nothing a
// regular expression, template or identifier means.

import t from "tap";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { latin1Escape, SERVER_BUNDLE_DIR } from "../../deploy/bundle.js";

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? scripts(path) : entry.name.endsWith(".js") ? [path] : [];
  });
}

t.test("every script of dist/server is Latin-1", async (t) => {
  const files = scripts(SERVER_BUNDLE_DIR);
  t.ok(files.length > 2, "the build wrote the bundles");
  for (const file of files) {
    const beyond = /[^\u0000-\u00ff]/.exec(readFileSync(file, "utf8"));
    t.equal(beyond?.[0], undefined, `${file} holds no character above U+00FF`);
  }
});

t.test("an escaped character means what it meant", async (t) => {
  const source = [
    "// a → b",
    "const quotes = /['’‘`´]/g;",
    "const marks = /[łŁ😀]/u;",
    "const text = `Irwin–Hall ±3.5 …`;",
    "const café = 'é stays';",
    "return [\"O’Neal ‘x’\".replace(quotes, ''), marks.test('Ł'), marks.test('😀'), text, café];",
  ].join("\n");
  const escaped = latin1Escape(source);
  t.match(escaped, /^[\u0000-\u00ff]*$/, "all Latin-1");
  t.ok(escaped.includes("café"), "Latin-1 characters are kept as they are");
  const run = (code: string) => new Function(code)() as unknown;
  t.same(run(escaped), run(source), "same values");
  t.same(run(escaped), ["ONeal x", true, true, "Irwin–Hall ±3.5 …", "é stays"]);
});
