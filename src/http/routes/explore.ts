// GET /explore: the explorer page (search, a filterable players table, player, team and comparison
// views with Chart.js charts), served entirely by the service: the page and its style sheet are
// here, its script is src/http/explore/explore.js bundled with Chart.js by `npm run build`
// (dist/explore/explore.js; embedded in the single binary). The key lives only in the script's
// memory, as on /dashboard.

import { readBuiltFile } from "../../assets.js";
import { compileParams } from "../../query/params.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { pageAsset, staticReply } from "../static-reply.js";

export const EXPLORE_PATH = "/explore";
export const EXPLORE_ASSET_PATH = "/explore/assets/:file";
/** Where the build writes the page's script (relative to dist/; an asset of the same name in the binary). */
export const EXPLORE_BUNDLE = "explore/explore.js";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Courtside explorer</title>
<link rel="stylesheet" href="explore/assets/explore.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip" href="#main">Skip to the explorer</a>
<header>
  <h1>Courtside explorer</h1>
  <p>Look at the ratings before you write code against them. Every request goes to this service with your key; the key stays in this page's memory only.
  Reference: <a href="docs">/docs</a> · keys: <a href="dashboard">/dashboard</a></p>
  <noscript><p class="notice">The explorer needs JavaScript; the API itself does not.</p></noscript>
  <button id="change-key" type="button" hidden>Change key</button>
  <div id="key-forms" class="key-forms">
    <form id="key-form">
      <label for="api-key">API key</label>
      <input id="api-key" type="password" autocomplete="off" spellcheck="false" required placeholder="2k_…">
      <button type="submit">Use key</button>
    </form>
    <form id="register-form">
      <fieldset>
        <legend>No key yet? Register</legend>
        <label for="register-email">E-mail</label>
        <input id="register-email" type="email" autocomplete="email" required maxlength="254">
        <label for="register-name">Name</label>
        <input id="register-name" type="text" autocomplete="name" maxlength="100">
        <button type="submit">Register</button>
      </fieldset>
    </form>
  </div>
  <p id="issued" hidden>Your new key (shown once, store it): <code id="issued-key"></code></p>
  <p id="status" role="status" aria-live="polite"></p>
  <p id="error" class="error" role="alert" hidden></p>
</header>
<main id="main">
<div id="explorer" hidden>
  <nav aria-label="Explorer">
    <a href="#players">Players</a> <a href="#compare">Compare</a>
    <label for="edition">Edition</label> <select id="edition"></select>
  </nav>
  <form id="search-form" role="search">
    <label for="search">Search players by name (typos forgiven)</label>
    <input id="search" type="search" autocomplete="off" maxlength="80">
    <button type="submit">Search</button>
  </form>
  <ul id="search-results" aria-label="Search results"></ul>

  <section id="players-view" aria-labelledby="players-heading">
    <h2 id="players-heading">Players</h2>
    <form id="filters" class="filters">
      <label>Era <select name="era"><option value="curr">Current</option><option value="class">Classic</option><option value="allt">All-time</option><option value="all">All</option></select></label>
      <label>Team <input name="team" type="text" maxlength="100" placeholder="name or slug"></label>
      <label>Position <select name="position"><option value="">(any)</option><option>PG</option><option>SG</option><option>SF</option><option>PF</option><option>C</option><option value="guard">Guard</option><option value="wing">Wing</option><option value="big">Big</option></select></label>
      <label>Min overall <input name="minRating" type="number" min="0" max="99" inputmode="numeric"></label>
      <label>Max overall <input name="maxRating" type="number" min="0" max="99" inputmode="numeric"></label>
      <label>Attribute <select name="attribute"></select></label>
      <label>at least <input name="attributeMin" type="number" min="0" max="99" inputmode="numeric"></label>
      <label>at most <input name="attributeMax" type="number" min="0" max="99" inputmode="numeric"></label>
      <label>Badge <select name="badge"></select></label>
      <button type="submit">Apply filters</button>
    </form>
    <div class="scroll">
      <table>
        <caption id="page-info">Players</caption>
        <thead><tr>
          <th scope="col"><button type="button" data-sort="name">Name</button></th>
          <th scope="col">Team</th><th scope="col">Era</th><th scope="col">Positions</th>
          <th scope="col" aria-sort="descending"><button type="button" data-sort="overall">Overall</button></th>
          <th scope="col"><button type="button" data-sort="attribute"><span id="attribute-heading-text">Attribute</span></button></th>
        </tr></thead>
        <tbody id="players-rows"></tbody>
      </table>
    </div>
    <div class="paging"><button id="prev-page" type="button">Previous page</button> <button id="next-page" type="button">Next page</button></div>
  </section>

  <section id="player-view" aria-labelledby="player-name" hidden>
    <h2 id="player-name" tabindex="-1"></h2>
    <p id="player-meta"></p>
    <button id="player-add-compare" type="button">Add to comparison</button>
    <div class="grid">
      <figure class="chart-box"><figcaption>Group scores (with the most similar player)</figcaption><div class="chart-area"><canvas id="player-radar" role="img" aria-label="Group scores"></canvas></div></figure>
      <figure class="chart-box court"><figcaption>Hot zones</figcaption><div class="chart-area court"><canvas id="zone-chart" role="img" aria-label="Hot zones on a half court; the table below lists them"></canvas></div>
        <table class="zones"><caption class="visually-hidden">Hot zones</caption><thead><tr><th scope="col">Zone</th><th scope="col">Shooting</th></tr></thead><tbody id="zone-rows"></tbody></table>
        <p id="zones-none">No hot zones recorded.</p>
      </figure>
      <figure class="chart-box"><figcaption>Overall by week (current edition)</figcaption><div class="chart-area"><canvas id="week-chart" role="img" aria-label="Overall by week"></canvas></div></figure>
      <figure class="chart-box"><figcaption>Overall by edition</figcaption><div class="chart-area"><canvas id="edition-chart" role="img" aria-label="Overall by edition"></canvas></div></figure>
    </div>
    <h3>Attributes</h3>
    <div id="attribute-groups" class="grid"></div>
    <h3>Badges by tier</h3>
    <div id="badge-tiers" class="tiers"></div>
    <h3>Similar players</h3>
    <ol id="similar-list"></ol>
  </section>

  <section id="team-view" aria-labelledby="team-name" hidden>
    <h2 id="team-name" tabindex="-1"></h2>
    <p id="team-meta"></p>
    <div class="grid">
      <figure class="chart-box"><figcaption>Group means and rank in the era</figcaption><div class="chart-area"><canvas id="team-groups" role="img" aria-label="Group means"></canvas></div></figure>
      <div>
        <p id="team-badges"></p>
        <p id="team-positions"></p>
      </div>
    </div>
    <div class="grid">
      <div class="scroll"><table><caption>Roster</caption><thead><tr><th scope="col">Player</th><th scope="col">Positions</th><th scope="col">Overall</th></tr></thead><tbody id="roster-rows"></tbody></table></div>
      <div class="scroll"><table><caption>Attributes: roster mean and best</caption><thead><tr><th scope="col">Attribute</th><th scope="col">Mean</th><th scope="col">Best</th></tr></thead><tbody id="team-attribute-rows"></tbody></table></div>
    </div>
  </section>

  <section id="compare-view" aria-labelledby="compare-title" hidden>
    <h2 id="compare-title" tabindex="-1">Compare players</h2>
    <form id="compare-form">
      <label for="compare-ids">Two to four ids or slugs, comma-separated</label>
      <input id="compare-ids" type="text" maxlength="480">
      <button type="submit">Compare</button>
    </form>
    <ul id="compare-choices" aria-label="Players picked for comparison"></ul>
    <button id="compare-link" type="button" hidden>Compare the picked players</button>
    <figure class="chart-box"><figcaption>Group scores, overlaid</figcaption><div class="chart-area"><canvas id="compare-radar" role="img" aria-label="Group scores"></canvas></div></figure>
    <div class="scroll"><table><caption>Side by side (best value marked)</caption><thead><tr id="compare-head"></tr></thead><tbody id="compare-rows"></tbody></table></div>
  </section>
</div>
</main>
<script src="explore/assets/explore.js"></script>
</body>
</html>
`;

const STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.45; color: #111827; background: #f9fafb; }
body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 1rem 0 .25rem; }
h2 { font-size: 1.35rem; margin-top: 1.25rem; }
a { color: #1d4ed8; }
a:focus, button:focus, input:focus, select:focus, [tabindex]:focus { outline: 3px solid #f59e0b; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: .5rem; background: #fff; padding: .25rem .5rem; }
[hidden] { display: none !important; }
.key-forms { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-end; }
fieldset { border: 1px solid #d1d5db; border-radius: .4rem; display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
label { font-weight: 600; }
input, select, button { font: inherit; padding: .3rem .5rem; border: 1px solid #9ca3af; border-radius: .3rem; background: #fff; min-height: 2.2rem; }
button { background: #1d4ed8; color: #fff; border-color: #1d4ed8; cursor: pointer; }
button:disabled { background: #9ca3af; border-color: #9ca3af; }
th button { background: none; color: inherit; border: none; padding: 0; font-weight: 700; text-decoration: underline; min-height: 0; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .75rem 0; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin-bottom: .75rem; }
.filters label { display: flex; flex-direction: column; font-size: .9rem; }
.filters input { width: 6rem; }
/* Positioned: what is absolutely positioned inside (the visually hidden "(best)" marks) scrolls and clips with the table instead of widening the page. */
.scroll { overflow-x: auto; position: relative; }
table { border-collapse: collapse; width: 100%; background: #fff; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
th, td { border-bottom: 1px solid #e5e7eb; padding: .3rem .5rem; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: 700; background: #dcfce7; }
.paging { margin: .5rem 0; display: flex; gap: .5rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); gap: 1rem; }
figure { margin: 0; }
.chart-box { background: #fff; border: 1px solid #e5e7eb; border-radius: .4rem; padding: .5rem; position: relative; }
/* Chart.js sizes a responsive chart to its parent: the parent's height must not depend on the chart. */
.chart-area { position: relative; height: 16rem; }
.chart-area.court { height: auto; aspect-ratio: 50 / 47; max-width: 24rem; margin: 0 auto; }
figcaption { font-weight: 600; margin-bottom: .25rem; }
.tiers { display: flex; flex-wrap: wrap; gap: 1rem; }
.tier h4 { margin: .25rem 0; }
.tier ul { margin: 0; padding-left: 1.1rem; }
.zones { margin-top: .5rem; font-size: .9rem; }
.zone-hot { color: #b91c1c; font-weight: 600; }
.zone-cold { color: #1d4ed8; font-weight: 600; }
.error { color: #b91c1c; font-weight: 600; }
.notice { background: #fef3c7; padding: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
#search-results { list-style: none; padding: 0; margin: .25rem 0; }
#search-results li { padding: .15rem 0; }
@media (max-width: 40rem) {
  body { padding: 0 .5rem 2rem; }
  h1 { font-size: 1.3rem; }
  .filters input { width: 4.5rem; }
  /* With attribute names that wrap between their words (explore.js), three players side by side fit a phone. */
  th, td { padding: .3rem .3rem; }
}
`;

/** Self only, no inline script or style; the script sends every request (forms submit nowhere). */
const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

export function exploreRoutes(): RouteDefinition[] {
  const page = staticReply(Buffer.from(PAGE), "text/html; charset=utf-8", [["Content-Security-Policy", PAGE_POLICY], ["Referrer-Policy", "no-referrer"]]);
  const style = staticReply(Buffer.from(STYLE), "text/css; charset=utf-8");
  // The bundle is read on first request (a build writes it after tsc; tables built only to be described never read it).
  let script: Reply | undefined;
  const assets = new Map<string, () => Reply>([
    ["explore.css", () => style],
    ["explore.js", () => (script ??= staticReply(readBuiltFile(EXPLORE_BUNDLE), "text/javascript; charset=utf-8"))],
  ]);
  const noParams = compileParams({});
  return [
    {
      method: "GET", path: EXPLORE_PATH, access: "address", params: noParams, summary: "Explorer page: search, players table, player, team and comparison views with charts (no API key to load; it asks for one)",
      response: { kind: "body", description: "The explorer page", content: { "text/html": { type: "string" } } },
      handle: () => page,
    },
    {
      method: "GET", path: EXPLORE_ASSET_PATH, access: "address", params: noParams, summary: "Files of the explorer page (its script bundles Chart.js)",
      response: { kind: "body", description: "A file of the explorer page", content: { "text/css": { type: "string" }, "text/javascript": { type: "string" } } },
      errors: ["NOT_FOUND"],
      handle: (context) => {
        return pageAsset(assets, context.pathParams.file ?? "", context.path)();
      },
    },
  ];
}
