// The pages of src/web/: no script in src/ escapes tsc, each page is an index.html, a style sheet
// and a main.ts whose built files are the ones its HTML loads, and the pages' tsconfig (DOM, as
// strict as the root one) refuses what it should.

import t from "tap";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WEB_PAGE_FILE, WEB_PAGES, webFiles, type WebPage } from "../../src/assets.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

t.test("src/ holds no JavaScript that tsc does not check", async (t) => {
  const scripts = filesUnder(join(ROOT, "src")).filter((file) => /\.(c|m)?js$/.test(file));
  t.same(scripts, []);
});

t.test("each page is an index.html, a style sheet and a main.ts, and its HTML loads the files the build names", async (t) => {
  for (const page of Object.keys(WEB_PAGES) as WebPage[]) {
    const source = join(ROOT, "src", "web", page);
    for (const file of [WEB_PAGE_FILE, "style.css", "main.ts"]) t.ok(existsSync(join(source, file)), `${page}/${file}`);
    const html = readFileSync(join(source, WEB_PAGE_FILE), "utf8");
    const own = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string)
      .filter((reference) => reference.startsWith(`${page}/assets/`) && !reference.includes("swagger-ui") && !reference.includes("favicon"));
    t.same(own.sort(), [`${page}/assets/${WEB_PAGES[page].style}`, `${page}/assets/${WEB_PAGES[page].script}`].sort(), `${page} loads its style sheet and script`);
    t.notMatch(html, /<script>|<style|\sstyle="/, `${page} has no inline script or style (its CSP allows none)`);
  }
});

t.test("the build wrote every page file", async (t) => {
  for (const file of webFiles()) t.ok(existsSync(join(ROOT, "dist", file)), file);
});

t.test("the pages' tsconfig knows the DOM and is as strict as the root one", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "courtside-web-tsc-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "page.ts"), [
    "const title: string = document.title;",
    "const first: string = ([] as string[])[0];",
    "const missing: number = document.getElementById(title);",
    "export { first, missing };",
  ].join("\n"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(ROOT, "src", "web", "tsconfig.json"), include: [join(dir, "page.ts")] }));
  let output = "";
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? "");
  }
  const lines = output.split("\n").filter((line) => line.includes("error TS"));
  t.equal(lines.length, 2, output);
  t.match(lines[0], /page\.ts\(2,7\): error TS2322/, "an array element may be undefined (noUncheckedIndexedAccess)");
  t.match(lines[1], /page\.ts\(3,7\): error TS2322/, "getElementById gives an HTMLElement or null");
});
