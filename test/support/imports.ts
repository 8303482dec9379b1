// The import graph of rtk's sources, read from the files (static `import … from`
// and `export … from`, dynamic `import("…")`), and checks over it: which folder
// may import which, and cycles.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Module → the modules and packages it imports (ours as paths relative to the root, others as written). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s([^'"]*?)from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** `runtime`: only the imports that load a module when it runs (`import type` is erased). */
export function importGraph(root: string, folders: readonly string[], opts: { runtime?: boolean } = {}): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const file of tsFiles(join(root, folder))) {
      const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      const deps: string[] = [];
      for (const m of text.matchAll(SPECIFIER)) {
        if (opts.runtime && m[1] !== undefined && /^type\s/.test(m[1])) continue;
        const spec = m[2] ?? m[3] ?? m[4]!;
        deps.push(spec.startsWith(".") ? relative(root, resolve(dirname(file), spec)).replace(/\.js$/, ".ts") : spec);
      }
      graph.set(relative(root, file), deps);
    }
  }
  return graph;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

export interface LayerRule {
  /** Modules the rule applies to: those under this folder (relative to the root). */
  from: string;
  /** What they may not import: folders of ours, packages (`node:fs`), or both. */
  forbid?: readonly string[];
  /** When given, the only folders of ours they may import. */
  only?: readonly string[];
  why: string;
}

const under = (path: string, folder: string) => path === folder || path.startsWith(folder + "/");
const ours = (spec: string) => spec.startsWith("src/") || spec.startsWith("grammar/");

/** Every import that breaks a rule, as `module → import (why)`. */
export function layerViolations(graph: ImportGraph, rules: readonly LayerRule[]): string[] {
  const out: string[] = [];
  for (const [mod, deps] of graph) {
    for (const rule of rules) {
      if (!under(mod, rule.from)) continue;
      for (const dep of deps) {
        const forbidden = rule.forbid?.some((f) => under(dep, f)) || (rule.only !== undefined && ours(dep) && !rule.only.some((f) => under(dep, f)));
        if (forbidden) out.push(`${mod} → ${dep} (${rule.why})`);
      }
    }
  }
  return out;
}

/** The import cycles among our modules, each as the path that closes it. */
export function importCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (m: string) => {
    state.set(m, "open");
    stack.push(m);
    for (const d of graph.get(m) ?? []) {
      if (!graph.has(d)) continue;
      if (state.get(d) === "open") cycles.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(m, "done");
  };
  for (const m of graph.keys()) if (!state.has(m)) visit(m);
  return cycles;
}
