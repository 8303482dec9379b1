// The runtime end to end (spec/runtime.md, "Execution" and "Never worse, never
// silent"): the built `bin/rtk` runs a tool with the exact argv, keeps its exit
// code, forwards signals, streams a passthrough, keeps memory bounded on a huge
// output, and prints the raw output whenever a filter cannot do better.
// Every run gets a temporary HOME, XDG_DATA_HOME, XDG_CONFIG_HOME and TMPDIR.
// Routed runs use the real `git status` route, with the real git or with a
// stand-in script named `git` called by its path (routes match the basename).
// Filter failures are exercised on `runFiltered` itself, from the source, in a
// child process (a small script run with tsx) with hand-made filters.
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AnsiByteStripper } from "../../src/text/ansi.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;

before(() => {
  ensureBuilt();
});

after(removeSandboxes);

type Box = Sandbox;

function box(): Box {
  return sandbox("rtk-run-", { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" });
}

interface RunOpts {
  cwd?: string;
  env?: Record<string, string>;
  input?: string | Buffer;
}

function rtk(b: Box, args: string[], o: RunOpts = {}): SpawnSyncReturns<string> {
  return launchSync(args, { cwd: o.cwd ?? b.cwd, env: { ...b.env, ...o.env }, input: o.input, timeout: 30000 });
}

function sh(b: Box, cmd: string, args: string[], cwd = b.cwd): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: b.env, encoding: "utf8" });
}

let fakes = 0;
/** A stand-in tool: `<box>/fake-N/<name>`, a sh script, called by its path. */
function fakeTool(b: Box, body: string, name = "git", mode = 0o755): string {
  const dir = join(b.root, `fake-${++fakes}`);
  mkdirSync(dir);
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

let repos = 0;
/** A git repository in `<box>/cwd/repo-N` with one commit. */
function repo(b: Box): string {
  const dir = join(b.cwd, `repo-${++repos}`);
  mkdirSync(dir);
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["commit", "-q", "--allow-empty", "-m", "init"],
  ]) {
    const r = sh(b, "git", args, dir);
    assert.equal(r.status, 0, r.stderr);
  }
  return dir;
}

interface Started {
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /**
   * Resolves when the process has exited and its output is read (or, when a
   * process left behind still holds the pipes, 2 s after the exit); rejects,
   * after killing the group, past the timeout.
   */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills whatever is left of its process group. */
  killGroup: () => void;
}

function start(cmd: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs = 15000, onOut?: (chunk: Buffer) => void): Started {
  // Its own process group, so anything left behind can be cleaned up; signals under test go to the pid only.
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => {
    out.push(c);
    onOut?.(c);
  });
  child.stderr.on("data", (c: Buffer) => err.push(c));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone
    }
  };
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`${cmd} ${args.join(" ")} did not end within ${timeoutMs} ms; stdout: ${Buffer.concat(out).toString()}`));
    }, timeoutMs);
    let closed = false;
    child.on("close", () => {
      closed = true;
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      const until = Date.now() + 2000;
      const wait = () => (closed || Date.now() > until ? resolve({ code, signal }) : setTimeout(wait, 10));
      wait();
    });
  });
  return { pid: child.pid!, stdout: () => Buffer.concat(out).toString(), stderr: () => Buffer.concat(err).toString(), done, killGroup };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, ms = 10000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Processes whose command line contains `marker`, as `pid stat args` lines. */
function processesWith(marker: string): string[] {
  const r = spawnSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return r.stdout.split("\n").filter((l) => l.includes(marker) && !l.includes("ps -eo"));
}

async function assertNoneLeft(marker: string): Promise<void> {
  // The shell's last `sleep 0.1` may outlive it by a moment; anything later is an orphan.
  const until = Date.now() + 1500;
  while (processesWith(marker).length && Date.now() < until) await sleep(50);
  assert.deepEqual(processesWith(marker), [], `processes left behind`);
}

describe("exit codes", () => {
  const b = box();

  test("rtk --version and -V print the package's version and exit 0", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const r = rtk(b, [flag]);
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, `rtk ${version}\n`, ""]);
    }
  });

  for (const n of [0, 1, 2, 42]) {
    test(`unrouted (passthrough): sh -c 'exit ${n}' → ${n}`, () => {
      const r = rtk(b, ["sh", "-c", `exit ${n}`]);
      assert.equal(r.status, n, r.stderr);
    });
  }

  for (const n of [0, 1, 2, 42]) {
    test(`routed (git status, a stand-in git): exit ${n} → ${n}, compact output`, () => {
      const git = fakeTool(b, 'echo "On branch main"\necho "nothing to commit, working tree clean"\nexit "$FAKE_EXIT"');
      const r = rtk(b, [git, "status"], { env: { FAKE_EXIT: String(n) } });
      assert.equal(r.status, n, r.stderr);
      assert.equal(r.stdout, "* main\nclean\n");
    });
  }

  test("routed, real git: `git status` outside a repository → 128, git's error kept", () => {
    const r = rtk(b, ["git", "status"]);
    assert.equal(r.status, 128);
    assert.match(r.stderr, /fatal: not a git repository/);
  });

  test("routed, real git: `git status` in a repository → 0", () => {
    const dir = repo(b);
    const r = rtk(b, ["git", "status"], { cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /main/);
  });

  test("routed, real git: `git status --no-such-flag` in a repository → git's 129 and its error", () => {
    const r = rtk(b, ["git", "status", "--no-such-flag"], { cwd: repo(b) });
    assert.equal(r.status, 129);
    assert.match(r.stderr, /unknown option `no-such-flag'/);
  });

  test("unrouted git subcommand that fails: `git no-such-sub` → 1", () => {
    const r = rtk(b, ["git", "no-such-sub"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /'no-such-sub' is not a git command/);
  });

  test("a missing tool → 127 and a shell-like message", () => {
    const r = rtk(b, ["nosuchtool", "--flag"]);
    assert.equal(r.status, 127);
    assert.equal(r.stderr, "rtk: nosuchtool: command not found\n");
    assert.equal(r.stdout, "");
  });

  test("a mistyped rtk command or routed tool that is not on PATH → 127, and the word meant", () => {
    for (const [typed, meant] of [
      ["explian", "explain"],
      ["gti", "git"],
      ["pyest", "pytest"],
    ] as const) {
      const r = rtk(b, [typed, "x"]);
      assert.equal(r.status, 127);
      assert.equal(r.stderr, `rtk: ${typed}: command not found (did you mean \`rtk ${meant}\`?)\n`);
    }
  });

  test("a missing routed tool (git by a path that does not exist) → 127", () => {
    const missing = join(b.root, "nowhere", "git");
    const r = rtk(b, [missing, "status"]);
    assert.equal(r.status, 127);
    assert.match(r.stderr, new RegExp(`^rtk: ${missing}: `));
  });

  test("a file that is not executable → 126 and a shell-like message", () => {
    writeFileSync(join(b.cwd, "noexec"), "echo hi\n", { mode: 0o644 });
    const r = rtk(b, ["./noexec"]);
    assert.equal(r.status, 126);
    assert.equal(r.stderr, "rtk: ./noexec: Permission denied\n");
  });

  test("a routed tool that is not executable (git by its path) → 126", () => {
    const git = fakeTool(b, "echo hi", "git", 0o644);
    const r = rtk(b, [git, "status"]);
    assert.equal(r.status, 126);
    assert.equal(r.stderr, `rtk: ${git}: Permission denied\n`);
  });

  for (const [sig, n] of [
    ["TERM", 15],
    ["INT", 2],
    ["KILL", 9],
  ] as const) {
    test(`a child killed by SIG${sig} → ${128 + n} (passthrough)`, () => {
      const r = rtk(b, ["sh", "-c", `kill -${sig} $$`]);
      assert.equal(r.status, 128 + n, r.stderr);
      assert.equal(r.signal, null, "rtk itself exits normally");
    });
  }

  test("a routed child killed by SIGTERM → 143", () => {
    const git = fakeTool(b, "echo 'On branch main'\nkill -TERM $$");
    const r = rtk(b, [git, "status"]);
    assert.equal(r.status, 143, r.stderr);
  });
});

describe("short outputs print as the tool printed them", () => {
  /** rtk's defaults: the test suite compacts every output (RTK_PASSTHROUGH_TOKENS=0), these runs do not. */
  const defaults = (b: Box) => {
    const { RTK_PASSTHROUGH_TOKENS: _, ...env } = b.env;
    return env;
  };

  test("ls -la of five entries is byte for byte what ls -la prints; a listing past the passthrough size is compacted", () => {
    const b = box();
    const dir = join(b.cwd, "five");
    mkdirSync(join(dir, "src"), { recursive: true });
    for (const f of ["README.md", "package.json", "tsconfig.json", "src/index.ts"]) writeFileSync(join(dir, f), "x\n");
    const env = defaults(b);
    const plain = spawnSync("ls", ["-la"], { cwd: dir, env, encoding: "utf8" });
    const r = launchSync(["ls", "-la"], { cwd: dir, env, timeout: 30000 });
    assert.equal(r.stdout, plain.stdout);
    assert.equal(r.stderr, plain.stderr);
    const many = join(b.cwd, "many");
    mkdirSync(many);
    for (let i = 0; i < 200; i++) writeFileSync(join(many, `file-number-${i}.txt`), "x\n");
    const big = launchSync(["ls", "-la"], { cwd: many, env, timeout: 30000 });
    const bigPlain = spawnSync("ls", ["-la"], { cwd: many, env, encoding: "utf8" });
    assert.ok(bigPlain.stdout.length > 650 * 4, "past the default 650 tokens of 4 characters");
    assert.ok(big.stdout.length < bigPlain.stdout.length, "compacted");
    // The size is the config's (or RTK_PASSTHROUGH_TOKENS's): 0 compacts the five entries too.
    assert.notEqual(launchSync(["ls", "-la"], { cwd: dir, env: { ...env, RTK_PASSTHROUGH_TOKENS: "0" }, timeout: 30000 }).stdout, plain.stdout);
    mkdirSync(join(b.config, "rtk"), { recursive: true });
    writeFileSync(join(b.config, "rtk", "config.toml"), "[limits]\npassthrough_tokens = 0\n");
    assert.notEqual(launchSync(["ls", "-la"], { cwd: dir, env, timeout: 30000 }).stdout, plain.stdout);
  });

  test("a short output keeps its bytes, escape sequences too; env still masks a secret however short its listing", () => {
    const b = box();
    const env = defaults(b);
    const line = "\x1b[32m============================== 1 passed in 0.01s ===============================\x1b[0m\n";
    const tool = fakeTool(b, `printf '${line.replace(/\x1b/g, "\\033").replace(/\n/g, "\\n")}'`, "pytest");
    assert.equal(launchSync([tool], { cwd: b.cwd, env, timeout: 30000 }).stdout, line);
    assert.equal(launchSync([tool], { cwd: b.cwd, env: { ...env, RTK_PASSTHROUGH_TOKENS: "0" }, timeout: 30000 }).stdout, "=== 1 passed in 0.01s ===\n", "compacted, the same output");
    const token = "ghp_0123456789abcdef0123456789abcdef0123";
    const masked = launchSync(["env"], { cwd: b.cwd, env: { ...env, GITHUB_TOKEN: token }, timeout: 30000 });
    assert.ok(masked.stdout.length < 650 * 4, "a listing shorter than the passthrough size");
    assert.match(masked.stdout, /^GITHUB_TOKEN=\*\*\*\*$/m);
    assert.ok(!masked.stdout.includes(token));
  });
});

describe("escape sequences", () => {
  const b = box();

  test("raw output printed for a route (its filter declines it) comes without escape sequences; a file's content keeps them", () => {
    const repo = join(b.root, "colour");
    mkdirSync(repo);
    const git = (...args: string[]) => assert.equal(spawnSync("git", args, { cwd: repo, env: b.env }).status, 0, args.join(" "));
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "a.txt"), "a\n");
    git("add", ".");
    git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first");
    const plain = spawnSync("git", ["log", "--oneline", "--color=always"], { cwd: repo, env: b.env, encoding: "utf8" });
    assert.match(plain.stdout, /\x1b\[/, "git itself colours it");
    const r = launchSync(["git", "log", "--oneline", "--color=always"], { cwd: repo, env: b.env });
    assert.equal(r.stdout, plain.stdout.replace(/\x1b\[[0-9;]*m/g, ""));
    writeFileSync(join(repo, "esc.txt"), "a\x1b[31mred\x1b[0m\n");
    assert.equal(launchSync(["cat", "esc.txt"], { cwd: repo, env: b.env }).stdout, "a\x1b[31mred\x1b[0m\n");
    assert.match(launchSync(["--raw", "git", "log", "--oneline", "--color=always"], { cwd: repo, env: b.env }).stdout, /\x1b\[/, "--raw is raw");
  });

  test("the byte stripper: a sequence cut between chunks goes whole, every other byte stays (0x9b inside UTF-8 too)", () => {
    const s = new AnsiByteStripper();
    const utf8 = Buffer.from("ě›é", "utf8");
    const out = Buffer.concat([s.push(Buffer.from("a\x1b[3")), s.push(Buffer.from("1mb")), s.push(utf8), s.push(Buffer.from("\x1b]0;title\x07c\x1b")), s.push(Buffer.from("[0m\n")), s.end()]);
    assert.deepEqual(out, Buffer.concat([Buffer.from("ab"), utf8, Buffer.from("c\n")]));
    assert.ok(utf8.includes(0x9b), "the test holds a 0x9b byte");
    const t = new AnsiByteStripper();
    assert.deepEqual(Buffer.concat([t.push(Buffer.from("x\x1b")), t.end()]), Buffer.from("x\x1b"), "an escape at the very end is kept");
  });
});

describe("lines longer than the runtime holds (1 MiB)", () => {
  const b = box();

  test("a 3 MB changed line reaches the diff filter cut, never in pieces read as lines of their own; stderr says so and recall has it whole", () => {
    const file = join(b.root, "long.diff");
    const long = "+" + "x".repeat(1_500_000) + "-".repeat(1_500_000);
    writeFileSync(file, ["diff --git a/f.txt b/f.txt", "index 1111111..2222222 100644", "--- a/f.txt", "+++ b/f.txt", "@@ -1 +1,2 @@", " a", long, ""].join("\n"));
    const git = fakeTool(b, `cat ${JSON.stringify(file)}`);
    const r = rtk(b, [git, "diff"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^1 file changed, \+1 -0$/m);
    assert.doesNotMatch(r.stdout, /^-/m, "no piece of the line read as a removed line");
    const note = /^rtk: 1 line longer than 1 MiB reached the filter cut; the whole output: \[rtk recall ([0-9a-f]{7})\]$/m.exec(r.stderr);
    assert.ok(note, r.stderr);
    assert.ok(rtk(b, ["recall", note[1]!]).stdout.includes(long));
  });

  test("an output past the recall store's 16 MiB: the compact form says the entry holds only the first 16 MiB", () => {
    const file = join(b.root, "huge.txt");
    writeFileSync(file, Array.from({ length: 250_000 }, (_, i) => `row ${String(i).padStart(6, "0")} ${"y".repeat(70)}`).join("\n") + "\n");
    const r = rtk(b, ["cat", file]);
    assert.match(r.stdout, /^… lines \d+–\d+ \(\d+\) omitted \[rtk recall ([0-9a-f]{7}) --lines \d+-\d+\]$/m);
    const id = /\[rtk recall ([0-9a-f]{7})/.exec(r.stdout)![1]!;
    assert.match(r.stderr, new RegExp(`^rtk: \\[rtk recall ${id}\\] holds the first 16 MiB of the 19\\.\\d MiB output$`, "m"));
  });

  test("cat of a 3 MB line: one line, cut with its exact count", () => {
    const file = join(b.root, "long.txt");
    writeFileSync(file, "y".repeat(3_000_000) + "\nshort\n");
    const r = rtk(b, ["cat", file]);
    assert.match(r.stdout, /^y{4000} … \+2996000 more chars \[rtk recall [0-9a-f]{7}\]\nshort\n$/);
    assert.equal(r.stderr, "");
  });
});

describe("a reader that goes early", () => {
  const b = box();

  test("rtk's write of a long compact form to a closed pipe ends it quietly, with a broken pipe's status (141)", () => {
    // 5000 commits in git's default layout: a compact form far past a pipe's buffer.
    const commits = Array.from(
      { length: 5000 },
      (_, i) => `commit ${i.toString(16).padStart(40, "a")}\nAuthor: Ann Lee <ann@example.com>\nDate:   Mon Mar 11 10:00:00 2024 +0000\n\n    Change number ${i}\n`,
    ).join("\n");
    const file = join(b.root, "log.txt");
    writeFileSync(file, commits);
    const git = fakeTool(b, `cat ${JSON.stringify(file)}`);
    // A list budget the log never reaches: the whole compact form is written.
    const config = join(b.root, "unbounded.toml");
    writeFileSync(config, "[limits]\nlist_tokens = 10000000\n");
    const r = spawnSync("bash", ["-c", `${JSON.stringify(RTK)} ${JSON.stringify(git)} log | head -1; echo "status \${PIPESTATUS[0]}"`], {
      cwd: b.cwd,
      env: { ...b.env, RTK_CONFIG: config },
      encoding: "utf8",
      timeout: 30000,
    });
    assert.match(r.stdout, /^a{7}\S* 2024-03-11 Ann Lee: Change number 0\nstatus 141\n$/);
    assert.equal(r.stderr, "");
  });
});

describe("stdin is inherited", () => {
  const b = box();

  test("printf 'a\\nb' | rtk cat → a\\nb exactly (routed or not)", () => {
    const r = rtk(b, ["cat"], { input: "a\nb" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "a\nb");
  });

  test("unrouted: rtk sh -c 'cat'", () => {
    const r = rtk(b, ["sh", "-c", "cat"], { input: "a\nb" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "a\nb");
  });

  test("routed: a stand-in `git status` that reads stdin gets it", () => {
    const git = fakeTool(b, "cat");
    const r = rtk(b, [git, "status"], { input: "a\nb" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "a\nb");
  });
});

describe("the environment", () => {
  const b = box();

  test("NODE_EXTRA_CA_CERTS: rtk's own Node starts without it, every tool it runs gets it as given", () => {
    const certs = join(b.root, "extra certs.pem");
    writeFileSync(certs, "");
    // The stand-in prints what it sees, then whether its parent (rtk's Node) started with either variable.
    const tool = fakeTool(b, `printf '%s|%s|' "$NODE_EXTRA_CA_CERTS" "\${RTK_NODE_EXTRA_CA_CERTS-unset}"; tr '\\0' '\\n' < /proc/$PPID/environ | grep -c '^NODE_EXTRA_CA_CERTS=' || true`, "tool");
    for (const args of [[tool], ["proxy", tool]]) {
      const r = rtk(b, args, { env: { NODE_EXTRA_CA_CERTS: certs } });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `${certs}|unset|0\n`, args.join(" "));
    }
    // Unset stays unset.
    const r = rtk(b, [tool]);
    assert.equal(r.stdout, "|unset|0\n");
  });
});

describe("signals are forwarded to the child, nothing is left behind", () => {
  const b = box();
  const TRAPS = 'trap "echo got-int; exit 7" INT; trap "echo got-term; exit 9" TERM; trap "echo got-hup; exit 11" HUP';
  const cases = [
    ["SIGINT", 7, "got-int"],
    ["SIGTERM", 9, "got-term"],
    ["SIGHUP", 11, "got-hup"],
  ] as const;

  for (const [sig, code, word] of cases) {
    test(`unrouted: ${sig} to rtk only reaches the child (exit ${code} propagated)`, async () => {
      const marker = `rtk-sig-${sig}-${process.pid}-${Date.now()}`;
      const p = start(RTK, ["sh", "-c", `: ${marker}; ${TRAPS}; echo ready; while :; do sleep 0.1; done`], b.env, b.cwd);
      try {
        await waitFor("ready", () => p.stdout().includes("ready\n"));
        process.kill(p.pid, sig);
        const r = await p.done;
        assert.deepEqual([r.code, r.signal], [code, null], `rtk's exit (code, signal); stderr: ${p.stderr()}`);
        assert.equal(p.stdout(), `ready\n${word}\n`);
        await assertNoneLeft(marker);
      } finally {
        p.killGroup();
      }
    });

    test(`routed (git status stand-in): ${sig} to rtk only reaches the child (exit ${code} propagated)`, async () => {
      const ready = join(b.root, `ready-${sig}`);
      const git = fakeTool(b, `${TRAPS}\necho ready\n: > "$READY"\nwhile :; do sleep 0.1; done`);
      const p = start(RTK, [git, "status"], { ...b.env, READY: ready }, b.cwd);
      try {
        await waitFor("the ready file", () => existsSync(ready));
        process.kill(p.pid, sig);
        const r = await p.done;
        assert.deepEqual([r.code, r.signal], [code, null], `rtk's exit (code, signal); stderr: ${p.stderr()}`);
        // Not git's shape: the raw output is printed once the run ends.
        assert.equal(p.stdout(), `ready\n${word}\n`);
        await assertNoneLeft(git);
      } finally {
        p.killGroup();
      }
    });
  }

  // The child signals rtk the moment it starts: rtk must already be forwarding
  // (else rtk dies of the signal and the child runs on, orphaned).
  const EARLY = 'trap "echo trapped; exit 9" TERM\nkill -TERM $PPID\nsleep 0.2\necho orphan-survived';
  test("unrouted: SIGTERM arriving as soon as the child starts is forwarded (rtk does not die, no orphan)", () => {
    for (let i = 0; i < 6; i++) {
      const r = rtk(b, ["sh", "-c", EARLY]);
      assert.deepEqual({ status: r.status, signal: r.signal, stdout: r.stdout }, { status: 9, signal: null, stdout: "trapped\n" }, `run ${i + 1}`);
    }
  });

  test("routed (git status stand-in): SIGTERM arriving as soon as the child starts is forwarded (rtk does not die, no orphan)", () => {
    const git = fakeTool(b, EARLY);
    for (let i = 0; i < 6; i++) {
      const r = rtk(b, [git, "status"]);
      assert.deepEqual({ status: r.status, signal: r.signal, stdout: r.stdout }, { status: 9, signal: null, stdout: "trapped\n" }, `run ${i + 1}`);
    }
  });

  for (const [sig, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    test(`unrouted, no trap: the child dies of the forwarded ${sig} → ${code}`, async () => {
      const marker = `rtk-sig-plain-${sig}-${process.pid}-${Date.now()}`;
      const p = start(RTK, ["sh", "-c", `: ${marker}; echo ready; while :; do sleep 0.1; done`], b.env, b.cwd);
      try {
        await waitFor("ready", () => p.stdout().includes("ready\n"));
        process.kill(p.pid, sig);
        const r = await p.done;
        assert.deepEqual([r.code, r.signal], [code, null], `rtk's exit (code, signal); stderr: ${p.stderr()}`);
        await assertNoneLeft(marker);
      } finally {
        p.killGroup();
      }
    });
  }
});

describe("streaming", () => {
  const b = box();

  test("passthrough: the first line of a long-running command arrives well before it ends", async () => {
    const t0 = Date.now();
    let first = -1;
    let secondSeenWithFirst = false;
    const p = start(RTK, ["sh", "-c", "echo first; sleep 2; echo second"], b.env, b.cwd, 15000, () => {
      if (first < 0 && p.stdout().includes("first\n")) {
        first = Date.now();
        secondSeenWithFirst = p.stdout().includes("second");
      }
    });
    const r = await p.done;
    const end = Date.now();
    assert.equal(r.code, 0);
    assert.equal(p.stdout(), "first\nsecond\n");
    assert.ok(first > 0 && !secondSeenWithFirst, "first arrived alone");
    assert.ok(end - first >= 1500, `first line ${first - t0} ms after start, the command ended ${end - t0} ms after start`);
  });
});

describe("memory stays bounded on a 200 MB output", () => {
  const b = box();
  const SIZE = 200_000_000;
  const LINE = '  (use "git add")\n'; // a hint line: the git status filter keeps nothing of it

  function expectedHash(): string {
    const h = createHash("sha256");
    const block = Buffer.from(LINE.repeat(100_000));
    let left = SIZE;
    while (left >= block.length) {
      h.update(block);
      left -= block.length;
    }
    h.update(block.subarray(0, left));
    return h.digest("hex");
  }

  // Node 22 and later let the heap grow further before collecting: the same run peaks at
  // 128 MB on Node 20.20 and 164–172 MB on Node 24.22 (`node -e 0`: 40 and 43 MB). The
  // bound is what keeps memory from growing with the output, on each.
  const BOUND_MB = Number(process.versions.node.split(".")[0]) >= 22 ? 190 : 150;

  test(`routed \`git status\` (stand-in) printing 200 MB git does not recognise: raw output byte-identical, peak RSS < ${BOUND_MB} MB, no spill file left`, { timeout: 60000 }, async () => {
    const git = fakeTool(b, `yes '${LINE.trimEnd()}' | head -c ${SIZE}`);
    const rssFile = join(b.root, "rss");
    const useTime = existsSync("/usr/bin/time");
    const [cmd, args] = useTime ? ["/usr/bin/time", ["-f", "%M", "-o", rssFile, RTK, git, "status"]] : [RTK, [git, "status"]];
    const hash = createHash("sha256");
    let bytes = 0;
    const p = start(cmd, args, b.env, b.cwd, 55000, (c) => {
      hash.update(c);
      bytes += c.length;
    });
    let peakKb = 0;
    const sampler = useTime
      ? null
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.pid}/status`, "utf8"));
            if (m) peakKb = Math.max(peakKb, Number(m[1]));
          } catch {
            // ended
          }
        }, 20);
    const r = await p.done;
    if (sampler) clearInterval(sampler);
    if (useTime) peakKb = Number(readFileSync(rssFile, "utf8").trim().split("\n").pop());
    assert.equal(r.code, 0, p.stderr());
    assert.equal(p.stderr(), "");
    assert.equal(bytes, SIZE);
    assert.equal(hash.digest("hex"), expectedHash(), "the raw output, byte for byte");
    assert.ok(peakKb > 0 && peakKb < BOUND_MB * 1024, `peak RSS ${Math.round(peakKb / 1024)} MB`);
    assert.deepEqual(
      readdirSync(b.tmp).filter((f) => f.startsWith(".rtk-spill")),
      [],
      "the spill file is removed",
    );
    assert.ok(!existsSync(join(b.data, "rtk", "recall")) || readdirSync(join(b.data, "rtk", "recall")).length === 0, "a successful run with nothing omitted keeps no recall entry");
  });
});

describe("rtk's own failures: the raw output is printed and the child's exit code kept", () => {
  const b = box();
  const SIZE = 6_000_000; // past the 4 MiB held in memory: the capture spills to TMPDIR

  test("the spill file cannot be created (TMPDIR does not exist)", () => {
    const git = fakeTool(b, `yes '  (use "git add")' | head -c ${SIZE}; exit 3`);
    const r = spawnSync(RTK, [git, "status"], { cwd: b.cwd, env: { ...b.env, TMPDIR: join(b.root, "no-such-dir") }, maxBuffer: 64 * 1024 * 1024, timeout: 30000 });
    assert.equal(r.status, 3, r.stderr.toString().slice(0, 300));
    assert.equal(r.stdout.length, SIZE);
  });

  test("the recall store cannot be written (its path is a file): a failing run still prints git's error and exits 128", () => {
    mkdirSync(join(b.data, "rtk"), { recursive: true });
    writeFileSync(join(b.data, "rtk", "recall"), "not a folder\n");
    const r = rtk(b, ["git", "status"]);
    assert.equal(r.status, 128);
    assert.match(r.stderr, /^fatal: not a git repository/);
    assert.equal(readFileSync(join(b.data, "rtk", "recall"), "utf8"), "not a folder\n");
  });

  // Node's recursive mkdir loops forever on a level it cannot make for another reason than a missing parent.
  for (const [what, env] of [
    ["the data folder", { XDG_DATA_HOME: "/proc/rtk-no-such/data" }],
    ["the config and data folders", { XDG_DATA_HOME: "/proc/rtk-no-such/data", XDG_CONFIG_HOME: "/proc/rtk-no-such/config", XDG_CACHE_HOME: "/proc/rtk-no-such/cache" }],
  ] as const) {
    test(`${what} under /proc (cannot be made): the run ends with git's output and exit code, the marker says recall is unavailable`, () => {
      const dir = repo(b);
      for (let i = 0; i < 80; i++) writeFileSync(join(dir, `u${i}.txt`), "");
      const r = spawnSync(RTK, ["git", "status"], { cwd: dir, env: { ...b.env, ...env }, encoding: "utf8", timeout: 20000, killSignal: "SIGKILL" });
      assert.equal(r.error, undefined, "rtk ended by itself");
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /u0\.txt/);
    });
  }
});

// A child script that runs `runFiltered` from the source with hand-made filters,
// one case after the other, and reports what it wrote to each stream (its
// process.stdout/stderr writes are captured) as JSON.
const RUNNER = `
import { runFiltered } from ${JSON.stringify(pathToFileURL(join(ROOT, "src", "runtime", "run.ts")).href)};
const cases = JSON.parse(process.argv[2]);
const route = { id: "test.route", tool: "sh", filter: "test", savings: 0, pipeSafe: false };
const text = (l) => l.map((x) => x + "\\n").join("");
const filters = {
  null: () => ({ line() {}, end: () => null }),
  shorter: () => ({ line() {}, end: () => ({ stdout: "ok\\n", stderr: "" }) }),
  startThrows: () => { throw new Error("boom in start"); },
  lineThrows: () => { let n = 0; return { line() { if (++n === 2) throw new Error("boom in line"); }, end: () => ({ stdout: "compact\\n", stderr: "" }) }; },
  endThrows: () => ({ line() {}, end() { throw new Error("boom in end"); } }),
  longer: () => { const seen = { out: [], err: [] }; return { line(s, t) { seen[s].push(t); }, end: () => ({ stdout: text(seen.out) + "and a summary line that makes it longer\\n", stderr: text(seen.err) }) }; },
  seen: () => { const seen = []; return { line(s, t) { seen.push(t); }, end: () => ({ stdout: "[" + seen.join("|") + "]\\n", stderr: "" }) }; },
  omit: (ctx) => { let n = 0; return { line() { n++; }, end: () => ({ stdout: "… +" + n + " more lines [rtk recall " + ctx.recall.id() + "]\\n", stderr: "" }) }; },
  stream: (ctx) => ({ line(s, t) { if (t === "boom") throw new Error("boom in a streaming line"); (s === "out" ? ctx.emit.out : ctx.emit.err)(t); }, end: () => ({ stdout: "done\\n", stderr: "" }) }),
};
const realOut = process.stdout.write.bind(process.stdout);
let cur = null;
const capture = (key) => (data) => {
  const s = typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  cur[key] += s;
  cur.writes.push([Date.now() - cur.t0, key, s]);
  return true;
};
process.stdout.write = capture("stdout");
process.stderr.write = capture("stderr");
const results = {};
for (const c of cases) {
  cur = { stdout: "", stderr: "", writes: [], t0: Date.now(), code: null, ms: 0 };
  const filter = { id: "test", streaming: () => c.mode === "stream", start: (input, ctx) => filters[c.mode](ctx) };
  try {
    cur.code = await runFiltered(filter, { argv: c.argv, toolIndex: 0, subIndex: 1, route }, { env: process.env, raw: false });
  } catch (e) {
    cur.error = String(e && e.stack || e);
  }
  cur.ms = Date.now() - cur.t0;
  results[c.name] = cur;
}
realOut(JSON.stringify(results));
`;

interface CaseResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** [ms since the case started, stream, text] for every write. */
  writes: [number, string, string][];
  ms: number;
  error?: string;
}

describe("runFiltered: never worse, never silent (in-process, from the source)", () => {
  const b = box();
  const script = join(b.root, "runner.mts");
  writeFileSync(script, RUNNER);
  const OUT_ERR = ["sh", "-c", 'printf "x\\ny\\n"; printf "e\\n" >&2; exit 3'];
  const CASES: { name: string; mode: string; argv: string[] }[] = [
    { name: "shorter", mode: "shorter", argv: OUT_ERR },
    { name: "null", mode: "null", argv: OUT_ERR },
    { name: "startThrows", mode: "startThrows", argv: OUT_ERR },
    { name: "lineThrows", mode: "lineThrows", argv: OUT_ERR },
    { name: "endThrows", mode: "endThrows", argv: OUT_ERR },
    { name: "longer", mode: "longer", argv: OUT_ERR },
    { name: "ansi", mode: "seen", argv: ["sh", "-c", 'printf "\\033[31mred\\033[0m\\r\\nplain\\n\\033]0;title\\007t\\n"'] },
    { name: "omit", mode: "omit", argv: ["seq", "1", "500"] },
    { name: "missing", mode: "shorter", argv: ["nosuchtool", "x"] },
    { name: "stream", mode: "stream", argv: ["sh", "-c", "echo first; sleep 2; echo second"] },
    { name: "streamThrows", mode: "stream", argv: ["sh", "-c", 'printf "one\\nboom\\ntwo\\n"; exit 4'] },
    { name: "streamThrowsSplit", mode: "stream", argv: ["sh", "-c", 'printf "one\\nbo"; sleep 0.3; printf "om\\ntwo\\n"'] },
  ];
  let results: Record<string, CaseResult> = {};
  // Started while the file's tests are collected (it needs no build), so its pauses overlap the other tests.
  const p = start(process.execPath, ["--import", TSX, script, JSON.stringify(CASES)], b.env, b.cwd, 90000);
  p.done.catch(() => {}); // awaited (and reported) in before

  before(async () => {
    const r = await p.done;
    assert.equal(r.code, 0, `runner: ${p.stderr()}`);
    results = JSON.parse(p.stdout()) as Record<string, CaseResult>;
  });

  const got = (name: string) => {
    const r = results[name];
    assert.ok(r, `case ${name} ran`);
    assert.equal(r.error, undefined, `runFiltered rejected: ${r.error}`);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  };

  test("the harness: a filter with a shorter compact form prints it, exit code kept", () => {
    assert.deepEqual(got("shorter"), { code: 3, stdout: "ok\n", stderr: "" });
  });

  for (const [name, what] of [
    ["null", "does not recognise the output (end returns null)"],
    ["startThrows", "throws in start"],
    ["lineThrows", "throws in line"],
    ["endThrows", "throws in end"],
    ["longer", "returns a compact form longer than the raw"],
  ] as const) {
    test(`a filter that ${what} → the raw output, each stream to its own, exit code kept`, () => {
      assert.deepEqual(got(name), { code: 3, stdout: "x\ny\n", stderr: "e\n" });
    });
  }

  test("the filter sees lines without ANSI escapes and without line ends", () => {
    assert.deepEqual(got("ansi"), { code: 0, stdout: "[red|plain|t]\n", stderr: "" });
  });

  test("a routed tool that cannot start → 127 with the shell's words", () => {
    assert.deepEqual(got("missing"), { code: 127, stdout: "", stderr: "rtk: nosuchtool: command not found\n" });
  });

  test("an omission writes a recall entry; `rtk recall <id>` prints the raw output", () => {
    const r = got("omit");
    assert.equal(r.code, 0, r.stderr);
    const m = /^… \+500 more lines \[rtk recall ([0-9a-f]{7})\]\n$/.exec(r.stdout);
    assert.ok(m, `marker with a 7-hex id: ${JSON.stringify(r.stdout)}`);
    const rec = rtk(b, ["recall", m[1]!]);
    assert.equal(rec.status, 0, rec.stderr);
    assert.equal(rec.stdout, sh(b, "seq", ["1", "500"]).stdout);
  });

  test("a streaming filter shows its lines as they come", () => {
    const r = results["stream"]!;
    assert.deepEqual(got("stream"), { code: 0, stdout: "first\nsecond\ndone\n", stderr: "" });
    const first = r.writes.find(([, , s]) => s.includes("first"));
    assert.ok(first && r.ms - first[0] >= 1500, `first line written at ${first?.[0]} ms, the run ended at ${r.ms} ms`);
  });

  test("a streaming filter that throws hands over the rest raw: nothing lost, nothing twice", () => {
    assert.deepEqual(got("streamThrows"), { code: 4, stdout: "one\nboom\ntwo\n", stderr: "" });
  });

  test("a streaming filter that throws on a line that arrived in two pieces: the whole line is printed", () => {
    assert.deepEqual(got("streamThrowsSplit"), { code: 0, stdout: "one\nboom\ntwo\n", stderr: "" });
  });
});

describe("raw output on request", () => {
  const b = box();
  const dir = repo(b);
  writeFileSync(join(dir, "new.txt"), "x\n");
  const direct = sh(b, "git", ["status"], dir);

  test("the compact form differs from git's own output (so the raw checks mean something)", () => {
    const r = rtk(b, ["git", "status"], { cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.notEqual(r.stdout, direct.stdout);
    assert.match(r.stdout, /new\.txt/);
  });

  test("RTK_RAW=1 rtk git status → exactly what git status prints", () => {
    const r = rtk(b, ["git", "status"], { cwd: dir, env: { RTK_RAW: "1" } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, direct.stdout);
    assert.equal(r.stderr, direct.stderr);
  });

  test("rtk --raw git status → exactly what git status prints", () => {
    const r = rtk(b, ["--raw", "git", "status"], { cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, direct.stdout);
    assert.equal(r.stderr, direct.stderr);
  });

  test("an omission by the git status filter (2000 untracked files, past the list budget) → marker with an exact count; `rtk recall <id>` prints git's raw output", () => {
    const big = repo(b);
    for (let i = 0; i < 2000; i++) writeFileSync(join(big, `u${String(i).padStart(4, "0")}.txt`), "");
    const r = rtk(b, ["git", "status"], { cwd: big });
    assert.equal(r.status, 0, r.stderr);
    const m = /^\? untracked \(2000\): (.*) … \+(\d+) more untracked paths \[rtk recall ([0-9a-f]{7})\]$/m.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.equal(m[1]!.split(" ").length + Number(m[2]), 2000);
    const rec = rtk(b, ["recall", m[3]!]);
    assert.equal(rec.status, 0, rec.stderr);
    assert.equal(rec.stdout, sh(b, "git", ["status"], big).stdout);
  });

  test("rtk --raw keeps the exit code (git status outside a repository → 128)", () => {
    const r = rtk(b, ["--raw", "git", "status"]);
    assert.equal(r.status, 128);
    assert.match(r.stderr, /^fatal: not a git repository/);
  });
});

describe("rtk proxy: an exact, unfiltered passthrough", () => {
  const b = box();
  const ARGS = ["a b", '"double"', "'single'", "$HOME", "${x:-y}", "", "  ", "*", "--raw", "-c", "back\\slash", "tab\there", "new\nline", "ünï", ";|&", "`id`"];
  const PRINT = ["sh", "-c", 'printf "[%s]\\n" "$@"', "x"];
  const expected = ARGS.map((a) => `[${a}]\n`).join("");

  test("args with spaces, quotes, $, globs, empty args arrive unchanged", () => {
    const r = rtk(b, ["proxy", ...PRINT, ...ARGS]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, expected);
  });

  test("the same args arrive unchanged through an unrouted and a routed run", () => {
    const plain = rtk(b, [...PRINT, ...ARGS]);
    assert.equal(plain.stdout, expected);
    const git = fakeTool(b, 'printf "[%s]\\n" "$@"');
    const routed = rtk(b, [git, "status", ...ARGS]);
    assert.equal(routed.status, 0, routed.stderr);
    assert.equal(routed.stdout, `[status]\n${expected}`);
  });

  test("exit code kept: rtk proxy sh -c 'exit 42' → 42; a missing tool → 127", () => {
    assert.equal(rtk(b, ["proxy", "sh", "-c", "exit 42"]).status, 42);
    const r = rtk(b, ["proxy", "nosuchtool"]);
    assert.equal(r.status, 127);
    assert.equal(r.stderr, "rtk: nosuchtool: command not found\n");
  });

  test("a routed tool is not filtered: rtk proxy git status → exactly git status", () => {
    const dir = repo(b);
    writeFileSync(join(dir, "f.txt"), "x\n");
    const r = rtk(b, ["proxy", "git", "status"], { cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, sh(b, "git", ["status"], dir).stdout);
  });

  test("stdin passes through rtk proxy", () => {
    assert.equal(rtk(b, ["proxy", "cat"], { input: "a\nb" }).stdout, "a\nb");
  });
});

describe("rtk options only before the tool word", () => {
  const b = box();
  const PRINT = ["sh", "-c", 'printf "[%s]\\n" "$@"', "x"];

  test("rtk -- tool …: `--` ends rtk's options (after --raw too), and the tool gets the rest", () => {
    assert.equal(rtk(b, ["--", ...PRINT, "a"]).stdout, "[a]\n");
    assert.equal(rtk(b, ["--raw", "--", ...PRINT, "--", "b"]).stdout, "[--]\n[b]\n");
  });

  test("after the tool word, --raw/--verbose/--no-track are the tool's arguments", () => {
    const r = rtk(b, [...PRINT, "--raw", "--verbose", "--no-track"]);
    assert.equal(r.stdout, "[--raw]\n[--verbose]\n[--no-track]\n");
  });

  test("rtk git status --raw: git gets --raw (and rejects it)", () => {
    const dir = repo(b);
    const r = rtk(b, ["git", "status", "--raw"], { cwd: dir });
    assert.equal(r.status, 129);
    assert.match(r.stderr, /unknown option `raw'/);
  });

  test("routed stand-in: rtk <git> status --raw → git's argv is status --raw", () => {
    const git = fakeTool(b, 'printf "[%s]\\n" "$@"');
    assert.equal(rtk(b, [git, "status", "--raw"]).stdout, "[status]\n[--raw]\n");
  });

  test("before the tool word they are rtk's: rtk --raw --verbose --no-track sh … --raw", () => {
    const r = rtk(b, ["--raw", "--verbose", "--no-track", ...PRINT, "--raw"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "[--raw]\n");
  });

  test("rtk options and no tool → usage, exit 2", () => {
    const r = rtk(b, ["--raw"]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /usage/);
  });
});
