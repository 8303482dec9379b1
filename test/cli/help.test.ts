// The command line explains itself: `--help` on every command (exit 0, a usage
// line, options, an example), `rtk help <command>`, and usage errors that name
// the offending word, list the valid ones and exit 2 (rtk rewrite: 64, since its
// 2 means denied; rtk hook: 0, a hook never blocks).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { FILTER_IDS } from "../../src/filters/catalog.js";
import { REASON_TEXT, reasonTable } from "../../src/rewrite/reasons.js";
import { HELD_TEXT, heldTable } from "../../src/permissions/replacement.js";
import { allRoutes } from "../../src/routes/registry.js";
import { ensureBuilt } from "../support/build.js";
import { repoRoot } from "../support/corpus.js";
import { launch } from "../support/launch.js";
import { removeSandboxes, sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

const box = sandbox("rtk-help-");
const rtk = (args: string[]) => launch(args, { cwd: box.cwd, env: box.env });

const COMMANDS = ["rewrite", "explain", "hook", "init", "doctor", "recall", "gain", "proxy", "config", "trust", "verify", "help"];

describe("--help and -h on every command", () => {
  for (const cmd of COMMANDS) {
    for (const flag of ["--help", "-h"]) {
      test(`rtk ${cmd} ${flag}`, async () => {
        const r = await rtk([cmd, flag]);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, new RegExp(`^rtk ${cmd} — `));
        assert.match(r.stdout, new RegExp(`\\nUsage:\\n  rtk ${cmd}`));
        if (cmd !== "help") assert.match(r.stdout, /\nOptions:\n {2}.*-h, --help/s);
        assert.match(r.stdout, new RegExp(`\\nExamples?:\\n  (\\S+ )*rtk ${cmd}`));
        assert.equal(r.stderr, "");
      });
    }
    test(`rtk help ${cmd} is rtk ${cmd} --help`, async () => {
      const [a, b] = await Promise.all([rtk(["help", cmd]), rtk([cmd, "--help"])]);
      assert.equal(a.status, 0);
      assert.equal(a.stdout, b.stdout);
    });
  }

  test("rtk proxy <tool> --help is the tool's own --help", async () => {
    const r = await rtk(["proxy", "sh", "-c", 'echo "$0 $1"', "--help"]);
    assert.deepEqual([r.status, r.stdout], [0, "--help \n"]);
  });

  test("rtk help: hosts, routed tool families, rtk's options and the environment; no command that does not exist", async () => {
    const r = await rtk(["help"]);
    assert.equal(r.status, 0);
    for (const word of [
      "claude",
      "cursor",
      "kiro",
      "opencode",
      "git (status, log",
      "grep",
      "--raw",
      "-v",
      "RTK_DISABLED",
      "RTK_RAW",
      "RTK_NO_TRACK",
      "RTK_CONFIG",
      "RTK_DATA_DIR",
      "RTK_ROUTES",
      "RTK_NO_PATH_CHECK",
      "NO_COLOR",
      "XDG_",
    ]) {
      assert.ok(r.stdout.includes(word), `rtk help names ${word}`);
    }
    for (const cmd of COMMANDS) assert.match(r.stdout, new RegExp(`\\n  rtk ${cmd}\\b`));
  });
});

describe("routed tool families", () => {
  // Counted here from the route rows and the filters that exist, not from what help calls a family.
  const expected = [
    ...new Set(
      allRoutes()
        .filter((r) => FILTER_IDS.has(r.filter))
        .map((r) => r.tool),
    ),
  ].sort();
  const counted = (text: string) => Number(/Routed tools: (\d+) families/.exec(text)?.[1]);

  test("rtk help prints the count and lists each routed tool once; the count is the registry's, at least 100", async () => {
    const r = await rtk(["help"]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split("\n");
    const start = lines.findIndex((l) => l.startsWith("Routed tools: "));
    const end = lines.findIndex((l, i) => i > start && l === "");
    // `git (status, log)`: the subcommands in parentheses are not families of their own.
    // A table's line wraps (its continuation indented further): its tools are read from its lines joined.
    const tables: string[] = [];
    for (const l of lines.slice(start + 1, end)) {
      if (/^ {4}/.test(l)) tables[tables.length - 1] += " " + l.trim();
      else tables.push(l.trim());
    }
    const listed = tables.flatMap((l) => l.replace(/\([^)]*\)/g, "").split(",")).map((t) => t.trim());
    assert.equal(new Set(listed).size, listed.length, `a tool listed twice: ${listed.join(" ")}`);
    assert.deepEqual([...listed].sort(), expected);
    assert.equal(counted(r.stdout), expected.length);
    assert.ok(expected.length >= 100, `${expected.length} routed tool families`);
  });

  test("help keeps within 100 columns: the overview and every command's", async () => {
    for (const args of [["help"], ...COMMANDS.map((c) => ["help", c])]) {
      const r = await rtk(args);
      const wide = r.stdout.split("\n").filter((l) => [...l].length > 100);
      assert.deepEqual(wide, [], `rtk ${args.join(" ")}`);
    }
  });

  test("rtk init --show prints the same count", async () => {
    const r = await rtk(["init", "--show"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(counted(r.stdout), expected.length, r.stdout);
  });
});

describe("usage errors: exit 2, the word named, the valid ones listed, the closest suggested", () => {
  const cases: [string[], RegExp][] = [
    [["help", "recal"], /unknown command `recal` \(did you mean `recall`\?\); valid: rewrite, explain/],
    [["init", "--agent", "claud"], /unknown host `claud` \(did you mean `claude`\?\); valid: claude, cursor.*opencode/],
    [["init", "--agent", "nosuchhost"], /unknown host `nosuchhost`; valid: claude/],
    [["init"], /--agent <host>; valid: claude/],
    [["init", "--agnt", "claude"], /unknown option `--agnt` \(did you mean `--agent`\?\)/],
    [["doctor", "--jsn"], /unknown option `--jsn` \(did you mean `--json`\?\); valid: --json, --help/],
    [["doctor", "extra"], /unexpected `extra`/],
    [["explain", "--tre", "ls"], /unknown option `--tre` \(did you mean `--tree`\?\)/],
    [["explain", "--host", "curso", "ls"], /unknown host `curso` \(did you mean `cursor`\?\)/],
    [["explain"], /no command given/],
    [["recall"], /give its id, or --list/],
    [["recall", "--lst"], /unknown option `--lst` \(did you mean `--list`\?\)/],
    [["recall", "abcdef1", "--head", "x"], /--head takes a number of lines, not `x`/],
    [["recall", "abcdef1", "--lines", "9-3"], /--lines takes a range/],
    [["config", "--jsn"], /unknown option `--jsn`/],
    [["trust", "--revok"], /unknown option `--revok` \(did you mean `--revoke`\?\)/],
    [["trust", "a", "b"], /one path at a time/],
    [["verify", "--all"], /unknown option `--all`/],
    [["proxy"], /no command to run/],
  ];
  for (const [args, message] of cases) {
    test(`rtk ${args.join(" ")}`, async () => {
      const r = await rtk(args);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
      assert.match(r.stderr, new RegExp(`\\nusage: rtk ${args[0]}`));
    });
  }

  test("rtk rewrite: a usage error is 64, apart from 1 (nothing to do) and 2 (denied)", async () => {
    for (const [args, message] of [
      [["rewrite"], /no command given/],
      [["rewrite", "--jsn", "git status"], /unknown option `--jsn` \(did you mean `--json`\?\)/],
      [["rewrite", "--host", "curso", "git status"], /unknown host `curso` \(did you mean `cursor`\?\)/],
    ] as const) {
      const r = await rtk([...args]);
      assert.equal(r.status, 64, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
    }
  });

  test("rtk hook: a mistyped host exits 0 and says so (the command runs unchanged)", async () => {
    const r = await rtk(["hook", "claud"]);
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /unknown host `claud` \(did you mean `claude`\?\); valid: claude, cursor/);
  });
});

describe("rtk's own options are one list for the dispatcher and the permission matcher", () => {
  test("rtk -v echo hi runs echo, as the matcher reads it", async () => {
    const r = await rtk(["-v", "echo", "hi"]);
    assert.deepEqual([r.status, r.stdout], [0, "hi\n"]);
  });

  test("a deny rule sees through rtk -v (the command it runs)", async () => {
    const b = sandbox("rtk-help-deny-");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(b.cwd, ".claude"));
    writeFileSync(join(b.cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(git push:*)"] } }));
    const r = await launch(["rewrite", "rtk -v git push"], { cwd: b.cwd, env: b.env });
    assert.equal(r.status, 2, r.stderr);
  });
});

describe("rtk explain says what its reasons mean and whose rules it used", () => {
  test("a legend line per reason shown, from the one table", async () => {
    const r = await rtk(["explain", "git status | grep x"]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.includes(`reasons:\n  pipe-producer  ${REASON_TEXT["pipe-producer"]}\n  pipe-consumer  ${REASON_TEXT["pipe-consumer"]}\n`), r.stdout);
    assert.doesNotMatch(r.stdout, /no-route/);
  });

  test("rules: Claude Code settings, with the files read", async () => {
    const b = sandbox("rtk-help-rules-");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(b.cwd, ".claude"));
    mkdirSync(join(b.home, ".claude"));
    writeFileSync(join(b.cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(git status)"] } }));
    writeFileSync(join(b.home, ".claude", "settings.json"), JSON.stringify({ permissions: {} }));
    const r = await launch(["explain", "git status"], { cwd: b.cwd, env: b.env });
    assert.match(r.stdout, /\nrules: {3}Claude Code settings \(2 files: [^\n]*\.claude\/settings\.json, [^\n]*\.claude\/settings\.json\)\n/);
    const none = await rtk(["explain", "--host", "kiro", "git status"]);
    assert.match(none.stdout, /\nrules: {3}none \(/);
  });

  test("the README's table of reasons is the legend's", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    assert.ok(readme.includes(reasonTable()), `README.md must hold this table:\n${reasonTable()}`);
  });

  test("the README's table of held rewrites is explain's", async () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    assert.ok(readme.includes(heldTable()), `README.md must hold this table:\n${heldTable()}`);
    const r = await rtk(["explain", "npm test"]);
    assert.ok(r.stdout.includes(`held:    host-asks: ${HELD_TEXT["host-asks"]}`), r.stdout);
  });
});
