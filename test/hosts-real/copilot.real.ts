// Copilot CLI, the real program (`copilot -p`, its own model provider pointed
// at the stand-in, offline), with and without rtk's hook: the same fate for
// every command under each set of rules (its `--allow-tool` / `--deny-tool`
// options, a project's Claude Code settings) and permission option. Headless,
// Copilot cannot ask: what it would ask about is refused ("no interactive user
// response": asked), what its rules deny is refused naming them. What went
// through rtk is what rtk's library decides for Copilot, given the same
// command line (read from the running `copilot`, here from a stand-in /proc).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { rewrite } from "../../src/api.js";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { copilotDriver, COPILOT_PACKAGE } from "./hosts/copilot.js";
import { assertHandedAsLibrary, assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet, typedRtkUnderDeny } from "./parity.js";
import type { HostDriver } from "./support/session.js";

interface Rules extends RuleSet {
  /** Options of Copilot's command line. */
  options: string[];
}

const tools = (kind: "allow" | "deny", ...shell: string[]) => shell.map((s) => `--${kind}-tool=shell(${s})`);
const claude = (permissions: object) => ({ "work/app/.claude/settings.json": JSON.stringify({ permissions }) });

const NONE: Rules = { name: "none", files: {}, options: [] };
const ALLOW: Rules = { name: "allow `git status`, `git log:*`, `cat:*`", files: {}, options: tools("allow", "git status", "git log:*", "cat:*") };
const DENY: Rules = { name: "deny `git push`, `git diff:*`", files: {}, options: tools("deny", "git push", "git diff:*") };
const GIT_BUT_PUSH: Rules = { name: "allow `git:*`, deny `git push`", files: {}, options: [...tools("allow", "git:*"), ...tools("deny", "git push")] };
const ALLOW_RTK: Rules = { name: "allow `git status`, `rtk:*`", files: {}, options: tools("allow", "git status", "rtk:*") };
const CLAUDE: Rules = {
  name: "project's Claude Code settings: allow `Bash(git status)`, deny `Bash(git diff:*)`",
  files: claude({ allow: ["Bash(git status)"], deny: ["Bash(git diff:*)"] }),
  options: [],
};

/**
 * Rule set × permission option (null: Copilot's default), and the share of the corpus CI runs in it (ciShare); null:
 * only with RTK_REAL_HOSTS_FULL=1 (Copilot starts slowly and runs a turn's calls one after another: CI runs two rows).
 */
const RUNS: [Rules, string | null, number | null][] = [
  [NONE, null, 32],
  [NONE, "--allow-all-tools", null],
  [NONE, "--yolo", null],
  [ALLOW, null, null],
  [DENY, null, null],
  [DENY, "--yolo", 32],
  [GIT_BUT_PUSH, null, null],
  [ALLOW_RTK, null, null],
  [CLAUDE, null, null],
];

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];
const all = parityCommands();

before(() => {
  ensureBuilt();
  driver = copilotDriver();
});

after(() => {
  reportRows("copilot", `Copilot CLI ${COPILOT_PACKAGE.version}`, rows);
});

/** The environment rtk's library reads Copilot's command line from: a /proc holding a `copilot` as this process's parent. */
function procWith(root: string, argv: string[]): Record<string, string> {
  const dir = join(root, "proc", String(process.ppid));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cmdline"), argv.join("\0") + "\0");
  writeFileSync(join(dir, "stat"), `${process.ppid} (copilot) S 1 0 0`);
  return { RTK_PROC_ROOT: join(root, "proc") };
}

describe(`Copilot CLI ${COPILOT_PACKAGE.version} with and without rtk`, () => {
  for (const [rules, option, share] of RUNS) {
    test(`${rules.name} × ${option ?? "default"}: every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`Copilot CLI cannot run here: ${driver.error}`);
      if (share === null && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const options = [...rules.options, ...(option ? [option] : [])];
      const row = await parityRow(driver, ciShare(all, share ?? 1), rules, options.join(" ") || undefined);
      row.mode = option ?? "default";
      rows.push(row);
      assertSameHost(`copilot-${COPILOT_PACKAGE.version}`, `${rules.name} × ${row.mode}`, row.without);
      assertParity(row);
      let env: Record<string, string> | undefined;
      assertHandedAsLibrary(
        row,
        rules.files,
        (command, replica) => {
          env ??= { ...replica.env, ...procWith(replica.root, [join("/opt", "copilot"), "-p", "…", ...options]) };
          const r = rewrite(command, { host: "copilot", cwd: replica.repo, env, warn: () => {} });
          return r.exitCode === 0 ? r.command : null;
        },
        ` under ${rules.name}`,
      );
    });
  }
});

// The one fate rtk changes, on purpose: Copilot's rules cannot see a command behind an `rtk` the agent typed.
test(`Copilot CLI ${COPILOT_PACKAGE.version}: an \`rtk\` the agent typed before a command a rule denies is refused`, async (t) => {
  if ("error" in driver) return t.skip(`Copilot CLI cannot run here: ${driver.error}`);
  await typedRtkUnderDeny(driver, { mode: [...tools("allow", "rtk:*"), ...tools("deny", "git push")].join(" ") });
});
