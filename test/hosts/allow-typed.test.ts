// An `rtk` the agent types itself runs exactly the command after it: a host
// whose answer can carry an allow gets one where it would allow that command
// (its allow rules, its own read-only list), and nothing more. Deny and ask rules
// on either form still hold; a host that cannot be told an allow is left to
// judge the typed text.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runHook } from "../../src/hosts/hook.js";
import { HOOK_HOSTS } from "../../src/hosts/index.js";

const home = mkdtempSync(join(tmpdir(), "rtk-allow-typed-"));
after(() => rmSync(home, { recursive: true, force: true }));
const project = join(home, "app");
mkdirSync(join(project, ".git"), { recursive: true });
mkdirSync(join(project, ".claude"), { recursive: true });
const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_NO_PATH_CHECK: "1", RTK_NO_TRACK: "1", PATH: "/usr/bin:/bin" };

function answer(host: string, command: string, permissions: object, mode = "default"): Record<string, unknown> | null {
  writeFileSync(join(project, ".claude", "settings.local.json"), JSON.stringify({ permissions }));
  const event = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd: project, permission_mode: mode };
  const run = runHook(HOOK_HOSTS.get(host)!, Buffer.from(JSON.stringify(event)), env, () => {});
  return run.answer.stdout.trim() ? (JSON.parse(run.answer.stdout) as Record<string, unknown>) : null;
}

const allowedAsTyped = (a: Record<string, unknown> | null, command: string) => {
  const h = a?.["hookSpecificOutput"] as { permissionDecision?: string; updatedInput?: { command?: string } } | undefined;
  return h?.permissionDecision === "allow" && h.updatedInput?.command === command;
};

describe("Claude Code: an agent-typed `rtk` judged by what it runs", () => {
  test("an allow rule for the command covers `rtk` before it, with rtk's own options", () => {
    for (const c of ["rtk git diff", "rtk git diff --stat", "rtk --raw git diff", "rtk proxy git diff"]) {
      assert.ok(allowedAsTyped(answer("claude", c, { allow: ["Bash(git diff:*)"] }), c), c);
    }
  });

  test("a command Claude Code runs by itself (its read-only list, in the project) is allowed behind `rtk`", () => {
    assert.ok(allowedAsTyped(answer("claude", "rtk git status", {}), "rtk git status"));
    assert.ok(allowedAsTyped(answer("claude", "rtk ls -la", {}), "rtk ls -la"));
  });

  test("nothing more: writes, paths outside the project, rtk's own commands, other shapes are left to Claude Code", () => {
    for (const c of [
      "rtk git push origin main",
      "rtk git commit -m wip",
      "rtk ls /etc",
      "rtk gain",
      "rtk init --agent claude",
      "FOO=1 rtk git status",
      "rtk git status > out.txt",
      "sudo rtk git status",
    ]) {
      assert.equal(answer("claude", c, { allow: ["Bash(git diff:*)"] }), null, c);
    }
  });

  test("deny and ask rules on either form hold", () => {
    assert.equal(answer("claude", "rtk git diff", { allow: ["Bash(git diff:*)"], ask: ["Bash(rtk git diff:*)"] }), null);
    assert.equal(
      answer("claude", "rtk git diff", { allow: ["Bash(git diff:*)"], ask: ["Bash(git diff --stat)"] })?.["hookSpecificOutput"] !== undefined,
      true,
      "an ask rule for another command changes nothing",
    );
    assert.equal(answer("claude", "rtk git diff --stat", { allow: ["Bash(git diff:*)"], ask: ["Bash(git diff --stat)"] }), null);
    const denied = answer("claude", "rtk git diff", { allow: ["Bash(git diff:*)"], deny: ["Bash(git diff:*)"] });
    assert.equal((denied?.["hookSpecificOutput"] as { permissionDecision?: string } | undefined)?.permissionDecision, "deny");
  });

  test("plan mode: Claude Code's allow from a hook counts only for what it deems read-only, so none is given", () => {
    assert.equal(answer("claude", "rtk git status", {}, "plan"), null);
  });
});

describe("a host whose answer cannot carry an allow judges the typed text", () => {
  test("Continue: `rtk git diff` under an allow of `git diff` is left alone", () => {
    mkdirSync(join(home, ".continue"), { recursive: true });
    writeFileSync(join(home, ".continue", "permissions.yaml"), 'allow:\n  - "Bash(git diff*)"\n');
    const event = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rtk git diff" }, cwd: project };
    const run = runHook(HOOK_HOSTS.get("continue")!, Buffer.from(JSON.stringify(event)), env, () => {});
    assert.equal(run.answer.stdout, "");
  });
});
