// Module hooks that run the TypeScript sources as they are, for tap and for the processes tests
// start with its arguments (test/typescript.mjs registers them): a relative `.js` import that has a
// `.ts` file beside it (how the sources import each other) resolves to that file, and a `.ts` file
// is transpiled by esbuild (already a dependency: deploy/launch.mjs builds dist/ with it), one file
// at a time with an inline source map, as launch.mjs does for dist/. Type-checking is tsc's, in npm
// test's first step. Synchronous, so the same two hooks serve `module.registerHooks` (Node 22.15 and
// later, in thread) and `module.register` (Node 20, on the hooks thread).

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const TSCONFIG = { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } };

export function resolve(specifier, context, nextResolve) {
  if (specifier.endsWith(".js") && /^(\.\.?\/|\/|file:)/.test(specifier)) {
    const js = new URL(specifier, context.parentURL ?? `file://${process.cwd()}/`);
    if (!existsSync(js)) {
      const ts = new URL(`${js.href.slice(0, -3)}.ts`);
      if (existsSync(ts)) return { url: ts.href, format: "module", shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { code } = transformSync(readFileSync(file, "utf8"), {
    loader: "ts", format: "esm", target: "es2023", sourcemap: "inline", sourcefile: file, tsconfigRaw: TSCONFIG,
  });
  return { format: "module", source: code, shortCircuit: true };
}
