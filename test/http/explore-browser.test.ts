// The /explore page in Debian's headless Chromium, driven by playwright-core, on the demo
// editions: a pasted key → the players table (sorted) → a typo'd search → a player → one of its
// similar players → compare the two → their team. Records every request the page makes: none may
// leave the service's host. Then the court (a dot of the right colour at each of the twelve zones'
// places, read from the canvas) and three players compared at phone width (the page and their table
// no wider than the screen). EXPLORE_SCREENSHOTS=dir writes the README's pictures there.
import t from "tap";
import { join } from "node:path";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { startHarness } from "./harness.js";
import { CHROMIUM, hasChromium, openRecordedPage } from "../fixtures/browser-page.js";

t.setTimeout(240_000);

if (!hasChromium) {
  t.test("the explorer in headless Chromium", { skip: `${CHROMIUM} is missing: install Debian's chromium to run this test` }, () => {});
} else {
  t.test("the explorer searches, opens a player and a similar one, compares two and opens a team", { timeout: 200_000 }, async (t) => {
    const editions = generateDemoEditions({ asOf: "2026-11-20" });
    const current = editions.find((edition) => edition.status === "current")!;
    const h = await startHarness({ sources: editions });
    const { page, requested, problems } = await openRecordedPage(t, { width: 1200, height: 1400 }, { close: () => h.close() });

    await page.goto(`${h.base}/explore`);
    t.equal(await page.title(), "Courtside explorer");
    const unnamed = await page.evaluate(`[...document.querySelectorAll("input, select, button")]
      .filter((element) => element instanceof HTMLButtonElement ? element.textContent.trim() === "" && !element.getAttribute("aria-label") : element.labels.length === 0)
      .map((element) => element.id || element.name)`);
    t.same(unnamed, [], "every control has a label or a text");

    // The key, pasted: it leaves the field and lives in the script only.
    await page.getByLabel("API key").fill(h.key);
    await page.getByRole("button", { name: "Use key" }).click();
    await page.locator("#players-rows tr").first().waitFor();
    t.equal(await page.getByLabel("API key").inputValue(), "");
    t.equal(await page.locator("#players-rows tr").count(), 25, "a page of 25 players");
    t.match(await page.locator("#page-info").textContent(), /Players 1–25 of \d+/);

    // Sorted by name, ascending, with the header saying so.
    await page.getByRole("button", { name: "Name" }).click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    const names = await page.locator("#players-rows tr td:first-child").allTextContents();
    t.same(names, [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)).map(String), "sorted by name");
    // Filtered by position and a minimum overall.
    await page.getByLabel("Position").selectOption("C");
    await page.getByLabel("Min overall").fill("80");
    await page.getByRole("button", { name: "Apply filters" }).click();
    // Polled from here: waitForFunction's in-page polling evaluates a string, which the page's CSP (no unsafe-eval) refuses.
    for (const deadline = Date.now() + 30_000; ;) {
      const isFiltered = await page.evaluate(`[...document.querySelectorAll("#players-rows tr")].every((tr) => tr.children[3].textContent.includes("C") && Number(tr.children[4].textContent) >= 80)`);
      if (isFiltered === true) break;
      if (Date.now() > deadline) throw new Error("the table was not filtered within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    t.ok((await page.locator("#players-rows tr td:nth-child(4)").allTextContents()).every((text) => text.includes("C")), "positions filtered");

    // A typo'd search finds the player; open it.
    const target = current.players.find((p) => p.teamType === "curr" && Object.keys(p.attributes).length > 30 && p.name.split(" ")[1]!.length >= 6)!;
    const [first, last] = target.name.split(" ") as [string, string];
    const typo = `${first} ${last.slice(0, 2)}${last.slice(3)}`;
    await page.getByLabel("Search players by name (typos forgiven)").fill(typo);
    const hit = page.locator("#search-results a", { hasText: target.name }).first();
    await hit.waitFor();
    await hit.click();
    await page.locator("#player-name", { hasText: target.name }).waitFor();
    await page.locator("#similar-list li a").first().waitFor();
    t.ok(await page.locator("#attribute-groups canvas").count() >= 5, "attributes drawn as bars per group");
    // Beside each bar its percentile in the player's era and position, as the API answers it; another cohort redraws them.
    const barsSay = async () => String(await page.evaluate(`[...document.querySelectorAll("#attribute-groups canvas")].map((canvas) => canvas.getAttribute("aria-label")).join("; ")`));
    for (const cohort of ["position", "all"]) {
      const standing = (await h.json(`/api/players/${target._id}/percentiles?cohort=${cohort}`)).body.data;
      if (cohort !== "position") {
        await page.getByLabel("Percentiles among", { exact: true }).selectOption(cohort);
        await page.locator("#cohort-note", { hasText: `${standing.cohort.size} every player of` }).waitFor();
      }
      t.match(await page.locator("#cohort-note").textContent(), new RegExp(`\\(${standing.cohort.size} `), `${cohort}: the cohort's size is named`);
      const said = await barsSay();
      const shown = (standing.attributes as { label: string; value: number | null; percentile: number }[]).filter((row) => row.value !== null);
      const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
      const missing = shown.filter((row) => !said.includes(`${row.label} ${row.value} (${ordinal(row.percentile)} pct`));
      t.same(missing.map((row) => row.label), [], `${cohort}: every bar's percentile is the API's (${shown.length} bars)`);
    }
    await page.getByLabel("Percentiles among", { exact: true }).selectOption("position");
    await page.locator("#cohort-note", { hasNotText: "every player of" }).waitFor();
    t.ok(await page.locator("#badge-tiers .tier").count() >= 1 || (await page.locator("#badge-tiers").textContent())!.length > 0, "badges by tier");
    const drawn = await page.evaluate(`["player-radar", "zone-chart", "week-chart", "edition-chart"].map((id) => document.getElementById(id).width > 0)`);
    t.same(drawn, [true, true, true, true], "radar, hot zones, weekly and edition history are drawn");
    t.ok(await page.locator("#zone-rows tr").count() > 0, "the hot zones are also a table");
    if (process.env["EXPLORE_SCREENSHOTS"]) await page.screenshot({ path: join(process.env["EXPLORE_SCREENSHOTS"], "explore-desktop.png"), fullPage: true });
    await page.getByRole("button", { name: "Add to comparison" }).click();

    // One of its similar players.
    const similar = page.locator("#similar-list li a").first();
    const similarName = (await similar.textContent()) ?? "";
    await similar.click();
    await page.locator("#player-name", { hasText: similarName }).waitFor();
    t.not(similarName, target.name, "a similar player is another player");
    await page.getByRole("button", { name: "Add to comparison" }).click();

    // Compare the two.
    await page.evaluate(`location.hash = "#compare"`);
    await page.getByRole("button", { name: "Compare the picked players" }).click();
    await page.locator("#compare-title", { hasText: " vs " }).waitFor();
    t.equal(await page.locator("#compare-title").textContent(), `${target.name} vs ${similarName}`);
    t.ok(await page.locator("#compare-rows tr").count() > 30, "every attribute side by side");
    t.ok(await page.locator("#compare-rows td.best").count() > 0, "best values marked");
    t.ok(await page.evaluate(`document.getElementById("compare-radar").width > 0`), "overlaid radar drawn");

    // Their team, from the player page.
    await page.evaluate(`location.hash = "#player/${target.slug}/curr"`);
    await page.locator("#player-name", { hasText: target.name }).waitFor();
    await page.locator("#player-meta a").click();
    await page.locator("#team-name", { hasText: target.team }).waitFor();
    await page.locator("#roster-rows tr").first().waitFor();
    const roster = current.players.filter((p) => p.team === target.team && p.teamType === "curr");
    t.equal(await page.locator("#roster-rows tr").count(), roster.length, "the whole roster");
    t.ok(await page.locator("#team-attribute-rows tr").count() > 30, "the profile's attribute means");

    // At phone width: nothing wider than the screen but the scrolling tables.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(`location.hash = "#player/${target.slug}/curr"`);
    await page.locator("#player-name", { hasText: target.name }).waitFor();
    await page.locator("#similar-list li a").first().waitFor();
    const overflow = await page.evaluate(`document.documentElement.scrollWidth`);
    t.ok(Number(overflow) <= 390, `no sideways scrolling at phone width (${overflow}px)`);
    if (process.env["EXPLORE_SCREENSHOTS"]) await page.screenshot({ path: join(process.env["EXPLORE_SCREENSHOTS"], "explore-phone.png"), fullPage: true, clip: { x: 0, y: 0, width: 390, height: 2400 } });

    const stored = String(await page.evaluate("JSON.stringify({ session: { ...sessionStorage }, local: { ...localStorage }, cookie: document.cookie, url: location.href })"));
    t.notOk(stored.includes(h.key), "the key is in no URL, cookie or storage");
    const origin = new URL(h.base).origin;
    t.same(requested.filter((url) => !url.startsWith("data:") && new URL(url).origin !== origin), [], `no request left the service's host (${requested.length} requests)`);
    t.ok(requested.some((url) => url.includes("/similar")) && requested.some((url) => url.includes("/compare")) && requested.some((url) => url.includes("/profile")), "it used the three routes");
    t.ok(requested.some((url) => url.includes("/percentiles?") && url.includes("cohort=all")), "and the percentiles, in the cohort chosen");
    t.same(problems, [], "no JavaScript errors");
  });

  t.test("the court draws a dot for every zone; three players compared at phone width fit the screen", { timeout: 200_000 }, async (t) => {
    const editions = generateDemoEditions({ asOf: "2026-11-20" });
    const current = editions.find((edition) => edition.status === "current")!;
    const h = await startHarness({ sources: editions });
    const { page, problems } = await openRecordedPage(t, { width: 1200, height: 1400 }, { close: () => h.close() });
    await page.goto(`${h.base}/explore`);
    await page.getByLabel("API key").fill(h.key);
    await page.getByRole("button", { name: "Use key" }).click();
    await page.locator("#players-rows tr").first().waitFor();

    // A player with all twelve zones, hot, cold and neutral among them.
    const player = current.players.find((p) => p.teamType === "curr" && Object.keys(p.hotZones ?? {}).length === 12
      && new Set(Object.values(p.hotZones ?? {})).size === 3)!;
    t.ok(player, "a demo player with twelve zones of all three kinds");
    await page.evaluate(`location.hash = "#player/${player.slug}/curr"`);
    await page.locator("#player-name", { hasText: player.name }).waitFor();
    await page.locator("#zone-rows tr").first().waitFor();
    t.equal(await page.locator("#zone-rows tr").count(), 12, "twelve zones in the table");
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Each zone's place on the court (the page's half court, 50 × 47 ft), read from the canvas's pixels:
    // the court's outline (its first drawn pixels from each side, along the middle) gives the scale.
    const places: Record<string, [number, number]> = {
      leftCornerThree: [3, 6], leftWingThree: [8, 24], topKeyThree: [25, 30], rightWingThree: [42, 24], rightCornerThree: [47, 6],
      leftElbow: [17, 19], topKey: [25, 21], rightElbow: [33, 19], leftBaseline: [12, 5], paint: [25, 12], rightBaseline: [38, 5], underBasket: [25, 6],
    };
    const colours = await page.evaluate(`(() => {
      const canvas = document.getElementById("zone-chart");
      const { width, height } = canvas;
      const pixels = canvas.getContext("2d").getImageData(0, 0, width, height).data;
      const drawn = (x, y) => pixels[(y * width + x) * 4 + 3] > 128;
      const middleRow = Math.round(height / 2);
      const middleColumn = Math.round(width / 2);
      let left = 0, right = width - 1, top = 0, bottom = height - 1;
      while (!drawn(left, middleRow)) left++;
      while (!drawn(right, middleRow)) right--;
      while (!drawn(middleColumn, top)) top++;
      while (!drawn(middleColumn, bottom)) bottom--;
      const out = {};
      for (const [zone, [x, y]] of Object.entries(${JSON.stringify(places)})) {
        const at = (Math.round(bottom - (y / 47) * (bottom - top)) * width + Math.round(left + (x / 50) * (right - left))) * 4;
        out[zone] = "#" + [0, 1, 2].map((i) => pixels[at + i].toString(16).padStart(2, "0")).join("") + (pixels[at + 3] === 255 ? "" : "/" + pixels[at + 3]);
      }
      return out;
    })()`) as Record<string, string>;
    const expected = Object.fromEntries(Object.entries(player.hotZones ?? {}).map(([zone, value]) => [zone, { hot: "#dc2626", cold: "#2563eb", neutral: "#9ca3af" }[value as "hot" | "cold" | "neutral"]]));
    t.same(colours, expected, "a dot of the zone's colour at each of the twelve places, the top-of-key three among them");

    // Three players compared on a phone: the page stays as wide as the screen, and so does their table.
    const trio = current.players.filter((p) => p.teamType === "curr" && p.name.length >= 14).slice(0, 3);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(`location.hash = "#compare/${trio.map((p) => p.slug).join(",")}"`);
    await page.locator("#compare-title", { hasText: trio[2]!.name }).waitFor();
    await page.locator("#compare-rows tr").first().waitFor();
    const width = await page.evaluate(`document.documentElement.scrollWidth`);
    t.ok(Number(width) <= 390, `no sideways scrolling of the page at phone width (${width}px)`);
    const third = await page.locator("#compare-head th").nth(3).boundingBox();
    t.ok(third !== null && third.x >= 0 && third.x + third.width <= 390, `the third player's column is on screen (${JSON.stringify(third)})`);
    t.ok(await page.evaluate(`(() => { const box = document.querySelector("#compare-view .scroll"); return box.scrollWidth <= box.clientWidth; })()`), "the table needs no scrolling either");
    if (process.env["EXPLORE_SCREENSHOTS"]) await page.screenshot({ path: join(process.env["EXPLORE_SCREENSHOTS"], "explore-compare-phone.png"), fullPage: true, clip: { x: 0, y: 0, width: 390, height: 1600 } });
    t.same(problems, [], "no JavaScript errors");
  });
}
