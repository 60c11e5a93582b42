// The key dashboard's script (GET /dashboard): register for a key, see its usage, regenerate and
// revoke it. The key lives in api.ts's memory only: never in a URL, a cookie, storage or a log.

import { call, describeError, useKey } from "../api.js";
import { byId } from "../dom.js";

interface IssuedKey {
  apiKey: string;
  rateLimit: number;
}

interface Usage {
  apiKey: { prefix: string; name?: string; email: string; createdAt: string; rateLimit: number };
  remaining: number;
  resetAt: string;
  totalRequests: number;
  lastRequest: string | null;
  recentRequests: { timestamp: string; method: string; endpoint: string; statusCode: number; responseTime: number }[];
}

const status = byId("status", HTMLElement);
const errorBox = byId("error", HTMLElement);
const usageBox = byId("usage", HTMLElement);
const issuedBox = byId("issued", HTMLElement);
const issuedKey = byId("issued-key", HTMLElement);
const copyStatus = byId("copy-status", HTMLElement);
const keyField = byId("api-key", HTMLInputElement);
const registerSubmit = byId("register-submit", HTMLButtonElement);

function say(text: string): void {
  status.textContent = text;
}

function fail(text: string): void {
  errorBox.textContent = text;
  errorBox.hidden = text === "";
}

function showIssued(key: string): void {
  issuedKey.textContent = key;
  copyStatus.textContent = "";
  issuedBox.hidden = false;
  byId("copy-key", HTMLButtonElement).focus();
}

/** Holds `key` for the calls that follow; a pasted key leaves its field. */
function holdKey(key: string): void {
  useKey(key);
  keyField.value = "";
}

function cell(row: HTMLTableRowElement, content: string | Node, className = ""): void {
  const td = document.createElement("td");
  td.append(content);
  if (className !== "") td.className = className;
  row.append(td);
}

/** A path that wraps only after its slashes (a <wbr> after each), never inside a word. */
function pathText(path: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  path.split(/(?<=\/)/).forEach((part, i) => {
    if (i > 0) fragment.append(document.createElement("wbr"));
    fragment.append(part);
  });
  return fragment;
}

/** A time as its date and its clock, each kept whole (style.css): the cell wraps between them only. */
function whenText(iso: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const text = local(iso);
  const at = text.lastIndexOf(", ");
  for (const part of at === -1 ? [text] : [text.slice(0, at + 1), " ", text.slice(at + 2)]) {
    if (part === " ") fragment.append(part);
    else fragment.append(Object.assign(document.createElement("span"), { textContent: part }));
  }
  return fragment;
}

function local(iso: string): string {
  return new Date(iso).toLocaleString();
}

function render(usage: Usage): void {
  const key = usage.apiKey;
  byId("usage-prefix", HTMLElement).textContent = `${key.prefix}…`;
  byId("usage-holder", HTMLElement).textContent = key.name ? `${key.name} <${key.email}>` : key.email;
  byId("usage-created", HTMLElement).textContent = local(key.createdAt);
  byId("usage-remaining", HTMLElement).textContent = `${usage.remaining} of ${key.rateLimit} per hour (full again ${local(usage.resetAt)})`;
  byId("usage-total", HTMLElement).textContent = String(usage.totalRequests);
  byId("usage-last", HTMLElement).textContent = usage.lastRequest ? local(usage.lastRequest) : "none yet";
  const body = byId("recent", HTMLTableSectionElement);
  body.textContent = "";
  for (const entry of usage.recentRequests) {
    const row = document.createElement("tr");
    cell(row, whenText(entry.timestamp), "when");
    cell(row, entry.method);
    cell(row, pathText(entry.endpoint), "endpoint");
    cell(row, String(entry.statusCode), "number");
    cell(row, `${entry.responseTime.toFixed(2)} ms`, "number");
    body.append(row);
  }
  if (usage.recentRequests.length === 0) {
    const empty = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 5;
    td.textContent = "No requests yet.";
    empty.append(td);
    body.append(empty);
  }
  usageBox.hidden = false;
}

/** `isQuiet`: after a register or regenerate, whose own message stays on show. */
async function refresh(isQuiet: boolean): Promise<void> {
  fail("");
  try {
    const usage = (await call<Usage>("api/dashboard/usage", { isFresh: true })).data;
    render(usage);
    if (!isQuiet) say(`Usage of key ${usage.apiKey.prefix}… as of ${new Date().toLocaleTimeString()}.`);
  } catch (error) {
    usageBox.hidden = true;
    fail(describeError(error));
  }
}

byId("register-form", HTMLFormElement).addEventListener("submit", async (event) => {
  event.preventDefault();
  fail("");
  const purpose = byId("register-purpose", HTMLInputElement).value.trim();
  const body: Record<string, string> = {
    email: byId("register-email", HTMLInputElement).value.trim(),
    name: byId("register-name", HTMLInputElement).value.trim(),
  };
  if (purpose !== "") body.purpose = purpose;
  registerSubmit.disabled = true;
  useKey("");
  try {
    const issued = (await call<IssuedKey>("api/register", { method: "POST", body, withKey: false, isFresh: true })).data;
    holdKey(issued.apiKey);
    showIssued(issued.apiKey);
    say(`Key created: ${issued.rateLimit} requests per hour.`);
    await refresh(true);
  } catch (error) {
    fail(describeError(error));
  }
  registerSubmit.disabled = false;
});

byId("copy-key", HTMLButtonElement).addEventListener("click", () => {
  const key = issuedKey.textContent ?? "";
  if (navigator.clipboard !== undefined && window.isSecureContext) {
    navigator.clipboard.writeText(key).then(
      () => { copyStatus.textContent = "Copied."; },
      () => { copyStatus.textContent = "Copy failed: select the key and copy it by hand."; },
    );
    return;
  }
  // Plain http (no Clipboard API outside a secure context): the old copy command, else the key selected for the reader.
  const range = document.createRange();
  range.selectNodeContents(issuedKey);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  copyStatus.textContent = document.execCommand("copy") ? "Copied." : "Selected: press Ctrl+C to copy.";
});

byId("key-form", HTMLFormElement).addEventListener("submit", (event) => {
  event.preventDefault();
  holdKey(keyField.value);
  issuedBox.hidden = true;
  void refresh(false);
});

byId("refresh", HTMLButtonElement).addEventListener("click", () => void refresh(false));

byId("regenerate", HTMLButtonElement).addEventListener("click", async () => {
  if (!window.confirm("Replace this key by a new one? The current key stops working at once, everywhere it is used.")) return;
  fail("");
  try {
    const issued = (await call<IssuedKey>("api/keys/regenerate", { method: "POST", isFresh: true })).data;
    holdKey(issued.apiKey);
    showIssued(issued.apiKey);
    say("Key regenerated: the old key no longer works.");
    await refresh(true);
  } catch (error) {
    fail(describeError(error));
  }
});

byId("revoke", HTMLButtonElement).addEventListener("click", async () => {
  if (!window.confirm("Revoke this key? It stops working at once and cannot be restored.")) return;
  fail("");
  try {
    const revoked = (await call<{ prefix: string }>("api/keys/current", { method: "DELETE", isFresh: true })).data;
    useKey("");
    usageBox.hidden = true;
    issuedBox.hidden = true;
    say(`Key ${revoked.prefix}… revoked.`);
  } catch (error) {
    fail(describeError(error));
  }
});
