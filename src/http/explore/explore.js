// The explorer page's script (GET /explore): bundled with Chart.js by deploy/bundle.ts into one
// file the service serves itself (no CDN). It reads the API with a key held only in this
// script's memory (never in a URL, a cookie or storage), and draws every chart with Chart.js.
// Plain browser JavaScript: tsc (Node types, no DOM) does not check it; esbuild bundles it.

import {
  Chart, RadarController, BarController, LineController, ScatterController, RadialLinearScale, LinearScale,
  CategoryScale, PointElement, LineElement, BarElement, Filler, Legend, Tooltip,
} from "chart.js";

Chart.register(RadarController, BarController, LineController, ScatterController, RadialLinearScale, LinearScale, CategoryScale, PointElement, LineElement, BarElement, Filler, Legend, Tooltip);
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;

const PAGE_SIZE = 25;
const COLOURS = ["#1d4ed8", "#c2410c", "#15803d", "#9333ea"];
const TIER_ORDER = ["Legendary", "Hall of Fame", "Gold", "Silver", "Bronze"];

let apiKey = "";
let editions = [];
let currentEdition = "";
const state = { offset: 0, total: 0, sort: "overall:desc", compare: [] };
const charts = new Map();

const byId = (id) => document.getElementById(id);

function say(text) { byId("status").textContent = text; }
function fail(text) {
  const box = byId("error");
  box.textContent = text;
  box.hidden = text === "";
}

/** One API call with the key; the success envelope, or an Error with the envelope's message. */
async function api(path) {
  if (apiKey === "") throw new Error("Paste your API key (or register for one) first.");
  const response = await fetch(path, { headers: { "X-API-Key": apiKey } });
  const body = await response.json();
  if (!body.success) throw new Error(body.error.message);
  return body;
}

function edition() { return byId("edition").value || currentEdition; }
function isCurrent() { return edition() === currentEdition; }
const q = encodeURIComponent;

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

/** `text` with a line-break opportunity (<wbr>) before each capital of a camelCase word: long attribute names wrap on a phone. */
function breakable(text) {
  const fragment = document.createDocumentFragment();
  String(text).split(/(?<=[a-z])(?=[A-Z])/).forEach((part, i) => {
    if (i > 0) fragment.append(document.createElement("wbr"));
    fragment.append(part);
  });
  return fragment;
}

/** A link inside the page: it changes the hash, which the router below follows. */
function link(text, hash) {
  const a = el("a", text);
  a.href = hash;
  return a;
}

function playerHash(player) { return `#player/${q(player.slug)}/${player.teamType}`; }
function teamHash(team, teamType) { return `#team/${q(team)}/${teamType}`; }

function draw(id, config) {
  charts.get(id)?.destroy();
  const canvas = byId(id);
  charts.set(id, new Chart(canvas, config));
}

function show(view) {
  for (const id of ["players-view", "player-view", "team-view", "compare-view"]) byId(id).hidden = id !== view;
}

// ---- key ----

byId("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  apiKey = byId("api-key").value.trim();
  byId("api-key").value = "";
  fail("");
  say("Key in use (held in this page's memory only).");
  start();
});

byId("register-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  fail("");
  const response = await fetch("api/register", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: byId("register-email").value, name: byId("register-name").value || "explorer" }),
  });
  const body = await response.json();
  if (!body.success) { fail(body.error.message); return; }
  apiKey = body.data.apiKey;
  byId("issued-key").textContent = apiKey;
  byId("issued").hidden = false;
  say("Registered: the key is shown once below; store it. It is in use now.");
  start();
});

byId("change-key").addEventListener("click", () => {
  byId("key-forms").hidden = false;
  byId("change-key").hidden = true;
  byId("api-key").focus();
});

// ---- editions and the players table ----

async function loadEditions() {
  const body = await (await fetch("api/versions")).json();
  editions = body.data;
  currentEdition = body.meta.current;
  const select = byId("edition");
  select.textContent = "";
  for (const entry of editions) {
    const option = el("option", `${entry.label}${entry.status === "current" ? " (current)" : ""}`);
    option.value = entry.gameVersion;
    select.append(option);
  }
  select.value = currentEdition;
}

function tableQuery() {
  const form = byId("filters");
  const params = new URLSearchParams();
  const value = (name) => form.elements[name].value.trim();
  params.set("era", value("era") || "curr");
  for (const name of ["team", "position", "minRating", "maxRating", "badge"]) if (value(name) !== "") params.set(name, value(name));
  const attribute = value("attribute");
  if (attribute !== "") {
    if (value("attributeMin") !== "") params.set(`${attribute}_gte`, value("attributeMin"));
    if (value("attributeMax") !== "") params.set(`${attribute}_lte`, value("attributeMax"));
  }
  params.set("sort", state.sort);
  params.set("offset", String(state.offset));
  params.set("limit", String(PAGE_SIZE));
  return params;
}

async function loadTable() {
  fail("");
  try {
    const body = await api(`api/versions/${edition()}/players?${tableQuery()}`);
    state.total = body.meta.total;
    const rows = byId("players-rows");
    rows.textContent = "";
    const attribute = byId("filters").elements.attribute.value;
    for (const player of body.data) {
      const row = el("tr");
      const name = el("td");
      name.append(link(player.name, playerHash(player)));
      const team = el("td");
      team.append(link(player.team, teamHash(player.team, player.teamType)));
      row.append(name, team, el("td", player.teamType), el("td", (player.positions || []).join(" / ")), el("td", player.overall, "number"));
      row.append(el("td", attribute === "" ? "" : (player.attributes || {})[camel(attribute)] ?? "–", "number"));
      rows.append(row);
    }
    const last = Math.min(state.offset + PAGE_SIZE, state.total);
    byId("page-info").textContent = state.total === 0 ? "No players match." : `Players ${state.offset + 1}–${last} of ${state.total}`;
    byId("prev-page").disabled = state.offset === 0;
    byId("next-page").disabled = last >= state.total;
    updateSortButtons();
  } catch (error) { fail(error.message); }
}

/** snake_case filter name → camelCase record key (`three_point_shot` → `threePointShot`, `shot_iq` → `shotIQ`). */
function camel(snake) {
  const known = attributeNames.get(snake);
  return known ?? snake.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
}
const attributeNames = new Map();

async function loadAttributeChoices() {
  // The edition's own attribute keys, from one full record (nothing here assumes a fixed list).
  const body = await api(`api/versions/${edition()}/players?limit=1&era=all`);
  const keys = Object.keys(body.data[0]?.attributes ?? {});
  const select = byId("filters").elements.attribute;
  const chosen = select.value;
  select.textContent = "";
  select.append(new Option("(none)", ""));
  for (const key of keys) {
    const snake = key.replace(/[A-Z]+/g, (run) => "_" + run.toLowerCase());
    attributeNames.set(snake, key);
    select.append(new Option(key, snake));
  }
  select.value = chosen;
  byId("attribute-heading-text").textContent = select.value === "" ? "Attribute" : camel(select.value);
  const badges = byId("filters").elements.badge;
  badges.textContent = "";
  badges.append(new Option("(any)", ""));
  try {
    const list = await api(`api/badges?gameVersion=${edition()}`);
    for (const badge of list.data) badges.append(new Option(badge.name, badge.slug));
    badges.disabled = false;
  } catch {
    badges.disabled = true;
  }
}

function updateSortButtons() {
  const [field, direction] = state.sort.split(":");
  for (const button of document.querySelectorAll("[data-sort]")) {
    const sortField = button.dataset.sort === "attribute" ? byId("filters").elements.attribute.value : button.dataset.sort;
    const th = button.closest("th");
    if (sortField === field && sortField !== "") th.setAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  }
}

for (const button of document.querySelectorAll("[data-sort]")) {
  button.addEventListener("click", () => {
    const field = button.dataset.sort === "attribute" ? byId("filters").elements.attribute.value : button.dataset.sort;
    if (field === "") return;
    const [current, direction] = state.sort.split(":");
    state.sort = `${field}:${current === field && direction === "desc" ? "asc" : field === "name" && current !== field ? "asc" : "desc"}`;
    state.offset = 0;
    loadTable();
  });
}

byId("filters").addEventListener("submit", (event) => {
  event.preventDefault();
  state.offset = 0;
  byId("attribute-heading-text").textContent = byId("filters").elements.attribute.value === "" ? "Attribute" : camel(byId("filters").elements.attribute.value);
  loadTable();
});
byId("prev-page").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE_SIZE); loadTable(); });
byId("next-page").addEventListener("click", () => { state.offset += PAGE_SIZE; loadTable(); });
byId("edition").addEventListener("change", async () => {
  state.offset = 0;
  await loadAttributeChoices().catch((error) => fail(error.message));
  route();
});

// ---- search ----

let searchTimer;
byId("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(runSearch, 150);
});
byId("search-form").addEventListener("submit", (event) => { event.preventDefault(); runSearch(); });

async function runSearch() {
  const text = byId("search").value.trim();
  const list = byId("search-results");
  list.textContent = "";
  if (text === "") return;
  try {
    const body = await api(`api/players/search?q=${q(text)}&limit=8`);
    for (const player of body.data) {
      const item = el("li");
      item.append(link(`${player.name} — ${player.team} (${player.overall})`, playerHash(player)));
      list.append(item);
    }
    say(body.data.length === 0 ? `No player matches “${text}”.` : `${body.data.length} players match “${text}” (${currentEdition}).`);
  } catch (error) { fail(error.message); }
}

// ---- player page ----

async function showPlayer(slug, teamType) {
  show("player-view");
  fail("");
  const v = edition();
  const detail = (await api(`api/versions/${v}/players/${q(slug)}?teamType=${teamType}`)).data;
  const player = Array.isArray(detail) ? detail[0] : detail;
  byId("player-name").textContent = player.name;
  const meta = byId("player-meta");
  meta.textContent = "";
  meta.append(link(player.team, teamHash(player.team, player.teamType)));
  meta.append(` · ${player.teamType} · ${(player.positions || []).join(" / ")} · overall ${player.overall} · ${v}`);
  byId("player-add-compare").onclick = () => addToCompare(player.slug, player.teamType);
  document.title = `${player.name} · Courtside explorer`;
  byId("player-name").focus();

  const similar = await api(`api/players/${q(player._id)}/similar?gameVersion=${v}&limit=8`);
  const list = byId("similar-list");
  list.textContent = "";
  for (const entry of similar.data) {
    const item = el("li");
    item.append(link(entry.player.name, playerHash(entry.player)), ` — ${entry.player.team}, ${Math.round(entry.similarity * 100)}% similar; differs most in ${entry.differsMost.map((c) => c.attribute).join(", ")}`);
    list.append(item);
  }
  if (similar.data.length === 0) list.append(el("li", similar.meta.warnings?.[0]?.message ?? "No similar players in scope."));

  // Groups and grouped attributes come from the server (compare with the most similar player).
  const partner = similar.data[0]?.player;
  const comparison = partner ? (await api(`api/players/compare?ids=${q(player._id)},${q(partner._id)}&gameVersion=${v}`)).data : undefined;
  drawAttributeBars(comparison);
  if (comparison) {
    drawRadar("player-radar", comparison.groups, [player.name, `${partner.name} (most similar)`]);
  } else {
    charts.get("player-radar")?.destroy();
  }
  drawBadges(player.badges);
  drawHotZones(player.hotZones);
  await drawHistory(player);
}

function drawAttributeBars(comparison) {
  const holder = byId("attribute-groups");
  holder.textContent = "";
  if (!comparison) { holder.append(el("p", "No attributes recorded for this player.")); return; }
  const byGroup = new Map();
  for (const row of comparison.attributes) {
    if (row.values[0] === null) continue;
    if (!byGroup.has(row.group)) byGroup.set(row.group, []);
    byGroup.get(row.group).push(row);
  }
  let i = 0;
  for (const [group, rows] of byGroup) {
    const figure = el("figure", undefined, "chart-box");
    const id = `attribute-chart-${i++}`;
    const canvas = el("canvas");
    canvas.id = id;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", `${group}: ${rows.map((row) => `${row.attribute} ${row.values[0]}`).join(", ")}`);
    const area = el("div", undefined, "chart-area");
    // CSSOM, which the page's style-src 'self' allows: a bar per attribute, whatever the group's size.
    area.style.height = `${3 + rows.length * 1.6}rem`;
    area.append(canvas);
    figure.append(el("figcaption", group), area);
    holder.append(figure);
    draw(id, {
      type: "bar",
      data: { labels: rows.map((row) => row.attribute), datasets: [{ label: group, data: rows.map((row) => row.values[0]), backgroundColor: COLOURS[0] }] },
      options: { indexAxis: "y", plugins: { legend: { display: false } }, scales: { x: { min: 0, max: 99 } } },
    });
  }
}

function drawRadar(id, groups, names) {
  const canvas = byId(id);
  canvas.setAttribute("aria-label", `Group scores: ${names.map((name, p) => `${name}: ${groups.map((g) => `${g.group} ${g.scores[p] ?? "none"}`).join(", ")}`).join("; ")}`);
  draw(id, {
    type: "radar",
    data: {
      labels: groups.map((g) => g.group),
      datasets: names.map((name, p) => ({
        label: name, data: groups.map((g) => g.scores[p]), borderColor: COLOURS[p], backgroundColor: `${COLOURS[p]}22`, fill: true,
      })),
    },
    options: { scales: { r: { suggestedMin: 30, suggestedMax: 99 } } },
  });
}

function drawBadges(badges) {
  const holder = byId("badge-tiers");
  holder.textContent = "";
  // Each badge once, at its first entry: a hosted list names every badge twice (by tier, then by category).
  const seen = new Set();
  const list = (badges?.list ?? badges?.top ?? []).filter((badge) => {
    const key = String(badge.slug ?? badge.name).toLowerCase().replace(/[^a-z0-9]/g, "");
    return !seen.has(key) && seen.add(key);
  });
  // A tier read by meaning (a source may write `gold` or `HOF`; the row serves it as written).
  const fold = (text) => String(text).toLowerCase().replace(/[^a-z]/g, "").replace(/^hof$/, "halloffame");
  for (const tier of TIER_ORDER) {
    const held = list.filter((badge) => fold(badge.tier) === fold(tier));
    if (held.length === 0) continue;
    const section = el("div", undefined, "tier");
    section.append(el("h4", `${tier} (${held.length})`));
    const ul = el("ul");
    for (const badge of held) ul.append(el("li", badge.name));
    section.append(ul);
    holder.append(section);
  }
  if (holder.childElementCount === 0) holder.append(el("p", badges ? `${badges.total} badges (no list in this edition).` : "No badges."));
}

/** Where each zone sits on a half court 50 wide and 47 deep (basket at 25, 5), by the zone names records carry (HOT_ZONE_KEYS). */
const ZONE_POINTS = {
  leftCornerThree: [3, 6], leftWingThree: [8, 24], topKeyThree: [25, 30], rightWingThree: [42, 24], rightCornerThree: [47, 6],
  leftElbow: [17, 19], topKey: [25, 21], rightElbow: [33, 19], leftBaseline: [12, 5], paint: [25, 12], rightBaseline: [38, 5], underBasket: [25, 6],
};
const ZONE_COLOUR = { hot: "#dc2626", cold: "#2563eb", neutral: "#9ca3af" };

/** The court lines, drawn on the chart's canvas by a Chart.js plugin under the zone points. */
const courtLines = {
  id: "courtLines",
  beforeDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    const px = (value) => x.getPixelForValue(value);
    const py = (value) => y.getPixelForValue(value);
    ctx.save();
    ctx.strokeStyle = "#6b7280";
    ctx.lineWidth = 1.5;
    ctx.strokeRect(px(0), py(47), px(50) - px(0), py(0) - py(47));
    ctx.strokeRect(px(17), py(19), px(33) - px(17), py(0) - py(19));
    const scale = (px(50) - px(0)) / 50;
    ctx.beginPath();
    ctx.arc(px(25), py(5.25), 23.75 * scale, Math.PI + 0.38, -0.38);
    ctx.moveTo(px(3), py(0));
    ctx.lineTo(px(3), py(14));
    ctx.moveTo(px(47), py(0));
    ctx.lineTo(px(47), py(14));
    ctx.moveTo(px(25) + 0.75 * scale, py(5.25));
    ctx.arc(px(25), py(5.25), 0.75 * scale, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.restore();
  },
};

function drawHotZones(zones) {
  const table = byId("zone-rows");
  table.textContent = "";
  const entries = Object.entries(zones ?? {});
  for (const [zone, value] of entries) {
    const row = el("tr");
    row.append(el("td", zone), el("td", value, `zone-${value}`));
    table.append(row);
  }
  byId("zones-none").hidden = entries.length > 0;
  const points = entries.flatMap(([zone, value]) => {
    const at = Object.hasOwn(ZONE_POINTS, zone) ? ZONE_POINTS[zone] : undefined;
    return at ? [{ x: at[0], y: at[1], zone, value }] : [];
  });
  draw("zone-chart", {
    type: "scatter",
    data: { datasets: [{ label: "Zones", data: points, pointRadius: 11, pointBackgroundColor: points.map((p) => ZONE_COLOUR[p.value] ?? "#9ca3af") }] },
    options: {
      plugins: { legend: { display: false }, tooltip: { callbacks: { label: (item) => `${item.raw.zone}: ${item.raw.value}` } } },
      scales: { x: { min: 0, max: 50, display: false }, y: { min: 0, max: 47, display: false } },
    },
    plugins: [courtLines],
  });
}

async function drawHistory(player) {
  // Ours (every loaded edition), else the source's history.
  const editionsHistory = [...(player.editionRatings ?? player.ratingHistory ?? [])].reverse();
  draw("edition-chart", {
    type: "line",
    data: { labels: editionsHistory.map((e) => e.gameVersion), datasets: [{ label: "Overall by edition", data: editionsHistory.map((e) => e.overall), borderColor: COLOURS[1] }] },
    options: { plugins: { legend: { display: false } } },
  });
  byId("edition-chart").setAttribute("aria-label", `Overall by edition: ${editionsHistory.map((e) => `${e.gameVersion} ${e.overall}`).join(", ")}`);
  let weeks = [];
  if (isCurrent()) {
    weeks = (await api(`api/players/${q(player._id)}/history?limit=100`)).data.reverse();
  }
  draw("week-chart", {
    type: "line",
    data: { labels: weeks.map((w) => w.date), datasets: [{ label: "Overall by week", data: weeks.map((w) => w.overall), borderColor: COLOURS[0] }] },
    options: { plugins: { legend: { display: false } } },
  });
  byId("week-chart").setAttribute("aria-label", weeks.length === 0 ? "No weekly history in this edition" : `Overall by week: ${weeks.map((w) => `${w.date} ${w.overall}`).join(", ")}`);
}

// ---- team page ----

async function showTeam(team, teamType) {
  show("team-view");
  fail("");
  const v = edition();
  const [profile, roster] = await Promise.all([
    api(`api/teams/${q(team)}/profile?teamType=${teamType}&gameVersion=${v}`),
    api(`api/versions/${v}/players?team=${q(team)}&era=${teamType}&limit=100`),
  ]);
  const data = profile.data;
  byId("team-name").textContent = data.team.teamName;
  byId("team-meta").textContent = `${data.team.teamType} · ${data.team.playerCount} players · average ${data.team.averageRating} · ${v}`;
  document.title = `${data.team.teamName} · Courtside explorer`;
  byId("team-name").focus();
  const rows = byId("roster-rows");
  rows.textContent = "";
  for (const player of roster.data) {
    const row = el("tr");
    const name = el("td");
    name.append(link(player.name, playerHash(player)));
    row.append(name, el("td", (player.positions || []).join(" / ")), el("td", player.overall, "number"));
    rows.append(row);
  }
  draw("team-groups", {
    type: "bar",
    data: { labels: data.groups.map((g) => `${g.group} (#${g.rank} of ${g.of})`), datasets: [{ label: "Roster mean", data: data.groups.map((g) => g.mean), backgroundColor: COLOURS[2] }] },
    options: { indexAxis: "y", plugins: { legend: { display: false } }, scales: { x: { min: 0, max: 99 } } },
  });
  byId("team-groups").setAttribute("aria-label", `Group means: ${data.groups.map((g) => `${g.group} ${g.mean}, rank ${g.rank} of ${g.of}`).join("; ")}`);
  const attributes = byId("team-attribute-rows");
  attributes.textContent = "";
  for (const row of data.attributes) {
    const tr = el("tr");
    const best = el("td");
    best.append(`${row.best.value} `, link(row.best.player.name, `#player/${q(row.best.player.slug)}/${data.team.teamType}`));
    tr.append(el("td", row.attribute), el("td", row.mean, "number"), best);
    attributes.append(tr);
  }
  const badges = data.badges;
  byId("team-badges").textContent = `${badges.total} badges: ${badges.legendary} Legendary, ${badges.hallOfFame} Hall of Fame, ${badges.gold} Gold, ${badges.silver} Silver, ${badges.bronze} Bronze`
    + (badges.byCategory ? `; by category: ${Object.entries(badges.byCategory).map(([category, counts]) => `${category} ${counts.total}`).join(", ")}` : "");
  byId("team-positions").textContent = `Primary positions: ${Object.entries(data.positions.primary).map(([p, n]) => `${p} ${n}`).join(", ")}`;
}

// ---- comparison ----

function addToCompare(slug, teamType) {
  if (!state.compare.some((entry) => entry.slug === slug && entry.teamType === teamType)) state.compare.push({ slug, teamType });
  state.compare = state.compare.slice(-4);
  renderCompareChoices();
  say(`${state.compare.length} player${state.compare.length === 1 ? "" : "s"} in the comparison.`);
}

function renderCompareChoices() {
  const list = byId("compare-choices");
  list.textContent = "";
  state.compare.forEach((entry, i) => {
    const item = el("li", `${entry.slug} (${entry.teamType}) `);
    const remove = el("button", "Remove");
    remove.type = "button";
    remove.setAttribute("aria-label", `Remove ${entry.slug} from the comparison`);
    remove.onclick = () => { state.compare.splice(i, 1); renderCompareChoices(); };
    item.append(remove);
    list.append(item);
  });
  byId("compare-link").hidden = state.compare.length < 2;
}

byId("compare-link").addEventListener("click", () => {
  location.hash = `#compare/${state.compare.map((entry) => q(entry.slug)).join(",")}`;
});

byId("compare-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const ids = byId("compare-ids").value.split(",").map((id) => id.trim()).filter((id) => id !== "");
  location.hash = `#compare/${ids.map(q).join(",")}`;
});

async function showCompare(ids) {
  show("compare-view");
  fail("");
  if (ids.length < 2) { say("Pick two to four players: open a player and press “Add to comparison”, or type ids or slugs."); return; }
  const body = await api(`api/players/compare?ids=${ids.map(q).join(",")}&gameVersion=${edition()}`);
  const data = body.data;
  const names = data.players.map((p) => p.name);
  byId("compare-title").textContent = names.join(" vs ");
  byId("compare-title").focus();
  drawRadar("compare-radar", data.groups, names);
  const head = byId("compare-head");
  head.textContent = "";
  head.append(el("th", "Attribute"));
  for (const player of data.players) {
    const th = el("th");
    th.scope = "col";
    th.append(link(player.name, playerHash(player)));
    head.append(th);
  }
  const rows = byId("compare-rows");
  rows.textContent = "";
  const addRow = (label, values, best) => {
    const tr = el("tr");
    const th = el("th");
    th.append(breakable(label));
    th.scope = "row";
    tr.append(th);
    values.forEach((value, i) => {
      const td = el("td", value ?? "–", best.includes(i) ? "number best" : "number");
      if (best.includes(i)) td.append(el("span", " (best)", "visually-hidden"));
      tr.append(td);
    });
    rows.append(tr);
  };
  addRow("overall", data.overall.values, data.overall.best);
  for (const group of data.groups) addRow(`${group.group} (group)`, group.scores, group.leader);
  for (const row of data.attributes) addRow(row.attribute, row.values, row.best);
  for (const badge of data.badges) addRow(`${badge.name} badge`, badge.tiers, []);
}

// ---- routing by hash (ids and slugs only; never the key) ----

async function route() {
  if (apiKey === "") return;
  const [view, a, b] = location.hash.slice(1).split("/");
  try {
    if (view === "player" && a) await showPlayer(decodeURIComponent(a), b || "curr");
    else if (view === "team" && a) await showTeam(decodeURIComponent(a), b || "curr");
    else if (view === "compare") await showCompare((a ?? "").split(",").filter((id) => id !== "").map(decodeURIComponent));
    else { show("players-view"); await loadTable(); }
  } catch (error) { fail(error.message); }
}

window.addEventListener("hashchange", route);

let started = false;
async function start() {
  byId("explorer").hidden = false;
  byId("key-forms").hidden = true;
  byId("change-key").hidden = false;
  if (!started) {
    started = true;
    await loadEditions().catch((error) => fail(error.message));
    await loadAttributeChoices().catch((error) => fail(error.message));
  }
  await route();
}
