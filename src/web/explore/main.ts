// The explorer page's script (GET /explore): bundled with Chart.js by deploy/bundle.ts into one
// file the service serves itself (no CDN). It reads the API through api.ts (the key in memory
// only) and draws every chart with Chart.js. Attribute, group and zone names on screen are the
// API's display labels (compare, similar and team profile send them beside the keys).

import {
  Chart, RadarController, BarController, LineController, ScatterController, RadialLinearScale, LinearScale,
  CategoryScale, PointElement, LineElement, BarElement, Filler, Legend, Tooltip,
  type ChartConfiguration, type ChartType, type Plugin,
} from "chart.js";
import { call, describeError, hasKey, useKey, type Success } from "../api.js";
import { byId, fieldOf } from "../dom.js";

Chart.register(RadarController, BarController, LineController, ScatterController, RadialLinearScale, LinearScale, CategoryScale, PointElement, LineElement, BarElement, Filler, Legend, Tooltip);
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;

const PAGE_SIZE = 25;
const COLOURS = ["#1d4ed8", "#c2410c", "#15803d", "#9333ea"] as const;
const TIER_ORDER = ["Legendary", "Hall of Fame", "Gold", "Silver", "Bronze"] as const;

// ---- what the page reads of the API (the OpenAPI document has the whole shapes) ----

/** `source` is "demo" on a generated edition (real names, generated ratings). */
interface EditionEntry { gameVersion: string; label: string; status: string; source?: string }
type Era = "curr" | "class" | "allt";
interface PlayerRow {
  _id: string;
  name: string;
  slug: string;
  team: string;
  teamType: Era;
  positions?: string[];
  overall: number;
  attributes?: Record<string, number>;
}
interface BadgeEntry { name: string; slug?: string; tier: string }
interface PlayerDetail extends PlayerRow {
  badges?: { total: number; list?: BadgeEntry[]; top?: BadgeEntry[] };
  hotZones?: Record<string, string>;
  editionRatings?: { gameVersion: string; overall: number }[];
  ratingHistory?: { gameVersion: string; overall: number }[];
}
interface Labelled { label: string }
interface SimilarEntry { player: PlayerRow; similarity: number; differsMost: ({ attribute: string } & Labelled)[] }
interface ComparedAttribute extends Labelled { attribute: string; group: string; groupLabel: string; values: (number | null)[]; best: number[] }
interface ComparedGroup extends Labelled { group: string; scores: (number | null)[]; leader: number[] }
interface Comparison {
  players: PlayerRow[];
  overall: { values: number[]; best: number[] };
  attributes: ComparedAttribute[];
  groups: ComparedGroup[];
  badges: { name: string; tiers: (string | null)[] }[];
  hotZones: ({ zone: string; values: (string | null)[] } & Labelled)[];
}
interface Standing { value: number | null; percentile: number | null; cohortSize: number; cohortMean: number | null }
interface Percentiles {
  cohort: { kind: string; era?: Era; position?: string | null; size: number };
  overall: Standing;
  attributes: ({ attribute: string; group: string; groupLabel: string } & Labelled & Standing)[];
  groups: ({ group: string } & Labelled & Standing)[];
}
interface TeamProfile {
  team: { teamName: string; teamType: Era; playerCount: number; averageRating: number };
  attributes: ({ attribute: string; mean: number; best: { value: number; player: { name: string; slug: string } } } & Labelled)[];
  groups: ({ group: string; mean: number; rank: number; of: number } & Labelled)[];
  badges: { total: number; legendary: number; hallOfFame: number; gold: number; silver: number; bronze: number; byCategory?: Record<string, { total: number }> };
  positions: { primary: Record<string, number> };
}

// ---- the page's state ----

let currentEdition = "";
/** Each edition's entry of /api/versions, by key: what the demo band reads. */
const editionEntries = new Map<string, EditionEntry>();
const state = { offset: 0, total: 0, sort: "overall:desc", compare: [] as { slug: string; teamType: string }[] };
/** Each canvas's chart, destroyed before the canvas is drawn again. */
const charts = new Map<string, { destroy(): void }>();
/** Display labels by key (attributes, groups, zones), as the API's answers give them. */
const labels = new Map<string, string>();
/** The attribute filter's snake_case name → the record's camelCase key. */
const keyOfParam = new Map<string, string>();

const filters = byId("filters", HTMLFormElement);
const editionSelect = byId("edition", HTMLSelectElement);
const attributeSelect = fieldOf(filters, "attribute", HTMLSelectElement);
const badgeSelect = fieldOf(filters, "badge", HTMLSelectElement);

function say(text: string): void {
  byId("status", HTMLElement).textContent = text;
}

function fail(text: string): void {
  const box = byId("error", HTMLElement);
  box.textContent = text;
  box.hidden = text === "";
}

function edition(): string {
  return editionSelect.value || currentEdition;
}

const q = encodeURIComponent;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function learn(entries: readonly ({ label: string } & ({ attribute: string } | { group: string } | { zone: string }))[]): void {
  for (const entry of entries) labels.set("attribute" in entry ? entry.attribute : "group" in entry ? entry.group : entry.zone, entry.label);
}

/** The API's display label of a key, or the key itself where no answer has named it yet. */
function labelOf(key: string): string {
  return labels.get(key) ?? key;
}

/** `text` with a line-break opportunity (<wbr>) before each capital of a camelCase word: an unlabelled key wraps on a phone. */
function breakable(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  text.split(/(?<=[a-z])(?=[A-Z])/).forEach((part, i) => {
    if (i > 0) fragment.append(document.createElement("wbr"));
    fragment.append(part);
  });
  return fragment;
}

/** A link inside the page: it changes the hash, which the router below follows. */
function link(text: string, hash: string): HTMLAnchorElement {
  const a = el("a", text);
  a.href = hash;
  return a;
}

function playerHash(player: { slug: string; teamType: string }): string {
  return `#player/${q(player.slug)}/${player.teamType}`;
}

function teamHash(team: string, teamType: string): string {
  return `#team/${q(team)}/${teamType}`;
}

/** The widest of `texts` in pixels, in the font Chart.js draws ticks with by default. */
function widestText(ctx: CanvasRenderingContext2D, texts: readonly string[]): number {
  ctx.save();
  ctx.font = `${Chart.defaults.font.size ?? 12}px ${Chart.defaults.font.family ?? "sans-serif"}`;
  const widest = Math.max(0, ...texts.map((text) => ctx.measureText(text).width));
  ctx.restore();
  return widest;
}

function draw<T extends ChartType>(id: string, config: ChartConfiguration<T>): void {
  charts.get(id)?.destroy();
  charts.set(id, new Chart(byId(id, HTMLCanvasElement), config));
}

function show(view: string): void {
  for (const id of ["players-view", "player-view", "team-view", "compare-view"]) byId(id, HTMLElement).hidden = id !== view;
}

function positionsOf(player: PlayerRow): string {
  return (player.positions ?? []).join(" / ");
}

// ---- key ----

byId("key-form", HTMLFormElement).addEventListener("submit", (event) => {
  event.preventDefault();
  const field = byId("api-key", HTMLInputElement);
  useKey(field.value);
  field.value = "";
  fail("");
  say("Key in use (held in this page's memory only).");
  void start();
});

byId("register-form", HTMLFormElement).addEventListener("submit", async (event) => {
  event.preventDefault();
  fail("");
  const name = byId("register-name", HTMLInputElement).value;
  try {
    const issued = (await call<{ apiKey: string }>("api/register", {
      method: "POST", withKey: false, body: { email: byId("register-email", HTMLInputElement).value, name: name || "explorer" },
    })).data;
    useKey(issued.apiKey);
    byId("issued-key", HTMLElement).textContent = issued.apiKey;
    byId("issued", HTMLElement).hidden = false;
    say("Registered: the key is shown once below; store it. It is in use now.");
    void start();
  } catch (error) {
    fail(describeError(error));
  }
});

byId("change-key", HTMLButtonElement).addEventListener("click", () => {
  byId("key-forms", HTMLElement).hidden = false;
  byId("change-key", HTMLButtonElement).hidden = true;
  byId("api-key", HTMLInputElement).focus();
});

// ---- editions and the players table ----

async function loadEditions(): Promise<void> {
  const body = await call<EditionEntry[], { current: string }>("api/versions", { withKey: false });
  currentEdition = body.meta.current;
  editionSelect.textContent = "";
  for (const entry of body.data) {
    const option = el("option", `${entry.label}${entry.status === "current" ? " (current)" : ""}`);
    option.value = entry.gameVersion;
    editionSelect.append(option);
  }
  editionSelect.value = currentEdition;
  editionEntries.clear();
  for (const entry of body.data) editionEntries.set(entry.gameVersion, entry);
  showDemoBand();
}

/**
 * The band atop every view while the edition on show is demo data (its /api/versions entry says
 * `source: "demo"`): real names beside generated ratings must not pass for the game's. Absent over
 * an edition built from real ratings.
 */
function showDemoBand(): void {
  const entry = editionEntries.get(edition());
  const band = byId("demo-band", HTMLElement);
  band.hidden = entry?.source !== "demo";
  byId("demo-band-edition", HTMLElement).textContent = entry?.label ?? edition();
}

function tableQuery(): URLSearchParams {
  const params = new URLSearchParams();
  const value = (name: string) => {
    const field = filters.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? field.value.trim() : "";
  };
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

async function loadTable(): Promise<void> {
  fail("");
  try {
    const body = await call<PlayerRow[], { total: number }>(`api/versions/${edition()}/players?${tableQuery()}`);
    state.total = body.meta.total;
    const rows = byId("players-rows", HTMLTableSectionElement);
    rows.textContent = "";
    const key = keyOfParam.get(attributeSelect.value);
    // The attribute's column only while an attribute is chosen: an empty column would crowd a phone.
    byId("attribute-heading", HTMLElement).hidden = key === undefined;
    for (const player of body.data) {
      const row = el("tr");
      const name = el("td");
      // On a phone the three middle columns fold into a line under the name (style.css).
      const fold = el("span", undefined, "fold");
      fold.append(link(player.team, teamHash(player.team, player.teamType)), ` · ${player.teamType} · ${positionsOf(player)}`);
      name.append(link(player.name, playerHash(player)), fold);
      const team = el("td", undefined, "wide");
      team.append(link(player.team, teamHash(player.team, player.teamType)));
      row.append(name, team, el("td", player.teamType, "wide"), el("td", positionsOf(player), "wide"), el("td", player.overall, "number"));
      if (key !== undefined) row.append(el("td", player.attributes?.[key] ?? "–", "number"));
      rows.append(row);
    }
    const last = Math.min(state.offset + PAGE_SIZE, state.total);
    byId("page-info", HTMLElement).textContent = state.total === 0 ? "No players match." : `Players ${state.offset + 1}–${last} of ${state.total}`;
    byId("prev-page", HTMLButtonElement).disabled = state.offset === 0;
    byId("next-page", HTMLButtonElement).disabled = last >= state.total;
    updateSortButtons();
  } catch (error) {
    fail(describeError(error));
  }
}

function showAttributeHeading(): void {
  const key = keyOfParam.get(attributeSelect.value);
  byId("attribute-heading-text", HTMLElement).textContent = key === undefined ? "Attribute" : labelOf(key);
}

/**
 * The edition's attributes for the filter, named as the API names them, by group: the attributes
 * of its first two players, compared (nothing here assumes a fixed list).
 */
async function loadAttributeChoices(): Promise<void> {
  const v = edition();
  const firstTwo = (await call<PlayerRow[]>(`api/versions/${v}/players?limit=2&era=all`)).data;
  let rows: { attribute: string; groupLabel: string }[] = Object.keys(firstTwo[0]?.attributes ?? {}).map((attribute) => ({ attribute, groupLabel: "" }));
  if (firstTwo.length === 2) {
    try {
      const comparison = (await call<Comparison>(`api/players/compare?ids=${firstTwo.map((player) => q(player._id)).join(",")}&gameVersion=${v}`)).data;
      learn(comparison.attributes);
      learn(comparison.groups);
      learn(comparison.hotZones);
      rows = comparison.attributes;
    } catch {
      // The first player's keys, unlabelled, are still a filter.
    }
  }
  const chosen = attributeSelect.value;
  attributeSelect.textContent = "";
  attributeSelect.append(new Option("(none)", ""));
  keyOfParam.clear();
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const { attribute, groupLabel } of rows) {
    const param = attribute.replace(/[A-Z]+/g, (run) => `_${run.toLowerCase()}`);
    keyOfParam.set(param, attribute);
    let holder: HTMLSelectElement | HTMLOptGroupElement = attributeSelect;
    if (groupLabel !== "") {
      holder = groups.get(groupLabel) ?? attributeSelect.appendChild(Object.assign(el("optgroup"), { label: groupLabel }));
      groups.set(groupLabel, holder);
    }
    holder.append(new Option(labelOf(attribute), param));
  }
  attributeSelect.value = keyOfParam.has(chosen) ? chosen : "";
  showAttributeHeading();
  badgeSelect.textContent = "";
  badgeSelect.append(new Option("(any)", ""));
  try {
    const list = await call<{ name: string; slug: string }[]>(`api/badges?gameVersion=${v}`);
    for (const badge of list.data) badgeSelect.append(new Option(badge.name, badge.slug));
    badgeSelect.disabled = false;
  } catch {
    badgeSelect.disabled = true;
  }
}

/** The field a sort button sorts on: its own, or the chosen attribute's filter name. */
function sortFieldOf(button: HTMLElement): string {
  return button.dataset.sort === "attribute" ? attributeSelect.value : (button.dataset.sort ?? "");
}

function updateSortButtons(): void {
  const [field, direction] = state.sort.split(":");
  for (const button of document.querySelectorAll<HTMLButtonElement>("[data-sort]")) {
    const sortField = sortFieldOf(button);
    const th = button.closest("th");
    if (sortField === field && sortField !== "") th?.setAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
    else th?.removeAttribute("aria-sort");
  }
}

for (const button of document.querySelectorAll<HTMLButtonElement>("[data-sort]")) {
  button.addEventListener("click", () => {
    const field = sortFieldOf(button);
    if (field === "") return;
    const [current, direction] = state.sort.split(":");
    state.sort = `${field}:${current === field && direction === "desc" ? "asc" : field === "name" && current !== field ? "asc" : "desc"}`;
    state.offset = 0;
    void loadTable();
  });
}

filters.addEventListener("submit", (event) => {
  event.preventDefault();
  state.offset = 0;
  showAttributeHeading();
  void loadTable();
});
byId("prev-page", HTMLButtonElement).addEventListener("click", () => {
  state.offset = Math.max(0, state.offset - PAGE_SIZE);
  void loadTable();
});
byId("next-page", HTMLButtonElement).addEventListener("click", () => {
  state.offset += PAGE_SIZE;
  void loadTable();
});
editionSelect.addEventListener("change", async () => {
  showDemoBand();
  state.offset = 0;
  await loadAttributeChoices().catch((error: unknown) => fail(describeError(error)));
  await route();
});

// ---- search ----

let searchTimer: ReturnType<typeof setTimeout> | undefined;
byId("search", HTMLInputElement).addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => void runSearch(), 150);
});
byId("search-form", HTMLFormElement).addEventListener("submit", (event) => {
  event.preventDefault();
  void runSearch();
});

async function runSearch(): Promise<void> {
  const text = byId("search", HTMLInputElement).value.trim();
  const list = byId("search-results", HTMLUListElement);
  list.textContent = "";
  if (text === "") return;
  try {
    const body = await call<PlayerRow[]>(`api/players/search?q=${q(text)}&limit=8`);
    for (const player of body.data) {
      const item = el("li");
      item.append(link(`${player.name} — ${player.team} (${player.overall})`, playerHash(player)));
      list.append(item);
    }
    const count = body.data.length;
    say(count === 0 ? `No player matches “${text}”.` : `${count} ${count === 1 ? "player matches" : "players match"} “${text}” (${currentEdition}).`);
  } catch (error) {
    fail(describeError(error));
  }
}

// ---- player page ----

async function showPlayer(slug: string, teamType: string): Promise<void> {
  show("player-view");
  fail("");
  byId("similar-list", HTMLOListElement).textContent = "";
  const v = edition();
  const detail = (await call<PlayerDetail | PlayerDetail[]>(`api/versions/${v}/players/${q(slug)}?teamType=${teamType}`)).data;
  const player = Array.isArray(detail) ? detail[0] : detail;
  if (player === undefined) throw new Error(`No player ${slug} in ${v}.`);
  const heading = byId("player-name", HTMLElement);
  heading.textContent = player.name;
  const meta = byId("player-meta", HTMLElement);
  meta.textContent = "";
  meta.append(link(player.team, teamHash(player.team, player.teamType)));
  meta.append(` · ${player.teamType} · ${positionsOf(player)} · overall ${player.overall} · ${v}`);
  byId("player-add-compare", HTMLButtonElement).onclick = () => addToCompare(player.slug, player.teamType);
  document.title = `${player.name} · Courtside explorer`;
  heading.focus();

  const cohortSelect = byId("player-cohort", HTMLSelectElement);
  const [similar, standing] = await Promise.all([
    call<SimilarEntry[], { warnings?: { message: string }[] }>(`api/players/${q(player._id)}/similar?gameVersion=${v}&limit=8`),
    call<Percentiles>(`api/players/${q(player._id)}/percentiles?gameVersion=${v}&cohort=${cohortSelect.value}`),
  ]);
  learn(standing.data.attributes);
  learn(standing.data.groups);
  drawAttributeBars(standing.data);
  // Another cohort redraws the bars only.
  cohortSelect.onchange = () => {
    call<Percentiles>(`api/players/${q(player._id)}/percentiles?gameVersion=${v}&cohort=${cohortSelect.value}`)
      .then((answer) => drawAttributeBars(answer.data), (error: unknown) => fail(describeError(error)));
  };
  // Group scores come from the server (compare with the most similar player).
  const partner = similar.data[0]?.player;
  const comparison = partner ? (await call<Comparison>(`api/players/compare?ids=${q(player._id)},${q(partner._id)}&gameVersion=${v}`)).data : undefined;
  if (comparison) {
    learn(comparison.attributes);
    learn(comparison.groups);
    learn(comparison.hotZones);
  }
  if (comparison && partner) {
    drawRadar("player-radar", comparison.groups, [player.name, `${partner.name} (most similar)`]);
  } else {
    charts.get("player-radar")?.destroy();
  }
  drawBadges(player.badges);
  drawHotZones(player.hotZones);
  await drawHistory(player);
  // The similar players last: the page is whole once they are listed.
  const list = byId("similar-list", HTMLOListElement);
  list.textContent = "";
  for (const entry of similar.data) {
    const item = el("li");
    item.append(link(entry.player.name, playerHash(entry.player)),
      ` — ${entry.player.team}, ${Math.round(entry.similarity * 100)}% similar; differs most in ${entry.differsMost.map((contrast) => contrast.label).join(", ")}`);
    list.append(item);
  }
  if (similar.data.length === 0) list.append(el("li", similar.meta.warnings?.[0]?.message ?? "No similar players in scope."));
}

/** 1st, 2nd, 3rd, 11th, 92nd. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

/** What the cohort is, in words: “current PGs”, “the current era”, “all of 2K26”. */
function cohortWords(cohort: Percentiles["cohort"]): string {
  const era = cohort.era === "curr" ? "current" : cohort.era === "class" ? "classic" : "all-time";
  if (cohort.kind === "position") return cohort.position ? `${era} ${cohort.position}s` : `${era} players of its position`;
  return cohort.kind === "era" ? `${era} players` : `every player of ${edition()}`;
}

/** Each attribute as a bar per group, its percentile in the chosen cohort (and the cohort's mean) beside it. */
function drawAttributeBars(standing: Percentiles): void {
  const holder = byId("attribute-groups", HTMLElement);
  holder.textContent = "";
  const words = cohortWords(standing.cohort);
  byId("cohort-note", HTMLElement).textContent = standing.cohort.size === 0
    ? "(no cohort: the player names no known position)"
    : `(${standing.cohort.size} ${words}; overall ${standing.overall.value}, ${ordinal(standing.overall.percentile ?? 0)} percentile)`;
  const byGroup = new Map<string, { value: number; label: string; beside: string; said: string }[]>();
  for (const row of standing.attributes) {
    if (row.value === null) continue;
    const rows = byGroup.get(row.groupLabel) ?? [];
    const beside = row.percentile === null ? "–" : ordinal(row.percentile);
    rows.push({ value: row.value, label: row.label, beside, said: `${beside} pct · avg ${row.cohortMean ?? "–"}` });
    byGroup.set(row.groupLabel, rows);
  }
  if (byGroup.size === 0) {
    holder.append(el("p", "No attributes recorded for this player."));
    return;
  }
  let i = 0;
  for (const [group, rows] of byGroup) {
    const figure = el("figure", undefined, "chart-box");
    const id = `attribute-chart-${i++}`;
    const canvas = el("canvas");
    canvas.id = id;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", `${group}, percentiles among ${words}: ${rows.map((row) => `${row.label} ${row.value} (${row.said})`).join(", ")}`);
    const area = el("div", undefined, "chart-area");
    // CSSOM, which the page's style-src 'self' allows: a bar per attribute, whatever the group's size.
    area.style.height = `${3 + rows.length * 1.6}rem`;
    area.append(canvas);
    figure.append(el("figcaption", group), area);
    holder.append(figure);
    draw(id, {
      type: "bar",
      data: { labels: rows.map((row) => row.label), datasets: [{ label: group, data: rows.map((row) => row.value), backgroundColor: COLOURS[0] }] },
      plugins: [barValues],
      options: {
        indexAxis: "y", plugins: { legend: { display: false } },
        // The percentiles on a second category axis: each beside its bar, on the right.
        // Chart.js gives each side axis at most a share of the width, which cut long names short
        // ("id-Range Shot"): the name axis is as wide as its widest name, the bars take the rest.
        scales: {
          x: { min: 0, max: 99 },
          y: { afterFit: (scale) => { scale.width = Math.max(scale.width, widestText(scale.ctx, rows.map((row) => row.label)) + 12); } },
          percentile: { type: "category", position: "right", labels: rows.map((row) => row.beside), grid: { drawOnChartArea: false } },
        },
      },
    });
  }
}

/** Each bar's value written at its end: inside the bar in white, or just past a bar too short to hold it. */
const barValues: Plugin<"bar"> = {
  id: "barValues",
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    const values = chart.data.datasets[0]?.data ?? [];
    ctx.save();
    ctx.font = `600 12px ${Chart.defaults.font.family ?? "sans-serif"}`;
    ctx.textBaseline = "middle";
    chart.getDatasetMeta(0).data.forEach((bar, i) => {
      const value = values[i];
      if (typeof value !== "number") return;
      const { x, y, base } = bar.getProps(["x", "y", "base"], true) as { x: number; y: number; base: number };
      const text = String(value);
      const fits = x - base > ctx.measureText(text).width + 10;
      ctx.fillStyle = fits ? "#fff" : "#111827";
      ctx.textAlign = fits ? "right" : "left";
      ctx.fillText(text, fits ? x - 5 : x + 4, y);
    });
    ctx.restore();
  },
};

function drawRadar(id: string, groups: readonly ComparedGroup[], names: readonly string[]): void {
  byId(id, HTMLCanvasElement).setAttribute("aria-label",
    `Group scores: ${names.map((name, p) => `${name}: ${groups.map((g) => `${g.label} ${g.scores[p] ?? "none"}`).join(", ")}`).join("; ")}`);
  draw(id, {
    type: "radar",
    data: {
      labels: groups.map((g) => g.label),
      datasets: names.map((name, p) => ({
        label: name, data: groups.map((g) => g.scores[p] ?? null), borderColor: COLOURS[p], backgroundColor: `${COLOURS[p]}22`, fill: true,
      })),
    },
    // Labels at 13 px and the scale's numbers at 12: readable at the size the page gives the chart.
    options: {
      scales: { r: { suggestedMin: 30, suggestedMax: 99, pointLabels: { font: { size: 13 } }, ticks: { font: { size: 12 }, stepSize: 20 } } },
      plugins: { legend: { labels: { font: { size: 13 } } } },
    },
  });
}

function drawBadges(badges: PlayerDetail["badges"]): void {
  const holder = byId("badge-tiers", HTMLElement);
  holder.textContent = "";
  // Each badge once, at its first entry: a hosted list names every badge twice (by tier, then by category).
  const seen = new Set<string>();
  const list = (badges?.list ?? badges?.top ?? []).filter((badge) => {
    const key = String(badge.slug ?? badge.name).toLowerCase().replace(/[^a-z0-9]/g, "");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A tier read by meaning (a source may write `gold` or `HOF`; the row serves it as written).
  const fold = (text: string): string => text.toLowerCase().replace(/[^a-z]/g, "").replace(/^hof$/, "halloffame");
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

/** Where each zone sits on a half court 50 wide and 47 deep (basket at 25, 5), by the zone keys records carry (HOT_ZONE_KEYS). */
const ZONE_POINTS: Readonly<Record<string, readonly [number, number]>> = {
  leftCornerThree: [3, 6], leftWingThree: [8, 24], topKeyThree: [25, 30], rightWingThree: [42, 24], rightCornerThree: [47, 6],
  leftElbow: [17, 19], topKey: [25, 21], rightElbow: [33, 19], leftBaseline: [12, 5], paint: [25, 12], rightBaseline: [38, 5], underBasket: [25, 6],
};
const ZONE_COLOUR: Readonly<Record<string, string>> = { hot: "#dc2626", cold: "#2563eb", neutral: "#9ca3af" };

interface ZonePoint { x: number; y: number; zone: string; value: string }

/** The court lines, drawn on the chart's canvas by a Chart.js plugin under the zone points. */
const courtLines: Plugin<"scatter"> = {
  id: "courtLines",
  beforeDatasetsDraw(chart) {
    const { ctx, scales: { x, y } } = chart;
    if (x === undefined || y === undefined) return;
    const px = (value: number) => x.getPixelForValue(value);
    const py = (value: number) => y.getPixelForValue(value);
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

function drawHotZones(zones: Record<string, string> | undefined): void {
  const table = byId("zone-rows", HTMLTableSectionElement);
  table.textContent = "";
  const entries = Object.entries(zones ?? {});
  for (const [zone, value] of entries) {
    const row = el("tr");
    row.append(el("td", labelOf(zone)), el("td", value, `zone-${value}`));
    table.append(row);
  }
  byId("zones-none", HTMLElement).hidden = entries.length > 0;
  const points: ZonePoint[] = entries.flatMap(([zone, value]) => {
    const at = Object.hasOwn(ZONE_POINTS, zone) ? ZONE_POINTS[zone] : undefined;
    return at ? [{ x: at[0], y: at[1], zone, value }] : [];
  });
  draw<"scatter">("zone-chart", {
    type: "scatter",
    data: { datasets: [{ label: "Zones", data: points, pointRadius: 11, pointBackgroundColor: points.map((p) => ZONE_COLOUR[p.value] ?? "#9ca3af") }] },
    options: {
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            // Chart.js types a point's data as unknown: it is one of `points`, given above.
            label: (item) => {
              const point = item.raw as ZonePoint;
              return `${labelOf(point.zone)}: ${point.value}`;
            },
          },
        },
      },
      scales: { x: { min: 0, max: 50, display: false }, y: { min: 0, max: 47, display: false } },
    },
    plugins: [courtLines],
  });
}

/** An axis of overall ratings, which are integers: its ticks are whole numbers (Chart.js would step by 0.5 over a short range). */
const INTEGER_AXIS = { ticks: { precision: 0 } } as const;

async function drawHistory(player: PlayerDetail): Promise<void> {
  // Ours (every loaded edition), else the source's history.
  const editionsHistory = [...(player.editionRatings ?? player.ratingHistory ?? [])].reverse();
  draw("edition-chart", {
    type: "line",
    data: { labels: editionsHistory.map((e) => e.gameVersion), datasets: [{ label: "Overall by edition", data: editionsHistory.map((e) => e.overall), borderColor: COLOURS[1] }] },
    options: { plugins: { legend: { display: false } }, scales: { y: INTEGER_AXIS } },
  });
  byId("edition-chart", HTMLCanvasElement).setAttribute("aria-label", `Overall by edition: ${editionsHistory.map((e) => `${e.gameVersion} ${e.overall}`).join(", ")}`);
  let weeks: { date: string; overall: number }[] = [];
  if (edition() === currentEdition) {
    weeks = (await call<{ date: string; overall: number }[]>(`api/players/${q(player._id)}/history?limit=100`)).data.reverse();
  }
  draw("week-chart", {
    type: "line",
    data: { labels: weeks.map((w) => w.date), datasets: [{ label: "Overall by week", data: weeks.map((w) => w.overall), borderColor: COLOURS[0] }] },
    options: { plugins: { legend: { display: false } }, scales: { y: INTEGER_AXIS } },
  });
  byId("week-chart", HTMLCanvasElement).setAttribute("aria-label", weeks.length === 0 ? "No weekly history in this edition" : `Overall by week: ${weeks.map((w) => `${w.date} ${w.overall}`).join(", ")}`);
}

// ---- team page ----

async function showTeam(team: string, teamType: string): Promise<void> {
  show("team-view");
  fail("");
  const v = edition();
  const [profile, roster]: [Success<TeamProfile>, Success<PlayerRow[]>] = await Promise.all([
    call<TeamProfile>(`api/teams/${q(team)}/profile?teamType=${teamType}&gameVersion=${v}`),
    call<PlayerRow[]>(`api/versions/${v}/players?team=${q(team)}&era=${teamType}&limit=100`),
  ]);
  const data = profile.data;
  learn(data.attributes);
  learn(data.groups);
  const heading = byId("team-name", HTMLElement);
  heading.textContent = data.team.teamName;
  byId("team-meta", HTMLElement).textContent = `${data.team.teamType} · ${data.team.playerCount} players · average ${data.team.averageRating} · ${v}`;
  document.title = `${data.team.teamName} · Courtside explorer`;
  heading.focus();
  const rows = byId("roster-rows", HTMLTableSectionElement);
  rows.textContent = "";
  for (const player of roster.data) {
    const row = el("tr");
    const name = el("td");
    name.append(link(player.name, playerHash(player)));
    row.append(name, el("td", positionsOf(player)), el("td", player.overall, "number"));
    rows.append(row);
  }
  draw("team-groups", {
    type: "bar",
    data: { labels: data.groups.map((g) => `${g.label} (#${g.rank} of ${g.of})`), datasets: [{ label: "Roster mean", data: data.groups.map((g) => g.mean), backgroundColor: COLOURS[2] }] },
    plugins: [barValues],
    options: { indexAxis: "y", plugins: { legend: { display: false } }, scales: { x: { min: 0, max: 99 } } },
  });
  byId("team-groups", HTMLCanvasElement).setAttribute("aria-label", `Group means: ${data.groups.map((g) => `${g.label} ${g.mean}, rank ${g.rank} of ${g.of}`).join("; ")}`);
  const attributes = byId("team-attribute-rows", HTMLTableSectionElement);
  attributes.textContent = "";
  for (const row of data.attributes) {
    const tr = el("tr");
    const best = el("td");
    best.append(`${row.best.value} `, link(row.best.player.name, `#player/${q(row.best.player.slug)}/${data.team.teamType}`));
    tr.append(el("td", row.label), el("td", row.mean, "number"), best);
    attributes.append(tr);
  }
  const badges = data.badges;
  byId("team-badges", HTMLElement).textContent = `${badges.total} badges: ${badges.legendary} Legendary, ${badges.hallOfFame} Hall of Fame, ${badges.gold} Gold, ${badges.silver} Silver, ${badges.bronze} Bronze`
    + (badges.byCategory ? `; by category: ${Object.entries(badges.byCategory).map(([category, counts]) => `${category} ${counts.total}`).join(", ")}` : "");
  byId("team-positions", HTMLElement).textContent = `Primary positions: ${Object.entries(data.positions.primary).map(([p, n]) => `${p} ${n}`).join(", ")}`;
}

// ---- comparison ----

function addToCompare(slug: string, teamType: string): void {
  if (!state.compare.some((entry) => entry.slug === slug && entry.teamType === teamType)) state.compare.push({ slug, teamType });
  state.compare = state.compare.slice(-4);
  renderCompareChoices();
  say(`${state.compare.length} player${state.compare.length === 1 ? "" : "s"} in the comparison.`);
}

function renderCompareChoices(): void {
  const list = byId("compare-choices", HTMLUListElement);
  list.textContent = "";
  state.compare.forEach((entry, i) => {
    const item = el("li", `${entry.slug} (${entry.teamType}) `);
    const remove = el("button", "Remove");
    remove.type = "button";
    remove.setAttribute("aria-label", `Remove ${entry.slug} from the comparison`);
    remove.onclick = () => {
      state.compare.splice(i, 1);
      renderCompareChoices();
    };
    item.append(remove);
    list.append(item);
  });
  byId("compare-link", HTMLButtonElement).hidden = state.compare.length < 2;
}

byId("compare-link", HTMLButtonElement).addEventListener("click", () => {
  location.hash = `#compare/${state.compare.map((entry) => q(entry.slug)).join(",")}`;
});

byId("compare-form", HTMLFormElement).addEventListener("submit", (event) => {
  event.preventDefault();
  const ids = byId("compare-ids", HTMLInputElement).value.split(",").map((id) => id.trim()).filter((id) => id !== "");
  location.hash = `#compare/${ids.map(q).join(",")}`;
});

async function showCompare(ids: readonly string[]): Promise<void> {
  show("compare-view");
  fail("");
  if (ids.length < 2) {
    say("Pick two to four players: open a player and press “Add to comparison”, or type ids or slugs.");
    return;
  }
  const data = (await call<Comparison>(`api/players/compare?ids=${ids.map(q).join(",")}&gameVersion=${edition()}`)).data;
  learn(data.attributes);
  learn(data.groups);
  learn(data.hotZones);
  const names = data.players.map((p) => p.name);
  const title = byId("compare-title", HTMLElement);
  title.textContent = names.join(" vs ");
  title.focus();
  drawRadar("compare-radar", data.groups, names);
  const head = byId("compare-head", HTMLTableRowElement);
  head.textContent = "";
  head.append(el("th", "Attribute"));
  for (const player of data.players) {
    const th = el("th");
    th.scope = "col";
    th.append(link(player.name, playerHash(player)));
    head.append(th);
  }
  const rows = byId("compare-rows", HTMLTableSectionElement);
  rows.textContent = "";
  // A group's score (the mean of its attributes, one decimal) is a shaded heading row; its
  // attributes follow it, indented, each named with its group for a screen reader. The source's own
  // group scores (integers, the "Group Scores" attributes) so read apart from the means.
  const addRow = (kind: "overall" | "group" | "attribute", label: string, values: readonly (number | string | null)[], best: readonly number[], note = "") => {
    const tr = el("tr", undefined, `${kind}-row`);
    const th = el("th");
    if (kind === "attribute" && note !== "") th.append(el("span", `${note}: `, "visually-hidden"));
    th.append(breakable(label));
    if (kind === "group") th.append(el("span", ` · ${note}`, "muted"));
    th.scope = "row";
    tr.append(th);
    values.forEach((value, i) => {
      const td = el("td", value ?? "–", best.includes(i) ? "number best" : "number");
      if (best.includes(i)) td.append(el("span", " (best)", "visually-hidden"));
      tr.append(td);
    });
    rows.append(tr);
  };
  addRow("overall", "Overall", data.overall.values, data.overall.best);
  const scoreOf = new Map(data.groups.map((group) => [group.group, group]));
  let group = "";
  for (const row of data.attributes) {
    if (row.group !== group) {
      group = row.group;
      const score = scoreOf.get(group);
      if (score) addRow("group", score.label, score.scores, score.leader, "group mean");
      else addRow("group", row.groupLabel, data.players.map(() => ""), [], "as the source rates them");
    }
    addRow("attribute", row.label, row.values, row.best, row.groupLabel);
  }
  if (data.badges.length > 0) addRow("group", "Badges", data.players.map(() => ""), [], "by tier");
  for (const badge of data.badges) addRow("attribute", badge.name, badge.tiers, [], "Badge");
}

// ---- routing by hash (ids and slugs only; never the key) ----

async function route(): Promise<void> {
  if (!hasKey()) return;
  const [view, a, b] = location.hash.slice(1).split("/");
  try {
    if (view === "player" && a) await showPlayer(decodeURIComponent(a), b || "curr");
    else if (view === "team" && a) await showTeam(decodeURIComponent(a), b || "curr");
    else if (view === "compare") await showCompare((a ?? "").split(",").filter((id) => id !== "").map(decodeURIComponent));
    else {
      show("players-view");
      await loadTable();
    }
  } catch (error) {
    fail(describeError(error));
  }
}

window.addEventListener("hashchange", () => {
  // What the status said belonged to the view being left.
  say("");
  void route();
});

/** Whether the editions are read: at once, as /api/versions needs no key (the demo band shows before a key is given). */
let editionsLoaded = readEditions();
function readEditions(): Promise<boolean> {
  return loadEditions().then(() => true, (error: unknown) => {
    fail(describeError(error));
    return false;
  });
}

let isStarted = false;
async function start(): Promise<void> {
  byId("explorer", HTMLElement).hidden = false;
  byId("key-forms", HTMLElement).hidden = true;
  byId("change-key", HTMLButtonElement).hidden = false;
  if (!isStarted) {
    isStarted = true;
    if (!(await editionsLoaded)) editionsLoaded = readEditions();
    await editionsLoaded;
    await loadAttributeChoices().catch((error: unknown) => fail(describeError(error)));
  }
  await route();
}
