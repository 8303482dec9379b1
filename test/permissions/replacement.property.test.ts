// Property: a rewrite never earns a looser verdict than the original. For hosts
// that judge the command they are handed back, rtk's hook answers a generated
// command under generated rules (allow rules on `rtk`, `rtk git *`, `rtk:*`,
// wildcards, the commands themselves); a stand-in of the host, written here from
// what the real hosts do (test/hosts-real/ checks them), judges that answer, and
// its verdict must be at least as strict as its verdict on the original.
//
// The stand-in: the host splits a command at `&&`, `||`, `;`, `|` and newlines
// and judges each part: deny if a deny rule matches a part, ask if an ask rule
// does, allow if every part is allowed by a rule or is one the host runs by
// itself (in bypassPermissions mode, any part), else ask. A hook's allow lets
// the replacement run unless a deny or ask rule matches it; a replacement with
// no decision is judged like a command the agent typed.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { runHook } from "../../src/hosts/hook.js";
import { HOOK_HOSTS } from "../../src/hosts/index.js";

const RUNS = Number(process.env["RTK_PROPERTY_RUNS"] ?? 10_000);

type Verdict = "allow" | "ask" | "deny";
const RANK: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };

/** Commands Claude Code 2.1.332 was seen to run unprompted in a project with no rules (test/hosts-real/). */
const RUNS_BY_ITSELF = new Set(["git status", "git log -n 3", "git diff", "ls -la", "ls", "cat f1.txt", "echo hi", "git diff --stat", "wc -l f1.txt"]);

const SIMPLE = [
  "git status",
  "git log -n 3",
  "git diff",
  "git diff --stat",
  "git push origin main",
  "git commit -m wip",
  "git add .",
  "ls -la",
  "ls",
  "cat f1.txt",
  "wc -l f1.txt",
  "echo hi",
  "npm test",
  "cargo test",
  "curl -s http://example.test",
  "env",
  "rm -rf build",
  "rtk git status",
  "rtk git push origin main",
  "rtk npm test",
  "FOO=1 git push",
  "timeout 5 npm test",
];

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

const commandArb = fc
  .array(fc.constantFrom(...SIMPLE), { minLength: 1, maxLength: 3 })
  .chain((parts) =>
    fc.array(fc.constantFrom(" && ", " || ", "; ", " | "), { minLength: parts.length - 1, maxLength: parts.length - 1 }).map((ops) => parts.map((p, i) => (i === 0 ? p : ops[i - 1] + p)).join("")),
  );

const rulesArb = fc.record(
  {
    allow: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 4 }),
    ask: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 1 }),
    deny: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 1 }),
  },
  { noNullPrototype: true },
);

type Rules = { allow: string[]; ask: string[]; deny: string[] };

/** The parts the host judges, each without leading assignments. */
function parts(command: string): string[] {
  return command
    .split(/&&|\|\||;|\||\n/)
    .map((p) => p.trim().replace(/^([A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ""))
    .filter(Boolean);
}

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

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Shape {
  host: string;
  /** Writes the rules where the host keeps them. */
  write(home: string, project: string, rules: Rules): void;
  event(command: string, cwd: string, mode: string): unknown;
  modes: readonly string[];
}

const bash = (list: string[]) => list.map((p) => `Bash(${p})`);

const SHAPES: readonly Shape[] = [
  {
    host: "claude",
    write: (_home, project, r) => put(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: bash(r.allow), ask: bash(r.ask), deny: bash(r.deny) } })),
    event: (command, cwd, mode) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd, permission_mode: mode }),
    modes: ["default", "acceptEdits", "dontAsk", "plan", "bypassPermissions"],
  },
  {
    host: "copilot",
    write: (_home, project, r) => put(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: bash(r.allow), ask: bash(r.ask), deny: bash(r.deny) } })),
    event: (command, cwd) => ({ tool_name: "bash", tool_input: { command }, cwd }),
    modes: ["default"],
  },
  {
    host: "continue",
    write: (home, _project, r) => {
      const list = (name: string, xs: string[]) => `${name}:\n${xs.map((x) => `  - ${JSON.stringify(`Bash(${x})`)}\n`).join("")}`;
      put(join(home, ".continue", "permissions.yaml"), list("allow", r.allow) + list("ask", r.ask) + list("exclude", r.deny));
    },
    event: (command, cwd) => ({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd }),
    modes: ["default"],
  },
];

function put(path: string, text: string) {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

describe("a rewrite never earns a looser verdict than the original (hosts that judge the replaced command)", () => {
  for (const shape of SHAPES) {
    test(`${shape.host}: ${RUNS} generated (rules, command) pairs`, () => {
      const host = HOOK_HOSTS.get(shape.host)!;
      const home = mkdtempSync(join(tmpdir(), "rtk-never-looser-"));
      made.push(home);
      const project = join(home, "app");
      mkdirSync(join(project, ".git"), { recursive: true });
      const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_NO_PATH_CHECK: "1", RTK_NO_TRACK: "1", RTK_ROUTES: "all", PATH: "/usr/bin:/bin" };
      fc.assert(
        fc.property(commandArb, rulesArb, fc.constantFrom(...shape.modes), (command, rules, mode) => {
          shape.write(home, project, rules);
          const run = runHook(host, Buffer.from(JSON.stringify(shape.event(command, project, mode))), env, () => {});
          const before = hostVerdict(command, rules, mode);
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
