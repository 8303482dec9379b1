// Codex's own command rules against `rtk hook codex`: events through the built
// launcher, with rules in a temporary HOME, CODEX_HOME and project. Codex's
// documentation, as checked (developers.openai.com/codex/…):
// - hooks: PreToolUse applies `updatedInput` only with `permissionDecision: "allow"` (no
//   rewrite without it; "ask" is refused), and the replacement still goes through Codex's
//   rules, approval policy and sandbox — so the answer below keeps allow + updatedInput.
// - rules: `.rules` files (Starlark `prefix_rule(pattern, decision, justification, match,
//   not_match)`) in `rules/` under every active config layer; decision allow (default) |
//   prompt | forbidden, the strictest match wins; list entries in a pattern are
//   alternatives; match/not_match examples are checked when the file loads; a file that
//   does not load drops Codex's rules.
// - team-config: the config layers are $CWD/.codex, the parents up to the repo root,
//   $REPO_ROOT/.codex, $CODEX_HOME (default ~/.codex) and /etc/codex.
// - enterprise/managed-configuration: requirements.toml (cloud-managed, macOS managed
//   preferences `requirements_toml_base64`, /etc/codex/requirements.toml) can add
//   `[rules] prefix_rules` with `prompt` or `forbidden` only.
// - config-reference and agent-approvals-security: approval_policy, sandbox_mode, profiles
//   and `[projects."…"] trust_level` apply to the command Codex runs (the replacement too);
//   trust only decides whether a project's layer is read — rtk reads it either way.
// The system-wide sources (/etc/codex, managed preferences) are tested through the loader
// with those folders moved into a temporary one: the real ones belong to the machine.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadCodexRestrictions, MAX_PATTERNS, type CodexSystemPaths } from "../../src/permissions/codex-rules.js";
import { parseRulesFile } from "../../src/permissions/codex-starlark.js";
import { codex as codexCase } from "../hosts/cases/codex.js";
import { ensureBuilt } from "../support/build.js";
import { launch, loginProfile, type Run } from "../support/launch.js";

before(() => ensureBuilt());

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface World {
  root: string;
  home: string;
  /** The repository the events' cwd is in. */
  repo: string;
  /** The events' cwd: a folder inside the repository. */
  cwd: string;
}

function world(files: Record<string, string> = {}): World {
  const root = mkdtempSync(join(tmpdir(), "rtk-codex-"));
  made.push(root);
  const home = join(root, "home");
  const repo = join(home, "work", "app");
  const cwd = join(repo, "pkg");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(repo, ".git"));
  loginProfile(home);
  for (const [rel, text] of Object.entries(files)) put(join(root, rel), text);
  return { root, home, repo, cwd };
}

function put(path: string, text: string | Buffer) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A recorded Codex event, as the conformance cases have it. */
function event(command: string, cwd: string): string {
  return JSON.stringify(codexCase.recorded(command, cwd).event);
}

function hook(w: World, command: string, env: Record<string, string> = {}, mode = "default"): Promise<Run> {
  return launch(["hook", "codex"], {
    cwd: w.root,
    input: JSON.stringify({ ...JSON.parse(event(command, w.cwd)), permission_mode: mode }),
    env: { PATH: process.env["PATH"] ?? "", HOME: w.home, XDG_CONFIG_HOME: join(w.root, "config"), XDG_DATA_HOME: join(w.root, "data"), RTK_ROUTES: "all", ...env },
  });
}

/** Rewritten: the only rewrite Codex applies is allow + updatedInput (see the header). */
function assertRewritten(r: Run, command: string) {
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "", `nothing on stderr: ${r.stderr}`);
  assert.deepEqual(JSON.parse(r.stdout), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      permissionDecisionReason: "rtk: token-optimised rewrite",
      updatedInput: { command: `rtk ${command}` },
    },
  });
}

/** No answer: Codex judges the command as typed. */
function assertLeft(r: Run, what: string, warnings = 0) {
  assert.equal(r.status, 0, `${what}: ${r.stderr}`);
  assert.equal(r.stdout, "", `${what}: no answer expected, got ${r.stdout}`);
  assert.equal(r.stderr.split("\n").filter(Boolean).length, warnings, `${what}: stderr ${JSON.stringify(r.stderr)}`);
}

function assertDenied(r: Run, reason: RegExp) {
  assert.equal(r.status, 0, r.stderr);
  const a = JSON.parse(r.stdout).hookSpecificOutput;
  assert.equal(a.hookEventName, "PreToolUse");
  assert.equal(a.permissionDecision, "deny");
  assert.match(a.permissionDecisionReason, reason);
}

const USER_RULES = [
  'prefix_rule(pattern = ["git", ["push", "reset"]], decision = "forbidden")',
  'prefix_rule(pattern = ["git", "log"], decision = "prompt", justification = "history can hold secrets")',
  'prefix_rule(pattern = ["git", "status"], decision = "allow")',
  'prefix_rule(pattern = [["cat", "head"], "secret.txt"], decision = "prompt")',
].join("\n");

describe("the user layer (~/.codex/rules): forbidden, prompt and allow leave the command to Codex", { concurrency: true }, () => {
  let w: World;
  before(() => {
    w = world({ "home/.codex/rules/default.rules": USER_RULES });
  });
  for (const [command, left] of [
    ["git push origin main", true],
    ["git reset --hard", true],
    ["git log -3", true],
    ["cat secret.txt", true],
    ["head secret.txt", true],
    // Allowed: Codex runs it outside its sandbox, where `rtk git status` would run inside it.
    ["git status", true],
    ["git diff", false],
    ["tail secret.txt", false],
  ] as const) {
    test(`${command} → ${left ? "no answer" : "rewrite"}`, async () => {
      const r = await hook(w, command);
      if (left) assertLeft(r, command);
      else assertRewritten(r, command);
    });
  }
  // Codex matches argv tokens: quotes, blanks and an absolute program path do not hide a command from it.
  // …and neither do git's own options before the command, a configured wrapper's, or a runner's.
  for (const command of [
    "/usr/bin/git log -3",
    "git 'log' -3",
    "git  log -3",
    "cd sub && git log -3",
    "git status; git log",
    "git -C . log -3",
    "git --no-pager log",
    "git status && git -c color.ui=never push",
    "git status; echo a | xargs git push",
  ]) {
    test(`a prompt rule also covers \`${command}\``, async () => assertLeft(await hook(w, command), command));
  }
});

// What Codex 0.171 sends as permission_mode, and what it runs unprompted under each
// (test/hosts-real/codex.real.ts measures it): `bypassPermissions` is the approval
// policy `never`, `default` every other one; a forced `rm` Codex stops by itself.
describe("Codex's permission modes: a rewrite only where Codex runs the command as typed unprompted", { concurrency: true }, () => {
  let w: World;
  before(() => {
    w = world();
  });
  for (const mode of ["default", "bypassPermissions"]) {
    test(`${mode}: git status → rewrite`, async () => assertRewritten(await hook(w, "git status", {}, mode), "git status"));
    test(`${mode}: a list with a forced rm is left to Codex, which stops the rm itself`, async () => {
      for (const command of ["git status && rm -rf build", "git status; sudo rm -f x", "ls | rm --force y"]) assertLeft(await hook(w, command, {}, mode), command);
    });
    test(`${mode}: an rm without force does not hold the rest`, async () => {
      const r = await hook(w, "git status && rm -r build", {}, mode);
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk git status && rm -r build");
    });
  }
  for (const mode of ["plan", "acceptEdits", "dontAsk", "on-request", "never", "untrusted"]) {
    test(`${mode} (not one Codex sends): no answer`, async () => assertLeft(await hook(w, "git status", {}, mode), mode));
  }
});

describe("a rule the user wrote for `rtk` itself: the rewrite would meet it where the command as typed does not, so it is left as typed", { concurrency: true }, () => {
  for (const [rule, command] of [
    ['prefix_rule(pattern = ["rtk"], decision = "allow")', "git status"],
    ['prefix_rule(pattern = ["rtk", "git"], decision = "prompt")', "git log -3"],
    ['prefix_rule(pattern = ["rtk", ["ls", "cat"]], decision = "forbidden")', "ls -la"],
  ] as const) {
    test(`${rule} → ${command} gets no answer`, async () => {
      const w = world({ "home/.codex/rules/default.rules": rule + "\n" });
      assertLeft(await hook(w, command), command);
    });
  }
  test("a rule for `rtk` names no other command: git diff is rewritten", async () => {
    const w = world({ "home/.codex/rules/default.rules": 'prefix_rule(pattern = ["rtk", "git", "status"], decision = "allow")\n' });
    assertRewritten(await hook(w, "git diff"), "git diff");
  });
});

describe("a command the agent typed behind `rtk`: Codex's rules cannot see it, rtk denies it", { concurrency: true }, () => {
  let w: World;
  before(() => {
    w = world({ "home/.codex/rules/default.rules": USER_RULES });
  });
  test("forbidden: `rtk git push` is denied, naming the rule", async () => {
    assertDenied(await hook(w, "rtk git push origin main"), /Codex's rules forbid `git push`/);
  });
  test("prompt: `rtk git log` is denied, asking for the command without rtk so that Codex can ask", async () => {
    assertDenied(await hook(w, "rtk git log -3"), /ask before `git log`.*without the `rtk` prefix/);
  });
  test("in a list: `git status && rtk git reset --hard` is denied", async () => {
    assertDenied(await hook(w, "git status && rtk git reset --hard"), /forbid `git reset`/);
  });
  test("`rtk git status` (no rule) gets no answer, as before", async () => assertLeft(await hook(w, "rtk git status"), "rtk git status"));
});

describe("CODEX_HOME replaces ~/.codex", { concurrency: true }, () => {
  let w: World;
  before(() => {
    w = world({
      "codex-home/rules/team.rules": 'prefix_rule(pattern = ["git", "diff"], decision = "forbidden")\n',
      "home/.codex/rules/default.rules": 'prefix_rule(pattern = ["git", "status"], decision = "forbidden")\n',
    });
  });
  test("its rules apply", async () => assertLeft(await hook(w, "git diff", { CODEX_HOME: join(w.root, "codex-home") }), "git diff"));
  test("~/.codex's no longer do", async () => assertRewritten(await hook(w, "git status", { CODEX_HOME: join(w.root, "codex-home") }), "git status"));
});

describe("project layers: .codex/rules in the cwd and in the folders above it", { concurrency: true }, () => {
  let w: World;
  before(() => {
    w = world({
      "home/work/app/pkg/.codex/rules/pkg.rules": 'prefix_rule(pattern = ["git", "diff"], decision = "prompt")\n',
      "home/work/app/.codex/rules/repo.rules": 'prefix_rule(pattern = ["git", "show"], decision = "forbidden")\n',
    });
  });
  test("the cwd's layer", async () => assertLeft(await hook(w, "git diff HEAD~1"), "cwd layer"));
  test("the repository root's layer", async () => assertLeft(await hook(w, "git show HEAD"), "repo layer"));
  test("an unmentioned command is rewritten", async () => assertRewritten(await hook(w, "git status"), "git status"));
});

describe("cloud-managed requirements (Codex's cache in CODEX_HOME)", { concurrency: true }, () => {
  const cache = (contents: string | null) =>
    JSON.stringify({
      signed_payload: { cached_at: "2026-01-15T10:00:00Z", expires_at: "2026-01-15T10:30:00Z", chatgpt_user_id: "u", account_id: "a", contents },
      signature: "c2lnbmF0dXJl",
    });
  const REQUIREMENTS = [
    'allowed_approval_policies = ["on-request"]',
    "[rules]",
    "prefix_rules = [",
    '  { pattern = [{ token = "git" }, { any_of = ["push", "pull"] }], decision = "forbidden", justification = "Use the release flow" },',
    '  { pattern = [{ token = "git" }, { token = "log" }], decision = "prompt" },',
    "]",
  ].join("\n");
  test("their forbidden and prompt rules leave the command to Codex", async () => {
    const w = world({ "home/.codex/cloud-requirements-cache.json": cache(REQUIREMENTS) });
    assertLeft(await hook(w, "git pull --rebase"), "git pull");
    assertLeft(await hook(w, "git log -1"), "git log");
    assertRewritten(await hook(w, "git status"), "git status");
  });
  test("no requirements for the account: every command is rewritten as usual", async () => {
    assertRewritten(await hook(world({ "home/.codex/cloud-requirements-cache.json": cache(null) }), "git push"), "git push");
  });
  test("requirements Codex refuses (an allow rule) leave every command to Codex, with one warning", async () => {
    const bad = '[rules]\nprefix_rules = [{ pattern = [{ token = "git" }], decision = "allow" }]\n';
    assertLeft(await hook(world({ "home/.codex/cloud-requirements-cache.json": cache(bad) }), "git status"), "allow in requirements", 1);
  });
  test("a cache rtk cannot read leaves every command to Codex, with one warning", async () => {
    assertLeft(await hook(world({ "home/.codex/cloud-requirements-cache.json": "{not json" }), "git status"), "broken cache", 1);
  });
});

describe("what the parser must not be fooled by", { concurrency: true }, () => {
  let w: World;
  before(() => {
    w = world({
      "home/.codex/rules/default.rules": [
        '# prefix_rule(pattern = ["git", "status"], decision = "forbidden") is only a comment',
        "prefix_rule(",
        "    # a `)` or a `]` in a comment ends nothing",
        '    pattern = ["git", "push"],',
        "    justification = \"not decision = 'allow' (and no pattern = ['echo']) )\",",
        '    decision = "forbidden",',
        '    match = ["git push origin main", ["git", "push", "--tags"]],',
        '    not_match = ["git status", "git \'pu sh\'"],',
        ")",
        'prefix_rule(["git", "log"], "prompt")',
        "prefix_rule(pattern = [r\"git\", '''diff'''], decision = \"prompt\")",
        'host_executable(name = "git", paths = ["/usr/bin/git"])',
        'network_rule(host = "example.com", protocol = "https", decision = "deny")',
      ].join("\n"),
    });
  });
  for (const [command, left] of [
    ["git push", true],
    ["git log", true],
    ["git diff", true],
    ["git status", false],
    ["git show", false],
  ] as const) {
    test(`${command} → ${left ? "no answer" : "rewrite"}`, async () => {
      const r = await hook(w, command);
      if (left) assertLeft(r, command);
      else assertRewritten(r, command);
    });
  }
});

describe("a token holding `*` is a literal for Codex: rtk's pattern stops before it (it matches more, never less)", () => {
  test("`git log '--grep=a*b' -5` under a prompt rule for it → no answer; `git status` → rewrite", async () => {
    const w = world({ "home/.codex/rules/default.rules": 'prefix_rule(pattern = ["git", "log", "--grep=a*b"], decision = "prompt")\n' });
    assertLeft(await hook(w, "git log '--grep=a*b' -5"), "glob token");
    assertRewritten(await hook(w, "git status"), "git status");
  });
});

describe("a rules file rtk cannot read as Codex would: no answer for any command, one warning", { concurrency: true }, () => {
  const wide = Array.from({ length: 70 }, (_, k) => `"a${k}"`).join(", ");
  for (const [why, text] of [
    ["a variable", 'GIT = "git"\nprefix_rule(pattern = [GIT, "push"], decision = "forbidden")'],
    ["an unknown decision", 'prefix_rule(pattern = ["git", "push"], decision = "deny")'],
    ["a match example the pattern does not match", 'prefix_rule(pattern = ["git", "push"], decision = "forbidden", match = ["git pull"])'],
    ["a not_match example the pattern matches", 'prefix_rule(pattern = ["git", "push"], decision = "forbidden", not_match = ["git push -f"])'],
    ["a call that is not closed", 'prefix_rule(pattern = ["git", "push"], decision = "forbidden"'],
    ["an operator", 'prefix_rule(pattern = ["git"] + ["push"], decision = "forbidden")'],
    ["an f-string", 'prefix_rule(pattern = [f"git", "push"], decision = "forbidden")'],
    ["an empty pattern", 'prefix_rule(pattern = [], decision = "prompt")'],
    ["an unknown parameter", 'prefix_rule(pattern = ["git", "push"], decison = "forbidden")'],
    ["an empty justification", 'prefix_rule(pattern = ["git", "push"], decision = "forbidden", justification = " ")'],
    ["another builtin", 'print("hello")\nprefix_rule(pattern = ["git", "push"], decision = "forbidden")'],
    ["a string not closed", 'prefix_rule(pattern = ["git", "push], decision = "forbidden")'],
    [`more than ${MAX_PATTERNS} prefixes`, `prefix_rule(pattern = [[${wide}], [${wide}]], decision = "prompt")`],
  ] as const) {
    test(why, async () => {
      const w = world({ "home/.codex/rules/default.rules": 'prefix_rule(pattern = ["ls"], decision = "allow")\n', "home/work/app/.codex/rules/broken.rules": text });
      const r = await hook(w, "git status");
      assertLeft(r, why, 1);
      assert.match(r.stderr, /broken\.rules|prefixes/, "the warning names the file");
    });
  }
});

// ---- the system-wide sources, through the loader ----------------------------------------------

describe("system-wide sources: /etc/codex and macOS managed preferences", () => {
  const system = (w: World): CodexSystemPaths => ({ etc: join(w.root, "etc-codex"), managedPreferences: join(w.root, "managed") });
  const env = (w: World) => ({ HOME: w.home, USER: "dev" });
  const requirements = '[rules]\nprefix_rules = [{ pattern = [{ token = "git" }, { any_of = ["push", "pull"] }], decision = "forbidden" }]\n';
  const plist = (b64: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n  <key>requirements_toml_base64</key>\n  <string>${b64}</string>\n</dict>\n</plist>\n`;

  test("/etc/codex/rules/*.rules", () => {
    const w = world({ "etc-codex/rules/org.rules": 'prefix_rule(pattern = ["git", "push"], decision = "prompt")\n' });
    assert.deepEqual(loadCodexRestrictions(w.cwd, env(w), system(w)), { ok: true, value: { forbidden: [], prompt: ["git push"], allowed: [] } });
  });
  test("/etc/codex/requirements.toml [rules]", () => {
    const w = world({ "etc-codex/requirements.toml": requirements });
    assert.deepEqual(loadCodexRestrictions(w.cwd, env(w), system(w)), { ok: true, value: { forbidden: ["git push", "git pull"], prompt: [], allowed: [] } });
  });
  test("/etc/codex/requirements.toml that Codex refuses blocks every command", () => {
    const w = world({ "etc-codex/requirements.toml": '[rules]\nprefix_rules = [{ pattern = [{ token = "git", any_of = ["x"] }], decision = "prompt" }]\n' });
    const r = loadCodexRestrictions(w.cwd, env(w), system(w));
    assert.equal(r.ok, false);
  });
  test("managed preferences (XML): requirements_toml_base64", () => {
    const w = world({ "managed/com.openai.codex.plist": plist(Buffer.from(requirements).toString("base64")) });
    assert.deepEqual(loadCodexRestrictions(w.cwd, env(w), system(w)), { ok: true, value: { forbidden: ["git push", "git pull"], prompt: [], allowed: [] } });
  });
  test("managed preferences for the user ($USER's folder)", () => {
    const w = world({ "managed/dev/com.openai.codex.plist": plist(Buffer.from(requirements).toString("base64")) });
    assert.deepEqual(loadCodexRestrictions(w.cwd, env(w), system(w)), { ok: true, value: { forbidden: ["git push", "git pull"], prompt: [], allowed: [] } });
  });
  test("a binary property list holding requirements cannot be read: it blocks every command", () => {
    const w = world();
    put(join(w.root, "managed", "com.openai.codex.plist"), Buffer.concat([Buffer.from("bplist00"), Buffer.from("requirements_toml_base64"), Buffer.from([0, 1, 2])]));
    const r = loadCodexRestrictions(w.cwd, env(w), system(w));
    assert.equal(r.ok, false);
  });
  test("a binary property list without requirements is no rule", () => {
    const w = world();
    put(join(w.root, "managed", "com.openai.codex.plist"), Buffer.concat([Buffer.from("bplist00"), Buffer.from("config_toml_base64"), Buffer.from([0, 1, 2])]));
    assert.deepEqual(loadCodexRestrictions(w.cwd, env(w), system(w)), { ok: true, value: { forbidden: [], prompt: [], allowed: [] } });
  });
});

describe("the .rules reader", () => {
  test("decision defaults to allow; a one-entry list is the token itself", () => {
    assert.deepEqual(parseRulesFile('prefix_rule(pattern = [["git"], "status"])'), { ok: true, value: [{ pattern: ["git", "status"], decision: "allow" }] });
  });
  test("escapes and raw strings read as Starlark reads them", () => {
    const r = parseRulesFile('prefix_rule(pattern = ["a\\tb", r"c\\d", "\\x41\\u00e9"], decision = "prompt")');
    assert.deepEqual(r, { ok: true, value: [{ pattern: ["a\tb", "c\\d", "Aé"], decision: "prompt" }] });
  });
  test("two calls on one line, separated by `;`", () => {
    const r = parseRulesFile('prefix_rule(pattern = ["a"], decision = "prompt"); prefix_rule(pattern = ["b"], decision = "forbidden")');
    assert.deepEqual(r.ok && r.value.map((x) => x.decision), ["prompt", "forbidden"]);
  });
  test("two calls on one line without a separator are refused", () => {
    assert.equal(parseRulesFile('prefix_rule(pattern = ["a"]) prefix_rule(pattern = ["b"])').ok, false);
  });
});
