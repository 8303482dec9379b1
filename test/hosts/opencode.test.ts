// The OpenCode plugin (docs/hosts.md, "OpenCode"): written by `rtk init --agent
// opencode` into a temporary HOME, loaded as TypeScript (this file runs under
// `node --import tsx`), its factory called and its handlers driven as OpenCode
// 1.18.33 drives them: `chat.params` before each model request, then for a bash
// call `tool.execute.before`, OpenCode's permission check of the command,
// `shell.env` for the shell it starts, and `tool.execute.after`. Where that
// shell is bash, the command stays as typed for OpenCode to judge and the shell
// gets a startup file that runs the rewrite in its place; with another shell the
// arguments are replaced, only where OpenCode allows the rewritten text too.
// The plugin imports rtk's library in-process and falls back to `rtk rewrite`
// only when that import fails. test/hosts-real/opencode.real.ts runs the real OpenCode.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { OPENCODE_BASH_ENV } from "../../src/hosts/opencode.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { inProcessEnv, loggingBin, pluginVariant } from "../support/plugin.js";

type Handler = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
type Hooks = Record<string, Handler>;

let home: string;
let project: string;
let pluginFile: string;
let pluginText: string;
let restoreEnv: () => void = () => {};

before(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), "rtk-opencode-"));
  project = join(home, "code", "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  const env = { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_ROUTES: "all" };
  const r = launchSync(["init", "--agent", "opencode"], { cwd: project, env });
  assert.equal(r.status, 0, `init: ${r.stdout}${r.stderr}`);
  pluginFile = join(home, ".config", "opencode", "plugins", "rtk.ts");
  assert.ok(existsSync(pluginFile), `the plugin is written to $XDG_CONFIG_HOME/opencode/plugins/rtk.ts`);
  pluginText = readFileSync(pluginFile, "utf8");
  restoreEnv = inProcessEnv(home);
  process.env["RTK_NO_PATH_CHECK"] = "1";
});

after(() => {
  restoreEnv();
  delete process.env["RTK_NO_PATH_CHECK"];
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Loads a plugin file and calls its exported factory as OpenCode does, its client answering that the tool's shell is `shell`. */
async function load(file: string, shell: string, directory = project): Promise<Hooks> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const factories = Object.values(mod).filter((v): v is (ctx: unknown) => Promise<Hooks> => typeof v === "function");
  assert.equal(factories.length, 1, `one exported plugin factory in ${file}: ${Object.keys(mod).join(", ")}`);
  const client = { config: { get: async () => ({ data: { shell } }) } };
  const hooks = await factories[0]!({ directory, worktree: directory, project: { id: "app", worktree: directory }, client, $: undefined });
  for (const h of ["tool.execute.before", "shell.env", "tool.execute.after", "chat.params"]) assert.equal(typeof hooks[h], "function", `the plugin has a ${h} handler`);
  return hooks;
}

/** A copy of the installed plugin with its library or launcher path replaced. */
const variant = (name: string, replace: { lib?: string; bin?: string }) => pluginVariant(pluginText, home, name, replace);

let calls = 0;

/** One bash call as OpenCode makes it: the arguments after `tool.execute.before`, and the environment `shell.env` gave its shell. */
async function call(hooks: Hooks, command: unknown, opts: { session?: string; env?: Record<string, string>; args?: Record<string, unknown> } = {}) {
  const callID = `call_${++calls}`;
  const sessionID = opts.session ?? "ses_main";
  const output = { args: { command, description: "Run it", ...opts.args } };
  await hooks["tool.execute.before"]!({ tool: "bash", sessionID, callID }, output);
  const env: Record<string, string> = { ...opts.env };
  await hooks["shell.env"]!({ cwd: project, sessionID, callID }, { env });
  const after = { title: String(command), output: "", metadata: { exit: 0 } as Record<string, unknown> };
  await hooks["tool.execute.after"]!({ tool: "bash", sessionID, callID, args: output.args }, after);
  return { args: output.args, env, metadata: after.metadata };
}

/** A project folder with its own opencode.json. */
function projectWith(name: string, config: object): string {
  const dir = join(home, "code", name);
  mkdirSync(join(dir, ".git"), { recursive: true });
  writeFileSync(join(dir, "opencode.json"), JSON.stringify({ $schema: "https://opencode.ai/config.json", ...config }, null, 2));
  return dir;
}

describe("bash runs the tool's commands: the rewrite runs in the shell, after OpenCode has judged the command as typed", () => {
  let hooks: Hooks;
  before(async () => {
    hooks = await load(pluginFile, "/bin/bash");
  });

  test("`git status`: the call keeps its command; its shell gets the startup file and the rewrite; the call notes what ran", async () => {
    const r = await call(hooks, "git status");
    assert.deepEqual(r.args, { command: "git status", description: "Run it" });
    const file = join(home, ".cache", "rtk", "opencode-bash-env.sh");
    assert.deepEqual(r.env, { BASH_ENV: file, RTK_OPENCODE_RUN: "rtk git status", RTK_OPENCODE_TYPED: "git status", RTK_OPENCODE_PID: String(process.pid) });
    assert.equal(readFileSync(file, "utf8"), OPENCODE_BASH_ENV);
    assert.equal(statSync(file).mode & 0o777, 0o600, "the startup file is the user's alone");
    assert.equal(statSync(join(home, ".cache", "rtk")).mode & 0o077, 0, "in a folder that is the user's alone");
    assert.equal(r.metadata["rtk"], "rtk git status");
  });

  test("a command with nothing to rewrite, or another tool: no startup file, nothing noted", async () => {
    for (const command of ["echo hi", "git status > out", "rtk git status", 'git status "', "git status | grep modified"]) {
      const r = await call(hooks, command);
      assert.deepEqual(r.env, {}, command);
      assert.equal(r.args.command, command);
      assert.equal(r.metadata["rtk"], undefined);
    }
    const output = { args: { command: "git status" } };
    await hooks["tool.execute.before"]!({ tool: "read", sessionID: "s", callID: "c_read" }, output);
    const env = {};
    await hooks["shell.env"]!({ cwd: project, sessionID: "s", callID: "c_read" }, { env });
    assert.deepEqual(env, {});
  });

  test("a shell started for no call of the plugin's (the user's own shell, a terminal) is left alone", async () => {
    for (const input of [{ cwd: project }, { cwd: project, sessionID: "s", callID: "unknown" }]) {
      const env = { A: "1" };
      await hooks["shell.env"]!(input, { env });
      assert.deepEqual(env, { A: "1" });
    }
  });

  test("a BASH_ENV set before the plugin's is kept for the shell that runs the rewrite", async () => {
    const r = await call(hooks, "git log -n 3", { env: { BASH_ENV: "/etc/profile.d/mine.sh" } });
    assert.equal(r.env["RTK_OPENCODE_BASH_ENV"], "/etc/profile.d/mine.sh");
    assert.equal(r.env["RTK_OPENCODE_RUN"], "rtk git log -n 3");
  });

  test("the issue's allowlist (`*` denied, git status allowed): git status runs through rtk; OpenCode denies git log as typed", async () => {
    const dir = projectWith("allowlist", { permission: { bash: { "*": "deny", "git status*": "allow", "ls*": "allow", "git diff*": "allow" } } });
    const ruled = await load(pluginFile, "/bin/bash", dir);
    assert.equal((await call(ruled, "git status")).env["RTK_OPENCODE_RUN"], "rtk git status");
    assert.equal((await call(ruled, "ls -la")).env["RTK_OPENCODE_RUN"], "rtk ls -la");
    assert.deepEqual((await call(ruled, "git log")).env, {});
  });

  test("an `rtk` the agent typed before a command OpenCode's rules deny is stopped with the reason, for the session's agent", async () => {
    const dir = projectWith("agents", { permission: { bash: { "git push*": "deny" } }, agent: { review: { permission: { bash: { "git status*": "deny" } } } } });
    const ruled = await load(pluginFile, "/bin/bash", dir);
    await assert.rejects(call(ruled, "rtk git push origin main"), /OpenCode permissions deny/);
    // The agent of each session is the one its model requests name.
    await ruled["chat.params"]!({ sessionID: "ses_review", agent: "review" }, {});
    await ruled["chat.params"]!({ sessionID: "ses_build", agent: "build" }, {});
    await assert.rejects(call(ruled, "rtk git status", { session: "ses_review" }), /OpenCode permissions deny/);
    assert.deepEqual((await call(ruled, "rtk git status", { session: "ses_build" })).env, {});
    assert.equal((await call(ruled, "git status", { session: "ses_build" })).env["RTK_OPENCODE_RUN"], "rtk git status");
  });

  test("a call run in another folder (`workdir`) is left as typed", async () => {
    assert.deepEqual((await call(hooks, "git status", { args: { workdir: join(home, "code") } })).env, {});
    assert.equal((await call(hooks, "git status", { args: { workdir: "." } })).env["RTK_OPENCODE_RUN"], "rtk git status");
  });

  test("a non-string command or missing arguments are left alone without throwing", async () => {
    const r = await call(hooks, ["git", "status"]);
    assert.deepEqual(r.args.command, ["git", "status"]);
    const output: Record<string, unknown> = {};
    await hooks["tool.execute.before"]!({ tool: "bash" }, output);
    assert.deepEqual(output, {});
  });

  test("RTK_DISABLED=1 switches the rewrite off", async () => {
    process.env["RTK_DISABLED"] = "1";
    try {
      assert.deepEqual((await call(hooks, "git status")).env, {});
    } finally {
      delete process.env["RTK_DISABLED"];
    }
  });
});

describe("the startup file, in the bash OpenCode starts (`bash -c <command as typed>`)", () => {
  let bin: string;
  let file: string;
  before(() => {
    // An `rtk` that says how it was called.
    bin = join(home, "startup-bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "rtk"), '#!/bin/sh\necho "rtk ran: $*"\n');
    chmodSync(join(bin, "rtk"), 0o755);
    file = join(home, "startup.sh");
    writeFileSync(file, OPENCODE_BASH_ENV);
  });
  /** `bash -c typed` as this process's child, stdin closed as OpenCode starts it, with the environment the plugin gives it. */
  const shell = (typed: string, env: Record<string, string>) =>
    spawnSync("/bin/bash", ["-c", typed], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home, BASH_ENV: file, RTK_OPENCODE_TYPED: typed, RTK_OPENCODE_PID: String(process.pid), ...env },
    });

  test("runs the rewrite in place of the command as typed, with its exit code", () => {
    const r = shell("git status", { RTK_OPENCODE_RUN: "rtk git status; exit 7" });
    assert.equal(r.stdout, "rtk ran: git status\n");
    assert.equal(r.status, 7);
  });

  test("the rewrite runs with the environment as it was: no variable of rtk's, BASH_ENV unset or the user's own", () => {
    const probe = 'echo "[${RTK_OPENCODE_RUN-}${RTK_OPENCODE_TYPED-}${RTK_OPENCODE_PID-}${RTK_OPENCODE_BASH_ENV-}][${BASH_ENV-unset}][$0]"';
    assert.equal(shell("git status", { RTK_OPENCODE_RUN: probe }).stdout, "[][unset][/bin/bash]\n");
    const mine = join(home, "mine.sh");
    writeFileSync(mine, "echo user env\n");
    assert.equal(shell("git status", { RTK_OPENCODE_RUN: probe, RTK_OPENCODE_BASH_ENV: mine }).stdout, `user env\n[][${mine}][/bin/bash]\n`);
  });

  test("any other bash that reads it (not OpenCode's child, or another command) runs what it was given, with the user's BASH_ENV", () => {
    const mine = join(home, "mine.sh");
    writeFileSync(mine, "echo user env\n");
    const other = shell("echo typed", { RTK_OPENCODE_RUN: "rtk git status", RTK_OPENCODE_PID: "1", RTK_OPENCODE_BASH_ENV: mine });
    assert.equal(other.stdout, "user env\ntyped\n");
    const nested = shell("echo typed", { RTK_OPENCODE_RUN: "rtk git status", RTK_OPENCODE_TYPED: "git status" });
    assert.equal(nested.stdout, "typed\n");
  });

  test("with no `rtk` on the shell's PATH, the command runs as typed", () => {
    const r = shell("echo typed", { RTK_OPENCODE_RUN: "rtk git status", PATH: "/usr/bin:/bin" });
    assert.equal(r.stdout, "typed\n");
  });
});

describe("another shell: the arguments are replaced, only where OpenCode allows the rewritten text too", () => {
  let hooks: Hooks;
  before(async () => {
    hooks = await load(pluginFile, "/bin/dash");
  });

  test("OpenCode's defaults: `git status` becomes `rtk git status`; its shell gets nothing", async () => {
    const r = await call(hooks, "git status && git log -n 3");
    assert.equal(r.args.command, "rtk git status && rtk git log -n 3");
    assert.deepEqual(r.env, {});
    assert.equal(r.metadata["rtk"], undefined);
  });

  test("`cat` of a file outside the project stays as typed: OpenCode asks about that path, which it would not see behind `rtk`", async () => {
    assert.equal((await call(hooks, "cat /etc/hostname")).args.command, "cat /etc/hostname");
    assert.equal((await call(hooks, "cat README.md")).args.command, "rtk cat README.md");
  });

  test("an allowlist written for `git status` would refuse `rtk git status`: as typed", async () => {
    const dir = projectWith("allowlist-args", { permission: { bash: { "*": "deny", "git status*": "allow" } } });
    const ruled = await load(pluginFile, "/bin/dash", dir);
    assert.equal((await call(ruled, "git status")).args.command, "git status");
  });

  test("a shell that is not a POSIX one (PowerShell): as typed; one that is not there: OpenCode starts bash", async () => {
    const pwsh = join(home, "shells", "pwsh");
    mkdirSync(join(home, "shells"), { recursive: true });
    writeFileSync(pwsh, "#!/bin/sh\n");
    chmodSync(pwsh, 0o755);
    const r = await call(await load(pluginFile, pwsh), "git status");
    assert.equal(r.args.command, "git status");
    assert.deepEqual(r.env, {});
    const missing = await call(await load(pluginFile, join(home, "shells", "no-such-shell")), "git status");
    assert.equal(missing.env["RTK_OPENCODE_RUN"], "rtk git status");
  });
});

describe("subprocess or not", () => {
  test("with the library importable, no `rtk` process is started per command", async () => {
    const { bin, log } = loggingBin(home, "in-process");
    const hooks = await load(variant("in-process", { bin }), "/bin/bash");
    assert.equal((await call(hooks, "git status")).env["RTK_OPENCODE_RUN"], "rtk git status");
    assert.ok(!existsSync(log), `the plugin started rtk: ${existsSync(log) ? readFileSync(log, "utf8") : ""}`);
  });

  test("fallback: with RTK_LIB pointing at a missing file, `rtk rewrite --mode` gives the same answers", async () => {
    const { bin, log } = loggingBin(home, "fallback");
    const lib = join(home, "missing", "lib.mjs");
    const bash = await load(variant("fallback", { lib, bin }), "/bin/bash");
    assert.equal((await call(bash, "git status")).env["RTK_OPENCODE_RUN"], "rtk git status");
    assert.deepEqual((await call(bash, "git status > out")).env, {});
    assert.match(readFileSync(log, "utf8"), /^rewrite --json --host opencode --mode shell git status$/m);
    const dash = await load(variant("fallback-args", { lib, bin }), "/bin/dash");
    assert.equal((await call(dash, "git status")).args.command, "rtk git status");
    assert.equal((await call(dash, "cat /etc/hostname")).args.command, "cat /etc/hostname");
    const dir = projectWith("fallback-rules", { permission: { bash: { "git push*": "deny" } }, agent: { review: { permission: { bash: { "git status*": "deny" } } } } });
    const ruled = await load(variant("fallback-rules", { lib, bin }), "/bin/bash", dir);
    await assert.rejects(call(ruled, "rtk git push origin main"), /OpenCode permissions deny/);
    await ruled["chat.params"]!({ sessionID: "ses_review", agent: "review" }, {});
    await assert.rejects(call(ruled, "rtk git status", { session: "ses_review" }), /OpenCode permissions deny/);
    assert.match(readFileSync(log, "utf8"), /--mode shell:review rtk git status$/m);
  });

  test("neither library nor launcher: fail open, the command runs as typed", async () => {
    const hooks = await load(variant("nothing", { lib: join(home, "missing", "lib.mjs"), bin: join(home, "missing", "rtk") }), "/bin/bash");
    const r = await call(hooks, "git status");
    assert.equal(r.args.command, "git status");
    assert.deepEqual(r.env, {});
  });
});
