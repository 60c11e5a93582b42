// GET /dashboard: one hand-written page (HTML, a script and a style sheet, no framework, nothing
// from another host) where people register for a key, see its usage, regenerate and revoke it.
// The key lives only in the script's memory: never in a URL, a cookie, storage or a log.

import { compileParams } from "../../query/params.js";
import type { Reply } from "../reply.js";
import type { RouteDefinition } from "../router.js";
import { pageAsset, staticReply } from "../static-reply.js";

export const DASHBOARD_PATH = "/dashboard";
export const DASHBOARD_ASSET_PATH = "/dashboard/assets/:file";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Courtside API keys</title>
<link rel="stylesheet" href="dashboard/assets/dashboard.css">
<link rel="icon" href="data:,">
</head>
<body>
<header>
  <h1>Courtside API keys</h1>
  <p>Get a key, watch its usage, replace or revoke it. There is no password: holding the key is the proof, so keep it secret.
  The reference for every route is at <a href="docs">/docs</a>.</p>
</header>
<main>
  <noscript><p class="notice">This page needs JavaScript. Without it, ask the operator for a key (<code>npm run keys -- create</code>).</p></noscript>
  <p id="status" role="status" aria-live="polite"></p>
  <p id="error" class="error" role="alert" hidden></p>

  <section aria-labelledby="register-heading">
    <h2 id="register-heading">Register for a key</h2>
    <form id="register-form">
      <label for="register-email">E-mail</label>
      <input id="register-email" name="email" type="email" autocomplete="email" required maxlength="254">
      <label for="register-name">Name (you or your application)</label>
      <input id="register-name" name="name" type="text" autocomplete="name" required maxlength="100">
      <label for="register-purpose">What is it for? <span class="optional">(optional)</span></label>
      <input id="register-purpose" name="purpose" type="text" maxlength="500">
      <button id="register-submit" type="submit">Register</button>
    </form>
  </section>

  <section id="issued" aria-labelledby="issued-heading" hidden>
    <h2 id="issued-heading">Your new key</h2>
    <p class="notice"><strong>Store it now.</strong> This key is shown only this once: the server keeps only its SHA-256 digest and cannot show it again.</p>
    <p><code id="issued-key" class="key"></code></p>
    <button id="copy-key" type="button">Copy key</button>
    <span id="copy-status" role="status" aria-live="polite"></span>
  </section>

  <section aria-labelledby="usage-heading">
    <h2 id="usage-heading">Your key's usage</h2>
    <form id="key-form">
      <label for="api-key">API key</label>
      <input id="api-key" name="apiKey" type="password" autocomplete="off" spellcheck="false" required placeholder="2k_…" pattern="2k_[a-z0-9]{32}">
      <button id="show-usage" type="submit">Show usage</button>
    </form>
    <div id="usage" hidden>
      <dl>
        <dt>Key</dt><dd id="usage-prefix"></dd>
        <dt>Holder</dt><dd id="usage-holder"></dd>
        <dt>Created</dt><dd id="usage-created"></dd>
        <dt>Remaining</dt><dd id="usage-remaining"></dd>
        <dt>Total requests</dt><dd id="usage-total"></dd>
        <dt>Last request</dt><dd id="usage-last"></dd>
      </dl>
      <table>
        <caption>Last ten requests, newest first</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col">Response time</th></tr></thead>
        <tbody id="recent"></tbody>
      </table>
      <div class="actions">
        <button id="refresh" type="button">Refresh</button>
        <button id="regenerate" type="button">Regenerate key…</button>
        <button id="revoke" type="button" class="danger">Revoke key…</button>
      </div>
    </div>
  </section>
</main>
<script src="dashboard/assets/dashboard.js"></script>
</body>
</html>
`;

const STYLE = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 52rem; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.25rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; }
section { border-top: 1px solid #8886; }
form { display: grid; grid-template-columns: max-content minmax(12rem, 28rem); gap: 0.5rem 1rem; align-items: center; }
form button { grid-column: 2; justify-self: start; }
input { font: inherit; padding: 0.35rem 0.5rem; }
button { font: inherit; padding: 0.35rem 0.9rem; cursor: pointer; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #2a7de1; outline-offset: 2px; }
.optional { font-weight: normal; opacity: 0.75; }
.notice { background: #fff4cc; color: #3d3000; padding: 0.5rem 0.75rem; border-left: 4px solid #d9a400; }
.error { background: #fde2e1; color: #6b0f0a; padding: 0.5rem 0.75rem; border-left: 4px solid #c0392b; }
.key { font-size: 1.05rem; word-break: break-all; padding: 0.25rem 0.5rem; background: #8882; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid #8884; }
.actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
.danger { color: #fff; background: #b3261e; border: 1px solid #8c1d18; }
`;

// Plain ES2017, no template literals (this is itself inside one). Relative URLs, so the page also
// works behind a proxy that mounts the service under a prefix.
const SCRIPT = `"use strict";
(function () {
  var apiKey = ""; // in this closure only: never in a URL, a cookie or storage
  var byId = function (id) { return document.getElementById(id); };

  function say(text) { byId("status").textContent = text; }
  function fail(text) {
    var box = byId("error");
    box.textContent = text;
    box.hidden = text === "";
  }

  function call(method, path, body) {
    var headers = {};
    if (apiKey !== "") headers["X-API-Key"] = apiKey;
    var init = { method: method, headers: headers, credentials: "omit", cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (response) {
      return response.json().then(function (payload) {
        if (!payload.success) {
          var error = new Error(payload.error.message + " (" + payload.error.code + ")");
          error.code = payload.error.code;
          throw error;
        }
        return payload.data;
      });
    });
  }

  function showIssued(key) {
    byId("issued-key").textContent = key;
    byId("copy-status").textContent = "";
    byId("issued").hidden = false;
    byId("copy-key").focus();
  }

  function useKey(key) {
    apiKey = key;
    byId("api-key").value = "";
  }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
  }

  function local(iso) { return new Date(iso).toLocaleString(); }

  function render(usage) {
    byId("usage-prefix").textContent = usage.apiKey.prefix + "…";
    byId("usage-holder").textContent = (usage.apiKey.name ? usage.apiKey.name + " <" + usage.apiKey.email + ">" : usage.apiKey.email);
    byId("usage-created").textContent = local(usage.apiKey.createdAt);
    byId("usage-remaining").textContent = usage.remaining + " of " + usage.apiKey.rateLimit + " per hour (full again " + local(usage.resetAt) + ")";
    byId("usage-total").textContent = String(usage.totalRequests);
    byId("usage-last").textContent = usage.lastRequest ? local(usage.lastRequest) : "none yet";
    var body = byId("recent");
    body.textContent = "";
    usage.recentRequests.forEach(function (entry) {
      var row = document.createElement("tr");
      cell(row, local(entry.timestamp));
      cell(row, entry.method);
      cell(row, entry.endpoint);
      cell(row, String(entry.statusCode));
      cell(row, entry.responseTime.toFixed(2) + " ms");
      body.appendChild(row);
    });
    if (usage.recentRequests.length === 0) {
      var empty = document.createElement("tr");
      var td = document.createElement("td");
      td.colSpan = 5;
      td.textContent = "No requests yet.";
      empty.appendChild(td);
      body.appendChild(empty);
    }
    byId("usage").hidden = false;
  }

  // isQuiet: after a register or regenerate, whose own message stays on show.
  function refresh(isQuiet) {
    fail("");
    return call("GET", "api/dashboard/usage").then(function (usage) {
      render(usage);
      if (!isQuiet) say("Usage of key " + usage.apiKey.prefix + "… as of " + new Date().toLocaleTimeString() + ".");
    }).catch(function (error) {
      byId("usage").hidden = true;
      fail(error.message);
    });
  }

  byId("register-form").addEventListener("submit", function (event) {
    event.preventDefault();
    fail("");
    var purpose = byId("register-purpose").value.trim();
    var body = { email: byId("register-email").value.trim(), name: byId("register-name").value.trim() };
    if (purpose !== "") body.purpose = purpose;
    byId("register-submit").disabled = true;
    apiKey = "";
    call("POST", "api/register", body).then(function (data) {
      useKey(data.apiKey);
      showIssued(data.apiKey);
      say("Key created: " + data.rateLimit + " requests per hour.");
      return refresh(true);
    }).catch(function (error) { fail(error.message); })
      .then(function () { byId("register-submit").disabled = false; });
  });

  byId("copy-key").addEventListener("click", function () {
    var key = byId("issued-key").textContent;
    var done = function () { byId("copy-status").textContent = "Copied."; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(key).then(done, function () { byId("copy-status").textContent = "Copy failed: select the key and copy it by hand."; });
    } else {
      var range = document.createRange();
      range.selectNodeContents(byId("issued-key"));
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      byId("copy-status").textContent = document.execCommand("copy") ? "Copied." : "Selected: press Ctrl+C to copy.";
    }
  });

  byId("key-form").addEventListener("submit", function (event) {
    event.preventDefault();
    useKey(byId("api-key").value.trim());
    byId("issued").hidden = true;
    refresh(false);
  });

  byId("refresh").addEventListener("click", function () { refresh(false); });

  byId("regenerate").addEventListener("click", function () {
    if (!window.confirm("Replace this key by a new one? The current key stops working at once, everywhere it is used.")) return;
    fail("");
    call("POST", "api/keys/regenerate").then(function (data) {
      useKey(data.apiKey);
      showIssued(data.apiKey);
      say("Key regenerated: the old key no longer works.");
      return refresh(true);
    }).catch(function (error) { fail(error.message); });
  });

  byId("revoke").addEventListener("click", function () {
    if (!window.confirm("Revoke this key? It stops working at once and cannot be restored.")) return;
    fail("");
    call("DELETE", "api/keys/current").then(function (data) {
      apiKey = "";
      byId("usage").hidden = true;
      byId("issued").hidden = true;
      say("Key " + data.prefix + "… revoked.");
    }).catch(function (error) { fail(error.message); });
  });
})();
`;

/** Self only, no inline script or style; no form ever submits anywhere (the script sends the requests). */
const PAGE_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

export function dashboardRoutes(): RouteDefinition[] {
  const page = staticReply(Buffer.from(PAGE), "text/html; charset=utf-8", [
    ["Content-Security-Policy", PAGE_POLICY],
    ["Referrer-Policy", "no-referrer"],
  ]);
  const assets = new Map<string, Reply>([
    ["dashboard.js", staticReply(Buffer.from(SCRIPT), "text/javascript; charset=utf-8")],
    ["dashboard.css", staticReply(Buffer.from(STYLE), "text/css; charset=utf-8")],
  ]);
  const noParams = compileParams({});
  return [
    {
      method: "GET", path: DASHBOARD_PATH, access: "address", params: noParams, summary: "Key dashboard page: register, usage, regenerate, revoke (no API key)",
      response: { kind: "body", description: "The key dashboard page", content: { "text/html": { type: "string" } } },
      handle: () => page,
    },
    {
      method: "GET", path: DASHBOARD_ASSET_PATH, access: "address", params: noParams, summary: "Files of the key dashboard page",
      response: { kind: "body", description: "A file of the dashboard page", content: { "text/css": { type: "string" }, "text/javascript": { type: "string" } } },
      errors: ["NOT_FOUND"],
      handle: (context) => {
        return pageAsset(assets, context.pathParams.file ?? "", context.path);
      },
    },
  ];
}
