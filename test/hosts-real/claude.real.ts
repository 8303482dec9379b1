// Claude Code, the real program, with and without rtk's hook: the same fate for
// every command under every rule set and permission mode (parity.ts), ≥ 80 % of
// the routed commands it runs unprompted through rtk, and a user's allow rule
// for `rtk …` never opening a command Claude Code would ask about.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { parityCommands } from "./corpus.js";
import { claudeDriver, CLAUDE_PACKAGE } from "./hosts/claude.js";
import { assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet } from "./parity.js";
import type { HostDriver } from "./support/session.js";

const settings = (permissions: object) => ({ "work/app/.claude/settings.json": JSON.stringify({ permissions }) });

const NONE: RuleSet = { name: "none", files: {} };
const ALLOW: RuleSet = { name: "allow git status, git log, ls", files: settings({ allow: ["Bash(git status)", "Bash(git log:*)", "Bash(ls:*)"] }) };
const DENY: RuleSet = { name: "deny git diff", files: settings({ deny: ["Bash(git diff:*)"] }) };
const ASK: RuleSet = { name: "ask git log", files: settings({ ask: ["Bash(git log:*)"] }) };
const ALLOW_RTK_GIT: RuleSet = { name: "allow rtk git *", files: settings({ allow: ["Bash(rtk git *)"] }) };
const ALLOW_RTK: RuleSet = { name: "allow rtk:*", files: settings({ allow: ["Bash(rtk:*)"] }) };
const ALLOW_NPM_CAT: RuleSet = { name: "allow npm test, cat", files: settings({ allow: ["Bash(npm test:*)", "Bash(cat:*)"] }) };

/**
 * Every mode with no rules; every rule set in the default mode, and the deny and ask sets where everything else
 * runs; with the share of the corpus CI runs in each (ciShare: every write and network command and the command
 * behind each agent-typed `rtk` come along); null: only with RTK_REAL_HOSTS_FULL=1, which runs the whole corpus
 * in every row but plan mode's (there every refusal ends Claude Code's turn and the session starts again some
 * 10 s later: its first 40 commands; CI: its first 8). CI keeps the rows a rewrite could open a command in: no
 * rules, the allow and ask sets, a rule for `rtk …` (`rtk:*`), and the deny set where everything else runs.
 */
const RUNS: [RuleSet, string, number | null][] = [
  [NONE, "default", 16],
  [NONE, "acceptEdits", null],
  [NONE, "plan", 1],
  [NONE, "dontAsk", null],
  [NONE, "bypassPermissions", null],
  [ALLOW, "default", 24],
  [DENY, "default", null],
  [ASK, "default", 24],
  [ALLOW_RTK_GIT, "default", null],
  [ALLOW_RTK, "default", 24],
  [ALLOW_NPM_CAT, "default", null],
  [DENY, "bypassPermissions", 24],
  [ASK, "bypassPermissions", null],
];

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];
const all = parityCommands();
/** What a row runs (see RUNS). */
const corpusFor = (mode: string, share: number): string[] => (mode === "plan" ? all.slice(0, FULL ? 40 : 8) : ciShare(all, share, (c) => all.includes(`rtk ${c}`)));

before(() => {
  ensureBuilt();
  driver = claudeDriver();
});

after(() => {
  reportRows("claude", `Claude Code ${CLAUDE_PACKAGE.version}`, rows);
});

// Two rows at a time: a session waits on its hook and its commands, one at a time.
describe(`Claude Code ${CLAUDE_PACKAGE.version} with and without rtk`, { concurrency: 2 }, () => {
  for (const [rules, mode, share] of RUNS) {
    test(`${rules.name} × ${mode}: every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`Claude Code cannot run here: ${driver.error}`);
      if (share === null && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const commands = corpusFor(mode, share ?? 1);
      const row = await parityRow(driver, commands, rules, mode);
      rows.push(row);
      // What Claude Code does by itself is kept per version: an upgrade that changes it fails here first.
      assertSameHost(`claude-code-${CLAUDE_PACKAGE.version}`, `${rules.name} × ${mode}`, row.without);
      assertParity(row);
      if (rules.name === "none" && mode === "default") {
        // The routed commands Claude Code runs by itself reach the model through rtk.
        const routed = row.without.filter((o, i) => o.fate === "ran" && routable(o.command) && row.with[i]!.fate === "ran");
        const through = routed.filter((o) => row.with[commands.indexOf(o.command)]!.rewritten !== null);
        const share = through.length / Math.max(1, routed.length);
        const missed = routed.filter((o) => !through.includes(o)).map((o) => o.command);
        assert.ok(share >= 0.8, `${through.length} of ${routed.length} routed commands Claude Code runs unprompted went through rtk (${(share * 100).toFixed(1)} %); not: ${missed.join(" | ")}`);
      }
      if (rules.name.startsWith("allow rtk")) {
        // A rule for `rtk …` opens nothing: writes and network still need approval.
        for (const c of ["git push origin main", "git commit -m wip", "git add f1.txt", "npm test"]) {
          const i = commands.indexOf(c);
          if (i >= 0) assert.notEqual(row.with[i]!.fate, "ran", `${c} ran unprompted under ${rules.name}`);
        }
      }
    });
  }
});

/** rtk has a route for it: `rtk rewrite --host none` rewrites it. */
function routable(command: string): boolean {
  return launchSync(["rewrite", "--host", "none", command], { cwd: process.cwd(), env: { ...process.env, RTK_NO_PATH_CHECK: "1" } as Record<string, string> }).status === 3;
}
