import t from "tap";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRoutes } from "../../src/http/routes/route-table.js";
import { openApiPath } from "../../src/http/describe/openapi.js";
import type { RouteDefinition } from "../../src/http/router.js";
import { startHarness, type Harness } from "./harness.js";
import { openRecordedPage } from "../fixtures/browser-page.js";

const CHROMIUM = "/usr/bin/chromium";

/** The service's route table, the documentation routes included. */
function allRoutes(): RouteDefinition[] {
  return buildRoutes(() => true);
}

/** The running harness server: it serves the documentation routes itself. */
async function serveDocs(h: Harness): Promise<{ base: string; close: () => void }> {
  return { base: h.base, close: () => {} };
}

/** Headless Chromium's DOM of a page after its scripts ran (virtual time lets the fetches finish). */
function dumpDom(url: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "courtside-chromium-"));
  const args = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", `--user-data-dir=${profile}`,
    "--dump-dom", "--virtual-time-budget=10000", url,
  ];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      rmSync(profile, { recursive: true, force: true });
      if (error) reject(new Error(`chromium failed: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}

if (!existsSync(CHROMIUM)) {
  t.test("the API reference page renders every route in headless Chromium", {
    skip: `${CHROMIUM} is missing: install Debian's chromium (bash .ci/install-debian chromium:/usr/bin/chromium) to run this test`,
  }, () => {});
} else {
  const h = await startHarness();
  const docs = await serveDocs(h);
  t.teardown(() => {
    docs.close();
    h.close();
  });

  t.test("the API reference page renders every route in headless Chromium", { timeout: 120_000 }, async (t) => {
    const html = await dumpDom(`${docs.base}/docs`);
    // Swagger UI puts zero-width spaces after each slash of a path so long paths can wrap.
    const dom = html.replace(/\u200b|&ZeroWidthSpace;|&#8203;/g, "");
    t.match(dom, /class="[^"]*swagger-ui/, "Swagger UI mounted");
    t.match(dom, /Courtside player ratings API/, "the document's title is shown");
    t.notMatch(dom, /Failed to load API definition|Could not render/i, "no rendering error");
    const paths = [...new Set(allRoutes().map((route) => openApiPath(route.path)))];
    for (const path of paths) t.ok(dom.includes(`data-path="${path}"`), `lists ${path}`);
    t.ok(dom.includes('data-path="/api/versions"') && dom.includes('data-path="/api/players"'), "the players list and the edition list are there");
    const rendered = [...dom.matchAll(/data-path="([^"]+)"/g)].map((match) => match[1]);
    t.equal(new Set(rendered).size, paths.length, "no other paths");
    const loads = [...dom.matchAll(/<(?:script|link|img|iframe|source)\b[^>]*\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    t.ok(loads.length > 0, "the page loads its assets");
    t.ok(loads.every((url) => !/^(https?:)?\/\//.test(url) || url.startsWith(docs.base)), `loads only from the service: ${loads.join(" ")}`);
  });

  // The page opens on the routes: the description's lead paragraph shows, the rest of its prose one
  // click away under "About this API". DOCS_SCREENSHOTS=dir writes docs/img's pictures there.
  t.test("the reference opens on the routes, the prose one click away, at 1280 and 390 px", { timeout: 120_000 }, async (t) => {
    const { page, problems } = await openRecordedPage(t, { width: 1280, height: 900 });
    await page.goto(`${docs.base}/docs`);
    await page.locator(".opblock").first().waitFor({ timeout: 60_000 });
    const description = (await h.json("/api/openapi.json")).body.info.description as string;
    const lead = description.slice(0, description.indexOf("\n\n"));
    t.equal((await page.locator(".about-api-text > :first-child").textContent())?.trim(), lead, "the lead paragraph shows");
    const about = page.locator("details.about-api-more");
    t.equal(await about.getAttribute("open"), null, "the rest is folded");
    t.match(await about.locator("summary").textContent(), /^About this API: authentication, rate limits, caching/);
    t.notOk(await about.getByText("A token bucket per key").isVisible(), "the prose on rate limits is out of sight");
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      const first = await page.locator(".opblock").first().boundingBox();
      t.ok(first !== null && first.y + first.height <= height, `at ${width} px the first route is on the first screen (its bottom at ${first && Math.round(first.y + first.height)} px)`);
      t.ok(Number(await page.evaluate("document.documentElement.scrollWidth")) <= width, `no sideways scrolling at ${width} px`);
      const screenshots = process.env["DOCS_SCREENSHOTS"];
      if (screenshots !== undefined && screenshots !== "") await page.screenshot({ path: join(screenshots, width > 400 ? "docs-desktop.png" : "docs-phone.png") });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await about.locator("summary").click();
    t.ok(await about.getByText("A token bucket per key").isVisible(), "one click shows the prose");
    t.equal(await page.locator(".swagger-ui .info .description").isVisible(), false, "shown once: Swagger UI's own copy stays hidden");
    t.same(problems, [], "no JavaScript errors");
  });
}
