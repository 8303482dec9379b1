// Gemini CLI, the real program (headless, `gemini -p`), with and without rtk's
// hook: the same fate for every command under every rule set and approval mode
// (parity.ts). Headless, Gemini cannot ask: what its policy would ask about
// fails (asked), what it denies fails as a policy violation, and with no rule
// for the shell tool outside yolo it withholds the tool (denied). Its policy
// judges the command its hook hands back, so rtk rewrites only where Gemini's
// own rules allow both forms: an allow rule naming `rtk` must open nothing that
// is not allowed as typed. What went through rtk is what rtk's library decides
// with the same files.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { join } from "node:path";
import { rewrite } from "../../src/api.js";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { geminiDriver, GEMINI_PACKAGE } from "./hosts/gemini.js";
import { assertHandedAsLibrary, assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet, typedRtkUnderDeny } from "./parity.js";
import { session, type HostDriver } from "./support/session.js";

/** The project's settings (Gemini reads them in the folder it runs in, trusted here by `--skip-trust`). */
const settings = (doc: object) => ({ "work/app/.gemini/settings.json": JSON.stringify(doc) });
const allowed = (...commands: string[]) => ({ tools: { allowed: commands.map((c) => `run_shell_command(${c})`) } });
/** A user policy file (`~/.gemini/policies/*.toml`), one `[[rule]]` per entry. */
const policy = (...rules: [decision: string, prefix: string, priority: number][]) => ({
  ".gemini/policies/rules.toml": rules.map(([d, p, n]) => `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ${JSON.stringify(p)}\ndecision = "${d}"\npriority = ${n}\n`).join("\n"),
});

const NONE: RuleSet = { name: "none", files: {} };
const ALLOW: RuleSet = { name: "allow git status, git log, ls", files: settings(allowed("git status", "git log", "ls")) };
const ALLOW_RTK_GIT: RuleSet = { name: "allow rtk git", files: settings(allowed("rtk git")) };
const ALLOW_WITH_RTK: RuleSet = { name: "allow git status, git log, ls, rtk", files: settings(allowed("git status", "git log", "ls", "rtk")) };
const POLICY: RuleSet = {
  name: "policy: deny git diff, ask git log; exclude git push",
  files: { ...policy(["deny", "git diff", 100], ["ask_user", "git log", 100]), ...settings({ tools: { exclude: ["run_shell_command(git push)"] } }) },
};
const POLICY_WITH_RTK: RuleSet = {
  name: "allow git, ls, rtk; policy: deny git diff, ask git log -p",
  files: { ...policy(["deny", "git diff", 500], ["ask_user", "git log -p", 500]), ...settings(allowed("git", "ls", "rtk")) },
};

/**
 * Each rule set × approval mode, and the share of the corpus CI runs in it (a sixteenth where rtk rewrites, a thirty-second
 * elsewhere); null: only with RTK_REAL_HOSTS_FULL=1 (auto_edit differs from default for the shell only in redirections,
 * which CI's share of the corpus does not meet under these rules; yolo without a policy runs every command in both
 * sessions, and with one the policy row stays; an allow for `rtk git` alone rewrites less than the rows with `rtk`).
 */
const RUNS: [RuleSet, string, number | null][] = [
  [NONE, "default", 32],
  [NONE, "yolo", null],
  [ALLOW, "default", 32],
  [ALLOW, "auto_edit", null],
  [ALLOW, "yolo", null],
  [ALLOW_RTK_GIT, "default", null],
  [ALLOW_WITH_RTK, "default", 16],
  [POLICY, "yolo", 32],
  [POLICY_WITH_RTK, "default", 16],
];

/** The hook's environment, as `gemini --skip-trust` leaves it. */
const HOOK_ENV = { GEMINI_CLI_TRUST_WORKSPACE: "true" };

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];
const all = parityCommands();

before(() => {
  ensureBuilt();
  driver = geminiDriver();
});

after(() => {
  reportRows("gemini", `Gemini CLI ${GEMINI_PACKAGE.version}`, rows);
});

describe(`Gemini CLI ${GEMINI_PACKAGE.version} with and without rtk`, () => {
  for (const [rules, mode, share] of RUNS) {
    test(`${rules.name} × ${mode}: every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`Gemini CLI cannot run here: ${driver.error}`);
      if (share === null && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const row = await parityRow(driver, ciShare(all, share ?? 1), rules, mode);
      rows.push(row);
      assertSameHost(`gemini-cli-${GEMINI_PACKAGE.version}`, `${rules.name} × ${mode}`, row.without);
      assertParity(row);
      // What went through rtk is what rtk's library decides for Gemini with the same files.
      assertHandedAsLibrary(
        row,
        rules.files,
        (command, replica) => {
          const r = rewrite(command, { host: "gemini", cwd: replica.repo, env: { ...replica.env, ...HOOK_ENV }, warn: () => {} });
          return r.exitCode === 0 ? r.command : null;
        },
        ` under ${rules.name}`,
      );
      if (rules === ALLOW_WITH_RTK || rules === POLICY_WITH_RTK) assert.ok(row.throughRtk > 0, "an allow rule for `rtk` lets rewrites through");
    });
  }
});

// The one fate rtk changes, on purpose: Gemini's policy cannot see a command behind an `rtk` the agent typed.
test(`Gemini CLI ${GEMINI_PACKAGE.version}: an \`rtk\` the agent typed before a command a policy denies is refused`, async (t) => {
  if ("error" in driver) return t.skip(`Gemini CLI cannot run here: ${driver.error}`);
  const hooked = await typedRtkUnderDeny(driver, { files: policy(["deny", "git push", 100]), mode: "yolo" });
  assert.match(hooked.outcomes[0]!.received, /denied by your rule/);
});

// Gemini replaces the call's arguments by the hook's `tool_input` whole: a rewrite keeps the folder the model named.
test(`Gemini CLI ${GEMINI_PACKAGE.version}: a rewritten command runs in the call's dir_path`, async (t) => {
  if ("error" in driver) return t.skip(`Gemini CLI cannot run here: ${driver.error}`);
  const inner = driver.dialect;
  const inSrc: HostDriver = {
    ...driver,
    dialect: {
      answer(path, body, next, record, issued, take) {
        const reply = inner.answer(path, body, next, record, issued, take);
        const response = (reply?.events?.[0]?.[1] ?? reply?.json) as { candidates?: { content?: { parts?: { functionCall?: { args?: object } }[] } }[] } | undefined;
        for (const p of response?.candidates?.[0]?.content?.parts ?? []) if (p.functionCall) p.functionCall.args = { ...p.functionCall.args, dir_path: "src" };
        return reply;
      },
    },
  };
  const r = await session(inSrc, ["ls"], { files: settings(allowed("ls", "rtk")), mode: "default", withRtk: true });
  assert.equal(r.outcomes[0]!.rewritten, "rtk ls");
  assert.match(r.outcomes[0]!.received, /main\.js/);
  assert.doesNotMatch(r.outcomes[0]!.received, /README\.md/);
});
