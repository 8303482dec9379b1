// The config files (spec/runtime.md "Config"): every problem names the file, the
// line and the key — an error for `rtk config` and `rtk verify`, a warning on
// the hook path, which keeps its exit-code contract and its defaults; `rtk
// config` shows where each value came from; a project file applies only while
// `rtk trust` has pinned its content, and the trust store is owner-only.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { rtk, sandbox, warnings, write } from "./sandbox.js";

before(() => {
  ensureBuilt();
});

const FILTER = `[[filters]]\nname = "sh"\nmatch = "^sh -c"\nstrip_lines = ["^noise"]\n`;

/** [what, config text, line, key, message pattern] */
const PROBLEMS: readonly (readonly [string, string, number, string, RegExp])[] = [
  ["an unknown section", `[hooks]\nexclude_commands = []\n\n[trackin]\nenabled = true\n`, 4, "trackin", /unknown key/],
  ["an unknown key in a section", `[hooks]\nexclude_commands = ["git push"]\nexclude_commnds = ["x"]\n`, 3, "hooks.exclude_commnds", /unknown key .*exclude_commands/],
  ["a list given as a string", `# mine\n[hooks]\nexclude_commands = "git push"\n`, 3, "hooks.exclude_commands", /must be a list of strings, not a string/],
  ["a boolean given as a string", `[tracking]\nenabled = "yes"\n`, 2, "tracking.enabled", /must be true or false/],
  ["a count that is not a whole number", `[recall]\nmax_entries = 200\nmax_age_days = 1.5\n`, 3, "recall.max_age_days", /whole number/],
  ["a limit of zero", `[limits]\nmax_lines = 0\n`, 2, "limits.max_lines", /≥ 1/],
  ["a dotted key outside its table", `hooks.transparent_prefixes = [1]\n`, 1, "hooks.transparent_prefixes[0]", /must be a string/],
  ["an invalid exclude_commands regex", `[hooks]\nexclude_commands = ["^git (push"]\n`, 2, "hooks.exclude_commands[0]", /invalid regular expression/],
  ["an unknown key in a filter", `${FILTER}heads = 3\n`, 5, "filters[0].heads", /unknown key in a filter/],
  ["a filter's head given as a string", `${FILTER}\n[[filters]]\nname = "b"\nmatch = "^b"\nhead = "10"\n`, 9, "filters[1].head", /whole number/],
  ["an invalid match regex", `[[filters]]\nname = "x"\nmatch = "^x("\n`, 3, "filters[0].match", /invalid regular expression "\^x\("/],
  ["an invalid strip_lines regex", `[[filters]]\nname = "x"\nmatch = "^x"\nstrip_lines = ["a", "[b"]\n`, 4, "filters[0].strip_lines[1]", /invalid regular expression/],
  ["keep_lines with strip_lines", `${FILTER}keep_lines = ["x"]\n`, 5, "filters[0].keep_lines", /exclusive/],
  ["a filter without a match", `[[filters]]\nname = "x"\n`, 1, "filters[0].match", /required/],
  ["a replace without with", `${FILTER}replace = [{ pattern = "a" }]\n`, 5, "filters[0].replace[0].with", /required/],
  ["an inline test without expected", `${FILTER}[[filters.tests]]\ninput = "a"\n`, 5, "filters[0].tests[0].expected", /required/],
  ["two filters of the same name", `${FILTER}[[filters]]\nname = "sh"\nmatch = "^x"\n`, 6, "filters[1].name", /already defined at line 1/],
];

describe("a problem in a config file names the file, the line and the key", () => {
  for (const [what, text, line, key, message] of PROBLEMS) {
    test(`${what}: \`rtk config\` and \`rtk verify\` fail (exit 1)`, () => {
      const s = sandbox();
      write(s.userFile, text);
      for (const cmd of ["config", "verify"]) {
        const r = rtk(s, [cmd]);
        assert.equal(r.status, 1, `${cmd}: ${r.stderr}`);
        const lines = r.stderr.split("\n").filter((l) => l.includes(`${s.userFile}:${line}: ${key}: `));
        assert.equal(lines.length, 1, `${cmd} stderr:\n${r.stderr}`);
        assert.match(lines[0]!, message);
        assert.match(lines[0]!, /error/);
      }
    });
  }

  test("invalid TOML: the line of the syntax error", () => {
    const s = sandbox();
    write(s.userFile, `[hooks]\nexclude_commands = ["git push"]\n[limits\n`);
    const r = rtk(s, ["config"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`${s.userFile}:3: not valid TOML`));
  });

  test("a problem in the trusted project file names that file", () => {
    const s = sandbox();
    write(s.projectFile, `[recall]\n\nenabled = 1\n`);
    assert.equal(rtk(s, ["trust"]).status, 0);
    const r = rtk(s, ["config"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`${s.projectFile}:3: recall\\.enabled: must be true or false`));
  });

  test("RTK_CONFIG names the user file", () => {
    const s = sandbox();
    const file = join(s.root, "elsewhere.toml");
    write(file, `[limits]\nmax_lines = -1\n`);
    const r = rtk(s, ["config"], { env: { RTK_CONFIG: file } });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`${file}:2: limits\\.max_lines`));
    assert.match(r.stdout, new RegExp(`user file: +${file}`));
  });
});

describe("the hook path: a config problem is a warning, never a change of the contract", () => {
  const cases: readonly (readonly [string, string])[] = [
    ["invalid TOML", `[hooks\nexclude_commands = ["git status"`],
    ["an unknown key", `[hooks]\nexclude = ["git status"]\n`],
    ["a wrong type", `[hooks]\nexclude_commands = "git status"\n`],
    ["an invalid filter", `[[filters]]\nname = "x"\nmatch = "("\n`],
    ["an unknown section", `[hook]\nexclude_commands = ["git status"]\n`],
  ];
  for (const [what, text] of cases) {
    test(`${what}: \`rtk rewrite\` answers as with no config, one warning naming file and line`, () => {
      const s = sandbox();
      write(s.userFile, text);
      const r = rtk(s, ["rewrite", "--host", "none", "git status"]);
      assert.equal(r.stdout, "rtk git status");
      assert.equal(r.status, 3);
      const w = warnings(r.stderr);
      assert.equal(w.length, 1, r.stderr);
      assert.match(w[0]!, new RegExp(`warning: ${s.userFile}:\\d+: `));
    });
  }

  test("the same problem of an unchanged file is said once, not on every run; a change of the file says it again; rtk config always does", () => {
    const s = sandbox();
    write(s.userFile, `[hooks]\nexclude = ["git status"]\n`);
    const said = (args: string[]) => warnings(rtk(s, args).stderr).length;
    assert.equal(said(["rewrite", "--host", "none", "git status"]), 1, "first run");
    assert.equal(said(["rewrite", "--host", "none", "git status"]), 0, "second run: nothing new");
    assert.equal(said(["git", "--version"]), 0, "the run path shares the memory");
    assert.match(rtk(s, ["config"]).stderr, /exclude/, "rtk config reports it every time");
    write(s.userFile, `[hooks]\nexclude = ["git status"]\n\n`);
    assert.equal(said(["rewrite", "--host", "none", "git status"]), 1, "the file changed");
    assert.equal(said(["rewrite", "--host", "none", "git status"]), 0);
  });

  test("a bad key does not take the good ones with it: exclude_commands still applies", () => {
    const s = sandbox();
    write(s.userFile, `[hooks]\nexclude_commands = ["git status"]\ntransparent_prefixes = [3]\n\n[limits]\nmax_lines = "many"\n`);
    const r = rtk(s, ["rewrite", "--host", "none", "git status"]);
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.equal(warnings(r.stderr).length, 2, r.stderr);
    assert.match(r.stderr, /:3: hooks\.transparent_prefixes\[0\]/);
    assert.match(r.stderr, /:6: limits\.max_lines/);
  });

  test("`rtk rewrite --json` with a broken config: one JSON object on stdout, same exit code", () => {
    const s = sandbox();
    write(s.userFile, `[hooks]\nbogus = 1\n`);
    const r = rtk(s, ["rewrite", "--host", "none", "--json", "git status"]);
    assert.equal(r.status, 3);
    assert.equal(JSON.parse(r.stdout).rewritten, "rtk git status");
    assert.match(r.stderr, /:2: hooks\.bogus/);
  });

  test("`rtk hook claude` with a broken config still answers", () => {
    const s = sandbox();
    write(s.userFile, `[hooks]\nexclude_commands = 5\n`);
    const event = { hook_event_name: "PreToolUse", tool_name: "Bash", cwd: s.project, tool_input: { command: "ls" } };
    const r = rtk(s, ["hook", "claude"], { input: JSON.stringify(event) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk ls");
    assert.match(r.stderr, /hooks\.exclude_commands/);
  });
});

describe("`rtk config`: the effective config and where each value came from", () => {
  test("defaults, the user file with its line, the project file once trusted", () => {
    const s = sandbox();
    write(s.userFile, `[hooks]\nexclude_commands = ["git push"]\ntransparent_prefixes = ["dotenv --"]\n\n[recall]\nmax_entries = 50\n`);
    let r = rtk(s, ["config"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, new RegExp(`^user file: +${s.userFile}$`, "m"));
    assert.match(r.stdout, /^project file: none/m);
    assert.match(r.stdout, new RegExp(`^exclude_commands = \\["git push"\\] +# user ${s.userFile}:2$`, "m"));
    assert.match(r.stdout, new RegExp(`^max_entries = 50 +# user ${s.userFile}:6$`, "m"));
    assert.match(r.stdout, /^max_age_days = 7 +# default$/m);
    assert.match(r.stdout, /^max_lines = 200 +# default$/m);
    assert.match(r.stdout, new RegExp(`^database = "${s.data}/rtk/history.db" +# default$`, "m"));

    write(s.projectFile, `[hooks]\n# the project's own\nexclude_commands = ["npm test"]\n`);
    assert.equal(rtk(s, ["trust"]).status, 0);
    r = rtk(s, ["config"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^project file: ${s.projectFile} \\(trusted, applied\\)$`, "m"));
    // Key by key: the project's exclude_commands, the user's transparent_prefixes.
    assert.match(r.stdout, new RegExp(`^exclude_commands = \\["npm test"\\] +# project ${s.projectFile}:3$`, "m"));
    assert.match(r.stdout, new RegExp(`^transparent_prefixes = \\["dotenv --"\\] +# user ${s.userFile}:3$`, "m"));
  });

  test("--json: the same as data", () => {
    const s = sandbox();
    write(s.userFile, `[tracking]\nenabled = false\n\n${FILTER}`);
    const r = rtk(s, ["config", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual({ ...j.settings.tracking.enabled, doc: undefined }, { value: false, source: "user", file: s.userFile, line: 2, doc: undefined });
    assert.deepEqual({ ...j.settings.limits.max_lines, doc: undefined }, { value: 200, source: "default", doc: undefined });
    assert.match(j.settings.limits.max_lines.doc, /declarative filter/);
    assert.deepEqual(j.files.user, { path: s.userFile, found: true });
    assert.equal(j.files.project, null);
    assert.deepEqual(
      j.filters.filter((f: { source: string }) => f.source !== "builtin").map((f: { name: string; source: string; line: number }) => [f.name, f.source, f.line]),
      [["sh", "user", 4]],
    );
    // rtk's built-in filters come after the files', each with its source.
    assert.ok(j.filters.some((f: { name: string; source: string }) => f.name === "ninja" && f.source === "builtin"));
    assert.deepEqual(j.errors, []);
  });

  test("--json lists the errors with file, line and key", () => {
    const s = sandbox();
    write(s.userFile, `[recall]\nenabled = true\nmax_entries = "x"\n`);
    const r = rtk(s, ["config", "--json"]);
    assert.equal(r.status, 1);
    const j = JSON.parse(r.stdout);
    assert.equal(j.errors.length, 1);
    assert.deepEqual({ ...j.errors[0], message: undefined }, { file: s.userFile, line: 3, key: "recall.max_entries", message: undefined });
    assert.equal(j.settings.recall.max_entries.value, 200);
    assert.equal(j.settings.recall.max_entries.source, "default");
  });

  test("RTK_NO_TRACK=1 shows as the environment's", () => {
    const s = sandbox();
    const r = rtk(s, ["config"], { env: { RTK_NO_TRACK: "1" } });
    assert.match(r.stdout, /^enabled = false +# environment RTK_NO_TRACK$/m);
  });

  test("no file at all: every value is the default", () => {
    const s = sandbox();
    const r = rtk(s, ["config"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^user file: .*\(not found\)$/m);
    // The sandbox sets RTK_PASSTHROUGH_TOKENS for every run (its outputs are short): that one value says so.
    assert.match(r.stdout, /^passthrough_tokens = 0 +# environment RTK_PASSTHROUGH_TOKENS$/m);
    const sources = r.stdout.split("\n").filter((l) => / = /.test(l) && !l.startsWith("database") && !l.startsWith("passthrough_tokens"));
    assert.ok(sources.length >= 7);
    for (const l of sources) assert.match(l, /# default$/);
  });
});

describe("a project file applies only while it is trusted", () => {
  const EXCLUDE = `[hooks]\nexclude_commands = ["git status"]\n`;

  test("untrusted: ignored with one warning; trusted: applied; edited: ignored again; re-trusted: applied", () => {
    const s = sandbox();
    write(s.projectFile, EXCLUDE);
    const sub = join(s.project, "src", "deep");
    mkdirSync(sub, { recursive: true });

    let r = rtk(s, ["rewrite", "--host", "none", "git status"], { cwd: sub });
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
    let w = warnings(r.stderr);
    assert.equal(w.length, 1, r.stderr);
    assert.ok(w[0]!.includes(s.projectFile), w[0]);
    assert.match(w[0]!, /not trusted.*run `rtk trust`/);

    r = rtk(s, ["trust"], { cwd: sub });
    assert.equal(r.status, 0, r.stderr);
    const hash = createHash("sha256").update(readFileSync(s.projectFile)).digest("hex");
    assert.match(r.stdout, new RegExp(`^trusted ${s.projectFile}$`, "m"));
    assert.match(r.stdout, new RegExp(`sha256 ${hash}`));
    assert.match(r.stdout, /sets: hooks\.exclude_commands/);

    r = rtk(s, ["rewrite", "--host", "none", "git status"], { cwd: sub });
    assert.equal(r.stdout, "");
    assert.equal(r.status, 1);
    assert.equal(r.stderr, "");

    writeFileSync(s.projectFile, EXCLUDE + `transparent_prefixes = ["x --"]\n`);
    r = rtk(s, ["rewrite", "--host", "none", "git status"], { cwd: sub });
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
    w = warnings(r.stderr);
    assert.equal(w.length, 1, r.stderr);
    assert.ok(w[0]!.includes(s.projectFile));
    assert.match(w[0]!, /changed since it was trusted.*`rtk trust`/);
    r = rtk(s, ["config"]);
    assert.match(r.stdout, /\(changed since trusted, ignored/);
    assert.match(r.stdout, /^exclude_commands = \[\] +# default$/m);

    assert.equal(rtk(s, ["trust"]).status, 0);
    r = rtk(s, ["rewrite", "--host", "none", "git status"], { cwd: sub });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, "");
  });

  test("`rtk trust <path>` trusts the given file; a folder stands for its .rtk/config.toml", () => {
    const s = sandbox();
    write(s.projectFile, EXCLUDE);
    let r = rtk(s, ["trust", s.project], { cwd: s.home });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^trusted ${s.projectFile}$`, "m"));
    assert.equal(rtk(s, ["rewrite", "--host", "none", "git status"]).status, 1);
    r = rtk(s, ["trust", "--revoke", ".rtk/config.toml"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /revoked/);
    r = rtk(s, ["rewrite", "--host", "none", "git status"]);
    assert.equal(r.status, 3);
    assert.match(r.stderr, /not trusted/);
  });

  test("`rtk trust --list` shows each pinned file and whether it still matches", () => {
    const s = sandbox();
    write(s.projectFile, EXCLUDE);
    const other = join(s.home, "code", "lib", ".rtk", "config.toml");
    write(other, EXCLUDE);
    assert.equal(rtk(s, ["trust"]).status, 0);
    assert.equal(rtk(s, ["trust", other]).status, 0);
    writeFileSync(other, "# edited\n");
    const r = rtk(s, ["trust", "--list"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, new RegExp(`^ok +${s.projectFile} `, "m"));
    assert.match(r.stdout, new RegExp(`^changed +${other} `, "m"));
  });

  test("no project file: `rtk trust` says so (exit 1)", () => {
    const s = sandbox();
    const r = rtk(s, ["trust"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no \.rtk\/config\.toml/);
  });

  test("the nearest project file wins, and none above HOME is looked at", () => {
    const s = sandbox();
    write(join(s.root, ".rtk", "config.toml"), EXCLUDE);
    let r = rtk(s, ["config"]);
    assert.match(r.stdout, /^project file: none/m);
    assert.equal(r.stderr, "");
    write(join(s.home, "code", ".rtk", "config.toml"), EXCLUDE);
    write(s.projectFile, `[limits]\nmax_lines = 10\n`);
    r = rtk(s, ["config"]);
    assert.match(r.stdout, new RegExp(`^project file: ${s.projectFile} \\(not trusted`, "m"));
  });

  test("the trust store is owner-only: a 0600 file in a 0700 folder, keyed by absolute path", () => {
    const s = sandbox();
    write(s.projectFile, EXCLUDE);
    assert.equal(rtk(s, ["trust"]).status, 0);
    const dir = join(s.data, "rtk");
    const file = join(dir, "trusted.json");
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(Object.keys(doc.files), [s.projectFile]);
    assert.equal(doc.files[s.projectFile].sha256, createHash("sha256").update(readFileSync(s.projectFile)).digest("hex"));
  });

  test("a trust store others can write is not believed", () => {
    const s = sandbox();
    write(s.projectFile, EXCLUDE);
    assert.equal(rtk(s, ["trust"]).status, 0);
    chmodSync(join(s.data, "rtk", "trusted.json"), 0o666);
    const r = rtk(s, ["rewrite", "--host", "none", "git status"]);
    assert.equal(r.status, 3);
    assert.equal(warnings(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /writable by other users/);
    assert.equal(rtk(s, ["trust"]).status, 1);
  });

  test("a project whose .rtk links to a trusted project's .rtk is not trusted", () => {
    const s = sandbox();
    write(s.projectFile, EXCLUDE);
    assert.equal(rtk(s, ["trust"]).status, 0);
    const evil = join(s.home, "code", "evil");
    mkdirSync(evil, { recursive: true });
    symlinkSync(join(s.project, ".rtk"), join(evil, ".rtk"));
    const r = rtk(s, ["rewrite", "--host", "none", "git status"], { cwd: evil });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /evil\/\.rtk\/config\.toml is not trusted/);
  });
});
