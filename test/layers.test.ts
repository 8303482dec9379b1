// The layers of spec/style.md, checked on the import graph: grammar and ast
// import nothing of ours but each other; rewrite and printer do no I/O;
// filters know no host; hosts know no filter; routes know no filter code; the
// runtime knows no CLI, the permission rules no runtime, the accounting no host; and
// no module imports itself through others (type imports included).
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import { importCycles, importGraph, layerViolations, type ImportGraph, type LayerRule } from "./support/imports.js";
import { allRoutes } from "../src/routes/registry.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

const IO = ["node:fs", "node:fs/promises", "node:child_process", "node:net", "node:http", "node:https", "node:os", "node:worker_threads", "execa"];

export const LAYERS: readonly LayerRule[] = [
  { from: "grammar", only: ["grammar", "src/ast"], forbid: IO, why: "the grammar imports nothing of ours but the AST, and does no I/O" },
  { from: "src/ast", only: ["src/ast", "grammar"], forbid: IO, why: "the AST imports nothing of ours but the grammar, and does no I/O" },
  { from: "src/rewrite", forbid: [...IO, "src/runtime", "src/hosts", "src/cli", "src/config", "src/fs"], why: "the rewrite does no I/O" },
  { from: "src/printer", forbid: [...IO, "src/runtime", "src/hosts", "src/cli", "src/config", "src/fs"], why: "the printer does no I/O" },
  { from: "src/filters", forbid: ["src/hosts", "src/permissions", "src/runtime", "src/cli"], why: "filters know no host and no runtime" },
  { from: "src/hosts", forbid: ["src/filters", "src/runtime"], why: "hosts know no tool's filter" },
  { from: "src/routes", forbid: ["src/filters", "src/runtime", "src/hosts"], why: "the route tables know no filter code (routing.ts joins them)" },
  { from: "src/runtime", forbid: ["src/cli"], why: "the runtime runs tools: rtk's own command line sits above it" },
  { from: "src/permissions", forbid: ["src/runtime", "src/cli", "src/hosts"], why: "the permission rules are read below the hosts and the runtime" },
  { from: "src/accounting", forbid: ["src/hosts", "src/cli"], why: "the accounting records what hosts and commands did, and knows neither's code" },
];

describe("rtk's sources", () => {
  const graph = importGraph(ROOT, ["src", "grammar"]);

  test("the graph is read (a sanity check of the reader)", () => {
    assert.ok(graph.size > 50);
    assert.ok(graph.get("src/api.ts")?.includes("src/routing.ts"), JSON.stringify(graph.get("src/api.ts")));
  });

  test("no import crosses a layer", () => {
    assert.deepEqual(layerViolations(graph, LAYERS), []);
  });

  test("no import cycle", () => {
    assert.deepEqual(
      importCycles(graph).map((c) => c.join(" → ")),
      [],
    );
  });
});

describe("the checks catch a violation", () => {
  test("in a synthetic graph", () => {
    const g: ImportGraph = new Map([
      ["src/filters/a.ts", ["src/hosts/index.ts", "src/filters/types.ts"]],
      ["src/printer/p.ts", ["node:fs", "src/ast/nodes.ts"]],
      ["src/ast/nodes.ts", ["src/printer/p.ts"]],
      ["src/filters/types.ts", []],
    ]);
    assert.deepEqual(layerViolations(g, LAYERS).sort(), [
      "src/ast/nodes.ts → src/printer/p.ts (the AST imports nothing of ours but the grammar, and does no I/O)",
      "src/filters/a.ts → src/hosts/index.ts (filters know no host and no runtime)",
      "src/printer/p.ts → node:fs (the printer does no I/O)",
    ]);
    assert.deepEqual(importCycles(g), [["src/printer/p.ts", "src/ast/nodes.ts", "src/printer/p.ts"]]);
  });

  test("in a crafted tree of files", () => {
    const g = importGraph(join(ROOT, "test", "fixtures", "layers"), ["src", "grammar"]);
    assert.deepEqual(layerViolations(g, LAYERS).sort(), [
      "grammar/parse.ts → node:fs (the grammar imports nothing of ours but the AST, and does no I/O)",
      "grammar/parse.ts → src/filters/leaky.ts (the grammar imports nothing of ours but the AST, and does no I/O)",
      "src/filters/leaky.ts → src/hosts/index.ts (filters know no host and no runtime)",
    ]);
    assert.deepEqual(importCycles(g), [["grammar/back.ts", "grammar/parse.ts", "grammar/back.ts"]]);
  });
});

// ---- hosts name no tool -----------------------------------------------------------------
// What a host tells an agent (the rules block) and what doctor runs come from the
// route registry; a tool name written in a host file would go stale the day its
// filter does (or promise one that never existed).

/** The string literals of a TypeScript source, comments left out. */
function literals(src: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === "/" && src[i + 1] === "/") i = src.indexOf("\n", i) < 0 ? src.length : src.indexOf("\n", i);
    else if (c === "/" && src[i + 1] === "*") i = src.indexOf("*/", i + 2) < 0 ? src.length : src.indexOf("*/", i + 2) + 1;
    else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === "\\" ? 2 : 1;
      out.push(src.slice(i + 1, j));
      i = j;
    }
  }
  return out;
}

/** The routed tools a source's literals name as a command: first word, or the word after `rtk `. */
export function toolNamesIn(src: string, tools: readonly string[]): string[] {
  const hits: string[] = [];
  for (const lit of literals(src)) {
    for (const tool of tools) {
      const t = tool.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (new RegExp(`^\\s*${t}(\\s|$)|(^|[^\\w/-])rtk ${t}(?![\\w-])`).test(lit)) hits.push(`${tool} in ${JSON.stringify(lit.slice(0, 60))}`);
    }
  }
  return hits;
}

describe("host files name no tool (the rules block and doctor's sample come from the routes)", () => {
  const tools = [...new Set(allRoutes().map((r) => r.tool))];

  test("no literal in src/hosts starts with a routed tool or puts `rtk` before one", () => {
    const dir = join(ROOT, "src", "hosts");
    const hits = readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => toolNamesIn(readFileSync(join(dir, f), "utf8"), tools).map((h) => `src/hosts/${f}: ${h}`));
    assert.deepEqual(hits, []);
  });

  test("the check catches one (and not a comment)", () => {
    const src = ["// `git status` in a comment is fine", 'const SAMPLE = "git status";', "const block = `use rtk ls here`;", 'const env = w.env["HOME"];'].join("\n");
    assert.deepEqual(toolNamesIn(src, tools).sort(), ['git in "git status"', 'ls in "use rtk ls here"']);
  });
});
