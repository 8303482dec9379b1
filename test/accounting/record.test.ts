// Recording on the run and hook paths (spec/tracking.md, "What is recorded"):
// the built bin/rtk appends one JSON line per run and per hook decision to an
// owner-only spool, masks secrets, records nothing when told not to, and never
// changes a command's output or exit code when the spool cannot be written.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { HookRecord, RunRecord } from "../../src/accounting/types.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync, loginProfile } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

function world(): Sandbox & { repo: string } {
  const box = sandbox("rtk-acct-", { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" });
  const repo = join(box.cwd, "repo");
  mkdirSync(join(repo, "sub"), { recursive: true });
  spawnSync("git", ["init", "-q", "."], { cwd: repo, env: box.env });
  for (let i = 0; i < 12; i++) writeFileSync(join(repo, `file${i}.txt`), `${i}\n`);
  return { ...box, repo };
}

const spool = (box: Sandbox) => join(box.data, "rtk", "spool.jsonl");

function records(box: Sandbox): (RunRecord | HookRecord)[] {
  if (!existsSync(spool(box))) return [];
  return readFileSync(spool(box), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RunRecord | HookRecord);
}

describe("run records", () => {
  test("a routed run appends one record: route, project root, exit code, raw and printed sizes; owner-only files", () => {
    const box = world();
    const r = launchSync(["git", "status"], { cwd: join(box.repo, "sub"), env: box.env });
    assert.equal(r.status, 0, r.stderr);
    const plain = spawnSync("git", ["status"], { cwd: join(box.repo, "sub"), env: box.env, encoding: "utf8" });
    const recs = records(box);
    assert.equal(recs.length, 1);
    const rec = recs[0] as RunRecord;
    assert.equal(rec.kind, "run");
    assert.equal(rec.route, "git.status");
    assert.equal(rec.project, box.repo);
    assert.equal(rec.command, "git status");
    assert.equal(rec.exitCode, 0);
    assert.equal(rec.rawBytes, Buffer.byteLength(plain.stdout + plain.stderr));
    assert.equal(rec.outBytes, Buffer.byteLength(r.stdout + r.stderr));
    assert.ok(rec.outBytes < rec.rawBytes, "the compact form was printed");
    assert.equal(rec.fellBack, false);
    assert.equal(rec.rawFeatures?.[0], rec.rawBytes);
    assert.equal(rec.outFeatures?.[0], rec.outBytes);
    assert.equal(statSync(join(box.data, "rtk")).mode & 0o777, 0o700);
    assert.equal(statSync(spool(box)).mode & 0o777, 0o600);
  });

  test("a filter that falls back to the raw output is recorded as such; an unrouted command as route raw; the exit code kept", () => {
    const box = world();
    // `git log` in a repository with no commits fails: the raw output is printed.
    const r = launchSync(["git", "log"], { cwd: box.repo, env: box.env });
    assert.equal(r.status, 128);
    const p = launchSync(["sh", "-c", "echo hi; exit 3"], { cwd: box.repo, env: box.env });
    assert.equal(p.status, 3);
    const [log, sh] = records(box) as RunRecord[];
    assert.equal(log!.route, "git.log");
    assert.equal(log!.fellBack, true);
    assert.equal(log!.exitCode, 128);
    assert.equal(log!.outBytes, log!.rawBytes);
    assert.equal(sh!.route, "raw");
    assert.equal(sh!.exitCode, 3);
    assert.equal(sh!.command, "sh -c 'echo hi; exit 3'");
  });

  test("omitted items and the recall id come from the compact form's markers", () => {
    const box = world();
    // A small list budget: the untracked paths do not all fit.
    mkdirSync(join(box.config, "rtk"), { recursive: true });
    writeFileSync(join(box.config, "rtk", "config.toml"), "[limits]\nlist_tokens = 20\n");
    const r = launchSync(["git", "status"], { cwd: box.repo, env: box.env });
    const m = /\+(\d+) more [^\n]*\[rtk recall ([0-9a-z]+)\]/.exec(r.stdout);
    assert.ok(m, r.stdout);
    const rec = records(box)[0] as RunRecord;
    assert.equal(rec.omitted, Number(m[1]));
    assert.equal(rec.recallId, m[2]);
    // The recall itself is recorded: an omission that cost a second call.
    const back = launchSync(["recall", m[2]!, "--head", "2"], { cwd: box.repo, env: box.env });
    assert.equal(back.status, 0, back.stderr);
    const recall = records(box)[1] as RunRecord;
    assert.equal(recall.route, "recall");
    assert.equal(recall.recallId, m[2]);
  });

  test("what rtk printed on stdout and stderr is what the record says it printed, and its recall id is the handle it printed", () => {
    const box = world();
    const bin = join(box.root, "bin");
    mkdirSync(bin);
    // A cargo whose compile error goes to stderr before the tests would have run; a pytest whose summary carries the handle of its passes.
    writeFileSync(
      join(bin, "cargo"),
      `#!/bin/sh\nprintf '   Compiling calc v0.1.0 (/p)\\nerror[E0308]: mismatched types\\n --> src/lib.rs:9:32\\n\\nFor more information about this error, try \\140rustc --explain E0308\\140.\\nerror: could not compile \\140calc\\140 (lib test) due to 1 previous error\\n' >&2\nexit 101\n`,
    );
    writeFileSync(
      join(bin, "pytest"),
      `#!/bin/sh\necho '============================= test session starts =============================='\necho 'collected 40 items'\necho ''\necho 'test_calc.py ........................................                 [100%]'\necho ''\necho '============================== 40 passed in 0.05s =============================='\n`,
    );
    for (const t of ["cargo", "pytest"]) spawnSync("chmod", ["+x", join(bin, t)]);
    const env = { ...box.env, PATH: `${bin}:${box.env["PATH"]}` };
    const cargo = launchSync(["cargo", "test"], { cwd: box.repo, env });
    assert.equal(cargo.status, 101);
    assert.match(cargo.stderr, /could not compile/);
    const pytest = launchSync(["pytest"], { cwd: box.repo, env });
    const handle = /\[rtk recall ([0-9a-f]{7})\]/.exec(pytest.stdout);
    assert.ok(handle, pytest.stdout);
    const [c, p] = records(box) as RunRecord[];
    assert.equal(c!.outBytes, Buffer.byteLength(cargo.stdout + cargo.stderr), "stderr printed counts");
    assert.ok(c!.outBytes > 0);
    assert.equal(c!.recallId, null, "no handle printed, no recall id");
    assert.equal(p!.outBytes, Buffer.byteLength(pytest.stdout + pytest.stderr));
    assert.equal(p!.recallId, handle[1], "a handle on a summary line is the run's recall id");
  });

  test("secrets in the command are masked", () => {
    const box = world();
    launchSync(["git", "-c", "http.extraHeader=Authorization: Bearer abcdefghijklmnop", "status"], { cwd: box.repo, env: box.env });
    launchSync(["git", "log", "--token=s3cr3tvalue", "-n", "1"], { cwd: box.repo, env: box.env });
    launchSync(["env", "API_KEY=hunter2hunter2", "git", "status"], { cwd: box.repo, env: box.env });
    const text = readFileSync(spool(box), "utf8");
    for (const secret of ["abcdefghijklmnop", "s3cr3tvalue", "hunter2hunter2"]) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    const cmds = records(box).map((r) => r.command);
    assert.match(cmds[0]!, /Authorization: \*\*\*\*/);
    assert.match(cmds[1]!, /--token=\*\*\*\*/);
    assert.match(cmds[2]!, /API_KEY=\*\*\*\*/);
  });

  test("RTK_NO_TRACK=1, --no-track and tracking.enabled = false record nothing", () => {
    const box = world();
    launchSync(["git", "status"], { cwd: box.repo, env: { ...box.env, RTK_NO_TRACK: "1" } });
    launchSync(["--no-track", "git", "status"], { cwd: box.repo, env: box.env });
    mkdirSync(join(box.config, "rtk"), { recursive: true });
    writeFileSync(join(box.config, "rtk", "config.toml"), "[tracking]\nenabled = false\n");
    launchSync(["git", "status"], { cwd: box.repo, env: box.env });
    launchSync(["rewrite", "--host", "none", "git status"], { cwd: box.repo, env: box.env });
    const h = launchSync(["hook", "claude"], {
      cwd: box.repo,
      env: box.env,
      input: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" }, cwd: box.repo }),
    });
    assert.match(h.stdout, /rtk git status/);
    assert.equal(existsSync(spool(box)), false);
  });

  test("an unwritable or unsafe spool (a symlink, not a folder, a read-only place) changes neither output nor exit code, and says nothing", () => {
    const box = world();
    const baseline = launchSync(["git", "status"], { cwd: box.repo, env: { ...box.env, RTK_NO_TRACK: "1" } });
    const cases: Record<string, () => Record<string, string>> = {
      "a symlink as the spool (to /dev/full)": () => {
        mkdirSync(join(box.data, "rtk"), { recursive: true });
        symlinkSync("/dev/full", spool(box));
        return box.env;
      },
      "spool is a folder": () => {
        const d = join(box.root, "d2");
        mkdirSync(join(d, "rtk", "spool.jsonl"), { recursive: true });
        return { ...box.env, XDG_DATA_HOME: d };
      },
      "data folder is a file": () => {
        const f = join(box.root, "notadir");
        writeFileSync(f, "");
        return { ...box.env, XDG_DATA_HOME: f };
      },
      "read-only place": () => ({ ...box.env, XDG_DATA_HOME: "/proc/self" }),
    };
    for (const [name, setup] of Object.entries(cases)) {
      const env = setup();
      // The recall store shares the data folder: its own handling is not what is checked here.
      const r = launchSync(["git", "status"], { cwd: box.repo, env });
      assert.equal(r.status, baseline.status, name);
      assert.equal(r.stdout, baseline.stdout, name);
      assert.equal(r.stderr, baseline.stderr, name);
      const h = launchSync(["hook", "claude"], { cwd: box.repo, env, input: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" } }) });
      const hb = launchSync(["hook", "claude"], {
        cwd: box.repo,
        env: { ...env, RTK_NO_TRACK: "1" },
        input: JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" } }),
      });
      assert.equal(h.stdout, hb.stdout, name);
      assert.equal(h.stderr, hb.stderr, name);
      assert.equal(h.status, hb.status, name);
    }
  });
});

describe("hook records", () => {
  test("rtk hook claude records the host, session and tool-use ids, the rewrite and its verdict; rtk rewrite records the host it was given", () => {
    const box = world();
    const event = { hook_event_name: "PreToolUse", session_id: "sess-1", tool_use_id: "toolu_42", tool_name: "Bash", tool_input: { command: "git status && echo done" }, cwd: box.repo };
    const h = launchSync(["hook", "claude"], { cwd: box.repo, env: box.env, input: JSON.stringify(event) });
    assert.equal(h.status, 0, h.stderr);
    launchSync(["rewrite", "--host", "none", "git log --password=topsecret"], { cwd: box.repo, env: box.env });
    launchSync(["rewrite", "--host", "none", "echo hi"], { cwd: box.repo, env: box.env });
    const [hook, rw, pass] = records(box) as HookRecord[];
    assert.equal(hook!.kind, "hook");
    assert.equal(hook!.host, "claude");
    assert.equal(hook!.session, "sess-1");
    assert.equal(hook!.toolUseId, "toolu_42");
    assert.equal(hook!.project, box.repo);
    assert.equal(hook!.command, "git status && echo done");
    assert.equal(hook!.rewritten, "rtk git status && echo done");
    // Claude Code runs both parts unprompted in its own repository: the rewrite is handed back allowed.
    assert.equal(hook!.verdict, "rewrite-allow");
    assert.deepEqual(hook!.reasons.length, 2);
    assert.equal(rw!.host, "none");
    assert.equal(rw!.command, "git log --password=****");
    assert.equal(rw!.rewritten, "rtk git log --password=****");
    assert.equal(pass!.verdict, "pass");
    assert.equal(pass!.rewritten, null);
  });

  test("a rewrite the host's adapter leaves to the host after all (a Codex rule names the command) is recorded as what was answered: no rewrite", () => {
    const box = world();
    // Codex runs the command in the login shell: rtk must be on its PATH for a rewrite.
    loginProfile(box.home);
    const codexHome = join(box.cwd, "codex-home");
    mkdirSync(join(codexHome, "rules"), { recursive: true });
    writeFileSync(join(codexHome, "rules", "default.rules"), 'prefix_rule(pattern = ["git", "status"], decision = "allow")\n');
    const event = (command: string) =>
      JSON.stringify({ hook_event_name: "PreToolUse", permission_mode: "default", session_id: "s", tool_use_id: command, tool_name: "Bash", tool_input: { command }, cwd: box.repo });
    for (const command of ["git status", "git log"]) {
      const h = launchSync(["hook", "codex"], { cwd: box.repo, env: { ...box.env, CODEX_HOME: codexHome }, input: event(command) });
      assert.equal(h.status, 0, h.stderr);
      assert.equal(h.stdout !== "", command === "git log", `${command}: ${h.stdout}`);
    }
    const [named, free] = records(box) as HookRecord[];
    assert.deepEqual([named!.command, named!.rewritten, named!.verdict], ["git status", null, "pass"]);
    assert.deepEqual([free!.command, free!.rewritten, free!.verdict], ["git log", "rtk git log", "rewrite-allow"]);
  });
});
