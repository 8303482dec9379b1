// The build, type-checker and linter filters on recorded real output
// (test/fixtures/tools, made by `npm run fixtures`), each case played through the
// built bin/rtk with the tool stood in on PATH, and checked: golden compact
// output, every fact of the raw output (read by facts.ts, not by the
// filters) present, the tool's exit code, never longer than the raw output, a
// failed run never empty.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { before, describe, test } from "node:test";
import { repoRoot } from "../../support/corpus.js";
import { launch, type Run } from "../../support/launch.js";
import { isPackageRun, isTestRun, replay, toolCases, type ToolCase } from "../../support/replay.js";
import { factsOf, lostFacts, missingFacts, READERS } from "./facts.js";
import { COMPACT_EVERY_OUTPUT } from "../../support/sandbox.js";

const GOLDEN = join(repoRoot, "test", "filters", "golden", "builds");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";

/** Cases where the compact form must be strictly shorter than the raw output (tsc was made longer by the original tool). */
const STRICTLY_SHORTER = new Set(["tsc/errors", "tsc/pretty", "tsc/medium-errors"]);

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
});

function writeConfig(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "rtk-builds-")), "config.toml");
  writeFileSync(path, text);
  return path;
}

const normalise = (text: string) => text.replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

const runs = new Map<string, Promise<Run>>();
const played = (c: ToolCase) => {
  let r = runs.get(c.name);
  if (!r) runs.set(c.name, (r = replay(c)));
  return r;
};

const cases = Object.keys(READERS)
  .flatMap((tool) => toolCases(tool))
  .filter((c) => !isTestRun(c) && !isPackageRun(c));

for (const c of cases) {
  describe(c.name, () => {
    test("the exit code is the tool's", async () => {
      const r = await played(c);
      assert.equal(r.status, c.exit, r.stderr);
    });

    test("golden compact output", async () => {
      const r = await played(c);
      const text = `$ rtk ${c.argv.join(" ")}\nexit ${r.status}\n--- stdout\n${normalise(r.stdout)}--- stderr\n${normalise(r.stderr)}`;
      const file = join(GOLDEN, `${c.name}.txt`);
      if (UPDATE || !existsSync(file)) {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, text);
      }
      assert.equal(text, readFileSync(file, "utf8"));
    });

    test("every diagnostic, summary and elaboration of the raw output is kept (a passing run's warnings: or counted)", async () => {
      const r = await played(c);
      assert.deepEqual(lostFacts(r.stdout + r.stderr, factsOf(c), c.exit === 0).lost, []);
    });

    test("never longer than the raw output", async () => {
      const r = await played(c);
      const raw = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
      const compact = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
      if (STRICTLY_SHORTER.has(c.name)) assert.ok(compact < raw, `compact ${compact} bytes ≥ raw ${raw} bytes`);
      else assert.ok(compact <= raw, `compact ${compact} bytes > raw ${raw} bytes`);
    });

    if (c.exit !== 0 && c.stdout + c.stderr !== "") {
      test("a failed run does not read as a success", async () => {
        const r = await played(c);
        assert.notEqual((r.stdout + r.stderr).trim(), "");
        // No word of success the tool did not say itself.
        const success = /\b(?:no (?:errors|problems|issues)|0 (?:errors|failed)\b|success|passed)/gi;
        const said = (text: string) => text.match(success)?.length ?? 0;
        assert.ok(said(r.stdout + r.stderr) <= said(c.stdout + c.stderr), r.stdout);
      });
    }
  });
}

describe("tsc", () => {
  test("vue-tsc and npx tsc take the same filter", async () => {
    const c = cases.find((x) => x.name === "tsc/errors")!;
    const direct = await played(c);
    const vue = await replay({ ...c, argv: ["vue-tsc", ...c.argv.slice(1)] });
    assert.equal(vue.stdout, direct.stdout);
    assert.equal(vue.status, c.exit);
  });

  test("watch mode runs as the tool prints it", async () => {
    const c = cases.find((x) => x.name === "tsc/errors")!;
    const r = await replay({ ...c, argv: [...c.argv, "--watch"] });
    assert.equal(r.stdout, c.stdout);
  });

  test("the plain form, which has no summary, ends with the count of what was printed", async () => {
    const c = cases.find((x) => x.name === "tsc/errors")!;
    const r = await played(c);
    const count = factsOf(c).diagnostics.length;
    const files = new Set(factsOf(c).diagnostics.map((d) => d.file)).size;
    assert.equal(r.stdout.trimEnd().split("\n").pop(), `Found ${count} errors in ${files} files.`);
  });
});

/** Commands as agents write them, and their rewrite. */
const REWRITES: readonly [string, string][] = [
  ["tsc --noEmit", "rtk tsc --noEmit"],
  ["npx tsc --noEmit", "rtk npx tsc --noEmit"],
  ["vue-tsc --noEmit", "rtk vue-tsc --noEmit"],
  ["tsc 2>&1 | head -50", "rtk tsc 2>&1 | head -50"],
  ["npx tsc --noEmit 2>&1 | tail -20", "rtk npx tsc --noEmit 2>&1 | tail -20"],
  ["npx eslint src", "rtk npx eslint src"],
  ["eslint . 2>&1 | tail -30", "rtk eslint . 2>&1 | tail -30"],
  ["npx biome check src", "rtk npx biome check src"],
  ["npx oxlint 2>&1 | head -40", "rtk npx oxlint 2>&1 | head -40"],
  ["npx prettier --check .", "rtk npx prettier --check ."],
  ["npx stylelint 'src/**/*.css'", "rtk npx stylelint 'src/**/*.css'"],
  ["mypy src", "rtk mypy src"],
  ["python -m mypy src 2>&1 | tail -5", "rtk python -m mypy src 2>&1 | tail -5"],
  ["uv run mypy .", "rtk uv run mypy ."],
  ["npx pyright", "rtk npx pyright"],
  ["ruff check .", "rtk ruff check ."],
  ["ruff format --check .", "rtk ruff format --check ."],
  ["go build ./...", "rtk go build ./..."],
  ["go vet ./... 2>&1 | head -40", "rtk go vet ./... 2>&1 | head -40"],
  ["golangci-lint run", "rtk golangci-lint run"],
  ["shellcheck deploy.sh", "rtk shellcheck deploy.sh"],
  ["hadolint Dockerfile", "rtk hadolint Dockerfile"],
  ["bundle exec rubocop", "rtk bundle exec rubocop"],
  ["npx markdownlint docs", "rtk npx markdownlint docs"],
  ["mvn -B package", "rtk mvn -B package"],
  ["./mvnw -q compile 2>&1 | tail -40", "rtk ./mvnw -q compile 2>&1 | tail -40"],
  ["./gradlew build", "rtk ./gradlew build"],
  ["./gradlew --no-daemon -q clean build", "rtk ./gradlew --no-daemon -q clean build"],
  ["cd backend && ../gradlew assemble", "cd backend && rtk ../gradlew assemble"],
  ["./mvnw -B package -DskipTests", "rtk ./mvnw -B package -DskipTests"],
  ["dotnet build", "rtk dotnet build"],
  ["npx next build", "rtk npx next build"],
  ["npx vite build", "rtk npx vite build"],
  ["npx webpack --mode production", "rtk npx webpack --mode production"],
  ["cargo build 2>&1 | tail -30", "rtk cargo build 2>&1 | tail -30"],
  ["cargo clippy --all-targets -- -D warnings", "rtk cargo clippy --all-targets -- -D warnings"],
  ["cargo check", "rtk cargo check"],
  ["cargo fmt --check", "rtk cargo fmt --check"],
  ["cargo fmt --all -- --check 2>&1 | head -40", "rtk cargo fmt --all -- --check 2>&1 | head -40"],
  ["make 2>&1 | tail -20", "rtk make 2>&1 | tail -20"],
  ["make -j4 all", "rtk make -j4 all"],
  ["cmake --build build", "rtk cmake --build build"],
  ["gcc -Wall -c main.c -o main.o", "rtk gcc -Wall -c main.c -o main.o"],
];

/** Commands whose output is the product itself: never rewritten. */
const NOT_REWRITTEN = ["npx webpack serve", "npx webpack --watch", "gcc -E main.c", "cc -M main.c", "cmake -E echo hi", "gcc --version", "ruff format .", "go run .", "cargo fmt -- --emit stdout"];

test("a compiler's own product is not rewritten", async () => {
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/nonexistent", RTK_NO_TRACK: "1" };
  for (const cmd of NOT_REWRITTEN) {
    const r = await launch(["rewrite", "--host", "none", cmd], { cwd: repoRoot, env });
    assert.equal(r.status, 1, `${cmd}: ${r.stdout}`);
  }
});

test("the rewrite routes these tools, also into head and tail", async () => {
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/nonexistent", RTK_NO_TRACK: "1" };
  for (const [cmd, want] of REWRITES) {
    const r = await launch(["rewrite", "--host", "none", cmd], { cwd: repoRoot, env });
    assert.equal(r.stdout, want, `${cmd}: ${r.stderr}`);
  }
});

describe("eslint", () => {
  test("a format the user chose passes through", async () => {
    const c = cases.find((x) => x.name === "eslint/errors")!;
    for (const extra of [["-f", "json"], ["--format=unix"]]) {
      const r = await replay({ ...c, argv: [c.argv[0]!, ...extra, ...c.argv.slice(1)] });
      assert.equal(r.stdout, c.stdout);
      assert.equal(r.status, 1);
    }
  });
});

describe("cargo", () => {
  test("JSON messages pass through", async () => {
    const c = cases.find((x) => x.name === "cargo/build-errors")!;
    const r = await replay({ ...c, argv: ["cargo", "build", "--message-format=json"] });
    assert.equal(r.stderr, c.stderr);
    assert.equal(r.status, 101);
  });

  test("a passing build is its Finished line", async () => {
    const c = cases.find((x) => x.name === "cargo/medium-build")!;
    const r = await played(c);
    assert.match(r.stderr, /^\s+Finished `dev` profile .*\n$/);
    assert.equal(r.stdout, "");
  });
});

describe("cargo fmt --check", () => {
  test("each diff's marker names the lines it took, which are that diff's", async () => {
    const c = cases.find((x) => x.name === "rustfmt/check-diffs")!;
    const r = await played(c);
    const raw = c.stdout.split("\n");
    const out = r.stdout.trimEnd().split("\n");
    let markers = 0;
    out.forEach((l, i) => {
      const m = /^… (\d+) lines of diff \[rtk recall [0-9a-f]+ --lines (\d+)-(\d+)\]$/.exec(l);
      if (!m) return;
      markers++;
      const [n, a, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
      assert.equal(n, b - a + 1);
      assert.equal(raw[a - 2], out[i - 1], "the heading above the marker is the line before its range");
      assert.ok(raw.slice(a - 1, b).every((d) => /^[-+ ]|^$/.test(d)) && !/^[-+ ]/.test(raw[b] ?? ""), `lines ${a}-${b} are one whole diff`);
    });
    assert.equal(markers, 3);
  });

  test("past the content budget the other diffs are counted with their files", async () => {
    const c = cases.find((x) => x.name === "rustfmt/many-diffs")!;
    const r = await replay(c, [], { RTK_CONFIG: writeConfig("[limits]\ncontent_chars = 2000\n") });
    const m = /^… \+(\d+) more diffs in (\d+) files \[rtk recall [0-9a-f]+\]$/m.exec(r.stdout);
    assert.ok(m, r.stdout);
    const headings = c.stdout.split("\n").filter((l) => l.startsWith("Diff in "));
    const shown = r.stdout.split("\n").filter((l) => l.startsWith("Diff in "));
    assert.deepEqual(shown, headings.slice(0, shown.length));
    assert.equal(shown.length + Number(m[1]), headings.length);
    const files = (ls: string[]) => new Set(ls.map((l) => l.replace(/:\d+:$/, "")));
    assert.equal(Number(m[2]), files(headings.slice(shown.length)).size);
    assert.equal(r.status, 1);
  });

  test("a warning rustfmt repeats for every file is said once with its count", async () => {
    const c = cases.find((x) => x.name === "rustfmt/check-warnings")!;
    const r = await played(c);
    const warnings = c.stderr.trimEnd().split("\n");
    const distinct = [...new Set(warnings)];
    assert.deepEqual(
      r.stderr.trimEnd().split("\n"),
      distinct.map((w) => `${w} (×${warnings.filter((x) => x === w).length})`),
    );
    assert.equal(r.stdout, "");
    assert.equal(r.status, 0);
  });

  test("JSON prints as it is", async () => {
    const c = cases.find((x) => x.name === "rustfmt/check-diffs")!;
    const r = await replay({ ...c, argv: ["cargo", "fmt", "--check", "--message-format", "json"] });
    assert.equal(r.stdout, c.stdout);
    assert.equal(r.status, 1);
  });
});

describe("build logs", () => {
  test("a compiler's stdout passes untouched (gcc -E)", async () => {
    const c = cases.find((x) => x.name === "gcc/errors")!;
    const pre = Array.from({ length: 50 }, (_, i) => `int v${i} = ${i};`).join("\n") + "\n";
    const dir = mkdtempSync(join(tmpdir(), "rtk-gcc-"));
    try {
      writeFileSync(join(dir, "stdout"), pre);
      writeFileSync(join(dir, "stderr"), c.stderr);
      const r = await replay({ ...c, dir, argv: ["gcc", "-E", "src/main.c"], stdout: pre });
      assert.equal(r.stdout, pre);
      assert.equal(r.status, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("make -n prints the commands as they are", async () => {
    const c = cases.find((x) => x.name === "make/medium-build")!;
    const r = await replay({ ...c, argv: ["make", "-n"] });
    assert.equal(r.stdout, c.stdout);
  });

  test("the lines left out of a passing build are counted, and recall holds them", async () => {
    const c = cases.find((x) => x.name === "make/medium-build")!;
    const r = await played(c);
    const m = /… \+(\d+) more lines \[rtk recall [0-9a-f]+\]/.exec(r.stdout);
    assert.ok(m, r.stdout);
    const shown = r.stdout.trimEnd().split("\n").length - 1;
    assert.equal(Number(m[1]) + shown, c.stdout.trimEnd().split("\n").length);
  });
});

describe("a linter run that passed with many warnings", () => {
  test("shows its first files whole and counts the rest by rule; failed, it shows every one", async () => {
    const c = cases.find((x) => x.name === "eslint/medium-warnings")!;
    const r = await played(c);
    const facts = factsOf(c);
    const { hidden } = lostFacts(r.stdout, facts, true);
    assert.ok(hidden > 0 && hidden < facts.diagnostics.length, r.stdout);
    assert.match(r.stdout, /… \+\d+ more warnings in \d+ more files \[rtk recall [0-9a-f]+\] \(no-console \d+, eqeqeq \d+\)/);
    const failed = await replay({ ...c, exit: 1 });
    assert.deepEqual(missingFacts(failed.stdout, facts), []);
  });
});

describe("machine formats pass through", () => {
  for (const [name, argv] of [
    ["mypy/errors", ["mypy", "-O", "json", "pkg"]],
    ["pyright/errors", ["pyright", "--outputjson", "pkg"]],
    ["ruff/check", ["ruff", "check", "--output-format", "json", "src"]],
    ["shellcheck/errors", ["shellcheck", "-f", "gcc", "deploy.sh"]],
    ["go/vet", ["go", "vet", "-json", "./..."]],
    ["biome/check", ["biome", "check", "--reporter=json", "src"]],
    ["oxlint/warnings", ["oxlint", "-f", "json", "src"]],
    ["stylelint/errors", ["stylelint", "-f", "json", "src"]],
  ] as const) {
    test(name, async () => {
      const c = cases.find((x) => x.name === name)!;
      const r = await replay({ ...c, argv: [...argv] });
      // Raw output printed in place of a compact form loses only its escape sequences.
      assert.equal(r.stdout, stripVTControlCharacters(c.stdout));
      assert.equal(r.stderr, stripVTControlCharacters(c.stderr));
      assert.equal(r.status, c.exit);
    });
  }
});

test("a watching build runs on the terminal as the tool prints it", async () => {
  const c = cases.find((x) => x.name === "vite/medium-build")!;
  const r = await replay({ ...c, argv: ["vite", "build", "--watch"] });
  assert.equal(r.stdout, c.stdout);
});

describe("a project's wrapper script (./gradlew, ./mvnw) is run from the project, its output filtered as the tool's", () => {
  /** A project folder whose wrapper prints a recorded run, writes the arguments it got one a line, and exits with the run's code. */
  function project(c: ToolCase, wrapper: string): string {
    const dir = mkdtempSync(join(tmpdir(), "rtk-wrapper-"));
    writeFileSync(
      join(dir, wrapper),
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "$(dirname "$0")/args.txt"\ncat '${join(c.dir, "stdout")}'\ncat '${join(c.dir, "stderr")}' >&2\nexit ${c.exit}\n`,
      { mode: 0o755 },
    );
    return dir;
  }

  // No gradle or mvn on PATH: only the wrapper can answer.
  const env = { PATH: "/usr/bin:/bin", HOME: "/nonexistent", RTK_NO_TRACK: "1", LC_ALL: "C", TZ: "UTC", NO_COLOR: "1", ...COMPACT_EVERY_OUTPUT };
  for (const [tool, name, wrapper] of [
    ["gradle", "gradle/compile-errors", "gradlew"],
    ["gradle", "gradle/test-fail", "gradlew"],
    ["mvn", "mvn/compile-errors", "mvnw"],
  ] as const) {
    test(`./${wrapper} ${name}`, async () => {
      const c = toolCases(tool).find((x) => x.name === name)!;
      const dir = project(c, wrapper);
      try {
        const args = [...c.argv.slice(1), "-Dmessage=two words"];
        const r = await launch([`./${wrapper}`, ...args], { cwd: dir, env });
        assert.equal(r.status, c.exit, r.stderr);
        assert.deepEqual(readFileSync(join(dir, "args.txt"), "utf8").split("\n").slice(0, -1), args);
        // The same compact output as the tool's own command gives.
        const direct = await played(c);
        assert.equal(normalise(r.stdout), normalise(direct.stdout));
        assert.notEqual(r.stdout, c.stdout);
        assert.ok(r.stdout.length + r.stderr.length < c.stdout.length + c.stderr.length);
        const ex = await launch(["explain", `./${wrapper} ${c.argv.slice(1).join(" ")}`], { cwd: dir, env });
        assert.match(ex.stdout, new RegExp(`rewrite +- +${tool}\\.\\w+ +\\./${wrapper} `));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
