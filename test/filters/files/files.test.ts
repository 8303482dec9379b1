// The listing, search and content filters on real output: a project built in
// a temporary folder, each invocation run plainly and through the built
// `bin/rtk`, then (1) the compact output against its golden file, (2) every
// fact of the raw output present or behind an exact marker whose recall entry
// holds it, (3) the same exit code, (4) never longer than the raw output,
// (5) savings on the medium fixtures. Then stdin, streaming (`tail -f`, a
// FIFO), env masking, and the filters in-process (the shared peer fixture,
// parsers, memory bounds).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseLongLine, ls } from "../../../src/filters/files/ls.js";
import { treeEntry, tree } from "../../../src/filters/files/tree.js";
import { groupPaths, find } from "../../../src/filters/files/find.js";
import { grep, parseNamed } from "../../../src/filters/files/grep.js";
import { content } from "../../../src/filters/files/content.js";
import { wc } from "../../../src/filters/files/wc.js";
import { env as envFilter, isSecretName, maskValue } from "../../../src/filters/files/env.js";
import { humanSize } from "../../../src/filters/files/common.js";
import { diskProbe } from "../../../src/fs/probe.js";
import type { CompactOutput, Filter, FilterInput } from "../../../src/filters/types.js";
import type { Limits } from "../../../src/filters/budget.js";
import { allRoutes } from "../../../src/routes/registry.js";
import {
  FIXTURES,
  ROOT,
  RTK,
  buildProject,
  buildVendor,
  checkContent,
  checkFind,
  checkGrep,
  checkLs,
  checkTree,
  checkWc,
  LINES_MARKER,
  envFacts,
  findFacts,
  grepFacts,
  numberedGrep,
  hasTool,
  lsLongFacts,
  lsPlainFacts,
  markers,
  normalizeIds,
  readCompactFind,
  runPlain,
  runRtk,
  savings,
  testEnv,
  treeFacts,
  wcFacts,
  type FactCheck,
  type Fixture,
  type Ran,
} from "./fixtures.js";

const GOLDEN = join(ROOT, "test", "filters", "golden", "files");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";

let root = "";
let project = "";
let env: Record<string, string> = {};

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
  root = mkdtempSync(join(tmpdir(), "rtk-files-"));
  project = join(root, "project");
  mkdirSync(project);
  for (const d of ["home", "data", "config"]) mkdirSync(join(root, d));
  buildProject(project);
  buildVendor(project, 2500);
  env = testEnv(root);
});

after(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const recalled = new Map<string, string>();
function recall(id: string): string {
  let text = recalled.get(id);
  if (text === undefined) {
    const r = runRtk(["recall", id], project, env);
    assert.equal(r.status, 0, `rtk recall ${id}: ${r.stderr}`);
    text = r.stdout;
    recalled.set(id, text);
  }
  return text;
}

/** The argv the filter executes: the presentation flags right after the tool word. */
function executed(fx: Fixture): string[] {
  return [fx.argv[0]!, ...(fx.presentation ?? []), ...fx.argv.slice(1)];
}

function size(r: Ran): number {
  return Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
}

function lines(text: string): string[] {
  const l = text.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}

function factCheck(fx: Fixture, raw: string, compact: string): FactCheck {
  switch (fx.kind) {
    case "ls":
      return checkLs(lsLongFacts(raw), compact, recall);
    case "ls-plain":
      return checkLs(lsPlainFacts(raw), compact, recall);
    case "tree":
      return checkTree(treeFacts(raw), compact, recall);
    case "find":
      return checkFind(findFacts(raw), compact, recall);
    case "grep":
    case "grep-single":
      return checkGrep(grepFacts(raw, fx.kind === "grep", numberedGrep(fx.argv)), compact, fx.kind === "grep", recall, numberedGrep(fx.argv));
    case "content": {
      const c = checkContent(raw, compact, recall);
      assert.ok(c.aligned, "the compact content is the raw lines in order, with markers");
      return c;
    }
    case "wc":
      return checkWc(wcFacts(raw), compact, recall);
    case "env":
      throw new Error("env fixtures are checked on their own");
  }
}

function golden(name: string, r: Ran): void {
  const text = normalizeIds(r.stdout) + (r.stderr ? `--- stderr\n${normalizeIds(r.stderr)}` : "") + `--- exit ${r.status}\n`;
  assert.ok(!text.includes(root), `${name}: the golden text holds the temporary folder`);
  const file = join(GOLDEN, `${name}.txt`);
  if (UPDATE || !existsSync(file)) {
    assert.ok(UPDATE, `${file} is missing (run with RTK_UPDATE_GOLDEN=1 to write it)`);
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  assert.equal(text, readFileSync(file, "utf8"), `${name}: compact output differs from its golden file`);
}

const measured: { name: string; raw: number; compact: number; pct: number }[] = [];

describe("real output: compact, faithful, same exit code, never longer", () => {
  for (const fx of FIXTURES) {
    const skip = fx.needs && !hasTool(fx.needs) ? `${fx.needs} is not installed: skipped` : false;
    test(fx.name, { skip }, (t) => {
      const e = { ...env, ...fx.env };
      const plain = runPlain(fx.argv, project, e);
      const raw = fx.presentation ? runPlain(executed(fx), project, e) : plain;
      const r = runRtk(fx.argv, project, e);
      assert.equal(r.status, plain.status, `exit code of ${fx.argv.join(" ")}`);
      assert.ok(size(r) <= size(raw), `compact ${size(r)} B is longer than raw ${size(raw)} B`);
      for (const l of lines(raw.stderr)) assert.ok(lines(r.stderr).includes(l), `stderr line kept: ${l}`);
      if (r.stdout !== raw.stdout) {
        const check = factCheck(fx, raw.stdout, r.stdout);
        assert.deepEqual(
          check.lost.map((f) => f.raw),
          [],
          "facts neither shown nor recallable",
        );
        assert.equal(check.hidden.length, check.markedCount, "omission counts are exact");
        for (const m of markers(r.stdout)) assert.notEqual(m.id, "unavailable");
      }
      if (fx.golden) golden(fx.name, r);
      if (fx.savingsFloor !== undefined || fx.report) {
        const pct = savings(plain.stdout + plain.stderr, r.stdout + r.stderr);
        measured.push({ name: fx.name, raw: Buffer.byteLength(plain.stdout), compact: Buffer.byteLength(r.stdout), pct });
        t.diagnostic(`${fx.name}: ${pct}% saved (${Buffer.byteLength(plain.stdout)} → ${Buffer.byteLength(r.stdout)} bytes)`);
        if (fx.savingsFloor !== undefined) assert.ok(pct >= fx.savingsFloor, `${fx.name}: ${pct}% saved, floor ${fx.savingsFloor}%`);
      }
    });
  }

  test("savings on the medium fixtures (bytes/4 tokens)", (t) => {
    for (const m of measured) t.diagnostic(`${m.name.padEnd(20)} ${String(m.raw).padStart(6)} B → ${String(m.compact).padStart(6)} B  ${m.pct}%`);
  });
});

describe("the fixtures say what they should", () => {
  test("ls -la drops columns, keeps names, types and sizes", () => {
    const r = runRtk(["ls", "-la"], project, env);
    assert.ok(r.stdout.includes("src/\n") && r.stdout.includes("config.ts -> src/lib/config.ts\n"));
    assert.ok(r.stdout.includes("scripts/\n") && r.stdout.includes("package.json  "));
    const [entries, marker] = [lines(r.stdout).slice(0, -1), lines(r.stdout).at(-1)!];
    assert.ok(!/rw-|root|total|Mar 15/.test(entries.join("\n")), r.stdout);
    // The scripts are executables, 755 where the files are 644: that mode is a fact of its own.
    assert.ok(r.stdout.includes("scripts/\n"));
    assert.match(marker, /^\(mode\/owner\/date of \d+ entries left out \[rtk recall [0-9a-f]{7}\]\)$/);
  });

  test("ls long-format variants keep every name and the exit code", () => {
    const names = lines(runPlain(["ls", "-1a", "src/lib"], project, env).stdout).filter((n) => n !== "." && n !== "..");
    const variants = [
      ["-lai"],
      ["-lg"],
      ["-lo"],
      ["-ln"],
      ["-lh"],
      ["-l", "--full-time"],
      ["-l", "--time-style=long-iso"],
      ["-l", "--time-style=iso"],
      ["-lZ"],
      ["-l", "--author"],
      ["-ls"],
      ["-l", "--time-style=+%s"],
      ["-lQ"],
      ["-l", "--si"],
      ["-lF"],
      ["-la", "--group-directories-first"],
      ["-lU"],
      ["-lt", "-r"],
    ];
    for (const v of variants) {
      const argv = ["ls", ...v, "src/lib"];
      const plain = runPlain(argv, project, env);
      const r = runRtk(argv, project, env);
      assert.equal(r.status, plain.status, argv.join(" "));
      assert.ok(size(r) <= size(plain), argv.join(" "));
      for (const n of names) assert.ok(r.stdout.includes(v.includes("-lQ") ? `"${n}"` : n), `${argv.join(" ")}: ${n}\n${r.stdout}`);
    }
  });

  test("plain ls is kept as plain ls prints it (no flag that would lengthen it)", () => {
    const r = runRtk(["ls", "src"], project, env);
    assert.deepEqual(lines(r.stdout), ["app", "components", "hooks", "lib", "types"]);
  });

  test("past the budget, omissions say exactly how much they hid; below it nothing is hidden", () => {
    const f = runRtk(["find", "vendor"], project, env);
    const total = lines(runPlain(["find", "vendor"], project, env).stdout).length;
    const fm = /\n… \+(\d+) more paths \[rtk recall [0-9a-f]{7}\]: vendor\/pkg-\d+\/lib\/ \(\d+\), .*, \d+ more dirs\n$/.exec(f.stdout);
    assert.ok(fm, f.stdout.slice(-400));
    assert.equal(readCompactFind(f.stdout.slice(0, fm.index + 1)).size + Number(fm[1]), total);
    assert.ok(f.stdout.length <= 8000 && f.stdout.length > 7000, `${f.stdout.length} characters for a budget of 2000 tokens`);
    const g = runRtk(["grep", "-rn", "export const", "src/lib"], project, env);
    assert.ok(!g.stdout.includes("…"), "40 matches of one file fit the budget: all shown");
    assert.equal(lines(g.stdout).length, 1 + 40);
    const all = runRtk(["grep", "-rn", "-e", "import", "-e", "export", "-e", "return", "src", "test"], project, env);
    const marker = /\n… \+(\d+) more matches in (\d+) more files \[rtk recall [0-9a-f]{7}\]: (.+)\n$/.exec(all.stdout);
    assert.ok(marker, all.stdout.slice(-500));
    // Each entry a file with its count, or a directory followed by its files with theirs; the files the marker has no room to name are counted last.
    const entries = marker[3]!.split(", ");
    const unnamed = /^(\d+) more$/.exec(entries.at(-1)!);
    if (unnamed) entries.pop();
    const counts = entries.map((e) => {
      const m = /^\S+ \((\d+)\)$/.exec(e) ?? /^\S+\/((?: \S+ \(\d+\))+)$/.exec(e);
      assert.ok(m, `entry ${JSON.stringify(e)}`);
      return [...m[0].matchAll(/\((\d+)\)/g)].map((c) => Number(c[1]));
    });
    assert.equal(counts.flat().length + Number(unnamed?.[1] ?? 0), Number(marker[2]));
    if (unnamed) assert.ok(counts.flat().reduce((a, b) => a + b, 0) < Number(marker[1]));
    else
      assert.equal(
        counts.flat().reduce((a, b) => a + b, 0),
        Number(marker[1]),
      );
    assert.ok(all.stdout.length <= 8000 && all.stdout.length > 7000, `${all.stdout.length} characters for a budget of 2000 tokens`);
  });

  test("structured and already compact modes pass through unchanged", (t) => {
    const cases: string[][] = [
      ["grep", "-rl", "useState", "src"],
      ["grep", "-c", "export", "src/lib/api.ts", "src/lib/db.ts"],
      ["find", "src/types", "-printf", "%p %s\\n"],
      ["ls", "-m", "src"],
    ];
    if (hasTool("rg")) cases.push(["rg", "--json", "useAuth", "src/hooks"], ["rg", "--files", "src/hooks"]);
    else t.diagnostic("rg is not installed: its pass-through cases skipped");
    if (hasTool("tree")) cases.push(["tree", "-J", "src/types"]);
    else t.diagnostic("tree is not installed: its pass-through case skipped");
    // rg --json reports its own timings.
    const timeless = (s: string) => s.replace(/"(elapsed|elapsed_total)":\{[^}]*\}/g, '"$1":{}');
    for (const argv of cases) {
      const plain = runPlain(argv, project, env);
      const r = runRtk(argv, project, env);
      assert.equal(timeless(r.stdout), timeless(plain.stdout), argv.join(" "));
      assert.equal(r.status, plain.status, argv.join(" "));
    }
  });

  test("(6) stdin passes through: printf 'a\\nb' | rtk cat", () => {
    const r = runRtk(["cat"], project, env, "a\nb");
    assert.equal(r.stdout, "a\nb");
    assert.equal(r.status, 0);
  });
});

/** Waits until `text` has arrived on the child's stdout, or fails after `ms`. */
function waitFor(out: { text: string }, text: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if (out.text.includes(text)) return resolve();
      if (Date.now() - started > ms) return reject(new Error(`no ${JSON.stringify(text)} within ${ms} ms; got ${JSON.stringify(out.text)}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

describe("(7) follow invocations stream", () => {
  test("tail -f prints each line as it arrives, before the command exits", async () => {
    const log = join(root, "follow.log");
    writeFileSync(log, "first line\n");
    const child = spawn(RTK, ["tail", "-f", log], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
    const out = { text: "" };
    let exited = false;
    child.stdout.on("data", (b: Buffer) => (out.text += b.toString()));
    const closed = new Promise<number | null>((resolve) =>
      child.on("close", (code, signal) => {
        exited = true;
        resolve(code ?? (signal ? 128 + 15 : null));
      }),
    );
    await waitFor(out, "first line\n", 15000);
    assert.equal(exited, false, "the first line appeared while tail was still running");
    appendFileSync(log, "second line\n");
    await waitFor(out, "second line\n", 15000);
    assert.equal(exited, false);
    child.kill("SIGTERM");
    assert.equal(await closed, 143, "SIGTERM is forwarded: 128 + 15");
    assert.equal(out.text, "first line\nsecond line\n");
  });

  test("cat of a FIFO prints a line before the writer closes it", async (t) => {
    const fifo = join(root, "pipe.fifo");
    if (spawnSync("mkfifo", [fifo]).status !== 0) return t.skip("mkfifo failed");
    const child = spawn(RTK, ["cat", fifo], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
    const out = { text: "" };
    child.stdout.on("data", (b: Buffer) => (out.text += b.toString()));
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    // The write end opens (without blocking) once cat has opened the read end.
    const fd = await new Promise<number>((resolve, reject) => {
      const started = Date.now();
      const attempt = () => {
        try {
          resolve(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch (e) {
          if (Date.now() - started > 15000) reject(e as Error);
          else setTimeout(attempt, 20);
        }
      };
      attempt();
    });
    writeSync(fd, "one\n");
    await waitFor(out, "one\n", 15000);
    writeSync(fd, "two\n");
    closeSync(fd);
    assert.equal(await closed, 0);
    assert.equal(out.text, "one\ntwo\n");
  });

  test("tail -f | head -2 on a file nobody writes to ends at once, with tail's broken-pipe status", () => {
    const log = join(root, "idle.log");
    writeFileSync(log, Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const started = Date.now();
    const r = spawnSync("bash", ["-c", `${JSON.stringify(RTK)} tail -f ${JSON.stringify(log)} | head -2; echo "status \${PIPESTATUS[0]}"`], { cwd: project, env, encoding: "utf8", timeout: 20000 });
    assert.equal(r.stdout, "line 491\nline 492\nstatus 141\n", r.stderr);
    assert.ok(Date.now() - started < 10000, "it did not wait for the file to grow");
  });

  test("the bytes of a device or a process substitution come through as they are: no newline added, no byte replaced", () => {
    const zeros = spawnSync(RTK, ["head", "-c", "5", "/dev/zero"], { cwd: project, env });
    assert.deepEqual([...zeros.stdout], [0, 0, 0, 0, 0]);
    const random = spawnSync(RTK, ["head", "-c", "64", "/dev/urandom"], { cwd: project, env });
    assert.equal(random.stdout.length, 64);
    const sub = spawnSync("bash", ["-c", `${JSON.stringify(RTK)} cat <(printf 'caf\\xe9')`], { cwd: project, env });
    assert.deepEqual([...sub.stdout], [0x63, 0x61, 0x66, 0xe9]);
  });
});

describe("verbatim where agents act on output", () => {
  /** Python, YAML and a Makefile with indented, tab-indented and trailing-space lines. */
  const files: Record<string, string> = {
    "app.py": "class A:\n    def run(self):\n        if self.ok:  \n            return 1\n\treturn 2\n",
    "conf.yaml": "root:\n  child:\n    return: 3   \n  other: x\n",
    Makefile: "all:\n\t@echo return\t \nclean:\n\trm -rf out  # return\n",
  };
  const make = () => {
    const dir = join(root, "verbatim");
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };

  const cases: { argv: string[]; needs?: string }[] = [
    { argv: ["grep", "-rn", "return", "."] },
    { argv: ["grep", "-rn", "-C", "1", "return", "."] },
    { argv: ["grep", "-n", "return", "app.py", "conf.yaml", "Makefile"] },
    { argv: ["grep", "-r", "return", "."] },
    { argv: ["rg", "-n", "return", "."], needs: "rg" },
    { argv: ["rg", "-n", "-C", "1", "return", "."], needs: "rg" },
  ];
  for (const c of cases) {
    test(`${c.argv.join(" ")}: every line after its file name byte for byte`, { skip: c.needs && !hasTool(c.needs) ? `${c.needs} is not installed` : false }, () => {
      const dir = make();
      const raw = lines(runPlain(c.argv, dir, env).stdout).filter((l) => l !== "--");
      const r = runRtk(c.argv, dir, env);
      assert.equal(r.status, 0);
      const shown = lines(r.stdout);
      assert.ok(!r.stdout.includes("…"), "below the budget nothing is omitted");
      for (const l of raw) {
        const name = Object.keys(files).find((f) => l.startsWith(`./${f}`) || l.startsWith(f));
        assert.ok(name, l);
        const prefix = l.startsWith("./") ? `./${name}` : name;
        const rest = l.slice(prefix.length + 1);
        const header = shown.indexOf(name);
        assert.ok(header >= 0, `${name} is named:\n${r.stdout}`);
        let end = header + 1;
        while (end < shown.length && shown[end]!.startsWith("  ")) end++;
        assert.ok(shown.slice(header + 1, end).includes(`  ${rest}`), `${JSON.stringify(l)} kept as ${JSON.stringify(`  ${rest}`)}:\n${r.stdout}`);
      }
    });
  }

  test("grep -n in one file: the output is grep's, byte for byte", () => {
    const dir = make();
    for (const argv of [
      ["grep", "-n", "return", "app.py"],
      ["grep", "-n", "-C1", "return", "Makefile"],
      ["grep", "return", "conf.yaml"],
    ]) {
      assert.equal(runRtk(argv, dir, env).stdout, runPlain(argv, dir, env).stdout, argv.join(" "));
    }
  });

  test("ls -la keeps every fact that differs from the ordinary: a private file or folder, a setuid program, an executable, a symlink, another owner", () => {
    const dir = join(root, "modes");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const f of ["a.txt", "b.txt", "c.txt", "d.txt"]) writeFileSync(join(dir, f), "x\n");
    for (const d of ["lib", "src"]) mkdirSync(join(dir, d));
    writeFileSync(join(dir, "secret"), "s\n", { mode: 0o600 });
    mkdirSync(join(dir, "private"), { mode: 0o700 });
    writeFileSync(join(dir, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    writeFileSync(join(dir, "suid"), "x\n", { mode: 0o755 });
    spawnSync("chmod", ["4755", join(dir, "suid")]);
    spawnSync("chmod", ["600", join(dir, "secret")]);
    spawnSync("chmod", ["700", join(dir, "private")]);
    spawnSync("ln", ["-s", "a.txt", join(dir, "link")]);
    const root_ = typeof process.getuid === "function" && process.getuid() === 0;
    if (root_) {
      writeFileSync(join(dir, "theirs.txt"), "t\n");
      spawnSync("chown", ["nobody", join(dir, "theirs.txt")]);
    }
    const r = runRtk(["ls", "-la"], dir, env);
    assert.equal(r.status, 0);
    const out = lines(r.stdout);
    assert.ok(out.includes("secret  2  -rw-------"), r.stdout);
    assert.ok(out.includes("private/  drwx------"), r.stdout);
    assert.ok(out.includes("run.sh*  10  -rwxr-xr-x"), r.stdout);
    assert.ok(out.includes("suid*  2  -rwsr-xr-x"), r.stdout);
    assert.ok(out.includes("link -> a.txt"), r.stdout);
    assert.ok(out.includes("a.txt  2") && out.includes("lib/") && out.includes("src/"), "the ordinary entries: name, type and size only");
    if (root_)
      assert.ok(
        out.some((l) => /^theirs\.txt {2}2 {2}nobody \S+$/.test(l)),
        r.stdout,
      );
    const marker = /^\(mode\/owner\/date of (\d+) entries left out \[rtk recall ([0-9a-f]{7})\]\)$/.exec(out.at(-1)!);
    assert.ok(marker, r.stdout);
    // The marker's recall entry holds every column left out.
    const raw = runRtk(["recall", marker[2]!], dir, env).stdout;
    for (const name of ["secret", "private", "a.txt", "link -> a.txt"]) assert.match(raw, new RegExp(`^[-dl]r.* ${name.replace(/[.]/g, "\\.")}$`, "m"));
  });

  test("ls -l --full-time keeps the dates; plain ls -l names them in the marker", () => {
    const dir = join(root, "modes");
    const timed = lines(runRtk(["ls", "-l", "--full-time"], dir, env).stdout);
    for (const l of timed.slice(0, -1)) assert.match(l, / {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [-+]\d{4}$/);
    assert.match(timed.at(-1)!, /^\(mode\/owner of \d+ entries left out/, "the dates were asked for: only mode and owner are left out");
    const plain = runRtk(["ls", "-l"], dir, env).stdout;
    assert.ok(!/\d\d:\d\d/.test(lines(plain).slice(0, -1).join("\n")), plain);
    assert.match(plain, /^\(mode\/owner\/date of/m);
  });
});

describe("file content is cut only past the content budget", () => {
  /** A source file of `n` lines with indentation, tabs and trailing spaces. */
  const source = (n: number) => Array.from({ length: n }, (_, i) => (i % 3 === 0 ? `def f${i}(x):  ` : i % 3 === 1 ? `\tif x > ${i}:` : `        return x * ${i}   `)).join("\n") + "\n";

  test("cat of a 372-line file, head -300 and tail -n 200 of it: unchanged, byte for byte", () => {
    const dir = join(root, "budget-content");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "mod.py"), source(372));
    for (const argv of [
      ["cat", "mod.py"],
      ["head", "-300", "mod.py"],
      ["tail", "-n", "200", "mod.py"],
    ]) {
      const plain = runPlain(argv, dir, env);
      const r = runRtk(argv, dir, env);
      assert.equal(r.stdout, plain.stdout, argv.join(" "));
      assert.equal(r.status, 0);
    }
  });

  test("past the budget: head and tail within it, the hidden range named, and rtk recall --lines prints that range byte for byte", () => {
    const dir = join(root, "budget-content-big");
    mkdirSync(dir, { recursive: true });
    const text = source(5000);
    writeFileSync(join(dir, "big.py"), text);
    const raw = lines(text);
    const r = runRtk(["cat", "big.py"], dir, env);
    assert.equal(r.status, 0);
    assert.ok(r.stdout.length <= 30_000 && r.stdout.length > 29_000, `${r.stdout.length} characters: cut to the budget, not below`);
    const shown = lines(r.stdout);
    const at = shown.findIndex((l) => LINES_MARKER.test(l));
    const m = LINES_MARKER.exec(shown[at]!)!;
    const [first, last] = [Number(m[1]), Number(m[2])];
    assert.deepEqual(shown.slice(0, at), raw.slice(0, first - 1), "the head is the file's first lines");
    assert.deepEqual(shown.slice(at + 1), raw.slice(last), "the tail is the file's last lines");
    assert.equal(Number(m[3]), last - first + 1);
    const back = runRtk(["recall", m[4]!, "--lines", `${first}-${last}`], dir, env);
    assert.equal(back.status, 0, back.stderr);
    assert.equal(back.stdout, raw.slice(first - 1, last).join("\n") + "\n");
    for (const bad of ["5-3", "0-2", "x", "3-"]) {
      const b = runRtk(["recall", m[4]!, "--lines", bad], dir, env);
      assert.equal(b.status, 2, bad);
      assert.match(b.stderr, /--lines takes a range A-B/);
    }
  });

  test("[limits] content_chars sets the budget", () => {
    const dir = join(root, "budget-content-config");
    mkdirSync(join(dir, "config", "rtk"), { recursive: true });
    writeFileSync(join(dir, "config", "rtk", "config.toml"), "[limits]\ncontent_chars = 2000\n");
    writeFileSync(join(dir, "mod.py"), source(372));
    const r = runRtk(["cat", "mod.py"], dir, { ...env, XDG_CONFIG_HOME: join(dir, "config") });
    assert.ok(r.stdout.length <= 2000, `${r.stdout.length} characters`);
    assert.match(r.stdout, /^… lines \d+–\d+ \(\d+\) omitted \[rtk recall [0-9a-f]{7} --lines \d+-\d+\]$/m);
  });
});

describe("a CR or an escape byte in a name or in a file's line is content", () => {
  test("find, ls -l and grep keep a CR that is part of a name or of a matched line; the head and tail of a huge file keep theirs", () => {
    const dir = join(root, "cr-names");
    mkdirSync(dir, { recursive: true });
    for (const n of ["evil\rname", "trail\r", ...Array.from({ length: 12 }, (_, i) => `f${i}`)]) writeFileSync(join(dir, n), "");
    writeFileSync(join(dir, "midcr.txt"), "progress 10%\rfoo after cr\n");
    const found = runRtk(["find", "."], dir, env).stdout;
    assert.match(found, /^\$'evil\\rname'$/m, "a CR in a name, spelled out");
    assert.match(found, /^\$'trail\\r'$/m);
    const listed = runRtk(["ls", "-l"], dir, env).stdout;
    assert.match(listed, /^evil\rname  0$/m);
    assert.match(runRtk(["grep", "-rn", "foo", "."], dir, env).stdout, /progress 10%\rfoo after cr/);
    const big = join(dir, "big.log");
    writeFileSync(big, Array.from({ length: 3000 }, (_, i) => `line ${i}\r\x1b[1mbold\x1b[0m`).join("\n") + "\n");
    const cat = runRtk(["cat", big], dir, env).stdout;
    assert.match(cat, /^line 0\r\x1b\[1mbold\x1b\[0m$/m);
    assert.match(cat, /^line 2999\r\x1b\[1mbold\x1b\[0m$/m);
    assert.match(cat, /^… lines \d+–\d+ \(\d+\) omitted \[rtk recall [0-9a-f]{7} --lines \d+-\d+\]$/m);
  });
});

describe("content that is not UTF-8 text comes out byte for byte", () => {
  /** Bytes of every value, NULs and invalid UTF-8 among them, the same on every run. */
  function binary(size: number): Buffer {
    const b = Buffer.alloc(size);
    let x = 12345;
    for (let i = 0; i < size; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      b[i] = x >>> 24;
    }
    return b;
  }
  const latin1 = (lines: number) => Buffer.from(Array.from({ length: lines }, (_, i) => `caf\xe9 na\xefve l\xednea ${i}\n`).join(""), "latin1");

  test("rtk cat f | cmp - f: a binary file, small or huge, and a huge Latin-1 text file", () => {
    const dir = join(root, "bytes");
    mkdirSync(dir, { recursive: true });
    const files = { "small.bin": binary(3000), "huge.bin": binary(300_000), "latin1.txt": latin1(2000) };
    for (const [name, bytes] of Object.entries(files)) {
      writeFileSync(join(dir, name), bytes);
      const r = spawnSync("bash", ["-c", `${JSON.stringify(RTK)} cat "$1" | cmp - "$1"`, "bash", name], { cwd: dir, env, encoding: "utf8" });
      assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`);
    }
  });

  test("head -n 5 and tail -n 5 of a Latin-1 file print what head and tail print, byte for byte", () => {
    const dir = join(root, "bytes-ht");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "l.txt"), latin1(500));
    for (const argv of [
      ["head", "-n", "5", "l.txt"],
      ["tail", "-n", "5", "l.txt"],
      ["head", "-n", "400", "l.txt"],
    ]) {
      const plain = spawnSync(argv[0]!, argv.slice(1), { cwd: dir, env });
      const r = spawnSync(RTK, argv, { cwd: dir, env });
      assert.equal(r.status, 0, String(r.stderr));
      assert.ok(Buffer.compare(r.stdout, plain.stdout) === 0, argv.join(" "));
    }
  });
});

describe("env and printenv mask secrets, keep every name", () => {
  const secrets = {
    GITHUB_TOKEN: "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
    AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    DB_PASSWORD: "hunter2hunter2",
    OPENAI_API_KEY: "sk-proj-abcdefghijklmnopqrstuvwx",
    SESSION_COOKIE: "s%3Aabcdef.ghijkl",
    NPM_CONFIG__AUTH: "dXNlcjpwYXNz",
    ci_deploy_key: "abcdef0123456789",
    PIN_AUTH: "42",
    INNOCENT_LOOKING: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
    SLACK_WEBHOOK: "https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX",
    SENTRY_DSN: "https://0123456789abcdef0123@o123.ingest.sentry.io/1234",
  };
  const plainVars = {
    EDITOR: "vim",
    TOKENIZERS_PARALLELISM: "false",
    SSH_AUTH_SOCK: "/run/user/1000/ssh-agent.sock",
    XDG_SESSION_TYPE: "wayland",
    GIT_AUTHOR_NAME: "Ada Lovelace",
    KEYBOARD_LAYOUT: "us",
    LONG_PATH_LIKE: Array.from({ length: 40 }, (_, i) => `/opt/tool-${i}/bin`).join(":"),
  };
  const withUrl = {
    DATABASE_URL: "postgres://shop:s3cr3tpw@db.internal:5432/shop",
    ERROR_REPORTS: "https://0123456789abcdef0123@o123.ingest.sentry.io/1234",
    MSSQL: "Server=db;User Id=sa;Password=P@ssw0rd!;Encrypt=true",
    GIT_REMOTE: "ssh://git@github.com/acme/app.git",
  };
  const e = () => ({ ...env, ...secrets, ...plainVars, ...withUrl });

  test("env: every name kept, secret values masked, others verbatim", () => {
    const plain = runPlain(["env"], project, e());
    const r = runRtk(["env"], project, e());
    assert.equal(r.status, plain.status);
    assert.ok(size(r) <= size(plain));
    const shown = new Map(envFacts(r.stdout).map((f) => [f.name, f.value]));
    for (const f of envFacts(plain.stdout)) assert.ok(shown.has(f.name), `name kept: ${f.name}`);
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!r.stdout.includes(value), `value of ${name} hidden`);
      assert.match(shown.get(name) ?? "", /^(\*\*\*\*|\*)$/, name);
    }
    for (const [name, value] of Object.entries(plainVars)) assert.equal(shown.get(name), value, name);
    assert.equal(shown.get("DATABASE_URL"), "postgres://shop:****@db.internal:5432/shop");
    assert.equal(shown.get("ERROR_REPORTS"), "https://****@o123.ingest.sentry.io/1234", "a URL's user part that is a key");
    assert.equal(shown.get("MSSQL"), "Server=db;User Id=sa;Password=****;Encrypt=true", "a connection string's password");
    assert.equal(shown.get("GIT_REMOTE"), "ssh://git@github.com/acme/app.git", "a plain user name stays");
  });

  test("env golden (machine-specific variables unset from the listing)", () => {
    const argv = ["env", "-u", "PATH", "-u", "HOME", "-u", "XDG_DATA_HOME", "-u", "XDG_CONFIG_HOME", "-u", "RTK_SELF", "-u", "PWD"];
    const r = runRtk(argv, project, e());
    assert.equal(r.status, 0);
    golden("env-masked", r);
  });

  test("env run with an environment without PWD lists none (the launcher's shell exports one of its own)", () => {
    const bare = { PATH: env["PATH"]!, HOME: env["HOME"]!, XDG_DATA_HOME: env["XDG_DATA_HOME"]!, XDG_CONFIG_HOME: env["XDG_CONFIG_HOME"]!, A: "1" };
    const plain = runPlain(["env"], project, bare);
    assert.doesNotMatch(plain.stdout, /^PWD=/m);
    const r = runRtk(["env"], project, bare);
    assert.doesNotMatch(r.stdout, /^PWD=/m);
    assert.match(r.stdout, /^A=1$/m);
    assert.match(runRtk(["env"], project, { ...bare, PWD: project }).stdout, new RegExp(`^PWD=${project}$`, "m"), "an inherited PWD stays");
  });

  test("rtk --raw env (and rtk --no-track --raw printenv) print exactly what plain env prints: no PWD added, the variables in the caller's order, `_` naming the tool", () => {
    const base = { PATH: `${join(ROOT, "bin")}:/usr/bin:/bin`, HOME: env["HOME"]!, XDG_DATA_HOME: env["XDG_DATA_HOME"]!, XDG_CONFIG_HOME: env["XDG_CONFIG_HOME"]!, ZED: "z", ALPHA: "a", MIDDLE: "m" };
    // As an agent's shell runs them: bash sets `_` to the command it runs.
    const sh = (cmd: string) => spawnSync("bash", ["-c", cmd], { cwd: project, env: base, encoding: "utf8" }).stdout;
    const plain = sh("env");
    assert.match(plain, /^ZED=z$/m);
    assert.equal(sh("rtk --raw env"), plain);
    assert.equal(sh("rtk --no-track --raw printenv"), sh("printenv"));
  });

  test("printenv NAME: a secret's value masked, another's kept, a missing one exits 1", () => {
    assert.equal(runRtk(["printenv", "GITHUB_TOKEN"], project, e()).stdout, "****\n");
    assert.equal(runRtk(["printenv", "EDITOR"], project, e()).stdout, "vim\n");
    const missing = runRtk(["printenv", "NO_SUCH_VARIABLE"], project, e());
    assert.equal(missing.status, runPlain(["printenv", "NO_SUCH_VARIABLE"], project, e()).status);
    assert.equal(missing.stdout, "");
  });

  test("printenv lists like env; env -0 keeps its NULs", () => {
    const r = runRtk(["printenv"], project, e());
    assert.ok(!r.stdout.includes(secrets.GITHUB_TOKEN) && r.stdout.includes("GITHUB_TOKEN=****\n"));
    const z = runRtk(["env", "-0"], project, e());
    assert.ok(z.stdout.includes("GITHUB_TOKEN=****\0") && z.stdout.includes("EDITOR=vim\0") && !z.stdout.includes("\n"));
  });

  test("env: *_PWD, *_PASSPHRASE, *_CREDENTIALS and their relatives are masked; PWD and OLDPWD stay", () => {
    const more = {
      MYSQL_PWD: "hunter2hunter2",
      DB_PWD: "abcdefgh",
      GPG_PASSPHRASE: "correct horse battery",
      AWS_CREDENTIALS: "AKIDEXAMPLE:secret",
      GOOGLE_CREDENTIALS: '{"type":"service_account"}',
      SMTP_PASSWD: "passwd1234",
      SMTP_PASS: "pass1234",
      SIGNING_PRIVATE_KEY: "k3yk3yk3y",
      CLIENT_SECRET_V2: "s3cr3ts3cr3t",
      VAULT_TOKEN_RO: "hvs.abcdefghij",
      STRIPE_APIKEY: "abcdef123456",
      HTTP_AUTHORIZATION: "Basic dXNlcjpwYXNz",
      PROXY_AUTH_HEADER: "abcdefgh",
      WP_SALT: "saltysaltysalty",
      dbPwd: "camelcase1",
    };
    const r = runRtk(["env"], project, { ...env, ...more, PWD: project, OLDPWD: root });
    assert.equal(r.status, 0, r.stderr);
    for (const [name, value] of Object.entries(more)) {
      assert.ok(!r.stdout.includes(value), `value of ${name} hidden`);
      assert.match(r.stdout, new RegExp(`^${name}=\\*{4}$`, "m"), name);
    }
    assert.match(r.stdout, new RegExp(`^PWD=${project}$`, "m"));
    assert.match(r.stdout, new RegExp(`^OLDPWD=${root}$`, "m"));
  });

  const PEM = ["-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "QyNTUxOQAAACDaWr7xEXAMPLE=", "-----END OPENSSH PRIVATE KEY-----"].join(
    "\n",
  );
  const pemLines = PEM.split("\n").slice(1);

  test("printenv NAME of a multi-line secret (a private key) masks the whole value as one", () => {
    for (const name of ["DEPLOY_KEY", "SSH_MATERIAL"]) {
      const r = runRtk(["printenv", name], project, { ...env, [name]: PEM });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, "****\n", name);
    }
    const two = runRtk(["printenv", "EDITOR", "SSH_MATERIAL"], project, { ...env, EDITOR: "vim", SSH_MATERIAL: PEM });
    for (const l of pemLines) assert.ok(!two.stdout.includes(l), l);
    const apart = runRtk(["printenv", "EDITOR", "GITHUB_TOKEN"], project, { ...env, EDITOR: "vim", GITHUB_TOKEN: "ghp_notreallyatoken" });
    assert.equal(apart.stdout, "vim\n****\n", "one line per name: each masked by its own name");
  });

  test("env: every line of a multi-line secret is masked with it, even a key line that reads like NAME=", () => {
    const r = runRtk(["env"], project, { ...env, SSH_MATERIAL: PEM, NOTES: "first line\nthen AKIAIOSFODNN7EXAMPLE", PLAIN_ML: "one\ntwo" });
    assert.equal(r.status, 0, r.stderr);
    for (const l of pemLines) assert.ok(!r.stdout.includes(l), l);
    assert.match(r.stdout, /^SSH_MATERIAL=\*{4}$/m);
    assert.match(r.stdout, /^NOTES=\*{4}$/m);
    assert.ok(!r.stdout.includes("first line"), "a credential on a later line masks the whole value");
    assert.match(r.stdout, /^PLAIN_ML=one\ntwo$/m);
  });

  test("env running a command passes its output through", () => {
    const r = runRtk(["env", "GREETING=hello", "printenv", "GREETING"], project, env);
    assert.equal(r.stdout, "hello\n");
  });
});

// ---------------------------------------------------------------- in-process

function inputFor(argv: string[], route: string): FilterInput {
  const row = allRoutes().find((r) => r.id === route);
  assert.ok(row, `route ${route}`);
  return { argv, toolIndex: 0, subIndex: 1, route: row };
}

/** Feeds lines to a filter as the runner does (with the disk's file probe); returns its compact output and what it emitted. */
function feed(filter: Filter, argv: string[], route: string, out: readonly string[], err: readonly string[] = [], exit = 0, limits?: Limits): { compact: CompactOutput | null; emitted: string[] } {
  const emitted: string[] = [];
  const run = filter.start(inputFor(argv, route), {
    recall: { id: () => "abc1234" },
    files: diskProbe,
    ...(limits ? { limits } : {}),
    emit: { out: (l) => emitted.push(l), err: (l) => emitted.push(l) },
  });
  for (const l of out) run.line("out", l);
  for (const l of err) run.line("err", l);
  return { compact: run.end(exit), emitted };
}

describe("in process", () => {
  const peer = join(ROOT, "..", "shared", "bench", "fixtures", "ls-la.raw.txt");
  test("the shared peer fixture ls-la.raw.txt", { skip: existsSync(peer) ? false : `${peer} is absent` }, () => {
    const raw = readFileSync(peer, "utf8");
    const { compact } = feed(ls, ["ls", "-la"], "ls", lines(raw));
    assert.ok(compact);
    for (const want of ["src/", "Cargo.toml", "README.md", "1.2K", "5.5K"]) assert.ok(compact.stdout.includes(want), `has ${want}:\n${compact.stdout}`);
    // The usual mode and owner are said once, in the marker of the columns left out.
    const entries = lines(compact.stdout).filter((l) => !l.startsWith("… "));
    for (const not of ["drwx", "staff", "total"]) assert.ok(!entries.join("\n").includes(not), `no ${not}:\n${compact.stdout}`);
    assert.match(compact.stdout, /^\(mode\/owner\/date of \d+ entries left out \[rtk recall abc1234\]\)$/m);
    assert.ok(compact.stdout.length < raw.length);
  });

  test("ls -l: a name that could read as carrying a type mark, or as two fields, is quoted", () => {
    const { compact } = feed(ls, ["ls", "-l"], "ls", [
      "total 8",
      "-rw-r--r-- 1 u g 0 Mar 15 10:30 star*",
      "-rwxr-xr-x 1 u g 10 Mar 15 10:30 exe.sh",
      "-rw-r--r-- 1 u g 0 Mar 15 10:30 two  sp",
      "-rw-r--r-- 1 u g 0 Mar 15 10:30 it's",
      "-rw-r--r-- 1 u g 0 Mar 15 10:30 x -> y",
      "-rw-r--r-- 1 u g 0 Mar 15 10:30 sp ace",
      "lrwxrwxrwx 1 u g 5 Mar 15 10:30 link -> plain",
    ]);
    assert.equal(compact!.stdout, "'star*'  0\nexe.sh*  10  -rwxr-xr-x\n'two  sp'  0\nit's  0\n'x -> y'  0\nsp ace  0\nlink -> plain\n(mode/owner/date of 7 entries left out [rtk recall abc1234])\n");
  });

  test("ls long lines in every time style, devices, ACL marks", () => {
    const table: [string, string, string, string][] = [
      ["-rw-r--r-- 1 root root 1234 Mar 15 10:30 a b.txt", "-rw-r--r--", "1234", "a b.txt"],
      ["-rw-r--r--  1 user  staff  5678 Jan  1  2023 README.md", "-rw-r--r--", "5678", "README.md"],
      ["-rw-r--r--. 1 u g 10 2024-03-15 10:30 x", "-rw-r--r--.", "10", "x"],
      ["-rw-r--r-- 1 u g 10 2024-03-15 10:30:00.000000000 +0000 +0000", "-rw-r--r--", "10", "+0000"],
      ["-rw-r--r-- 1 u g 10 03-15 10:30 y", "-rw-r--r--", "10", "y"],
      ["-rw-r--r-- 1 u g 10 2020-01-01  old", "-rw-r--r--", "10", "old"],
      ["-rw-r--r-- 1 u g 10 2020-01-01   spaced", "-rw-r--r--", "10", " spaced"],
      ["crw-rw-rw- 1 root root 1, 3 Dec  1 04:15 null", "crw-rw-rw-", "1, 3", "null"],
      ["2163823 4 -rw-r--r-- 1 root root 1234 Jan  1  2020 Cargo.toml", "-rw-r--r--", "1234", "Cargo.toml"],
      ["lrwxrwxrwx 1 1000 1000 3 Mar 15 10:30 link -> 12 Mar", "lrwxrwxrwx", "3", "link -> 12 Mar"],
      ["-rw-r--r-- 1 a b 1.3K Mar 15 10:30 human", "-rw-r--r--", "1.3K", "human"],
    ];
    for (const [line, mode, size, name] of table) {
      const e = parseLongLine(line);
      assert.ok(e, line);
      assert.deepEqual([e.mode, e.size, e.name], [mode, size, name], line);
    }
    assert.equal(parseLongLine("total 48"), null);
    assert.equal(parseLongLine("-????????? ? ? ? ?            ? broken"), null);
  });

  test("human sizes", () => {
    const table: [number, string][] = [
      [0, "0"],
      [1023, "1023"],
      [1024, "1.0K"],
      [1234, "1.2K"],
      [5678, "5.5K"],
      [10188, "9.9K"],
      [10239, "10K"],
      [1048575, "1.0M"],
      [5 * 1024 ** 3, "5.0G"],
    ];
    for (const [n, s] of table) assert.equal(humanSize(n), s, String(n));
  });

  test("prepare adds presentation flags only where they change nothing else", () => {
    const prep = (f: Filter, argv: string[], route: string) => f.prepare!(inputFor(argv, route)).join(" ");
    assert.equal(ls.prepare, undefined);
    assert.equal(prep(tree, ["tree", "-L", "2"], "tree"), "tree -F -L 2");
    assert.equal(prep(tree, ["tree", "-J"], "tree"), "tree -J");
    assert.equal(prep(tree, ["tree", "-i"], "tree"), "tree -i", "no art to save: nothing added");
    assert.equal(grep.prepare, undefined, "grep and rg run exactly as given");
  });

  test("tree art in both charsets", () => {
    assert.deepEqual(treeEntry("├── a"), { depth: 1, name: "a" });
    assert.deepEqual(treeEntry("│\u00a0\u00a0 └── b/"), { depth: 2, name: "b/" });
    assert.deepEqual(treeEntry("    |-- c"), { depth: 2, name: "c" });
    assert.deepEqual(treeEntry("|   `--  spaced"), { depth: 2, name: " spaced" });
    assert.equal(treeEntry("src/"), null);
    assert.equal(treeEntry("3 directories, 4 files"), null);
  });

  test("find groups a directory's names on one line, and reads back unambiguously", () => {
    const names = ["./src/components/Button.tsx", "./src/components/Card.tsx", "./src/components/Header.tsx"];
    const raw = [".", "./b", "./a", ...names, "./src/y.ts", "./ lead", "./x/one", "./x/two", "./x/it's", "./x/two words", "./sp ace/a", "./sp ace/b"];
    const { lines, rest } = groupPaths(raw);
    assert.deepEqual(lines, ["' lead'", ".", "a", "b", "'sp ace/a'", "'sp ace/b'", "src/components/ Button.tsx Card.tsx Header.tsx", "src/y.ts", "x/ it's one two", "'x/two words'"]);
    assert.deepEqual(groupPaths(["./q/'x", "./q/a", "./q/b", "./'top"]).lines, ["''\\''top'", "q/ a b", "q/'x"]);
    assert.deepEqual(rest, []);
    const read = readCompactFind(lines.join("\n") + "\n");
    assert.deepEqual([...read].sort(), raw.map((p) => (p === "." ? p : p.slice(2))).sort());
    assert.deepEqual(groupPaths(["src/", "src/a", "src/b"]).lines, ["src/", "src/ a b"]);
  });

  test("find: a name holding a newline is one path (the line that does not start with a starting point goes on the one before), quoted $'…'", () => {
    const { compact } = feed(find, ["find", "."], "find", [".", "./a", "./new", "line", "./z"]);
    assert.equal(compact!.stdout, ".\na\n$'new\\nline'\nz\n");
    const { compact: two } = feed(find, ["find", "-L", "src", "lib", "-name", "x*"], "find", ["src/x1", "src/x\\2", "part", "lib/x3"]);
    assert.equal(two!.stdout, "lib/x3\nsrc/x1\n$'src/x\\\\2\\npart'\n");
  });

  test("find: dependencies, build output and version control come after the project's own paths", () => {
    const raw = [".", "./.git/HEAD", "./.git/config", "./node_modules/a/index.js", "./node_modules/b/index.js", "./src/x.ts", "./src/y.ts", "./README.md", "./dist/app.js"];
    assert.deepEqual(groupPaths(raw).lines, [".", "README.md", "src/ x.ts y.ts", ".git/ HEAD config", "dist/app.js", "node_modules/ a/index.js b/index.js"]);
    const many = [...Array.from({ length: 80 }, (_, i) => `./node_modules/p${i}/index.js`), "./src/main.ts", "./src/util.ts"];
    const { lines, rest } = groupPaths(many, 200);
    assert.equal(lines[0], "src/ main.ts util.ts");
    const shown = lines.slice(1).reduce((n, l) => n + l.split(" ").length - 1, 0);
    assert.ok(lines.join("\n").length <= 200);
    assert.equal(shown + rest.reduce((n, [, c]) => n + c, 0), 80);
  });

  test("grep: the budget goes to the project's files before dependencies and build output", () => {
    const deps = Array.from({ length: 60 }, (_, i) => `./node_modules/p${String(i).padStart(2, "0")}/index.js:1:const useState = 1;`);
    const input = [...deps, "./src/app.ts:3:useState()", "./dist/app.js:9:useState()"];
    const whole = feed(grep, ["grep", "-rn", "useState", "."], "grep", input).compact!.stdout;
    assert.ok(!whole.includes("…"), "below the budget nothing is omitted");
    const { compact } = feed(grep, ["grep", "-rn", "useState", "."], "grep", input, [], 0, { list: 2000, content: 30000 });
    const out = compact!.stdout.split("\n");
    assert.deepEqual(out.slice(0, 2), ["src/app.ts", "  3:useState()"]);
    assert.equal(out[2], "dist/app.js");
    const m = /\n… \+(\d+) more matches in (\d+) more files \[rtk recall abc1234\]: node_modules\/ \((\d+) files, (\d+) matches\)\n$/.exec(compact!.stdout);
    assert.ok(m, compact!.stdout);
    assert.equal(out.filter((l) => l.startsWith("node_modules/")).length + Number(m[2]), 60, "every file shown or counted");
    assert.ok(compact!.stdout.length <= 2000, `${compact!.stdout.length} characters for a budget of 2000`);
    assert.ok(compact!.stdout.length > 1500, "cut to the budget, not below");
  });

  test("tree: a dependency folder inside the tree keeps its line, what is below it is one counted marker", () => {
    const art = [".", "├── node_modules/", "│   ├── a/", "│   │   └── index.js", "│   └── b/", "├── src/", "│   └── main.ts", "└── vendor.txt", "", "4 directories, 3 files"];
    const { compact } = feed(tree, ["tree"], "tree", art);
    assert.equal(compact!.stdout, [".", "  node_modules/", "    … +3 more entries [rtk recall abc1234]", "  src/", "    main.ts", "  vendor.txt", "", "4 directories, 3 files", ""].join("\n"));
    const root = feed(tree, ["tree", "node_modules"], "tree", ["node_modules/", "├── a/", "│   └── index.js", "└── b/", "", "2 directories, 1 file"]);
    assert.equal(root.compact!.stdout, ["node_modules/", "  a/", "    index.js", "  b/", "", "2 directories, 1 file", ""].join("\n"));
  });

  test("find: a folder with one path of its own joins its parent's line, chains too", () => {
    const raw = ["./app/api/auth/route.ts", "./app/api/users/route.ts", "./app/api/users", "./app/page.tsx", "./deep/a/b/c/x.ts", "./deep/y.ts", "./one/only.ts"];
    const { lines } = groupPaths(raw);
    assert.deepEqual(lines, ["app/api/ auth/route.ts users users/route.ts", "app/page.tsx", "deep/ a/b/c/x.ts y.ts", "one/only.ts"]);
    assert.deepEqual([...readCompactFind(lines.join("\n") + "\n")].sort(), raw.map((p) => p.slice(2)).sort());
  });

  test("ls past its budget: the first entries that fit, the rest counted", () => {
    const names = Array.from({ length: 1000 }, (_, i) => `-rw-r--r-- 1 ann ann 12 Mar 15 10:30 f${String(i).padStart(3, "0")}.txt`);
    const whole = feed(ls, ["ls", "-l"], "ls", ["total 1000", ...names.slice(0, 400)]).compact!.stdout;
    assert.equal(lines(whole).length, 401, "400 entries fit the default budget: all shown, and the marker of the columns");
    const { compact } = feed(ls, ["ls", "-l"], "ls", ["total 1000", ...names]);
    const out = lines(compact!.stdout);
    assert.equal(out[0], "f000.txt  12");
    const m = /^… \+(\d+) more entries \[rtk recall abc1234\]$/.exec(out[out.length - 2]!);
    assert.ok(m, out.slice(-2).join("\n"));
    assert.equal(out.length - 2 + Number(m[1]), 1000);
    assert.ok(compact!.stdout.length <= 8000 && compact!.stdout.length > 7500, `${compact!.stdout.length} characters`);
  });

  test("plain ls past its budget (ls, -1, -a, -R): the first names that fit, the rest counted; within it, the tool's own output", () => {
    const names = Array.from({ length: 1500 }, (_, i) => `file_number_${i}.txt`);
    for (const argv of [["ls"], ["ls", "-1"], ["ls", "-a"]]) {
      const out = lines(feed(ls, argv, "ls", names).compact!.stdout);
      const m = /^… \+(\d+) more entries \[rtk recall abc1234\]$/.exec(out[out.length - 1]!);
      assert.ok(m, `${argv.join(" ")}: ${out.slice(-2).join("\n")}`);
      assert.deepEqual(out.slice(0, -1), names.slice(0, out.length - 1));
      assert.equal(out.length - 1 + Number(m[1]), 1500);
      assert.ok(out.join("\n").length <= 8000, argv.join(" "));
    }
    const listings = feed(ls, ["ls", "-R"], "ls", [".:", ...names, "", "./sub:", "x"]).compact!.stdout;
    assert.match(listings, /… \+\d+ more entries \(and 1 more directory listing\) \[rtk recall abc1234\]\n$/);
    assert.equal(feed(ls, ["ls"], "ls", names.slice(0, 10)).compact, null, "ten names: nothing to change, the raw output prints");
  });

  test("find past its budget: the first paths in order, the rest counted by directory", () => {
    const raw = [...Array.from({ length: 30 }, (_, i) => `./a/f${String(i).padStart(2, "0")}`), ...Array.from({ length: 40 }, (_, i) => `./b/g${String(i).padStart(2, "0")}`)];
    const { lines, rest } = groupPaths(raw, "a/ ".length + 30 * 4 + "b/ ".length + 20 * 4);
    assert.equal(lines.length, 2);
    assert.equal(lines[1], `b/ ${Array.from({ length: 20 }, (_, i) => `g${String(i).padStart(2, "0")}`).join(" ")}`);
    assert.deepEqual(rest, [["b/", 20]]);
  });

  test("grep lines whose file names hold separators", () => {
    const exists = (p: string) => p === "logs/2024-01-15-x.log" || p === "a:1:b";
    assert.deepEqual(parseNamed("logs/2024-01-15-x.log-3-text", null, exists), { file: "logs/2024-01-15-x.log", sep: "-", n: "3", body: "text" });
    assert.deepEqual(parseNamed("a:1:b:7:x:2:y", null, exists), { file: "a:1:b", sep: ":", n: "7", body: "x:2:y" });
    assert.deepEqual(
      parseNamed("src/a.ts:12:  const a = 1;", null, () => false),
      { file: "src/a.ts", sep: ":", n: "12", body: "  const a = 1;" },
    );
    assert.deepEqual(
      parseNamed("c.ts-4-x:5:y", "c.ts", () => false),
      { file: "c.ts", sep: "-", n: "4", body: "x:5:y" },
    );
    assert.equal(parseNamed("Binary file x matches", null, exists), null);
  });

  test("rg -n with no path: a file whose name starts with digits and a dash is a file, not a line number", () => {
    const dir = join(root, "dated");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "2024-01-02.log"), "");
    const lines = Array.from({ length: 30 }, (_, i) => `2024-01-02.log:${i + 1}:match ${i + 1}`);
    const here = process.cwd();
    process.chdir(dir);
    try {
      const { compact } = feed(grep, ["rg", "-n", "match"], "rg", lines);
      assert.match(compact!.stdout, /^2024-01-02\.log\n {2}1:match 1\n/);
      assert.equal(compact!.stdout.split("\n").length, 1 + 30 + 1, "30 matches fit the budget: every one shown");
      // Without such a file, `12-…` is a line number and its context.
      const { compact: single } = feed(grep, ["rg", "-n", "-C1", "x"], "rg", ["1-a", "2:x", "3-b"]);
      assert.equal(single!.stdout, "1-a\n2:x\n3-b\n");
    } finally {
      process.chdir(here);
    }
  });

  test("grep cuts a long line around a plain pattern, with exact counts", () => {
    const long = "a".repeat(2000) + "NEEDLE" + "b".repeat(2000);
    const { compact } = feed(grep, ["grep", "-rn", "NEEDLE", "."], "grep", [`./x.js:1:${long}`, "./y.js:2:  NEEDLE here"]);
    assert.ok(compact);
    const shown = lines(compact.stdout);
    assert.equal(shown[0], "x.js");
    const m = /^ {2}1:… \+(\d+) chars … (a*NEEDLEb*) … \+(\d+) more chars \[rtk recall abc1234\]$/.exec(shown[1]!);
    assert.ok(m, shown[1]);
    assert.equal(Number(m[1]) + m[2]!.length + Number(m[3]), long.length);
    assert.deepEqual(shown.slice(2), ["y.js", "  2:  NEEDLE here"]);
  });

  test("content: huge output keeps a head and tail within the budget, whatever its size", () => {
    const total = 2_000_000;
    const before = process.memoryUsage().heapUsed;
    const run = content.start(inputFor(["cat", "big"], "cat"), { recall: { id: () => "abc1234" }, emit: { out: () => {}, err: () => {} } });
    const pad = "x".repeat(90);
    for (let i = 1; i <= total; i++) run.line("out", `${i} ${pad}`);
    const grown = process.memoryUsage().heapUsed - before;
    const compact = run.end(0);
    assert.ok(compact);
    const shown = lines(compact.stdout);
    assert.equal(shown[0], `1 ${pad}`);
    assert.equal(shown[shown.length - 1], `${total} ${pad}`);
    const at = shown.findIndex((l) => l.startsWith("…"));
    const m = LINES_MARKER.exec(shown[at]!);
    assert.ok(m, shown[at]);
    assert.deepEqual([Number(m[1]), Number(m[2])], [at + 1, total - (shown.length - at - 1)], "the range is exactly the lines between head and tail");
    assert.equal(Number(m[3]) + shown.length - 1, total, "head + tail + hidden = every line");
    assert.ok(compact.stdout.length <= 30_000, `${compact.stdout.length} characters shown`);
    assert.ok(compact.stdout.length >= 29_000, `${compact.stdout.length} characters shown: the budget is used, not cut below`);
    assert.ok(grown < 64 * 1024 * 1024, `heap grew by ${Math.round(grown / 1048576)} MiB for ${Math.round((total * 100) / 1048576)} MiB of output`);
  });

  test("content: a follow run, or a read of a device, runs with rtk's own stdio; cat of a regular file does not", () => {
    const inherits = (argv: string[]) => content.inherits!(inputFor(argv, argv[0]!), diskProbe);
    assert.equal(inherits(["tail", "-f", "x"]), true);
    assert.equal(inherits(["tail", "-n", "5", "-F", "x"]), true);
    assert.equal(inherits(["tail", "--follow=name", "x"]), true);
    assert.equal(inherits(["tail", "-5f", "x"]), true);
    assert.equal(inherits(["head", "-c", "5", "/dev/zero"]), true);
    assert.equal(inherits(["tail", "-n", "5", "x"]), false);
    assert.equal(inherits(["cat", "package.json"]), false);
    assert.equal(content.streaming, undefined);
  });

  test("wc strips the padding and keeps the total", () => {
    const { compact } = feed(wc, ["wc", "a", "b c"], "wc", ["   3    5   26 a", "  10   20  300 b c", "  13   25  326 total"]);
    assert.equal(compact?.stdout, "3 5 26 a\n10 20 300 b c\n13 25 326 total\n");
    const l = feed(wc, ["wc", "-l", "12 monkeys"], "wc", ["  7 12 monkeys", "  7 total"]);
    assert.equal(l.compact?.stdout, "7 12 monkeys\n7 total\n");
  });

  test("secret-looking names", () => {
    const secret = [
      "MYSQL_PWD",
      "DB_PWD",
      "dbPwd",
      "GPG_PASSPHRASE",
      "AWS_CREDENTIALS",
      "SMTP_PASSWD",
      "X_PRIVATE_KEY",
      "X_SECRET_V2",
      "X_TOKEN_FILE",
      "X_APIKEY",
      "X_AUTHKEY",
      "HTTP_AUTHORIZATION",
      "X_AUTH_HEADER",
      "HASH_SALT",
      "GITHUB_TOKEN",
      "NPM_TOKEN",
      "githubToken",
      "API_KEY",
      "apiKey",
      "OPENAI_API_KEY",
      "AWS_SECRET_ACCESS_KEY",
      "DB_PASSWORD",
      "MYSQL_PWD_PASSWD",
      "SMTP_PASS",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "AUTH",
      "NPM_CONFIG__AUTH",
      "PRIVATE_KEY",
      "SESSION",
      "SESSION_SECRET",
      "COOKIE_JAR",
      "SSH_KEY",
      "KEYS",
      "ci_deploy_key",
      "SENTRY_AUTH_TOKEN",
      "X_ACCESSKEY",
      "JWT",
    ];
    const plain = [
      "PATH",
      "HOME",
      "PWD",
      "OLDPWD",
      "EDITOR",
      "TOKENIZERS_PARALLELISM",
      "SSH_AUTH_SOCK",
      "XDG_SESSION_TYPE",
      "XDG_SESSION_ID",
      "DESKTOP_SESSION",
      "DBUS_SESSION_BUS_ADDRESS",
      "GIT_AUTHOR_NAME",
      "KEYBOARD",
      "MONKEY",
      "BYPASS_CACHE",
      "PASSENGER_ENV",
      "LANG",
      "TERM",
      "PW_TEST_HTML_REPORT_OPEN",
      "GIT_AUTHOR_EMAIL",
      "COMPASS_HOME",
    ];
    for (const n of secret) assert.equal(isSecretName(n), true, n);
    for (const n of plain) assert.equal(isSecretName(n), false, n);
  });

  test("credential-looking values", () => {
    assert.equal(maskValue("Bearer abcdefghijklmnop", false), "****");
    assert.equal(maskValue("AKIAIOSFODNN7EXAMPLE", false), "****");
    assert.equal(maskValue("xoxb-123456789012-abcdefghij", false), "****");
    assert.equal(maskValue("-----BEGIN OPENSSH PRIVATE KEY-----", false), "****");
    assert.equal(maskValue("https://user:pw123@example.com/x", false), "https://user:****@example.com/x");
    assert.equal(maskValue("https://user:pw@example.com/x", false), "https://user:*@example.com/x");
    assert.equal(maskValue("https://example.com/a:b@c", false), "https://example.com/a:b@c");
    assert.equal(maskValue("/usr/bin:/bin", false), "/usr/bin:/bin");
    assert.equal(maskValue("", true), "");
    assert.equal(maskValue("abc", true), "*");
  });

  test("env: a multi-line secret goes whole; a private key block in any variable is masked", () => {
    const { compact } = feed(envFilter, ["env"], "env", ["A=1", "SECRET_BLOB=line one", "line two", "B=2", "C=-----BEGIN RSA PRIVATE KEY-----", "MIIEow", "-----END RSA PRIVATE KEY-----", "D=x"]);
    assert.equal(compact?.stdout, "A=1\nSECRET_BLOB=****\nB=2\nC=****\nD=x\n");
    const padded = feed(envFilter, ["env"], "env", ["K=-----BEGIN PRIVATE KEY-----", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "QyNTUxOQ=", "AAAA==", "-----END PRIVATE KEY-----", "E=1"]);
    assert.equal(padded.compact?.stdout, "K=****\nE=1\n", "a padded base64 line inside the block is not a variable");
    const open = feed(envFilter, ["env"], "env", ["MARK=-----BEGIN RSA PRIVATE KEY-----", "NEXT=value", "EMPTY=", "LAST=x"]);
    assert.equal(open.compact?.stdout, "MARK=****\nNEXT=value\nEMPTY=\nLAST=x\n", "a block never ended does not swallow the names after it");
  });

  test("printenv NAME…: values masked name by name when each name printed one line, else together", () => {
    const run = (names: string[], out: string[], exit: number) => feed(envFilter, ["printenv", ...names], "printenv", out, [], exit).compact?.stdout ?? out.map((l) => l + "\n").join("");
    assert.equal(run(["EDITOR", "API_TOKEN"], ["vim", "abcdefgh"], 0), "vim\n****\n");
    assert.equal(run(["API_TOKEN", "EDITOR"], ["abcdefgh", "vim"], 0), "****\nvim\n");
    assert.equal(run(["EDITOR", "API_TOKEN"], ["vim", "abcdefgh"], 1), "****\n", "one missing: whose line is whose is unknown");
    assert.equal(run(["EDITOR", "NOTE"], ["vim", "line one", "AKIAIOSFODNN7EXAMPLE"], 0), "****\n", "more lines than names: one value");
    assert.equal(run(["EDITOR", "NOTE"], ["vim", "two", "lines"], 0), "vim\ntwo\nlines\n");
  });

  test("find and tree keep errors on stderr", () => {
    const f = feed(find, ["find", "."], "find", ["./a/b", "./a/c", "./a/d"], ["find: './x': Permission denied"], 1);
    assert.equal(f.compact?.stderr, "find: './x': Permission denied\n");
    const t = feed(tree, ["tree"], "tree", [".", "├── a/", "│   └── b", "└── c", "", "1 directory, 2 files"]);
    assert.equal(t.compact?.stdout, ".\n  a/\n    b\n  c\n\n1 directory, 2 files\n");
  });
});
