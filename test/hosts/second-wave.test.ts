// The hosts added after the first wave, as their documentation describes them
// (docs/hosts.md): `rtk init` writes the documented entry, the command is read
// back OUT OF the written file and run as the host runs it (`/bin/sh -c`, the
// documented event on stdin), and `rtk doctor` passes a sample through it and
// runs the rewritten command. The shared outcome matrix is conformance.test.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse as parseToml } from "smol-toml";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";
import { HOOK_HOSTS } from "../../src/hosts/index.js";
import { continueCli } from "./cases/continue.js";
import { crush } from "./cases/crush.js";
import { goose } from "./cases/goose.js";
import { qoder } from "./cases/qoder.js";
import { qwen } from "./cases/qwen.js";
import { vibe } from "./cases/vibe.js";
import type { HostCase } from "./cases/types.js";

before(() => ensureBuilt());

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
  const home = mkdtempSync(join(tmpdir(), "rtk-wave2-"));
  made.push(home);
  const project = join(home, "code", "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  return { home, project, env: { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_ROUTES: "all" } };
}

const rtk = (b: Box, args: string[]) => launchSync(args, { cwd: b.project, env: b.env });

function ok(r: { status: number | null; stdout: string; stderr: string }, what: string) {
  assert.equal(r.status, 0, `${what}: exit ${r.status}\n${r.stdout}${r.stderr}`);
}

/** Runs the installed hook command as the host does: through /bin/sh, the event on stdin. */
function runAsHost(b: Box, command: string, event: unknown) {
  return spawnSync("/bin/sh", ["-c", command], { input: JSON.stringify(event), env: b.env, cwd: b.project, encoding: "utf8", timeout: 30000 });
}

interface Installed {
  c: HostCase;
  file: (b: Box) => string;
  /** The hook command read out of the written file, and the entry that holds it. */
  read(text: string): { command: string; entry: Record<string, unknown> };
  /** The entry as the host's documentation has it, for the command. */
  documented(command: string): Record<string, unknown>;
  /** The event of another hook point (default: `hook_event_name: "PostToolUse"`). */
  otherPoint?(event: Record<string, unknown>): void;
}

const HOOKS: Installed[] = [
  {
    c: vibe,
    file: (b) => join(b.home, ".vibe", "hooks.toml"),
    read(text) {
      const hooks = (parseToml(text) as { hooks: Record<string, unknown>[] }).hooks;
      assert.equal(hooks.length, 1, text);
      return { command: hooks[0]!["command"] as string, entry: hooks[0]! };
    },
    documented: (command) => ({ name: "rtk", type: "pre_tool", match: "bash", command, timeout: 10 }),
  },
  {
    c: qwen,
    file: (b) => join(b.home, ".qwen", "settings.json"),
    read(text) {
      const group = JSON.parse(text).hooks.PreToolUse[0];
      return { command: group.hooks[0].command, entry: group };
    },
    documented: (command) => ({ matcher: "^run_shell_command$", hooks: [{ type: "command", command, timeout: 10000 }] }),
  },
  {
    c: qoder,
    file: (b) => join(b.home, ".qoder", "settings.json"),
    read(text) {
      const group = JSON.parse(text).hooks.PreToolUse[0];
      return { command: group.hooks[0].command, entry: group };
    },
    documented: (command) => ({ matcher: "Bash", hooks: [{ type: "command", command, timeout: 10 }] }),
  },
  {
    c: crush,
    file: (b) => join(b.home, ".config", "crush", "crush.json"),
    read(text) {
      const entry = JSON.parse(text).hooks.PreToolUse[0];
      return { command: entry.command, entry };
    },
    documented: (command) => ({ name: "rtk", matcher: "^bash$", command, timeout: 10 }),
    otherPoint: (e) => void (e["event"] = "PreCompact"),
  },
  {
    c: continueCli,
    file: (b) => join(b.home, ".continue", "settings.json"),
    read(text) {
      const group = JSON.parse(text).hooks.PreToolUse[0];
      return { command: group.hooks[0].command, entry: group };
    },
    documented: (command) => ({ matcher: "^Bash$", hooks: [{ type: "command", command, timeout: 10 }] }),
  },
  {
    c: goose,
    file: (b) => join(b.home, ".agents", "plugins", "rtk", "hooks", "hooks.json"),
    read(text) {
      const group = JSON.parse(text).hooks.PreToolUse[0];
      return { command: group.hooks[0].command, entry: group };
    },
    documented: (command) => ({ matcher: "^(developer__)?shell$", hooks: [{ type: "command", command, timeout: 10 }] }),
    otherPoint: (e) => void (e["event"] = "PostToolUse"),
  },
];

for (const h of HOOKS) {
  describe(`${h.c.id}, installed by \`rtk init --agent ${h.c.cli}\``, () => {
    let b: Box;
    let command: string;
    before(() => {
      b = box();
      ok(rtk(b, ["init", "--agent", h.c.cli]), "init");
      const read = h.read(readFileSync(h.file(b), "utf8"));
      command = read.command;
      assert.deepEqual(read.entry, h.documented(command), "the documented entry");
    });

    test("the installed command answers the documented event with the rewrite", () => {
      // A host that judges the rewritten command gets it where its rules allow the command (as doctor's self-test arranges).
      const host = HOOK_HOSTS.get(h.c.cli)!;
      const allowing = host.engine ? (host.doctor?.allowing?.("git status") ?? {}) : {};
      // The rules may go into the very file that holds the hook (Qwen's settings.json): it is put back as it was.
      const before = new Map(Object.keys(allowing).map((rel) => [rel, existsSync(join(b.home, rel)) ? readFileSync(join(b.home, rel), "utf8") : null]));
      for (const [rel, text] of Object.entries(allowing)) {
        mkdirSync(dirname(join(b.home, rel)), { recursive: true });
        writeFileSync(join(b.home, rel), text);
      }
      const rec = h.c.recorded("git status", b.project);
      const r = runAsHost(b, command, rec.event);
      if (h.c.rewriteLine) {
        assert.equal(r.status, 2, r.stderr);
        assert.equal(r.stdout, "");
        assert.equal(r.stderr.trim(), h.c.rewriteLine("rtk git status"));
      } else {
        assert.equal(r.status, 0, r.stderr);
        assert.deepEqual(JSON.parse(r.stdout), h.c.rewriteAnswer("rtk git status", Boolean(host.engine), rec.toolInput));
      }
      for (const [rel, text] of before) {
        if (text === null) rmSync(join(b.home, rel));
        else writeFileSync(join(b.home, rel), text);
      }
    });

    test("a command rtk leaves alone, and another hook point, get silence with exit 0", () => {
      const rec = h.c.recorded("git status > status.txt", b.project);
      const left = runAsHost(b, command, rec.event);
      assert.equal(left.status, 0, left.stderr);
      assert.equal(left.stdout, "");
      const post = h.c.recorded("git status", b.project);
      if (h.otherPoint) h.otherPoint(post.event);
      else post.event["hook_event_name"] = h.c.id === "vibe" ? "post_tool" : "PostToolUse";
      const other = runAsHost(b, command, post.event);
      assert.equal(other.status, 0, other.stderr);
      assert.equal(other.stdout, "");
    });

    test("rtk doctor passes a sample through the installed command and runs what comes back", () => {
      const r = rtk(b, ["doctor", "--json"]);
      ok(r, "doctor");
      const report = JSON.parse(r.stdout) as { ok: boolean; hosts: { host: string; checks: { name: string; ok: boolean }[] }[] };
      assert.equal(report.ok, true, r.stdout);
      const mine = report.hosts.filter((x) => x.host === h.c.cli);
      assert.equal(mine.length, 1, r.stdout);
      const names = mine[0]!.checks.filter((c) => c.ok).map((c) => c.name);
      for (const name of ["registered", "version", "self-test", "rewritten command"]) assert.ok(names.includes(name), `${name}: ${JSON.stringify(mine[0])}`);
      // A host whose hook can add to a session gets rtk's context through the entry init wrote for it.
      if (h.c.sessionStart) assert.ok(names.includes("session context"), JSON.stringify(mine[0]));
    });

    test("doctor fails, with the fix, when the installed command is an `rtk` that does not answer", () => {
      const file = h.file(b);
      const text = readFileSync(file, "utf8");
      const mute = join(b.home, "mute", "rtk");
      mkdirSync(join(b.home, "mute"), { recursive: true });
      writeFileSync(mute, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      try {
        writeFileSync(file, text.replace(command, `${mute} hook ${h.c.cli}`));
        const r = rtk(b, ["doctor", "--json"]);
        assert.equal(r.status, 1, r.stdout);
        const report = JSON.parse(r.stdout) as { hosts: { host: string; checks: { name: string; ok: boolean; fix?: string }[] }[] };
        const mine = report.hosts.filter((x) => x.host === h.c.cli);
        assert.equal(mine.length, 1, r.stdout);
        const failed = mine[0]!.checks.filter((c) => !c.ok);
        assert.ok(failed.length > 0 && failed.every((c) => c.fix?.includes(`rtk init --agent ${h.c.cli}`)), JSON.stringify(failed));
      } finally {
        writeFileSync(file, text);
      }
    });

    test("uninstall takes the entry back out and removes the file rtk created", () => {
      const c = box();
      ok(rtk(c, ["init", "--agent", h.c.cli]), "init");
      const u = rtk(c, ["init", "--agent", h.c.cli, "--uninstall"]);
      ok(u, "uninstall");
      assert.ok(!existsSync(h.file(c)), `${h.file(c)} is gone: ${u.stdout}`);
    });
  });
}

describe("Mistral Vibe: shapes of its documentation", () => {
  test("the qualified tool name (`<toolset>.bash`) is the same shell tool; other tools are not", () => {
    const b = box();
    const rec = vibe.recorded("git log -n 3", b.project);
    const qualified = launchSync(["hook", "vibe"], { cwd: b.project, env: b.env, input: JSON.stringify({ ...rec.event, tool_name: "file_system.bash" }) });
    assert.equal(qualified.status, 0, qualified.stderr);
    assert.deepEqual(JSON.parse(qualified.stdout), { hook_specific_output: { tool_input: { ...rec.toolInput, command: "rtk git log -n 3" } } });
    const notShell = launchSync(["hook", "vibe"], { cwd: b.project, env: b.env, input: JSON.stringify({ ...rec.event, tool_name: "bashful" }) });
    assert.equal(notShell.status, 0);
    assert.equal(notShell.stdout, "");
  });

  test("--project writes .vibe/hooks.toml with the `rtk` found on PATH, and says Vibe loads it only in a trusted folder", () => {
    const b = box();
    const r = rtk(b, ["init", "--agent", "vibe", "--project"]);
    ok(r, "init --project");
    assert.match(r.stdout, /trust/);
    const hooks = (parseToml(readFileSync(join(b.project, ".vibe", "hooks.toml"), "utf8")) as { hooks: { command: string }[] }).hooks;
    assert.equal(hooks[0]!.command, "command -v rtk >/dev/null 2>&1 && exec rtk hook vibe; true");
  });
});

describe("rules-only hosts of the second wave", () => {
  test("zed: the block goes into the personal instructions (XDG_CONFIG_HOME/zed/AGENTS.md); there is no project install", () => {
    const b = box();
    b.env["XDG_CONFIG_HOME"] = join(b.home, "xdg");
    ok(rtk(b, ["init", "--agent", "zed"]), "init");
    const file = join(b.home, "xdg", "zed", "AGENTS.md");
    assert.match(readFileSync(file, "utf8"), /<!-- rtk:begin -->[\s\S]*`rtk`[\s\S]*<!-- rtk:end -->/);
    const p = rtk(b, ["init", "--agent", "zed", "--project"]);
    assert.notEqual(p.status, 0);
    assert.match(p.stderr, /no project install/);
    assert.ok(!existsSync(join(b.project, ".rules")), "no .rules that would hide the project's own instructions");
    ok(rtk(b, ["init", "--agent", "zed", "--uninstall"]), "uninstall");
    assert.ok(!existsSync(file));
  });

  test("trae: the block goes into the project's .trae/rules/project_rules.md, after the user's rules", () => {
    const b = box();
    const file = join(b.project, ".trae", "rules", "project_rules.md");
    mkdirSync(join(b.project, ".trae", "rules"), { recursive: true });
    writeFileSync(file, "# Project rules\n\n- Use pnpm.\n");
    ok(rtk(b, ["init", "--agent", "trae"]), "init");
    const text = readFileSync(file, "utf8");
    assert.ok(text.startsWith("# Project rules\n\n- Use pnpm.\n\n<!-- rtk:begin -->"), text);
    ok(rtk(b, ["init", "--agent", "trae", "--uninstall"]), "uninstall");
    assert.equal(readFileSync(file, "utf8"), "# Project rules\n\n- Use pnpm.\n");
  });

  test("antigravity: an always-on rule file of rtk's own in the workspace's .agents/rules/, no global install", () => {
    const b = box();
    mkdirSync(join(b.project, ".agents", "rules"), { recursive: true });
    writeFileSync(join(b.project, ".agents", "rules", "style.md"), "---\ntrigger: always_on\n---\n\nTabs.\n");
    ok(rtk(b, ["init", "--agent", "antigravity"]), "init");
    const file = join(b.project, ".agents", "rules", "rtk.md");
    const text = readFileSync(file, "utf8");
    assert.ok(text.startsWith("---\ntrigger: always_on\n---\n"), text);
    assert.match(text, /Prefix these commands with `rtk`/);
    assert.match(text, /`git` \(/, "the block names routed tools");
    const show = rtk(b, ["init", "--show"]);
    assert.match(show.stdout, /Google Antigravity \(rtk init --agent antigravity\): rules only\n {2}project \(default\) +installed/);
    const g = rtk(b, ["init", "--agent", "antigravity", "--global"]);
    assert.notEqual(g.status, 0);
    assert.match(g.stderr, /no global install/);
    const u = rtk(b, ["init", "--agent", "antigravity", "--uninstall"]);
    ok(u, "uninstall");
    assert.match(u.stdout, /rule file removed/);
    assert.deepEqual(readdirSync(join(b.project, ".agents", "rules")), ["style.md"]);
  });

  test("antigravity: a project with only the older .agent/ gets the rule there (a new .agents/ would hide .agent/)", () => {
    const b = box();
    mkdirSync(join(b.project, ".agent", "rules"), { recursive: true });
    writeFileSync(join(b.project, ".agent", "rules", "house.md"), "Use pnpm.\n");
    ok(rtk(b, ["init", "--agent", "antigravity"]), "init");
    assert.ok(existsSync(join(b.project, ".agent", "rules", "rtk.md")));
    assert.ok(!existsSync(join(b.project, ".agents")), "no .agents/ beside .agent/");
    ok(rtk(b, ["init", "--agent", "antigravity", "--uninstall"]), "uninstall");
    assert.deepEqual(readdirSync(join(b.project, ".agent", "rules")), ["house.md"]);
  });
});

describe("GitHub Copilot in JetBrains IDEs: its agent is Copilot CLI, so the Copilot hook serves it", () => {
  test("`--agent copilot-jetbrains` installs Copilot CLI's hook (user and project files), which answers the CLI's event", () => {
    const b = box();
    ok(rtk(b, ["init", "--agent", "copilot-jetbrains"]), "init");
    const file = join(b.home, ".copilot", "hooks", "rtk.json");
    const entry = JSON.parse(readFileSync(file, "utf8")).hooks.preToolUse[0];
    assert.match(entry.bash, /^test -x \S+\/rtk && exec \S+\/rtk hook copilot; true$/);
    assert.match(entry.powershell, /^\S+\/rtk hook copilot$/);
    const event = { timestamp: 1764770531000, cwd: b.project, toolName: "bash", toolArgs: JSON.stringify({ command: "git status", description: "status" }) };
    // Copilot judges the replaced command: an allow rule for the command earns the rewrite.
    mkdirSync(join(b.home, ".claude"), { recursive: true });
    writeFileSync(join(b.home, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    const r = runAsHost(b, entry.bash, event);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).modifiedArgs, { command: "rtk git status", description: "status" });
    ok(rtk(b, ["init", "--agent", "copilot-jetbrains", "--project"]), "init --project");
    const shared = JSON.parse(readFileSync(join(b.project, ".github", "hooks", "rtk.json"), "utf8")).hooks.preToolUse[0];
    assert.equal(shared.bash, "command -v rtk >/dev/null 2>&1 && exec rtk hook copilot; true");
    assert.equal(shared.powershell, "rtk hook copilot");
    ok(rtk(b, ["init", "--agent", "copilot", "--uninstall"]), "uninstall by the host's own name");
    assert.ok(!existsSync(file));
  });
});

describe("Crush, Continue CLI and Goose: shapes of their documentation", () => {
  const hook = (b: Box, host: string, event: unknown) => launchSync(["hook", host], { cwd: b.project, env: b.env, input: JSON.stringify(event) });

  test("crush: the event name in any case or snake case is PreToolUse; another tool's event gets silence", () => {
    const b = box();
    const rec = crush.recorded("git log -n 3", b.project);
    const snake = hook(b, "crush", { ...rec.event, event: "pre_tool_use" });
    assert.equal(snake.status, 0, snake.stderr);
    assert.deepEqual(JSON.parse(snake.stdout), { decision: "allow", updated_input: { command: "rtk git log -n 3" } });
    const other = hook(b, "crush", { ...rec.event, tool_name: "bashful" });
    assert.equal(other.status, 0);
    assert.equal(other.stdout, "");
  });

  test("crush --project: a project that keeps its settings in .crush.json gets the hook there, with the `rtk` found on PATH", () => {
    const b = box();
    const file = join(b.project, ".crush.json");
    writeFileSync(file, '{\n  "options": { "debug": false }\n}\n');
    ok(rtk(b, ["init", "--agent", "crush", "--project"]), "init --project");
    assert.ok(!existsSync(join(b.project, "crush.json")), "no second settings file beside .crush.json");
    assert.equal(JSON.parse(readFileSync(file, "utf8")).hooks.PreToolUse[0].command, "command -v rtk >/dev/null 2>&1 && exec rtk hook crush; true");
    ok(rtk(b, ["init", "--agent", "crush", "--project", "--uninstall"]), "uninstall");
    assert.equal(readFileSync(file, "utf8"), '{\n  "options": { "debug": false }\n}\n');
  });

  test("goose: `developer__shell` (older builds) is the shell tool too; `shell_foo` and Crush's `bash` are not", () => {
    const b = box();
    const rec = goose.recorded("git log -n 3", b.project);
    const older = hook(b, "goose", { ...rec.event, tool_name: "developer__shell", matcher_context: "developer__shell" });
    assert.equal(older.status, 2, older.stderr);
    assert.equal(older.stdout, "");
    assert.equal(older.stderr.trim(), "rtk: run `rtk git log -n 3` instead (same command, compact output)");
    for (const tool_name of ["shell_foo", "bash"]) {
      const r = hook(b, "goose", { ...rec.event, tool_name });
      assert.equal(r.status, 0, `${tool_name}: ${r.stderr}`);
      assert.equal(r.stdout, "");
    }
  });

  test("continue: `--agent cn` is the same host; the project's .continue/settings.json names `rtk` on PATH", () => {
    const b = box();
    ok(rtk(b, ["init", "--agent", "cn", "--project"]), "init --project");
    const group = JSON.parse(readFileSync(join(b.project, ".continue", "settings.json"), "utf8")).hooks.PreToolUse[0];
    assert.equal(group.hooks[0].command, "command -v rtk >/dev/null 2>&1 && exec rtk hook continue; true");
    ok(rtk(b, ["init", "--agent", "continue", "--project", "--uninstall"]), "uninstall");
    assert.ok(!existsSync(join(b.project, ".continue")));
  });
});

describe("GitHub Copilot: an entry an earlier rtk wrote in VS Code's format (`PreToolUse`, `command`)", () => {
  const older = (bin: string) => JSON.stringify({ version: 1, hooks: { PreToolUse: [{ type: "command", command: `${bin} hook copilot`, timeout: 5 }] } }, null, 2) + "\n";

  test("--show and doctor see it installed; init moves it to Copilot CLI's `preToolUse`; uninstall removes it", () => {
    const b = box();
    const file = join(b.home, ".copilot", "hooks", "rtk.json");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, older(RTK));
    const show = rtk(b, ["init", "--show"]);
    ok(show, "show");
    assert.match(show.stdout, /GitHub Copilot \(rtk init --agent copilot\): hook that replaces\n {2}global \(default\) +installed/);
    const doctor = rtk(b, ["doctor", "--json"]);
    const report = JSON.parse(doctor.stdout) as { hosts: { host: string; checks: { name: string; ok: boolean }[] }[] };
    const mine = report.hosts.find((h) => h.host === "copilot");
    assert.ok(mine && ["registered", "self-test"].every((n) => mine.checks.some((c) => c.name === n && c.ok)), doctor.stdout);

    const moved = rtk(b, ["init", "--agent", "copilot"]);
    ok(moved, "init");
    const doc = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(Object.keys(doc.hooks), ["preToolUse", "sessionStart"], "the older entry is gone, the current one is there, and the session-start entry beside it");
    assert.equal(doc.hooks.preToolUse[0].bash, `test -x ${RTK} && exec ${RTK} hook copilot; true`);
    assert.equal(doc.hooks.preToolUse[0].powershell, `${RTK} hook copilot`);

    writeFileSync(file, older(RTK));
    const u = rtk(b, ["init", "--agent", "copilot", "--uninstall"]);
    ok(u, "uninstall");
    assert.match(u.stdout, /hook removed from/);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { version: 1 });
  });
});
