// Conformance of every hook adapter against spec/hosts.md: recorded events of
// each host × every outcome (rewrite+allow, rewrite+ask, defer to deny, active
// deny, pass through), plus the fail-open paths. The BUILT launcher `bin/rtk`
// is spawned exactly as a host spawns it, with a temporary HOME holding the
// host's permission rules (spec/permissions.md, "Where rules come from").
// Expected answers are written from the spec, not from the implementation.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { spawn } from "node:child_process";
import { launch, loginProfile, RTK, type Run } from "../support/launch.js";
import { HOOK_HOSTS } from "../../src/hosts/index.js";
import { HOST_CASES } from "./cases/index.js";
import { REASON_MARK, type HostCase, type Recorded } from "./cases/types.js";
import { sessionContext } from "../../src/text/markers.js";

before(() => {
  ensureBuilt();
});

// ---- sandboxes ------------------------------------------------------------------------

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Home {
  home: string;
  /** The project folder the events' `cwd` names. */
  project: string;
}

function writeFile(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function makeHome(files: Record<string, unknown> = {}): Home {
  const home = mkdtempSync(join(tmpdir(), "rtk-conf-"));
  made.push(home);
  const project = join(home, "work", "app");
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  loginProfile(home);
  for (const [rel, doc] of Object.entries(files)) writeFile(join(home, rel), JSON.stringify(doc, null, 2) + "\n");
  return { home, project };
}

// One HOME with each host's rules in its own rule source: `git status` allowed,
// `git diff` ask (where the host has an ask list), `git push --force` denied
// (where the host has a deny list). `git log` matches no rule.
const RULES = {
  ".claude/settings.json": {
    permissions: { allow: ["Bash(git status)"], ask: ["Bash(git diff)"], deny: ["Bash(git push --force)"] },
  },
  ".cursor/cli-config.json": { permissions: { allow: ["Shell(git status)"], deny: ["Shell(git push --force)"] } },
  // Gemini judges the rewritten command: its rules allow the `rtk` form too.
  ".gemini/settings.json": {
    tools: { allowed: ["run_shell_command(git status)", "run_shell_command(rtk git status)"], confirmationRequired: ["run_shell_command(git diff)"] },
  },
  ".factory/settings.json": { commandDenylist: ["git push --force"] },
  // Qwen judges the `rtk …` call the model makes on its suggestion: its rules allow the `rtk` form too.
  ".qwen/settings.json": { permissions: { allow: ["Shell(git status)", "Shell(rtk git status)"], ask: ["Bash(git diff)"], deny: ["Bash(git push --force)"] } },
};

/** Continue's rules, in its YAML lists. */
const CONTINUE_LISTS = 'allow:\n  - "Bash(git status)"\n  - "Bash(rtk git status)"\nask:\n  - "Bash(git diff)"\nexclude:\n  - "Bash(git push --force)"\n';

// A HOME whose rules allow every use of `git status`, for the tests of how an event is read:
// a host that judges the rewritten command then takes the rewrite, with an allow.
const OPEN = {
  ".claude/settings.json": { permissions: { allow: ["Bash(git status:*)"] } },
  ".cursor/cli-config.json": { permissions: { allow: ["Shell(git status:*)"] } },
  ".gemini/settings.json": { tools: { allowed: ["run_shell_command(git status)", "run_shell_command(rtk git status)"] } },
  ".qwen/settings.json": { permissions: { allow: ["Shell(git status:*)", "Shell(rtk git status:*)"] } },
};

let ruled: Home;
let empty: Home;
let open: Home;
before(() => {
  ruled = makeHome(RULES);
  writeFile(join(ruled.home, ".continue", "permissions.yaml"), CONTINUE_LISTS);
  empty = makeHome();
  open = makeHome(OPEN);
  // Continue judges the rewritten command itself: its rules allow the `rtk` form too.
  writeFile(join(open.home, ".continue", "permissions.yaml"), 'allow:\n  - "Bash(git status:*)"\n  - "Bash(rtk git status:*)"\n');
});

// ---- running the launcher ---------------------------------------------------------------

function rtk(args: string[], input: string | Buffer, h: Home, extraEnv: Record<string, string> = {}): Promise<Run> {
  const env = { PATH: process.env["PATH"] ?? "", HOME: h.home, XDG_CONFIG_HOME: join(h.home, ".config"), RTK_ROUTES: "all", ...extraEnv };
  return launch(args, { cwd: h.project, env, input });
}

const hook = (host: string, input: string | Buffer, h: Home, env?: Record<string, string>) => rtk(["hook", host], input, h, env);

function lines(s: string): string[] {
  return s.split("\n").filter((l) => l.length > 0);
}

/** stdout is exactly one JSON document (an optional trailing newline aside) equal to `expected`. */
function assertJson(r: Run, expected: unknown, what: string) {
  assert.notEqual(r.stdout, "", `${what}: expected JSON on stdout, got nothing (stderr: ${r.stderr})`);
  assert.match(r.stdout, /^\{[\s\S]*\}\n?$/, `${what}: stdout must be one JSON object and nothing else: ${JSON.stringify(r.stdout)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.stdout);
  } catch (e) {
    assert.fail(`${what}: stdout is not one JSON document (${(e as Error).message}): ${JSON.stringify(r.stdout)}`);
  }
  assert.deepEqual(parsed, expected, `${what}: stdout ${r.stdout}`);
}

// ---- the hosts' cases ----------------------------------------------------------------------
// Realistic full events, as each host sends them, and the answers spec/hosts.md gives
// (one file per host in cases/).

type Host = string;
const CASE = new Map(HOST_CASES.map((c) => [c.id, c]));
const caseOf = (h: Host): HostCase => CASE.get(h) ?? assert.fail(`no conformance case ${h}`);

const recorded = (host: Host, command: string, cwd: string): Recorded => caseOf(host).recorded(command, cwd);
const cliName = (h: Host) => caseOf(h).cli;
const ALL_HOSTS: Host[] = HOST_CASES.map((c) => c.id);

/** The host judges the command it is handed back (src/hosts/types.ts `engine`): a rewrite only for what it would run unprompted. */
const judgesRewrite = (h: Host): boolean => HOOK_HOSTS.get(cliName(h))?.engine !== undefined;
/** It has its own read-only list rtk reads (Claude Code's, in its default mode). */
const runsReadOnlyByItself = (h: Host): boolean => caseOf(h).readOnlyByItself === true;

/** What the host must get for a rewrite; null = no JSON (the host answers by exit code). */
const rewriteAnswer = (host: Host, command: string, allow: boolean, toolInput: Record<string, unknown>): unknown => caseOf(host).rewriteAnswer(command, allow, toolInput);

/** The answer when one of the host's ask rules matches the command. */
function askAnswer(host: Host, command: string, toolInput: Record<string, unknown>): unknown {
  const c = caseOf(host);
  return c.askAnswer ? c.askAnswer(command, toolInput) : c.passAnswer;
}

/** The pass-through answer: null = nothing on stdout. */
const passAnswer = (host: Host): unknown => caseOf(host).passAnswer;

/** The active-deny answer; the reason's text is free but must name the rule. */
function activeDenyAnswer(host: Host): unknown {
  return caseOf(host).activeDenyAnswer ?? assert.fail(`${host} has no deny list`);
}

/** Replaces the free-text deny reason by a mark after checking that it names the rule. */
function normaliseReason(stdout: string, rule: string): string {
  let doc: any;
  try {
    doc = JSON.parse(stdout);
  } catch {
    return stdout;
  }
  const holder = doc?.hookSpecificOutput && "permissionDecisionReason" in doc.hookSpecificOutput ? doc.hookSpecificOutput : doc;
  // Claude, Copilot and Codex give the reason in permissionDecisionReason; Cursor in agent_message.
  for (const key of ["permissionDecisionReason", "agent_message"]) {
    if (holder && typeof holder[key] === "string") {
      assert.ok(holder[key].includes(rule), `the deny reason should name the rule \`${rule}\`: ${holder[key]}`);
      holder[key] = REASON_MARK;
    }
  }
  return JSON.stringify(doc);
}

/** A normal pass-through / defer answer: the host's pass-through shape, exit 0, quiet stderr. */
function assertPass(host: Host, r: Run, what: string) {
  assert.equal(r.status, 0, `${what}: exit code (stderr: ${r.stderr})`);
  const want = passAnswer(host);
  if (want === null) assert.equal(r.stdout, "", `${what}: stdout must be empty`);
  else assertJson(r, want, what);
}

function assertRewrite(host: Host, r: Run, command: string, allow: boolean, toolInput: Record<string, unknown>, what: string) {
  const line = caseOf(host).rewriteLine;
  if (line) {
    assert.equal(r.status, 2, `${what}: ${host} answers a rewrite with exit 2 (stderr: ${r.stderr})`);
    assert.equal(r.stdout, "", `${what}: ${host}'s stdout stays empty`);
    assert.deepEqual(lines(r.stderr), [line(command)], `${what}: ${host}'s stderr is the one suggestion line`);
    return;
  }
  assert.equal(r.status, 0, `${what}: exit code (stderr: ${r.stderr})`);
  assertJson(r, rewriteAnswer(host, command, allow, toolInput), what);
  assert.equal(r.stderr, "", `${what}: nothing on stderr`);
}

test("every host with a hook has conformance cases, and every case a host", () => {
  assert.deepEqual([...new Set(HOST_CASES.map((c) => c.cli))].sort(), [...HOOK_HOSTS.keys()].sort());
});

// ---- the outcome matrix -------------------------------------------------------------------------

interface Case {
  name: string;
  command: string;
  hosts: Host[];
  check: (host: Host, r: Run, rec: Recorded) => void;
}

const WITH_DENY: Host[] = HOST_CASES.filter((c) => c.lists.deny).map((c) => c.id);
const WITH_ALLOW: Host[] = HOST_CASES.filter((c) => c.lists.allow).map((c) => c.id);
const WITH_ASK: Host[] = HOST_CASES.filter((c) => c.lists.ask).map((c) => c.id);

const CASES: Case[] = [
  {
    name: "rewrite + allow (an allow rule for the command)",
    command: "git status",
    hosts: WITH_ALLOW,
    check: (h, r, rec) => assertRewrite(h, r, "rtk git status", true, rec.toolInput, `${h} allow`),
  },
  {
    // A host's ask rule cannot see `rtk git diff` as `git diff`: a rewrite left to the host's
    // rules (no decision) could be allowed by them (`Bash(rtk:*)`). A host that judges the
    // rewritten command gets no rewrite (it asks about the command as typed); the others an
    // answer that makes them ask where their shape can say so, else none.
    name: "rewrite held or asked (an ask rule for the command)",
    command: "git diff",
    hosts: WITH_ASK,
    check: (h, r, rec) => {
      const expected = judgesRewrite(h) ? null : askAnswer(h, "rtk git diff", rec.toolInput);
      if (expected === null) assertPass(h, r, `${h} ask rule`);
      else assertJson(r, expected, `${h} ask rule`);
    },
  },
  {
    // Where no rule matches, a host that judges the rewritten command would ask about it (git log
    // outside a repository is not among what Claude Code runs by itself): left as typed. Other
    // hosts get the rewrite with no decision, their own policy running on it.
    name: "no rule matches: held where the host judges the rewrite, else rewrite + ask",
    command: "git log",
    hosts: ALL_HOSTS,
    check: (h, r, rec) => {
      // Codex runs any command unprompted in its sandbox (a forced rm excepted), Crush `git log` (its read-only list): the rewrite is handed back with its allow.
      if (cliName(h) === "codex" || cliName(h) === "crush") assertRewrite(h, r, "rtk git log", true, rec.toolInput, `${h} no rule`);
      else if (judgesRewrite(h)) assertPass(h, r, `${h} no rule`);
      else assertRewrite(h, r, "rtk git log", false, rec.toolInput, `${h} no rule`);
    },
  },
  {
    name: "a command the host runs by itself (Claude Code's read-only `ls -la` in the project): rewrite + allow",
    command: "ls -la",
    hosts: ALL_HOSTS,
    check: (h, r, rec) => {
      if (!judgesRewrite(h)) assertRewrite(h, r, "rtk ls -la", false, rec.toolInput, `${h} no rule`);
      else if (runsReadOnlyByItself(h)) assertRewrite(h, r, "rtk ls -la", true, rec.toolInput, `${h} read-only`);
      else assertPass(h, r, `${h} no rule`);
    },
  },
  {
    name: "defer to deny (a deny rule matches: say nothing, the host's own deny runs)",
    command: "git push --force",
    hosts: WITH_DENY,
    check: (h, r) => {
      assertPass(h, r, `${h} defer deny`);
      assert.equal(r.stderr, "", `${h} defer deny: nothing on stderr`);
    },
  },
  {
    name: "active deny (`rtk git push --force` typed by the agent under the deny rule `git push --force`)",
    command: "rtk git push --force",
    hosts: WITH_DENY,
    check: (h, r) => {
      // A gate refuses by exit 2, the reason on stderr.
      if (caseOf(h).rewriteLine) {
        assert.equal(r.status, 2, `${h} active deny: exit code (stderr: ${r.stderr})`);
        assert.equal(r.stdout, "", `${h} active deny: stdout stays empty`);
        assert.match(r.stderr, /denied by your rule `git push --force/, `${h} active deny: the reason names the rule`);
        return;
      }
      assert.equal(r.status, 0, `${h} active deny: exit code (stderr: ${r.stderr})`);
      // The documentation wins over the spec: Cursor's deny carries the reason in `agent_message`.
      assertJson({ ...r, stdout: normaliseReason(r.stdout, "git push --force") }, activeDenyAnswer(h), `${h} active deny`);
    },
  },
  ...(
    [
      ["no route", "echo hi"],
      ["unsafe: stdout to a file", "git status > out.txt"],
      ["already rtk", "rtk git status"],
      ["parse error", 'git status "'],
    ] as const
  ).map(([why, command]): Case => ({
    name: `pass through (${why}: \`${command}\`)`,
    command,
    hosts: ALL_HOSTS,
    check: (h, r, rec) => {
      // An agent-typed `rtk` before a command the host would allow gets the host's allow, as typed, where its answer can carry one.
      if (why === "already rtk" && r.stdout.trim() && HOOK_HOSTS.get(cliName(h))?.engine?.explicitAllow) assertRewrite(h, r, command, true, rec.toolInput, `${h} allowed as typed`);
      else assertPass(h, r, `${h} pass (${why})`);
      assert.ok(lines(r.stderr).length <= 1, `${h} pass (${why}): at most one stderr line: ${r.stderr}`);
    },
  })),
];

describe("outcomes × hosts (spec/hosts.md)", { concurrency: true }, () => {
  for (const c of CASES) {
    describe(c.name, { concurrency: true }, () => {
      for (const host of c.hosts) {
        test(host, async () => {
          const rec = recorded(host, c.command, ruled.project);
          const r = await hook(cliName(host), JSON.stringify(rec.event), ruled);
          c.check(host, r, rec);
        });
      }
    });
  }

  describe("Kiro has no rule source (permissions.md): a deny-looking command is still suggested", { concurrency: true }, () => {
    test("kiro: `git push --force` under Claude's deny rule is not Kiro's rule", async () => {
      const rec = recorded("kiro", "git push --force", ruled.project);
      const r = await hook("kiro", JSON.stringify(rec.event), ruled);
      assertRewrite("kiro", r, "rtk git push --force", false, rec.toolInput, "kiro git push --force");
    });
  });
});

describe("every shell tool name Copilot uses (shape 1) is answered as Claude Code", { concurrency: true }, () => {
  for (const toolName of ["bash", "Bash", "runTerminalCommand", "run_in_terminal"]) {
    test(toolName, async () => {
      const rec = recorded("copilot1", "git status", ruled.project);
      rec.event["tool_name"] = toolName;
      const r = await hook("copilot", JSON.stringify(rec.event), ruled);
      assertRewrite("copilot1", r, "rtk git status", true, rec.toolInput, `copilot ${toolName}`);
    });
  }
  test('Copilot CLI (shape 2) with `toolName: "bash"`: no rule, nothing rewritten (Copilot would judge `rtk …`); an allow rule, modifiedArgs with the allow', async () => {
    const rec = recorded("copilot2", "git log -n 5", empty.project);
    assertPass("copilot2", await hook("copilot", JSON.stringify(rec.event), empty), "copilot2 default");
    const allowed = recorded("copilot2", "git status", ruled.project);
    assertRewrite("copilot2", await hook("copilot", JSON.stringify(allowed.event), ruled), "rtk git status", true, allowed.toolInput, "copilot2 allowed");
  });
});

describe("the original tool input is kept whole", { concurrency: true }, () => {
  test("Claude's updatedInput keeps every tool_input field, even ones rtk does not know", async () => {
    const rec = recorded("claude", "git status", ruled.project);
    const toolInput = { ...rec.toolInput, run_in_background: false, dangerouslyDisableSandbox: false, nested: { a: [1, 2, { b: "c" }] } };
    rec.event["tool_input"] = toolInput;
    const r = await hook("claude", JSON.stringify(rec.event), ruled);
    assertRewrite("claude", r, "rtk git status", true, toolInput, "claude extra fields");
    const out = JSON.parse(r.stdout).hookSpecificOutput.updatedInput;
    for (const k of Object.keys(toolInput)) assert.ok(k in out, `updatedInput lost \`${k}\``);
  });
  test("Copilot's modifiedArgs keeps every toolArgs field", async () => {
    const rec = recorded("copilot2", "git status", ruled.project);
    const args = { command: "git status", description: "Show status", initial_wait: 30, mode: "sync", sessionId: "s-1" };
    rec.event["toolArgs"] = JSON.stringify(args);
    const r = await hook("copilot", JSON.stringify(rec.event), ruled);
    assertRewrite("copilot2", r, "rtk git status", true, args, "copilot2 extra fields");
    const out = JSON.parse(r.stdout).modifiedArgs;
    for (const k of Object.keys(args)) assert.ok(k in out, `modifiedArgs lost \`${k}\``);
  });
  test("Copilot shape 1's updatedInput keeps every tool_input field", async () => {
    const rec = recorded("copilot1", "git status", ruled.project);
    const r = await hook("copilot", JSON.stringify(rec.event), ruled);
    const out = JSON.parse(r.stdout).hookSpecificOutput.updatedInput;
    assert.deepEqual(out, { ...rec.toolInput, command: "rtk git status" });
  });
});

// ---- fail open ------------------------------------------------------------------------------------

/** An event of the host whose tool input lacks (Copilot CLI: `toolArgs`) entirely. */
function withoutToolInput(host: Host, cwd: string): Record<string, unknown> {
  const e = { ...recorded(host, "git status", cwd).event };
  delete e[caseOf(host).inputField];
  return e;
}

/** Another tool's event, as the host sends it. */
function otherTool(host: Host, cwd: string): Record<string, unknown> {
  return caseOf(host).otherTool({ ...recorded(host, "git status", cwd).event }, cwd);
}

/** A valid event over 1 MiB (a `git status` with a huge description). */
function hugeEvent(host: Host, cwd: string): string {
  const pad = "x".repeat(2 * 1024 * 1024);
  const c = caseOf(host);
  const rec = recorded(host, "git status", cwd);
  if (c.inputAsString) return JSON.stringify({ ...rec.event, [c.inputField]: JSON.stringify({ command: "git status", description: pad }) });
  return JSON.stringify({ ...rec.event, [c.inputField]: { ...rec.toolInput, description: pad } });
}

function assertFailOpen(host: Host, r: Run, what: string) {
  assert.equal(r.status, 0, `${what}: exit 0 (stderr: ${r.stderr})`);
  const want = passAnswer(host);
  if (want === null) assert.equal(r.stdout, "", `${what}: stdout must be empty, got ${JSON.stringify(r.stdout)}`);
  else assertJson(r, want, what);
  assert.ok(lines(r.stderr).length <= 1, `${what}: at most one line on stderr, got ${JSON.stringify(r.stderr)}`);
}

describe("fail open: every adapter answers pass-through with exit 0", { concurrency: true }, () => {
  for (const host of ALL_HOSTS) {
    describe(host, { concurrency: true }, () => {
      const name = cliName(host);
      test("empty stdin", async () => assertFailOpen(host, await hook(name, "", empty), `${host} empty`));
      test("whitespace-only stdin", async () => assertFailOpen(host, await hook(name, " \n\t\n", empty), `${host} blank`));
      test("malformed JSON", async () => {
        const text = JSON.stringify(recorded(host, "git status", empty.project).event).slice(0, -7);
        assertFailOpen(host, await hook(name, text, empty), `${host} malformed`);
      });
      test("JSON that is not an object", async () => assertFailOpen(host, await hook(name, '["git status"]', empty), `${host} array`));
      test("missing tool_input", async () => assertFailOpen(host, await hook(name, JSON.stringify(withoutToolInput(host, empty.project)), empty), `${host} no tool_input`));
      test("another tool's event", async () => assertFailOpen(host, await hook(name, JSON.stringify(otherTool(host, empty.project)), empty), `${host} other tool`));
      test("an event over 1 MiB", async () => {
        const text = hugeEvent(host, empty.project);
        assert.ok(Buffer.byteLength(text) > 1024 * 1024);
        assertFailOpen(host, await hook(name, text, empty), `${host} huge`);
      });
      test("a BOM-prefixed event is answered normally", async () => {
        const rec = recorded(host, "git status", open.project);
        const r = await hook(name, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(rec.event))]), open);
        assertRewrite(host, r, "rtk git status", caseOf(host).lists.allow, rec.toolInput, `${host} BOM`);
      });
    });
  }

  test("claude: several leading BOMs are all stripped", async () => {
    const rec = recorded("claude", "git status", open.project);
    const r = await hook("claude", "\uFEFF\uFEFF" + JSON.stringify(rec.event), open);
    assertRewrite("claude", r, "rtk git status", true, rec.toolInput, "claude BOM×2");
  });
  test("claude: another hook event (PostToolUse) → no output", async () => {
    const e = { ...recorded("claude", "git status", empty.project).event, hook_event_name: "PostToolUse", tool_response: { stdout: "", stderr: "" } };
    assertFailOpen("claude", await hook("claude", JSON.stringify(e), empty), "claude PostToolUse");
  });
  test("claude: tool_input.command that is not a string → no output", async () => {
    const e = { ...recorded("claude", "git status", empty.project).event, tool_input: { command: ["git", "status"] } };
    assertFailOpen("claude", await hook("claude", JSON.stringify(e), empty), "claude command array");
  });
  test("copilot CLI: toolArgs that is not valid JSON → no output", async () => {
    const e = { ...recorded("copilot2", "git status", empty.project).event, toolArgs: '{"command":"git status"' };
    assertFailOpen("copilot2", await hook("copilot", JSON.stringify(e), empty), "copilot2 bad toolArgs");
  });
  test("RTK_DISABLED=1 → pass through (claude: no output; cursor: {})", async () => {
    const c = await hook("claude", JSON.stringify(recorded("claude", "git status", ruled.project).event), ruled, { RTK_DISABLED: "1" });
    assertPass("claude", c, "claude disabled");
    const k = await hook("cursor", JSON.stringify(recorded("cursor", "git status", ruled.project).event), ruled, { RTK_DISABLED: "1" });
    assertPass("cursor", k, "cursor disabled");
  });
});

describe("Codex needs a known permission_mode", { concurrency: true }, () => {
  test("unknown permission_mode → no output", async () => {
    const e = { ...recorded("codex", "git status", ruled.project).event, permission_mode: "yolo-mode" };
    assertFailOpen("codex", await hook("codex", JSON.stringify(e), ruled), "codex unknown mode");
  });
  test("missing permission_mode → no output", async () => {
    const e = { ...recorded("codex", "git status", ruled.project).event };
    delete e["permission_mode"];
    assertFailOpen("codex", await hook("codex", JSON.stringify(e), ruled), "codex missing mode");
  });
  test("permission_mode that is not a string → no output", async () => {
    const e = { ...recorded("codex", "git status", ruled.project).event, permission_mode: 1 };
    assertFailOpen("codex", await hook("codex", JSON.stringify(e), ruled), "codex numeric mode");
  });
});

describe("Codex's own rules: a command they forbid, prompt for or allow is left to Codex as typed", { concurrency: true }, () => {
  const RULES_FILE = [
    "# Never push from the agent; a `)` in a comment is not the end of a rule.",
    "prefix_rule(",
    '    pattern = ["git", ["push", "reset"]],',
    '    decision = "forbidden",',
    '    justification = "Use the review flow (see CONTRIBUTING)",',
    ")",
    'prefix_rule(pattern = ["git", "diff", "--cached"], decision = "prompt")',
    'prefix_rule(pattern = ["git", "status"])',
  ].join("\n");
  let h: Home;
  before(() => {
    h = makeHome();
    writeFile(join(h.home, ".codex", "rules", "default.rules"), RULES_FILE);
    writeFile(join(h.project, ".codex", "rules", "project.rules"), 'prefix_rule(pattern = ["git", "log", "--all"], decision = "forbidden")\n');
  });
  for (const [command, left] of [
    ["git push --force origin main", true],
    ["git reset --hard HEAD~1", true],
    ["cd sub && git push", true],
    ["git diff --cached", true],
    ["git log --all", true],
    // `prefix_rule(pattern = ["git", "status"])` allows it: Codex runs it outside its sandbox, `rtk git status` would run inside.
    ["git status", true],
    ["git diff", false],
    ["git log -5", false],
  ] as const) {
    test(`${command} → ${left ? "no answer (Codex judges it as typed)" : "rewrite + allow"}`, async () => {
      const rec = recorded("codex", command, h.project);
      const r = await hook("codex", JSON.stringify(rec.event), h);
      if (left) assertPass("codex", r, command);
      else assertRewrite("codex", r, `rtk ${command}`, true, rec.toolInput, command);
    });
  }
  test("CODEX_HOME moves the user's rules", async () => {
    const moved = makeHome();
    writeFile(join(moved.home, "codex-home", "rules", "x.rules"), 'prefix_rule(pattern = ["git", "status"], decision = "forbidden")\n');
    const rec = recorded("codex", "git status", moved.project);
    assertPass("codex", await hook("codex", JSON.stringify(rec.event), moved, { CODEX_HOME: join(moved.home, "codex-home") }), "CODEX_HOME");
    assertRewrite("codex", await hook("codex", JSON.stringify(rec.event), moved), "rtk git status", true, rec.toolInput, "without CODEX_HOME");
  });
});

// Gemini CLI 0.61 reads `tools.exclude` as tool names: an entry naming a command names no tool, and Gemini ignores it.
// A policy file's deny rule is Gemini's way to deny a command.
describe("Gemini's denied commands: rtk leaves them to Gemini, and denies them itself behind a typed rtk", { concurrency: true }, () => {
  let h: Home;
  before(() => {
    h = makeHome({ ".gemini/settings.json": { tools: { allowed: ["run_shell_command(rtk)"], exclude: ["run_shell_command(git reset)"] } } });
    writeFile(join(h.home, ".gemini", "policies", "rules.toml"), '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git push"\ndecision = "deny"\npriority = 500\n');
  });
  test("git push origin main → no answer: Gemini's own policy sees the command as typed", async () => {
    assertPass("gemini", await hook("gemini", JSON.stringify(recorded("gemini", "git push origin main", h.project).event), h), "denied");
  });
  test("rtk git push origin main, typed by the agent → rtk answers Gemini's deny (its policy cannot see through the prefix)", async () => {
    const r = await hook("gemini", JSON.stringify(recorded("gemini", "rtk git push origin main", h.project).event), h);
    assert.equal(r.status, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as { decision?: string; reason?: string };
    assert.equal(answer.decision, "deny");
    assert.match(answer.reason ?? "", /git push/);
  });
  test("git reset --hard, named in tools.exclude (which Gemini ignores) → left as typed, and not denied behind a typed rtk", async () => {
    assertPass("gemini", await hook("gemini", JSON.stringify(recorded("gemini", "git reset --hard", h.project).event), h), "excluded");
    assertPass("gemini", await hook("gemini", JSON.stringify(recorded("gemini", "rtk git reset --hard", h.project).event), h), "typed rtk");
  });
  test("git status, which no rule allows → left to Gemini as typed (it would judge `rtk git status`)", async () => {
    assertPass("gemini", await hook("gemini", JSON.stringify(recorded("gemini", "git status", h.project).event), h), "not allowed");
  });
});

describe("the event's cwd decides the project rules", { concurrency: true }, () => {
  test("claude: an allow rule in <cwd>/.claude/settings.local.json earns allow", async () => {
    const h = makeHome();
    writeFile(join(h.project, ".claude", "settings.local.json"), JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    const other = makeHome();
    const rec = recorded("claude", "git status", h.project);
    // rtk starts in another folder: only the event's cwd points at the project.
    const r = await hook("claude", JSON.stringify(rec.event), { home: h.home, project: other.project });
    assertRewrite("claude", r, "rtk git status", true, rec.toolInput, "claude project rules");
  });
});

describe("a broken rule source is skipped with one warning; the hook still answers", { concurrency: true }, () => {
  for (const [host, rel] of [
    ["claude", ".claude/settings.json"],
    ["cursor", ".cursor/cli-config.json"],
    ["gemini", ".gemini/settings.json"],
  ] as const) {
    test(`${host}: ${rel} does not parse → its rules are skipped, exit 0, one stderr line`, async () => {
      const h = makeHome();
      writeFile(join(h.home, rel), '{"permissions": {"allow": ["Bash(git status)"');
      // `ls` in the project: Claude Code runs it by itself (rewrite + allow); the others would judge `rtk ls` (no rewrite).
      const rec = recorded(host, "ls", h.project);
      const r = await hook(host, JSON.stringify(rec.event), h);
      assert.equal(r.status, 0, r.stderr);
      if (runsReadOnlyByItself(host)) assertJson(r, rewriteAnswer(host, "rtk ls", true, rec.toolInput), `${host} broken rules`);
      else assertJson(r, passAnswer(host), `${host} broken rules`);
      assert.equal(lines(r.stderr).length, 1, `one warning: ${r.stderr}`);
    });
  }
  test("claude: an event cwd that does not exist still gets the user's rules", async () => {
    const rec = recorded("claude", "git status", "/nonexistent/rtk-test/project");
    const r = await hook("claude", JSON.stringify(rec.event), ruled);
    assertRewrite("claude", r, "rtk git status", true, rec.toolInput, "claude missing cwd");
  });
});

test("an unknown host name: exit 0, nothing on stdout, one line on stderr", async () => {
  const r = await hook("no-such-host", JSON.stringify(recorded("claude", "git status", empty.project).event), empty);
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "");
  assert.equal(lines(r.stderr).length, 1, `stderr: ${r.stderr}`);
});

// ---- pathological input: limits, stdin held open, bytes that are not text ----------------------

/**
 * A command of about `bytes` that rtk rewrites, and the host's rules allow whole, when it is short: `git status ; git status ; …`
 * (Gemini CLI meets the whole text with its prefixes first, and a `;` right after one is no boundary).
 */
function allowedCommand(bytes: number): string {
  return Array<string>(Math.ceil(bytes / 13))
    .fill("git status")
    .join(" ; ");
}

// A few at a time: each hook reads a megabyte, and one starved of its stdin for a second on a busy
// machine answers "nothing came", which is right for it but not what these cases look at.
describe("pathological commands: past the limits, the pass-through answer (no rewrite, no allow) and one line saying why", { concurrency: 4 }, () => {
  for (const host of ALL_HOSTS) {
    const name = cliName(host);
    test(`${host}: the short form is rewritten (the control)`, async () => {
      const command = allowedCommand(40);
      const rec = recorded(host, command, ruled.project);
      const r = await hook(name, JSON.stringify(rec.event), ruled);
      // Crush asks about a command with `;` in it, whatever it holds: left as typed.
      if (name === "crush") return assertPass(host, r, `${host} control`);
      const allow = caseOf(host).lists.allow;
      assertRewrite(host, r, command.replaceAll("git status", "rtk git status"), allow, rec.toolInput, `${host} control`);
    });
    test(`${host}: a 1 MB command whose every part the rules allow`, async () => {
      const rec = recorded(host, allowedCommand(1_000_000), ruled.project);
      const r = await hook(name, JSON.stringify(rec.event), ruled);
      assertFailOpen(host, r, `${host} 1 MB`);
      assert.match(r.stderr, /longer than 64 KiB/, `${host} 1 MB: the line names the limit`);
    });
    test(`${host}: 900 000 backquotes`, async () => {
      const r = await hook(name, JSON.stringify(recorded(host, "`".repeat(900_000), ruled.project).event), ruled);
      assertFailOpen(host, r, `${host} backquotes`);
      assert.match(r.stderr, /longer than 64 KiB/, `${host} backquotes: the line names the limit`);
    });
  }
  test("claude: a command just under 64 KiB that is cheap to read (a here-document) is still rewritten", async () => {
    const command = `git status && cat <<'EOF' >/dev/null\n${"x".repeat(60 * 1024)}\nEOF`;
    const rec = recorded("claude", command, open.project);
    const r = await hook("claude", JSON.stringify(rec.event), open);
    assertRewrite("claude", r, "rtk " + command, true, rec.toolInput, "claude 60 KiB here-document");
  });
  test("claude: the same command a few bytes over 64 KiB is not read", async () => {
    const command = `git status && cat <<'EOF' >/dev/null\n${"x".repeat(64 * 1024)}\nEOF`;
    const r = await hook("claude", JSON.stringify(recorded("claude", command, empty.project).event), empty);
    assertFailOpen("claude", r, "claude 64 KiB here-document");
    assert.match(r.stderr, /longer than 64 KiB/);
  });
  for (const host of WITH_DENY) {
    test(`${host}: \`rtk git push --force\` padded past 64 KiB under a deny rule is denied (padding is no way past the rules)`, async () => {
      const command = `rtk git push --force # ${"x".repeat(70 * 1024)}`;
      const r = await hook(cliName(host), JSON.stringify(recorded(host, command, ruled.project).event), ruled);
      // A gate refuses by exit 2, the reason on stderr.
      if (caseOf(host).rewriteLine) {
        assert.equal(r.status, 2, r.stderr);
        assert.match(r.stderr, /too long for rtk to check/);
        return;
      }
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /deny/, `${host}: ${r.stdout.slice(0, 300)}`);
      if (JSON.stringify(caseOf(host).activeDenyAnswer).includes(REASON_MARK)) assert.match(r.stdout, /too long for rtk to check/);
    });
  }
  test("claude: the padded command without any deny or ask rule is left to the host (fail open)", async () => {
    const command = `rtk git push --force # ${"x".repeat(70 * 1024)}`;
    const r = await hook("claude", JSON.stringify(recorded("claude", command, empty.project).event), empty);
    assertFailOpen("claude", r, "claude padded, no rules");
  });
  test("codex with rules of its own: a 1 MB command is left to Codex", async () => {
    const h = makeHome(RULES);
    writeFile(join(h.home, ".codex", "rules", "default.rules"), 'prefix_rule(pattern = ["git", "push"], decision = "forbidden")\n');
    const r = await hook("codex", JSON.stringify(recorded("codex", allowedCommand(1_000_000), h.project).event), h);
    assertFailOpen("codex", r, "codex 1 MB with rules");
  });
});

interface OpenRun extends Run {
  /** Whether rtk exited while its stdin was still open. */
  exitedWithStdinOpen: boolean;
}

/** Runs `rtk hook <host>`, writing `chunks` one after another (a pause between them) and never closing stdin. */
function hookKeepingStdinOpen(host: string, chunks: (string | Buffer)[], h: Home, gapMs = 50): Promise<OpenRun> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env["PATH"] ?? "", HOME: h.home, XDG_CONFIG_HOME: join(h.home, ".config"), RTK_ROUTES: "all" };
    const child = spawn(RTK, ["hook", host], { cwd: h.project, env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {});
    child.on("error", reject);
    child.on("close", (status) => {
      const exitedWithStdinOpen = !child.stdin.writableEnded;
      child.stdin.destroy();
      resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), exitedWithStdinOpen });
    });
    const write = (i: number) => {
      if (i >= chunks.length) return;
      child.stdin.write(chunks[i]!);
      setTimeout(() => write(i + 1), gapMs);
    };
    write(0);
  });
}

describe("a host that keeps stdin open after its event: answered as soon as the event is whole", { concurrency: true }, () => {
  for (const host of ALL_HOSTS) {
    test(`${host}: one write, stdin left open`, async () => {
      const rec = recorded(host, "git status", open.project);
      const r = await hookKeepingStdinOpen(cliName(host), [JSON.stringify(rec.event)], open);
      assert.ok(r.exitedWithStdinOpen);
      assertRewrite(host, r, "rtk git status", caseOf(host).lists.allow, rec.toolInput, `${host} stdin open`);
    });
  }
  test("claude: an event in three writes, with `}` and `{` inside its strings, is read whole", async () => {
    const rec = recorded("claude", "git status", open.project);
    rec.toolInput["description"] = 'closes } and }} and "quoted }" \\ {';
    const text = JSON.stringify(rec.event);
    const cut = text.indexOf("}}") + 2;
    const r = await hookKeepingStdinOpen("claude", [text.slice(0, cut), text.slice(cut, cut + 5), text.slice(cut + 5) + "\n"], open);
    assertRewrite("claude", r, "rtk git status", true, rec.toolInput, "claude split event");
  });
  test("claude: an event that arrives slowly (five pieces 400 ms apart, longer than a second in all) is read whole", async () => {
    const rec = recorded("claude", "git status", open.project);
    const text = JSON.stringify(rec.event);
    const step = Math.ceil(text.length / 5);
    const pieces = Array.from({ length: 5 }, (_, i) => text.slice(i * step, (i + 1) * step));
    const r = await hookKeepingStdinOpen("claude", pieces, open, 400);
    assertRewrite("claude", r, "rtk git status", true, rec.toolInput, "claude slow event");
  });
  test("claude: an event that never completes gets the pass-through answer, with stdin still open", async () => {
    const text = JSON.stringify(recorded("claude", "git status", empty.project).event).slice(0, -1);
    const r = await hookKeepingStdinOpen("claude", [text], empty);
    assert.ok(r.exitedWithStdinOpen);
    assertFailOpen("claude", r, "claude incomplete event");
    assert.match(r.stderr, /no whole event/);
  });
});

describe("an event rtk cannot hand back exactly: the pass-through answer", { concurrency: true }, () => {
  for (const host of ALL_HOSTS) {
    test(`${host}: a byte that is not UTF-8 in the command`, async () => {
      const text = JSON.stringify(recorded(host, "git status --short XX", empty.project).event);
      // Copilot CLI nests the command in a JSON string; the byte is there too.
      const at = text.indexOf("XX");
      const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at + 2))]);
      const r = await hook(cliName(host), bytes, empty);
      assertFailOpen(host, r, `${host} invalid UTF-8`);
      assert.match(r.stderr, /not valid UTF-8/);
    });
    test(`${host}: a lone surrogate (\\ud800) in the command`, async () => {
      const text = JSON.stringify(recorded(host, "git status --short XX", empty.project).event);
      // In Copilot CLI's toolArgs (a JSON string inside the event) the escape is escaped once more.
      const r = await hook(cliName(host), text.replace("XX", caseOf(host).inputAsString ? "\\\\ud800" : "\\ud800"), empty);
      assertFailOpen(host, r, `${host} lone surrogate`);
      assert.match(r.stderr, /lone surrogate/);
    });
  }
  test("claude: a surrogate pair (an emoji written as \\ud83d\\ude00) is a character like any other", async () => {
    const rec = recorded("claude", "git status -- 😀", open.project);
    const r = await hook("claude", JSON.stringify(rec.event).replace("😀", "\\ud83d\\ude00"), open);
    assertRewrite("claude", r, "rtk git status -- 😀", true, rec.toolInput, "claude surrogate pair");
  });
});

// ---- the current documentation of each host (docs/hosts.md): where it differs from the spec, it wins ----------

describe("current documentation: shapes the spec did not have", { concurrency: true }, () => {
  test("Claude Code: rtk's answer is a rewrite with `allow` (earned) or none at all; never `ask` or `defer` (a headless session stops on them)", async () => {
    const rec = recorded("claude", "git status", ruled.project);
    const out = JSON.parse((await hook("claude", JSON.stringify(rec.event), ruled)).stdout).hookSpecificOutput;
    assert.equal(out.permissionDecision, "allow");
    assert.equal(out.updatedInput.command, "rtk git status");
    // An ask rule, or no rule: Claude Code judges the command as typed.
    for (const command of ["git diff", "git log"]) assertPass("claude", await hook("claude", JSON.stringify(recorded("claude", command, ruled.project).event), ruled), command);
  });
  test("Claude Code: an event whose permission_mode is unknown or absent is still read (unknown fields are tolerated)", async () => {
    const rec = recorded("claude", "git status", ruled.project);
    const e = { ...rec.event, permission_mode: "someFutureMode", effort: { level: "high" }, agent_id: "sub-1" };
    assertRewrite("claude", await hook("claude", JSON.stringify(e), ruled), "rtk git status", true, rec.toolInput, "claude unknown fields");
  });
  test("Copilot CLI: `toolArgs` given as an object (not the documented string) is read the same", async () => {
    const rec = recorded("copilot2", "git status", ruled.project);
    const e = { ...rec.event, toolArgs: rec.toolInput };
    assertRewrite("copilot2", await hook("copilot", JSON.stringify(e), ruled), "rtk git status", true, rec.toolInput, "copilot2 object toolArgs");
  });
  test("Copilot CLI: the `powershell` tool (Windows) is left alone: rtk reads POSIX shell, not PowerShell", async () => {
    const rec = recorded("copilot2", "git status", ruled.project);
    const r = await hook("copilot", JSON.stringify({ ...rec.event, toolName: "powershell" }), ruled);
    assertPass("copilot2", r, "copilot powershell");
  });
  test("Copilot CLI: an ask rule → no answer: Copilot asks about the command as typed, not about `rtk …`", async () => {
    const rec = recorded("copilot2", "git diff", ruled.project);
    assertPass("copilot2", await hook("copilot", JSON.stringify(rec.event), ruled), "copilot2 ask");
  });
  test("Cursor: both shapes from one installed command — preToolUse is rewritten, beforeShellExecution gets no opinion", async () => {
    const pre = recorded("cursor", "git status", ruled.project);
    assertRewrite("cursor", await hook("cursor", JSON.stringify(pre.event), ruled), "rtk git status", true, pre.toolInput, "cursor preToolUse");
    const shell = recorded("cursor-shell", "git status", empty.project);
    assertJson(await hook("cursor", JSON.stringify(shell.event), empty), {}, "cursor beforeShellExecution");
  });
  test("Factory Droid: a project's commandDenylist names the command as typed → left to Droid (silence); outside it, rewritten with no decision", async () => {
    const h = makeHome();
    writeFile(join(h.project, ".factory", "settings.json"), JSON.stringify({ commandDenylist: ["git log"] }));
    const denied = recorded("factory", "git log", h.project);
    assertPass("factory", await hook("factory", JSON.stringify(denied.event), h), "factory project deny");
    const other = recorded("factory", "git status", h.project);
    assertRewrite("factory", await hook("factory", JSON.stringify(other.event), h), "rtk git status", false, other.toolInput, "factory not denied");
  });
  test("Devin: its event has no cwd; DEVIN_PROJECT_DIR names the project whose Claude Code rules apply", async () => {
    const h = makeHome();
    writeFile(join(h.project, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    const other = makeHome();
    const rec = recorded("devin", "git status", h.project);
    // rtk starts elsewhere: only DEVIN_PROJECT_DIR points at the project.
    const r = await hook("devin", JSON.stringify(rec.event), { home: h.home, project: other.project }, { DEVIN_PROJECT_DIR: h.project });
    assertRewrite("devin", r, "rtk git status", true, rec.toolInput, "devin project rules");
    const without = await hook("devin", JSON.stringify(rec.event), { home: h.home, project: other.project });
    assertRewrite("devin", without, "rtk git status", false, rec.toolInput, "devin without DEVIN_PROJECT_DIR");
  });
  test("OpenHands: a terminal call with `is_input` types into the running process (`C-c`, an answer): no command, left alone", async () => {
    for (const command of ["git status", "C-c"]) {
      const rec = recorded("openhands", command, empty.project);
      rec.event["tool_input"] = { ...rec.toolInput, is_input: true };
      assertPass("openhands", await hook("openhands", JSON.stringify(rec.event), empty), `openhands is_input ${command}`);
    }
  });
  test("Cursor: a preToolUse event for another tool that carries a `command` is not a shell command", async () => {
    const e = { ...recorded("cursor", "git status", empty.project).event, tool_name: "MCP:run", tool_input: { command: "git status" } };
    assertJson(await hook("cursor", JSON.stringify(e), empty), {}, "cursor MCP");
  });
});

describe("session start: rtk's context, once, where the host's hook can add to a session", { concurrency: true }, () => {
  test("every host with a session-start entry has its event among its cases, and only those", () => {
    const withSession = [...HOOK_HOSTS.values()].filter((h) => h.session).map((h) => h.name);
    const cased = HOST_CASES.filter((c) => c.sessionStart).map((c) => c.cli);
    assert.deepEqual([...new Set(cased)].sort(), withSession.sort());
  });
  for (const c of HOST_CASES.filter((c) => c.sessionStart)) {
    const start = c.sessionStart!;
    test(`${c.id}: the session start gets the context`, async () => {
      const r = await hook(c.cli, JSON.stringify(start.event(empty.project)), empty);
      assert.equal(r.status, 0);
      assert.equal(r.stderr, "");
      const expected = start.answer(sessionContext());
      if (typeof expected === "string") assert.equal(r.stdout, expected, `${c.id} SessionStart: the text alone on stdout`);
      else assertJson(r, expected, `${c.id} SessionStart`);
    });
    test(`${c.id}: hooks.session_context = false in the user's config: nothing added`, async () => {
      const h = makeHome();
      writeFile(join(h.home, ".config", "rtk", "config.toml"), "[hooks]\nsession_context = false\n");
      const r = await hook(c.cli, JSON.stringify(start.event(h.project)), h);
      assert.equal(r.status, 0);
      if (start.silent === null) assert.equal(r.stdout, "");
      else assertJson(r, start.silent, `${c.id} SessionStart off`);
    });
    test(`${c.id}: the same event name with a tool is still the session start, never a rewrite`, async () => {
      const r = await hook(c.cli, JSON.stringify({ ...start.event(empty.project), tool_name: "Bash", tool_input: { command: "git status" } }), empty);
      assert.doesNotMatch(r.stdout, /rtk git status/);
    });
  }
  test("kiro: an agent configuration's agentSpawn (its older name for the session start) gets the context too", async () => {
    const r = await hook("kiro", JSON.stringify({ hook_event_name: "agentSpawn", cwd: empty.project }), empty);
    assert.equal(r.status, 0);
    assert.equal(r.stdout, sessionContext());
  });
  test("copilot: only the camelCase session start (a `source`, no tool, no event name) is one", async () => {
    for (const event of [
      { sessionId: "s", timestamp: 1, cwd: empty.project, source: "startup", toolName: "bash", toolArgs: "{}" },
      { sessionId: "s", timestamp: 1, cwd: empty.project, reason: "complete" },
      { hook_event_name: "SessionStart", session_id: "s", timestamp: "2026-12-04T00:00:00Z", cwd: empty.project, source: "startup" },
    ]) {
      const r = await hook("copilot", JSON.stringify(event), empty);
      assert.equal(r.status, 0);
      assert.ok(!r.stdout.includes("additionalContext"), `${JSON.stringify(event)}: ${r.stdout}`);
    }
  });
});
