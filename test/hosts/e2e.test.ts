// End to end, as Claude Code runs it: `rtk init --agent claude` writes the hook
// into a temporary HOME; the command string is read back OUT OF the settings
// file and executed exactly as the host does (`/bin/sh -c <command>`, the event
// on stdin). Then `rtk doctor` on that HOME, healthy and broken (spec/hosts.md,
// "`rtk doctor`").
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "../support/build.js";
import { launchSync, retryingRebuildRace, RTK } from "../support/launch.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

before(() => {
  ensureBuilt();
});

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Box {
  home: string;
  project: string;
  env: Record<string, string>;
}

function box(): Box {
  const home = mkdtempSync(join(tmpdir(), "rtk-e2e-"));
  made.push(home);
  const project = join(home, "code", "app");
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  return { home, project, env: { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_ROUTES: "all" } };
}

function rtk(b: Box, args: string[]) {
  return launchSync(args, { cwd: b.project, env: b.env });
}

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const settingsFile = (b: Box) => join(b.home, ".claude", "settings.json");

/** The hook command Claude Code would run, read out of the settings file. */
function installedCommand(b: Box): string {
  const doc = JSON.parse(readFileSync(settingsFile(b), "utf8"));
  const groups: { matcher?: string; hooks?: { type?: string; command?: string }[] }[] = doc?.hooks?.PreToolUse ?? [];
  const cmds = groups
    .filter((g) => g.matcher === "Bash")
    .flatMap((g) => g.hooks ?? [])
    .filter((h) => h.type === "command" && typeof h.command === "string");
  assert.equal(cmds.length, 1, `one Bash command hook in ${settingsFile(b)}: ${JSON.stringify(doc)}`);
  return cmds[0]!.command!;
}

function preToolUse(b: Box, command: string) {
  return {
    session_id: "5c1d9e3a-2f7b-4c8e-9a16-7b0e4d2f8c35",
    transcript_path: join(b.home, ".claude", "projects", "-code-app", "5c1d9e3a-2f7b-4c8e-9a16-7b0e4d2f8c35.jsonl"),
    cwd: b.project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "Show working tree status", timeout: 120000 },
    tool_use_id: "toolu_01Q4mZ7xK2pV9nR3sT8wYc5B",
  };
}

/** Runs the hook the way the host does: its command string through /bin/sh, the event on stdin. */
function runAsHost(b: Box, command: string, event: unknown) {
  const t0 = Date.now();
  const r = retryingRebuildRace(() => spawnSync("/bin/sh", ["-c", command], { input: JSON.stringify(event), env: b.env, cwd: b.project, encoding: "utf8", timeout: 30000 }));
  return { ...r, ms: Date.now() - t0 };
}

describe("Claude Code, installed by `rtk init --agent claude`", () => {
  let b: Box;
  let command: string;

  before(() => {
    b = box();
    const r = rtk(b, ["init", "--agent", "claude"]);
    assert.equal(r.status, 0, `init: ${r.stdout}${r.stderr}`);
    command = installedCommand(b);
  });

  test("the installed command rewrites `ls -la`, which Claude Code runs by itself: rewrite + allow", () => {
    const event = preToolUse(b, "ls -la");
    const r = runAsHost(b, command, event);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out, {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "rtk: token-optimised rewrite",
        updatedInput: { ...event.tool_input, command: "rtk ls -la" },
      },
    });
    // Claude Code kills the hook after its timeout (10 s in the installed entry).
    assert.ok(r.ms < 10000, `the hook took ${r.ms} ms`);
  });

  test("`git status` outside a repository, no rule: Claude Code would ask, so silence (it asks about the command as typed)", () => {
    const r = runAsHost(b, command, preToolUse(b, "git status"));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "");
  });

  test("with an allow rule added next to the hook, the rewrite comes back allowed", () => {
    const file = join(b.project, ".claude", "settings.local.json");
    put(file, JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    try {
      const r = runAsHost(b, command, preToolUse(b, "git status"));
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.hookSpecificOutput.permissionDecision, "allow");
      assert.equal(out.hookSpecificOutput.updatedInput.command, "rtk git status");
    } finally {
      rmSync(join(b.project, ".claude"), { recursive: true, force: true });
    }
  });

  test("a command rtk must not touch comes back as silence", () => {
    const r = runAsHost(b, command, preToolUse(b, "git status > status.txt"));
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "");
  });

  test("the installed command works even when the hook's PATH has no node on it", () => {
    // Hooks run with a reduced PATH: the installed command must not depend on it
    // (only `rtk` itself must be on it, for the rewritten command to run).
    const only = join(b.home, "only-rtk");
    mkdirSync(only, { recursive: true });
    symlinkSync(RTK, join(only, "rtk"));
    const r = spawnSync("/bin/sh", ["-c", command], {
      input: JSON.stringify(preToolUse(b, "ls")),
      env: { ...b.env, PATH: only },
      cwd: b.project,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk ls");
  });

  test("rtk doctor --json reports the host OK", () => {
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 0, `doctor: ${r.stdout}${r.stderr}`);
    const report = JSON.parse(r.stdout);
    assert.equal(report.ok, true);
    const hosts = (report.hosts as { host: string; checks: { name: string; ok: boolean }[] }[]).filter((h) => h.host === "claude");
    assert.ok(hosts.length >= 1, JSON.stringify(report));
    for (const h of hosts) {
      assert.ok(h.checks.length >= 3, "registered, version, self-test");
      for (const c of h.checks) assert.equal(c.ok, true, `check ${c.name}: ${JSON.stringify(c)}`);
      assert.ok(
        h.checks.some((c) => /self-test/i.test(c.name)),
        "doctor pipes a sample event through the installed command",
      );
      assert.ok(
        h.checks.some((c) => c.name === "rewritten command" && c.ok),
        `doctor runs the command the hook handed back: ${JSON.stringify(h.checks)}`,
      );
      assert.ok(
        h.checks.some((c) => c.name === "session context" && c.ok),
        `doctor pipes a session start through the session-start entry: ${JSON.stringify(h.checks)}`,
      );
    }
  });

  test("rtk doctor reports the one install once (not again as a project install of ~/.claude)", () => {
    const r = rtk(b, ["doctor", "--json"]);
    const report = JSON.parse(r.stdout);
    const hosts = (report.hosts as { host: string; scope: string; file: string }[]).filter((h) => h.host === "claude");
    // SPEC-SILENT: the project folder sits under HOME, whose `.claude/`
    // is the user's, not a project's; the one install should be reported once.
    assert.deepEqual(
      hosts.map((h) => h.scope),
      ["global"],
      JSON.stringify(hosts),
    );
  });
});

describe("rtk doctor on broken installs", () => {
  /** Points the installed command at `bin`. */
  function pointAt(b: Box, bin: string) {
    const text = readFileSync(settingsFile(b), "utf8");
    const cmd = installedCommand(b);
    writeFileSync(settingsFile(b), text.replace(JSON.stringify(cmd), JSON.stringify(`${bin} hook claude`)));
    assert.equal(installedCommand(b), `${bin} hook claude`);
  }

  function assertBroken(b: Box, what: string) {
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 1, `${what}: doctor must exit 1: ${r.stdout}${r.stderr}`);
    const report = JSON.parse(r.stdout);
    assert.equal(report.ok, false);
    const failed = (report.hosts as { host: string; checks: { ok: boolean; fix?: string }[] }[]).flatMap((h) => h.checks.filter((c) => !c.ok).map((c) => ({ ...c, host: h.host })));
    assert.ok(failed.length > 0, `${what}: a failed check`);
    assert.ok(
      failed.some((c) => c.host === "claude" && /rtk init --agent claude/.test(c.fix ?? "")),
      `${what}: the fix is named: ${JSON.stringify(failed)}`,
    );
    const text = rtk(b, ["doctor"]);
    assert.equal(text.status, 1, `${what}: doctor (text) must exit 1`);
    assert.match(text.stdout + text.stderr, /rtk init --agent claude/, `${what}: the text report names the fix`);
  }

  test("the launcher path is missing: exit 1 and the fix", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "claude"]).status, 0);
    pointAt(b, join(b.home, "gone", "bin", "rtk"));
    assertBroken(b, "missing launcher");
  });

  test("the command starts an rtk of another version: exit 1 and the fix", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "claude"]).status, 0);
    const fake = join(b.home, "old", "bin", "rtk");
    put(fake, `#!/bin/sh\nif [ "$1" = --version ]; then echo "rtk 0.0.1"; exit 0; fi\nexec ${JSON.stringify(RTK)} "$@"\n`);
    chmodSync(fake, 0o755);
    pointAt(b, fake);
    assertBroken(b, "old version");
  });

  test("the command is rtk of this version but answers nothing: the self-test fails", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "claude"]).status, 0);
    const fake = join(b.home, "mute", "bin", "rtk");
    put(fake, `#!/bin/sh\nif [ "$1" = --version ]; then echo "rtk ${VERSION}"; fi\ncat >/dev/null\nexit 0\n`);
    chmodSync(fake, 0o755);
    pointAt(b, fake);
    assertBroken(b, "mute hook");
  });

  test("the session-start entry removed by hand: the session context check fails with the fix; init puts it back", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "claude"]).status, 0);
    const doc = JSON.parse(readFileSync(settingsFile(b), "utf8"));
    assert.ok(doc.hooks.SessionStart, "init installs the session-start entry");
    delete doc.hooks.SessionStart;
    writeFileSync(settingsFile(b), JSON.stringify(doc, null, 2) + "\n");
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 1, r.stdout);
    const checks = (JSON.parse(r.stdout).hosts as { host: string; checks: { name: string; ok: boolean; fix?: string }[] }[]).flatMap((h) => h.checks);
    const session = checks.find((c) => c.name === "session context");
    assert.ok(session && !session.ok && session.fix === "rtk init --agent claude --global", JSON.stringify(checks));
    assert.match(rtk(b, ["init", "--agent", "claude"]).stdout, /updated/);
    assert.equal(rtk(b, ["doctor", "--json"]).status, 0);
  });

  test("kiro, both of rtk's entries in the hook file's one list: the session-start entry removed by hand is missed, and init adds it alone", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "kiro"]).status, 0);
    const file = join(b.home, ".kiro", "hooks", "rtk.json");
    const doc = JSON.parse(readFileSync(file, "utf8")) as { hooks: { trigger: string }[] };
    assert.deepEqual(
      doc.hooks.map((h) => h.trigger),
      ["PreToolUse", "SessionStart"],
    );
    const sessionOf = (r: ReturnType<typeof rtk>) =>
      (JSON.parse(r.stdout).hosts as { host: string; checks: { name: string; ok: boolean; fix?: string }[] }[])
        .filter((h) => h.host === "kiro")
        .flatMap((h) => h.checks)
        .find((c) => c.name === "session context");
    assert.equal(sessionOf(rtk(b, ["doctor", "--json"]))?.ok, true);
    writeFileSync(file, JSON.stringify({ ...doc, hooks: doc.hooks.filter((h) => h.trigger !== "SessionStart") }, null, 2) + "\n");
    const missing = sessionOf(rtk(b, ["doctor", "--json"]));
    assert.ok(missing && !missing.ok && missing.fix === "rtk init --agent kiro --global", JSON.stringify(missing));
    assert.equal(rtk(b, ["init", "--agent", "kiro"]).status, 0);
    assert.deepEqual(
      (JSON.parse(readFileSync(file, "utf8")) as { hooks: { trigger: string }[] }).hooks.map((h) => h.trigger),
      ["PreToolUse", "SessionStart"],
    );
    assert.equal(sessionOf(rtk(b, ["doctor", "--json"]))?.ok, true);
  });

  test("the session context switched off in the config: doctor says so, and passes", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "claude"]).status, 0);
    put(join(b.env["XDG_CONFIG_HOME"] ?? join(b.home, ".config"), "rtk", "config.toml"), "[hooks]\nsession_context = false\n");
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 0, r.stdout);
    const checks = (JSON.parse(r.stdout).hosts as { checks: { name: string; ok: boolean; detail: string }[] }[]).flatMap((h) => h.checks);
    assert.match(checks.find((c) => c.name === "session context")?.detail ?? "", /^off \(hooks\.session_context = false\)/);
  });

  test("codex with hooks switched off in config.toml: exit 1 and the fix names config.toml", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "codex", "--global"]).status, 0);
    put(join(b.home, ".codex", "config.toml"), 'model = "gpt-5.1-codex"\n\n[features]\nhooks = false\n');
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 1, r.stdout);
    const report = JSON.parse(r.stdout);
    const failed = report.hosts.flatMap((h: { checks: { ok: boolean; fix?: string }[] }) => h.checks.filter((c) => !c.ok));
    assert.ok(
      failed.some((c: { fix?: string }) => /config\.toml/.test(c.fix ?? "")),
      JSON.stringify(failed),
    );
  });

  test("a rewrite that cannot run is caught: the hook rewrites (its PATH check off) but `rtk` is not on PATH", () => {
    const b = box();
    assert.equal(rtk(b, ["init", "--agent", "claude"]).status, 0);
    // The hook's own check is off, so it hands back `rtk …`; the shell the agent uses cannot find it.
    b.env = { ...b.env, PATH: "/usr/bin:/bin", RTK_NO_PATH_CHECK: "1" };
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const checks = (JSON.parse(r.stdout).hosts as { host: string; checks: { name: string; ok: boolean; detail: string }[] }[]).find((h) => h.host === "claude")!.checks;
    assert.ok(
      checks.some((c) => c.name === "self-test" && c.ok),
      JSON.stringify(checks),
    );
    const ran = checks.find((c) => c.name === "rewritten command");
    assert.ok(ran && !ran.ok, `the rewritten command is run and found failing: ${JSON.stringify(checks)}`);
    assert.match(ran.detail, /exit 127/);
  });

  test("nothing installed: doctor says so and does not fail", () => {
    const b = box();
    const r = rtk(b, ["doctor", "--json"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).hosts, []);
  });
});
