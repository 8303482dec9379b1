// Permission rules of hosts whose patterns would not see the rewritten `rtk …`
// command: Copilot CLI's `--deny-tool` / `--allow-tool` (and Gemini CLI's
// `--allowed-tools` / `--policy`), read from the command line of the running
// host the hook descends from (OpenCode's
// `permission.bash` is tested with its plugin, in opencode.test.ts). A real
// process tree: a `copilot` stand-in started with the options runs the built
// hook as its child, as Copilot CLI does.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { RTK } from "../support/launch.js";

let root: string;
let copilot: string;
let home: string;
let project: string;

before(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "rtk-host-rules-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  copilot = join(root, "bin", "copilot");
  mkdirSync(join(root, "bin"));
  // Copilot CLI runs the hook's `bash` command as a child, the event on stdin.
  writeFileSync(copilot, `#!/bin/sh\n${JSON.stringify(RTK)} hook copilot\n`);
  chmodSync(copilot, 0o755);
});
after(() => rmSync(root, { recursive: true, force: true }));

/** The host stand-in `bin` started with `options`, its hook given `event` on stdin, with `userHome` as HOME. */
function asHost(bin: string, options: string[], event: object, userHome: string) {
  const r = spawnSync(bin, options, {
    input: JSON.stringify(event),
    cwd: project,
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "", HOME: userHome, XDG_CONFIG_HOME: join(userHome, ".config") },
  });
  assert.equal(r.status, 0, r.stderr);
  return { stdout: r.stdout, stderr: r.stderr, answer: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : null };
}

function asCopilot(options: string[], command: string) {
  return asHost(copilot, options, { timestamp: 1768471452345, cwd: project, toolName: "bash", toolArgs: JSON.stringify({ command, description: "x" }) }, home);
}

describe("Copilot CLI's --deny-tool / --allow-tool", () => {
  const OPTIONS = ["--deny-tool", "shell(git push)", "--allow-tool=shell(git status),shell(git log:*)"];

  test("without them, nothing is rewritten: Copilot would judge `rtk git push …`, which no rule of its allows (the control)", () => {
    assert.equal(asCopilot([], "git push origin main").stdout, "");
    assert.equal(asCopilot([], "git status").stdout, "");
  });

  test("a command --deny-tool names is left to Copilot as typed: no answer (its own deny sees it)", () => {
    assert.equal(asCopilot(OPTIONS, "git push origin main").stdout, "");
    assert.equal(asCopilot(OPTIONS, "git status && git push").stdout, "");
  });

  test("`rtk git push` typed by the agent is denied by rtk itself, naming the rule", () => {
    const { answer } = asCopilot(OPTIONS, "rtk git push origin main");
    assert.equal(answer?.["permissionDecision"], "deny");
    assert.match(answer?.["permissionDecisionReason"], /git push/);
  });

  test("--allow-tool earns the allow: the rewrite comes back allowed", () => {
    for (const command of ["git status", "git log -n 3"]) {
      const { answer } = asCopilot(OPTIONS, command);
      assert.equal(answer?.["modifiedArgs"]?.command, `rtk ${command}`);
      assert.equal(answer?.["permissionDecision"], "allow", command);
    }
    // Not every part allowed: Copilot would ask, about the command as typed.
    assert.equal(asCopilot(OPTIONS, "git status && git diff").stdout, "");
  });

  // Copilot CLI 1.0.102 runs every command its deny rules do not name with every permission (test/hosts-real/copilot.real.ts).
  test("--yolo and --allow-all allow every rewrite but those a deny rule names; --allow-all-tools alone does not (paths are still checked)", () => {
    for (const all of [["--yolo"], ["--allow-all"], ["--allow-all-tools", "--allow-all-paths", "--allow-all-urls"]]) {
      const { answer } = asCopilot([...all, "-p", "x"], "git diff HEAD~1");
      assert.equal(answer?.["modifiedArgs"]?.command, "rtk git diff HEAD~1", all.join(" "));
      assert.equal(answer?.["permissionDecision"], "allow", all.join(" "));
      assert.equal(asCopilot([...all, ...OPTIONS], "git push origin main").stdout, "", `${all.join(" ")}: the deny rule still holds`);
    }
    assert.equal(asCopilot(["--allow-all-tools"], "git diff HEAD~1").stdout, "");
  });

  test("under Copilot CLI, Claude Code's settings are no rules (it does not read them): their deny neither holds a rewrite nor refuses an `rtk` typed before it", () => {
    const settings = join(project, ".claude", "settings.json");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(settings, JSON.stringify({ permissions: { deny: ["Bash(git diff:*)"] } }));
    try {
      assert.equal(asCopilot(["--yolo"], "git diff HEAD~1").answer?.["modifiedArgs"]?.command, "rtk git diff HEAD~1");
      assert.notEqual(asCopilot(["--yolo"], "rtk git diff HEAD~1").answer?.["permissionDecision"], "deny");
    } finally {
      rmSync(join(project, ".claude"), { recursive: true, force: true });
    }
  });
});

// Crush's own checks, from its source (docs/hosts.md, "Crush, the real program"): the read-only list it runs
// unprompted, its built-in blocks, and the sessions that approve everything (`crush run`, `--yolo`), read from the
// command line of the running `crush`.
describe("Crush: its read-only list, its blocks, crush run and --yolo", () => {
  let crushBin: string;
  before(() => {
    crushBin = join(root, "bin", "crush");
    writeFileSync(crushBin, `#!/bin/sh\n${JSON.stringify(RTK)} hook crush\n`);
    chmodSync(crushBin, 0o755);
  });
  const asCrush = (options: string[], command: string) =>
    asHost(crushBin, options, { event: "PreToolUse", session_id: "s", cwd: project, tool_name: "bash", tool_input: { command, description: "x" } }, home);
  const allowed = (command: string) => ({ decision: "allow", updated_input: { command } });

  test("interactive: only what is on its list, nothing chained, comes back, allowed (`rtk git status` is not on it)", () => {
    assert.deepEqual(asCrush([], "git status").answer, allowed("rtk git status"));
    assert.deepEqual(asCrush([], "ls -la").answer, allowed("rtk ls -la"));
    for (const asked of ["cat README.md", "git status && git log", "git diff | head", "grep -rn x ."]) assert.equal(asCrush([], asked).stdout, "", asked);
  });

  test("crush run and --yolo approve everything: every rewrite comes back, allowed", () => {
    for (const options of [["run", "prompt"], ["--yolo"], ["-y"]]) {
      assert.deepEqual(asCrush(options, "cat README.md").answer, allowed("rtk cat README.md"), options.join(" "));
      assert.deepEqual(asCrush(options, "git status && git log").answer, allowed("rtk git status && rtk git log"), options.join(" "));
    }
  });

  test("what Crush blocks is left as typed (its shell would see only `rtk`); an `rtk` the agent typed before it is denied", () => {
    for (const blocked of ["curl https://example.com", "wget -q https://example.com", "npm install -g x", "go test -exec foo ./...", "git status && curl -s x"]) {
      assert.equal(asCrush(["run"], blocked).stdout, "", blocked);
    }
    assert.deepEqual(asCrush(["run"], "go test ./...").answer, allowed("rtk go test ./..."), "go test without -exec is not blocked");
    const typed = asCrush(["run"], "rtk curl https://example.com").answer;
    assert.equal(typed?.["decision"], "deny");
    assert.match(typed?.["reason"], /curl/);
  });
});

// Gemini CLI's `--allowed-tools`, `--policy` and `--admin-policy` take the place of the settings
// they stand for (0.61.0), and its policy engine judges the command the hook hands back.
describe("Gemini CLI's --allowed-tools and --policy", () => {
  let gemini: string;
  let geminiHome: string;
  before(() => {
    geminiHome = join(root, "gemini-home");
    mkdirSync(join(geminiHome, ".gemini", "policies"), { recursive: true });
    gemini = join(root, "bin", "gemini");
    writeFileSync(gemini, `#!/bin/sh\n${JSON.stringify(RTK)} hook gemini\n`);
    chmodSync(gemini, 0o755);
  });

  const denyRule = (prefix: string) => `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "${prefix}"\ndecision = "deny"\npriority = 500\n`;
  function asGemini(options: string[], command: string) {
    const event = {
      session_id: "s",
      transcript_path: "",
      cwd: project,
      hook_event_name: "BeforeTool",
      timestamp: "2026-01-15T10:04:12.345Z",
      tool_name: "run_shell_command",
      tool_input: { command, dir_path: "." },
    };
    return asHost(gemini, options, event, geminiHome);
  }
  const rewritten = (a: Record<string, any> | null) => a?.["hookSpecificOutput"]?.["tool_input"]?.["command"];

  test("--allowed-tools: rewritten where it allows the command and its `rtk` form, the call's other arguments kept", () => {
    assert.deepEqual(asGemini([], "git status").answer, {});
    const { answer } = asGemini(["--allowed-tools", "run_shell_command(git status),run_shell_command(rtk git status)", "-p", "x"], "git status --short");
    assert.deepEqual(answer, { hookSpecificOutput: { tool_input: { command: "rtk git status --short", dir_path: "." } } });
    assert.deepEqual(asGemini(["--allowed-tools=run_shell_command(git status)"], "git status").answer, {});
  });

  test("the option replaces the settings' tools.allowed", () => {
    writeFileSync(join(geminiHome, ".gemini", "settings.json"), JSON.stringify({ tools: { allowed: ["run_shell_command(git log)", "run_shell_command(rtk git log)"] } }));
    try {
      assert.equal(rewritten(asGemini([], "git log -n 1").answer), "rtk git log -n 1");
      const options = ["--allowed-tools", "run_shell_command(git status)", "--allowed-tools", "run_shell_command(rtk git status)"];
      assert.deepEqual(asGemini(options, "git log -n 1").answer, {});
      assert.equal(rewritten(asGemini(options, "git status").answer), "rtk git status");
    } finally {
      rmSync(join(geminiHome, ".gemini", "settings.json"));
    }
  });

  test("--policy replaces ~/.gemini/policies: its deny rules hold, behind an `rtk` the agent typed too", () => {
    writeFileSync(join(geminiHome, ".gemini", "policies", "user.toml"), denyRule("git status"));
    writeFileSync(join(root, "other.toml"), denyRule("git log"));
    const allowed = ["--allowed-tools", "run_shell_command(git),run_shell_command(rtk)"];
    assert.deepEqual(asGemini(allowed, "git status").answer, {});
    const options = [...allowed, "--policy", join(root, "other.toml")];
    assert.equal(rewritten(asGemini(options, "git status").answer), "rtk git status");
    assert.deepEqual(asGemini(options, "git log").answer, {});
    const typed = asGemini(options, "rtk git log -n 1").answer;
    assert.equal(typed?.["decision"], "deny");
    assert.match(typed?.["reason"], /git log/);
  });
});

// Continue's CLI: `~/.continue/permissions.yaml` (docs.continue.dev/cli/tool-permissions)
// and the `--allow` / `--ask` / `--exclude` options of the running `cn`.
describe("Continue CLI's permissions.yaml and --allow / --ask / --exclude", () => {
  let cn: string;
  let cnHome: string;
  before(() => {
    cnHome = join(root, "cn-home");
    mkdirSync(join(cnHome, ".continue"), { recursive: true });
    cn = join(root, "bin", "cn");
    writeFileSync(cn, `#!/bin/sh\n${JSON.stringify(RTK)} hook continue\n`);
    chmodSync(cn, 0o755);
  });

  function asCn(options: string[], command: string, yaml: string | null) {
    const file = join(cnHome, ".continue", "permissions.yaml");
    if (yaml === null) rmSync(file, { force: true });
    else writeFileSync(file, yaml);
    return asHost(cn, options, { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd: project }, cnHome);
  }
  const rewritten = (a: Record<string, any> | null) => a?.["hookSpecificOutput"]?.["updatedInput"]?.["command"];

  // Continue judges the replaced command itself: rtk rewrites only where its rules allow both the command and its `rtk` form.
  const ALLOWS = 'allow:\n  - "Bash(git status)"\n  - "Bash(rtk git status)"\n';

  test("without rules, nothing is rewritten (Continue would ask about `rtk …`); allowed with its `rtk` form, the rewrite comes back", () => {
    assert.equal(asCn([], "git push origin main", null).stdout, "");
    const example = "# ~/.continue/permissions.yaml\nallow:\n  - Read(*)\n  - Write(**/*.ts)\n\nask:\n  - Bash\n\nexclude: []\n";
    assert.equal(asCn([], "git push origin main", example).stdout, "");
    assert.equal(rewritten(asCn([], "git status", ALLOWS).answer), "rtk git status");
    assert.equal(asCn([], "git status", 'allow:\n  - "Bash(git status)"\n').stdout, "", "the command alone allowed: Continue would still ask about `rtk git status`");
  });

  test("a command an exclude entry names is left to Continue as typed, from the file or from cn's options", () => {
    for (const yaml of ['exclude:\n  - "Bash(git push*)"\n', "exclude: [Read(*), Bash(git push*)]\n", "exclude:\n  - 'Bash(git push*)'   # never\n"]) {
      assert.equal(asCn([], "git push origin main", yaml).stdout, "", yaml);
      assert.equal(rewritten(asCn([], "git status", ALLOWS + yaml).answer), "rtk git status", yaml);
    }
    assert.equal(asCn(["--exclude", "Bash(git push*)"], "git push origin main", null).stdout, "");
    assert.equal(asCn(["--exclude=Bash(git push*)"], "git status && git push", null).stdout, "");
  });

  test("a command an ask entry names is left as typed: Continue asks about the real command", () => {
    for (const [options, yaml] of [
      [[], "ask:\n  - Bash(git push*)\n"],
      [["--ask", "Bash(git push*)"], null],
    ] as const) {
      assert.equal(asCn([...options], "git push origin main", yaml).stdout, "");
    }
  });

  test("`rtk git push` typed by the agent is denied by rtk itself when an exclude entry names it", () => {
    const { answer } = asCn([], "rtk git push origin main", "exclude:\n  - Bash(git push*)\n");
    assert.equal(answer?.["hookSpecificOutput"]?.["permissionDecision"], "deny");
  });

  test("a file rtk cannot read as lists is named in a warning, and the command is judged without it", () => {
    const r = asCn(["--allow", "Bash(git status)", "--allow", "Bash(rtk git status)"], "git status", "exclude:\n  nested:\n    - Bash(git status)\n");
    assert.match(r.stderr, /permissions\.yaml: line 2: not a list of rules; its rules are ignored/);
    assert.equal(rewritten(r.answer), "rtk git status");
  });
});
