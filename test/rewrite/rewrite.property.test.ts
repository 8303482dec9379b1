// Properties of the rewrite over generated commands and every corpus input:
// it only inserts `rtk `, the result parses, and no inserted `rtk` stands where
// its output would not reach the agent. The positions are checked on the
// re-parsed output, independently of the decision passes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parse } from "../../grammar/parse.js";
import { literalValue } from "../../src/ast/literal.js";
import type * as A from "../../src/ast/nodes.js";
import { walk } from "../../src/ast/walk.js";
import { stdoutToFile } from "../../src/rewrite/classify.js";
import { rewriteCommand, type RewriteResult } from "../../src/rewrite/rewrite.js";
import { fullRegistry } from "../../src/routes/registry.js";
import { corpusAvailable, corpusInputs } from "../support/corpus.js";

const registry = fullRegistry();

/** The input with `rtk ` spliced out at every rewritten segment: must be the original. */
function withoutInsertions(r: RewriteResult): string {
  const out = r.command!;
  const offsets = r.segments.filter((s) => s.decision === "rewrite").map((s) => s.insertAt);
  let result = "";
  let from = 0;
  offsets.forEach((at, i) => {
    const inOut = at + 4 * i;
    assert.equal(out.slice(inOut, inOut + 4), "rtk ", `"rtk " at output offset ${inOut}`);
    result += out.slice(from, inOut);
    from = inOut + 4;
  });
  return result + out.slice(from);
}

/** Every command of the re-parsed output whose word `rtk` was inserted, with its ancestors. */
function insertedRtk(r: RewriteResult): { node: A.SimpleCommand; ancestors: A.Node[] }[] {
  const parsed = parse(r.command!);
  assert.ok(parsed.ok, `rewritten command parses: ${JSON.stringify(r.command)}`);
  const starts = new Set(r.segments.filter((s) => s.decision === "rewrite").map((s, i) => s.insertAt + 4 * i));
  const found: { node: A.SimpleCommand; ancestors: A.Node[] }[] = [];
  walk(parsed.script, (n, ancestors) => {
    if (n.kind !== "SimpleCommand") return;
    for (const w of n.words) if (starts.has(w.span.start) && literalValue(w) === "rtk") found.push({ node: n, ancestors: [...ancestors] });
  });
  assert.equal(found.length, starts.size, "every insertion is a command word of the output");
  return found;
}

function assertReachesAgent(node: A.SimpleCommand, ancestors: A.Node[], src: string): void {
  const where = `${JSON.stringify(src)}`;
  assert.ok(!node.redirects.some(stdoutToFile), `${where}: rewritten command writes stdout to a file`);
  for (let k = 0; k < ancestors.length; k++) {
    const a = ancestors[k]!;
    const child = ancestors[k + 1];
    assert.ok(a.kind !== "CmdSubst" && a.kind !== "ProcSubst", `${where}: rewritten inside a substitution`);
    assert.ok(a.kind !== "FuncDecl", `${where}: rewritten inside a function body`);
    assert.ok(!(a.kind === "Stmt" && a.background), `${where}: rewritten in the background`);
    if (a.kind === "Pipeline") assert.equal(a.stages.indexOf(child as A.Stmt), 0, `${where}: rewritten pipeline consumer`);
    if ("redirects" in a && a.kind !== "SimpleCommand") assert.ok(!a.redirects.some(stdoutToFile), `${where}: enclosing command writes stdout to a file`);
  }
}

function check(src: string): void {
  const r = rewriteCommand(src, { registry });
  if (r.command === null) return;
  assert.equal(withoutInsertions(r), src, "only `rtk ` is inserted");
  for (const { node, ancestors } of insertedRtk(r)) assertReachesAgent(node, ancestors, src);
}

// ---- a generator of agent-like command lines ------------------------------------

const tools = fc.constantFrom(
  "git status",
  "git log --oneline -5",
  "git diff HEAD~1",
  "git -C pkg status",
  "npm test",
  "npx vitest run",
  "cargo test",
  "cargo build --release",
  "pytest -x",
  "python -m pytest",
  "ls -la src",
  "find . -name '*.ts'",
  "grep -rn TODO src",
  "rg foo",
  "cat package.json",
  "tail -100 build.log",
  "wc -l a b",
  "echo hi",
  "make",
  "tsc --noEmit",
  "docker ps",
  "kubectl get pods",
  "gh pr list",
  "curl -s http://x",
  "env",
  "jq .",
  "sort",
  "node x.js",
);
const prefix = fc.constantFrom("", "FOO=1 ", "A=1 B='x y' ", "timeout 60 ", "env A=1 ", "command ", "nice -n 5 ", "time ", "sudo ", "RTK_DISABLED=1 ", "PATH=/x ");
const redirect = fc.constantFrom("", "", "", "", "", " 2>&1", " 2>&1", " >out.txt", " >/dev/null", " 2>/dev/null", " >>log", " &>all", " >&2", " <in.txt", " 1>&2");
const sink = fc.constantFrom("head", "head -n 5", "tail -30", "tail -f", "cat", "less", "grep x", "wc -l", "sort -u", "head file");

const simple = fc.tuple(prefix, tools, redirect).map(([p, t, r]) => p + t + r);

const commandLine: fc.Arbitrary<string> = fc.letrec<{ cmd: string }>((tie) => ({
  cmd: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: simple, weight: 6 },
    { arbitrary: fc.tuple(tie("cmd"), fc.constantFrom(" && ", " || ", "; ", "\n", " & "), tie("cmd")).map(([a, op, b]) => a + op + b), weight: 3 },
    { arbitrary: fc.tuple(simple, fc.constantFrom(" | ", " |& "), sink).map(([a, op, b]) => a + op + b), weight: 3 },
    { arbitrary: tie("cmd").map((c) => `( ${c} )`), weight: 1 },
    { arbitrary: fc.tuple(tie("cmd"), redirect).map(([c, r]) => `{ ${c}; }${r}`), weight: 1 },
    { arbitrary: tie("cmd").map((c) => `echo "$(${c})"`), weight: 1 },
    { arbitrary: simple.map((c) => `x=\`${c}\``), weight: 1 },
    { arbitrary: tie("cmd").map((c) => `diff <(${c}) b`), weight: 1 },
    { arbitrary: fc.tuple(simple, tie("cmd")).map(([a, b]) => `if ${a}; then ${b}; fi`), weight: 1 },
    { arbitrary: tie("cmd").map((c) => `for f in a b; do ${c}; done`), weight: 1 },
    { arbitrary: tie("cmd").map((c) => `while read l; do ${c}; done < list`), weight: 1 },
    { arbitrary: tie("cmd").map((c) => `f() { ${c}; }`), weight: 1 },
    { arbitrary: tie("cmd").map((c) => `case $x in a) ${c};; esac`), weight: 1 },
  ),
})).cmd;

// Here-documents end at their delimiter line, so they come last or on their own line.
const heredoc = fc.tuple(simple, fc.constantFrom("'EOF'", "EOF"), fc.constantFrom("body $(git status)", "git status", "a $b")).map(([c, d, body]) => `cat <<${d} | ${c}\n${body}\nEOF\n`);
const command = fc.oneof(
  { arbitrary: commandLine, weight: 7 },
  { arbitrary: commandLine.map((c) => `${c} # note`), weight: 1 },
  { arbitrary: heredoc, weight: 1 },
  { arbitrary: fc.tuple(commandLine, heredoc).map(([a, h]) => `${a}\n${h}`), weight: 1 },
);

describe("rewrite properties", () => {
  test("generated commands: insert-only, parse again, never where output does not reach the agent", () => {
    fc.assert(
      fc.property(command, (src) => {
        assert.ok(parse(src).ok, `generated command parses: ${JSON.stringify(src)}`);
        check(src);
      }),
      { numRuns: 1500 },
    );
  });

  test("the generator produces rewrites at all", () => {
    let rewritten = 0;
    fc.assert(
      fc.property(command, (src) => {
        if (rewriteCommand(src, { registry }).command !== null) rewritten++;
      }),
      { numRuns: 300 },
    );
    assert.ok(rewritten > 30, `${rewritten} of 300 rewritten`);
  });

  test("every corpus input", { skip: corpusAvailable() ? false : "corpus not found (../shared/corpus)" }, () => {
    for (const { src } of corpusInputs()) check(src);
  });
});
