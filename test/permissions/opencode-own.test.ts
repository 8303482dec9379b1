// What OpenCode decides besides its bash rules, where its plugin hands the
// rewrite back in the tool's arguments (mode `args`) and OpenCode judges the
// rewritten text: a path command reaching outside the project is asked about
// (`external_directory`), which `rtk cat …` would slip past; shapes whose text
// rtk does not read as OpenCode does, and rules it cannot read, keep the command
// as typed. In mode `shell` OpenCode judges the command as typed and nothing is
// held. Through the library's rewrite(), with real files in a temporary HOME.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { rewrite } from "../../src/api.js";
import { fullRegistry } from "../../src/routes/registry.js";

const registry = fullRegistry();
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function sandbox(files: Record<string, unknown> = {}) {
  const root = mkdtempSync(join(tmpdir(), "rtk-opencode-own-"));
  roots.push(root);
  const home = join(root, "home");
  const proj = join(home, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, "src"), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content));
  }
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share"), OPENCODE_TEST_MANAGED_CONFIG_DIR: join(root, "managed") };
  const run = (command: string, mode: string) => rewrite(command, { host: "opencode", mode, cwd: proj, env, registry, warn: () => {} });
  return { root, home, proj, run };
}

describe("mode args: OpenCode judges the rewritten text", () => {
  const sb = sandbox();
  for (const [command, expected] of [
    ["git status", "rtk git status"],
    ["cat README.md", "rtk cat README.md"],
    ["cat src/main.js ../proj/README.md", "rtk cat src/main.js ../proj/README.md"],
    // OpenCode asks before `cat` reads outside the project; it would not see the path behind `rtk`.
    ["cat /etc/hostname", null],
    ["cat ~/.gitconfig", null],
    ["cat ../../x", null],
    ["cat /etc/*", null],
    // A word that expands is not a path to OpenCode.
    ["cat $HOME/.gitconfig", "rtk cat $HOME/.gitconfig"],
    // `time` is part of the text OpenCode judges; so is a here-document's body.
    ["time git status", null],
  ] as const) {
    test(`${command} → ${expected ?? "(as typed)"}`, () => {
      const r = sb.run(command, "args");
      assert.equal(r.command, expected, JSON.stringify(r.held));
      if (expected === null) assert.ok(r.held, "held back, with the reason");
    });
  }

  test("an allowlist that does not name the rewritten text: as typed", () => {
    const ruled = sandbox({ "home/proj/opencode.json": { permission: { bash: { "*": "deny", "git status*": "allow" } } } });
    assert.equal(ruled.run("git status", "args").command, null);
    const both = sandbox({ "home/proj/opencode.json": { permission: { bash: { "*": "deny", "git status*": "allow", "rtk git status*": "allow" } } } });
    assert.equal(both.run("git status", "args").command, "rtk git status");
  });

  test("an agent written in Markdown: rtk cannot read its rules, so nothing is handed back for it", () => {
    const md = sandbox({ "home/proj/.opencode/agent/review.md": "---\npermission:\n  bash: deny\n---\nReview.\n" });
    assert.equal(md.run("git status", "args:review").command, null);
    assert.equal(md.run("git status", "args:build").command, "rtk git status");
  });
});

describe("mode shell: OpenCode judges the command as typed, so nothing is held", () => {
  const sb = sandbox({ "home/proj/opencode.json": { permission: { bash: { "*": "deny", "git status*": "allow", "cat *": "allow" } } } });
  for (const [command, expected] of [
    ["git status", "rtk git status"],
    ["cat /etc/hostname", "rtk cat /etc/hostname"],
    ["time git status", "time rtk git status"],
  ] as const) {
    test(`${command} → ${expected}`, () => {
      const r = sb.run(command, "shell");
      assert.equal(r.command, expected);
      assert.equal(r.held, null);
    });
  }

  test("a command OpenCode denies as typed: exit 2, nothing to run", () => {
    assert.equal(sb.run("git log", "shell").exitCode, 2);
  });
});
