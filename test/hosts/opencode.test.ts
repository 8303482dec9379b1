// The OpenCode plugin (spec/hosts.md, "OpenCode"): written by
// `rtk init --agent opencode` into a temporary HOME, loaded as TypeScript (this
// file runs under `node --import tsx`), its factory called and its
// "tool.execute.before" handler driven as OpenCode drives it. The plugin
// imports rtk's library in-process and falls back to `rtk rewrite` only when
// that import fails; it never decides a permission.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { inProcessEnv, loggingBin, pluginVariant } from "../support/plugin.js";

type Handler = (input: { tool?: string; sessionID?: string; callID?: string }, output: { args?: Record<string, unknown> }) => Promise<void>;
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
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  const env = { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_ROUTES: "all" };
  const r = launchSync(["init", "--agent", "opencode"], { cwd: project, env });
  assert.equal(r.status, 0, `init: ${r.stdout}${r.stderr}`);
  pluginFile = join(home, ".config", "opencode", "plugins", "rtk.ts");
  assert.ok(existsSync(pluginFile), `the plugin is written to $XDG_CONFIG_HOME/opencode/plugins/rtk.ts`);
  pluginText = readFileSync(pluginFile, "utf8");
  restoreEnv = inProcessEnv(home);
});

after(() => {
  restoreEnv();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Loads a plugin file and calls its exported factory as OpenCode does. */
async function load(file: string, directory = project): Promise<Hooks> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const factories = Object.values(mod).filter((v): v is (ctx: unknown) => Promise<Hooks> => typeof v === "function");
  assert.equal(factories.length, 1, `one exported plugin factory in ${file}: ${Object.keys(mod).join(", ")}`);
  const hooks = await factories[0]!({ directory, worktree: directory, project: { id: "app", worktree: directory }, client: {}, $: undefined });
  assert.equal(typeof hooks["tool.execute.before"], "function", "the plugin has a tool.execute.before handler");
  return hooks;
}

/** A copy of the installed plugin with its library or launcher path replaced. */
const variant = (name: string, replace: { lib?: string; bin?: string }) => pluginVariant(pluginText, home, name, replace);

async function run(hooks: Hooks, tool: string, args: Record<string, unknown>) {
  const output = { args: { ...args } };
  await hooks["tool.execute.before"]!({ tool, sessionID: "ses_01JH8X", callID: "call_7Q2" }, output);
  return output;
}

describe("the installed plugin (in-process library)", () => {
  let hooks: Hooks;
  before(async () => {
    hooks = await load(pluginFile);
  });

  test("bash `git status` becomes `rtk git status`", async () => {
    const out = await run(hooks, "bash", { command: "git status", description: "Shows working tree status" });
    assert.deepEqual(out, { args: { command: "rtk git status", description: "Shows working tree status" } });
  });

  test("a compound command is rewritten part by part", async () => {
    const out = await run(hooks, "bash", { command: "git status && git log -n 3" });
    assert.equal(out.args.command, "rtk git status && rtk git log -n 3");
  });

  test("another tool is untouched, even with a `command` argument", async () => {
    const read = await run(hooks, "read", { filePath: join(project, "README.md") });
    assert.deepEqual(read, { args: { filePath: join(project, "README.md") } });
    const other = await run(hooks, "read", { command: "git status" });
    assert.deepEqual(other, { args: { command: "git status" } });
  });

  test("a command that must not be rewritten is untouched", async () => {
    for (const command of ["git status > out", "echo hi", "rtk git status", 'git status "', "git status | grep modified"]) {
      const out = await run(hooks, "bash", { command });
      assert.deepEqual(out, { args: { command } }, command);
    }
  });

  test("a non-string command or missing args are left alone without throwing", async () => {
    const out = await run(hooks, "bash", { command: ["git", "status"] });
    assert.deepEqual(out.args.command, ["git", "status"]);
    const output: { args?: Record<string, unknown> } = {};
    await hooks["tool.execute.before"]!({ tool: "bash" }, output);
    assert.deepEqual(output, {});
  });

  test("it never decides a permission: only args.command changes", async () => {
    const output: Record<string, unknown> = { args: { command: "git status" }, title: "t", metadata: {} };
    await hooks["tool.execute.before"]!({ tool: "bash" }, output as { args: Record<string, unknown> });
    assert.deepEqual(output, { args: { command: "rtk git status" }, title: "t", metadata: {} });
  });

  test("RTK_DISABLED=1 switches the rewrite off", async () => {
    process.env["RTK_DISABLED"] = "1";
    try {
      const out = await run(hooks, "bash", { command: "git status" });
      assert.equal(out.args.command, "git status");
    } finally {
      delete process.env["RTK_DISABLED"];
    }
  });
});

describe("subprocess or not", () => {
  test("with the library importable, no `rtk` process is started per command", async () => {
    const { bin, log } = loggingBin(home, "in-process");
    const hooks = await load(variant("in-process", { bin }));
    const out = await run(hooks, "bash", { command: "git status" });
    assert.equal(out.args.command, "rtk git status");
    assert.ok(!existsSync(log), `the plugin started rtk: ${existsSync(log) ? readFileSync(log, "utf8") : ""}`);
  });

  test("fallback: with RTK_LIB pointing at a missing file, it still rewrites through `rtk rewrite`", async () => {
    const { bin, log } = loggingBin(home, "fallback");
    const hooks = await load(variant("fallback", { lib: join(home, "missing", "lib.mjs"), bin }));
    const out = await run(hooks, "bash", { command: "git status" });
    assert.equal(out.args.command, "rtk git status");
    assert.ok(existsSync(log), "the fallback started rtk");
    assert.match(readFileSync(log, "utf8"), /^rewrite\b/m, "through `rtk rewrite`");
    const kept = await run(hooks, "bash", { command: "git status > out" });
    assert.equal(kept.args.command, "git status > out");
    const other = await run(hooks, "read", { command: "git status" });
    assert.equal(other.args.command, "git status");
  });

  test("fallback with the real launcher named by the installed plugin", async () => {
    const hooks = await load(variant("fallback-real", { lib: join(home, "missing", "lib.mjs") }));
    const out = await run(hooks, "bash", { command: "git log -n 5" });
    assert.equal(out.args.command, "rtk git log -n 5");
  });

  test("neither library nor launcher: fail open, the command is unchanged", async () => {
    const hooks = await load(variant("nothing", { lib: join(home, "missing", "lib.mjs"), bin: join(home, "missing", "rtk") }));
    const out = await run(hooks, "bash", { command: "git status" });
    assert.equal(out.args.command, "git status");
  });
});

// OpenCode judges the command it is handed, so its `permission.bash` patterns see
// `rtk git push …`, which `git push *` does not match: rtk reads them as its rules.
describe("OpenCode's own permission rules (opencode.json in the project)", () => {
  let ruled: string;
  before(() => {
    ruled = join(home, "code", "ruled");
    mkdirSync(join(ruled, ".git"), { recursive: true });
    writeFileSync(
      join(ruled, "opencode.json"),
      JSON.stringify({ $schema: "https://opencode.ai/config.json", permission: { bash: { "*": "ask", "git status *": "allow", "git diff *": "ask", "git push *": "deny" } } }, null, 2),
    );
  });

  for (const [command, expected] of [
    ["git status", "rtk git status"],
    ["git log -n 3", "rtk git log -n 3"],
    // A deny or ask rule that would not see the rewritten command: left as typed, for OpenCode to judge.
    ["git push origin main", "git push origin main"],
    ["git diff HEAD", "git diff HEAD"],
    ["git status && git push", "git status && git push"],
  ] as const) {
    test(`${command} → ${expected}`, async () => {
      const hooks = await load(pluginFile, ruled);
      assert.equal((await run(hooks, "bash", { command })).args.command, expected);
    });
  }

  test("`rtk git push origin main` typed by the agent under `git push *: deny` is stopped with the reason", async () => {
    const hooks = await load(pluginFile, ruled);
    await assert.rejects(run(hooks, "bash", { command: "rtk git push origin main" }), /OpenCode permissions deny/);
  });

  test("the newer `permissions` list (action shell) is read too, and the fallback through `rtk rewrite` keeps the rules", async () => {
    const v2 = join(home, "code", "ruled-v2");
    mkdirSync(join(v2, ".git"), { recursive: true });
    writeFileSync(join(v2, "opencode.jsonc"), '{\n  // ordered rules\n  "permissions": [\n    { "action": "shell", "resource": "git push *", "effect": "deny" },\n  ],\n}\n');
    const inProcess = await load(pluginFile, v2);
    assert.equal((await run(inProcess, "bash", { command: "git push" })).args.command, "git push");
    assert.equal((await run(inProcess, "bash", { command: "git status" })).args.command, "rtk git status");
    const fallback = await load(variant("fallback-rules", { lib: join(home, "missing", "lib.mjs") }), v2);
    assert.equal((await run(fallback, "bash", { command: "git push" })).args.command, "git push");
    assert.equal((await run(fallback, "bash", { command: "git status" })).args.command, "rtk git status");
  });
});
