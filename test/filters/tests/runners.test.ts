// The test-runner filters on recorded real output (test/fixtures/tools/<tool>/,
// made by `npm run fixtures`; a few written from a tool's documented format):
// every case replayed through the built bin/rtk with the tool stood in on PATH
// and checked — golden compact output, the runner's exit code exactly, never
// longer than raw, every fact of the raw output (read by facts.ts, not
// by the filter) present — plus the rewrite of the pipelines agents write and
// what `| tail` sees of the compact output.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { repoRoot } from "../../support/corpus.js";
import { RTK } from "../../support/launch.js";
import { isTestRun, replay, standInEnv, toolCases, type ToolCase } from "../../support/replay.js";
import { FACT_READERS, holds, replayRunner } from "./facts.js";
import { cargoTest } from "../../../src/filters/tests/cargo.js";
import { goTest } from "../../../src/filters/tests/go.js";
import type { Filter, FilterInput } from "../../../src/filters/types.js";
import { allRoutes } from "../../../src/routes/registry.js";

const GOLDEN = join(repoRoot, "test", "filters", "golden", "runners");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
});

const normalise = (text: string) => text.replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

const TOOLS = Object.keys(FACT_READERS);

for (const tool of TOOLS) {
  describe(`${tool} fixtures`, () => {
    for (const c of toolCases(tool).filter(isTestRun)) {
      test(`${c.name} (${c.recorded}, ${c.version})`, async () => {
        const r = await replayRunner(c);
        assert.equal(r.status, c.exit, `exit code: ${r.stderr}`);
        const raw = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
        const compact = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
        assert.ok(compact <= raw, `compact ${compact} bytes > raw ${raw} bytes`);
        const facts = FACT_READERS[tool]!(c.stdout, c.stderr);
        const missing = facts.filter((f) => !holds(r.stdout + r.stderr, f));
        assert.deepEqual(missing, [], `facts missing from the compact output:\n${r.stdout}${r.stderr}`);
        // Machine output (passed through as it is) is not read for facts.
        if (c.exit !== 0 && !c.argv.some((a) => /^-+json$/.test(a))) assert.ok(facts.length > 0, "a failing fixture states facts");
        golden(c, `$ ${c.argv.join(" ")}\nexit ${r.status}\n--- stdout\n${normalise(r.stdout)}--- stderr\n${normalise(r.stderr)}`);
      });
    }
  });
}

function golden(c: ToolCase, text: string): void {
  const file = join(GOLDEN, `${c.name}.txt`);
  if (UPDATE || !existsSync(file)) {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, text);
    if (!UPDATE) assert.fail(`golden file created: ${file} (inspect it, then rerun)`);
    return;
  }
  assert.equal(text, readFileSync(file, "utf8"));
}

/** `sh -c <pipeline>` with the recorded tool standing in on PATH, rtk's own launcher named by path. */
function pipeline(c: ToolCase, script: string): { status: number | null; stdout: string } {
  const root = mkdtempSync(join(tmpdir(), "rtk-pipe-"));
  try {
    const bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, c.argv[0]!), `#!/bin/sh\ncat '${join(c.dir, "stdout")}'\ncat '${join(c.dir, "stderr")}' >&2\nexit ${c.exit}\n`);
    chmodSync(join(bin, c.argv[0]!), 0o755);
    const r = spawnSync("sh", ["-c", script], {
      cwd: root,
      encoding: "utf8",
      env: standInEnv(root, bin),
    });
    return { status: r.status, stdout: r.stdout };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function rewrite(command: string): string {
  const r = spawnSync(RTK, ["rewrite", "--host", "none", command], { encoding: "utf8", env: { ...process.env, RTK_NO_PATH_CHECK: "1" } });
  // 3: rewritten, and the host asks (no permission rule allows it here).
  return r.status === 0 || r.status === 3 ? r.stdout : `(not rewritten, exit ${r.status}: ${r.stderr.trim()})`;
}

const caseNamed = (name: string) => toolCases(name.split("/")[0]).find((c) => c.name === name)!;

describe("pipelines agents write", () => {
  const PIPES: [string, string][] = [
    ["cargo test 2>&1 | tail -30", "rtk cargo test 2>&1 | tail -30"],
    ["cargo test --no-fail-fast 2>&1 | tail", "rtk cargo test --no-fail-fast 2>&1 | tail"],
    ["cargo nextest run 2>&1 | tail -20", "rtk cargo nextest run 2>&1 | tail -20"],
    ["pytest -x -q 2>&1 | tail", "rtk pytest -x -q 2>&1 | tail"],
    ["go test ./... 2>&1 | tail -20", "rtk go test ./... 2>&1 | tail -20"],
    ["npx vitest run 2>&1 | tail -30", "rtk npx vitest run 2>&1 | tail -30"],
    ["npx jest 2>&1 | tail -40", "rtk npx jest 2>&1 | tail -40"],
    ["node --test 2>&1 | tail", "rtk node --test 2>&1 | tail"],
    ["npm test 2>&1 | head -50", "rtk npm test 2>&1 | head -50"],
    ["mvn test 2>&1 | tail -40", "rtk mvn test 2>&1 | tail -40"],
    ["mvn -q clean test | tail", "rtk mvn -q clean test | tail"],
    ["./gradlew test 2>&1 | tail -30", "rtk ./gradlew test 2>&1 | tail -30"],
    ["npm run test:unit 2>&1 | tail -20", "rtk npm run test:unit 2>&1 | tail -20"],
    ["bun test 2>&1 | tail -30", "rtk bun test 2>&1 | tail -30"],
    ["deno test 2>&1 | tail -30", "rtk deno test 2>&1 | tail -30"],
    ["npx playwright test 2>&1 | tail -40", "rtk npx playwright test 2>&1 | tail -40"],
    ["bundle exec rspec 2>&1 | tail -30", "rtk bundle exec rspec 2>&1 | tail -30"],
    ["vendor/bin/phpunit 2>&1 | tail -30", "rtk vendor/bin/phpunit 2>&1 | tail -30"],
    ["dotnet test 2>&1 | tail -40", "rtk dotnet test 2>&1 | tail -40"],
    ["pnpm test 2>&1 | tail", "rtk pnpm test 2>&1 | tail"],
    ["yarn test | tail -30", "rtk yarn test | tail -30"],
    ["python -m pytest 2>&1 | tail -20", "rtk python -m pytest 2>&1 | tail -20"],
    ["uv run pytest -q | tail -5", "rtk uv run pytest -q | tail -5"],
    ["poetry run pytest tests/ 2>&1 | head -50", "rtk poetry run pytest tests/ 2>&1 | head -50"],
  ];
  for (const [input, want] of PIPES) {
    test(`rewrites ${input}`, () => assert.equal(rewrite(input), want));
  }

  test("cargo test 2>&1 | tail: the failures and the summary are the last lines, after the compiler's warnings", () => {
    const c = caseNamed("cargo/fail");
    const r = pipeline(c, `${RTK} cargo test 2>&1 | tail -n 12`);
    assert.match(r.stdout, /cargo test: FAILED\. 3 failed; 2 passed; 1 ignored/);
    assert.match(r.stdout, /error: test failed, to rerun pass `--lib`\n$/);
    assert.doesNotMatch(r.stdout, /unused variable/);
  });
});

test("bun test 2>&1 | tail -5 and deno test 2>&1 | tail -3: the counts are the last lines", () => {
  assert.equal(
    pipeline(caseNamed("bun/test-fail"), `${RTK} bun test 2>&1 | tail -n 5`).stdout.replace(/[0-9a-f]{7}\]/, "<id>]"),
    " 2 pass [rtk recall <id>]\n 1 skip\n 5 fail\nsnapshots: 1 failed\nRan 8 tests across 2 files.\n",
  );
  assert.match(
    pipeline(caseNamed("deno/test-fail"), `${RTK} deno test 2>&1 | tail -n 3`).stdout,
    /^calc table \.\.\. add\(2, 3\) => .*\nFAILED \| 2 passed \(1 step\) \| 4 failed \(1 step\) \| 1 ignored \[rtk recall [0-9a-f]{7}\]\nerror: Test failed\n$/,
  );
});

test("pytest -q 2>&1 | tail -3: the short summary and the verdict are the last lines", () => {
  const r = pipeline(caseNamed("pytest/fail-q"), `${RTK} pytest -q 2>&1 | tail -n 3`);
  assert.match(
    r.stdout,
    /^FAILED tests\/test_calc\.py::test_dicts .*\nFAILED tests\/test_calc\.py::test_param\[2-3-6\] - assert 5 == 6\n5 failed, 3 passed, 1 skipped, 1 xfailed in [\d.]+s \[rtk recall [0-9a-f]{7}\]\n$/,
  );
});

test("pytest: a failed run never reads as no tests collected; a run that collected none says so as pytest did", async () => {
  for (const c of toolCases("pytest").filter((x) => x.exit === 1 || x.exit === 2)) {
    const r = await replay(c);
    assert.doesNotMatch(r.stdout, /no tests (ran|collected)/i, c.name);
    assert.match(r.stdout, /\d+ (failed|errors?)\b/, c.name);
  }
  const none = await replay(caseNamed("pytest/no-tests"));
  assert.equal(none.status, 5);
  assert.match(none.stdout, /no tests ran/);
});

describe("npm scripts", () => {
  test("npm test running jest: jest's exit code 1 stays 1, its failures and counts are kept", async () => {
    const r = await replay(caseNamed("npm/test-jest-fail"));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /● calc › adds wrong/);
    assert.match(r.stderr, /Tests: {7}5 failed, 1 skipped, 2 passed, 8 total/);
    assert.doesNotMatch(r.stdout + r.stderr, /^> /m);
  });

  test("a script whose output no runner claims prints as it came, without npm's banner", async () => {
    const c = caseNamed("npm/run-unknown");
    const r = await replay(c);
    assert.equal(r.stdout, c.stdout.replace("\n> calc@1.0.0 check\n> node check.js\n\n", ""));
    assert.equal(r.stderr, c.stderr);
    assert.equal(r.status, 1);
  });

  test("a watcher or a server script runs with rtk's own stdio (nothing held back)", () => {
    for (const cmd of ["npm run dev", "npm run test -- --watch", "npm run test:watch"]) {
      const c = { ...caseNamed("npm/test-jest-fail"), argv: cmd.split(" ") };
      const r = pipeline(c, `${RTK} ${cmd} 2>/dev/null`);
      // jest's output as it printed it, banner and timing included (a filtered run drops both).
      assert.equal(r.stdout, c.stdout, cmd);
      assert.equal(pipeline(c, `${RTK} ${cmd} 2>&1 >/dev/null | tail -n 1`).stdout, "Ran all test suites.\n", cmd);
    }
  });
});

describe("npm scripts running a build or a linter: the tool told by its output, its own filter applied", () => {
  const TOOL_CASES = [
    "tsc/errors",
    "tsc/pretty",
    "eslint/errors",
    "eslint/medium-warnings",
    "prettier/check",
    "vite/build-error",
    "vite/medium-build",
    "next/type-error",
    "next/medium-build",
    "webpack/errors",
  ];
  const SCRIPT_FORMS: [string[], (command: string) => string][] = [
    [["npm", "run", "build"], (command) => `\n> calc@1.0.0 build\n> ${command}\n\n`],
    [["pnpm", "build"], (command) => `\n> calc@1.0.0 build /home/dev/calc\n> ${command}\n\n`],
    [["yarn", "lint"], (command) => `yarn run v1.22.22\n$ ${command}\n`],
  ];
  for (const name of TOOL_CASES) {
    test(`${name} under npm run build, pnpm build, yarn lint: the same compact output and exit code as the tool run by its name`, async () => {
      const c = caseNamed(name);
      const direct = await replay(c);
      for (const [argv, banner] of SCRIPT_FORMS) {
        const dir = mkdtempSync(join(tmpdir(), "rtk-script-"));
        try {
          const stdout = banner(c.argv.join(" ")) + c.stdout;
          writeFileSync(join(dir, "stdout"), stdout);
          writeFileSync(join(dir, "stderr"), c.stderr);
          const wrapped: ToolCase = { ...c, name: `${argv[0]}/${c.name}`, dir, argv, stdout };
          const r = await replay(wrapped);
          assert.equal(r.status, c.exit, `${argv.join(" ")}: exit code`);
          assert.equal(normalise(r.stdout), normalise(direct.stdout), `${argv.join(" ")} (${name}): stdout`);
          assert.equal(normalise(r.stderr), normalise(direct.stderr), `${argv.join(" ")} (${name}): stderr`);
          assert.ok(r.stdout.length + r.stderr.length < stdout.length + c.stderr.length, "shorter than raw");
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    });
  }

  test("pnpm build and yarn lint are rewritten; pnpm dev and yarn add are not scripts of this route", () => {
    assert.equal(rewrite("pnpm build 2>&1 | tail -20"), "rtk pnpm build 2>&1 | tail -20");
    assert.equal(rewrite("yarn lint"), "rtk yarn lint");
    assert.equal(rewrite("npm run build 2>&1 | tail -30"), "rtk npm run build 2>&1 | tail -30");
    assert.match(rewrite("pnpm dev"), /^\(not rewritten/);
  });
});

describe("watch streams", () => {
  const vitestBin = join(repoRoot, "node_modules", ".bin", "vitest");
  test("rtk vitest watch: the failure and the counts are shown while vitest still runs", { skip: !existsSync(vitestBin) && "vitest is not installed", timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), "rtk-watch-"));
    try {
      mkdirSync(join(root, "test"));
      writeFileSync(join(root, "package.json"), '{ "name": "w", "type": "module", "private": true }\n');
      writeFileSync(join(root, "test", "a.test.js"), 'import { test, expect } from "vitest";\ntest("ok", () => { expect(1).toBe(1); });\ntest("bad", () => { expect(1).toBe(2); });\n');
      const child = spawn(RTK, ["vitest", "watch"], {
        cwd: root,
        env: { ...process.env, PATH: `${join(repoRoot, "node_modules", ".bin")}:${process.env["PATH"]}`, RTK_NO_TRACK: "1", XDG_DATA_HOME: join(root, "data"), CI: "", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stderr.on("data", (b: Buffer) => (err += b.toString()));
      const exited = new Promise<number | null>((res) => child.on("close", (code) => res(code)));
      await new Promise<void>((res, rej) => {
        child.stdout.on("data", (b: Buffer) => {
          out += b.toString();
          if (/Tests {2}1 failed \| 1 passed/.test(out)) res();
        });
        child.on("close", () => rej(new Error(`rtk vitest watch ended before showing results:\n${out}${err}`)));
      });
      // Results are out and the watcher still runs: nothing waited for its end.
      assert.equal(child.exitCode, null);
      child.kill("SIGTERM");
      await exited;
      assert.match(err, /FAIL {2}test\/a\.test\.js > bad/);
      assert.match(err, /❯ test\/a\.test\.js:3:\d+/);
      assert.doesNotMatch(out, /✓|press h to show help/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("watch streams beyond vitest", () => {
  const jestBin = join(repoRoot, "node_modules", ".bin", "jest");
  test("rtk jest --watchAll: the failure and the counts are shown while jest still watches", { skip: !existsSync(jestBin) && "jest is not installed", timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), "rtk-jest-watch-"));
    try {
      mkdirSync(join(root, "test"));
      writeFileSync(join(root, "package.json"), '{ "name": "w", "private": true }\n');
      writeFileSync(join(root, "test", "a.test.js"), 'test("ok", () => {\n  expect(1).toBe(1);\n});\ntest("bad", () => {\n  expect(1).toBe(2);\n});\n');
      const child = spawn(RTK, ["jest", "--watchAll"], {
        cwd: root,
        env: { ...process.env, PATH: `${join(repoRoot, "node_modules", ".bin")}:${process.env["PATH"]}`, RTK_NO_TRACK: "1", XDG_DATA_HOME: join(root, "data"), CI: "", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      const exited = new Promise<number | null>((res) => child.on("close", (code) => res(code)));
      // Results that never come fail the test, and the watcher goes with it.
      let timer: NodeJS.Timeout | undefined;
      try {
        await new Promise<void>((res, rej) => {
          child.stderr.on("data", (b: Buffer) => {
            err += b.toString();
            if (/Tests: +1 failed, 1 passed, 2 total/.test(err)) res();
          });
          child.on("close", () => rej(new Error(`rtk jest --watchAll ended before showing results:\n${err}`)));
          timer = setTimeout(() => rej(new Error(`no results shown while jest watched:\n${err}`)), 60_000);
        });
        assert.equal(child.exitCode, null);
      } finally {
        clearTimeout(timer);
        child.kill("SIGTERM");
        await exited;
      }
      assert.match(err, /● bad/);
      assert.match(err, /Expected: 2/);
      assert.match(err, /at Object\.toBe \(test\/a\.test\.js:5:\d+\)/);
      assert.doesNotMatch(err, /^Time:|Watch Usage|Ran all test suites/m);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("jest --watch, mocha -w and node --test --watch stream; bun test --watch and deno test --watch run as the tool's own", async () => {
    // A recorded run replayed under the watch flag: printed as it came (no end to wait for), its facts kept.
    for (const [name, argv] of [
      ["jest/fail", ["jest", "--watch"]],
      ["mocha/fail", ["mocha", "-w", "test/*.test.js"]],
    ] as const) {
      const c = { ...caseNamed(name), argv: [...argv] };
      const r = await replay(c);
      const buffered = await replay(caseNamed(name));
      assert.equal(r.status, c.exit, name);
      for (const f of FACT_READERS[name.split("/")[0]!]!(c.stdout, c.stderr)) assert.ok(holds(r.stdout + r.stderr, f), `${name}: ${f.text}`);
      assert.ok(r.stdout.length + r.stderr.length <= buffered.stdout.length + buffered.stderr.length + 200, name);
    }
    for (const [name, argv] of [
      ["bun/test-fail", ["bun", "test", "--watch"]],
      ["deno/test-fail", ["deno", "test", "--watch"]],
    ] as const) {
      const c = { ...caseNamed(name), argv: [...argv] };
      const r = pipeline(c, `${RTK} ${argv.join(" ")} 2>/dev/null`);
      assert.equal(r.stdout, c.stdout, name);
    }
  });
});

describe("routes", () => {
  test("node routes only with --test before its script", () => {
    assert.equal(rewrite("node --test test/"), "rtk node --test test/");
    assert.equal(rewrite("node -r ./setup.js --test"), "rtk node -r ./setup.js --test");
    assert.match(rewrite("node server.js --test"), /^\(not rewritten/);
    assert.match(rewrite("node server.js"), /^\(not rewritten/);
  });
});

describe("machine output passes through", () => {
  test("go test -json: untouched", async () => {
    const c = caseNamed("go/test-json");
    const r = await replay(c);
    assert.equal(r.stdout, c.stdout);
    assert.equal(r.status, 1);
  });

  test("bun test --reporter=junit, deno test --reporter=dot, playwright test --reporter …: untouched", async () => {
    for (const [name, argv] of [
      ["bun/test-fail", ["bun", "test", "--reporter=junit", "--reporter-outfile=junit.xml"]],
      ["deno/test-fail", ["deno", "test", "--reporter=dot"]],
      ["playwright/test-fail", ["playwright", "test", "--reporter=line"]],
      ["playwright/test-fail", ["playwright", "test", "--reporter", "json"]],
    ] as const) {
      const c = { ...caseNamed(name), argv: [...argv] };
      const r = await replay(c);
      assert.equal(r.stdout, c.stdout, name);
      assert.equal(r.stderr, c.stderr, name);
      assert.equal(r.status, 1, name);
    }
  });

  test("cargo test -- --format json: untouched", async () => {
    const c = { ...caseNamed("cargo/fail") };
    c.argv = ["cargo", "test", "--", "-Z", "unstable-options", "--format", "json"];
    const r = await replay(c);
    assert.equal(r.stdout, c.stdout);
    assert.equal(r.status, c.exit);
  });
});

describe("in process: what a runner's summary may say", () => {
  const input = (argv: string[], route: string): FilterInput => ({ argv, toolIndex: 0, subIndex: 1, route: allRoutes().find((r) => r.id === route)! });
  const run = (filter: Filter, argv: string[], route: string, lines: readonly (readonly ["out" | "err", string])[], exit: number) => {
    const r = filter.start(input(argv, route), { recall: { id: () => "abc1234" }, emit: { out() {}, err() {} } });
    for (const [s, l] of lines) r.line(s, l);
    return r.end(exit);
  };

  test("go test without -v: the failures are counted, the passes (never printed) are not", () => {
    const pkgs = ["a", "b", "c", "d", "e", "f"].map((p) => ["out", `ok  \texample.com/m/${p}\t0.01${p.length}s`] as const);
    const lines = [
      ["out", "--- FAIL: TestBreaks (0.00s)"],
      ["out", "    calc_test.go:9: Add(2, 2) = 4, want 5"],
      ["out", "FAIL"],
      ["out", "FAIL\texample.com/m\t0.02s"],
      ...pkgs,
      ["out", "FAIL"],
    ] as const;
    const out = run(goTest, ["go", "test", "./..."], "go.test", lines, 1)!.stdout;
    assert.match(out, /^go test: 7 packages: 1 failed, 6 ok; tests: 1 failed \[rtk recall abc1234\]$/m);
    const verbose = run(goTest, ["go", "test", "-v", "./..."], "go.test", [["out", "=== RUN   TestOk"], ["out", "--- PASS: TestOk (0.00s)"], ["out", "=== RUN   TestBreaks"], ...lines], 1)!.stdout;
    assert.match(verbose, /tests: 1 failed, 1 passed \[rtk recall abc1234\]$/m);
  });

  test("cargo test: cargo's verdict lines after a diagnostic with no blank line between are kept", () => {
    const lines = [
      ["err", "   Compiling calc v0.1.0 (/p)"],
      ["err", "error[E0277]: cannot add `&str` to `i32`"],
      ["err", " --> src/lib.rs:1:43"],
      ["err", ""],
      ["err", "error: could not compile `calc` (lib) due to 1 previous error"],
      ["err", "warning: build failed, waiting for other jobs to finish..."],
      ["err", "error: could not compile `calc` (lib test) due to 1 previous error"],
    ] as const;
    const c = run(cargoTest, ["cargo", "test"], "cargo.test", lines, 101)!;
    const text = (c.before ?? "") + c.stdout + c.stderr;
    for (const want of [
      "error: could not compile `calc` (lib) due to 1 previous error",
      "warning: build failed, waiting for other jobs to finish...",
      "error: could not compile `calc` (lib test) due to 1 previous error",
    ]) {
      assert.ok(text.includes(want), `${want}\n---\n${text}`);
    }
  });
});
