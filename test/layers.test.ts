// The layers of spec/style.md, checked on the import graph: grammar and ast
// import nothing of ours but each other; rewrite and printer do no I/O;
// filters know no host; hosts know no filter; routes know no filter code; and
// no module imports itself through others (type imports included).
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { importCycles, importGraph, layerViolations, type ImportGraph, type LayerRule } from "./support/imports.js";

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
    assert.deepEqual(importCycles(graph).map((c) => c.join(" → ")), []);
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
