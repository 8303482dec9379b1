// Property: a rewrite never earns a looser verdict than the original. For hosts
// that judge the command they are handed back with `Bash(…)` rules (Codex CLI
// and OpenCode: replacement-codex-opencode.property.test.ts), rtk's hook answers
// a generated command under generated rules (allow rules on `rtk`, `rtk git *`,
// `rtk:*`, wildcards, the commands themselves); a stand-in of the host, written
// here from what the real hosts do (test/hosts-real/ checks them), judges that
// answer, and its verdict must be at least as strict as its verdict on the
// original.
//
// The stand-in: the host splits a command at `&&`, `||`, `;`, `|` and newlines
// and judges each part: deny if a deny rule matches a part, ask if an ask rule
// does, allow if every part is allowed by a rule or is one the host runs by
// itself (in bypassPermissions mode, any part), else ask. A hook's allow lets
// the replacement run unless a deny or ask rule matches it; a replacement with
// no decision is judged like a command the agent typed.
//
// One looser verdict is intended: where the host's answer can carry an allow, a
// command the agent typed behind `rtk` may be allowed for what rtk runs (an
// allow rule or the host's own list for `git diff` covers `rtk git diff`, with
// no deny or ask rule on either form), since rtk runs exactly it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { runHook } from "../../src/hosts/hook.js";
import { HOOK_HOSTS } from "../../src/hosts/index.js";
import { compoundArb, parts, put, RANK, RUNS, SIMPLE, tempProject, type Verdict } from "../support/never-looser.js";

/** Commands Claude Code 2.1.332 was seen to run unprompted in a project with no rules (test/hosts-real/). */
const RUNS_BY_ITSELF = new Set(["git status", "git log -n 3", "git diff", "ls -la", "ls", "cat f1.txt", "echo hi", "git diff --stat", "wc -l f1.txt"]);

const PATTERNS = [
  "rtk",
  "rtk:*",
  "rtk *",
  "rtk git *",
  "rtk git push:*",
  "rtk git status",
  "rtk npm *",
  "git *",
  "git status",
  "git status:*",
  "git push:*",
  "git log:*",
  "npm test:*",
  "ls:*",
  "cat:*",
  "curl:*",
  "echo:*",
  "*",
  "* --force",
];

const commandArb = compoundArb(fc.constantFrom(...SIMPLE));

const rulesArb = fc.record(
  {
    allow: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 4 }),
    ask: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 1 }),
    deny: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 1 }),
  },
  { noNullPrototype: true },
);

type Rules = { allow: string[]; ask: string[]; deny: string[] };

/** Claude Code's `Bash(…)` patterns: `*` alone, a word prefix (`:*` or ` *` at the end), a glob, or the command itself. */
function matches(pattern: string, text: string): boolean {
  if (pattern === "*") return true;
  const prefix = /^(.*?)(?::\*| \*)$/.exec(pattern);
  if (prefix && !prefix[1]!.includes("*")) return text === prefix[1] || text.startsWith(prefix[1] + " ");
  if (pattern.includes("*"))
    return new RegExp(
      "^" +
        pattern
          .split("*")
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*") +
        "$",
    ).test(text);
  return text === pattern || text.startsWith(pattern + " ");
}

function hostVerdict(command: string, rules: Rules, mode: string): Verdict {
  const ps = parts(command);
  const any = (list: string[], p: string) => list.some((r) => matches(r, p));
  if (ps.some((p) => any(rules.deny, p))) return "deny";
  if (ps.some((p) => any(rules.ask, p))) return "ask";
  if (ps.every((p) => any(rules.allow, p) || mode === "bypassPermissions" || RUNS_BY_ITSELF.has(p))) return "allow";
  return mode === "dontAsk" ? "deny" : "ask";
}

/** The forms a part is judged in: itself, and for an agent-typed `rtk X`, X. */
function forms(part: string): string[] {
  const inner = /^rtk (.+)$/.exec(part)?.[1];
  return inner ? [part, inner] : [part];
}

/** The verdict the original deserves where an agent-typed `rtk X` is judged as X too. */
function intendedVerdict(command: string, rules: Rules, mode: string): Verdict {
  const ps = parts(command);
  const any = (list: string[], p: string) => forms(p).some((f) => list.some((r) => matches(r, f)));
  if (ps.some((p) => any(rules.deny, p))) return "deny";
  if (ps.some((p) => any(rules.ask, p))) return "ask";
  if (ps.every((p) => any(rules.allow, p) || mode === "bypassPermissions" || forms(p).some((f) => RUNS_BY_ITSELF.has(f)))) return "allow";
  return mode === "dontAsk" ? "deny" : "ask";
}

/** How the host judges rtk's answer (Claude Code's shape, which Copilot and Continue share). */
function judgeAnswer(original: string, stdout: string, rules: Rules, mode: string): Verdict {
  if (!stdout.trim()) return hostVerdict(original, rules, mode);
  const out = JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } } };
  const h = out.hookSpecificOutput ?? {};
  const run = h.updatedInput?.command ?? original;
  if (h.permissionDecision === "deny") return "deny";
  if (h.permissionDecision === "allow" || h.permissionDecision === "ask") {
    const ps = parts(run);
    if (ps.some((p) => rules.deny.some((r) => matches(r, p)))) return "deny";
    if (h.permissionDecision === "ask" || ps.some((p) => rules.ask.some((r) => matches(r, p)))) return "ask";
    return "allow";
  }
  return hostVerdict(run, rules, mode);
}

interface Shape {
  host: string;
  /** Writes the rules where the host keeps them. */
  write(home: string, project: string, rules: Rules): void;
  event(command: string, cwd: string, mode: string): unknown;
  modes: readonly string[];
  /** Whether the host's answer can carry an allow in `mode` (rtk then judges an agent-typed `rtk X` by X). */
  explicitAllow(mode: string): boolean;
}

const bash = (list: string[]) => list.map((p) => `Bash(${p})`);

const SHAPES: readonly Shape[] = [
  {
    host: "claude",
    write: (_home, project, r) => put(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: bash(r.allow), ask: bash(r.ask), deny: bash(r.deny) } })),
    event: (command, cwd, mode) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd, permission_mode: mode }),
    modes: ["default", "acceptEdits", "dontAsk", "plan", "bypassPermissions"],
    explicitAllow: (mode) => mode !== "plan",
  },
  {
    host: "copilot",
    write: (_home, project, r) => put(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: bash(r.allow), ask: bash(r.ask), deny: bash(r.deny) } })),
    event: (command, cwd) => ({ tool_name: "bash", tool_input: { command }, cwd }),
    modes: ["default"],
    explicitAllow: () => true,
  },
  {
    host: "continue",
    write: (home, _project, r) => {
      const list = (name: string, xs: string[]) => `${name}:\n${xs.map((x) => `  - ${JSON.stringify(`Bash(${x})`)}\n`).join("")}`;
      put(join(home, ".continue", "permissions.yaml"), list("allow", r.allow) + list("ask", r.ask) + list("exclude", r.deny));
    },
    event: (command, cwd) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd }),
    modes: ["default"],
    explicitAllow: () => false,
  },
];

describe("a rewrite never earns a looser verdict than the original (hosts that judge the replaced command)", () => {
  for (const shape of SHAPES) {
    test(`${shape.host}: ${RUNS} generated (rules, command) pairs`, () => {
      const host = HOOK_HOSTS.get(shape.host)!;
      const { home, project } = tempProject();
      const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_NO_PATH_CHECK: "1", RTK_NO_TRACK: "1", RTK_ROUTES: "all", PATH: "/usr/bin:/bin" };
      fc.assert(
        fc.property(commandArb, rulesArb, fc.constantFrom(...shape.modes), (command, rules, mode) => {
          shape.write(home, project, rules);
          const run = runHook(host, Buffer.from(JSON.stringify(shape.event(command, project, mode))), env, () => {});
          // An allow earned by what an agent-typed `rtk` runs is the one verdict looser than the host's on the typed text.
          const before = shape.explicitAllow(mode) && intendedVerdict(command, rules, mode) === "allow" ? "allow" : hostVerdict(command, rules, mode);
          const after = judgeAnswer(command, run.answer.stdout, rules, mode);
          assert.ok(
            RANK[after] >= RANK[before],
            `${shape.host} ${mode}: \`${command}\` under ${JSON.stringify(rules)}: the host would ${before} the original, and ${after} rtk's answer ${run.answer.stdout}`,
          );
        }),
        { numRuns: RUNS },
      );
    });
  }
});
