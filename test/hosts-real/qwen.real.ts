// Qwen Code, the real program (headless, `qwen -p`), with and without rtk's
// hook: the same fate for every command under every rule set and approval mode
// (parity.ts). Headless, Qwen cannot ask: what it would ask about fails
// (asked); outside yolo it withholds the shell tool unless a rule names it, and
// refuses a command whose writes its withheld edit tools would make (denied).
// It runs its PreToolUse hook only for a call it has let run, and cannot take a
// changed command from it: rtk's hook refuses the call with a suggestion, the
// model runs the `rtk …` form in its place (the stand-in does, as a model
// would), and Qwen judges that call. So the suggestion must be made only where
// Qwen runs the `rtk` form unprompted too; what was suggested is what rtk's
// library decides with the same files and mode.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { rewrite } from "../../src/api.js";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { qwenDriver, QWEN_PACKAGE } from "./hosts/qwen.js";
import { assertHandedAsLibrary, assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet, typedRtkUnderDeny } from "./parity.js";
import type { HostDriver } from "./support/session.js";

/** The project's settings (Qwen reads them in the folder it runs in; folder trust is off by default). */
const settings = (permissions: { allow?: string[]; ask?: string[]; deny?: string[] }) => ({ "work/app/.qwen/settings.json": JSON.stringify({ permissions }) });

const NONE: RuleSet = { name: "none", files: {} };
const ALLOW: RuleSet = {
  name: "allow Shell(git status), Shell(git log *), Shell(ls *), Shell(cat *)",
  files: settings({ allow: ["Shell(git status)", "Shell(git log *)", "Shell(ls *)", "Shell(cat *)"] }),
};
const ALLOW_WITH_RTK: RuleSet = {
  name: "allow Shell(git *), Shell(ls *), Shell(cat *), Shell(rtk *)",
  files: settings({ allow: ["Shell(git *)", "Shell(ls *)", "Shell(cat *)", "Shell(rtk *)"] }),
};
// No deny of `git push` here: the `rtk git push` the corpus types would be refused with rtk, on purpose (the last test).
const DENY_ASK: RuleSet = { name: "deny Bash(git diff *), Bash(git commit *); ask Bash(git log *)", files: settings({ deny: ["Bash(git diff *)", "Bash(git commit *)"], ask: ["Bash(git log *)"] }) };
// A deny and an ask for commands rtk has a compact form of, which `Shell(rtk *)` would let run as `rtk …`.
const ALLOW_WITH_RTK_DENY: RuleSet = {
  name: "allow Shell(git *), Shell(rtk *); deny Bash(git diff *); ask Bash(git log -p*)",
  files: settings({ allow: ["Shell(git *)", "Shell(rtk *)"], deny: ["Bash(git diff *)"], ask: ["Bash(git log -p*)"] }),
};

/**
 * Each rule set × approval mode, and the share of the corpus CI runs in it (ciShare); null: only with
 * RTK_REAL_HOSTS_FULL=1. With rtk every command it has a compact form of costs Qwen two hook runs and a
 * model turn more, so CI runs the two rows that hold the most: yolo, where rtk suggests every command
 * Qwen's deny and ask rules leave, and default, where it suggests only what its allow rules let run in
 * both forms, each beside a deny and an ask rule for commands rtk has a compact form of.
 */
const RUNS: [RuleSet, string, number | null][] = [
  [NONE, "default", null],
  [NONE, "yolo", null],
  [ALLOW, "default", null],
  [ALLOW, "auto-edit", null],
  [ALLOW, "yolo", null],
  [ALLOW_WITH_RTK, "default", null],
  [ALLOW_WITH_RTK, "auto-edit", null],
  [ALLOW_WITH_RTK, "plan", null],
  [DENY_ASK, "yolo", 32],
  [ALLOW_WITH_RTK_DENY, "default", 32],
];

/** A command Qwen counts as looking over the repository again (`git status`, an overview `git diff`, `git ls-files`, alone or in a list). */
const OVERVIEW = /^\s*git(\s+(-C\s+\S+|--no-pager))*\s+(status|diff|ls-files)\b/i;
const overview = (command: string) => command.split(/&&|\|\||[;&|\n]/).every((s) => !s.trim() || OVERVIEW.test(s));

/**
 * The corpus in an order where no eight such commands follow each other: Qwen
 * halts a run ("loop detection", shell_command_stagnation) at the eighth, which
 * a model that works does not meet. Each command's fate does not hang on the order.
 */
function unstreaked(commands: readonly string[]): string[] {
  const rest = [...commands];
  const out: string[] = [];
  let streak = 0;
  while (rest.length) {
    const at =
      streak < 4
        ? 0
        : Math.max(
            0,
            rest.findIndex((c) => !overview(c)),
          );
    const [next] = rest.splice(at, 1);
    out.push(next!);
    streak = overview(next!) ? streak + 1 : 0;
  }
  return out;
}

let driver: HostDriver | { error: string };
const rows: (ParityRow | undefined)[] = [];
const all = unstreaked(parityCommands());

before(() => {
  ensureBuilt();
  driver = qwenDriver();
});

after(() => {
  reportRows(
    "qwen",
    `Qwen Code ${QWEN_PACKAGE.version}`,
    rows.filter((r) => r !== undefined),
  );
});

// Three at a time: a session is a chain of processes (Qwen, a hook, rtk, the command) that keeps one core busy at most.
describe(`Qwen Code ${QWEN_PACKAGE.version} with and without rtk`, { concurrency: 3 }, () => {
  RUNS.forEach(([rules, mode, share], at) => {
    test(`${rules.name} × ${mode}: every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`Qwen Code cannot run here: ${driver.error}`);
      if (share === null && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const row = await parityRow(driver, ciShare(all, share ?? 1), rules, mode);
      rows[at] = row;
      assertSameHost(`qwen-code-${QWEN_PACKAGE.version}`, `${rules.name} × ${mode}`, row.without);
      assertParity(row);
      // What went through rtk is what rtk's library decides for Qwen with the same files and mode.
      assertHandedAsLibrary(
        row,
        rules.files,
        (command, replica) => {
          const r = rewrite(command, { host: "qwen", mode, cwd: replica.repo, env: replica.env, warn: () => {} });
          return r.exitCode === 0 ? r.command : null;
        },
        ` under ${rules.name} × ${mode}`,
      );
      if (((rules === ALLOW_WITH_RTK || rules === ALLOW_WITH_RTK_DENY) && mode !== "plan") || mode === "yolo")
        assert.ok(row.throughRtk > 0, "where Qwen runs the `rtk` form unprompted, rewrites go through");
    });
  });

  // The one fate rtk changes, on purpose: Qwen's rules cannot see a command behind an `rtk` the agent typed.
  test(`Qwen Code ${QWEN_PACKAGE.version}: an \`rtk\` the agent typed before a command a rule denies is refused`, async (t) => {
    if ("error" in driver) return t.skip(`Qwen Code cannot run here: ${driver.error}`);
    const hooked = await typedRtkUnderDeny(driver, { files: settings({ deny: ["Bash(git push *)"] }), mode: "yolo" });
    assert.match(hooked.outcomes[0]!.received, /denied by your rule/);
  });
});
