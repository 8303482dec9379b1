// The git filters on real output: a world of repositories built with git in a
// temporary folder (see fixtures.ts), every fixture run twice on fresh
// copies of it — plain `git …` and the built `bin/rtk git …` — and checked:
// golden compact output, every fact of the raw output present or behind a
// marker whose recall holds it, the same exit code, never longer than raw,
// stderr lines only from git's stderr, deterministic, and the savings.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { gitAction } from "../../../src/filters/git/action.js";
import { gitDiff } from "../../../src/filters/git/diff.js";
import { gitLog } from "../../../src/filters/git/log.js";
import { distinctPrefixLength, isCommitLine } from "../../../src/filters/git/shared.js";
import { gitStatus } from "../../../src/filters/git/status.js";
import type { Filter } from "../../../src/filters/types.js";
import {
  ACTION_TARGETS,
  buildWorld,
  checkFacts,
  extractFacts,
  FIXTURES,
  gitEnv,
  instantiate,
  markers,
  readOnly,
  ROOT,
  runGit,
  runRtk,
  savings,
  TARGETS,
  tokens,
  type GitFixture,
  type Ran,
} from "./fixtures.js";

const GOLDEN = join(ROOT, "test", "filters", "golden", "git");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";

let root = "";
let world = "";

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
  root = mkdtempSync(join(tmpdir(), "rtk-git-"));
  world = join(root, "world");
  buildWorld(world);
});

interface Outcome {
  raw: Ran;
  compact: Ran;
  env: Record<string, string>;
}

const outcomes = new Map<string, Outcome>();

/** Runs a fixture once: plain git on one copy of the world, rtk on another. */
function outcome(f: GitFixture): Outcome {
  const known = outcomes.get(f.name);
  if (known) return known;
  const env = gitEnv(root);
  const rawDir = instantiate(world, join(root, "runs", f.name, "raw"), f, env);
  const raw = runGit(f.args, rawDir, env);
  const rtkDir = readOnly(f) ? rawDir : instantiate(world, join(root, "runs", f.name, "rtk"), f, env);
  const compact = runRtk(["git", ...f.args], rtkDir, env);
  const o = { raw, compact, env };
  outcomes.set(f.name, o);
  return o;
}

const normalise = (text: string) => text.replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

function goldenText(f: GitFixture, r: Ran): string {
  return `$ git ${f.args.map((a) => (/[\s'"]/.test(a) ? JSON.stringify(a) : a)).join(" ")}\nexit ${r.status}\n--- stdout\n${normalise(r.stdout)}--- stderr\n${normalise(r.stderr)}`;
}

function recallOf(env: Record<string, string>): (id: string) => string {
  return (id) => {
    const r = runRtk(["recall", id], ROOT, env);
    assert.equal(r.status, 0, `rtk recall ${id}: ${r.stderr}`);
    return r.stdout;
  };
}

const table: { name: string; route: string; raw: number; compact: number; saved: number; medium: boolean }[] = [];

after(() => {
  if (table.length) {
    const rows = table.map((t) => `${t.medium ? "*" : " "} ${t.name.padEnd(26)} ${t.route.padEnd(7)} ${String(t.raw).padStart(7)} ${String(t.compact).padStart(7)} ${t.saved.toFixed(1).padStart(6)}%`);
    process.stdout.write(`\n# savings (tokens ≈ bytes/4; * = medium fixture)\n#   fixture                    route       raw compact  saved\n${rows.map((r) => `# ${r}`).join("\n")}\n`);
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

const ROUTES = ["status", "log", "diff", "action"] as const;

for (const route of ROUTES) {
  describe(`git ${route}`, () => {
    for (const f of FIXTURES.filter((x) => x.route === route)) {
      describe(f.name, () => {
        test("exit code is git's", () => {
          const { raw, compact } = outcome(f);
          assert.equal(compact.status, raw.status, `stderr: ${compact.stderr}`);
        });

        test("never longer than the raw output", () => {
          const { raw, compact } = outcome(f);
          const r = Buffer.byteLength(raw.stdout) + Buffer.byteLength(raw.stderr);
          const c = Buffer.byteLength(compact.stdout) + Buffer.byteLength(compact.stderr);
          assert.ok(c <= r, `compact ${c} bytes > raw ${r} bytes`);
          table.push({ name: f.name, route, raw: tokens(raw.stdout + raw.stderr), compact: tokens(compact.stdout + compact.stderr), saved: savings(raw, compact), medium: !!f.medium });
        });

        test("every fact of the raw output is kept or recallable", () => {
          const { raw, compact, env } = outcome(f);
          const facts = extractFacts(raw, f.args[0]!);
          const report = checkFacts(facts, compact.stdout + compact.stderr, recallOf(env));
          assert.deepEqual(report.problems, [], `facts: ${report.facts}, recalled: ${report.recalled}`);
        });

        test("stderr holds only git's stderr lines (and markers)", () => {
          const { raw, compact } = outcome(f);
          // A kept line may lose trailing padding, nothing else.
          const from = new Set(raw.stderr.split("\n").map((l) => (l.includes("\r") ? l.slice(l.lastIndexOf("\r") + 1) : l).trimEnd()));
          for (const l of compact.stderr.split("\n").filter(Boolean)) {
            assert.ok(from.has(l.trimEnd()) || markers(l).length > 0, `stderr line not from git's stderr: ${JSON.stringify(l)}`);
          }
        });

        test("golden compact output", () => {
          const { compact } = outcome(f);
          const text = goldenText(f, compact);
          assert.ok(!text.includes(root), "the golden output must not depend on the temp folder");
          const file = join(GOLDEN, `${f.name}.txt`);
          if (UPDATE || !existsSync(file)) {
            mkdirSync(GOLDEN, { recursive: true });
            writeFileSync(file, text);
            if (!UPDATE) assert.fail(`golden file created: ${file} (inspect it, then rerun)`);
            return;
          }
          assert.equal(text, readFileSync(file, "utf8"));
        });
      });
    }
  });
}

describe("savings on the medium fixtures", () => {
  for (const f of FIXTURES.filter((x) => x.medium)) {
    const sub = f.args[0]!;
    const target = f.route === "action" ? ACTION_TARGETS[sub] : TARGETS[f.route];
    test(`${f.name}: reported against ${target ?? "no"} % target`, () => {
      const { raw, compact } = outcome(f);
      const saved = savings(raw, compact);
      const floor = FLOORS[f.name] ?? target ?? 0;
      if (target !== undefined && saved < target) process.stdout.write(`# ${f.name}: ${saved} % saved, below the ${target} % target\n`);
      assert.ok(saved >= floor, `${f.name}: saved ${saved} % < ${floor} %`);
    });
  }
});

/**
 * The savings each medium fixture reaches, kept as a regression floor. Where it
 * is below the target, the target is not reachable without hiding facts:
 * status — every path stays (the paths alone are a third of the raw text);
 * log — hash, day, author and subject of each commit stay (80 % only with
 * message bodies, as in `log-5`); diff — every hunk header and `+`/`-` line
 * stays, which alone is about half of a working diff, and each run of context
 * dropped is marked where it stood with a recall handle (a marker costs about
 * what two short lines do, so short runs stay); add/commit/push — git
 * prints little when its output is not a terminal (no progress), and the
 * branch, hashes, counts, refs, the paths `add -v` names and the remote's own
 * messages stay (a commit's subject line is git's own).
 */
const FLOORS: Record<string, number> = {
  "status-mixed": 55,
  "status-conflict": 65,
  "status-diverged": 80,
  log: 70,
  "log-5": 80,
  "log-patch": 60,
  "log-stat": 70,
  "diff-working": 18,
  "diff-range": 22,
  show: 45,
  "add-verbose": 20,
  commit: 65,
  "commit-all": 25,
  "push-new-branch": 70,
  "push-progress": 90,
  "push-fast-forward": 65,
  pull: 40,
  fetch: 17,
  "stash-pop": 65,
  "checkout-detached": 85,
  "merge-no-ff": 33,
  "merge-fast-forward": 50,
};

describe("determinism", () => {
  for (const name of ["log-patch", "diff-huge", "status-mixed", "pull"]) {
    test(`${name}: the same compact output twice`, () => {
      const f = FIXTURES.find((x) => x.name === name)!;
      const first = outcome(f).compact;
      const env = gitEnv(root);
      const dir = instantiate(world, join(root, "runs", `${name}-again`), f, env);
      const again = runRtk(["git", ...f.args], dir, env);
      assert.equal(normalise(again.stdout), normalise(first.stdout));
      assert.equal(normalise(again.stderr), normalise(first.stderr));
    });
  }
});

describe("memory stays bounded", () => {
  /** Feeds a filter a synthetic `git log -p` of about `mb` MiB, one line at a time. */
  function feed(filter: Filter, sub: string, mb: number): { out: string; heapGrowth: number } {
    const ids: string[] = [];
    const run = filter.start(
      { argv: ["git", sub, "-p"], toolIndex: 0, subIndex: 1, route: { id: `git.${sub}`, tool: "git", filter: filter.id, savings: 0, pipeSafe: false } },
      { recall: { id: () => (ids.push("abcdef0"), "abcdef0") }, emit: { out() {}, err() {} } },
    );
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let bytes = 0;
    let n = 0;
    let peak = 0;
    while (bytes < mb * 1024 * 1024) {
      const hash = (n++).toString(16).padStart(40, "0");
      const block = [
        `commit ${hash}`,
        "Author: Ann Lee <ann@example.com>",
        "Date:   Mon Mar 4 10:15:00 2024 +0100",
        "",
        `    Change ${n}`,
        "",
        `diff --git a/src/f${n}.ts b/src/f${n}.ts`,
        "index 1111111..2222222 100644",
        `--- a/src/f${n}.ts`,
        `+++ b/src/f${n}.ts`,
        "@@ -1,40 +1,40 @@",
        ...Array.from({ length: 40 }, (_, i) => `-old line ${i} of change ${n} with some text to make it long`),
        ...Array.from({ length: 40 }, (_, i) => `+new line ${i} of change ${n} with some text to make it long`),
        "",
      ];
      for (const l of block) {
        run.line("out", l);
        bytes += l.length + 1;
      }
      if (n % 500 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - before);
    }
    const out = run.end(0);
    assert.ok(out, "a compact output");
    return { out: out.stdout, heapGrowth: peak };
  }

  test("git log -p of 100 MiB holds a few MiB at most and says how much it left out", () => {
    const { out, heapGrowth } = feed(gitLog, "log", 100);
    assert.ok(Buffer.byteLength(out) < 3 * 1024 * 1024, `compact output of ${Buffer.byteLength(out)} bytes`);
    assert.ok(heapGrowth < 96 * 1024 * 1024, `heap grew by ${heapGrowth} bytes`);
    const ms = markers(out);
    assert.ok(
      ms.some((m) => /^lines \(\d+ commits, \d+ files\)$/.test(m.what)),
      `an overflow marker: ${ms.map((m) => m.what).join("; ")}`,
    );
  });

  test("git log past the cap: every commit shown has its date, author and subject, wherever the cap falls", () => {
    // A budget past the memory cap, so that the cap is what cuts.
    const limits = { list: 64 * 1024 * 1024, content: 64 * 1024 * 1024 };
    for (const pad of [0, 7, 19, 33]) {
      const run = gitLog.start(
        { argv: ["git", "log"], toolIndex: 0, subIndex: 1, route: { id: "git.log", tool: "git", filter: "git.log", savings: 0, pipeSafe: false } },
        { recall: { id: () => "abcdef0" }, limits, emit: { out() {}, err() {} } },
      );
      for (let n = 0; n < 30000; n++) {
        for (const l of [`commit ${n.toString(16).padStart(40, "a")}`, `Author: Ann Lee${"e".repeat(pad)} <ann@example.com>`, "Date:   Mon Mar 4 10:15:00 2024 +0100", "", `    Change ${n}`, ""])
          run.line("out", l);
      }
      const out = run
        .end(0)!
        .stdout.split("\n")
        .filter((l) => /^[0-9a-f]{7,} /.test(l) || /^[0-9a-f]{7,}$/.test(l));
      assert.ok(out.length > 1000);
      for (const l of out) assert.match(l, /^[0-9a-f]+ 2024-03-04 Ann Lee(e*): Change \d+$/, `pad ${pad}`);
    }
  });

  test("git diff of 30 MiB the same", () => {
    const { out } = feed(gitDiff, "show", 30);
    assert.ok(Buffer.byteLength(out) < 3 * 1024 * 1024);
    assert.ok(markers(out).some((m) => m.what.startsWith("lines (")));
  });
});

describe("the list budget: nothing omitted below it, cut to it above", () => {
  const route = (id: string, tool = "git") => ({ id, tool, filter: id, savings: 0, pipeSafe: false });
  const run = (filter: Filter, argv: string[], out: string[], limits?: { list: number; content: number }) => {
    const r = filter.start({ argv, toolIndex: 0, subIndex: 1, route: route(filter.id) }, { recall: { id: () => "abcdef0" }, ...(limits ? { limits } : {}), emit: { out() {}, err() {} } });
    for (const l of out) r.line("out", l);
    return r.end(0)!.stdout;
  };
  const status = (n: number) => [
    "On branch main",
    "Untracked files:",
    ...Array.from({ length: n }, (_, i) => `\tgen/out-${String(i).padStart(4, "0")}.json`),
    "",
    "Changes not staged for commit:",
    "\tmodified:   a.ts",
    "\tmodified:   b.ts",
  ];
  const log = (n: number) =>
    Array.from({ length: n }, (_, i) => [
      `commit ${i.toString(16).padStart(40, "a")}`,
      "Author: Ann Lee <ann@example.com>",
      "Date:   Mon Mar 4 10:15:00 2024 +0100",
      "",
      `    Change number ${i}`,
      "",
    ]).flat();

  test("git status: 300 untracked paths (about 6,000 characters) all shown; 1,000 cut to the budget, every group keeping a share", () => {
    const all = run(gitStatus, ["git", "status"], status(300));
    assert.ok(!all.includes("…"), all.slice(-200));
    assert.equal(all.split("\n")[2]!.split(" ").length - 3, 300);
    const cut = run(gitStatus, ["git", "status"], status(1000));
    assert.ok(cut.length <= 8000 && cut.length > 7500, `${cut.length} characters for a budget of 8,000`);
    const m = /^\? untracked \(1000\): (.*) … \+(\d+) more untracked paths \[rtk recall abcdef0\]$/m.exec(cut);
    assert.ok(m, cut);
    assert.equal(m[1]!.split(" ").length + Number(m[2]), 1000);
    assert.match(cut, /^~ modified \(2\): a\.ts b\.ts$/m);
  });

  test("git log: 100 commits shown whole; 400 cut to the budget, the rest counted with the commits among them", () => {
    const all = run(gitLog, ["git", "log"], log(100));
    assert.ok(!all.includes("…"));
    assert.equal(all.trimEnd().split("\n").length, 100);
    const cut = run(gitLog, ["git", "log"], log(400)).trimEnd().split("\n");
    const m = /^… \+(\d+) more lines \((\d+) commits\) \[rtk recall abcdef0\]$/.exec(cut.at(-1)!);
    assert.ok(m, cut.at(-1));
    assert.equal(cut.length - 1 + Number(m[2]), 400);
    assert.ok(cut.join("\n").length <= 8000 && cut.join("\n").length > 7500);
    // [limits] route_tokens or list_tokens reach the filter as its budget.
    const wide = run(gitLog, ["git", "log"], log(400), { list: 1_000_000, content: 30_000 });
    assert.equal(wide.trimEnd().split("\n").length, 400);
  });

  test("git branch: 100 branches shown whole; 1,000 cut to the budget, the rest counted", () => {
    const branches = (n: number) => Array.from({ length: n }, (_, i) => `${i === 0 ? "* " : "  "}feature/topic-${String(i).padStart(4, "0")}`);
    const all = run(gitAction, ["git", "branch"], branches(100));
    assert.equal(all, branches(100).join("\n") + "\n");
    const cut = run(gitAction, ["git", "branch"], branches(1000)).trimEnd().split("\n");
    const m = /^… \+(\d+) more lines \[rtk recall abcdef0\]$/.exec(cut.at(-1)!);
    assert.ok(m, cut.at(-1));
    assert.equal(cut.length - 1 + Number(m[1]), 1000);
    assert.deepEqual(cut.slice(0, -1), branches(1000).slice(0, cut.length - 1));
    assert.ok(cut.join("\n").length <= 8000 && cut.join("\n").length > 7500);
  });

  test("git fetch: 50 new branches all named in the summary (a fixed cap showed 20)", () => {
    const refs = Array.from({ length: 50 }, (_, i) => ` * [new branch]      b${i}        -> origin/b${i}`);
    const out = run(gitAction, ["git", "fetch"], ["From example.com:shop", ...refs]);
    assert.ok(!out.includes("…"), out);
    for (let i = 0; i < 50; i++) assert.ok(out.includes(`origin/b${i}`), `b${i}: ${out}`);
  });
});

describe("the fixture world", () => {
  test("has what the fixtures need: merges, renames, binary files, tags, an upstream ahead", () => {
    const env = gitEnv(root);
    const work = join(world, "work");
    const log = runGit(["log", "--all", "--format=%H %P %s"], work, env).stdout;
    assert.ok(
      log.split("\n").some((l) => l.split(" ").length > 3 && /^\S+ \S+ \S+ Merge/.test(l)),
      "a merge commit",
    );
    assert.match(runGit(["log", "--stat", "--summary", "-M"], work, env).stdout, /rename src\/util\/\{strings\.ts => text\.ts\}/);
    assert.match(runGit(["show", "--stat", ":/Add the logo"], work, env).stdout, /Bin 0 -> \d+ bytes/);
    assert.match(runGit(["tag"], work, env).stdout, /v1\.0\.0/);
    assert.match(runGit(["ls-remote", "origin"], work, env).stdout, /refs\/tags\/v1\.1\.0/);
    const dirty = FIXTURES.find((x) => x.name === "status-mixed")!;
    const dir = instantiate(world, join(root, "runs", "world-check"), dirty, env);
    const short = runGit(["status", "--short"], dir, env).stdout;
    for (const state of [/^M  /m, /^ M /m, /^A  /m, /^D  /m, /^R  /m, /^\?\? /m]) assert.match(short, state);
  });
});

describe("edge shapes, fed to the filters directly", () => {
  const route = (id: string, filter: string) => ({ id, tool: "git", filter, savings: 0, pipeSafe: false });
  function run(filter: Filter, argv: string[], out: string[], err: string[] = [], exit = 0) {
    const r = filter.start({ argv, toolIndex: 0, subIndex: 1, route: route(`git.${argv[1]}`, filter.id) }, { recall: { id: () => "abcdef0" }, emit: { out() {}, err() {} } });
    for (const l of out) r.line("out", l);
    for (const l of err) r.line("err", l);
    return r.end(exit);
  }
  const head = (path: string, extra: string[] = []) => [`diff --git ${path}`, ...extra, "index 1111111..2222222 100644"];

  const cases: { name: string; filter: Filter; argv: string[]; out: string[]; err?: string[]; exit?: number; expect: string | null }[] = [
    {
      name: "a lockfile in a diff: its header and one marker that counts its hunks and lines; the other files as usual",
      filter: gitDiff,
      argv: ["git", "diff"],
      out: [
        "diff --git a/package-lock.json b/package-lock.json",
        "index 1111111..2222222 100644",
        "--- a/package-lock.json",
        "+++ b/package-lock.json",
        "@@ -1,3 +1,3 @@",
        " {",
        '-  "version": "1.0.0",',
        '+  "version": "1.0.1",',
        " }",
        "@@ -10,2 +10,3 @@",
        '   "a": 1,',
        '+  "b": 2,',
        '   "c": 3',
        "\\ No newline at end of file",
        "diff --git a/src/a.ts b/src/a.ts",
        "index 3333333..4444444 100644",
        "--- a/src/a.ts",
        "+++ b/src/a.ts",
        "@@ -1,2 +1,2 @@",
        "-one",
        "+uno",
        " two",
      ],
      expect: "M package-lock.json\n… +10 more lines (2 hunks of a generated file, +2 -1) [rtk recall abcdef0]\nM src/a.ts\n@@ -1,2 +1,2 @@\n-one\n+uno\n two\n2 files changed, +3 -2\n",
    },
    {
      name: "a lockfile the user named is shown like any file",
      filter: gitDiff,
      argv: ["git", "diff", "--", "package-lock.json"],
      out: [
        "diff --git a/package-lock.json b/package-lock.json",
        "index 1111111..2222222 100644",
        "--- a/package-lock.json",
        "+++ b/package-lock.json",
        "@@ -1,3 +1,3 @@",
        " {",
        '-  "version": "1.0.0",',
        '+  "version": "1.0.1",',
        " }",
        "@@ -10,2 +10,3 @@",
        '   "a": 1,',
        '+  "b": 2,',
        '   "c": 3',
        "\\ No newline at end of file",
      ],
      expect:
        'M package-lock.json\n@@ -1,3 +1,3 @@\n {\n-  "version": "1.0.0",\n+  "version": "1.0.1",\n }\n@@ -10,2 +10,3 @@\n   "a": 1,\n+  "b": 2,\n   "c": 3\n\\ No newline at end of file\n1 file changed, +2 -1\n',
    },
    {
      name: "status: paths apart by spaces, a path that holds one quoted",
      filter: gitStatus,
      argv: ["git", "status"],
      out: [
        "On branch main",
        "Changes to be committed:",
        '  (use "git restore --staged <file>..." to unstage)',
        "\trenamed:    my notes.txt -> notes/my notes.txt",
        "",
        "Untracked files:",
        "\ta b.txt",
        '\t"caf\\303\\251.txt"',
        "\tz.txt",
      ],
      expect: '* main\n+ staged (1): "my notes.txt" -> "notes/my notes.txt" (renamed)\n? untracked (3): "a b.txt" "caf\\303\\251.txt" z.txt\n',
    },
    {
      name: "status: a path's own leading space is kept past git's label column, and a name holding ` -> ` is one path unless renamed",
      filter: gitStatus,
      argv: ["git", "status"],
      out: [
        "On branch main",
        "Changes to be committed:",
        '  (use "git restore --staged <file>..." to unstage)',
        "\tnew file:    lead",
        "\tnew file:   new -> file",
        "\trenamed:     sp -> renamed sp",
        "\tmodified:   x -> y",
        "",
        "Changes not staged for commit:",
        "\tmodified:   renamed sp",
        "\tmodified:   libs/sub (new commits, modified content)",
        "",
        "Unmerged paths:",
        "\tboth modified:    spaced",
        "\tdeleted by them: gone.txt",
      ],
      expect:
        '* main\n! conflicts (2): " spaced" gone.txt (deleted by them)\n+ staged (4): " lead" (new) "new -> file" (new) " sp" -> "renamed sp" (renamed) "x -> y"\n~ modified (2): "renamed sp" libs/sub (new commits, modified content)\n',
    },
    {
      name: "status -v adds a patch to the long format: kept as git prints it",
      filter: gitStatus,
      argv: ["git", "status", "-v"],
      out: [
        "On branch main",
        "Changes to be committed:",
        "\tmodified:   a.txt",
        "",
        "diff --git a/a.txt b/a.txt",
        "index 1111111..2222222 100644",
        "--- a/a.txt",
        "+++ b/a.txt",
        "@@ -1 +1 @@",
        "-a",
        "+b",
      ],
      expect: null,
    },
    {
      name: "diff --no-index of two different files names both sides",
      filter: gitDiff,
      argv: ["git", "diff", "--no-index", "f1.txt", "f2.txt"],
      out: ["diff --git a/f1.txt b/f2.txt", "index 422c2b7..0f7bc76 100644", "--- a/f1.txt", "+++ b/f2.txt", "@@ -1,2 +1,2 @@", " a", "-b", "+c"],
      expect: "M a/f1.txt b/f2.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n1 file changed, +1 -1\n",
    },
    {
      name: "stash list with options is a log of its own: kept as git prints it",
      filter: gitAction,
      argv: ["git", "stash", "list", "--stat"],
      out: ["stash@{0}: WIP on main: c2dc5c2 init", "", " a | 1 +", " 1 file changed, 1 insertion(+)", "stash@{1}: WIP on main: c2dc5c2 init", "", " b | 1 +", " 1 file changed, 1 insertion(+)"],
      expect: null,
    },
    {
      name: "fetch --all: each remote's refs after its own From line, the Fetching lines gone",
      filter: gitAction,
      argv: ["git", "fetch", "--all"],
      err: ["Fetching origin", "From ../remote", "   1111111..2222222  main       -> origin/main", "Fetching second", "From ../r2", " * [new branch]      onsecond   -> second/onsecond"],
      out: [],
      expect: "From ../remote: main -> origin/main 1111111..2222222; From ../r2: onsecond -> second/onsecond [new branch]\n",
    },
    {
      name: "a log whose blank message lines are not indented (made by another tool) keeps commits apart from bodies",
      filter: gitLog,
      argv: ["git", "log"],
      out: [
        "commit abc1230a",
        "Author: Ann <a@x>",
        "Date:   Mon Mar 10 10:00:00 2026 +0000",
        "",
        "    fix: one",
        "",
        "    More words.",
        "",
        "commit abc1230b",
        "Author: Ann <a@x>",
        "Date:   Mon Mar 10 10:00:00 2026 +0000",
        "",
        "    fix: two",
        "",
        "    Closes #4",
      ],
      expect: "abc1230a 2026-03-10 Ann: fix: one\nabc1230b 2026-03-10 Ann: fix: two\n  Closes #4\n… +1 more message body lines [rtk recall abcdef0]\n",
    },
    {
      name: "a missing newline at the end stays with its line",
      filter: gitDiff,
      argv: ["git", "diff"],
      out: [...head("a/a.txt b/a.txt"), "--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", " one", "-two", "\\ No newline at end of file", "+deux", "\\ No newline at end of file"],
      expect: "M a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+deux\n\\ No newline at end of file\n1 file changed, +1 -1\n",
    },
    {
      name: "quoted paths, paths with spaces, no prefix and mnemonic prefixes",
      filter: gitDiff,
      argv: ["git", "diff"],
      out: [
        'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
        "old mode 100644",
        "new mode 100755",
        "diff --git a/my notes.txt b/my notes.txt",
        "deleted file mode 100644",
        "index 1111111..0000000",
        "Binary files a/my notes.txt and /dev/null differ",
        "diff --git a/b.txt a/b.txt",
        "old mode 100644",
        "new mode 100755",
        "diff --git i/c.txt w/c.txt",
        "old mode 100755",
        "new mode 100644",
      ],
      expect: 'M "caf\\303\\251.txt" (mode 100644 -> 100755)\nD my notes.txt (binary)\nM a/b.txt (mode 100644 -> 100755)\nM c.txt (mode 100755 -> 100644)\n4 files changed, +0 -0\n',
    },
    {
      name: "a combined diff keeps every line that has a sign in any column",
      filter: gitDiff,
      argv: ["git", "diff"],
      out: [
        "diff --cc a.txt",
        "index 1111111,2222222..0000000",
        "--- a/a.txt",
        "+++ b/a.txt",
        "@@@ -1,5 -1,5 +1,9 @@@",
        "  one",
        "  two",
        "  three",
        "++<<<<<<< HEAD",
        " +main",
        "++=======",
        "+ side",
        "++>>>>>>> side",
        "  four",
        "  five",
        "  six",
      ],
      expect: "M a.txt (combined)\n@@@ -1,5 -1,5 +1,9 @@@\n  one\n  two\n  three\n++<<<<<<< HEAD\n +main\n++=======\n+ side\n++>>>>>>> side\n  four\n  five\n  six\n1 file changed\n",
    },
    {
      name: "context dropped before, between and after changes is marked where it stood (short runs stay: a marker would cost more)",
      filter: gitDiff,
      argv: ["git", "diff"],
      out: [
        ...head("a/a.txt b/a.txt"),
        "--- a/a.txt",
        "+++ b/a.txt",
        "@@ -1,12 +1,12 @@",
        ...["one", "two", "three"].map((w) => ` the ${w} line of context, long enough to be worth a marker`),
        "-old",
        "+new",
        ...["four", "five", "six", "seven"].map((w) => ` the ${w} line of context, long enough to be worth a marker`),
        "-old again",
        "+new again",
        " a",
        " b",
        " the last line of context, long enough to be worth a marker on its own",
      ],
      expect: [
        "M a.txt",
        "@@ -1,12 +1,12 @@",
        "… 2 unchanged lines [rtk recall abcdef0]",
        " the three line of context, long enough to be worth a marker",
        "-old",
        "+new",
        " the four line of context, long enough to be worth a marker",
        "… 2 unchanged lines [rtk recall abcdef0]",
        " the seven line of context, long enough to be worth a marker",
        "-old again",
        "+new again",
        "… 3 unchanged lines [rtk recall abcdef0]",
        "1 file changed, +2 -2",
        "",
      ].join("\n"),
    },
    {
      name: "a very long line handed over in pieces stays whole and in place",
      filter: gitDiff,
      argv: ["git", "diff"],
      out: [...head("a/a.txt b/a.txt"), "--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", "-old", "+new start", "of the same line", " kept"],
      expect: "M a.txt\n@@ -1,2 +1,2 @@\n-old\n+new start\nof the same line\n kept\n1 file changed, +1 -1\n",
    },
    { name: "--word-diff is not a patch: raw", filter: gitDiff, argv: ["git", "diff", "--word-diff"], out: [...head("a/a b/a"), "@@ -1 +1 @@", "[-x-]{+y+}"], expect: null },
    { name: "git show rev:path prints a file: raw", filter: gitDiff, argv: ["git", "show", "HEAD:a.patch"], out: ["diff --git a/x b/x", "@@ -1 +1 @@", "-a", "+b"], expect: null },
    { name: "git diff of something else (an external diff tool): raw", filter: gitDiff, argv: ["git", "diff"], out: ["Files differ: a.txt"], expect: null },
    { name: "git log --graph: raw", filter: gitLog, argv: ["git", "log", "--graph"], out: ["* commit " + "a".repeat(40), "| Author: A <a@x>"], expect: null },
    {
      name: "log --source decorations and an empty message",
      filter: gitLog,
      argv: ["git", "log", "--source"],
      out: [
        "commit " + "a".repeat(40) + "\trefs/heads/main",
        "Author: A B <a@x>",
        "Date:   Tue Feb 6 08:00:00 2024 -0500",
        "",
        "commit " + "b".repeat(40) + "\trefs/heads/main",
        "Author: <c@x>",
        "Date:   Tue Feb 6 08:00:00 2024 -0500",
        "",
        "    Subject",
        "",
      ],
      expect: "aaaaaaa refs/heads/main 2024-02-06 A B\nbbbbbbb refs/heads/main 2024-02-06 <c@x>: Subject\n",
    },
    {
      name: "hashes stay apart: a longer prefix when two shown commits share seven characters",
      filter: gitLog,
      argv: ["git", "log"],
      out: [
        "commit 1234567a" + "0".repeat(32),
        "Author: A <a@x>",
        "Date:   Tue Feb 6 08:00:00 2024 +0000",
        "",
        "    one",
        "",
        "commit 1234567b" + "0".repeat(32),
        "Author: A <a@x>",
        "Date:   Tue Feb 6 08:00:00 2024 +0000",
        "",
        "    two",
      ],
      expect: "1234567a 2024-02-06 A: one\n1234567b 2024-02-06 A: two\n",
    },
    {
      name: "a failed push keeps every error and hint but the advice about advice",
      filter: gitAction,
      argv: ["git", "push"],
      out: [],
      err: [
        "To ../o.git",
        " ! [rejected]        main -> main (fetch first)",
        "error: failed to push some refs to '../o.git'",
        "hint: Updates were rejected.",
        'hint: Disable this message with "git config advice.pushNonFFCurrent false"',
      ],
      exit: 1,
      expect: "--err\nTo ../o.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to '../o.git'\nhint: Updates were rejected.\n",
    },
    {
      name: "a forced push and a deleted branch",
      filter: gitAction,
      argv: ["git", "push"],
      out: [],
      err: ["Total 3 (delta 0), reused 0 (delta 0), pack-reused 0", "To ../o.git", " + 1234567...89abcde main -> main (forced update)", " - [deleted]         old"],
      expect: "To ../o.git: main -> main 1234567...89abcde (forced update), old [deleted]\n",
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = run(c.filter, c.argv, c.out, c.err ?? [], c.exit ?? 0);
      if (c.expect === null) return assert.equal(r, null);
      assert.ok(r, "a compact output");
      assert.equal(c.expect.startsWith("--err\n") ? `--err\n${r.stderr}` : r.stdout, c.expect);
    });
  }

  test("status: a path that looks like a hint is still a path", () => {
    const r = gitStatus.start({ argv: ["git", "status"], toolIndex: 0, subIndex: 1, route: route("git.status", "git.status") }, { recall: { id: () => "abcdef0" }, emit: { out() {}, err() {} } });
    for (const l of [
      "On branch main",
      "Untracked files:",
      '  (use "git add <file>..." to include in what will be committed)',
      "\t(draft).txt",
      "",
      "nothing added to commit but untracked files present",
    ])
      r.line("out", l);
    assert.equal(r.end(0)?.stdout, "* main\n? untracked (1): (draft).txt\n");
  });
});

test("a hunk of huge lines keeps its memory bounded", () => {
  const r = gitDiff.start(
    { argv: ["git", "diff"], toolIndex: 0, subIndex: 1, route: { id: "git.diff", tool: "git", filter: "git.diff", savings: 0, pipeSafe: false } },
    { recall: { id: () => "abcdef0" }, emit: { out() {}, err() {} } },
  );
  for (const l of ["diff --git a/min.js b/min.js", "index 1111111..2222222 100644", "--- a/min.js", "+++ b/min.js", "@@ -1,30 +1,30 @@"]) r.line("out", l);
  const big = "x".repeat(512 * 1024);
  for (let i = 0; i < 30; i++) r.line("out", `-${i}${big}`);
  for (let i = 0; i < 30; i++) r.line("out", `+${i}${big}`);
  const out = r.end(0)!.stdout;
  assert.ok(Buffer.byteLength(out) < 2 * 1024 * 1024, `${Buffer.byteLength(out)} bytes`);
  assert.match(out, /… \+59 more lines of this hunk \(\+29 -30\) \[rtk recall abcdef0\]/);
});

describe("hash helpers on every line of a huge log", () => {
  test("isCommitLine says what /^commit [0-9a-f]{7,64}\\b/ says", () => {
    const re = /^commit [0-9a-f]{7,64}\b/;
    const piece = fc.constantFrom("commit ", "commi", "a", "f", "0", "9", "g", "A", "_", " ", "(", "\t", "é");
    const hexRun = fc.integer({ min: 0, max: 70 }).map((n) => "ab12cd9".repeat(11).slice(0, n));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), hexRun, fc.array(piece, { maxLength: 4 }), (pre, hex, post) => {
        const line = (pre.length % 2 ? "commit " : pre.join("")) + hex + post.join("");
        assert.equal(isCommitLine(line), re.test(line), JSON.stringify(line));
      }),
      { numRuns: 2000 },
    );
  });

  test("distinctPrefixLength: the shortest length (at least the minimum) at which the distinct hashes differ", () => {
    const hash = fc.array(fc.constantFrom("0", "1", "a"), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(fc.array(hash, { maxLength: 12 }), fc.integer({ min: 1, max: 9 }), (hashes, min) => {
        // Sorted, neighbours share the longest prefixes: one more character tells them apart.
        const sorted = [...new Set(hashes)].sort();
        let lcp = -1;
        for (let i = 1; i < sorted.length; i++) {
          let k = 0;
          while (k < sorted[i - 1]!.length && sorted[i - 1]![k] === sorted[i]![k]) k++;
          lcp = Math.max(lcp, k);
        }
        assert.equal(distinctPrefixLength(hashes, min), Math.max(min, lcp + 1));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("a lockfile changed with the code, in a real repository", () => {
  test("git diff: the code in full, the lockfile as one counted marker whose recall holds every line; named, it is shown", () => {
    const dir = mkdtempSync(join(tmpdir(), "rtk-lockfile-"));
    try {
      const env = gitEnv(dir);
      const git = (...args: string[]) => assert.equal(runGit(args, dir, env).status, 0, args.join(" "));
      const lock = (v: number) =>
        JSON.stringify(
          {
            name: "app",
            lockfileVersion: 3,
            packages: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`node_modules/p${i}`, { version: `1.${i}.${v}`, integrity: `sha512-${"x".repeat(40)}${i}${v}` }])),
          },
          null,
          2,
        ) + "\n";
      git("init", "-q", "-b", "main");
      writeFileSync(join(dir, "package-lock.json"), lock(0));
      writeFileSync(join(dir, "index.js"), "export const a = 1;\nexport const b = 2;\n");
      git("add", ".");
      git("commit", "-q", "-m", "init");
      writeFileSync(join(dir, "package-lock.json"), lock(1));
      writeFileSync(join(dir, "index.js"), "export const a = 1;\nexport const b = 3;\n");
      const raw = runGit(["diff"], dir, env);
      const r = runRtk(["git", "diff"], dir, env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^M index\.js\n@@ -1,2 \+1,2 @@\n export const a = 1;\n-export const b = 2;\n\+export const b = 3;\n/m);
      const m = /^M package-lock\.json\n… \+(\d+) more lines \((\d+) hunks? of a generated file, \+120 -120\) \[rtk recall ([0-9a-f]{7})\]$/m.exec(r.stdout);
      assert.ok(m, r.stdout);
      const lockLines = raw.stdout
        .split("\n")
        .slice(raw.stdout.split("\n").findIndex((l) => l === "+++ b/package-lock.json") + 1)
        .filter((l) => /^[-+@ \\]/.test(l) && !l.startsWith("diff --git"));
      assert.equal(Number(m[1]), lockLines.length);
      const recalled = runRtk(["recall", m[3]!], dir, env).stdout;
      for (const l of lockLines) assert.ok(recalled.includes(l), l);
      const facts = checkFacts(extractFacts(raw, "diff"), r.stdout, (id) => runRtk(["recall", id], dir, env).stdout);
      assert.deepEqual(facts.problems, []);
      assert.ok(tokens(r.stdout) * 5 < tokens(raw.stdout), `${tokens(r.stdout)} vs ${tokens(raw.stdout)}`);
      const named = runRtk(["git", "diff", "--", "package-lock.json"], dir, env);
      assert.match(named.stdout, /^@@ /m);
      assert.doesNotMatch(named.stdout, /generated file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("line endings are content in a patch, in a real repository", () => {
  test("git diff, show, log -p and stash show -p keep the CR of a CRLF file's lines: an LF → CRLF change stays visible", () => {
    const dir = mkdtempSync(join(tmpdir(), "rtk-crlf-"));
    try {
      const env = gitEnv(dir);
      const git = (...args: string[]) => assert.equal(runGit(args, dir, env).status, 0, args.join(" "));
      git("init", "-q", "-b", "main");
      writeFileSync(join(dir, "f.txt"), "a\nb\nc\n");
      writeFileSync(join(dir, "g.txt"), "one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n");
      git("add", ".");
      git("commit", "-q", "-m", "init");
      writeFileSync(join(dir, "f.txt"), "a\r\nb\r\nc\r\n");
      writeFileSync(join(dir, "g.txt"), "one\r\ntwo\r\nTHREE\r\nfour\r\nfive\r\n");
      const expectPatch = (out: string, what: string) => {
        assert.match(out, /^-a\n-b\n-c\n\+a\r\n\+b\r\n\+c\r\n/m, `${what}: the added lines end in CR`);
        assert.match(out, /^ two\r\n-three\r\n\+THREE\r\n four\r\n/m, `${what}: context and changed lines of a CRLF file keep their CR`);
      };
      expectPatch(runRtk(["git", "diff"], dir, env).stdout, "git diff");
      git("stash", "-q");
      expectPatch(runRtk(["git", "stash", "show", "-p"], dir, env).stdout, "git stash show -p");
      git("stash", "pop", "-q");
      git("commit", "-q", "-am", "CRLF");
      expectPatch(runRtk(["git", "show"], dir, env).stdout, "git show");
      expectPatch(runRtk(["git", "log", "-p", "-1"], dir, env).stdout, "git log -p");
      const raw = runGit(["show"], dir, env);
      const facts = checkFacts(extractFacts(raw, "show"), runRtk(["git", "show"], dir, env).stdout, (id) => runRtk(["recall", id], dir, env).stdout);
      assert.deepEqual(facts.problems, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("escape bytes are content in a patch, in a real repository", () => {
  test("a changed line's own escape bytes stay; lines git coloured (--color=always) come without colour", () => {
    const dir = mkdtempSync(join(tmpdir(), "rtk-esc-"));
    try {
      const env = gitEnv(dir);
      const git = (...args: string[]) => assert.equal(runGit(args, dir, env).status, 0, args.join(" "));
      git("init", "-q", "-b", "main");
      writeFileSync(join(dir, "esc.txt"), "plain\n");
      git("add", ".");
      git("commit", "-q", "-m", "init");
      writeFileSync(join(dir, "esc.txt"), "plain\nred \x1b[31mtext\x1b[0m\n");
      assert.match(runRtk(["git", "diff"], dir, env).stdout, /^\+red \x1b\[31mtext\x1b\[0m$/m);
      const coloured = runRtk(["git", "diff", "--color=always"], dir, env).stdout;
      assert.doesNotMatch(coloured, /\x1b/);
      assert.match(coloured, /^@@ -1 \+1,2 @@\n plain\n\+red text$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
