// Continue's CLI, the real program (headless, `cn -p`), with and without rtk's
// hook (parity.ts). cn 1.5.47 reads hooks from ~/.continue/settings.json (and
// Claude Code's files) but fires none of them, PreToolUse included: with rtk
// installed every command runs as typed and meets the same fate, and nothing
// goes through rtk. The last test holds the program to that, so that a release
// that starts running hooks fails here, naming what to check.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { join } from "node:path";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { continueDriver, CONTINUE_PACKAGE } from "./hosts/continue.js";
import { assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet } from "./parity.js";
import { session, spoolRecords, type HostDriver } from "./support/session.js";

/** cn's permissions, `~/.continue/permissions.yaml`: lists of `Bash(glob)` entries. */
const permissions = (lists: { allow?: string[]; ask?: string[]; exclude?: string[] }) => ({
  ".continue/permissions.yaml": Object.entries(lists)
    .map(([k, v]) => `${k}:\n${v.map((e) => `  - ${JSON.stringify(e)}`).join("\n")}\n`)
    .join(""),
});

const NONE: RuleSet = { name: "none", files: {} };
const RULES: RuleSet = {
  name: "allow Bash(git status*), Bash(rtk git status*); ask Bash(git log*); exclude Bash(git push*)",
  files: permissions({ allow: ["Bash(git status*)", "Bash(rtk git status*)"], ask: ["Bash(git log*)"], exclude: ["Bash(git push*)"] }),
};
const ASK_ALL: RuleSet = { name: "ask Bash(*), allow Bash(git status*), Bash(rtk *)", files: permissions({ allow: ["Bash(git status*)", "Bash(rtk *)"], ask: ["Bash(*)"] }) };

/** Each rule set × mode (`--auto`, `--readonly`; none: cn's headless defaults) and CI's share of the corpus; null: with RTK_REAL_HOSTS_FULL=1 only. */
const RUNS: [RuleSet, string, number | null][] = [
  [NONE, "default", 32],
  [NONE, "auto", null],
  [NONE, "readonly", null],
  [RULES, "default", 32],
  [ASK_ALL, "default", null],
];

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];
const all = parityCommands();

before(() => {
  ensureBuilt();
  driver = continueDriver();
});

after(() => {
  reportRows("continue", `Continue CLI ${CONTINUE_PACKAGE.version}`, rows);
});

describe(`Continue CLI ${CONTINUE_PACKAGE.version} with and without rtk`, () => {
  for (const [rules, mode, share] of RUNS) {
    test(`${rules.name} × ${mode}: every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`Continue CLI cannot run here: ${driver.error}`);
      if (share === null && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const row = await parityRow(driver, ciShare(all, share ?? 1), rules, mode);
      rows.push(row);
      assertSameHost(`continue-cli-${CONTINUE_PACKAGE.version}`, `${rules.name} × ${mode}`, row.without);
      assertParity(row);
      // cn runs no hook: nothing is rewritten, whatever rtk's rules would allow.
      assert.equal(row.throughRtk, 0, "commands went through rtk: cn now runs its PreToolUse hooks; check src/hosts/continue.ts against it");
    });
  }
});

test(`Continue CLI ${CONTINUE_PACKAGE.version} runs none of the hooks in its settings`, async (t) => {
  if ("error" in driver) return t.skip(`Continue CLI cannot run here: ${driver.error}`);
  // Every event the documentation lists, in cn's own file and in Claude Code's, each writing a line when it runs.
  const events = ["PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"];
  const log = (name: string) => ({ type: "command", command: `echo ${name} >> "$HOME/hooks.log"` });
  const hooks = Object.fromEntries(events.map((e) => [e, [{ matcher: "", hooks: [log(e)] }]]));
  let ran = "";
  const r = await session(driver, ["git status", "ls"], {
    withRtk: true,
    files: { ".claude/settings.json": JSON.stringify({ hooks }) },
    inspect(s) {
      // rtk init wrote ~/.continue/settings.json; the log hooks were written beside rtk's in Claude Code's file.
      const file = join(s.home, "hooks.log");
      ran = existsSync(file) ? readFileSync(file, "utf8") : "";
      const settings = JSON.parse(readFileSync(join(s.home, ".continue", "settings.json"), "utf8")) as { hooks?: { PreToolUse?: unknown[] } };
      assert.ok(settings.hooks?.PreToolUse?.length, "rtk's PreToolUse entry is in ~/.continue/settings.json");
      assert.deepEqual(
        spoolRecords(s).filter((x) => x["kind"] === "hook"),
        [],
        "rtk's hook was never called",
      );
    },
  });
  assert.deepEqual(
    r.outcomes.map((o) => o.fate),
    ["ran", "ran"],
  );
  assert.equal(r.outcomes[0]!.rewritten, null);
  assert.equal(ran, "", "a hook ran: cn now fires its hooks; check src/hosts/continue.ts and docs/hosts.md against it");
});
