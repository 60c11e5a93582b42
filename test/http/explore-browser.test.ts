// The /explore page in Debian's headless Chromium, driven by playwright-core, on the demo
// editions: a pasted key → the players table (sorted) → a typo'd search → a player → one of its
// similar players → compare the two → their team. Records every request the page makes: none may
// leave the service's host. Then the court (a dot of the right colour at each of the twelve zones'
// places, read from the canvas) and three players compared at phone width (the page and their table
// no wider than the screen). The looks the pages must keep, measured at 1280 and 390 px: the
// filters' labels in line, the Team placeholder whole, every player's Overall on a phone's screen,
// bars with their rating, a comparison radar of at least 420 px with labels of at least 12 px,
// group rows set apart, whole numbers on the overall axes, and the demo band on every view over
// demo data and on none over an edition built from real ratings (test/fixtures/hosted-dump.json).
// EXPLORE_SCREENSHOTS=dir writes the README's pictures there.
import t from "tap";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { generateDemoEditions } from "../../src/pipeline/demo.js";
import { importFiles } from "../../src/pipeline/import.js";
import type { EditionSource } from "../../src/model/player.js";
import { startHarness } from "./harness.js";
import { CHROMIUM, hasChromium, openRecordedPage } from "../fixtures/browser-page.js";

/**
 * Records every text drawn on a canvas, by the canvas's id, with the font it was drawn in
 * (window.__canvasText): what Chart.js wrote (ticks, labels, the bars' values) is read back from it.
 * An init script, so it is in place before the page's own; CDP's, so the page's CSP does not apply.
 */
async function recordCanvasText(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    window.__canvasText = {};
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      const id = this.canvas && this.canvas.id;
      if (id) (window.__canvasText[id] ??= []).push({ text: String(text), px: Number(/(\\d+(?:\\.\\d+)?)px/.exec(this.font)?.[1] ?? 0) });
      return fillText.call(this, text, ...rest);
    };
  })()`);
}

/** The texts drawn on the canvas `id` since the last forgetCanvasText. */
async function canvasText(page: Page, id: string): Promise<{ text: string; px: number }[]> {
  return (await page.evaluate(`window.__canvasText[${JSON.stringify(id)}] ?? []`)) as { text: string; px: number }[];
}

async function forgetCanvasText(page: Page): Promise<void> {
  await page.evaluate("window.__canvasText = {}");
}

/** Whether the demo band is on show, and where its top is (it stays at the top of the screen as the page scrolls). */
async function demoBand(page: Page): Promise<{ shown: boolean; top: number | null }> {
  const band = page.locator("#demo-band");
  const shown = await band.isVisible();
  return { shown, top: shown ? ((await band.boundingBox())?.y ?? null) : null };
}

/** The filters' labels in rows (labels whose boxes overlap vertically): each row's tops and the spread of them. */
async function filterLabelRows(page: Page): Promise<number[][]> {
  const tops = (await page.evaluate(`[...document.querySelectorAll("#filters label")].map((label) => {
    const box = label.getBoundingClientRect();
    return [box.top, box.bottom];
  })`)) as [number, number][];
  const rows: [number, number][][] = [];
  for (const box of tops) {
    const row = rows.find((boxes) => boxes.some(([top, bottom]) => box[0] < bottom && top < box[1]));
    if (row) row.push(box);
    else rows.push([box]);
  }
  return rows.map((row) => row.map(([top]) => top));
}

t.setTimeout(240_000);

if (!hasChromium) {
  t.test("the explorer in headless Chromium", { skip: `${CHROMIUM} is missing: install Debian's chromium to run this test` }, () => {});
} else {
  t.test("the explorer searches, opens a player and a similar one, compares two and opens a team", { timeout: 200_000 }, async (t) => {
    const editions = generateDemoEditions({ asOf: "2026-11-20" });
    const current = editions.find((edition) => edition.status === "current")!;
    const h = await startHarness({ sources: editions });
    const { page, requested, problems } = await openRecordedPage(t, { width: 1280, height: 1400 }, { close: () => h.close() });
    await recordCanvasText(page);

    await page.goto(`${h.base}/explore`);
    t.equal(await page.title(), "Courtside explorer");
    await page.locator("#demo-band").waitFor();
    t.match(await page.locator("#demo-band").textContent(), /Demo data: NBA 2K27 holds real player names with generated ratings/, "the band says the data is demo before a key is given");
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
    t.same(await demoBand(page), { shown: true, top: 0 }, "the demo band atop the players view");
    const rowsOfLabels = await filterLabelRows(page);
    t.ok(rowsOfLabels.length >= 1 && rowsOfLabels.every((tops) => Math.max(...tops) - Math.min(...tops) <= 2),
      `the filters' labels in a row have their tops within 2 px (${JSON.stringify(rowsOfLabels)})`);
    t.ok(rowsOfLabels[0]!.length >= 5, "most filters in the first row at desktop width");
    const placeholder = (await page.evaluate(`(() => {
      const input = document.querySelector('#filters input[name="team"]');
      const style = getComputedStyle(input);
      const context = document.createElement("canvas").getContext("2d");
      context.font = style.font;
      return [context.measureText(input.placeholder).width, input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
    })()`)) as [number, number];
    t.ok(placeholder[0] <= placeholder[1], `the Team field's placeholder is whole (${placeholder.map(Math.round).join(" px in ")} px)`);

    // Sorted by name, ascending, with the header saying so.
    await page.getByRole("button", { name: "Name" }).click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    const names = await page.locator("#players-rows tr td:first-child > a").allTextContents();
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
    t.same(await demoBand(page), { shown: true, top: 0 }, "the demo band atop the player view");
    for (const id of ["edition-chart", "week-chart"]) {
      const numbers = (await canvasText(page, id)).map(({ text }) => text).filter((text) => /^-?[\d.]+$/.test(text));
      t.ok(numbers.length >= 2 && numbers.every((text) => Number.isInteger(Number(text))), `${id}: the overall axis has whole numbers only (${[...new Set(numbers)].join(" ")})`);
    }
    for (const cohort of ["position", "all"]) {
      if (cohort !== "position") await forgetCanvasText(page);
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
      // Each chart writes its bars' ratings and their percentiles: every attribute's pair is drawn.
      const written = new Set<string>();
      for (let i = 0; i < 12; i++) for (const { text } of await canvasText(page, `attribute-chart-${i}`)) written.add(text);
      const unwritten = shown.filter((row) => !written.has(String(row.value)) || !written.has(ordinal(row.percentile)));
      t.same(unwritten.map((row) => row.label), [], `${cohort}: every bar shows its rating and its percentile`);
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
    await forgetCanvasText(page);
    await page.getByRole("button", { name: "Compare the picked players" }).click();
    await page.locator("#compare-title", { hasText: " vs " }).waitFor();
    t.same(await demoBand(page), { shown: true, top: 0 }, "the demo band atop the comparison");
    t.equal(await page.locator("#compare-title").textContent(), `${target.name} vs ${similarName}`);
    t.ok(await page.locator("#compare-rows tr").count() > 30, "every attribute side by side");
    t.ok(await page.locator("#compare-rows td.best").count() > 0, "best values marked");
    t.ok(await page.evaluate(`document.getElementById("compare-radar").width > 0`), "overlaid radar drawn");
    const radar = await page.locator("#compare-radar").boundingBox();
    t.ok(radar !== null && radar.width >= 420 && radar.height >= 420, `the radar is at least 420 px each way at 1280 (${radar?.width} × ${radar?.height})`);
    const comparedIds = String(await page.evaluate("location.hash")).replace("#compare/", "");
    const compared = (await h.json(`/api/players/compare?ids=${comparedIds}`)).body.data;
    const radarText = await canvasText(page, "compare-radar");
    const groupLabels = (compared.groups as { label: string }[]).map((group) => group.label);
    const labelSizes = radarText.filter(({ text }) => groupLabels.includes(text)).map(({ px }) => px);
    t.ok(labelSizes.length >= groupLabels.length && labelSizes.every((px) => px >= 12), `the radar's labels are drawn at 12 px or more (${[...new Set(labelSizes)].join(", ")} px)`);
    // Group rows (the group's mean) set apart from attribute rows: their own row, shaded, named "group mean".
    const groupRows = await page.locator("#compare-rows tr.group-row th").allTextContents();
    for (const label of groupLabels) t.ok(groupRows.includes(`${label} · group mean`), `${label}'s mean is a group row`);
    const shades = await page.evaluate(`["group-row", "attribute-row"].map((kind) => getComputedStyle(document.querySelector("#compare-rows tr." + kind + " > th")).backgroundColor)`) as string[];
    t.not(shades[0], shades[1], `a group row is shaded apart from an attribute row (${shades.join(" vs ")})`);
    const order = await page.evaluate(`[...document.querySelectorAll("#compare-rows tr")].map((tr) => tr.className)`) as string[];
    t.equal(order.indexOf("group-row"), 1, "the first group row follows Overall");
    t.equal(order[2], "attribute-row", "and its attributes follow it");

    // Their team, from the player page.
    await page.evaluate(`location.hash = "#player/${target.slug}/curr"`);
    await page.locator("#player-name", { hasText: target.name }).waitFor();
    await page.locator("#player-meta a").click();
    await page.locator("#team-name", { hasText: target.team }).waitFor();
    await page.locator("#roster-rows tr").first().waitFor();
    const roster = current.players.filter((p) => p.team === target.team && p.teamType === "curr");
    t.equal(await page.locator("#roster-rows tr").count(), roster.length, "the whole roster");
    t.ok(await page.locator("#team-attribute-rows tr").count() > 30, "the profile's attribute means");
    t.same(await demoBand(page), { shown: true, top: 0 }, "the demo band atop the team view");

    // Over a short range Chart.js would step by tenths (89, 89.1, …): a player whose overall moved by one or two across editions.
    const overalls = (id: string, history: readonly { overall: number }[] | undefined) =>
      [...(history ?? []).map((entry) => entry.overall), ...editions.flatMap((edition) => edition.players.filter((p) => p._id === id).map((p) => p.overall))];
    const steady = current.players.filter((p) => p.teamType === "curr").slice(0, 300).find((p) => {
      const values = overalls(p._id, p.ratingHistory);
      return values.length >= 3 && Math.max(...values) - Math.min(...values) >= 1 && Math.max(...values) - Math.min(...values) <= 2;
    });
    t.ok(steady, "a demo player whose overall moved by one or two across editions");
    if (steady) {
      await forgetCanvasText(page);
      await page.evaluate(`location.hash = "#player/${steady.slug}/curr"`);
      await page.locator("#player-name", { hasText: steady.name }).waitFor();
      await page.locator("#similar-list li").first().waitFor();
      const numbers = (await canvasText(page, "edition-chart")).map(({ text }) => text).filter((text) => /^-?[\d.]+$/.test(text));
      t.ok(numbers.length >= 2 && numbers.every((text) => Number.isInteger(Number(text))), `its overall by edition on whole numbers only (${[...new Set(numbers)].join(" ")})`);
    }

    // At phone width: every player's Overall on the screen, no sideways scrolling; Team, Era and Positions folded under the name.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(`location.hash = "#players"`);
    await page.locator("#players-rows tr").first().waitFor();
    const cells = (await page.evaluate(`[...document.querySelectorAll("#players-rows tr")].map((tr) => {
      const overall = tr.children[4].getBoundingClientRect();
      const name = tr.children[0].querySelector("a").getBoundingClientRect();
      const fold = tr.querySelector(".fold");
      return { left: overall.left, right: overall.right, width: overall.width, nameRight: name.right, fold: fold.getBoundingClientRect().height > 0 ? fold.textContent : "" };
    })`)) as { left: number; right: number; width: number; nameRight: number; fold: string }[];
    t.ok(cells.length > 0, `${cells.length} rows`);
    t.ok(cells.every((cell) => cell.width > 0 && cell.left >= 0 && cell.right <= 390 && cell.nameRight <= 390), `every row's Name and Overall within the 390 px screen (${JSON.stringify(cells[0])})`);
    t.ok(cells.every((cell) => / · (curr|class|allt) · /.test(cell.fold)), "team, era and positions folded under each name");
    t.ok(await page.evaluate(`(() => { const box = document.querySelector("#players-view .scroll"); return box.scrollWidth <= box.clientWidth && document.documentElement.scrollWidth <= 390; })()`), "neither the table nor the page scrolls sideways");
    t.equal((await filterLabelRows(page)).filter((tops) => Math.max(...tops) - Math.min(...tops) > 2).length, 0, "the filters' labels in line at phone width too");
    if (process.env["EXPLORE_SCREENSHOTS"]) await page.screenshot({ path: join(process.env["EXPLORE_SCREENSHOTS"], "explore-players-phone.png"), fullPage: true, clip: { x: 0, y: 0, width: 390, height: 1400 } });
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
    const { page, problems } = await openRecordedPage(t, { width: 1280, height: 1400 }, { close: () => h.close() });
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

  t.test("over an edition built from real ratings no view carries the demo band", { timeout: 200_000 }, async (t) => {
    // As build-index --input builds it: the hosted service's documents, the file's name as the edition's source.
    const capturedAt = "2026-11-20T00:00:00.000Z";
    const fixture = fileURLToPath(new URL("../fixtures/hosted-dump.json", import.meta.url));
    const real: EditionSource = { gameVersion: "2K26", status: "current", capturedAt, source: "hosted-dump.json", players: importFiles([fixture], { capturedAt }), history: [] };
    const h = await startHarness({ sources: [real] });
    t.equal((await h.json("/api/versions")).body.data[0].source, "hosted-dump.json", "the edition names its file as its source");
    const { page, problems } = await openRecordedPage(t, { width: 1280, height: 1000 }, { close: () => h.close() });
    await page.goto(`${h.base}/explore`);
    await page.getByLabel("API key").fill(h.key);
    await page.getByRole("button", { name: "Use key" }).click();
    await page.locator("#players-rows tr").first().waitFor();
    t.same(await demoBand(page), { shown: false, top: null }, "no band on the players view");
    await page.evaluate(`location.hash = "#player/stephen-curry/curr"`);
    await page.locator("#player-name", { hasText: "Stephen Curry" }).waitFor();
    await page.locator("#similar-list li").first().waitFor();
    t.same(await demoBand(page), { shown: false, top: null }, "none on the player view");
    await page.locator("#player-meta a").click();
    await page.locator("#team-name", { hasText: "Golden State Warriors" }).waitFor();
    t.same(await demoBand(page), { shown: false, top: null }, "none on the team view");
    await page.evaluate(`location.hash = "#compare/stephen-curry,jalen-brunson"`);
    await page.locator("#compare-rows tr").first().waitFor();
    t.same(await demoBand(page), { shown: false, top: null }, "none on the comparison");
    t.equal(await page.locator("#demo-band").count(), 1, "(the band is in the page, hidden)");
    t.same(problems, [], "no JavaScript errors");
  });
}
