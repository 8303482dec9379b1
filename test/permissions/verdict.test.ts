// The verdict of a host's rules on a command (spec/permissions.md): precedence,
// parts, broad deny / strict allow, agent-typed `rtk`, unattestable commands —
// as plain tests, then fast-check properties over generated commands and rule
// sets. Expectations come from the spec (or, where the spec is silent, the safer
// reading of it).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parse } from "../../grammar/parse.js";
import type * as A from "../../src/ast/nodes.js";
import { commandParts, listTexts } from "../../src/permissions/parts.js";
import { matchesPattern } from "../../src/permissions/pattern.js";
import { judge, type PermissionReport, type RuleSet } from "../../src/permissions/verdict.js";
import type { Verdict } from "../../src/rewrite/rewrite.js";

function parsed(src: string): A.Script {
  const p = parse(src);
  assert.ok(p.ok, `parses: ${JSON.stringify(src)}${p.ok ? "" : ` (${p.error.message})`}`);
  return p.script;
}

function run(src: string, rules: Partial<RuleSet>): PermissionReport {
  return judge(parsed(src), src, { deny: [], ask: [], allow: [], ...rules });
}

interface Expect {
  verdict: Verdict;
  activeDeny?: boolean;
  /** Whether the command is unattestable (the reason must be set / unset). */
  unattestable?: boolean;
}
type Row = readonly [src: string, rules: Partial<RuleSet>, expected: Expect];

const ALL: Partial<RuleSet> = { allow: ["*"] };
const PUSH_DENIED: Partial<RuleSet> = { deny: ["git push:*"], allow: ["*"] };

function rows(name: string, table: readonly Row[]): void {
  describe(name, () => {
    for (const [src, rules, expected] of table) {
      test(`${JSON.stringify(src)} with ${JSON.stringify(rules)} → ${expected.verdict}${expected.activeDeny ? " (active)" : ""}`, () => {
        const r = run(src, rules);
        assert.equal(r.verdict, expected.verdict, `verdict; parts ${JSON.stringify(r.parts)}`);
        if (expected.activeDeny !== undefined) assert.equal(r.activeDeny, expected.activeDeny, "activeDeny");
        if (expected.unattestable !== undefined) assert.equal(r.unattestable !== null, expected.unattestable, `unattestable: ${r.unattestable}`);
      });
    }
  });
}

// ── precedence: deny > unattestable ask > ask > allow (every part) > default ──
rows("precedence", [
  ["git push", { deny: ["git push"], ask: ["git push"], allow: ["git push"] }, { verdict: "deny", activeDeny: false }],
  ["git push", { deny: ["git push"], allow: ["*"] }, { verdict: "deny" }],
  ["git status > out.txt", { deny: ["git status"], allow: ["*"] }, { verdict: "deny", unattestable: true }],
  ["git status > out.txt", { allow: ["*"] }, { verdict: "ask", unattestable: true }],
  ["git status > out.txt", { allow: ["git status"] }, { verdict: "ask", unattestable: true }],
  ["git status > out.txt", { ask: ["git status"], allow: ["*"] }, { verdict: "ask", unattestable: true }],
  ["git push", { ask: ["git push:*"], allow: ["*"] }, { verdict: "ask" }],
  ["git push", { ask: ["git push:*"] }, { verdict: "ask" }],
  ["git status", { allow: ["git status"] }, { verdict: "allow" }],
  ["git status", { allow: ["git log", "git status"] }, { verdict: "allow" }],
  ["git status", {}, { verdict: "default" }],
  ["git status", { allow: ["git log"] }, { verdict: "default" }],
  ["git status", { deny: ["git push"] }, { verdict: "default" }],
  ["git status", { deny: ["git push"], ask: ["git push"] }, { verdict: "default" }],
  ["git status", { ask: ["git log"], allow: ["git status"] }, { verdict: "allow" }],
  // no part at all: never allow
  ["", { allow: ["*"] }, { verdict: "default" }],
  ["# just a comment", { allow: ["*"] }, { verdict: "default" }],
  ["   ", { allow: ["*"] }, { verdict: "default" }],
  // the allow list is empty: default, whatever else
  ["ls -la", { deny: ["git push"], ask: ["rm:*"] }, { verdict: "default" }],
  ["git status && ls", { allow: [] }, { verdict: "default" }],
]);

// ── compound commands: one allowed part never carries another ─────────────────
rows("compound commands", [
  ["git status && git push", { allow: ["git status"] }, { verdict: "default" }],
  ["git status || git push", { allow: ["git status"] }, { verdict: "default" }],
  ["git status; git push", { allow: ["git status"] }, { verdict: "default" }],
  ["git status & git push", { allow: ["git status"] }, { verdict: "default" }],
  ["git status\ngit push", { allow: ["git status"] }, { verdict: "default" }],
  ["git status | git push", { allow: ["git status"] }, { verdict: "default" }],
  ["git status | head", { allow: ["git status"] }, { verdict: "default" }],
  ["git status | head -5", { allow: ["git status", "head:*"] }, { verdict: "allow" }],
  ["git status && git push", { allow: ["git status", "git push:*"] }, { verdict: "allow" }],
  ["git status && git log -5; ls", { allow: ["git:*", "ls"] }, { verdict: "allow" }],
  ["git status && git push", { ask: ["git push"], allow: ["*"] }, { verdict: "ask" }],
  ["git status; git push", { ask: ["git push"], allow: ["git status"] }, { verdict: "ask" }],
  ["git status && git push", { deny: ["git push"], allow: ["git status"] }, { verdict: "deny", activeDeny: false }],
  ["(git status)", { allow: ["git status"] }, { verdict: "allow" }],
  ["{ git status; git log; }", { allow: ["git status", "git log"] }, { verdict: "allow" }],
  ["{ git status; git push; }", { allow: ["git status"] }, { verdict: "default" }],
  ["if git status; then git log; fi", { allow: ["git status", "git log"] }, { verdict: "allow" }],
  ["if git status; then git push; fi", { allow: ["git status"] }, { verdict: "default" }],
  ["for i in 1 2; do git status; done", { allow: ["git status"] }, { verdict: "allow" }],
  ["git status &", { allow: ["git status"] }, { verdict: "allow" }],
  ["! git status", { allow: ["git status"] }, { verdict: "allow" }],
  ["echo $(git push)", { deny: ["git push:*"], allow: ["*"] }, { verdict: "deny" }],
  ["echo $(git status)", { allow: ["*"] }, { verdict: "ask", unattestable: true }],
  // an allow rule spanning the whole line does not make its parts allowed
  ["git status && git push", { allow: ["git status && git push"] }, { verdict: "default" }],
]);

// ── unattestable commands: ask, whatever the allow rules say ──────────────────
rows("unattestable commands", [
  ["echo $(date)", ALL, { verdict: "ask", unattestable: true }],
  ["echo `date`", ALL, { verdict: "ask", unattestable: true }],
  ['echo "$(date)"', ALL, { verdict: "ask", unattestable: true }],
  ['echo "x `date` y"', ALL, { verdict: "ask", unattestable: true }],
  ["X=$(date) git status", ALL, { verdict: "ask", unattestable: true }],
  ["diff <(ls a) <(ls b)", ALL, { verdict: "ask", unattestable: true }],
  ["ls | tee >(cat)", ALL, { verdict: "ask", unattestable: true }],
  ["cat < file", ALL, { verdict: "ask", unattestable: true }],
  ["echo hi > file", ALL, { verdict: "ask", unattestable: true }],
  ["echo hi >> file", ALL, { verdict: "ask", unattestable: true }],
  ["ls &> file", ALL, { verdict: "ask", unattestable: true }],
  ["ls >& file", ALL, { verdict: "ask", unattestable: true }],
  ["ls 2> err.log", ALL, { verdict: "ask", unattestable: true }],
  ["git status && ls > out.txt", ALL, { verdict: "ask", unattestable: true }],
  ["eval git status", ALL, { verdict: "ask", unattestable: true }],
  ['eval "$CMD"', ALL, { verdict: "ask", unattestable: true }],
  ["git status && eval x", ALL, { verdict: "ask", unattestable: true }],
  ["FOO=1 eval x", ALL, { verdict: "ask", unattestable: true }],
  // `eval` behind `command`/`builtin` is still eval.
  ["command eval x", ALL, { verdict: "ask", unattestable: true }],
  ["builtin eval x", ALL, { verdict: "ask", unattestable: true }],
  ["cat <<EOF\n$(date)\nEOF", ALL, { verdict: "ask", unattestable: true }],
  ['cat <<< "$(date)"', ALL, { verdict: "ask", unattestable: true }],
  ["echo $(date) > /dev/null", ALL, { verdict: "ask", unattestable: true }],
]);

// ── what does not make a command unattestable ─────────────────────────────────
rows("attestable commands", [
  ["git status 2>&1", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status >&2", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status 1>&2", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status >&-", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status 2>&-", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status > /dev/null", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status 2>/dev/null", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status >/dev/null 2>&1", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["git status &> /dev/null", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["cat < /dev/null", { allow: ["cat"] }, { verdict: "allow", unattestable: false }],
  ["cat <<EOF\nhello\nworld\nEOF", { allow: ["cat"] }, { verdict: "allow", unattestable: false }],
  ["cat <<-EOF\n\thello $HOME\n\tEOF", { allow: ["cat"] }, { verdict: "allow", unattestable: false }],
  ["git status <<EOF\nhello\nEOF", { allow: ["git status"] }, { verdict: "allow", unattestable: false }],
  ["cat <<< hello", { allow: ["cat"] }, { verdict: "allow", unattestable: false }],
  ['cat <<< "$HOME"', { allow: ["cat"] }, { verdict: "allow", unattestable: false }],
  ["echo $VAR ${VAR} ${VAR:-x} $((1 + 2))", { allow: ["echo:*"] }, { verdict: "allow", unattestable: false }],
  ["git status | head -5 2>&1", { allow: ["git status", "head:*"] }, { verdict: "allow", unattestable: false }],
]);

// ── deny matching is broad ────────────────────────────────────────────────────
rows("broad deny matching", [
  ["git push", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["git push origin main", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["FOO=1 git push", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["A=1 B='x y' git push --force", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["timeout 5 git push", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["timeout -s KILL 5 git push", PUSH_DENIED, { verdict: "deny" }],
  ["env A=1 git push", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["env git push", PUSH_DENIED, { verdict: "deny" }],
  ["command git push", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["nice -n 5 git push", PUSH_DENIED, { verdict: "deny" }],
  ["stdbuf -oL git push", PUSH_DENIED, { verdict: "deny" }],
  ["time git push", PUSH_DENIED, { verdict: "deny" }],
  ["timeout 5 env A=1 git push", PUSH_DENIED, { verdict: "deny" }],
  ["/usr/bin/git push", PUSH_DENIED, { verdict: "deny", activeDeny: false }],
  ["./git push", PUSH_DENIED, { verdict: "deny" }],
  ["FOO=1 /usr/bin/git push", PUSH_DENIED, { verdict: "deny" }],
  ["env A=1 /usr/bin/git push", PUSH_DENIED, { verdict: "deny" }],
  ["git  push", PUSH_DENIED, { verdict: "deny" }],
  ["git \\\n  push", PUSH_DENIED, { verdict: "deny" }],
  ["git push 2>&1", PUSH_DENIED, { verdict: "deny" }],
  ["git push > out.txt", PUSH_DENIED, { verdict: "deny" }],
  // inside every kind of compound command and substitution
  ["if true; then git push; fi", PUSH_DENIED, { verdict: "deny" }],
  ["if git push; then :; fi", PUSH_DENIED, { verdict: "deny" }],
  ["if true; then :; else git push; fi", PUSH_DENIED, { verdict: "deny" }],
  ["while true; do git push; done", PUSH_DENIED, { verdict: "deny" }],
  ["while git push; do :; done", PUSH_DENIED, { verdict: "deny" }],
  ["until git push; do :; done", PUSH_DENIED, { verdict: "deny" }],
  ["for i in 1 2; do git push; done", PUSH_DENIED, { verdict: "deny" }],
  ["for ((i = 0; i < 2; i++)); do git push; done", PUSH_DENIED, { verdict: "deny" }],
  ["case x in x) git push ;; esac", PUSH_DENIED, { verdict: "deny" }],
  ["(git push)", PUSH_DENIED, { verdict: "deny" }],
  ["(cd x && git push)", PUSH_DENIED, { verdict: "deny" }],
  ["{ git push; }", PUSH_DENIED, { verdict: "deny" }],
  ["f() { git push; }", PUSH_DENIED, { verdict: "deny" }],
  ["git status | git push", PUSH_DENIED, { verdict: "deny" }],
  ["echo x | git push | cat", PUSH_DENIED, { verdict: "deny" }],
  ["git status |& git push", PUSH_DENIED, { verdict: "deny" }],
  ["git status && git push", PUSH_DENIED, { verdict: "deny" }],
  ["git status || git push", PUSH_DENIED, { verdict: "deny" }],
  ["git status; git push", PUSH_DENIED, { verdict: "deny" }],
  ["git push &", PUSH_DENIED, { verdict: "deny" }],
  ["git status\ngit push\n", PUSH_DENIED, { verdict: "deny" }],
  ["! git push", PUSH_DENIED, { verdict: "deny" }],
  ["echo $(git push)", PUSH_DENIED, { verdict: "deny" }],
  ["echo $(echo $(git push))", PUSH_DENIED, { verdict: "deny" }],
  ['echo "$(git push)"', PUSH_DENIED, { verdict: "deny" }],
  ["echo `git push`", PUSH_DENIED, { verdict: "deny" }],
  ['echo "`git push`"', PUSH_DENIED, { verdict: "deny" }],
  ["diff <(git push) x", PUSH_DENIED, { verdict: "deny" }],
  ["tee >(git push)", PUSH_DENIED, { verdict: "deny" }],
  ["X=$(git push)", PUSH_DENIED, { verdict: "deny" }],
  ["X=$(git push) ls", PUSH_DENIED, { verdict: "deny" }],
  ["echo ${x:-$(git push)}", PUSH_DENIED, { verdict: "deny" }],
  ["echo hi > $(git push)", PUSH_DENIED, { verdict: "deny" }],
  ["cat <<EOF\n$(git push)\nEOF", PUSH_DENIED, { verdict: "deny" }],
  ["[[ -n $(git push) ]]", PUSH_DENIED, { verdict: "deny" }],
  ["for i in $(git push); do :; done", PUSH_DENIED, { verdict: "deny" }],
  ["case $(git push) in *) ;; esac", PUSH_DENIED, { verdict: "deny" }],
  // glob deny rules reach through assignments and wrappers too
  ["FOO=1 git push --force", { deny: ["* --force"], allow: ["*"] }, { verdict: "deny" }],
  ["timeout 5 git push --force", { deny: ["git * --force"], allow: ["*"] }, { verdict: "deny" }],
  // not a match: a different command
  ["git pushx", PUSH_DENIED, { verdict: "allow" }],
  ["git status", PUSH_DENIED, { verdict: "allow" }],
  ["echo git push", PUSH_DENIED, { verdict: "allow" }],
  ["git push --force-with-lease", { deny: ["git push --force"], allow: ["*"] }, { verdict: "allow" }],
  // spec silent — the safer reading: the shell sees `git push`, so a host rule may too.
  ["git 'push'", PUSH_DENIED, { verdict: "deny" }],
  ['"git" push', PUSH_DENIED, { verdict: "deny" }],
  // `nohup` runs its argument as the peeled wrappers do.
  ["nohup git push", PUSH_DENIED, { verdict: "deny" }],
]);

// ── allow and ask rules match the part as written only ────────────────────────
rows("strict allow matching", [
  ["FOO=1 git status", { allow: ["git status"] }, { verdict: "default" }],
  ["FOO=1 git status", { allow: ["FOO=1 git status"] }, { verdict: "allow" }],
  ["timeout 5 git status", { allow: ["git status"] }, { verdict: "default" }],
  ["env A=1 git status", { allow: ["git status"] }, { verdict: "default" }],
  ["command git status", { allow: ["git status"] }, { verdict: "default" }],
  ["/usr/bin/git status", { allow: ["git status"] }, { verdict: "default" }],
  ["rtk git status", { allow: ["git status"] }, { verdict: "default" }],
  ["rtk git status", { allow: ["git:*"] }, { verdict: "default" }],
  ["rtk git status", { allow: ["rtk git status"] }, { verdict: "allow" }],
  ["rtk git status", { allow: ["rtk:*"] }, { verdict: "allow" }],
  ["rtk git status && git status", { allow: ["git status"] }, { verdict: "default" }],
  ["git  status", { allow: ["git status"] }, { verdict: "default" }],
  // redirects are not part of the text
  ["git status 2>&1", { allow: ["git status"] }, { verdict: "allow" }],
  ["git status 2>&1 | head -3", { allow: ["git status", "head -3"] }, { verdict: "allow" }],
  ["git status > /dev/null 2>&1", { allow: ["git status"] }, { verdict: "allow" }],
  ["git status 2>/dev/null   ", { allow: ["git status"] }, { verdict: "allow" }],
  ["git log 2>&1", { allow: ["git log 2>&1"] }, { verdict: "default" }],
  // ask rules: an `rtk`-prefixed part is matched both as written and without its `rtk`
  // (the spec's "as written only" of allow and ask, and its "every part, as written and without its rtk" differ here: the safer reading, ask, wins)
  ["rtk git push", { ask: ["git push:*"], allow: ["*"] }, { verdict: "ask" }],
]);

// ── commands the agent already prefixed with `rtk` ────────────────────────────
rows("agent-typed rtk", [
  ["rtk git push --force", { deny: ["git push --force"] }, { verdict: "deny", activeDeny: true }],
  ["rtk git push --force", { deny: ["git push --force"], allow: ["*"] }, { verdict: "deny", activeDeny: true }],
  ["git push --force", { deny: ["git push --force"] }, { verdict: "deny", activeDeny: false }],
  ["rtk git push", PUSH_DENIED, { verdict: "deny", activeDeny: true }],
  ["FOO=1 rtk git push", PUSH_DENIED, { verdict: "deny", activeDeny: true }],
  ["timeout 5 rtk git push", PUSH_DENIED, { verdict: "deny", activeDeny: true }],
  ["rtk /usr/bin/git push", PUSH_DENIED, { verdict: "deny", activeDeny: true }],
  ["git status && rtk git push", PUSH_DENIED, { verdict: "deny", activeDeny: true }],
  ["echo $(rtk git push)", PUSH_DENIED, { verdict: "deny", activeDeny: true }],
  // the host's own rule matches `rtk git push` as written: its own deny fires
  ["rtk git push", { deny: ["rtk git push"] }, { verdict: "deny", activeDeny: false }],
  ["rtk git push", { deny: ["* push"] }, { verdict: "deny", activeDeny: false }],
  ["rtk git status", PUSH_DENIED, { verdict: "allow" }],
]);

describe("part texts", () => {
  const cases: readonly (readonly [string, readonly string[]])[] = [
    ["git status 2>&1", ["git status"]],
    ["git status > out.txt", ["git status"]],
    ["git status 2>&1 | head -5", ["git status", "head -5"]],
    ["git log  >/dev/null  ", ["git log"]],
    ["FOO=1 git status", ["FOO=1 git status"]],
    ["echo $(git push) > f", ["echo $(git push)", "git push"]],
    ["cat <<EOF\nbody\nEOF", ["cat"]],
    ["if a; then b; else c; fi", ["a", "b", "c"]],
    ["(a && b) | { c; d; }", ["a", "b", "c", "d"]],
    ["a &\nb; c || d", ["a", "b", "c", "d"]],
    ["diff <(x) >(y)", ["diff <(x) >(y)", "x", "y"]],
  ];
  for (const [src, texts] of cases) {
    test(`${JSON.stringify(src)} → ${JSON.stringify(texts)}`, () => {
      assert.deepEqual(
        commandParts(parsed(src), src).map((p) => p.text),
        texts,
      );
    });
  }
});

// ───────────────────────────── properties ─────────────────────────────────────
//
// Commands are generated together with an independent oracle: the text of every
// simple command as written (its redirect cut out) and every form a deny rule must
// be tried on (as written → without assignments → without wrappers → basename; and,
// for an agent-typed `rtk`, without it → basename), and whether the line is
// unattestable.

const RUNS = 1000;

interface OPart {
  written: string;
  denyForms: string[];
}
interface Gen {
  src: string;
  parts: OPart[];
  unattestable: boolean;
}

const CMDS = ["git", "npm", "ls", "cat", "echo"] as const;
const ARGS = ["status", "push", "--force", "log", "test", "-la", "origin", "main"] as const;

const simpleArb = (depth: number): fc.Arbitrary<Gen> =>
  fc
    .record(
      {
        assign: fc.constantFrom("", "", "", "FOO=1 ", "A=1 B=2 "),
        wrapper: fc.constantFrom("", "", "", "timeout 5 ", "env A=1 ", "command "),
        rtk: fc.constantFrom("", "", "", "rtk "),
        path: fc.constantFrom("", "", "", "/usr/bin/"),
        cmd: fc.constantFrom(...CMDS),
        args: fc.array(fc.constantFrom(...ARGS), { maxLength: 3 }),
        subst:
          depth > 0
            ? fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ backquote: fc.boolean(), inner: simpleArb(depth - 1) }, { noNullPrototype: true }) })
            : fc.constant(null),
        redirect: fc.constantFrom("", "", "", "", " 2>&1", " >/dev/null", " > out.txt", " < in.txt"),
      },
      { noNullPrototype: true },
    )
    .map(({ assign, wrapper, rtk, path, cmd, args, subst, redirect }) => {
      const words: string[] = [cmd, ...args];
      if (subst) words.push(subst.backquote ? "`" + subst.inner.src + "`" : "$(" + subst.inner.src + ")");
      const base = words.join(" ");
      const written = assign + wrapper + rtk + path + base;
      const forms = [written, wrapper + rtk + path + base, rtk + path + base];
      if (rtk) forms.push(path + base, base);
      else if (path) forms.push(base);
      const own: OPart = { written, denyForms: [...new Set(forms)] };
      const unattestable = !!subst || redirect === " > out.txt" || redirect === " < in.txt";
      return { src: written + redirect, parts: [own, ...(subst ? subst.inner.parts : [])], unattestable };
    });

const OPS = ["&&", "||", ";", "|"] as const;

/** A list of 1–4 simple commands joined by operators, sometimes in a subshell or group. */
const listArb: fc.Arbitrary<Gen> = fc
  .record(
    {
      first: simpleArb(1),
      rest: fc.array(fc.record({ op: fc.constantFrom(...OPS), cmd: simpleArb(1) }, { noNullPrototype: true }), { maxLength: 3 }),
      wrap: fc.constantFrom("", "", "", "", "()", "{}"),
    },
    { noNullPrototype: true },
  )
  .map(({ first, rest, wrap }) => {
    let src = first.src;
    for (const r of rest) src += ` ${r.op} ${r.cmd.src}`;
    if (wrap === "()") src = `(${src})`;
    if (wrap === "{}") src = `{ ${src}; }`;
    const all = [first, ...rest.map((r) => r.cmd)];
    return { src, parts: all.flatMap((g) => g.parts), unattestable: all.some((g) => g.unattestable) };
  });

const PATTERN_WORDS = [...CMDS, "rtk", "status", "push", "--force", "log", "test", "origin", "*"] as const;
const patternArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("*", "*:*") },
  {
    weight: 6,
    arbitrary: fc.tuple(fc.array(fc.constantFrom(...PATTERN_WORDS), { minLength: 1, maxLength: 3 }), fc.constantFrom("", "", ":*", " *", "*")).map(([ws, suffix]) => ws.join(" ") + suffix),
  },
  // globs with a star between words: `git * push`, `* --force`, `npm * test:*`
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom("", ...PATTERN_WORDS), fc.constantFrom(...PATTERN_WORDS), fc.constantFrom("", "", ":*", " *")).map(([a, b, suffix]) => (a ? `${a} * ${b}` : `* ${b}`) + suffix),
  },
);
const rulesArb: fc.Arbitrary<RuleSet> = fc.record(
  {
    deny: fc.array(patternArb, { maxLength: 2 }),
    ask: fc.array(patternArb, { maxLength: 2 }),
    allow: fc.array(fc.oneof({ weight: 1, arbitrary: fc.constant("*") }, { weight: 3, arbitrary: patternArb }), { maxLength: 4 }),
  },
  { noNullPrototype: true },
);

/** Rule sets whose patterns are made of the command's own words (so they straddle its parts more often). */
function ownRulesArb(src: string): fc.Arbitrary<RuleSet> {
  const word = fc.constantFrom(...src.split(/[ \t\n]+/).filter(Boolean));
  const pattern = fc.oneof(
    { weight: 1, arbitrary: fc.constant("*") },
    { weight: 3, arbitrary: fc.tuple(word, word, fc.constantFrom("", ":*")).map(([a, b, s]) => `${a} * ${b}${s}`) },
    { weight: 3, arbitrary: fc.tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom("", ":*", " *")).map(([ws, s]) => ws.join(" ") + s) },
    { weight: 3, arbitrary: patternArb },
  );
  return fc.record({ deny: fc.array(pattern, { maxLength: 2 }), ask: fc.array(pattern, { maxLength: 1 }), allow: fc.array(pattern, { maxLength: 4 }) }, { noNullPrototype: true });
}

const anyMatch = (rules: readonly string[], texts: readonly string[]) => rules.some((r) => texts.some((t) => matchesPattern(r, t)));

function counter() {
  const seen: Record<Verdict, number> = { allow: 0, ask: 0, deny: 0, default: 0 };
  return {
    add: (v: Verdict) => void seen[v]++,
    /** Every verdict occurred: the property was not vacuous. */
    check: () => {
      for (const [v, n] of Object.entries(seen)) assert.ok(n > 0, `verdict ${v} never generated: ${JSON.stringify(seen)}`);
    },
  };
}

// Permissiveness, least to most: deny (0) < ask (1) = default (1) < allow (2).
// `default` is treated as ask (spec: "`default` (no rule matched) is treated as ask,
// never as allow"), so ask and default rank equal in this comparison.
const RANK: Record<Verdict, number> = { deny: 0, ask: 1, default: 1, allow: 2 };

/** (a): allow ⇒ every part matched an allow rule as written, no part matched a deny or ask rule. */
function checkAllow(g: Gen, rules: RuleSet): Verdict {
  const script = parsed(g.src);
  const r = judge(script, g.src, rules);
  if (r.verdict !== "allow") return r.verdict;
  const parts = commandParts(script, g.src);
  assert.ok(rules.allow.length > 0, "allow list non-empty");
  assert.ok(parts.length > 0, "at least one part");
  for (const p of parts) {
    assert.ok(anyMatch(rules.allow, [p.text]), `part ${JSON.stringify(p.text)} matches an allow rule`);
    assert.ok(!anyMatch(rules.deny, [p.text, ...p.denyForms, ...p.hiddenForms]), `part ${JSON.stringify(p.text)} matches no deny rule`);
    assert.ok(!anyMatch(rules.ask, [p.text]), `part ${JSON.stringify(p.text)} matches no ask rule`);
  }
  // the same against the generator's own view of the command
  for (const p of g.parts) {
    assert.ok(anyMatch(rules.allow, [p.written]), `oracle part ${JSON.stringify(p.written)} allowed`);
    assert.ok(!anyMatch(rules.deny, p.denyForms), `oracle part ${JSON.stringify(p.written)} not denied`);
    assert.ok(!anyMatch(rules.ask, [p.written]), `oracle part ${JSON.stringify(p.written)} not asked`);
  }
  return r.verdict;
}

/** (b): deny ⇒ some part, or a run of consecutive commands (the whole line included), matched a deny rule; and conversely. */
function checkDeny(g: Gen, rules: RuleSet): Verdict {
  const script = parsed(g.src);
  const r = judge(script, g.src, rules);
  const parts = commandParts(script, g.src);
  const matched =
    parts.some((p) => anyMatch(rules.deny, [p.text, ...p.denyForms, ...p.hiddenForms])) ||
    anyMatch(
      rules.deny.filter((r) => /&&|\|\||;|\|/.test(r)),
      listTexts(script, g.src),
    );
  if (r.verdict === "deny") assert.ok(matched, "a deny verdict has a matching part");
  // completeness (spec rule 1): a part that matches a deny rule in any of its forms denies
  const oracleMatched = g.parts.some((p) => anyMatch(rules.deny, p.denyForms));
  if (oracleMatched) assert.equal(r.verdict, "deny", "a part matching a deny rule denies the command");
  return r.verdict;
}

/** (c): verdict(a && b) ≤ verdict(a) and ≤ verdict(b) in RANK order. */
function checkAnd(a: Gen, b: Gen, rules: RuleSet): void {
  const src = `${a.src} && ${b.src}`;
  const va = judge(parsed(a.src), a.src, rules).verdict;
  const vb = judge(parsed(b.src), b.src, rules).verdict;
  const vab = judge(parsed(src), src, rules).verdict;
  assert.ok(RANK[vab] <= RANK[va], `${JSON.stringify(src)}: ${vab} is more permissive than a's ${va}`);
  assert.ok(RANK[vab] <= RANK[vb], `${JSON.stringify(src)}: ${vab} is more permissive than b's ${vb}`);
}

/** (d): unattestable ⇒ never allow; and it is recognised exactly when the generator put something unattestable in. */
function checkUnattestable(g: Gen, rules: RuleSet): boolean {
  const r = judge(parsed(g.src), g.src, rules);
  assert.equal(r.unattestable !== null, g.unattestable, `${JSON.stringify(g.src)}: unattestable ${r.unattestable}`);
  if (g.unattestable) assert.notEqual(r.verdict, "allow");
  return g.unattestable;
}

const withOwnRules = listArb.chain((g) => fc.tuple(fc.constant(g), ownRulesArb(g.src)));

describe("properties", () => {
  test("generated commands parse, and commandParts finds exactly the oracle's parts", () => {
    fc.assert(
      fc.property(listArb, (g) => {
        const parts = commandParts(parsed(g.src), g.src);
        assert.deepEqual(parts.map((p) => p.text).sort(), g.parts.map((p) => p.written).sort(), g.src);
      }),
      { numRuns: RUNS },
    );
  });

  test("(a) allow ⇒ every part matched an allow rule as written, and no part matched a deny or ask rule", () => {
    const seen = counter();
    fc.assert(
      fc.property(listArb, rulesArb, (g, rules) => seen.add(checkAllow(g, rules))),
      { numRuns: RUNS },
    );
    seen.check();
  });

  test("(a) the same, with rules made of the command's own words", () => {
    const seen = counter();
    fc.assert(
      fc.property(withOwnRules, ([g, rules]) => seen.add(checkAllow(g, rules))),
      { numRuns: RUNS },
    );
    seen.check();
  });

  test("(b) deny ⇔ some part (or the whole line) matched a deny rule in one of its forms", () => {
    const seen = counter();
    fc.assert(
      fc.property(listArb, rulesArb, (g, rules) => seen.add(checkDeny(g, rules))),
      { numRuns: RUNS },
    );
    seen.check();
  });

  test("(b) the same, with rules made of the command's own words", () => {
    const seen = counter();
    fc.assert(
      fc.property(withOwnRules, ([g, rules]) => seen.add(checkDeny(g, rules))),
      { numRuns: RUNS },
    );
    seen.check();
  });

  test("(c) the verdict of `a && b` is never more permissive than that of `a` or of `b`", () => {
    fc.assert(fc.property(listArb, listArb, rulesArb, checkAnd), { numRuns: RUNS });
  });

  test("(c) the same, with rules made of the commands' own words", () => {
    fc.assert(
      fc.property(
        fc.tuple(listArb, listArb).chain(([a, b]) => fc.tuple(fc.constant(a), fc.constant(b), ownRulesArb(`${a.src} ${b.src}`))),
        ([a, b, rules]) => checkAnd(a, b, rules),
      ),
      { numRuns: RUNS },
    );
  });

  // The property's counterexample, kept as a plain test: a deny rule that matches the whole
  // line `a` (but none of its parts) denies `a` alone, yet not `a && b`.
  test("(c) example: `git status && ls push` vs `… && ls` under deny `git * push`, allow `*`", () => {
    checkAnd({ src: "git status && ls push", parts: [], unattestable: false }, { src: "ls", parts: [], unattestable: false }, { deny: ["git * push"], ask: [], allow: ["*"] });
  });

  test("(d) an unattestable command is never allow (and is recognised as unattestable)", () => {
    let unattestable = 0;
    fc.assert(
      fc.property(listArb, rulesArb, (g, rules) => void (checkUnattestable(g, rules) && unattestable++)),
      { numRuns: RUNS },
    );
    assert.ok(unattestable > 50, `only ${unattestable} unattestable commands generated`);
  });

  test("(d) the same, with rules made of the command's own words", () => {
    fc.assert(
      fc.property(withOwnRules, ([g, rules]) => void checkUnattestable(g, rules)),
      { numRuns: RUNS },
    );
  });

  test("(d) an unattestable command under the allow-all rule is ask, or deny", () => {
    fc.assert(
      fc.property(listArb, fc.array(patternArb, { maxLength: 2 }), (g, deny) => {
        fc.pre(g.unattestable);
        const r = judge(parsed(g.src), g.src, { deny, ask: [], allow: ["*"] });
        assert.ok(r.verdict === "ask" || r.verdict === "deny", `${JSON.stringify(g.src)}: ${r.verdict}`);
      }),
      { numRuns: RUNS },
    );
  });
});
