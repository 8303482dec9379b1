// Property: whatever a command line looks like, when bash would run a command a
// deny or ask rule names, the hook's answer is never an allow and never a bare
// rewrite (a replacement left to the host's own rules, which see `rtk …` and no
// longer match). Commands are generated with what bash really runs known by
// construction: the effective command, then layers around it that bash sees
// through — assignments, wrappers with their options (timeout, nice, env, sudo,
// xargs, …), the tool's global options (git -C/-c/--git-dir/…), an agent-typed
// `rtk`, a configured transparent prefix, `bash -c '…'`, `find -exec`, a trap.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { claudeAnswer } from "../../src/hosts/claude.js";
import { cursor } from "../../src/hosts/cursor.js";
import { gemini } from "../../src/hosts/gemini.js";
import { outcomeOf } from "../../src/hosts/hook.js";
import { verdictOf } from "../../src/permissions/host.js";
import { matchesPattern } from "../../src/permissions/pattern.js";
import type { RuleSet } from "../../src/permissions/verdict.js";
import { activeRegistry } from "../../src/routing.js";
import { rewriteCommand } from "../../src/rewrite/rewrite.js";

const RUNS = Number(process.env["RTK_PROPERTY_RUNS"] ?? 4000);
const PREFIXES = [["dotenv", "--"]] as const;

interface Cmd {
  /** The text as the agent wrote it. */
  src: string;
  /** What bash runs, word by word (every command the text starts). */
  runs: string[][];
}

/** The command bash ends up running: a tool, its global options (which do not change what it is), its words. */
const effectiveArb: fc.Arbitrary<{ text: string; words: string[] }> = fc.oneof(
  fc
    .record(
      {
        global: fc.array(
          fc.constantFrom(
            "-C .",
            "-c color.ui=never",
            "-c core.quotepath=off",
            "--no-pager",
            "-P",
            "--git-dir=.git",
            "--git-dir .git",
            "--work-tree=.",
            "--work-tree .",
            "--exec-path=/usr/lib/git-core",
            "--bare",
            "--literal-pathspecs",
            "--no-optional-locks",
            "--namespace=x",
            "-p",
          ),
          { maxLength: 3 },
        ),
        sub: fc.constantFrom("push", "status", "log", "commit", "diff", "fetch"),
        args: fc.array(fc.constantFrom("origin", "main", "--force", "-m", "x", "--oneline", "-3"), { maxLength: 2 }),
      },
      { noNullPrototype: true },
    )
    .map(({ global, sub, args }) => ({ text: ["git", ...global, sub, ...args].join(" "), words: ["git", sub, ...args] })),
  fc.constantFrom("rm -rf build", "rm x", "npm test", "ls -la", "cat f", "curl -s u").map((text) => ({ text, words: text.split(" ") })),
);

/** Layers whose operand may start with `NAME=value`: they read it as shell text, or as an environment setting. */
const TAKES_ASSIGNMENTS = new Set([0, 1, 2, 3, 11, 12, 20, 21, 23]);

/** A layer bash sees through: text before the command (and after it, for `bash -c` and `find -exec`). */
const LAYERS: readonly ((inner: string) => string)[] = [
  (c) => `FOO=1 ${c}`,
  (c) => `A=1 B=2 ${c}`,
  (c) => `env A=1 ${c}`,
  (c) => `env -u X ${c}`,
  (c) => `timeout 5 ${c}`,
  (c) => `timeout -s KILL 5 ${c}`,
  (c) => `nice -n 5 ${c}`,
  (c) => `nohup ${c}`,
  (c) => `command ${c}`,
  (c) => `stdbuf -o0 ${c}`,
  (c) => `time -p ${c}`,
  (c) => `sudo ${c}`,
  (c) => `sudo -u root ${c}`,
  (c) => `xargs ${c}`,
  (c) => `xargs -n 1 ${c}`,
  (c) => `dotenv -- ${c}`,
  (c) => `rtk ${c}`,
  (c) => `rtk --raw ${c}`,
  (c) => `rtk proxy ${c}`,
  (c) => `/usr/bin/${c}`,
  (c) => `bash -c '${c}'`,
  (c) => `sh -c '${c}'`,
  (c) => `find . -exec ${c} \\;`,
  (c) => `watch ${c}`,
];

const cmdArb: fc.Arbitrary<Cmd> = fc
  .record({ eff: effectiveArb, layers: fc.array(fc.nat(LAYERS.length - 1), { maxLength: 3 }), trap: fc.boolean() }, { noNullPrototype: true })
  .map(({ eff, layers, trap }) => {
    let text = eff.text;
    let quoted = false;
    for (const k of layers) {
      // `timeout 5 FOO=1 cmd` runs a command named `FOO=1`: assignments only where they are assignments.
      if (/^[A-Z]+=/.test(text) && !TAKES_ASSIGNMENTS.has(k)) continue;
      // watch joins its words into one shell command: an escaped `;` is a separator there.
      if (k === 23 && /[\\']/.test(text)) continue;
      // find's command ends at the first `;`: a find inside another find's -exec ends both.
      if (k === 22 && text.includes("\\;")) continue;
      const wrapped = LAYERS[k]!(text);
      // One level of single quotes: a layer that quotes does not wrap another quoted one.
      if (wrapped.includes("'") && quoted) continue;
      if (/^\/usr\/bin\//.test(wrapped) && !/^[a-z]/.test(text)) continue;
      quoted ||= wrapped.includes("'");
      text = wrapped;
    }
    if (trap && !quoted) text = `trap '${text}' EXIT; true`;
    return { src: text, runs: [eff.words] };
  });

const lineArb: fc.Arbitrary<Cmd> = fc
  .record({ first: cmdArb, rest: fc.array(fc.record({ op: fc.constantFrom("&&", "||", ";", "|"), cmd: cmdArb }, { noNullPrototype: true }), { maxLength: 2 }) }, { noNullPrototype: true })
  .map(({ first, rest }) => ({
    src: [first.src, ...rest.map((r) => `${r.op} ${r.cmd.src}`)].join(" "),
    runs: [first, ...rest.map((r) => r.cmd)].flatMap((c) => c.runs),
  }));

const RULE = fc.constantFrom("git push", "git commit", "git", "rm", "rm -rf", "npm test", "curl", "git status", "git log");
const rulesArb: fc.Arbitrary<RuleSet> = fc.record(
  {
    deny: fc.array(
      RULE.map((r) => `${r}:*`),
      { maxLength: 2 },
    ),
    ask: fc.array(
      RULE.map((r) => `${r}:*`),
      { maxLength: 2 },
    ),
    allow: fc.array(fc.constantFrom("*", "git:*", "rtk:*", "sudo:*", "timeout:*", "xargs:*", "bash:*", "find:*", "FOO=1:*", "env:*", "npm test", "ls:*", "cat:*", "dotenv:*", "true", "trap:*"), {
      maxLength: 5,
    }),
  },
  { noNullPrototype: true },
);

/** A rule names a command bash runs: its words start with the rule's words. */
const names = (rules: readonly string[], runs: readonly string[][]) => rules.some((r) => runs.some((w) => matchesPattern(r, w.join(" "))));

function answerOf(src: string, rules: RuleSet) {
  const registry = activeRegistry();
  const parts = { tools: registry.tools, transparentPrefixes: PREFIXES };
  const result = rewriteCommand(src, {
    registry,
    transparentPrefixes: PREFIXES,
    permissions: (script, text, facts) => verdictOf(script, text, facts, rules, parts, { rules: "claude", files: [] }),
  });
  return { result, outcome: outcomeOf(result) };
}

describe("no allow and no bare rewrite when bash would run a denied or asked command", () => {
  test(`${RUNS} generated command lines under generated deny/ask/allow rules (Claude, Cursor and Gemini answers)`, () => {
    const seen = { denied: 0, asked: 0, deniedWithRoute: 0, rewrites: 0 };
    fc.assert(
      fc.property(lineArb, rulesArb, (line, rules) => {
        const { result, outcome } = answerOf(line.src, rules);
        if (!result.parse.ok) return;
        if (result.command !== null) seen.rewrites++;
        const denied = names(rules.deny, line.runs);
        const asked = !denied && names(rules.ask, line.runs);
        if (!denied && !asked) return;
        if (denied) seen.denied++;
        if (asked) seen.asked++;
        const what = `${JSON.stringify(line.src)} runs ${JSON.stringify(line.runs.map((w) => w.join(" ")))} under ${JSON.stringify(rules)}`;
        assert.notEqual(result.verdict, "allow", `${what}: verdict allow`);
        if (denied) {
          assert.equal(result.verdict, "deny", `${what}: a denied command is denied`);
          assert.notEqual(outcome.kind, "rewrite", `${what}: no rewrite is handed back`);
          if (result.command !== null) seen.deniedWithRoute++;
        }
        if (outcome.kind === "rewrite") assert.ok(outcome.ask, `${what}: a rewrite of an asked command makes the host ask`);

        const claude = claudeAnswer(outcome, { toolInput: { command: line.src } });
        if (claude.stdout) {
          const out = JSON.parse(claude.stdout).hookSpecificOutput;
          assert.notEqual(out.permissionDecision, "allow", `${what}: Claude answer ${claude.stdout}`);
          if (out.updatedInput) assert.equal(out.permissionDecision, "ask", `${what}: Claude rewrite without a decision`);
        }
        const cur = cursor.hook!.encode(outcome, undefined as never);
        if (cur.stdout) assert.notEqual(JSON.parse(cur.stdout).permission, "allow", `${what}: Cursor answer ${cur.stdout}`);
        const gem = gemini.hook!.encode(outcome, undefined as never);
        if (gem.stdout) {
          const g = JSON.parse(gem.stdout);
          assert.notEqual(g.decision, "allow", `${what}: Gemini answer ${gem.stdout}`);
          assert.equal(g.hookSpecificOutput, undefined, `${what}: Gemini rewrite left to its rules`);
        }
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: denied and asked commands were generated, some where rtk had a route to rewrite.
    assert.ok(seen.denied > RUNS / 10 && seen.asked > RUNS / 20 && seen.deniedWithRoute > 0 && seen.rewrites > RUNS / 10, JSON.stringify(seen));
  });

  const CASES: [src: string, rule: string][] = [
    ["git -C . push", "git push:*"],
    ["git -c x=y push", "git push:*"],
    ["git --no-pager push", "git push:*"],
    ["git -P push", "git push:*"],
    ["git --git-dir=.git push", "git push:*"],
    ["git --work-tree=. push", "git push:*"],
    ["git --exec-path=/usr/lib/git-core push", "git push:*"],
    ["dotenv -- git push", "git push:*"],
    ["git status && bash -c 'git push origin'", "git push:*"],
    ["git status; echo a | xargs rm -rf", "rm:*"],
    ["git log && timeout -s KILL 5 git -C . push", "git push:*"],
  ];
  for (const [src, rule] of CASES) {
    test(`\`${src}\` under deny ${rule}: denied by rtk itself (the host's rule cannot see it), no rewrite`, () => {
      const { result, outcome } = answerOf(src, { deny: [rule], ask: [], allow: ["*"] });
      assert.equal(result.verdict, "deny");
      assert.equal(outcome.kind, "active-deny");
    });
    test(`\`${src}\` under ask ${rule}: the answer makes the host ask`, () => {
      const { result, outcome } = answerOf(src, { deny: [], ask: [rule], allow: ["*"] });
      assert.equal(result.verdict, "ask");
      assert.ok(outcome.kind !== "rewrite" || outcome.ask);
    });
  }
});

describe("commands nested deeper than rtk reads", () => {
  for (const src of ["sudo ".repeat(12) + "git push", "rtk ".repeat(12) + "git push", 'bash -c "bash -c \'bash -c \\"bash -c git\\\\ push\\"\'"']) {
    test(`\`${src.slice(0, 60)}…\` under deny git push:* and allow *: asked for, never allowed`, () => {
      const { result, outcome } = answerOf(src, { deny: ["git push:*"], ask: [], allow: ["*"] });
      assert.ok(result.verdict === "ask" || result.verdict === "deny", result.verdict);
      assert.ok(outcome.kind !== "rewrite" || outcome.ask);
    });
  }
  test("without deny or ask rules the depth costs nothing: `sudo ×12 git status` under allow * is allowed", () => {
    assert.equal(answerOf("sudo ".repeat(12) + "git status", { deny: [], ask: [], allow: ["*"] }).result.verdict, "allow");
  });
});
