// OpenCode's permission rules as OpenCode 1.18.33 reads and applies them (its
// source and binary; test/hosts-real/opencode.real.ts checks the real program):
// its wildcards, the order its settings files merge in, the last matching rule
// deciding, an agent's rules after the global ones, and which commands of an
// input its bash tool judges by what text. Real files in a temporary HOME and
// project; every call gets an explicit environment.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { parse } from "../../grammar/parse.js";
import { opencodeAction, type OpencodeRules } from "../../src/permissions/opencode-match.js";
import { OPENCODE_RULES, opencodeMode } from "../../src/permissions/opencode-rules.js";
import { opencodeWildcard } from "../../src/permissions/pattern.js";
import { loadRules } from "../../src/permissions/sources.js";
import { judge, type RuleSet } from "../../src/permissions/verdict.js";
import type { Verdict } from "../../src/rewrite/rewrite.js";

const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A HOME, a git project `proj` and its working folder `proj/a`, and files written into them. */
function sandbox(files: Record<string, unknown> = {}) {
  const root = mkdtempSync(join(tmpdir(), "rtk-opencode-rules-"));
  roots.push(root);
  const home = join(root, "home");
  const proj = join(home, "proj");
  const cwd = join(proj, "a");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content));
  }
  const env = (extra: Record<string, string> = {}) => ({
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    OPENCODE_TEST_MANAGED_CONFIG_DIR: join(root, "managed"),
    ...extra,
  });
  return { root, home, proj, cwd, env };
}

function rulesOf(sb: ReturnType<typeof sandbox>, opts: { env?: Record<string, string>; mode?: string } = {}): OpencodeRules {
  const { rules } = loadRules(OPENCODE_RULES, sb.cwd, sb.env(opts.env), () => {}, opts.mode);
  assert.ok(rules.opencode, "OpenCode's rules are read in order");
  return rules.opencode;
}

/** The user's rules after OpenCode's default, as `pattern: action`. */
const listed = (r: OpencodeRules) => r.bash.slice(1).map((x) => `${x.pattern}: ${x.action}`);

describe("OpenCode's wildcards (Wildcard.match)", () => {
  const rows: [pattern: string, text: string, matches: boolean][] = [
    ["*", "", true],
    ["*", "git push --force", true],
    ["git status*", "git status", true],
    ["git status*", "git status --short", true],
    // No word boundary: `*` is any run of characters.
    ["git status*", "git statusx", true],
    ["ls*", "lsof -i", true],
    // A trailing ` *` also matches the text without its blank.
    ["git status *", "git status", true],
    ["git status *", "git status -s", true],
    ["git status *", "git statusx", false],
    // The whole text, as written.
    ["git status", "git status", true],
    ["git status", "git status -s", false],
    ["git status", "git status 2>&1", false],
    ["git status", "git  status", false],
    ["git log*", "FOO=1 git log", false],
    ["*git log*", "FOO=1 git log", true],
    ["git ?tatus", "git status", true],
    ["git ?tatus", "git stattus", false],
    ["Git*", "git status", false],
    // Regular-expression characters are plain text.
    ["a.b", "axb", false],
    ["a+", "aa", false],
    ["[ab]", "a", false],
    ["[ab]", "[ab]", true],
    ["(x)|y", "(x)|y", true],
    ["^x$", "^x$", true],
    // `*` crosses lines; backslashes count as slashes on both sides.
    ["echo *", "echo a\nb", true],
    ["cat C:\\x\\*", "cat C:/x/y", true],
    ["echo a/ b", "echo a\\ b", true],
  ];
  for (const [pattern, text, matches] of rows) {
    test(`${JSON.stringify(pattern)} ${matches ? "matches" : "does not match"} ${JSON.stringify(text)}`, () => {
      assert.equal(opencodeWildcard(pattern, text), matches);
    });
  }
});

describe("the mode: how the plugin hands the rewrite back, and for which agent", () => {
  for (const [mode, expected] of [
    // Any caller but the plugin's shell delivery: OpenCode judges the text it is handed.
    [undefined, { delivery: "args", agent: undefined }],
    ["build", { delivery: "args", agent: undefined }],
    ["shell", { delivery: "shell", agent: undefined }],
    ["args", { delivery: "args", agent: undefined }],
    ["args:plan", { delivery: "args", agent: "plan" }],
    ["shell:team:lead", { delivery: "shell", agent: "team:lead" }],
  ] as const) {
    test(`${JSON.stringify(mode)}`, () => assert.deepEqual(opencodeMode(mode), expected));
  }
});

describe("where OpenCode's rules come from, in its order", () => {
  test("no file: OpenCode's default alone, which allows every command", () => {
    const r = rulesOf(sandbox());
    assert.deepEqual(r.bash, [{ pattern: "*", action: "allow" }]);
    assert.equal(opencodeAction(r, "rm -rf /").action, "allow");
    assert.equal(r.agent, "build");
    assert.equal(r.unread, null);
  });

  test("the user's config.json, opencode.json, opencode.jsonc merge in that order; a key keeps its first place", () => {
    const sb = sandbox({
      "home/.config/opencode/config.json": { permission: { bash: { "git *": "allow", "*": "ask" } } },
      "home/.config/opencode/opencode.json": { permission: { bash: { "rm *": "deny" } } },
      "home/.config/opencode/opencode.jsonc": '{\n  // later files win, keys stay where they were first\n  "permission": { "bash": { "git *": "deny", }, },\n}\n',
    });
    assert.deepEqual(listed(rulesOf(sb)), ["git *: deny", "*: ask", "rm *: deny"]);
  });

  test("the project's files from the git top level down to the working folder, opencode.jsonc after opencode.json in a folder", () => {
    const sb = sandbox({
      "home/.config/opencode/opencode.json": { permission: { bash: { "*": "allow" } } },
      "home/proj/opencode.json": { permission: { bash: { "git *": "ask", "ls *": "ask" } } },
      "home/proj/a/opencode.json": { permission: { bash: { "git *": "deny" } } },
      "home/proj/a/opencode.jsonc": { permission: { bash: { "git *": "allow" } } },
      // Above the git top level: not the project's.
      "home/opencode.json": { permission: { bash: { "cat *": "deny" } } },
    });
    assert.deepEqual(listed(rulesOf(sb)), ["*: allow", "git *: allow", "ls *: ask"]);
    assert.deepEqual(listed(rulesOf(sb, { env: { OPENCODE_DISABLE_PROJECT_CONFIG: "1" } })), ["*: allow"]);
  });

  test(".opencode folders: the nearest first, so an outer one is merged later; then ~/.opencode and $OPENCODE_CONFIG_DIR", () => {
    const sb = sandbox({
      "home/proj/a/.opencode/opencode.json": { permission: { bash: { "git *": "ask" } } },
      "home/proj/.opencode/opencode.jsonc": { permission: { bash: { "git *": "deny" } } },
      "home/.opencode/opencode.json": { permission: { bash: { "ls *": "ask" } } },
      "dir/opencode.json": { permission: { bash: { "ls *": "deny" } } },
    });
    assert.deepEqual(listed(rulesOf(sb)), ["git *: deny", "ls *: ask"]);
    assert.deepEqual(listed(rulesOf(sb, { env: { OPENCODE_CONFIG_DIR: join(sb.root, "dir") } })), ["git *: deny", "ls *: deny"]);
  });

  test("$OPENCODE_CONFIG after the user's files, $OPENCODE_CONFIG_CONTENT after the project's, the managed folder, then $OPENCODE_PERMISSION", () => {
    const sb = sandbox({
      "home/.config/opencode/opencode.json": { permission: { bash: { a: "allow", b: "allow", c: "allow", d: "allow" } } },
      "custom.json": { permission: { bash: { a: "ask" } } },
      "home/proj/opencode.json": { permission: { bash: { a: "deny", b: "ask" } } },
      "managed/opencode.json": { permission: { bash: { c: "ask" } } },
    });
    const r = rulesOf(sb, {
      env: {
        OPENCODE_CONFIG: join(sb.root, "custom.json"),
        OPENCODE_CONFIG_CONTENT: JSON.stringify({ permission: { bash: { b: "deny", c: "deny" } } }),
        OPENCODE_PERMISSION: JSON.stringify({ bash: { d: "deny" } }),
      },
    });
    assert.deepEqual(listed(r), ["a: deny", "b: deny", "c: ask", "d: deny"]);
  });

  test("a permission string is that action for every tool; the tools' keys are wildcards; other tools' rules are not the bash tool's", () => {
    const sb = sandbox({ "home/proj/opencode.json": { permission: "ask" } });
    assert.deepEqual(listed(rulesOf(sb)), ["*: ask"]);
    const keys = sandbox({ "home/proj/opencode.json": { permission: { edit: "deny", "b*": { "git *": "deny" }, bash: "ask", read: { "*": "deny" } } } });
    assert.deepEqual(listed(rulesOf(keys)), ["git *: deny", "*: ask"]);
  });

  test("the older `tools` switches lie beneath `permission`", () => {
    const sb = sandbox({ "home/proj/opencode.json": { tools: { bash: false }, permission: { "*": "allow" } } });
    assert.deepEqual(listed(rulesOf(sb)), ["*: deny", "*: allow"]);
    const only = sandbox({ "home/proj/opencode.json": { tools: { bash: false } } });
    assert.equal(opencodeAction(rulesOf(only), "git status").action, "deny");
  });

  test("{env:NAME} in a file is replaced; a pattern that starts with ~/ or $HOME starts with the home folder", () => {
    const sb = sandbox({ "home/proj/opencode.json": '{ "permission": { "bash": { "{env:RTK_TEST_CMD} *": "deny", "~/bin/deploy *": "ask", "$HOME/bin/*": "ask", "cat ~/*": "ask" } } }' });
    const r = rulesOf(sb, { env: { RTK_TEST_CMD: "git push" } });
    assert.deepEqual(listed(r), ["git push *: deny", `${sb.home}/bin/deploy *: ask`, `${sb.home}/bin/*: ask`, "cat ~/*: ask"]);
  });

  test("the running agent's rules come after the global ones; the default agent is `build`, or default_agent", () => {
    const sb = sandbox({
      "home/.config/opencode/opencode.json": {
        permission: { bash: { "git *": "allow" } },
        agent: { build: { permission: { bash: { "git push*": "deny" } } }, review: { permission: "ask" } },
        mode: { legacy: { permission: { bash: { "ls *": "deny" } } } },
      },
    });
    assert.deepEqual(listed(rulesOf(sb)), ["git *: allow", "git push*: deny"]);
    assert.deepEqual(listed(rulesOf(sb, { mode: "shell:review" })), ["git *: allow", "*: ask"]);
    assert.deepEqual(listed(rulesOf(sb, { mode: "args:legacy" })), ["git *: allow", "ls *: deny"]);
    assert.deepEqual(listed(rulesOf(sb, { mode: "shell:other" })), ["git *: allow"]);
    const chosen = sandbox({ "home/.config/opencode/opencode.json": { default_agent: "review", agent: { review: { permission: { bash: "deny" } } } } });
    assert.equal(rulesOf(chosen).agent, "review");
    assert.deepEqual(listed(rulesOf(chosen)), ["*: deny"]);
  });

  test("what rtk cannot read for certain is named: an agent written in Markdown, a {file:…} substitution, a remote config", () => {
    const md = sandbox({ "home/proj/.opencode/agent/review.md": "---\npermission:\n  bash: deny\n---\nReview.\n" });
    assert.match(rulesOf(md, { mode: "args:review" }).unread ?? "", /review\.md/);
    assert.equal(rulesOf(md, { mode: "args:build" }).unread, null);
    const file = sandbox({ "home/proj/opencode.json": '{ "permission": { "bash": "{file:./rules.txt}" } }' });
    assert.match(rulesOf(file).unread ?? "", /\{file:/);
    const remote = sandbox({ "home/.local/share/opencode/auth.json": { "https://example.com": { type: "wellknown", key: "K", token: "T" } } });
    assert.match(rulesOf(remote).unread ?? "", /remote config/);
  });
});

describe("the verdict with OpenCode's rules: the last rule that matches each command's own text", () => {
  const rules = (bash: Record<string, string>): RuleSet => {
    const sb = sandbox({ "home/proj/opencode.json": { permission: { bash } } });
    return { deny: [], ask: [], allow: [], opencode: rulesOf(sb) };
  };
  const rows: [command: string, bash: Record<string, string>, verdict: Verdict, activeDeny?: boolean][] = [
    ["git status", {}, "allow"],
    ["rm -rf build", {}, "allow"],
    ["git status", { "*": "deny", "git status*": "allow" }, "allow"],
    ["git log", { "*": "deny", "git status*": "allow" }, "deny"],
    // The last rule that matches decides.
    ["git status", { "git status*": "allow", "*": "deny" }, "deny"],
    ["git status", { "git *": "ask", "git status*": "allow" }, "allow"],
    ["git status", { "git status*": "allow", "git *": "ask" }, "ask"],
    // The text as written: assignments and redirects are part of it.
    ["FOO=1 git status", { "*": "deny", "git status*": "allow" }, "deny"],
    ["git status 2>&1", { "*": "deny", "git status": "allow" }, "deny"],
    ["git status 2>&1", { "*": "deny", "git status*": "allow" }, "allow"],
    // Every command of the input; `cd`, declarations and `unset` are not judged.
    ["git status && git log", { "*": "deny", "git status*": "allow" }, "deny"],
    ["cd src && git status", { "*": "deny", "git status*": "allow" }, "allow"],
    ["export A=1 && git status; unset A", { "*": "deny", "git status*": "allow" }, "allow"],
    // The agent's own `rtk` is in the text OpenCode judges: denied by `*` as OpenCode itself denies it.
    ["rtk git status", { "*": "deny", "git status*": "allow" }, "deny", false],
    // Only without it does a rule deny: rtk must deny it itself.
    ["rtk git push origin main", { "git push*": "deny" }, "deny", true],
    ["git push origin main", { "git push*": "deny" }, "deny", false],
    ["git log -n 3", { "git log*": "ask" }, "ask"],
  ];
  for (const [command, bash, verdict, activeDeny] of rows) {
    test(`${JSON.stringify(command)} with ${JSON.stringify(bash)} → ${verdict}${activeDeny ? " (active)" : ""}`, () => {
      const p = parse(command);
      assert.ok(p.ok);
      const r = judge(p.script, command, rules(bash));
      assert.equal(r.verdict, verdict, JSON.stringify(r.parts));
      if (activeDeny !== undefined) assert.equal(r.activeDeny, activeDeny);
    });
  }
});
