// A rewrite never hands the agent a command that cannot run: `rtk hook` and
// `rtk rewrite` insert `rtk` only when the PATH the command runs with finds an
// rtk there (this one, or another install of the package); `rtk init` says so
// and can link rtk into a folder on PATH; `rtk doctor` fails the check. The BUILT
// launcher runs in a temporary HOME with PATHs made for each case.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";

before(() => {
  ensureBuilt();
});

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A PATH with the system's tools and no rtk. */
const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

interface Box {
  root: string;
  home: string;
  project: string;
  env: (path: string, extra?: Record<string, string>) => Record<string, string>;
}

function box(): Box {
  const root = mkdtempSync(join(tmpdir(), "rtk-onpath-"));
  made.push(root);
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".config"), { recursive: true });
  mkdirSync(project, { recursive: true });
  // A repository: `git status` there is a command Claude Code runs by itself, so its hook hands the rewrite back.
  spawnSync("git", ["init", "-q"], { cwd: project });
  const env = (path: string, extra: Record<string, string> = {}) => ({
    PATH: path,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(root, "cache"),
    RTK_ROUTES: "all",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CEILING_DIRECTORIES: root,
    ...extra,
  });
  return { root, home, project, env };
}

/** A folder holding only a symlink `rtk` → `target`. */
function linkDir(b: Box, name: string, target: string): string {
  const dir = join(b.root, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(target, join(dir, "rtk"));
  return dir;
}

function run(b: Box, args: string[], path: string, input = "", extra: Record<string, string> = {}) {
  return launchSync(args, { cwd: b.project, env: b.env(path, extra), input });
}

const event = (b: Box, command: string) =>
  JSON.stringify({ session_id: "s", transcript_path: "/dev/null", cwd: b.project, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t" });

const lines = (s: string) => s.split("\n").filter((l) => l !== "");

describe("rtk hook and rtk rewrite insert `rtk` only where PATH finds an rtk", () => {
  test("hook: no rtk on PATH → no answer (the command runs unchanged), one line on stderr with the fix", () => {
    const b = box();
    const r = run(b, ["hook", "claude"], SYSTEM_PATH, event(b, "git status"));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "");
    assert.equal(lines(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /not on PATH/);
    assert.match(r.stderr, /rtk init --link/);
  });

  test("hook: a symlink to this rtk on PATH → the rewrite", () => {
    const b = box();
    const dir = linkDir(b, "bin", RTK);
    const r = run(b, ["hook", "claude"], `${dir}:${SYSTEM_PATH}`, event(b, "git status"));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk git status");
    assert.equal(r.stderr, "");
  });

  test("hook: another program called rtk first on PATH → no rewrite, and stderr names it", () => {
    const b = box();
    const dir = join(b.root, "other");
    mkdirSync(dir);
    writeFileSync(join(dir, "rtk"), "#!/bin/sh\necho not rtk\n");
    chmodSync(join(dir, "rtk"), 0o755);
    const ours = linkDir(b, "bin", RTK);
    const r = run(b, ["hook", "claude"], `${dir}:${ours}:${SYSTEM_PATH}`, event(b, "git status"));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, new RegExp(`${join(dir, "rtk")}.*not an rtk launcher`));
  });

  test("hook: a non-executable rtk is skipped, as a shell skips it", () => {
    const b = box();
    const dir = join(b.root, "noexec");
    mkdirSync(dir);
    writeFileSync(join(dir, "rtk"), "");
    const ours = linkDir(b, "bin", RTK);
    const r = run(b, ["hook", "claude"], `${dir}:${ours}:${SYSTEM_PATH}`, event(b, "git status"));
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk git status");
  });

  test("hook: another install of the rtk package on PATH → the rewrite", () => {
    const b = box();
    const pkg = join(b.root, "lib", "node_modules", "rtk");
    mkdirSync(join(pkg, "bin"), { recursive: true });
    mkdirSync(join(pkg, "dist"));
    copyFileSync(RTK, join(pkg, "bin", "rtk"));
    chmodSync(join(pkg, "bin", "rtk"), 0o755);
    writeFileSync(join(pkg, "dist", "rtk.cjs"), "");
    writeFileSync(join(pkg, "dist", "build-id"), "0.0.1-000000000000\n");
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "rtk", version: "0.0.1" }));
    const dir = linkDir(b, "bin", join(pkg, "bin", "rtk"));
    const r = run(b, ["hook", "claude"], `${dir}:${SYSTEM_PATH}`, event(b, "git status"));
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk git status", r.stderr);
  });

  test("kiro: no rtk on PATH → exit 0 and no suggestion to run `rtk …`", () => {
    const b = box();
    const kiro = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "execute_bash", tool_input: { command: "git status" }, cwd: b.project });
    const r = run(b, ["hook", "kiro"], SYSTEM_PATH, kiro);
    assert.equal(r.status, 0);
    assert.doesNotMatch(r.stderr, /instead/);
  });

  test("rewrite: no rtk on PATH → exit 1, nothing on stdout, one line on stderr; RTK_NO_PATH_CHECK=1 turns the check off", () => {
    const b = box();
    const r = run(b, ["rewrite", "--host", "none", "git status"], SYSTEM_PATH);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.equal(lines(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /not on PATH/);
    const json = run(b, ["rewrite", "--host", "none", "--json", "git status"], SYSTEM_PATH);
    assert.equal(json.status, 1);
    assert.equal(JSON.parse(json.stdout).rewritten, null);
    const off = run(b, ["rewrite", "--host", "none", "git status"], SYSTEM_PATH, "", { RTK_NO_PATH_CHECK: "1" });
    assert.equal(off.status, 3, off.stderr);
    assert.equal(off.stdout, "rtk git status");
  });

  test("rewrite: with rtk on PATH, a deny is still a deny and nothing-to-do still exit 1", () => {
    const b = box();
    const dir = linkDir(b, "bin", RTK);
    assert.equal(run(b, ["rewrite", "--host", "none", "git status"], `${dir}:${SYSTEM_PATH}`).stdout, "rtk git status");
    const none = run(b, ["rewrite", "--host", "none", "echo hi"], `${dir}:${SYSTEM_PATH}`);
    assert.equal(none.status, 1);
    assert.equal(none.stderr, "");
  });
});

describe("rtk init and rtk doctor when rtk is not on PATH", () => {
  test("init says so on stderr, with the fix; the hook is still installed", () => {
    const b = box();
    const r = run(b, ["init", "--agent", "claude"], SYSTEM_PATH);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /installed/);
    assert.match(r.stderr, /not on PATH/);
    assert.match(r.stderr, /npm install -g/);
    assert.match(r.stderr, /rtk init --link/);
    const quiet = run(b, ["init", "--agent", "claude"], `${linkDir(b, "bin", RTK)}:${SYSTEM_PATH}`);
    assert.equal(quiet.stderr, "", "with rtk on PATH, nothing to warn about");
  });

  test("init --link <dir> links this rtk there; again changes nothing; a file of someone else's is left alone; --uninstall removes the link", () => {
    const b = box();
    const dir = join(b.root, "local", "bin");
    const path = `${dir}:${SYSTEM_PATH}`;
    const r = run(b, ["init", "--link", dir], path);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(realpathSync(join(dir, "rtk")), realpathSync(RTK));
    assert.ok(lstatSync(join(dir, "rtk")).isSymbolicLink());
    assert.equal(r.stderr, "");
    const again = run(b, ["init", "--link", dir], path);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /nothing changed/);
    // Now the hook rewrites with that PATH.
    const h = run(b, ["hook", "claude"], path, event(b, "git status"));
    assert.equal(JSON.parse(h.stdout).hookSpecificOutput.updatedInput.command, "rtk git status");
    const gone = run(b, ["init", "--link", dir, "--uninstall"], path);
    assert.equal(gone.status, 0, gone.stderr);
    assert.throws(() => lstatSync(join(dir, "rtk")));

    writeFileSync(join(dir, "rtk"), "#!/bin/sh\n");
    const refused = run(b, ["init", "--link", dir], path);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /left untouched/);
    assert.equal(readFileSync(join(dir, "rtk"), "utf8"), "#!/bin/sh\n");
  });

  test("init --link into a folder that is not on PATH says to add it", () => {
    const b = box();
    const dir = join(b.root, "elsewhere");
    const r = run(b, ["init", "--agent", "claude", "--link", dir], SYSTEM_PATH);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readlinkSync(join(dir, "rtk")), realpathSync(RTK));
    assert.match(r.stderr, /not on PATH/);
  });

  test("doctor fails the `on PATH` check and names the fix; with rtk on PATH it passes", () => {
    const b = box();
    assert.equal(run(b, ["init", "--agent", "claude"], SYSTEM_PATH).status, 0);
    const r = run(b, ["doctor", "--json"], SYSTEM_PATH);
    assert.equal(r.status, 1, r.stdout);
    const checks = (JSON.parse(r.stdout).hosts as { checks: { name: string; ok: boolean; fix?: string }[] }[]).flatMap((h) => h.checks);
    const onPath = checks.find((c) => c.name === "on PATH");
    assert.equal(onPath?.ok, false, JSON.stringify(checks));
    assert.match(onPath?.fix ?? "", /rtk init --link/);
    const dir = linkDir(b, "bin", RTK);
    const healthy = run(b, ["doctor", "--json"], `${dir}:${SYSTEM_PATH}`);
    assert.equal(healthy.status, 0, healthy.stdout);
  });
});

describe("Claude Code, installed from a checkout by `rtk init`, run as the host runs it", () => {
  test("PATH without rtk: no rewrite; PATH with it: the rewritten command runs (exit 0 in a real repository)", () => {
    const b = box();
    assert.equal(spawnSync("git", ["init", "-q", "-b", "main", b.project], { env: b.env(SYSTEM_PATH) }).status, 0);
    writeFileSync(join(b.project, "a.txt"), "a\n");
    const init = run(b, ["init", "--agent", "claude"], SYSTEM_PATH);
    assert.equal(init.status, 0, init.stderr);
    const settings = JSON.parse(readFileSync(join(b.home, ".claude", "settings.json"), "utf8"));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    assert.equal(command, `test -x ${realpathSync(RTK)} && exec ${realpathSync(RTK)} hook claude; true`);
    const host = (path: string) => spawnSync("/bin/sh", ["-c", command], { input: event(b, "git status"), env: b.env(path), cwd: b.project, encoding: "utf8", timeout: 60000 });

    const without = host(SYSTEM_PATH);
    assert.equal(without.status, 0);
    assert.equal(without.stdout, "", "no rewrite: `rtk git status` would fail with 127 here");

    const path = `${linkDir(b, "bin", RTK)}:${SYSTEM_PATH}`;
    const withIt = host(path);
    assert.equal(withIt.status, 0, withIt.stderr);
    const rewritten: string = JSON.parse(withIt.stdout).hookSpecificOutput.updatedInput.command;
    assert.equal(rewritten, "rtk git status");
    const ran = spawnSync("/bin/sh", ["-c", rewritten], { env: b.env(path), cwd: b.project, encoding: "utf8", timeout: 60000 });
    assert.equal(ran.status, 0, ran.stderr);
    assert.match(ran.stdout, /a\.txt/);
  });
});
