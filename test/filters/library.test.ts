// rtk's built-in library of declarative filters (src/filters/builtin), through
// the built `bin/rtk`: `rtk verify --builtin` runs every built-in's inline
// tests; every built-in has its route and every library route its built-in,
// rewritten and named by `rtk help` and the rules block; a real ninja build, a
// real rsync copy, a real ctest run and a real unittest run are compacted with
// an exact count and recall; a user's
// filter of the same name replaces a built-in, and `rtk config` says where
// each filter came from; the hook bundle carries no filter text.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { libraryFilter, LIBRARY_TEXTS } from "../../src/filters/library.js";
import { library } from "../../src/routes/library.js";
import { FILTER_IDS } from "../../src/filters/catalog.js";
import { ensureBuilt } from "../support/build.js";
import { rtk, sandbox, write } from "../config/sandbox.js";

before(() => {
  ensureBuilt();
});

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const hasNinja = spawnSync("sh", ["-c", "command -v ninja && command -v cc"]).status === 0;
const hasRsync = spawnSync("sh", ["-c", "command -v rsync"]).status === 0;
const hasCtest = spawnSync("sh", ["-c", "command -v cmake && command -v ctest"]).status === 0;
const hasPython = spawnSync("sh", ["-c", "command -v python3"]).status === 0;

function recallId(text: string): string {
  const m = /\[rtk recall ([0-9a-f]{7})\]/.exec(text);
  assert.ok(m, `no recall marker in:\n${text}`);
  return m[1]!;
}

describe("the built-in library", () => {
  test("rtk verify --builtin runs every built-in's inline tests, all passing; rtk's own tests do not depend on the user's config", () => {
    const s = sandbox();
    write(s.userFile, `[limits]\nlist_tokens = 1\n`);
    const r = rtk(s, ["verify", "--builtin"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const n = LIBRARY_TEXTS.size;
    assert.ok(n >= 6, `only ${n} built-ins`);
    for (const name of LIBRARY_TEXTS.keys()) assert.match(r.stdout, new RegExp(`^ok +${name.replace(".", "\\.")}: \\d+ inline tests? passed`, "m"));
    assert.match(r.stdout, new RegExp(`^${n} built-in filters, \\d+ inline tests: \\d+ passed, 0 failed$`, "m"));
  });

  test("each file holds one valid filter named like it, with inline tests (one at least shorter than its input), and counts what it drops", () => {
    for (const name of LIBRARY_TEXTS.keys()) {
      const def = libraryFilter(name);
      assert.ok(def.tests.length >= 1, `${name}: no inline test`);
      assert.ok(
        def.tests.some((t) => t.expected.length < t.input.length),
        `${name}: no inline test shows it compacting`,
      );
      assert.notEqual(def.dropped, null, `${name}: the lines it drops must be counted (dropped = "…")`);
    }
  });

  test("every built-in has a route of its name, and every library route names a built-in, whose match accepts the route's command", () => {
    const routes = new Map(library.routes.map((r) => [r.id, r]));
    assert.deepEqual([...routes.keys()].sort(), [...LIBRARY_TEXTS.keys()].sort());
    for (const [name, row] of routes) {
      assert.equal(row.filter, name);
      assert.ok(FILTER_IDS.has(name), `${name} is not in the catalog`);
      const cmd = [row.tool, ...(row.sub ?? []).map((w) => (typeof w === "string" ? w : w[0]!)), "x"].join(" ");
      assert.match(cmd, libraryFilter(name).match, `${name}: its match does not accept ${cmd}`);
    }
  });

  test("the routes are active: the rewrite inserts rtk, explain names the route, help lists the tool", () => {
    const s = sandbox();
    const ex = rtk(s, ["explain", "bazel test //src:all"]);
    assert.match(ex.stdout, /rewrite +- +bazel +bazel test/);
    // A program that runs until stopped is not held back by a filter that prints at the end.
    assert.match(rtk(s, ["explain", "hugo server -D"]).stdout, /keep +indirect +hugo/);
    assert.match(rtk(s, ["explain", "bazel run //src:server"]).stdout, /keep +no-route/);
    // Media on stdout, listings, watchers and dev servers keep their own output.
    for (const cmd of ["ffmpeg -i in.wav -f mp3 -", "rsync --list-only backup:/srv/", "latexmk -pvc paper.tex", "turbo run dev", "cmake -E copy a b", "gulp watch", "cdk deploy --watch"])
      assert.match(rtk(s, ["explain", cmd]).stdout, /keep +indirect /, cmd);
    for (const cmd of ["nx run web:serve", "cdk synth", "vagrant destroy", "jekyll serve"]) assert.match(rtk(s, ["explain", cmd]).stdout, /keep +no-route /, cmd);
    // A hand-written filter's row of the same tool still comes first.
    assert.match(rtk(s, ["explain", "cmake --build build"]).stdout, /rewrite +- +cmake\.build /);
    assert.match(rtk(s, ["explain", "cmake -S . -B build"]).stdout, /rewrite +- +cmake /);
    assert.match(rtk(s, ["explain", "dotnet restore"]).stdout, /rewrite +- +dotnet\.restore /);
    const help = rtk(s, ["help"]);
    for (const tool of ["ninja", "bazel", "xcodebuild", "meson", "unzip"]) assert.match(help.stdout, new RegExp(`\\b${tool}\\b`));
  });

  test("every library route is active: the rewrite prefixes its command, help and the rules block name its tool", () => {
    const s = sandbox();
    const commands = library.routes.map((row) => [row.tool, ...(row.sub ?? []).map((w) => (typeof w === "string" ? w : w[0]!)), "x"].join(" "));
    const rewritten = rtk(s, ["rewrite", "--host", "none", commands.join(" && ")]);
    // 3: rewritten, and the host asks (no permission rule allows these commands).
    assert.equal(rewritten.status, 3, rewritten.stderr);
    assert.equal(rewritten.stdout.trim(), commands.map((c) => `rtk ${c}`).join(" && "));
    const help = rtk(s, ["help"]).stdout;
    const init = rtk(s, ["init", "--agent", "windsurf", "--project", "--dry-run"]);
    assert.equal(init.status, 0, init.stderr);
    // The dry run prints the block as a diff: its lines between the markers, each after a `+`.
    const begin = init.stdout.indexOf("<!-- rtk:begin -->\n");
    const block = init.stdout.slice(begin + "<!-- rtk:begin -->\n".length, init.stdout.indexOf("+<!-- rtk:end -->"));
    assert.ok(begin >= 0 && block.trim().split("\n").length < 15, `the rules block stays under 15 lines:\n${block}`);
    for (const row of library.routes) {
      assert.match(help, new RegExp(`[ ,]${row.tool.replace(/[.+]/g, "\\$&")}\\b`), `${row.tool}: not in rtk help`);
      assert.ok(block.includes(`\`${row.tool}\``), `${row.tool}: not in the rules block`);
    }
  });

  test("the hook bundle carries the built-ins' names, not their text", () => {
    const hot = readFileSync(join(ROOT, "dist/rtk-hot.cjs"), "utf8");
    const full = readFileSync(join(ROOT, "dist/rtk-run.cjs"), "utf8");
    for (const name of LIBRARY_TEXTS.keys()) {
      const marker = `dropped = ${JSON.stringify(libraryFilter(name).dropped)}`;
      assert.ok(full.includes(JSON.stringify(marker).slice(1, -1)) || full.includes(marker), `${name}: not in the run bundle`);
      assert.ok(!hot.includes(JSON.stringify(marker).slice(1, -1)) && !hot.includes(marker), `${name}: its text is in the hook bundle`);
      assert.ok(hot.includes(JSON.stringify(name)), `${name}: its id is not in the hook bundle`);
    }
  });
});

describe("a built-in on a real run", { skip: !hasNinja && "ninja or cc is not installed" }, () => {
  /** A ninja project of `n` C files, file `bad` with an undeclared name. */
  function project(dir: string, n: number, bad: number): void {
    mkdirSync(dir, { recursive: true });
    const rules = ["rule cc", "  command = cc -c $in -o $out", "rule link", "  command = cc $in -o $out"];
    const objs: string[] = [];
    for (let i = 1; i <= n; i++) {
      writeFileSync(join(dir, `f${i}.c`), i === bad ? `int f${i}(void){return missing_${i};}\n` : `int f${i}(void){return ${i};}\n`);
      rules.push(`build f${i}.o: cc f${i}.c`);
      objs.push(`f${i}.o`);
    }
    writeFileSync(join(dir, "main.c"), "int main(void){return 0;}\n");
    rules.push("build main.o: cc main.c", `build app: link main.o ${objs.join(" ")}`);
    writeFileSync(join(dir, "build.ninja"), rules.join("\n") + "\n");
  }

  test("ninja: progress lines go behind their exact count, the failed edge and the compiler's error stay, the exit code is ninja's, recall gives the raw output", () => {
    const s = sandbox();
    const dir = join(s.project, "nj");
    project(dir, 40, 25);
    const r = rtk(s, ["ninja", "-j1", "-k", "0"], { cwd: dir });
    assert.equal(r.status, 1, r.stderr);
    const id = recallId(r.stdout);
    const raw = rtk(s, ["recall", id]).stdout;
    const progress = raw.split("\n").filter((l) => /^\[\d+\/\d+\] /.test(l)).length;
    assert.ok(progress >= 40, raw);
    assert.match(r.stdout, /^FAILED: f25\.o\s*$/m);
    assert.match(r.stdout, /^f25\.c:1:\d+: error: .*missing_25/m);
    assert.match(r.stdout, /^ninja: build stopped: /m);
    assert.ok(r.stdout.endsWith(`… +${progress} progress lines hidden [rtk recall ${id}]\n`), r.stdout);
    assert.ok(r.stdout.length < raw.length / 2, r.stdout);
  });

  test("a user's filter named like a built-in replaces it; rtk config says where each filter came from", () => {
    const s = sandbox();
    const dir = join(s.project, "nj");
    project(dir, 20, 0);
    write(s.userFile, `[[filters]]\nname = "ninja"\nmatch = "^ninja"\nkeep_lines = ["^\\\\[20/"]\n`);
    const r = rtk(s, ["ninja", "-j1"], { cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\[20\/22\] cc -c f\d+\.c -o f\d+\.o\n$/);
    const listed = rtk(s, ["config", "--filters"]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^ninja +user +${s.userFile.replace(/[.]/g, "\\.")}:1 +0 tests$`, "m"));
    assert.match(listed.stdout, /^ninja +builtin +builtin:ninja\.toml +\d+ tests, replaced by a filter of the same name$/m);
    assert.match(listed.stdout, /^bazel +builtin +builtin:bazel\.toml +\d+ tests$/m);
    const json = JSON.parse(rtk(s, ["config", "--json"]).stdout) as { filters: { name: string; source: string }[]; replaced: { name: string; source: string }[] };
    assert.deepEqual(json.filters.find((f) => f.name === "ninja")?.source, "user");
    assert.deepEqual(
      json.replaced.map((f) => [f.name, f.source]),
      [["ninja", "builtin"]],
    );
    assert.match(rtk(s, ["config"]).stdout, /# \d+ built-in declarative filters; replaced by a filter of the same name: ninja/);
  });
});

describe("rsync's built-in on a real run", { skip: !hasRsync && "rsync is not installed" }, () => {
  test("rsync -av: the file list goes behind its exact count, the created folder and the totals stay, recall gives every path", () => {
    const s = sandbox();
    const src = join(s.project, "site");
    mkdirSync(join(src, "posts"), { recursive: true });
    for (let i = 1; i <= 40; i++) writeFileSync(join(src, "posts", `post-${i}.html`), `<p>${i}</p>\n`);
    writeFileSync(join(src, "index.html"), "<p>home</p>\n");
    const r = rtk(s, ["rsync", "-av", "site/", "copy/"]);
    assert.equal(r.status, 0, r.stderr);
    const id = recallId(r.stdout);
    const raw = rtk(s, ["recall", id]).stdout;
    for (let i = 1; i <= 40; i++) assert.match(raw, new RegExp(`^posts/post-${i}\\.html$`, "m"));
    assert.doesNotMatch(r.stdout, /post-\d+\.html/);
    assert.match(r.stdout, /^created directory copy$/m);
    assert.match(r.stdout, /^sent [\d,]+ bytes +received [\d,]+ bytes/m);
    assert.match(r.stdout, /^total size is [\d,]+ +speedup is /m);
    // Three lines kept (created, sent, total); every other line of the run is counted.
    const hidden = raw.replace(/\n$/, "").split("\n").length - 3;
    assert.equal(r.stdout.split("\n").length, 3 + 2, r.stdout);
    assert.ok(r.stdout.endsWith(`… +${hidden} transferred file lines hidden [rtk recall ${id}]\n`), r.stdout);
  });
});

describe("ctest's built-in on a real run", { skip: !hasCtest && "cmake or ctest is not installed" }, () => {
  test("ctest: Start and Passed lines go behind their exact count; the failed test, its verdict and ctest's exit code stay", () => {
    const s = sandbox();
    const dir = join(s.project, "ct");
    mkdirSync(dir, { recursive: true });
    const tests = Array.from({ length: 12 }, (_, i) => `add_test(NAME ok_${i + 1} COMMAND sh -c "exit 0")`);
    writeFileSync(
      join(dir, "CMakeLists.txt"),
      ["cmake_minimum_required(VERSION 3.10)", "project(t NONE)", "enable_testing()", ...tests, 'add_test(NAME depth_check COMMAND sh -c "echo depth 2 != 3; exit 1")'].join("\n") + "\n",
    );
    assert.equal(spawnSync("cmake", ["-S", ".", "-B", "build"], { cwd: dir }).status, 0);
    const r = rtk(s, ["ctest", "--output-on-failure"], { cwd: join(dir, "build") });
    assert.equal(r.status, 8, r.stderr);
    const id = recallId(r.stdout);
    const raw = rtk(s, ["recall", id]).stdout;
    const hidden = raw.split("\n").filter((l) => /^ *Start +\d+: /.test(l) || / Passed +[\d.]+ sec$/.test(l)).length;
    assert.equal(hidden, 25, raw);
    assert.match(r.stdout, /^13\/13 Test #13: depth_check \.+\*\*\*Failed /m);
    assert.match(r.stdout, /^depth 2 != 3$/m);
    assert.match(r.stdout, /^92% tests passed, 1 tests failed out of 13$/m);
    assert.doesNotMatch(r.stdout, /ok_\d+/);
    assert.ok(r.stdout.endsWith(`… +${hidden} start, passed and search-path lines hidden [rtk recall ${id}]\n`), r.stdout);
  });
});

describe("unittest's built-in on a real run", { skip: !hasPython && "python3 is not installed" }, () => {
  test("python3 -m unittest -v: passing tests go behind their exact count; the failure's traceback, the count and the verdict stay", () => {
    const s = sandbox();
    const dir = join(s.project, "ut");
    mkdirSync(join(dir, "tests"), { recursive: true });
    writeFileSync(join(dir, "tests", "__init__.py"), "");
    const cases = Array.from({ length: 20 }, (_, i) => `    def test_ok_${i + 1}(self):\n        self.assertTrue(True)\n`);
    writeFileSync(join(dir, "tests", "test_m.py"), `import unittest\n\nclass T(unittest.TestCase):\n${cases.join("")}    def test_depth(self):\n        self.assertEqual(2, 3, "depth")\n`);
    const r = rtk(s, ["python3", "-m", "unittest", "-v"], { cwd: dir });
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stderr, /^FAIL: test_depth \(tests\.test_m\.T(\.test_depth)?\)$/m);
    assert.match(r.stderr, /^AssertionError: 2 != 3 : depth$/m);
    assert.match(r.stderr, /^Ran 21 tests in /m);
    assert.match(r.stderr, /^FAILED \(failures=1\)$/m);
    assert.doesNotMatch(r.stderr, /test_ok_\d+/);
    // 20 passing tests and three rules: above and below the failure's heading, above the count.
    assert.match(r.stdout, /^… \+23 passing-test, progress and rule lines hidden \[rtk recall [0-9a-f]{7}\]\n$/);
  });
});

describe("dropped: the lines a declarative filter drops are counted", () => {
  test("a user's filter with dropped ends stdout with the exact count and a recall handle; without it nothing is added", () => {
    const s = sandbox();
    const cmd = ["sh", "-c", "i=1; while [ $i -le 50 ]; do echo \"progress $i\"; i=$((i+1)); done; echo 'error: bad thing at x.c:3'; echo done"];
    write(s.userFile, `[[filters]]\nname = "p"\nmatch = "^sh -c"\nstrip_lines = ["^progress "]\ndropped = "progress lines"\n`);
    const r = rtk(s, cmd);
    assert.equal(r.status, 0, r.stderr);
    const id = recallId(r.stdout);
    assert.equal(r.stdout, `error: bad thing at x.c:3\ndone\n… +50 progress lines hidden [rtk recall ${id}]\n`);
    write(s.userFile, `[[filters]]\nname = "p"\nmatch = "^sh -c"\nstrip_lines = ["^progress "]\n`);
    assert.equal(rtk(s, cmd).stdout, "error: bad thing at x.c:3\ndone\n");
  });

  test("dropped must be a non-empty string", () => {
    const s = sandbox();
    write(s.userFile, `[[filters]]\nname = "p"\nmatch = "^sh"\ndropped = ""\n`);
    const r = rtk(s, ["verify"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /config\.toml:4: filters\[0\]\.dropped: must not be empty/);
  });
});
