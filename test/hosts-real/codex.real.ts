// Codex CLI, the real program, with and without rtk's hook: the same fate for
// every command under each approval policy and sandbox mode and under rule
// sets of Codex's own (~/.codex/rules/*.rules), the model receiving rtk's
// output wherever rtk rewrote, never a rewritten command that fails to start
// (127), and `rtk doctor` telling an untrusted hook from a trusted one.
//
// Every mode and rule set runs a sample of the corpus that holds each kind of
// command (read-only and writing, routed and not, lists, pipes, redirects,
// substitutions, agent-typed rtk), to stay within a few minutes on two cores;
// RTK_REAL_HOSTS_FULL=1 runs the whole corpus (~400 commands) in every row
// instead.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { codexHookTrust } from "../../src/hosts/codex-trust.js";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { CODEX_PACKAGE, codexDriver, listHooks } from "./hosts/codex.js";
import { assertParity, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet } from "./parity.js";
import type { Scratch } from "./support/sandbox.js";
import type { CommandOutcome, HostDriver } from "./support/session.js";

/** Debian's skeleton ~/.profile: ~/.local/bin (where the scratch links rtk) on a login shell's PATH. */
const PROFILE = { ".profile": 'if [ -d "$HOME/.local/bin" ] ; then\n    PATH="$HOME/.local/bin:$PATH"\nfi\n' };
/** rtk on PATH only through an interactive shell's rc file, after its guard (nvm's, fnm's way): Codex's login shell lacks it. */
const RC_ONLY = { ".bashrc": 'case $- in\n    *i*) ;;\n      *) return;;\nesac\nexport PATH="$HOME/.local/bin:$PATH"\n' };

const rules = (name: string, text: string): RuleSet => ({ name, files: { ...PROFILE, ".codex/rules/default.rules": text + "\n" } });

const NONE: RuleSet = { name: "none", files: PROFILE };
const ALLOW_STATUS = rules("allow git status", 'prefix_rule(pattern = ["git", "status"], decision = "allow")');
const PROMPT_FORBID = rules("prompt git log, forbid git diff", 'prefix_rule(pattern = ["git", "log"], decision = "prompt")\nprefix_rule(pattern = ["git", "diff"], decision = "forbidden")');
const ALLOW_RTK = rules("allow rtk", 'prefix_rule(pattern = ["rtk"], decision = "allow")');
const PROMPT_RTK_GIT = rules("prompt rtk git", 'prefix_rule(pattern = ["rtk", "git"], decision = "prompt")');

const SAMPLE = [
  "git status",
  "git status --short",
  "git log -n 3",
  "git log --oneline | head -5",
  "git diff",
  "git diff --stat",
  "git show HEAD",
  "git branch -a",
  "git -C src status",
  "ls -la",
  "ls src",
  "cat f1.txt",
  "head -n 2 f1.txt",
  "tail -1 f1.txt",
  "wc -l f1.txt",
  "grep -rn alpha .",
  "rg alpha",
  "find . -name '*.js'",
  "tree -L 2",
  "cat ~/.gitconfig",
  "ls /tmp",
  "cd src && git status",
  "git status && git log -n 1",
  "git status > /tmp/s.txt",
  "FOO=1 git status",
  "git log -1 --format=%H $(echo HEAD)",
  "echo hi",
  "rtk git status",
  "rtk git push origin main",
  "git add f1.txt",
  "git commit -m wip",
  "git push origin main",
  "git fetch",
  "touch new-file",
  "sed -i s/alpha/ALPHA/ f1.txt",
  "rm -rf build",
  "git status && rm -rf build",
];

const sample = FULL ? parityCommands() : SAMPLE;
/** Where nothing is to be rewritten (the hook untrusted, rtk off the login shell's PATH): the sample, or a third of it as CI runs it. */
const SHORT = ciShare(SAMPLE, 3);

/**
 * Every approval policy and sandbox without rules, every rule set under on-request, and two sets where they meet
 * another policy; and whether CI runs the row (RTK_REAL_HOSTS_FULL=1 runs them all): one sandbox that records rtk's
 * runs and one that does not, and the rules a rewrite could open a command past (a prompt and a forbid, an allow
 * for `rtk`).
 */
const ROWS: [RuleSet, string, boolean][] = [
  [NONE, "on-request/workspace-write", true],
  [NONE, "never/read-only", false],
  [NONE, "never/workspace-write", false],
  [NONE, "never/danger-full-access", true],
  [NONE, "on-request/read-only", false],
  [NONE, "on-request/danger-full-access", false],
  [NONE, "untrusted/workspace-write", false],
  [ALLOW_STATUS, "on-request/workspace-write", false],
  [PROMPT_FORBID, "on-request/workspace-write", true],
  [ALLOW_RTK, "on-request/workspace-write", true],
  [PROMPT_RTK_GIT, "on-request/workspace-write", false],
  [PROMPT_FORBID, "never/workspace-write", false],
  [ALLOW_RTK, "untrusted/workspace-write", false],
];

const RUNS = ROWS.filter(([, , ci]) => FULL || ci).map(([rules, mode]) => ({ rules, mode, commands: sample }));

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];

before(() => {
  ensureBuilt();
  driver = codexDriver();
});

after(() => {
  // Something of a Codex session (an app server's pipe) can outlive its process and hold
  // this file's event loop: once every test has reported, the file ends regardless.
  setTimeout(() => process.exit(), 5000).unref();
  reportRows("codex", `Codex CLI ${CODEX_PACKAGE.version}`, rows);
});

/** A command that could not start: the shell did not find it (rtk, say), or could not run it. */
const notStarted = (o: CommandOutcome) => /Process exited with code 12[67]\b/.test(o.received) || /rtk: (command )?not found|rtk: node is not on PATH/.test(o.received);

/** Commands that could not start with rtk's hook but could without it (an agent-typed `rtk` fails either way where rtk is not on PATH). */
const startedOnlyWithout = (row: { with: CommandOutcome[]; without: CommandOutcome[] }) =>
  row.with.filter((o, i) => notStarted(o) && !notStarted(row.without[i]!)).map((o) => `${o.command} → ${o.rewritten}: ${o.received.slice(0, 200)}`);

/** `rtk doctor` in the session's HOME, once the host has run; null in the session without rtk. */
function doctor(s: Scratch): { status: number | null; trust: string } | null {
  if (!existsSync(join(s.bin, "rtk"))) return null;
  const r = s.run(join(s.bin, "rtk"), ["doctor", "--json"]);
  const checks = (JSON.parse(r.stdout) as { hosts: { host: string; checks: { name: string; ok: boolean; detail: string }[] }[] }).hosts.find((h) => h.host === "codex")?.checks ?? [];
  const trust = checks.find((c) => c.name === "codex trust");
  return { status: r.status, trust: trust ? `${trust.ok ? "ok" : "FAIL"}: ${trust.detail}` : "(none)" };
}

describe(`Codex CLI ${CODEX_PACKAGE.version} with and without rtk`, () => {
  for (const run of RUNS) {
    test(`${run.rules.name} × ${run.mode} (${run.commands.length} commands): every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`Codex cannot run here: ${driver.error}`);
      let doctored: ReturnType<typeof doctor> = null;
      const row = await parityRow(driver, run.commands, run.rules, run.mode, { inspect: (s) => (doctored ??= run.rules === NONE ? doctor(s) : null) });
      rows.push(row);
      assert.deepEqual(row.mismatches, [], `${row.mismatches.length} commands met another fate with rtk`);
      assert.deepEqual(row.hookErrors, [], "Codex reported hook errors");
      assert.deepEqual(startedOnlyWithout(row), [], "commands that could not start with rtk");
      // Where commands run outside a sandbox rtk records its runs: a rewritten command that ran went through rtk.
      if (run.mode.endsWith("danger-full-access")) assert.deepEqual(row.unrecorded, [], "rewritten commands that ran but rtk did not record");
      if (run.rules === NONE && !run.mode.startsWith("untrusted")) {
        const through = row.with.filter((o) => o.fate === "ran" && o.rewritten !== null);
        assert.ok(through.length >= 15, `only ${through.length} commands reached the model through rtk`);
        for (const c of ["git status", "git log -n 3", "ls -la", "cat f1.txt"]) {
          const o = row.with.find((x) => x.command === c);
          if (o) assert.equal(o.rewritten, `rtk ${c}`, `${c} went to the model raw`);
        }
        const status = row.with.find((x) => x.command === "git status");
        if (status) assert.match(status.received, /^\* main$/m, "git status: the model received rtk's compact form");
      }
      const d = doctored as ReturnType<typeof doctor>;
      if (d) assert.equal(d.status, 0, `rtk doctor after the trust step: ${d.trust}`);
    });
  }

  test("the hook not trusted yet: Codex skips it (nothing rewritten, nothing breaks) and rtk doctor fails the trust check", async (t) => {
    if ("error" in driver) return t.skip(`Codex cannot run here: ${driver.error}`);
    let doctored: ReturnType<typeof doctor> = null;
    const row = await parityRow(driver, SHORT, { ...NONE, name: "none, hook untrusted" }, "on-request/workspace-write", { trustHook: false, inspect: (s) => (doctored ??= doctor(s)) });
    rows.push(row);
    assertParity(row);
    assert.equal(row.throughRtk, 0);
    const d = doctored as ReturnType<typeof doctor>;
    assert.ok(d && d.status === 1 && d.trust.startsWith("FAIL: Codex skips rtk's hook"), JSON.stringify(d));
  });

  test("rtk on PATH only through an interactive rc file: nothing rewritten, no command fails with 127", async (t) => {
    if ("error" in driver) return t.skip(`Codex cannot run here: ${driver.error}`);
    const row = await parityRow(driver, SHORT, { name: "rtk only in ~/.bashrc", files: RC_ONLY }, "on-request/workspace-write");
    rows.push(row);
    assertParity(row);
    assert.equal(row.throughRtk, 0);
    assert.deepEqual(startedOnlyWithout(row), []);
  });

  test("rtk's hash of its hooks is Codex's own (hooks/list)", async (t) => {
    if ("error" in driver || !("run" in driver)) return t.skip("Codex cannot run here");
    const { scratch } = await import("./support/sandbox.js");
    const { installed } = await import("./support/packages.js");
    const pkg = installed(CODEX_PACKAGE);
    if ("error" in pkg) return t.skip(pkg.error);
    const s = scratch({ withRtk: true, base: driver.scratchBase });
    try {
      assert.equal(s.run(join(s.bin, "rtk"), ["init", "--agent", "codex"]).status, 0);
      const codexHome = join(s.home, ".codex");
      const listed = await listHooks(s, pkg.bin, { CODEX_HOME: codexHome });
      const ours = codexHookTrust(join(codexHome, "hooks.json"), s.env);
      // The command hook and the session-start entry.
      assert.equal(ours.length, 2);
      for (const hook of ours) {
        const theirs = listed.find((h) => h.key === hook.key);
        assert.ok(theirs, `Codex lists no hook with rtk's key ${hook.key}: ${JSON.stringify(listed)}`);
        assert.equal(hook.hash, theirs.currentHash);
        assert.equal(theirs.trustStatus, "untrusted");
      }
    } finally {
      s.dispose();
    }
  });
});
