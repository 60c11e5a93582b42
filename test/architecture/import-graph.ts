// A small scanner of the import graph of src/: every relative specifier of every .ts file
// (static imports and exports, `import type`, and dynamic `import("…")`), resolved to the file it
// names. Type-only imports count: a circle of types is still a circle to whoever reads the code.
// What it finds is checked by imports.test.ts; the functions take the graph as data, so that test
// can also run them on a graph with a circle put in on purpose.

import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";

/** File (relative to src/, with `/`) → the files of src/ it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SPECIFIER = /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[\w*$\s{},]*?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

export function scanImports(srcDir: string): ImportGraph {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) files.push(relative(srcDir, path).split(sep).join("/"));
    }
  };
  walk(srcDir);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const text = readFileSync(join(srcDir, file), "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (!specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, ".ts");
      // A specifier that leaves src/ (or names a non-.ts asset) is not part of the graph.
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The node a file belongs to: its folder (`http/routes`), or the file itself when it sits at the top of src/. */
export function folderOf(file: string): string {
  const dir = posix.dirname(file);
  return dir === "." ? file : dir;
}

/** The graph between folders (an edge wherever a file of one imports a file of another). */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const set = edges.get(from) ?? new Set<string>();
    edges.set(from, set);
    for (const target of targets) if (folderOf(target) !== from) set.add(folderOf(target));
  }
  return new Map([...edges].map(([node, set]) => [node, [...set].sort()]));
}

/**
 * Every circle of the graph, one per strongly connected component of more than one node (or a
 * node importing itself), written as the path that goes round it: `a → b → c → a`.
 */
export function findCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components.map((component) => circleThrough(graph, new Set(component)));
}

/** A path round a strongly connected component, from its first node (in sorted order) back to it. */
function circleThrough(graph: ImportGraph, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0] as string;
  // Breadth-first from start, inside the component, to the first node that imports start.
  const previous = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (members.has(target) && !previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/**
 * Layers, lowest first; each lists folders (or top-level files) of src/. The last is the
 * composition root: its files wire everything together and may import each other.
 */
export type LayerOrder = readonly (readonly string[])[];

/**
 * The imports that break the layer order: a folder may import its own files and those of lower
 * layers, never a folder of its own layer or of a higher one (the composition root excepted,
 * within itself). A folder the order does not list is reported too: a new folder must be placed.
 */
export function layerViolations(graph: ImportGraph, layers: LayerOrder): string[] {
  const layerOf = new Map<string, number>();
  layers.forEach((names, layer) => names.forEach((name) => layerOf.set(name, layer)));
  const root = layers.length - 1;
  const problems: string[] = [];
  for (const folder of new Set([...graph.keys()].map(folderOf))) {
    if (!layerOf.has(folder)) problems.push(`${folder} is in no layer of the declared order: place it`);
  }
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    for (const target of targets) {
      const to = folderOf(target);
      const fromLayer = layerOf.get(from);
      const toLayer = layerOf.get(to);
      if (to === from || fromLayer === undefined || toLayer === undefined) continue;
      if (toLayer < fromLayer || (toLayer === root && fromLayer === root)) continue;
      problems.push(`${file} imports ${target}: ${from} (layer ${fromLayer}) may only import layers below it, and ${to} is layer ${toLayer}`);
    }
  }
  return problems;
}
