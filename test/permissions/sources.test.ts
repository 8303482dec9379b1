// Where each host's rules come from (spec/permissions.md, "Where rules come from,
// per host"), end to end with real settings files in a temporary HOME and project
// folder — through loadRules + judge, through the library's rewrite(), and through
// the built CLI (`rtk rewrite --host …`). Every call gets an explicit environment:
// no test reads the real HOME of the machine. Expectations come from the spec.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "../../grammar/parse.js";
import { rewrite } from "../../src/api.js";
import { hostNamed } from "../../src/hosts/index.js";
import { loadRules } from "../../src/permissions/sources.js";
import { judge, type PermissionReport } from "../../src/permissions/verdict.js";
import { fullRegistry } from "../../src/routes/registry.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";

const registry = fullRegistry();
const sandboxes: string[] = [];

after(() => {
  for (const d of sandboxes) {
    try {
      chmodAll(d);
      rmSync(d, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }
});

function chmodAll(d: string): void {
  spawnSync("chmod", ["-R", "u+rwx", d]);
}

/** A fresh root with `home/`, `cfg/` and a project `proj/` whose working folder is `proj/a/b`. */
function sandbox() {
  const root = mkdtempSync(join(tmpdir(), "rtk-perm-"));
  sandboxes.push(root);
  const home = join(root, "home");
  const cfg = join(root, "cfg");
  const proj = join(root, "proj");
  const cwd = join(proj, "a", "b");
  mkdirSync(home);
  mkdirSync(cfg);
  mkdirSync(cwd, { recursive: true });
  const write = (path: string, content: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
    return path;
  };
  const env = (extra: Record<string, string> = {}) => ({ HOME: home, XDG_CONFIG_HOME: cfg, ...extra });
  // The user accepted Claude Code's trust dialog for the project (and its subfolder `a`), as anyone working in it has:
  // the shared settings' allow rules count. The untrusted case has a test of its own.
  write(join(home, ".claude.json"), { projects: { [proj]: { hasTrustDialogAccepted: true }, [join(proj, "a")]: { hasTrustDialogAccepted: true } } });
  return { root, home, cfg, proj, cwd, write, env };
}
type Sandbox = ReturnType<typeof sandbox>;

interface Judged extends PermissionReport {
  warnings: string[];
}

/** The verdict of `host`'s rules, read from the sandbox, on `cmd`. */
function verdictOf(sb: Sandbox, host: string, cmd: string, opts: { env?: Record<string, string>; cwd?: string } = {}): Judged {
  const family = hostNamed(host)?.rules;
  assert.ok(family !== undefined, `known host ${host}`);
  const warnings: string[] = [];
  const { rules } = loadRules(family, opts.cwd ?? sb.cwd, sb.env(opts.env), (m) => warnings.push(m));
  const p = parse(cmd);
  assert.ok(p.ok, `parses: ${cmd}`);
  return { ...judge(p.script, cmd, rules), warnings };
}

/** The library's rewrite with the sandbox's rules: `{command, verdict, exitCode, warnings}`. */
function rewriteIn(sb: Sandbox, host: string, cmd: string, extraEnv: Record<string, string> = {}) {
  const warnings: string[] = [];
  const r = rewrite(cmd, { host, cwd: sb.cwd, env: sb.env(extraEnv), warn: (m) => warnings.push(m), registry });
  return { command: r.command, verdict: r.verdict, exitCode: r.exitCode, activeDeny: r.activeDeny, warnings };
}

const claude = (perms: { deny?: string[]; ask?: string[]; allow?: string[] }) => ({ permissions: perms });
const bash = (...ps: string[]) => ps.map((p) => `Bash(${p})`);

/** Rules the implementation would read outside the sandbox (machine-wide managed settings). */
const MANAGED = ["/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json"].filter((p) => existsSync(p));
const NO_MANAGED = MANAGED.length ? `machine-wide managed settings present: ${MANAGED.join(", ")}` : false;

before(() => {
  // The sandbox must not sit below a folder that already holds a host folder or a git repository.
  for (let d = resolve(tmpdir()); ; d = dirname(d)) {
    for (const f of [".claude", ".gemini", ".factory", ".cursor", ".git"]) assert.ok(!existsSync(join(d, f)), `${join(d, f)} exists above the sandbox`);
    if (dirname(d) === d) break;
  }
});

// ─────────────────────────────── Claude Code ──────────────────────────────────
describe("Claude Code rules", { skip: NO_MANAGED }, () => {
  test("project .claude/settings.json, found by walking up from a subfolder", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status") }));
    const r = verdictOf(sb, "claude", "git status");
    assert.equal(r.verdict, "allow");
    assert.deepEqual(r.warnings, []);
    assert.equal(verdictOf(sb, "claude", "git log").verdict, "default");
    const rw = rewriteIn(sb, "claude", "git status");
    assert.deepEqual([rw.command, rw.exitCode], ["rtk git status", 0]);
  });

  test("project .claude/settings.local.json", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.local.json"), claude({ deny: bash("git push:*") }));
    assert.equal(verdictOf(sb, "claude", "git push --force").verdict, "deny");
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "default");
    assert.equal(rewriteIn(sb, "claude", "git push --force").exitCode, 2);
  });

  test("the project folder's own .claude when the command runs at the project root", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ ask: bash("git status") }));
    assert.equal(verdictOf(sb, "claude", "git status", { cwd: sb.proj }).verdict, "ask");
  });

  test("~/.claude/settings.json and ~/.claude/settings.local.json", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ ask: bash("git log:*"), allow: bash("*") }));
    sb.write(join(sb.home, ".claude", "settings.local.json"), claude({ deny: bash("git push:*") }));
    assert.equal(verdictOf(sb, "claude", "git log -5").verdict, "ask");
    assert.equal(verdictOf(sb, "claude", "git push").verdict, "deny");
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "allow");
  });

  test("rules from all four files are merged", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status") }));
    sb.write(join(sb.proj, ".claude", "settings.local.json"), claude({ allow: bash("git log:*") }));
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ allow: bash("ls:*") }));
    sb.write(join(sb.home, ".claude", "settings.local.json"), claude({ allow: bash("cargo test"), deny: bash("rm:*") }));
    assert.equal(verdictOf(sb, "claude", "git status && git log -5 && ls -la && cargo test").verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "git status && rm -rf x").verdict, "deny");
    // a deny in one file wins over an allow in another
    const sb2 = sandbox();
    sb2.write(join(sb2.proj, ".claude", "settings.json"), claude({ allow: bash("*") }));
    sb2.write(join(sb2.home, ".claude", "settings.local.json"), claude({ deny: bash("git push:*") }));
    assert.equal(verdictOf(sb2, "claude", "git push").verdict, "deny");
    assert.equal(verdictOf(sb2, "claude", "git status").verdict, "allow");
    // an ask in one file wins over an allow in another
    const sb3 = sandbox();
    sb3.write(join(sb3.home, ".claude", "settings.json"), claude({ allow: bash("*") }));
    sb3.write(join(sb3.proj, ".claude", "settings.local.json"), claude({ ask: bash("git push:*") }));
    assert.equal(verdictOf(sb3, "claude", "git push").verdict, "ask");
  });

  test("CLAUDE_CONFIG_DIR replaces ~/.claude", () => {
    const sb = sandbox();
    const dir = join(sb.root, "claude-config");
    sb.write(join(dir, "settings.json"), claude({ allow: bash("git status") }));
    sb.write(join(dir, "settings.local.json"), claude({ deny: bash("git push:*") }));
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ allow: bash("git log") }));
    const env = { CLAUDE_CONFIG_DIR: dir };
    assert.equal(verdictOf(sb, "claude", "git status", { env }).verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "git push", { env }).verdict, "deny");
    assert.equal(verdictOf(sb, "claude", "git log", { env }).verdict, "default", "~/.claude is not read");
    // without it, ~/.claude is read and the other folder is not
    assert.equal(verdictOf(sb, "claude", "git log").verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "git push").verdict, "default");
    // an empty CLAUDE_CONFIG_DIR is no setting: ~/.claude
    assert.equal(verdictOf(sb, "claude", "git log", { env: { CLAUDE_CONFIG_DIR: "" } }).verdict, "allow");
  });

  test("project rules still apply with CLAUDE_CONFIG_DIR set", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ deny: bash("git push:*") }));
    assert.equal(verdictOf(sb, "claude", "git push", { env: { CLAUDE_CONFIG_DIR: join(sb.root, "nowhere") } }).verdict, "deny");
  });

  test("the nearest ancestor holding .claude/ is the project", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, "a", ".claude", "settings.json"), claude({ allow: bash("git status") }));
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git log") }));
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "git log").verdict, "default");
  });

  test("an untrusted project's shared settings give no allow rules; their deny and ask rules apply (also with CLAUDE_CONFIG_DIR)", () => {
    const sb = sandbox();
    rmSync(join(sb.home, ".claude.json"));
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status"), deny: bash("git push:*"), ask: bash("git log:*") }));
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "default");
    assert.equal(verdictOf(sb, "claude", "git push").verdict, "deny");
    assert.equal(verdictOf(sb, "claude", "git log").verdict, "ask");
    // The local file needs no trust; trust for another folder does not count.
    sb.write(join(sb.proj, ".claude", "settings.local.json"), claude({ allow: bash("git diff") }));
    sb.write(join(sb.home, ".claude.json"), { projects: { [sb.root]: { hasTrustDialogAccepted: true } } });
    assert.equal(verdictOf(sb, "claude", "git diff").verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "default");
    const dir = join(sb.root, "claude-config");
    sb.write(join(dir, ".claude.json"), { projects: { [sb.proj]: { hasTrustDialogAccepted: true } } });
    assert.equal(verdictOf(sb, "claude", "git status", { env: { CLAUDE_CONFIG_DIR: dir } }).verdict, "allow");
  });

  test("only Bash(…) entries are used", () => {
    const sb = sandbox();
    sb.write(
      join(sb.proj, ".claude", "settings.json"),
      claude({ deny: ["Read(./secrets/**)", "WebFetch", "Shell(git status)", "Edit(*)"], allow: ["Read(*)", "Shell(git status)", "run_shell_command(git status)"] }),
    );
    const r = verdictOf(sb, "claude", "git status");
    assert.equal(r.verdict, "default");
    assert.deepEqual(r.warnings, []);
  });

  test("Copilot, Codex and Devin read Claude Code's rules", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ deny: bash("git push:*"), allow: bash("git status") }));
    for (const host of ["copilot", "codex", "devin", "claude-code"]) {
      assert.equal(verdictOf(sb, host, "git push").verdict, "deny", host);
      assert.equal(verdictOf(sb, host, "git status").verdict, "allow", host);
    }
  });

  test("missing files are skipped silently", () => {
    const sb = sandbox();
    const r = verdictOf(sb, "claude", "git status");
    assert.equal(r.verdict, "default");
    assert.deepEqual(r.warnings, []);
    // a .claude folder with no settings in it
    mkdirSync(join(sb.proj, ".claude"), { recursive: true });
    mkdirSync(join(sb.home, ".claude"), { recursive: true });
    assert.deepEqual(verdictOf(sb, "claude", "git status").warnings, []);
    // No rule, and outside a repository `git status` is not one Claude Code runs by itself: held, and nothing said.
    const rw = rewriteIn(sb, "claude", "git status");
    assert.deepEqual([rw.command, rw.exitCode, rw.warnings], [null, 1, []]);
  });

  test("malformed JSON: skipped with exactly one warning, the verdict comes from the other files", () => {
    const sb = sandbox();
    const bad = sb.write(join(sb.proj, ".claude", "settings.json"), '{ "permissions": { "allow": ["Bash(git status)"], ');
    sb.write(join(sb.proj, ".claude", "settings.local.json"), claude({ deny: bash("git push:*") }));
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ allow: bash("git log") }));
    const push = verdictOf(sb, "claude", "git push");
    assert.equal(push.verdict, "deny");
    assert.equal(push.warnings.length, 1, push.warnings.join("\n"));
    assert.ok(push.warnings[0]!.includes(bad), `the warning names the file: ${push.warnings[0]}`);
    const status = verdictOf(sb, "claude", "git status");
    assert.equal(status.verdict, "default", "the broken file's allow is not used");
    assert.equal(status.warnings.length, 1);
    assert.equal(verdictOf(sb, "claude", "git log").verdict, "allow");
    const rw = rewriteIn(sb, "claude", "git log");
    assert.deepEqual([rw.command, rw.exitCode, rw.warnings.length], ["rtk git log", 0, 1]);
  });

  test("an empty file and a file holding only whitespace: never an error, the other files apply", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".claude", "settings.json"), "");
    sb.write(join(sb.home, ".claude", "settings.local.json"), "  \n");
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status") }));
    const r = verdictOf(sb, "claude", "git status");
    assert.equal(r.verdict, "allow");
    assert.ok(r.warnings.length <= 2, r.warnings.join("\n"));
  });

  test("an unreadable file: skipped with exactly one warning", () => {
    const sb = sandbox();
    const path = sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status") }));
    chmodSync(path, 0o000);
    let readable = true;
    try {
      readFileSync(path);
    } catch {
      readable = false;
    }
    if (readable) {
      // running as root: chmod 000 does not stop reading; a directory in its place does
      rmSync(path);
      mkdirSync(path);
    }
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ deny: bash("git push:*"), allow: bash("git log") }));
    const push = verdictOf(sb, "claude", "git push");
    assert.equal(push.verdict, "deny");
    assert.equal(push.warnings.length, 1, push.warnings.join("\n"));
    assert.ok(push.warnings[0]!.includes(path), push.warnings[0]);
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "default");
    assert.equal(verdictOf(sb, "claude", "git log").verdict, "allow");
  });

  test("a BOM-prefixed file is read, without a warning", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".claude", "settings.json"), "\uFEFF" + JSON.stringify(claude({ deny: bash("git push:*"), allow: bash("git status") })));
    const r = verdictOf(sb, "claude", "git push");
    assert.equal(r.verdict, "deny");
    assert.deepEqual(r.warnings, []);
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "allow");
  });

  test("JSONC: trailing commas, also before a comment and a closing bracket, and `,]` inside strings kept", () => {
    const sb = sandbox();
    sb.write(
      join(sb.proj, ".claude", "settings.json"),
      `{
  "permissions": {
    "allow": ["Bash(echo ,])", "Bash(git status)", // the last one
    ],
    "deny": ["Bash(git push:*)", /* no pushing */ ],
  },
}
`,
    );
    const r = verdictOf(sb, "claude", "git push origin main");
    assert.equal(r.verdict, "deny");
    assert.deepEqual(r.warnings, []);
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "echo ,]").verdict, "allow");
  });

  test("JSON with comments is read, without a warning, and `//` inside strings is kept", () => {
    const sb = sandbox();
    sb.write(
      join(sb.proj, ".claude", "settings.json"),
      `// project rules
{
  /* the permissions
     of this project */
  "permissions": {
    "allow": [
      "Bash(curl -s http://localhost:8080/health)", // a string with // in it
      "Bash(git status)" /* trailing block */
    ],
    "deny": ["Bash(git push:*)"] // no pushing
  }
}
`,
    );
    const r = verdictOf(sb, "claude", "curl -s http://localhost:8080/health");
    assert.equal(r.verdict, "allow");
    assert.deepEqual(r.warnings, []);
    assert.equal(verdictOf(sb, "claude", "git status").verdict, "allow");
    assert.equal(verdictOf(sb, "claude", "git push").verdict, "deny");
  });

  test("settings of the wrong shape are ignored without an error, and never allow", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), { permissions: { allow: "Bash(git status)", deny: [42, null, { p: 1 }] } });
    sb.write(join(sb.proj, ".claude", "settings.local.json"), "[]");
    sb.write(join(sb.home, ".claude", "settings.json"), "null");
    sb.write(join(sb.home, ".claude", "settings.local.json"), { permissions: ["Bash(git status)"] });
    const r = verdictOf(sb, "claude", "git status");
    assert.equal(r.verdict, "default");
  });
});

// ─────────────────────────────── Cursor ──────────────────────────────────────
describe("Cursor rules", () => {
  const cursorFile = (sb: Sandbox) => join(sb.home, ".cursor", "cli-config.json");

  test("~/.cursor/cli-config.json Shell(p) entries", () => {
    const sb = sandbox();
    sb.write(cursorFile(sb), { permissions: { allow: ["Shell(git status)", "Shell(ls:*)"], deny: ["Shell(git push:*)"] } });
    assert.equal(verdictOf(sb, "cursor", "git status && ls -la").verdict, "allow");
    assert.equal(verdictOf(sb, "cursor", "git push").verdict, "deny");
    assert.equal(verdictOf(sb, "cursor", "git log").verdict, "default");
    assert.equal(rewriteIn(sb, "cursor", "git status").exitCode, 0);
    assert.equal(rewriteIn(sb, "cursor", "git push").exitCode, 2);
  });

  test("a bare Shell is everything", () => {
    const sb = sandbox();
    sb.write(cursorFile(sb), { permissions: { allow: ["Shell"] } });
    assert.equal(verdictOf(sb, "cursor", "git status && rm -rf build").verdict, "allow");
    const sb2 = sandbox();
    sb2.write(cursorFile(sb2), { permissions: { deny: ["Shell"], allow: ["Shell(git status)"] } });
    assert.equal(verdictOf(sb2, "cursor", "git status").verdict, "deny");
  });

  test("there is no ask list", () => {
    const sb = sandbox();
    sb.write(cursorFile(sb), { permissions: { allow: ["Shell(git status)"], ask: ["Shell(git status)"] } });
    assert.equal(verdictOf(sb, "cursor", "git status").verdict, "allow");
  });

  test("other tools' entries and Claude's files are not Cursor's rules", () => {
    const sb = sandbox();
    sb.write(cursorFile(sb), { permissions: { allow: ["Bash(git status)", "Read(**)"], deny: ["Write(**)"] } });
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status"), deny: bash("git log") }));
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ allow: bash("*") }));
    assert.equal(verdictOf(sb, "cursor", "git status").verdict, "default");
    assert.equal(verdictOf(sb, "cursor", "git log").verdict, "default");
  });

  test("missing file: silent default; malformed file: one warning, default", () => {
    const sb = sandbox();
    const r = verdictOf(sb, "cursor", "git status");
    assert.deepEqual([r.verdict, r.warnings], ["default", []]);
    sb.write(cursorFile(sb), '{"permissions": {"allow": ["Shell(git status)"]');
    const r2 = verdictOf(sb, "cursor", "git status");
    assert.equal(r2.verdict, "default");
    assert.equal(r2.warnings.length, 1);
  });

  test("BOM and comments", () => {
    const sb = sandbox();
    sb.write(cursorFile(sb), '\uFEFF{\n  // cursor\n  "permissions": { "allow": ["Shell(git status)"] /* ok */ }\n}\n');
    const r = verdictOf(sb, "cursor", "git status");
    assert.deepEqual([r.verdict, r.warnings], ["allow", []]);
  });
});

// ─────────────────────────────── Gemini CLI ──────────────────────────────────
// Gemini CLI 0.61: the settings of the folder it runs in count once that folder is trusted, merged over the
// user's; policy files add rules by priority; the command it runs (after a rewrite, `rtk …`) is what its rules judge.
describe("Gemini CLI rules", () => {
  const workspaceFile = (sb: Sandbox) => join(sb.cwd, ".gemini", "settings.json");
  const homeFile = (sb: Sandbox) => join(sb.home, ".gemini", "settings.json");
  const policy = (sb: Sandbox, name: string, text: string) => sb.write(join(sb.home, ".gemini", "policies", name), text);
  const trust = (sb: Sandbox, entries: Record<string, string>) => sb.write(join(sb.home, ".gemini", "trustedFolders.json"), entries);
  const allowed = (...ps: string[]) => ({ tools: { allowed: ps.map((p) => `run_shell_command(${p})`) } });
  const rule = (decision: string, prefix: string, priority: number, extra = "") =>
    `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ${JSON.stringify(prefix)}\ndecision = "${decision}"\npriority = ${priority}\n${extra}`;

  /** The workspace allows `git status`, the user `git log`. */
  function twoFiles(): Sandbox {
    const sb = sandbox();
    sb.write(workspaceFile(sb), allowed("git status"));
    sb.write(homeFile(sb), allowed("git log"));
    return sb;
  }
  /** Whose `tools.allowed` Gemini uses: the workspace's (it replaces the user's) or the user's. */
  const listOf = (sb: Sandbox, env?: Record<string, string>) => {
    const status = verdictOf(sb, "gemini", "git status", { env }).verdict;
    const log = verdictOf(sb, "gemini", "git log", { env }).verdict;
    return status === "allow" && log !== "allow" ? "workspace" : log === "allow" && status !== "allow" ? "user" : `${status}/${log}`;
  };

  test("a trusted folder: its .gemini/settings.json, whose tools.allowed replaces the user's", () => {
    const sb = twoFiles();
    trust(sb, { [sb.cwd]: "TRUST_FOLDER" });
    assert.equal(listOf(sb), "workspace");
    assert.deepEqual(verdictOf(sb, "gemini", "git status").warnings, []);
  });

  test("trust: an ancestor's TRUST_FOLDER, a child's TRUST_PARENT, the longest entry deciding", () => {
    const cases: [string, (sb: Sandbox) => Record<string, string>, string][] = [
      ["TRUST_FOLDER on an ancestor", (sb) => ({ [sb.root]: "TRUST_FOLDER" }), "workspace"],
      ["TRUST_PARENT on a folder inside", (sb) => ({ [join(sb.cwd, "x")]: "TRUST_PARENT" }), "workspace"],
      ["TRUST_PARENT on a sibling", (sb) => ({ [join(sb.proj, "a", "c")]: "TRUST_PARENT" }), "workspace"],
      ["no entries", () => ({}), "user"],
      ["a sibling trusted", (sb) => ({ [join(sb.root, "other")]: "TRUST_FOLDER" }), "user"],
      ["a folder inside trusted", (sb) => ({ [join(sb.cwd, "x")]: "TRUST_FOLDER" }), "user"],
      ["DO_NOT_TRUST", (sb) => ({ [sb.cwd]: "DO_NOT_TRUST" }), "user"],
      ["an ancestor trusted, the folder not", (sb) => ({ [sb.root]: "TRUST_FOLDER", [sb.cwd]: "DO_NOT_TRUST" }), "user"],
      ["an ancestor not trusted, the folder trusted", (sb) => ({ [sb.root]: "DO_NOT_TRUST", [sb.cwd]: "TRUST_FOLDER" }), "workspace"],
    ];
    for (const [what, entries, expected] of cases) {
      const sb = twoFiles();
      trust(sb, entries(sb));
      assert.equal(listOf(sb), expected, what);
    }
    assert.equal(listOf(twoFiles()), "user", "no trustedFolders.json");
  });

  test("trust from the environment (`--skip-trust` sets GEMINI_CLI_TRUST_WORKSPACE) and with folder trust switched off", () => {
    assert.equal(listOf(twoFiles(), { GEMINI_CLI_TRUST_WORKSPACE: "true" }), "workspace");
    const sb = twoFiles();
    trust(sb, { [sb.cwd]: "TRUST_FOLDER" });
    assert.equal(listOf(sb, { GEMINI_CLI_TRUST_WORKSPACE: "false" }), "user");
    assert.equal(listOf(sb, { GEMINI_RESTRICTED_MODE: "true" }), "user");
    const off = twoFiles();
    off.write(homeFile(off), { ...allowed("git log"), security: { folderTrust: { enabled: false } } });
    assert.equal(listOf(off), "workspace");
    // The workspace cannot switch trust off for itself.
    const self = sandbox();
    self.write(workspaceFile(self), { ...allowed("git status"), security: { folderTrust: { enabled: false } } });
    self.write(homeFile(self), allowed("git log"));
    assert.equal(listOf(self), "user");
  });

  test("only the folder Gemini runs in: a project folder above it is not read", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".gemini", "settings.json"), allowed("git status"));
    trust(sb, { [sb.proj]: "TRUST_FOLDER" });
    assert.equal(verdictOf(sb, "gemini", "git status").verdict, "default");
  });

  test("tools.allowed: the prefix and what follows a space; `*` is literal; every other command denied", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), { tools: { allowed: ["run_shell_command(git status)", "ShellTool(npm test)", "run_shell_command(git *)", "read_file"] } });
    for (const c of ["git status", "git status --short", "npm test", "git status && npm test -- --watch"]) assert.equal(verdictOf(sb, "gemini", c).verdict, "allow", c);
    // A tab is escaped in the JSON Gemini matches: not the boundary.
    for (const c of ["git statusx", "git status\t-s", "git push", "git log", "cat x"]) assert.equal(verdictOf(sb, "gemini", c).verdict, "deny", c);
    assert.match(verdictOf(sb, "gemini", "cat x").parts[0]!.deny!, /every command it does not name/);
  });

  test("a rewrite needs its `rtk` form allowed too: Gemini judges the command it runs", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), allowed("git status", "git log"));
    assert.deepEqual([rewriteIn(sb, "gemini", "git status").exitCode, rewriteIn(sb, "gemini", "git status").command], [1, null]);
    const sb2 = sandbox();
    sb2.write(homeFile(sb2), allowed("git status", "git log", "rtk git"));
    assert.deepEqual([rewriteIn(sb2, "gemini", "git status --short").exitCode, rewriteIn(sb2, "gemini", "git status --short").command], [0, "rtk git status --short"]);
    // `rtk git` opens no write: `git push` is denied as typed (every command tools.allowed does not name), and left to Gemini.
    assert.deepEqual([rewriteIn(sb2, "gemini", "git push").verdict, rewriteIn(sb2, "gemini", "git push").exitCode], ["deny", 2]);
    // Gemini meets the whole command first: `git status; …` starts with no allowed prefix (`;` is no boundary) and is refused, parts allowed or not.
    assert.equal(rewriteIn(sb2, "gemini", "git status && git log -n 1").command, "rtk git status && rtk git log -n 1");
    for (const c of ["git status; git log -1", "git status&&git log", " git status"]) assert.deepEqual([rewriteIn(sb2, "gemini", c).verdict, rewriteIn(sb2, "gemini", c).exitCode], ["ask", 1], c);
    // A redirection makes Gemini ask (outside auto_edit and yolo): left as typed.
    assert.equal(verdictOf(sb2, "gemini", "git status > s.txt").verdict, "ask");
    assert.equal(rewriteIn(sb2, "gemini", "git status > s.txt").command, null);
  });

  test("an `rtk` the agent typed under an allow rule for `rtk`: what tools.allowed does not name is no deny rtk enforces", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), allowed("git status", "rtk git"));
    const r = rewriteIn(sb, "gemini", "rtk git push origin main");
    assert.deepEqual([r.verdict, r.activeDeny], ["allow", false]);
    // Typed without rtk, Gemini denies it.
    assert.equal(rewriteIn(sb, "gemini", "git push origin main").verdict, "deny");
  });

  test("the bare tool: allowed, Gemini still asks about what it deems dangerous (an ask here); excluded, every command denied", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), { tools: { allowed: ["run_shell_command"] } });
    assert.equal(verdictOf(sb, "gemini", "git status").verdict, "ask");
    const sb2 = sandbox();
    sb2.write(homeFile(sb2), { tools: { allowed: ["run_shell_command(git status)"], confirmationRequired: ["ShellTool"] } });
    assert.equal(verdictOf(sb2, "gemini", "git status").verdict, "ask");
    const sb3 = sandbox();
    sb3.write(homeFile(sb3), { tools: { allowed: ["run_shell_command(git status)"], exclude: ["run_shell_command"] } });
    assert.equal(verdictOf(sb3, "gemini", "git status").verdict, "deny");
  });

  test("tools.exclude and tools.confirmationRequired entries naming a command: Gemini ignores them; rtk leaves the command as typed, denies nothing", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), {
      tools: { allowed: ["run_shell_command(git)", "run_shell_command(rtk)"], exclude: ["run_shell_command(git push)"], confirmationRequired: ["run_shell_command(git log)"] },
    });
    for (const c of ["git push", "rtk git push", "git log -n 1"]) {
      const r = rewriteIn(sb, "gemini", c);
      assert.deepEqual([r.verdict, r.command, r.activeDeny], ["ask", null, false], c);
    }
    assert.equal(rewriteIn(sb, "gemini", "git status").command, "rtk git status");
  });

  test("tools.exclude gathers every file's entries; the other lists are the last file's", () => {
    const sb = sandbox();
    sb.write(workspaceFile(sb), { tools: { exclude: ["run_shell_command(git log)"] } });
    sb.write(homeFile(sb), { tools: { allowed: ["run_shell_command(git)"], exclude: ["run_shell_command(git push)"] } });
    const env = { GEMINI_CLI_TRUST_WORKSPACE: "true" };
    assert.equal(verdictOf(sb, "gemini", "git push", { env }).verdict, "ask");
    assert.equal(verdictOf(sb, "gemini", "git log", { env }).verdict, "ask");
    assert.equal(verdictOf(sb, "gemini", "git status", { env }).verdict, "allow");
  });

  test("policy files: commandPrefix rules by priority, over and under the settings' rules", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), allowed("git status", "rtk"));
    policy(sb, "a.toml", rule("deny", "git", 100) + rule("allow", "git log", 200) + rule("ask_user", "git log -p", 300) + rule("deny", "git status --porcelain", 500));
    policy(sb, "b.toml", `[[rule]]\ntoolName = ["read_file", "run_shell_command"]\ncommandPrefix = ["ls", "cat"]\ndecision = "allow"\npriority = 600\n`);
    const v = (c: string) => verdictOf(sb, "gemini", c).verdict;
    // tools.allowed (4.3) over the deny of `git` (4.1); a deny of 500 (4.5) over tools.allowed.
    assert.equal(v("git status"), "allow");
    assert.equal(v("git status --porcelain"), "deny");
    assert.equal(v("git log -n 1"), "deny", "the narrowing of tools.allowed (4.29) over the allow of 200 (4.2)");
    assert.equal(v("git log -p"), "ask");
    assert.equal(v("ls src && cat f"), "allow");
    assert.equal(rewriteIn(sb, "gemini", "ls src").command, "rtk ls src");
    // The agent typed `rtk` before a command a policy denies: Gemini's rules cannot see through it, rtk denies it.
    const typed = rewriteIn(sb, "gemini", "rtk git status --porcelain");
    assert.deepEqual([typed.verdict, typed.activeDeny], ["deny", true]);
    assert.equal(verdictOf(sb, "gemini", "rtk git status --porcelain").parts[0]!.deny, `${join(sb.home, ".gemini", "policies", "a.toml")}: deny commandPrefix "git status --porcelain" (priority 500)`);
  });

  test("policy rules rtk cannot apply for certain ask at their priority: a regex, modes, interactive, a subagent", () => {
    for (const extra of ['commandRegex = "git (push|pull)"\n', 'modes = ["yolo"]\n', "interactive = false\n", 'subagent = "x"\n']) {
      const sb = sandbox();
      sb.write(homeFile(sb), allowed("git status", "git push", "rtk"));
      policy(sb, "p.toml", `[[rule]]\ntoolName = "run_shell_command"\n${extra.startsWith("commandRegex") ? "" : 'commandPrefix = "git push"\n'}decision = "deny"\npriority = 500\n${extra}`);
      const r = rewriteIn(sb, "gemini", "git push");
      assert.deepEqual([r.verdict, r.command], ["ask", null], extra);
      assert.equal(rewriteIn(sb, "gemini", "rtk git push").activeDeny, false, extra);
      if (extra.startsWith("commandRegex")) assert.equal(verdictOf(sb, "gemini", "git status").verdict, "ask", "a regex may name any command");
      else assert.equal(rewriteIn(sb, "gemini", "git status").command, "rtk git status", extra);
    }
    // Under a rule of higher priority, they decide nothing.
    const sb = sandbox();
    sb.write(homeFile(sb), allowed("git status", "rtk"));
    policy(sb, "p.toml", `[[rule]]\ntoolName = "*"\ncommandRegex = ".*"\ndecision = "deny"\npriority = 100\n`);
    assert.equal(rewriteIn(sb, "gemini", "git status").command, "rtk git status");
  });

  test("a policy file rtk cannot read (TOML, Gemini's schema): one warning, every command left to Gemini", () => {
    for (const text of ["[[rule]\n", rule("allow", "git", 1000), '[[rule]]\ntoolName = "run_shell_command"\ndecision = "maybe"\npriority = 1\n']) {
      const sb = sandbox();
      sb.write(homeFile(sb), allowed("git status", "rtk"));
      policy(sb, "p.toml", text);
      const r = verdictOf(sb, "gemini", "git status");
      assert.equal(r.verdict, "ask", text);
      assert.equal(r.warnings.length, 1, r.warnings.join("\n"));
    }
  });

  test("policyPaths replaces the user's policy folder", () => {
    const sb = sandbox();
    policy(sb, "p.toml", rule("deny", "git status", 500));
    sb.write(join(sb.root, "elsewhere", "q.toml"), rule("deny", "git log", 500));
    sb.write(homeFile(sb), { ...allowed("git status", "git log", "rtk"), policyPaths: ["~/../elsewhere"] });
    assert.equal(verdictOf(sb, "gemini", "git status").verdict, "allow");
    assert.equal(verdictOf(sb, "gemini", "git log").verdict, "deny");
  });

  test("malformed trustedFolders.json: one warning, the folder is not trusted", () => {
    const sb = twoFiles();
    sb.write(join(sb.home, ".gemini", "trustedFolders.json"), `{ "${sb.cwd}": "TRUST_FOLDER", `);
    const r = verdictOf(sb, "gemini", "git status");
    assert.equal(r.verdict, "deny");
    assert.equal(r.warnings.length, 1, r.warnings.join("\n"));
    assert.equal(verdictOf(sb, "gemini", "git log").verdict, "allow");
  });

  test("malformed settings file: one warning, default; missing: silent default", () => {
    const sb = sandbox();
    const r = verdictOf(sb, "gemini", "git status");
    assert.deepEqual([r.verdict, r.warnings], ["default", []]);
    sb.write(homeFile(sb), '{"tools": {"allowed": ["run_shell_command"]}');
    const r2 = verdictOf(sb, "gemini", "git status");
    assert.equal(r2.verdict, "default");
    assert.equal(r2.warnings.length, 1);
  });

  test("BOM and comments", () => {
    const sb = sandbox();
    sb.write(homeFile(sb), '\uFEFF{ /* gemini */ "tools": { "allowed": ["run_shell_command(git status)"] } // end\n}');
    const r = verdictOf(sb, "gemini", "git status");
    assert.deepEqual([r.verdict, r.warnings], ["allow", []]);
  });
});

// ─────────────────────────────── Factory Droid ───────────────────────────────
describe("Factory Droid rules", () => {
  test("commandDenylist and commandBlocklist in ~/.factory/settings.json → deny", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".factory", "settings.json"), { commandDenylist: ["git push"], commandBlocklist: ["rm -rf:*"] });
    assert.equal(verdictOf(sb, "factory", "git push --force").verdict, "deny");
    assert.equal(verdictOf(sb, "factory", "rm -rf /").verdict, "deny");
    assert.equal(verdictOf(sb, "factory", "git status").verdict, "default");
    assert.equal(rewriteIn(sb, "droid", "git push").exitCode, 2);
  });

  test("~/.factory/settings.local.json", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".factory", "settings.local.json"), { commandBlocklist: ["git push"] });
    assert.equal(verdictOf(sb, "factory", "git push").verdict, "deny");
  });

  test("<project>/.factory/settings.json and settings.local.json, found from a subfolder", () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".factory", "settings.json"), { commandDenylist: ["git push"] });
    sb.write(join(sb.proj, ".factory", "settings.local.json"), { commandDenylist: ["npm publish"] });
    assert.equal(verdictOf(sb, "factory", "git push").verdict, "deny");
    assert.equal(verdictOf(sb, "factory", "npm publish").verdict, "deny");
    assert.equal(verdictOf(sb, "factory", "npm test").verdict, "default");
  });

  test("all four files merged", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".factory", "settings.json"), { commandDenylist: ["a1"] });
    sb.write(join(sb.home, ".factory", "settings.local.json"), { commandDenylist: ["a2"] });
    sb.write(join(sb.proj, ".factory", "settings.json"), { commandBlocklist: ["a3"] });
    sb.write(join(sb.proj, ".factory", "settings.local.json"), { commandBlocklist: ["a4"] });
    for (const c of ["a1", "a2", "a3", "a4"]) assert.equal(verdictOf(sb, "factory", `${c} x`).verdict, "deny", c);
  });

  test("nothing else: an allowlist never allows", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".factory", "settings.json"), { commandAllowlist: ["git status", "*"], permissions: { allow: ["Bash(git status)"] } });
    assert.equal(verdictOf(sb, "factory", "git status").verdict, "default");
    assert.equal(rewriteIn(sb, "factory", "git status").exitCode, 3);
  });

  test("malformed file: one warning, the other files still deny", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".factory", "settings.json"), '{"commandDenylist": [');
    sb.write(join(sb.proj, ".factory", "settings.local.json"), { commandDenylist: ["git push"] });
    const r = verdictOf(sb, "factory", "git push");
    assert.equal(r.verdict, "deny");
    assert.equal(r.warnings.length, 1, r.warnings.join("\n"));
  });

  test("missing files: silent default; BOM and comments", () => {
    const sb = sandbox();
    const r = verdictOf(sb, "factory", "git push");
    assert.deepEqual([r.verdict, r.warnings], ["default", []]);
    sb.write(join(sb.home, ".factory", "settings.json"), '\uFEFF{ // droid\n "commandDenylist": ["git push"] }');
    const r2 = verdictOf(sb, "factory", "git push");
    assert.deepEqual([r2.verdict, r2.warnings], ["deny", []]);
  });
});

// ─────────────────────────────── rules-only hosts ────────────────────────────
describe("rules-only hosts", () => {
  test("always default, whatever settings files exist", () => {
    const sb = sandbox();
    const everywhere = { ...claude({ deny: bash("*"), allow: bash("*") }), tools: { allowed: ["run_shell_command"] }, commandDenylist: ["git"] };
    for (const f of [
      join(sb.proj, ".claude", "settings.json"),
      join(sb.home, ".claude", "settings.json"),
      join(sb.home, ".cursor", "cli-config.json"),
      join(sb.home, ".gemini", "settings.json"),
      join(sb.home, ".factory", "settings.json"),
    ]) {
      sb.write(f, everywhere);
    }
    sb.write(join(sb.home, ".cursor", "cli-config.json"), { permissions: { deny: ["Shell"], allow: ["Shell"] } });
    for (const host of ["windsurf", "cline", "roo", "agents", "rules-only"]) {
      const r = verdictOf(sb, host, "git status && git push");
      assert.deepEqual([r.verdict, r.warnings], ["default", []], host);
      const rw = rewriteIn(sb, host, "git status");
      assert.deepEqual([rw.command, rw.exitCode], ["rtk git status", 3], host);
    }
  });
});

// ─────────────────────────────── the built CLI ───────────────────────────────
describe("rtk rewrite --host (built CLI)", () => {
  before(() => {
    ensureBuilt();
  });

  function cli(sb: Sandbox, args: string[], extraEnv: Record<string, string> = {}) {
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const r = launchSync(["rewrite", ...args], {
      cwd: sb.cwd,
      env: { ...env, HOME: sb.home, RTK_ROUTES: "all", XDG_CONFIG_HOME: sb.cfg, CLAUDE_CONFIG_DIR: "", RTK_CONFIG: "", RTK_DISABLED: "", ...extraEnv },
    });
    return { stdout: r.stdout, stderr: r.stderr, status: r.status };
  }
  const stderrLines = (s: string) => s.split("\n").filter((l) => l !== "");

  test("Claude Code: allow → 0, default → 1 (held: Claude Code asks about the command as typed), deny → 2", { skip: NO_MANAGED }, () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), claude({ allow: bash("git status"), deny: bash("git push:*") }));
    assert.deepEqual(cli(sb, ["--host", "claude", "git status"]), { stdout: "rtk git status", stderr: "", status: 0 });
    assert.deepEqual(cli(sb, ["git status"]), { stdout: "rtk git status", stderr: "", status: 0 }, "claude is the default host");
    assert.deepEqual(cli(sb, ["--host", "claude", "git log -5"]), { stdout: "", stderr: "", status: 1 });
    assert.deepEqual(cli(sb, ["--host", "claude", "git push --force"]), { stdout: "", stderr: "", status: 2 });
    assert.deepEqual(cli(sb, ["--host", "claude", "git status && git push"]), { stdout: "", stderr: "", status: 2 });
  });

  test("Claude Code: ~/.claude and an ask rule → 1 (held)", { skip: NO_MANAGED }, () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ allow: bash("*"), ask: bash("git log:*") }));
    assert.deepEqual(cli(sb, ["--host", "claude", "git status"]), { stdout: "rtk git status", stderr: "", status: 0 });
    assert.deepEqual(cli(sb, ["--host", "claude", "git log -5"]), { stdout: "", stderr: "", status: 1 });
    // unattestable under allow-all: nothing is rewritten
    assert.deepEqual(cli(sb, ["--host", "claude", "git status > out.txt"]), { stdout: "", stderr: "", status: 1 });
  });

  test("deny prints nothing and exits 2 even when nothing would be rewritten", { skip: NO_MANAGED }, () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ deny: bash("shred:*", "git push --force") }));
    assert.deepEqual(cli(sb, ["--host", "claude", "shred -u secrets.txt"]), { stdout: "", stderr: "", status: 2 });
    assert.deepEqual(cli(sb, ["--host", "claude", "echo $(shred x)"]), { stdout: "", stderr: "", status: 2 });
    assert.deepEqual(cli(sb, ["--host", "claude", "rtk git push --force"]), { stdout: "", stderr: "", status: 2 });
    // without the rule: no route → 1
    assert.equal(cli(sandbox(), ["--host", "claude", "shred -u secrets.txt"]).status, 1);
  });

  test("--json shows verdict, activeDeny and per-part matches", { skip: NO_MANAGED }, () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.local.json"), claude({ deny: bash("git push --force"), allow: bash("git status", "ls:*") }));
    const active = cli(sb, ["--json", "--host", "claude", "rtk git push --force"]);
    assert.equal(active.status, 2);
    const a = JSON.parse(active.stdout);
    assert.equal(a.verdict, "deny");
    assert.equal(a.activeDeny, true);
    assert.equal(a.exit, 2);
    assert.equal(a.rewritten, null);
    assert.equal(a.permissions.verdict, "deny");
    assert.equal(a.permissions.activeDeny, true);
    assert.equal(a.permissions.parts.length, 1);
    assert.equal(a.permissions.parts[0].text, "rtk git push --force");
    assert.equal(a.permissions.parts[0].deny, "git push --force");

    const direct = JSON.parse(cli(sb, ["--json", "--host", "claude", "git push --force"]).stdout);
    assert.deepEqual([direct.verdict, direct.activeDeny, direct.exit], ["deny", false, 2]);
    assert.equal(direct.permissions.parts[0].deny, "git push --force");

    const allowed = cli(sb, ["--json", "--host", "claude", "git status && ls -la"]);
    assert.equal(allowed.status, 0);
    const o = JSON.parse(allowed.stdout);
    assert.deepEqual([o.verdict, o.activeDeny, o.exit, o.rewritten], ["allow", false, 0, "rtk git status && rtk ls -la"]);
    assert.deepEqual(
      o.permissions.parts.map((p: { text: string; allow: string | null; deny: string | null }) => [p.text, p.allow, p.deny]),
      [
        ["git status", "git status", null],
        ["ls -la", "ls:*", null],
      ],
    );

    const mixed = JSON.parse(cli(sb, ["--json", "--host", "claude", "git status && git log"]).stdout);
    assert.deepEqual([mixed.verdict, mixed.exit, mixed.held.reason], ["default", 1, "host-asks"]);
    assert.deepEqual(
      mixed.permissions.parts.map((p: { allow: string | null }) => p.allow),
      ["git status", null],
    );
  });

  test("Cursor, Gemini, Factory and a rules-only host through the CLI", () => {
    const sb = sandbox();
    sb.write(join(sb.home, ".cursor", "cli-config.json"), { permissions: { allow: ["Shell(git status)"], deny: ["Shell(git push)"] } });
    sb.write(join(sb.cwd, ".gemini", "settings.json"), {
      tools: { allowed: ["run_shell_command(git status)", "run_shell_command(rtk git status)"], confirmationRequired: ["run_shell_command(git log)"] },
    });
    sb.write(join(sb.home, ".gemini", "trustedFolders.json"), { [sb.proj]: "TRUST_FOLDER" });
    sb.write(join(sb.home, ".factory", "settings.json"), { commandDenylist: ["git push"] });
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ deny: bash("*") }));
    assert.deepEqual(cli(sb, ["--host", "cursor", "git status"]), { stdout: "rtk git status", stderr: "", status: 0 });
    assert.deepEqual(cli(sb, ["--host", "cursor", "git push"]), { stdout: "", stderr: "", status: 2 });
    assert.deepEqual(cli(sb, ["--host", "gemini", "git status"]), { stdout: "rtk git status", stderr: "", status: 0 });
    assert.deepEqual(cli(sb, ["--host", "gemini", "git log"]), { stdout: "", stderr: "", status: 1 });
    assert.deepEqual(cli(sb, ["--host", "factory", "git push"]), { stdout: "", stderr: "", status: 2 });
    assert.deepEqual(cli(sb, ["--host", "factory", "git status"]), { stdout: "rtk git status", stderr: "", status: 3 });
    assert.deepEqual(cli(sb, ["--host", "windsurf", "git push"]), { stdout: "rtk git push", stderr: "", status: 3 });
    assert.equal(cli(sb, ["--host", "claude", "git status"]).status, 2);
  });

  test("a malformed settings file: one line on stderr, exit code from the other files", { skip: NO_MANAGED }, () => {
    const sb = sandbox();
    sb.write(join(sb.proj, ".claude", "settings.json"), "{ not json");
    sb.write(join(sb.home, ".claude", "settings.json"), claude({ allow: bash("git status") }));
    const r = cli(sb, ["--host", "claude", "git status"]);
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 0);
    assert.equal(stderrLines(r.stderr).length, 1, r.stderr);
  });

  test("an unknown --host is a usage error (exit 64: neither nothing-to-do nor denied), naming the host", () => {
    const sb = sandbox();
    const r = cli(sb, ["--host", "no-such-host", "git status"]);
    assert.equal(r.status, 64);
    assert.equal(r.stdout, "");
    assert.match(stderrLines(r.stderr)[0]!, /unknown host `no-such-host`; valid: claude/);
  });
});
