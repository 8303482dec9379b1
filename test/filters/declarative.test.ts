// Declarative filters (spec/runtime.md "Declarative filters"), end to end
// through the built `bin/rtk`: real commands (`sh -c …`, which has no built-in
// route, so the declarative filter is the only filter), exact omission counts
// with a working `rtk recall`, exit codes kept, a filter named like a built-in
// route replacing it, and `rtk verify` running the inline tests.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { COMPACT_EVERY_OUTPUT } from "../support/sandbox.js";
import { rtk as rtkIn, sandbox, warnings, write, type Sandbox } from "../config/sandbox.js";

/** rtk in the sandbox, compacting every output (these outputs are short). */
const rtk = (s: Sandbox, args: readonly string[], o: Parameters<typeof rtkIn>[2] = {}) => rtkIn(s, args, { ...o, env: { ...COMPACT_EVERY_OUTPUT, ...o.env } });

before(() => {
  ensureBuilt();
});

/** A shell script printing `noise`, then `item 1` … `item n` on stdout; `exit` status. */
function items(n: number, exit = 0, extra = ""): string[] {
  return ["sh", "-c", `echo noise; i=1; while [ $i -le ${n} ]; do echo "item $i"; i=$((i+1)); done; ${extra} exit ${exit}`];
}

function withConfig(text: string): Sandbox {
  const s = sandbox();
  write(s.userFile, text);
  return s;
}

/** The recall id of the omission marker in `text`. */
function recallId(text: string): string {
  const m = /\[rtk recall ([0-9a-f]{7})\]/.exec(text);
  assert.ok(m, `no recall marker in:\n${text}`);
  return m[1]!;
}

const range = (a: number, b: number, f: (i: number) => string) => Array.from({ length: b - a + 1 }, (_, k) => f(a + k));

describe("a declarative filter on a real command", () => {
  const CONFIG = `[[filters]]
name = "items"
match = "^sh -c echo noise"
strip_lines = ["^noise$"]
replace = [{ pattern = "^item (\\\\d+)$", with = "#$1" }]
head = 3
tail = 2
`;

  test("strip_lines, replace, head and tail: the middle elided with its exact count; rtk recall gives the raw output back", () => {
    const s = withConfig(CONFIG);
    const r = rtk(s, items(60));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    const id = recallId(r.stdout);
    assert.equal(r.stdout, ["#1", "#2", "#3", `… +55 more lines [rtk recall ${id}]`, "#59", "#60", ""].join("\n"));
    const back = rtk(s, ["recall", id]);
    assert.equal(back.status, 0, back.stderr);
    assert.equal(back.stdout, ["noise", ...range(1, 60, (i) => `item ${i}`), ""].join("\n"));
  });

  test("the exit code is the command's, and a failed run is still filtered with its marker", () => {
    const s = withConfig(CONFIG);
    const r = rtk(s, items(40, 7));
    assert.equal(r.status, 7);
    assert.match(r.stdout, /^#1\n#2\n#3\n… \+35 more lines \[rtk recall [0-9a-f]{7}\]\n#39\n#40\n$/);
  });

  test("stderr lines are filtered into stderr, stdout into stdout", () => {
    const s = withConfig(CONFIG);
    const r = rtk(s, items(30, 0, `i=1; while [ $i -le 20 ]; do echo "item $i" >&2; i=$((i+1)); done;`));
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^#1\n#2\n#3\n… \+25 more lines \[rtk recall [0-9a-f]{7}\]\n#29\n#30\n$/);
    assert.match(r.stderr, /^#1\n#2\n#3\n… \+15 more lines \[rtk recall [0-9a-f]{7}\]\n#19\n#20\n$/);
  });

  test("head alone: the first N lines, then the marker", () => {
    const s = withConfig(`[[filters]]\nname = "h"\nmatch = "^sh -c"\nhead = 4\n`);
    const r = rtk(s, items(30));
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^noise\nitem 1\nitem 2\nitem 3\n… \+27 more lines \[rtk recall [0-9a-f]{7}\]\n$/);
  });

  test("tail alone: the marker, then the last M lines", () => {
    const s = withConfig(`[[filters]]\nname = "t"\nmatch = "^sh -c"\ntail = 2\n`);
    const r = rtk(s, items(30));
    assert.match(r.stdout, /^… \+29 more lines \[rtk recall [0-9a-f]{7}\]\nitem 29\nitem 30\n$/);
  });

  test("keep_lines: only the matching lines", () => {
    const s = withConfig(`[[filters]]\nname = "k"\nmatch = "^sh -c"\nkeep_lines = ["^item \\\\d*0$", "^item 7$"]\n`);
    const r = rtk(s, items(40));
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "item 7\nitem 10\nitem 20\nitem 30\nitem 40\n");
  });

  test("without head/tail, each stream is cut to [limits] list_tokens (4 characters each): a head and a tail within it", () => {
    const s = withConfig(`[limits]\nlist_tokens = 10\n\n[[filters]]\nname = "k"\nmatch = "^sh -c"\nstrip_lines = ["^noise"]\n`);
    const r = rtk(s, items(100));
    assert.match(r.stdout, /^item 1\nitem 2\n… \+95 more lines \[rtk recall [0-9a-f]{7}\]\nitem 98\nitem 99\nitem 100\n$/);
  });

  test("below the budget nothing is cut; a route's own budget (route_tokens) wins over list_tokens", () => {
    const whole = rtk(withConfig(`[[filters]]\nname = "k"\nmatch = "^sh -c"\nstrip_lines = ["^noise"]\n`), items(100));
    assert.equal(whole.stdout, range(1, 100, (i) => `item ${i}\n`).join(""));
    const own = rtk(withConfig(`[limits]\nlist_tokens = 5000\nroute_tokens = { k = 10 }\n\n[[filters]]\nname = "k"\nmatch = "^sh -c"\nstrip_lines = ["^noise"]\n`), items(100));
    assert.match(own.stdout, /^item 1\nitem 2\n… \+95 more lines \[rtk recall [0-9a-f]{7}\]\nitem 98\nitem 99\nitem 100\n$/);
  });

  test("limits.max_lines is retired: an old config still works, with a warning naming the key that replaced it", () => {
    const r = rtk(withConfig(`[limits]\nmax_lines = 6\n\n[[filters]]\nname = "k"\nmatch = "^sh -c"\nstrip_lines = ["^noise"]\n`), items(100));
    assert.equal(r.status, 0);
    assert.equal(r.stdout, range(1, 100, (i) => `item ${i}\n`).join(""));
    assert.match(r.stderr, /limits\.max_lines is retired and ignored; limits\.list_tokens/);
  });

  test("on_empty: printed when nothing is left of a successful run", () => {
    const s = withConfig(`[[filters]]\nname = "e"\nmatch = "^sh -c"\nstrip_lines = ["^(noise|item)"]\non_empty = "all quiet"\n`);
    const r = rtk(s, items(20));
    assert.equal(r.status, 0);
    assert.equal(r.stdout, "all quiet\n");
  });

  test("on_empty is not printed for a failed run: the raw output is, with the exit code", () => {
    const s = withConfig(`[[filters]]\nname = "e"\nmatch = "^sh -c"\nstrip_lines = ["^(noise|item)"]\non_empty = "all quiet"\n`);
    const r = rtk(s, items(5, 3));
    assert.equal(r.status, 3);
    assert.equal(r.stdout, ["noise", ...range(1, 5, (i) => `item ${i}`), ""].join("\n"));
  });

  test("never longer than the raw output: a short output is printed as it is", () => {
    const s = withConfig(CONFIG);
    const r = rtk(s, items(6));
    assert.equal(r.stdout, ["noise", ...range(1, 6, (i) => `item ${i}`), ""].join("\n"));
  });

  test("a command no filter matches runs as it is", () => {
    const s = withConfig(CONFIG);
    const r = rtk(s, ["sh", "-c", "echo noisy; echo hello; exit 4"]);
    assert.equal(r.status, 4);
    assert.equal(r.stdout, "noisy\nhello\n");
  });

  test("the first matching filter is used", () => {
    const s = withConfig(`[[filters]]\nname = "a"\nmatch = "^sh"\nhead = 1\n\n[[filters]]\nname = "b"\nmatch = "^sh -c"\ntail = 1\n`);
    const r = rtk(s, items(20));
    assert.match(r.stdout, /^noise\n… \+20 more lines/);
  });

  test("an invalid regex: a warning naming file and line, and the command runs unfiltered", () => {
    const s = withConfig(`[[filters]]\nname = "bad"\nmatch = "^sh -c"\nstrip_lines = ["(noise"]\nhead = 1\n`);
    const r = rtk(s, items(30, 5));
    assert.equal(r.status, 5);
    assert.equal(r.stdout, ["noise", ...range(1, 30, (i) => `item ${i}`), ""].join("\n"));
    assert.match(r.stderr, new RegExp(`${s.userFile}:4: filters\\[0\\]\\.strip_lines\\[0\\]: invalid regular expression`));
    assert.match(r.stderr, /"bad" .* runs unfiltered/);
  });

  test("--raw bypasses a declarative filter", () => {
    const s = withConfig(CONFIG);
    const r = rtk(s, ["--raw", ...items(30)]);
    assert.equal(r.stdout.split("\n").length, 32);
  });
});

describe("a sensitive route (env, printenv) keeps its masking whatever filter the config names", () => {
  const TOKEN = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
  const ENV = { GITHUB_TOKEN: TOKEN, MYSQL_PWD: "hunter2hunter2", ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`PLAIN_${i + 1}`, `value ${i + 1}`])) };
  const stored = (s: Sandbox) => {
    const dir = join(s.data, "rtk", "recall");
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const masked = (out: string) => {
    assert.ok(!out.includes(TOKEN) && !out.includes("hunter2hunter2"), out);
    assert.match(out, /^GITHUB_TOKEN=\*{4}$/m);
    assert.match(out, /^MYSQL_PWD=\*{4}$/m);
    assert.match(out, /^PLAIN_30=value 30$/m);
  };

  for (const [name, tool] of [
    ["env", "env"],
    ["printenv", "printenv"],
  ] as const) {
    test(`a filter named "${name}": one warning, the built-in filter masks, nothing is kept in recall`, () => {
      const s = withConfig(`[[filters]]\nname = "${name}"\nmatch = "^${tool}"\nhead = 2\ntail = 1\n`);
      const r = rtk(s, [tool], { env: ENV });
      assert.equal(r.status, 0, r.stderr);
      masked(r.stdout);
      assert.deepEqual(warnings(r.stderr), [`rtk: the filter "${name}" at ${s.userFile}:1 is not used: ${tool} output holds secrets, which only rtk's own filter masks`]);
      assert.deepEqual(stored(s), []);
    });
  }

  test("a filter named env with errors: still masked, nothing kept", () => {
    const s = withConfig(`[[filters]]\nname = "env"\nmatch = "^env("\nhead = 2\n`);
    const r = rtk(s, ["env"], { env: ENV });
    assert.equal(r.status, 0);
    masked(r.stdout);
    assert.match(r.stderr, /the filter "env" at .* is not used/);
    assert.deepEqual(stored(s), []);
  });

  test("a filter of another name whose match is ^env or ^printenv: the built-in filter still runs", () => {
    const s = withConfig(`[[filters]]\nname = "mine"\nmatch = "^(env|printenv)"\nhead = 2\ntail = 1\n`);
    for (const tool of ["env", "printenv"]) {
      const r = rtk(s, [tool], { env: ENV });
      masked(r.stdout);
      assert.equal(r.stderr, "");
    }
    assert.deepEqual(stored(s), []);
  });

  test("--raw, RTK_RAW=1 and rtk proxy print the raw listing, as asked; nothing is kept in recall, of failing runs neither", () => {
    const s = withConfig(`[[filters]]\nname = "env"\nmatch = "^env"\nhead = 2\n`);
    for (const [args, extra] of [
      [["--raw", "env"], {}],
      [["env"], { RTK_RAW: "1" }],
      [["proxy", "env"], {}],
    ] as const) {
      const r = rtk(s, args, { env: { ...ENV, ...extra } });
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.stdout.includes(`GITHUB_TOKEN=${TOKEN}`), args.join(" "));
    }
    assert.notEqual(rtk(s, ["env", "--no-such-option"], { env: ENV }).status, 0);
    assert.equal(rtk(s, ["printenv", "NO_SUCH_VARIABLE", "GITHUB_TOKEN"], { env: ENV }).status, 1);
    assert.deepEqual(stored(s), []);
  });
});

describe("project filters", () => {
  const USER = `[[filters]]\nname = "items"\nmatch = "^sh -c"\nhead = 1\n`;
  const PROJECT = `[[filters]]\nname = "items"\nmatch = "^sh -c"\ntail = 1\n`;

  test("an untrusted project filter is not used; trusted, it replaces the user's filter of the same name", () => {
    const s = withConfig(USER);
    write(s.projectFile, PROJECT);
    let r = rtk(s, items(20));
    assert.match(r.stdout, /^noise\n… \+20 more lines/);
    assert.match(r.stderr, /not trusted/);
    assert.equal(rtk(s, ["trust"]).status, 0);
    r = rtk(s, items(20));
    assert.match(r.stdout, /^… \+20 more lines \[rtk recall [0-9a-f]{7}\]\nitem 20\n$/);
    assert.equal(r.stderr, "");
  });
});

describe("a declarative filter named like a built-in route replaces it", () => {
  function repo(s: Sandbox): void {
    const git = (...args: string[]) => {
      const r = spawnSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd: s.project, encoding: "utf8", env: { PATH: process.env["PATH"] ?? "", HOME: s.home } });
      assert.equal(r.status, 0, r.stderr);
    };
    git("init", "-q", ".");
    for (let i = 1; i <= 12; i++) write(`${s.project}/file-${String(i).padStart(2, "0")}.txt`, "x\n");
  }
  const REPLACE = `[[filters]]
name = "git.status"
match = "^git status"
keep_lines = ["^On branch", "file-0[1-3]"]
replace = [{ pattern = "^On branch (.+)$", with = "BRANCH $1" }, { pattern = "^\\\\s+", with = "" }]
`;

  test("without it, the built-in git.status filter runs", () => {
    const s = sandbox();
    repo(s);
    const r = rtk(s, ["git", "status"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\* main$/m);
    assert.match(r.stdout, /\? untracked \(12\)/);
  });

  test("with it, the declarative filter runs instead", () => {
    const s = withConfig(REPLACE);
    repo(s);
    const r = rtk(s, ["git", "status"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "BRANCH main\nfile-01.txt\nfile-02.txt\nfile-03.txt\n");
  });

  test("a declarative filter with another name does not beat the built-in route", () => {
    const s = withConfig(REPLACE.replace('name = "git.status"', 'name = "my-status"'));
    repo(s);
    const r = rtk(s, ["git", "status"]);
    assert.match(r.stdout, /^\* main$/m);
  });
});

describe("`rtk verify` runs the inline tests", () => {
  const GOOD = `[[filters]]
name = "items"
match = "^sh -c"
strip_lines = ["^noise"]
replace = [{ pattern = "^item (\\\\d+)$", with = "#$1" }]
head = 2
tail = 1

[[filters.tests]]
input = """
noise
item 1
item 2
item 3
item 4
item 5
"""
expected = """
#1
#2
… +2 more lines [rtk recall <id>]
#5
"""

[[filters.tests]]
input = "noise\\nitem 9\\n"
expected = "#9"

[[filters]]
name = "quiet"
match = "^make"
strip_lines = [".*"]
on_empty = "make: ok"

[[filters.tests]]
input = "make[1]: Entering directory\\n"
expected = "make: ok\\n"
`;

  test("all passing: exit 0, one line per filter", () => {
    const s = withConfig(GOOD);
    const r = rtk(s, ["verify"]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^ok +items: 2 inline tests passed/m);
    assert.match(r.stdout, /^ok +quiet: 1 inline test passed/m);
    assert.match(r.stdout, /2 filters, 3 inline tests: 3 passed, 0 failed; 0 config errors/);
  });

  test("a failing test: exit 1, the test named with its line, and a diff of expected and actual", () => {
    const s = withConfig(GOOD.replace("#1\n#2\n… +2 more", "#1\n#two\n… +2 more"));
    const r = rtk(s, ["verify"]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, new RegExp(`^FAIL +items: inline test 1 of 2 +\\(${s.userFile}:9\\)$`, "m"));
    assert.match(r.stdout, /--- expected\n +\+\+\+ actual\n/);
    assert.match(r.stdout, /^ +-#two$/m);
    assert.match(r.stdout, /^ +\+#2$/m);
    assert.match(r.stdout, /^ +#1$/m);
    assert.match(r.stdout, /3 inline tests: 2 passed, 1 failed/);
  });

  test("a trusted project file's tests run too", () => {
    const s = withConfig(GOOD);
    write(s.projectFile, `[[filters]]\nname = "p"\nmatch = "^p"\nhead = 1\n[[filters.tests]]\ninput = "a\\nb\\n"\nexpected = "a\\nb\\n"\n`);
    let r = rtk(s, ["verify"]);
    assert.equal(r.status, 0);
    assert.doesNotMatch(r.stdout, /\bp:/);
    assert.match(r.stderr, /not trusted/);
    assert.equal(rtk(s, ["trust"]).status, 0);
    r = rtk(s, ["verify"]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, new RegExp(`^FAIL +p: inline test 1 of 1 +\\(${s.projectFile}:5\\)`, "m"));
    assert.match(r.stdout, /^ +\+… \+1 more line \[rtk recall <id>\]$/m);
  });

  test("a config error fails verify even when every test passes", () => {
    const s = withConfig(GOOD + `\n[recall]\nmax_entries = "lots"\n`);
    const r = rtk(s, ["verify"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /recall\.max_entries/);
    assert.match(r.stdout, /3 passed, 0 failed; 1 config error/);
  });

  test("no config: nothing to verify, exit 0", () => {
    const s = sandbox();
    const r = rtk(s, ["verify"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /0 filters, 0 inline tests/);
  });
});
