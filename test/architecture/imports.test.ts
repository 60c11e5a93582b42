// The import graph of src/, checked: no circle between files, none between folders, and every
// import pointing down the declared layer order (docs/architecture.md draws the same map). A
// failure names the files of the circle or the import that points up. The checks are first run
// on small graphs with a circle and an upward import put in on purpose, so they are known to fail.

import t from "tap";
import { fileURLToPath } from "node:url";
import { findCircles, folderGraph, layerViolations, scanImports, type LayerOrder } from "./import-graph.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Lowest first: a folder may import only folders of layers below its own. */
const LAYERS: LayerOrder = [
  // Leaves: the record model, the generic MessagePack document codec, text escaping, assets.
  ["model", "codec", "text", "assets.ts", "usage.ts", "node-version.ts"],
  // Rate limiting's shared-memory structures (buckets, usage rings, live counters and budgets, trust-proxy).
  ["limits"],
  // The in-memory store and its snapshot file.
  ["store"],
  // Queries over the store; the configuration (which bounds snapshots and limits); the exports' encoders (CSV, Parquet, Arrow).
  ["query", "config.ts", "export"],
  // API keys; logging and metrics; the demo generator.
  ["keys", "ops", "pipeline/demo"],
  // The offline pipeline (importers, builds); the shared store (Redis) for limits and keys.
  ["pipeline", "redis"],
  // Sync from an upstream; the HTTP core (adapter, dispatcher, router, replies, live).
  ["sync", "http"],
  // What describes the routes (OpenAPI, llms.txt, response schemas).
  ["http/describe"],
  // The browser pages: what they share (the API module, DOM helpers), then each page. They import
  // nothing of the server's (a test of src/web/ checks they build as browser code on their own).
  ["web"],
  ["web/explore", "web/dashboard", "web/docs"],
  // The routes and their table.
  ["http/routes"],
  // The composition root: service, worker threads, supervisor, commands, entry points.
  ["app"],
];

const graph = scanImports(SRC);

t.test("the checks fail on a graph with a circle or an upward import", async (t) => {
  const circular = new Map([
    ["store/a.ts", ["store/b.ts"]],
    ["store/b.ts", ["query/c.ts"]],
    ["query/c.ts", ["store/a.ts", "model/d.ts"]],
    ["model/d.ts", []],
  ]);
  t.same(findCircles(circular), [["query/c.ts", "store/a.ts", "store/b.ts", "query/c.ts"]], "the circle, named file by file");
  t.same(findCircles(folderGraph(circular)), [["query", "store", "query"]], "and between folders");
  t.same(layerViolations(circular, [["model"], ["store"], ["query"]]), [
    "store/b.ts imports query/c.ts: store (layer 1) may only import layers below it, and query is layer 2",
  ]);
  t.same(layerViolations(new Map([["extra/e.ts", []]]), [["model"]]), ["extra is in no layer of the declared order: place it"]);
  t.same(findCircles(new Map([["model/d.ts", ["model/d.ts"]]])), [["model/d.ts", "model/d.ts"]], "a file importing itself");
});

t.test("the scanner sees the imports of src/", async (t) => {
  t.ok(graph.size > 100, `${graph.size} files`);
  t.ok(graph.get("store/edition.ts")?.includes("store/snapshot.ts"), "a static import");
  t.ok(graph.get("app/serve.ts")?.includes("pipeline/demo.ts"), "a dynamic import()");
  t.ok(graph.get("store/fragments.ts")?.includes("model/player.ts"), "an import of values and types");
  t.ok(graph.get("http/router.ts")?.includes("http/context.ts"), "an `import type`");
});

t.test("no circle between files of src/", async (t) => {
  t.same(findCircles(graph).map((circle) => circle.join(" → ")), []);
});

t.test("no circle between folders of src/", async (t) => {
  t.same(findCircles(folderGraph(graph)).map((circle) => circle.join(" → ")), []);
});

t.test("every import points down the layer order", async (t) => {
  t.same(layerViolations(graph, LAYERS), []);
});
