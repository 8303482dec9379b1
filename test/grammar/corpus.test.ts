// Differential tests over the shared corpora: bash -n decides what parses, shfmt
// checks that our tree means the same as mvdan/sh's, and the lossless printer
// gives back every input byte for byte.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { parse } from "../../grammar/parse.js";
import { withoutSpans } from "../../src/ast/walk.js";
import { printCanonical } from "../../src/printer/canonical.js";
import { printLossless } from "../../src/printer/lossless.js";
import { corpusAvailable, corpusInputs, inputId } from "../support/corpus.js";
import { eachInShell } from "../support/each-in-shell.js";

const known = JSON.parse(readFileSync(new URL("./known-disagreements.json", import.meta.url), "utf8")) as Record<"bash" | "shfmt", { id: string; reason: string }[]>;
const skip = corpusAvailable() ? false : "corpus not found (../shared/corpus)";
const hasShfmt = spawnSync("shfmt", ["--version"]).status === 0;

describe("shared corpus", { skip }, () => {
  const inputs = skip ? [] : corpusInputs();

  test("bash -n and rtk accept and reject the same inputs", () => {
    const checked = eachInShell(
      'bash -n "$f"',
      inputs.map((i) => i.src),
    );
    const allowed = new Set(known.bash.map((k) => k.id));
    const disagreements: string[] = [];
    const seen = new Set<string>();
    inputs.forEach(({ where, src }, i) => {
      const b = checked[i]!;
      // A warning (a here-document ended by end of file) is a rejection for us.
      const bashOk = b.status === 0 && b.stderr === "";
      const ours = parse(src);
      if (ours.ok === bashOk) return;
      const id = inputId(src);
      seen.add(id);
      if (!allowed.has(id)) disagreements.push(`${where} (${id}): bash ${bashOk ? "accepts" : "rejects"}, rtk ${ours.ok ? "accepts" : "rejects: " + ours.error.message}`);
    });
    assert.deepEqual(disagreements, []);
    assert.ok(known.bash.length <= inputs.length * 0.03, "known disagreements stay within 3 % of the inputs");
    for (const k of known.bash) assert.ok(seen.has(k.id), `known disagreement ${k.id} no longer disagrees: remove it`);
  });

  test("the lossless printer gives back every input that parses", () => {
    for (const { where, src } of inputs) {
      const r = parse(src);
      if (r.ok) assert.equal(printLossless(r.script, src), src, where);
    }
  });

  test("the canonical print parses back to the same tree", () => {
    for (const { where, src } of inputs) {
      const r = parse(src);
      if (!r.ok) continue;
      const canon = printCanonical(r.script);
      const again = parse(canon);
      assert.ok(again.ok, `${where}: canonical form does not parse: ${JSON.stringify(canon)}`);
      assert.ok(isDeepStrictEqual(withoutSpans(again.script), withoutSpans(r.script)), `${where}: canonical form ${JSON.stringify(canon)} reads differently`);
    }
  });

  test("shfmt reads the original and our canonical print as the same program", { skip: hasShfmt ? false : "shfmt not installed" }, () => {
    const allowed = new Set(known.shfmt.map((k) => k.id));
    const disagreements: string[] = [];
    let compared = 0;
    // The same text is the same program: shfmt reads only the inputs whose print differs, and their prints.
    const differing: { where: string; src: string; printed: string }[] = [];
    for (const { where, src } of inputs) {
      const r = parse(src);
      if (!r.ok) continue;
      const printed = printCanonical(r.script);
      if (printed === src) compared++;
      else differing.push({ where, src, printed });
    }
    const trees = eachInShell(
      'shfmt --to-json <"$f"',
      differing.flatMap((d) => [d.src, d.printed]),
    ).map(shfmtTree);
    differing.forEach(({ where, src, printed }, i) => {
      const original = trees[2 * i];
      if (original === null) return; // mvdan/sh does not read this bash syntax
      compared++;
      if (trees[2 * i + 1] === original) return;
      const id = inputId(src);
      if (!allowed.has(id)) disagreements.push(`${where} (${id}): ${JSON.stringify(printed).slice(0, 200)}`);
    });
    assert.deepEqual(disagreements, []);
    assert.ok(compared > inputs.length / 2, `compared ${compared} inputs`);
    assert.ok(known.shfmt.length <= compared * 0.03);
  });
});

/**
 * mvdan/sh's tree of a program (shfmt --to-json's run) as JSON, without what only records layout:
 * positions, comments, literals split at line continuations, and the tabs of a
 * `<<-` delimiter line that shfmt keeps in the body.
 */
function shfmtTree(r: { status: number; stdout: string }): string | null {
  if (r.status !== 0) return null;
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip).filter((x) => x !== undefined);
    if (!v || typeof v !== "object") return v;
    const o = v as Record<string, unknown>;
    if ("Offset" in o && "Line" in o && "Col" in o) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      if (k === "Comments" || k === "Last" || k === "Pos" || k === "End") continue;
      const y = strip(x);
      if (y !== undefined) out[k] = y;
    }
    if (Array.isArray(out["Parts"])) {
      const parts: { Type?: string; Value?: string }[] = [];
      for (const p of out["Parts"] as { Type?: string; Value?: string }[]) {
        const last = parts[parts.length - 1];
        if (p.Type === "Lit" && last?.Type === "Lit") last.Value = (last.Value ?? "") + (p.Value ?? "");
        else parts.push({ ...p });
      }
      out["Parts"] = parts;
    }
    const hdoc = out["Hdoc"] as { Parts?: { Type?: string; Value?: string }[] } | undefined;
    if (out["Op"] === 62 && hdoc) {
      const last = hdoc.Parts?.[hdoc.Parts.length - 1];
      if (last?.Type === "Lit") {
        last.Value = (last.Value ?? "").replace(/\t+$/, "");
        if (!last.Value) hdoc.Parts!.pop();
      }
      if (!hdoc.Parts?.length) delete out["Hdoc"];
    }
    return out;
  };
  return JSON.stringify(strip(JSON.parse(r.stdout)));
}
