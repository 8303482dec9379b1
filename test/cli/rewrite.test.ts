// End to end: the built CLI (`bin/rtk rewrite`) against the subprocess
// contract of spec/rewrite.md — stdout carries the rewritten command without a
// trailing newline or nothing, the exit code says how to hand it back (0 allow,
// 1 nothing, 2 deny, 3 ask), warnings go to stderr and never break the contract.
// Every test runs with a fresh temporary HOME, config folder and working folder.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";

before(() => {
  ensureBuilt();
});

/** The parent environment without anything that would steer rtk. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k.startsWith("RTK_") || k === "CLAUDE_CONFIG_DIR" || k === "XDG_CONFIG_HOME" || k.startsWith("NODE_TEST") || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return env;
}

interface Sandbox {
  home: string;
  cfg: string;
  cwd: string;
}

const homes: string[] = [];
after(() => {
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sandbox(): Sandbox {
  const home = mkdtempSync(join(tmpdir(), "rtk-cli-home-"));
  homes.push(home);
  const cfg = join(home, "xdg");
  const cwd = join(home, "project");
  mkdirSync(cfg, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { home, cfg, cwd };
}

function writeFile(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

interface RunOptions {
  input?: string | Buffer;
  env?: Record<string, string | undefined>;
  /** Text of $XDG_CONFIG_HOME/rtk/config.toml. */
  config?: string;
  /** Runs inside the fresh sandbox before rtk starts. */
  setup?: (s: Sandbox) => void;
  /** Leave XDG_CONFIG_HOME unset (config then comes from $HOME/.config). */
  noXdg?: boolean;
}

/**
 * The contract is the host-independent one: `rtk rewrite` without `--host` runs
 * as `--host none` here (no rules, and no host judging the rewritten form); the
 * tests of a host's rules name it.
 */
function rtk(args: string[], o: RunOptions = {}) {
  if (args[0] === "rewrite" && !args.some((a) => a === "--host" || a.startsWith("--host="))) args = ["rewrite", "--host", "none", ...args.slice(1)];
  const s = sandbox();
  if (o.config !== undefined) writeFile(join(s.cfg, "rtk", "config.toml"), o.config);
  o.setup?.(s);
  const env: Record<string, string> = { ...baseEnv(), RTK_ROUTES: "all", HOME: s.home, XDG_CONFIG_HOME: s.cfg };
  if (o.noXdg) delete env["XDG_CONFIG_HOME"];
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const r = launchSync(args, { cwd: s.cwd, env, input: o.input, timeout: 30_000 });
  assert.equal(r.error, undefined, String(r.error));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, sandbox: s };
}

const rewrite = (cmd: string, o?: RunOptions) => rtk(["rewrite", cmd], o);

function json(stdout: string) {
  let v: unknown;
  assert.doesNotThrow(() => (v = JSON.parse(stdout)), `stdout is one JSON object: ${JSON.stringify(stdout)}`);
  assert.equal(typeof v, "object");
  return v as {
    rewritten: string | null;
    verdict: string;
    exit: number;
    segments: { span: [number, number]; text: string; command: string | null; decision: string; reason: string | null; route: string | null }[];
  };
}

describe("rtk rewrite: stdout and exit codes", () => {
  test("a routed command is rewritten: exit 3, the rewrite on stdout, no trailing newline", () => {
    const r = rewrite("git status");
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
    assert.equal(r.stderr, "");
  });

  test("the spec example", () => {
    const r = rewrite("FOO=1 timeout 60 npx vitest run 2>&1 | tail -30 && git status");
    assert.equal(r.stdout, "FOO=1 timeout 60 rtk npx vitest run 2>&1 | tail -30 && rtk git status");
    assert.equal(r.status, 3);
  });

  test("a multi-line input keeps its bytes: nothing added, nothing removed", () => {
    const r = rewrite("# build\ngit status\nnpm test\n");
    assert.equal(r.stdout, "# build\nrtk git status\nrtk npm test\n");
    assert.equal(r.status, 3);
  });

  test("some parts rewritten, some kept", () => {
    const r = rewrite("git log | head && npm test > /dev/null; cargo test 2>&1 | tail -5");
    assert.equal(r.stdout, "git log | head && npm test > /dev/null; rtk cargo test 2>&1 | tail -5");
    assert.equal(r.status, 3);
  });

  for (const [cmd, why] of [
    ["echo hi", "no route"],
    ["git status > out.txt", "stdout to a file"],
    ["git log | grep fix", "pipe into a program"],
    ["echo $(git status)", "captured"],
    ["sudo git status", "privilege"],
    ["git status &", "background"],
    ["f() { git status; }", "function body"],
    ['git status "', "parse error"],
    ["if true; then", "parse error"],
    ["rtk git status", "already rtk"],
    ["", "empty input"],
  ] as const) {
    test(`nothing to rewrite (${why}): exit 1, empty stdout: ${JSON.stringify(cmd)}`, () => {
      const r = rewrite(cmd);
      assert.equal(r.stdout, "");
      assert.equal(r.status, 1);
    });
  }
});

describe("rtk rewrite -: the command from stdin", () => {
  test("reads the command from stdin", () => {
    const r = rtk(["rewrite", "-"], { input: "git status && npm test" });
    assert.equal(r.stdout, "rtk git status && rtk npm test");
    assert.equal(r.status, 3);
  });

  test("a multi-line script with a here-document from stdin", () => {
    const src = "cat <<'EOF'\ngit status\nEOF\ngit diff\n";
    const r = rtk(["rewrite", "-"], { input: src });
    assert.equal(r.stdout, "rtk cat <<'EOF'\ngit status\nEOF\nrtk git diff\n");
    assert.equal(r.status, 3);
  });

  test("nothing to rewrite from stdin: exit 1, empty stdout", () => {
    const r = rtk(["rewrite", "-"], { input: "echo hi" });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.doesNotMatch(r.stderr, /usage/i);
  });

  test("--json with stdin", () => {
    const r = rtk(["rewrite", "--json", "-"], { input: "npm test" });
    assert.equal(r.status, 3);
    assert.equal(json(r.stdout).rewritten, "rtk npm test");
  });
});

describe("rtk rewrite --json", () => {
  test("a rewrite: fields, segments and the same exit code", () => {
    const cmd = "git status && npm test | grep x";
    const plain = rewrite(cmd);
    const r = rtk(["rewrite", "--json", cmd]);
    assert.equal(r.status, plain.status);
    assert.equal(r.status, 3);
    const j = json(r.stdout);
    assert.equal(j.rewritten, "rtk git status && npm test | grep x");
    assert.equal(j.rewritten, plain.stdout);
    assert.equal(j.verdict, "default");
    assert.equal(j.exit, 3);
    assert.deepEqual(
      j.segments.map((s) => ({ span: s.span, text: s.text, command: s.command, decision: s.decision, reason: s.reason, route: s.route })),
      [
        { span: [0, 10], text: "git status", command: "git", decision: "rewrite", reason: null, route: "git.status" },
        { span: [14, 22], text: "npm test", command: "npm", decision: "keep", reason: "pipe-producer", route: "npm.test" },
        { span: [25, 31], text: "grep x", command: "grep", decision: "keep", reason: "pipe-consumer", route: "grep" },
      ],
    );
  });

  test("nothing rewritten: rewritten null, exit 1 both ways", () => {
    const r = rtk(["rewrite", "--json", "echo hi && git log | head"]);
    assert.equal(r.status, 1);
    const j = json(r.stdout);
    assert.equal(j.rewritten, null);
    assert.equal(j.exit, 1);
    assert.equal(j.verdict, "default");
    assert.deepEqual(
      j.segments.map((s) => [s.command, s.decision, s.reason, s.route]),
      [
        ["echo", "keep", "no-route", null],
        ["git", "keep", "pipe-producer", "git.log"],
        ["head", "keep", "pipe-consumer", "head"],
      ],
    );
  });

  test("an unattestable input: verdict ask, nothing rewritten", () => {
    const r = rtk(["rewrite", "--json", "git status; echo hi > f"]);
    assert.equal(r.status, 1);
    const j = json(r.stdout);
    assert.equal(j.rewritten, null);
    assert.equal(j.verdict, "ask");
    assert.deepEqual(
      j.segments.map((s) => s.reason),
      ["unattestable", "no-route"],
    );
  });

  test("a parse error: no segments, exit 1", () => {
    const r = rtk(["rewrite", "--json", 'git status "']);
    assert.equal(r.status, 1);
    const j = json(r.stdout);
    assert.equal(j.rewritten, null);
    assert.equal(j.exit, 1);
    assert.deepEqual(j.segments, []);
  });

  test("already rtk: reason already-rtk, exit 1", () => {
    const r = rtk(["rewrite", "--json", "rtk git status"]);
    assert.equal(r.status, 1);
    const j = json(r.stdout);
    assert.equal(j.rewritten, null);
    assert.deepEqual(
      j.segments.map((s) => s.reason),
      ["already-rtk"],
    );
  });

  test("--json may follow the command", () => {
    const r = rtk(["rewrite", "git status", "--json"]);
    assert.equal(r.status, 3);
    assert.equal(json(r.stdout).rewritten, "rtk git status");
  });

  test("the exit code matches the plain form on a mixed input", () => {
    for (const cmd of ["git status; echo x", "cat <<EOF\n$(git status)\nEOF", "npm test | tail -3", "$GIT status"]) {
      const plain = rewrite(cmd);
      const j = rtk(["rewrite", "--json", cmd]);
      assert.equal(j.status, plain.status, cmd);
      assert.equal(json(j.stdout).exit, plain.status, cmd);
      assert.equal(json(j.stdout).rewritten, plain.stdout === "" ? null : plain.stdout, cmd);
    }
  });
});

describe("RTK_DISABLED in rtk's environment", () => {
  test("RTK_DISABLED=1: exit 1 and nothing printed", () => {
    const r = rewrite("git status && npm test", { env: { RTK_DISABLED: "1" } });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
  });

  test("RTK_DISABLED=1 with --json: reason disabled for every part", () => {
    const r = rtk(["rewrite", "--json", "git status && npm test"], { env: { RTK_DISABLED: "1" } });
    assert.equal(r.status, 1);
    const j = json(r.stdout);
    assert.equal(j.rewritten, null);
    assert.deepEqual(
      j.segments.map((s) => s.reason),
      ["disabled", "disabled"],
    );
  });

  test("RTK_DISABLED=1 wins over a config file, broken or not", () => {
    const r = rewrite("git status", { env: { RTK_DISABLED: "1" }, config: "[hooks\nbroken" });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
  });

  test("RTK_DISABLED=0 does not disable", () => {
    const r = rewrite("git status", { env: { RTK_DISABLED: "0" } });
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
  });
});

describe("the config file", () => {
  const CONFIG = `[hooks]\nexclude_commands = ["git push", "^npm (test|run)"]\ntransparent_prefixes = ["dotenv --", "op run --"]\n`;

  test("exclude_commands: `git push` excludes `git push origin x`", () => {
    const r = rewrite("git push origin x", { config: CONFIG });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
  });

  test("exclude_commands: `git push` does not exclude `git status`", () => {
    const r = rewrite("git status", { config: CONFIG });
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
  });

  test("exclude_commands: one excluded part among others", () => {
    const r = rewrite("git add . && git commit -m x && git push && npm test", { config: CONFIG });
    assert.equal(r.stdout, "rtk git add . && rtk git commit -m x && git push && npm test");
    assert.equal(r.status, 3);
  });

  test("exclude_commands: --json shows reason excluded", () => {
    const r = rtk(["rewrite", "--json", "FOO=1 git push"], { config: CONFIG });
    assert.equal(r.status, 1);
    assert.deepEqual(
      json(r.stdout).segments.map((s) => s.reason),
      ["excluded"],
    );
  });

  test("transparent_prefixes: `dotenv --` and `op run --` are peeled", () => {
    const a = rewrite("dotenv -- npm install", { config: CONFIG });
    assert.equal(a.stdout, "dotenv -- rtk npm install");
    assert.equal(a.status, 3);
    const b = rewrite("op run -- git status", { config: CONFIG });
    assert.equal(b.stdout, "op run -- rtk git status");
    assert.equal(b.status, 3);
  });

  test("transparent_prefixes: without the config, `dotenv --` is not a wrapper", () => {
    const r = rewrite("dotenv -- npm install");
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
  });

  test("the config is read from $HOME/.config/rtk/config.toml when XDG_CONFIG_HOME is unset", () => {
    const r = rewrite("git push", {
      noXdg: true,
      setup: (s) => writeFile(join(s.home, ".config", "rtk", "config.toml"), CONFIG),
    });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
  });

  test("a broken config file (invalid TOML): a warning on stderr, the rewrite still happens with defaults", () => {
    const r = rewrite("git push origin x", { config: '[hooks\nexclude_commands = ["git push"' });
    assert.equal(r.stdout, "rtk git push origin x");
    assert.equal(r.status, 3);
    assert.match(r.stderr, /config\.toml/);
    assert.notEqual(r.stderr.trim(), "");
  });

  test("a broken config file with --json: still one JSON object on stdout, the warning on stderr", () => {
    const r = rtk(["rewrite", "--json", "git status"], { config: "not = [toml" });
    assert.equal(r.status, 3);
    assert.equal(json(r.stdout).rewritten, "rtk git status");
    assert.match(r.stderr, /config\.toml/);
  });

  test("a config value of the wrong type: a warning, defaults", () => {
    const r = rewrite("git push", { config: `[hooks]\nexclude_commands = "git push"\n` });
    assert.equal(r.stdout, "rtk git push");
    assert.equal(r.status, 3);
    assert.notEqual(r.stderr.trim(), "");
  });

  test("a config without [hooks] changes nothing and warns about nothing", () => {
    const r = rewrite("git status", { config: `[tracking]\nenabled = true\n` });
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
    assert.equal(r.stderr, "");
  });
});

describe("the host's permission rules (Claude Code settings)", () => {
  // The project's local settings: their allow rules count whether or not the project is trusted.
  const settings = (perm: object) => (s: Sandbox) => writeFile(join(s.cwd, ".claude", "settings.local.json"), JSON.stringify({ permissions: perm }));
  const claude = (cmd: string, o?: RunOptions) => rtk(["rewrite", "--host", "claude", cmd], o);

  test("the shared .claude/settings.json gives allow rules only once the project is trusted; its deny rules always", () => {
    const shared = (perm: object, trusted: boolean) => (s: Sandbox) => {
      writeFile(join(s.cwd, ".claude", "settings.json"), JSON.stringify({ permissions: perm }));
      if (trusted) writeFile(join(s.home, ".claude.json"), JSON.stringify({ projects: { [s.cwd]: { hasTrustDialogAccepted: true } } }));
    };
    assert.equal(claude("npm test", { setup: shared({ allow: ["Bash(npm test)"] }, false) }).status, 1);
    const trusted = claude("npm test", { setup: shared({ allow: ["Bash(npm test)"] }, true) });
    assert.equal(trusted.stdout, "rtk npm test");
    assert.equal(trusted.status, 0);
    assert.equal(claude("npm test", { setup: shared({ deny: ["Bash(npm test)"] }, false) }).status, 2);
  });

  test("an allow rule with no wildcard is the whole command: `Bash(npm test)` does not allow `npm test -- --watch`", () => {
    assert.equal(claude("npm test -- --watch", { setup: settings({ allow: ["Bash(npm test)"] }) }).status, 1);
    assert.equal(claude("npm test -- --watch", { setup: settings({ allow: ["Bash(npm test:*)"] }) }).status, 0);
  });

  test("every part allowed: exit 0 with the rewrite", () => {
    const r = claude("git status && npm test", { setup: settings({ allow: ["Bash(git status)", "Bash(npm test:*)"] }) });
    // (`git status` outside a repository is not one Claude Code runs by itself: the allow rule earns it.)
    assert.equal(r.stdout, "rtk git status && rtk npm test");
    assert.equal(r.status, 0);
  });

  test("one part Claude Code would ask about: nothing rewritten (exit 1), the rewrite held back with its reason", () => {
    const r = claude("git status && git push", { setup: settings({ allow: ["Bash(git status)"] }) });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    const j = rtk(["rewrite", "--host", "claude", "--json", "git status && git push"], { setup: settings({ allow: ["Bash(git status)"] }) });
    assert.equal(j.status, 1);
    assert.deepEqual((JSON.parse(j.stdout) as { held: unknown }).held, { reason: "host-asks", command: "rtk git status && rtk git push" });
  });

  test("an allow rule for the rewritten form does not allow the original: `rtk git *` leaves `git push` as typed", () => {
    const r = claude("git push origin main", { setup: settings({ allow: ["Bash(rtk git *)", "Bash(rtk:*)"] }) });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
  });

  test("an ask or deny rule that names the rewritten form holds the rewrite back, though the original is allowed", () => {
    for (const rule of [{ ask: ["Bash(rtk git status)"] }, { deny: ["Bash(rtk:*)"] }]) {
      const r = rtk(["rewrite", "--host", "claude", "--json", "git status"], { setup: settings({ allow: ["Bash(git status)"], ...rule }) });
      assert.equal(r.status, 1, JSON.stringify(rule));
      assert.equal((JSON.parse(r.stdout) as { held: { reason: string } }).held.reason, "replacement-ruled");
    }
  });

  test("bypassPermissions mode: Claude Code runs what no rule names, so the rewrite is handed back allowed", () => {
    const r = rtk(["rewrite", "--host", "claude", "--mode", "bypassPermissions", "npm test && git push"]);
    assert.equal(r.stdout, "rtk npm test && rtk git push");
    assert.equal(r.status, 0);
  });

  test("a deny rule: exit 2, nothing on stdout", () => {
    const r = claude("git status && git push --force", { setup: settings({ deny: ["Bash(git push:*)"], allow: ["Bash(*)"] }) });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 2);
  });

  test("a deny rule wins even when nothing would be rewritten", () => {
    const r = claude("rm -rf /tmp/x", { setup: settings({ deny: ["Bash(rm:*)"] }) });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 2);
  });
});

describe("usage errors", () => {
  test("a missing argument: usage on stderr, nothing on stdout", () => {
    const r = rtk(["rewrite"]);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /usage/i);
    assert.ok(r.status !== 0 && r.status !== 3, `exit ${r.status}`);
  });

  test("two arguments: usage on stderr, nothing on stdout", () => {
    const r = rtk(["rewrite", "git", "status"]);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /usage/i);
    assert.ok(r.status !== 0 && r.status !== 3, `exit ${r.status}`);
  });
});

describe("a command rtk cannot give back exactly, or past the limits: exit 1, nothing on stdout, one line on stderr", () => {
  test("stdin with a byte that is not UTF-8", () => {
    const r = rtk(["rewrite", "-"], { input: Buffer.concat([Buffer.from("git status -- a"), Buffer.from([0xff]), Buffer.from("b")]) });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /not valid UTF-8/);
  });

  test("stdin with a character past ASCII is rewritten byte for byte", () => {
    const r = rtk(["rewrite", "-"], { input: Buffer.from("git status -- café �") });
    assert.equal(r.stdout, "rtk git status -- café �");
    assert.equal(r.status, 3);
  });

  /** `rtk rewrite <arg>` where the argument is `printf`'s output: bytes Node's own spawn could not pass. */
  const rewriteBytes = (printfFormat: string) => {
    const s = sandbox();
    const r = spawnSync("bash", ["-c", `exec "$0" rewrite --host none "$(printf '${printfFormat}')"`, RTK], {
      cwd: s.cwd,
      env: { ...baseEnv(), RTK_ROUTES: "all", HOME: s.home, XDG_CONFIG_HOME: s.cfg },
      encoding: "utf8",
    });
    assert.equal(r.error, undefined, String(r.error));
    return r;
  };

  test("an argument with a byte that is not UTF-8 (Node reads it as U+FFFD)", () => {
    const r = rewriteBytes("git status -- a\\377b");
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /not valid UTF-8/);
  });

  test("an argument holding U+FFFD itself is rewritten", () => {
    const r = rewriteBytes("git status -- a\\357\\277\\275b");
    assert.equal(r.stdout, "rtk git status -- a\uFFFDb");
    assert.equal(r.status, 3);
  });

  test("stdin over 64 KiB: not read, and read to its end (the writer sees no broken pipe)", () => {
    const r = rtk(["rewrite", "-"], { input: "git status " + "a ".repeat(200_000) });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /longer than 64 KiB/);
  });

  test("an argument over 64 KiB: not read", () => {
    const r = rewrite("git status " + "a ".repeat(40_000));
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.match(r.stderr, /longer than 64 KiB/);
  });

  test("--json over 64 KiB: the data says it was not read", () => {
    const r = rtk(["rewrite", "--json", "git status " + "a ".repeat(40_000)]);
    assert.equal(r.status, 1);
    const data = JSON.parse(r.stdout) as { rewritten: unknown; verdict: string; exit: number };
    assert.deepEqual([data.rewritten, data.verdict, data.exit], [null, "default", 1]);
  });
});
