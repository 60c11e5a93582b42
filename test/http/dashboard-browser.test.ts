// The /dashboard page in Debian's headless Chromium, driven by playwright-core: register → usage →
// regenerate → the old key is refused by the API → revoke. Records every request the page makes.
// Then its looks at 1280 and 390 px: buttons as the explorer's, and on a phone the usage table
// within the screen, each path wrapping only after a slash.
// DASHBOARD_SCREENSHOTS=dir writes the README's pictures there (desktop and phone width).
import t from "tap";
import { join } from "node:path";
import { startHarness } from "./harness.js";
import { CHROMIUM, hasChromium, openRecordedPage } from "../fixtures/browser-page.js";

// Starting Chromium takes seconds on a busy machine; the file's default 30 s is too tight.
t.setTimeout(180_000);

if (!hasChromium) {
  t.test("the dashboard registers, shows usage, regenerates and revokes in headless Chromium", {
    skip: `${CHROMIUM} is missing: install Debian's chromium (bash .ci/install-debian chromium:/usr/bin/chromium) to run this test`,
  }, () => {});
} else {
  t.test("the dashboard registers, shows usage, regenerates and revokes in headless Chromium", { timeout: 120_000 }, async (t) => {
    const h = await startHarness();
    // The API's refusals are shown on the page; the browser also logs the failed fetch itself.
    const { context, page, requested, problems } = await openRecordedPage(t, { width: 1280, height: 1250 }, {
      close: () => h.close(),
      isExpectedConsoleError: (text) => /status of 401/.test(text),
    });
    const api = async (key: string) => (await fetch(`${h.base}/api/teams`, { headers: { "x-api-key": key } })).status;

    await page.goto(`${h.base}/dashboard`);
    t.equal(await page.title(), "Courtside API keys");
    // Every control has an accessible name.
    // Evaluated in the page (a string: this file is compiled without the DOM's types).
    const unnamed = await page.evaluate(`[...document.querySelectorAll("input, button")]
      .filter((element) => element instanceof HTMLInputElement ? element.labels.length === 0 : element.textContent.trim() === "")
      .map((element) => element.id)`);
    t.same(unnamed, [], "every input has a label and every button a text");

    await page.getByLabel("E-mail").fill("Browser@Example.com");
    await page.getByLabel("Name (you or your application)").fill("Browser test");
    await page.getByRole("button", { name: "Register" }).click();
    const issued = page.locator("#issued-key");
    await issued.waitFor({ state: "visible" });
    const first = (await issued.textContent()) ?? "";
    t.match(first, /^2k_[a-z0-9]{32}$/, "the new key is shown");
    t.match(await page.locator("#issued").textContent(), /Store it now/);
    t.ok(await page.getByRole("button", { name: "Copy key" }).isVisible(), "with a copy button");
    await page.locator("#usage").waitFor({ state: "visible" });
    t.equal(await page.locator("#usage-total").textContent(), "0");
    t.equal(await api(first), 200, "the key works on the API");
    t.equal(await api(first), 200);

    await page.getByRole("button", { name: "Refresh" }).click();
    // The page's own first usage call, then the two API requests.
    await page.locator("#usage-total").filter({ hasText: "3" }).waitFor();
    const rows = await page.locator("#recent tr").allTextContents();
    t.equal(rows.length, 3);
    t.ok(rows.slice(0, 2).every((row) => row.includes("GET/api/teams200")), `the last requests are listed, newest first: ${rows.join(" | ")}`);
    t.ok(rows[2]?.includes("GET/api/dashboard/usage200"));
    t.match(await page.locator("#usage-remaining").textContent(), /of 500 per hour/);

    // Pasting the key shows the same usage.
    await page.getByLabel("API key").fill(first);
    await page.getByRole("button", { name: "Show usage" }).click();
    await page.locator("#usage-total").filter({ hasText: "4" }).waitFor();
    t.equal(await page.getByLabel("API key").inputValue(), "", "the pasted key leaves the field");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Regenerate key…" }).click();
    await page.locator("#status").filter({ hasText: "regenerated" }).waitFor();
    const second = (await issued.textContent()) ?? "";
    t.match(second, /^2k_[a-z0-9]{32}$/);
    t.not(second, first, "a new key is shown");
    t.equal(await api(first), 401, "the old key gets 401 from the API");
    t.equal(await api(second), 200, "the new one works");

    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Revoke key…" }).click();
    t.equal(await api(second), 200, "a dismissed confirmation changes nothing");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revoke key…" }).click();
    await page.locator("#status").filter({ hasText: "revoked" }).waitFor();
    t.equal(await api(second), 401, "the revoked key gets 401");

    const stored = String(await page.evaluate("JSON.stringify({ session: { ...sessionStorage }, local: { ...localStorage }, cookie: document.cookie, url: location.href })"));
    t.notOk(stored.includes(first) || stored.includes(second), "the key is in no URL, cookie or storage");
    t.same(await context.cookies(), []);
    const origin = new URL(h.base).origin;
    t.same(requested.filter((url) => new URL(url).origin !== origin), [], `the page made no request to another host (${requested.length} requests)`);
    t.ok(requested.some((url) => url.endsWith("/api/register")) && requested.some((url) => url.endsWith("/api/keys/regenerate")), "it used the API");
    t.same(problems, [], "no JavaScript errors");

    // The page with a key's usage on show (docs/img/dashboard-desktop.png and dashboard-phone.png, the README's pictures).
    const screenshots = process.env["DASHBOARD_SCREENSHOTS"];
    await page.getByLabel("E-mail").fill("");
    await page.getByLabel("Name (you or your application)").fill("");
    for (const path of ["/api/players?limit=5", "/api/players/search?q=jam", "/api/teams", "/api/versions/2K26/teams", "/api/players/slug/nobody", "/api/versions/2K26/players/slug/nobody"]) {
      await fetch(h.base + path, { headers: { "x-api-key": h.key } });
    }
    await page.getByLabel("API key").fill(h.key);
    await page.getByRole("button", { name: "Show usage" }).click();
    await page.locator("#usage").waitFor({ state: "visible" });
    // Usage is recorded as requests end: refreshed until the six are listed.
    for (const deadline = Date.now() + 30_000; await page.locator("#recent tr").count() < 6;) {
      if (Date.now() > deadline) throw new Error(`the six requests were not listed within 30 s: ${(await page.locator("#recent").textContent()) ?? ""}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    // Every button but Revoke (red) and the secondary ones is the explorer's accent button, no browser grey.
    // The pointer leaves the Refresh button the loop may have clicked: a hovered button is the darker accent.
    await page.mouse.move(0, 0);
    const looks = (await page.evaluate(`[...document.querySelectorAll("button")].map((button) => [button.textContent.trim(), button.className, getComputedStyle(button).backgroundColor])`)) as [string, string, string][];
    const accent = looks.find(([text]) => text === "Register")?.[2];
    t.equal(accent, "rgb(29, 78, 216)", "Register is the explorer's blue");
    t.same(looks.filter(([, kind, colour]) => kind === "" && colour !== accent).map(([text]) => text), [], "so is every plain button");
    if (screenshots !== undefined && screenshots !== "") await page.screenshot({ path: join(screenshots, "dashboard-desktop.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    // Each piece of a path (the text between its <wbr>s) on one line; the table within the screen.
    const broken = await page.evaluate(`[...document.querySelectorAll("#recent td.endpoint")].flatMap((cell) => [...cell.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .filter((node) => { const range = document.createRange(); range.selectNodeContents(node); return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1; })
      .map((node) => node.textContent))`);
    t.same(broken, [], "no path breaks inside a word at 390 px");
    t.ok(await page.evaluate(`(() => { const box = document.querySelector("#usage .scroll"); return box.scrollWidth <= box.clientWidth && document.documentElement.scrollWidth <= 390; })()`), "the usage table fits the phone's screen");
    if (screenshots !== undefined && screenshots !== "") await page.screenshot({ path: join(screenshots, "dashboard-phone.png"), fullPage: true });
  });
}
