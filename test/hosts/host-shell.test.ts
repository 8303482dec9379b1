// Codex runs an agent's command in the user's login shell (its snapshot of
// `bash -l` with ~/.bashrc sourced on top), not with the PATH its hook sees:
// `rtk hook codex` rewrites only where that shell runs rtk, learns the shell's
// PATH once per change of the files that decide it (cached under rtk's cache
// folder), and `rtk init` and `rtk doctor` ask the same question. The BUILT
// launcher, in a temporary HOME; the hook's PATH always finds rtk.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { launcherNode } from "../../src/hosts/host-shell.js";
import { codex as codexCase } from "./cases/codex.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";

before(() => ensureBuilt());

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Box {
  root: string;
  home: string;
  project: string;
  /** A folder holding only a link to this rtk: on the hook's PATH, and on the login shell's where a test puts it. */
  bin: string;
  env: Record<string, string>;
}

function box(): Box {
  const root = mkdtempSync(join(tmpdir(), "rtk-login-"));
  made.push(root);
  const home = join(root, "home");
  const project = join(home, "work", "app");
  const bin = join(home, ".local", "bin");
  mkdirSync(project, { recursive: true });
  mkdirSync(bin, { recursive: true });
  symlinkSync(RTK, join(bin, "rtk"));
  const env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    RTK_ROUTES: "all",
  };
  return { root, home, project, bin, env };
}

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** ~/.profile as Debian's skeleton writes it: ~/.local/bin on PATH when it exists. Each run leaves a mark in ~/sourced. */
const PROFILE = 'echo profile >> "$HOME/sourced"\nif [ -d "$HOME/.local/bin" ]; then PATH="$HOME/.local/bin:$PATH"; fi\n';
/** A ~/.bashrc that returns at once when not interactive (Debian's), with nvm's kind of PATH line after that. */
const RC_AFTER_GUARD = 'case $- in *i*) ;; *) return;; esac\nexport PATH="$HOME/.local/bin:$PATH"\n';

const hook = (b: Box, command: string, mode = "default") =>
  launchSync(["hook", "codex"], { cwd: b.project, env: b.env, input: JSON.stringify({ ...codexCase.recorded(command, b.project).event, permission_mode: mode }) });

const rewritten = (r: { stdout: string }) => (r.stdout ? (JSON.parse(r.stdout).hookSpecificOutput?.updatedInput?.command as string | undefined) : undefined);
const lines = (s: string) => s.split("\n").filter(Boolean);
/** The fix offered: a link into a folder of the login shell's PATH the user can write (root can), else the profile line. */
const FIX = process.getuid?.() === 0 ? /fix: rtk init --link \/usr\/local\/s?bin/ : /fix: add {2}export PATH="\$HOME\/\.local\/bin:\$PATH" {2}to ~\/\.profile/;
const sourced = (b: Box) => (existsSync(join(b.home, "sourced")) ? lines(readFileSync(join(b.home, "sourced"), "utf8")).length : 0);

describe("rtk hook codex: a rewrite only where the login shell runs rtk", () => {
  test("rtk on the hook's PATH only (no profile puts it on the login shell's): no answer, one stderr line naming the login shell and the fix", () => {
    const b = box();
    const r = hook(b, "git status");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "");
    assert.equal(lines(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /not on the PATH of your login shell/);
    assert.match(r.stderr, FIX);
  });

  test("~/.profile puts it there: the rewrite", () => {
    const b = box();
    put(join(b.home, ".profile"), PROFILE);
    const r = hook(b, "git status");
    assert.equal(rewritten(r), "rtk git status", r.stdout + r.stderr);
    assert.equal(r.stderr, "");
  });

  test("only an interactive shell's rc file puts it there (nvm's way): no rewrite, never a command that fails with 127", () => {
    const b = box();
    put(join(b.home, ".bashrc"), RC_AFTER_GUARD);
    const r = hook(b, "git status");
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /not on the PATH of your login shell/);
  });

  test("~/.bashrc before its interactive guard counts: Codex sources it on top of the login shell", () => {
    const b = box();
    put(join(b.home, ".bashrc"), 'export PATH="$HOME/.local/bin:$PATH"\ncase $- in *i*) ;; *) return;; esac\n');
    assert.equal(rewritten(hook(b, "git status")), "rtk git status");
  });

  test("the shell runs once per change of what decides its PATH: the answer is cached under rtk's cache folder", () => {
    const b = box();
    put(join(b.home, ".profile"), PROFILE);
    for (let i = 0; i < 3; i++) assert.equal(rewritten(hook(b, "git status")), "rtk git status");
    assert.equal(sourced(b), 1, "one login shell for three events");
    assert.ok(existsSync(join(b.home, ".cache", "rtk", "login-path.json")));
    // A profile that changes (here: no longer adds rtk's folder) is read again.
    put(join(b.home, ".profile"), 'echo profile >> "$HOME/sourced"\n');
    const r = hook(b, "git status");
    assert.equal(r.stdout, "", "the changed profile no longer reaches rtk");
    assert.equal(sourced(b), 2);
    // So is a new ~/.bash_profile, which bash reads instead of ~/.profile.
    put(join(b.home, ".bash_profile"), PROFILE);
    assert.equal(rewritten(hook(b, "git status")), "rtk git status");
    assert.equal(sourced(b), 3);
  });

  test("a cache folder that cannot be written: no shell is run, no rewrite, one line saying why", { skip: process.getuid?.() === 0 ? "root writes anywhere" : false }, () => {
    const b = box();
    put(join(b.home, ".profile"), PROFILE);
    mkdirSync(join(b.home, ".cache"), { recursive: true });
    chmodSync(join(b.home, ".cache"), 0o500);
    const r = hook(b, "git status");
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /cache folder .* cannot be written/);
    assert.equal(sourced(b), 0);
  });

  test("RTK_NO_PATH_CHECK=1 turns the check off", () => {
    const b = box();
    b.env["RTK_NO_PATH_CHECK"] = "1";
    assert.equal(rewritten(hook(b, "git status")), "rtk git status");
    assert.equal(sourced(b), 0);
  });

  test("Claude Code keeps its hook's PATH: no login shell is asked", () => {
    const b = box();
    put(join(b.home, ".profile"), PROFILE);
    const event = JSON.stringify({
      session_id: "s",
      transcript_path: "/dev/null",
      cwd: b.project,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "git status" },
      tool_use_id: "t",
      permission_mode: "bypassPermissions",
    });
    const r = launchSync(["hook", "claude"], { cwd: b.project, env: b.env, input: event });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(sourced(b), 0);
  });
});

describe("the launcher's Node, as the login shell would start it", () => {
  test("an installed rtk (no recorded Node) starts the first `node` on the PATH; none there: null", () => {
    const b = box();
    const launcher = join(b.root, "pkg", "bin", "rtk");
    put(launcher, "#!/bin/sh\n");
    assert.equal(launcherNode(launcher, "/usr/local/bin:/usr/bin:/bin"), ["/usr/local/bin/node", "/usr/bin/node", "/bin/node"].find(existsSync) ?? null);
    assert.equal(launcherNode(launcher, join(b.root, "empty")), null);
    // A relative entry is not one the launcher looks in.
    assert.equal(launcherNode(launcher, "."), null);
  });
  test("a checkout's launcher starts the Node its build recorded, whatever the PATH", () => {
    assert.equal(launcherNode(RTK, ""), readFileSync(join(dirname(RTK), "..", "dist", "rtk.blob.node"), "utf8").split("\n")[0]);
  });
});

describe("rtk init --agent codex and rtk doctor ask the login shell too", () => {
  test("init: says Codex skips the hook until it is trusted (/hooks); without rtk on the login shell's PATH, warns with the fix", () => {
    const b = box();
    const r = launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Codex skips a new or changed hook until you trust it: .*\/hooks/);
    assert.match(r.stderr, /not on the PATH of your login shell.*Codex CLI runs commands in your login shell/s);
    assert.match(r.stderr, FIX);
    assert.ok(!existsSync(join(b.home, ".cache", "rtk", "login-path.json")), "init leaves no cache behind");
  });

  test("init with ~/.profile putting rtk there: no warning", () => {
    const b = box();
    put(join(b.home, ".profile"), PROFILE);
    const r = launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
  });

  test("doctor: `on PATH` is the login shell's; the rewritten command runs in the login shell", () => {
    const b = box();
    put(join(b.home, ".bashrc"), RC_AFTER_GUARD);
    assert.equal(launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env }).status, 0);
    const checks = () => JSON.parse(launchSync(["doctor", "--json"], { cwd: b.project, env: b.env }).stdout).hosts[0].checks as { name: string; ok: boolean; detail: string }[];
    const before = checks();
    assert.match(before.find((c) => c.name === "on PATH")!.detail, /not on the PATH of your login shell/);
    assert.equal(before.find((c) => c.name === "on PATH")!.ok, false);
    put(join(b.home, ".profile"), PROFILE);
    const after = checks();
    assert.equal(after.find((c) => c.name === "on PATH")!.ok, true, JSON.stringify(after));
    const ran = after.find((c) => c.name === "rewritten command")!;
    assert.equal(ran.ok, true, ran.detail);
  });
});
