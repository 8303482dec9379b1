// The package-manager filters on recorded output (test/fixtures/tools, made by
// `npm run fixtures`, or written from a tool's documented format where it
// cannot run here), each case played through the built bin/rtk with the tool
// stood in on PATH, and checked: golden compact output, every fact of the raw
// output (read by facts.ts, not by the filters) present, the tool's
// exit code, never longer than the raw output, every dropped line counted.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { repoRoot } from "../../support/corpus.js";
import { launch, type Run } from "../../support/launch.js";
import { isPackageRun, replay, toolCases, type ToolCase } from "../../support/replay.js";
import { factsOf, lostFacts, READERS } from "./facts.js";

const GOLDEN = join(repoRoot, "test", "filters", "golden", "packages");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
});

const normalise = (text: string) => text.replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

const runs = new Map<string, Promise<Run>>();
const played = (c: ToolCase) => {
  let r = runs.get(c.name);
  if (!r) runs.set(c.name, (r = replay(c)));
  return r;
};

const cases = Object.keys(READERS)
  .flatMap((tool) => toolCases(tool))
  .filter(isPackageRun);

const caseNamed = (name: string) => {
  const c = cases.find((x) => x.name === name);
  assert.ok(c, `no fixture ${name}`);
  return c;
};

const nonBlank = (text: string) => text.split("\n").filter((l) => l.trim() !== "").length;

test("every package manager in scope has fixtures", () => {
  const tools = new Set(cases.map((c) => c.argv[0]));
  for (const t of ["npm", "pnpm", "yarn", "bun", "pip", "uv", "poetry", "cargo", "go", "apt-get", "apt", "bundle", "composer"]) assert.ok(tools.has(t), `no fixture of ${t}`);
});

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

    test("every package, version, error, warning and count of the raw output is kept", async () => {
      const r = await played(c);
      assert.deepEqual(lostFacts(r.stdout + r.stderr, factsOf(c)), []);
    });

    test("never longer than the raw output", async () => {
      const r = await played(c);
      const raw = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
      const compact = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
      assert.ok(compact <= raw, `compact ${compact} bytes > raw ${raw} bytes`);
    });

    test("every line left out is counted in a marker with a recall handle", async () => {
      const r = await played(c);
      const compact = r.stdout + r.stderr;
      const marker = /… \+(\d+) lines? hidden \(([^)]*)\) \[rtk recall [0-9a-f]{7}\]/.exec(compact);
      const kinds = marker ? [...marker[2]!.matchAll(/(\d+) [^,]+/g)].reduce((n, m) => n + Number(m[1]), 0) : 0;
      if (marker) assert.equal(kinds, Number(marker[1]), "the kinds add up to the total");
      // Joined lists hold several raw lines in one: the compact output has at most the raw lines, less those the marker counts.
      assert.ok(nonBlank(compact) - (marker ? 1 : 0) <= nonBlank(c.stdout + c.stderr) - kinds, compact);
    });

    if (c.exit !== 0) {
      test("a failed run does not read as a success", async () => {
        const r = await played(c);
        assert.notEqual((r.stdout + r.stderr).trim(), "");
        const success = /\b(?:success\w*|done|up to date|complete)\b/gi;
        const said = (text: string) => text.match(success)?.length ?? 0;
        assert.ok(said(r.stdout + r.stderr) <= said(c.stdout + c.stderr), r.stdout);
      });
    }
  });
}

describe("npm", () => {
  test("the verdict comes last, so `| tail -1` keeps it", async () => {
    for (const name of ["npm/install-medium", "npm/install-deprecated-documented", "npm/uninstall"]) {
      const r = await played(caseNamed(name));
      const lines = r.stdout
        .trimEnd()
        .split("\n")
        .filter((l) => !l.startsWith("… +"));
      assert.match(lines[lines.length - 1]!, /^(?:added|removed|changed|up to date|\d+ vulnerabilities)/, name);
    }
  });

  test("a marker that would cost more than the lines it hides is not printed: the funding appeal stays, in one line", async () => {
    const c = caseNamed("npm/install-medium");
    const r = await played(c);
    assert.doesNotMatch(r.stdout, /rtk recall/);
    assert.match(r.stdout, /^18 packages looking for funding \(npm fund\)$/m);
    assert.doesNotMatch(r.stdout, /run `npm fund`/);
  });

  test("where a marker stands anyway, the funding appeal is counted in it", async () => {
    const r = await played(caseNamed("npm/install-deprecated-documented"));
    assert.match(r.stdout, /^… \+5 lines hidden \(2 funding, 3 hint\) \[rtk recall [0-9a-f]{7}\]$/m);
    assert.doesNotMatch(r.stdout, /funding \(npm fund\)/);
  });

  test("the run's time goes from the verdict, its counts stay", async () => {
    const r = await played(caseNamed("npm/install-medium"));
    assert.doesNotMatch(r.stdout, / in \d+s/);
    assert.match(r.stdout, /^added 83 packages$/m);
  });

  test("a JSON listing passes as the tool printed it", async () => {
    const c = caseNamed("npm/ls-medium");
    const r = await replay({ ...c, argv: [...c.argv, "--json"] });
    assert.equal(r.stdout, c.stdout);
  });

  test("npm outdated exits 1 when anything is outdated, and says what", async () => {
    const r = await played(caseNamed("npm/outdated"));
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^lodash 4\.17\.15 → 4\.18\.1$/m);
    assert.match(r.stdout, /^express 4\.17\.1 → 4\.22\.3 \(latest 5\.3\.0\)$/m);
  });
});

describe("pnpm and yarn", () => {
  test("the newer versions pnpm mentions are left out of the package list and counted in the marker", async () => {
    const c = caseNamed("pnpm/install-medium");
    const r = await played(c);
    const notes = c.stdout.match(/ \(\S+ is available\)$/gm)?.length ?? 0;
    assert.ok(notes > 1, "the fixture mentions newer versions");
    assert.doesNotMatch(r.stdout, /is available/);
    assert.match(r.stdout, /^dependencies added: body-parser 1\.20\.3, cookie-parser 1\.4\.7, cors 2\.8\.5,/m);
    assert.match(r.stdout, new RegExp(`^… \\+4 progress lines and ${notes} newer-version notes hidden \\[rtk recall [0-9a-f]{7}\\]$`, "m"));
  });

  test("one newer version, when a marker would cost more than it: it stays on its package", async () => {
    const c = caseNamed("pnpm/add");
    const dir = mkdtempSync(join(tmpdir(), "rtk-pnpm-note-"));
    try {
      writeFileSync(join(dir, "stdout"), "dependencies:\n+ debug 4.4.0 (4.4.3 is available)\n\nDone in 1.2s using pnpm v9.15.9\n");
      const r = await replay({ ...c, dir });
      assert.equal(r.stdout, "dependencies added: debug 4.4.0 (4.4.3 is available)\nDone using pnpm v9.15.9\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("yarn's banner, steps and info lines are one kind in the marker", async () => {
    const r = await played(caseNamed("yarn/install-medium"));
    assert.equal(r.stdout.replace(/[0-9a-f]{7}\]/, "<id>]"), "success Saved lockfile.\nDone.\n… +6 log lines hidden [rtk recall <id>]\n");
  });
});

describe("pip", () => {
  test("the collecting lines are counted and the verdict kept word for word", async () => {
    const c = caseNamed("pip/install-medium");
    const r = await played(c);
    const verdict = c.stdout.split("\n").find((l) => l.startsWith("Successfully installed "))!;
    assert.ok(r.stdout.split("\n").includes(verdict));
    const processing = c.stdout.split("\n").filter((l) => l.startsWith("Processing ")).length;
    assert.match(r.stdout, new RegExp(`\\b${processing} download\\b`));
  });

  test("a failed build keeps the exception it ended with", async () => {
    const r = await played(caseNamed("pip/install-build-failure"));
    assert.match(r.stderr, /RuntimeError: native extension: compiler not found \(cc\)/);
  });
});

describe("go", () => {
  test("-json output passes as the tool printed it", async () => {
    const c = caseNamed("go/get");
    const r = await replay({ ...c, argv: [...c.argv, "-json"] });
    assert.equal(r.stderr, c.stderr);
    assert.equal(r.status, c.exit);
  });
});

describe("apt", () => {
  test("a package configured after its Inst line is said once, with its old and new version", async () => {
    const r = await played(caseNamed("apt/install"));
    assert.match(r.stdout, /^Inst: jq 1\.6-2\.1\+deb12u1 → 1\.6-2\.1\+deb12u3, libjq1 /m);
    assert.doesNotMatch(r.stdout, /^Conf/m);
  });
});

/** Commands as agents write them, and their rewrite. */
const REWRITES: readonly [string, string][] = [
  ["npm install", "rtk npm install"],
  ["npm ci 2>&1 | tail -20", "rtk npm ci 2>&1 | tail -20"],
  ["npm i -D vitest", "rtk npm i -D vitest"],
  ["npm ls", "rtk npm ls"],
  ["npm outdated", "rtk npm outdated"],
  ["npm audit", "rtk npm audit"],
  ["pnpm install", "rtk pnpm install"],
  ["pnpm add lodash 2>&1 | tail -5", "rtk pnpm add lodash 2>&1 | tail -5"],
  ["pnpm list", "rtk pnpm list"],
  ["yarn add lodash", "rtk yarn add lodash"],
  ["bun install", "rtk bun install"],
  ["pip install -r requirements.txt", "rtk pip install -r requirements.txt"],
  ["pip3 install requests 2>&1 | tail -3", "rtk pip3 install requests 2>&1 | tail -3"],
  ["python -m pip install requests", "rtk python -m pip install requests"],
  ["pip list", "rtk pip list"],
  ["uv sync", "rtk uv sync"],
  ["uv pip install requests", "rtk uv pip install requests"],
  ["poetry install", "rtk poetry install"],
  ["cargo add serde --features derive", "rtk cargo add serde --features derive"],
  ["cargo update", "rtk cargo update"],
  ["go mod tidy", "rtk go mod tidy"],
  ["go get example.com/x@v1.2.0", "rtk go get example.com/x@v1.2.0"],
  ["bundle install", "rtk bundle install"],
  ["composer install", "rtk composer install"],
  ["apt-get install -y jq", "rtk apt-get install -y jq"],
  ["apt install -s jq 2>&1 | tail -3", "rtk apt install -s jq 2>&1 | tail -3"],
];

/** Commands that stay as they are: their output goes to a file or a reader that needs it whole. */
const UNTOUCHED = ["pip freeze", "pip freeze > requirements.txt", "npm ls | grep lodash", "pip list | grep req", "npm audit fix", "npm outdated | head"];

test("the rewrite routes these commands, also into tail", async () => {
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/nonexistent", RTK_NO_TRACK: "1" };
  for (const [cmd, want] of REWRITES) {
    const r = await launch(["rewrite", "--host", "none", cmd], { cwd: repoRoot, env });
    assert.equal(r.stdout, want, `${cmd}: ${r.stderr}`);
  }
});

test("a listing piped on, a freeze into a file and an audit fix are not rewritten", async () => {
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: "/nonexistent", RTK_NO_TRACK: "1" };
  for (const cmd of UNTOUCHED) {
    const r = await launch(["rewrite", "--host", "none", cmd], { cwd: repoRoot, env });
    assert.equal(r.status, 1, `${cmd}: ${r.stdout}`);
  }
});
