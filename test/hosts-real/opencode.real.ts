// OpenCode, the real program, with and without rtk's plugin: the same fate for
// every command under every rule set (parity.ts): OpenCode's defaults, a
// default-deny allowlist, ask rules, an agent's own rules, and a shell that is
// not bash (where the plugin can only replace the tool's arguments). Where the
// rewrite runs in the shell, every routed command that runs reaches the model
// through rtk; where it replaces the arguments, those it leaves are listed with
// rtk's reason.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { join } from "node:path";
import { rewrite } from "../../src/api.js";
import { ensureBuilt } from "../support/build.js";
import { parityCommands } from "./corpus.js";
import { opencodeDriver, OPENCODE_PACKAGE } from "./hosts/opencode.js";
import { assertHandedAsLibrary, assertParity, assertSameHost, ciShare, FULL, parityRow, reportRows, type ParityRow, type RuleSet, typedRtkUnderDeny } from "./parity.js";
import type { HostDriver } from "./support/session.js";

const project = (config: object) => ({ "work/app/opencode.json": JSON.stringify({ $schema: "https://opencode.ai/config.json", ...config }) });

const ALLOWLIST = { "*": "deny", "git status*": "allow", "ls*": "allow", "git diff*": "allow" };

interface Row {
  rules: RuleSet;
  /** The agent the session runs (`opencode run --agent`; default: OpenCode's, build). */
  agent?: string;
  /** Where the plugin hands the rewrite back: in the shell OpenCode starts (bash), or in the call's arguments (another shell). */
  delivery: "shell" | "args";
  /** Only with RTK_REAL_HOSTS_FULL=1 (each row costs CI some 25 s of OpenCode's start-up). */
  fullOnly?: boolean;
}

const ROWS: readonly Row[] = [
  { rules: { name: "defaults", files: {} }, delivery: "shell" },
  // The issue's rules: OpenCode refused these commands once its plugin had put `rtk` in front of them.
  { rules: { name: "default deny, allow git status, ls, git diff", files: project({ permission: { bash: ALLOWLIST } }) }, delivery: "shell" },
  { rules: { name: "ask git log, cat; deny git commit", files: project({ permission: { bash: { "git log*": "ask", "cat *": "ask", "git commit*": "deny" } } }) }, delivery: "shell" },
  {
    // The agent's rules over the global ones; `build`'s own rules must not be taken for the running agent's.
    rules: {
      name: "agent reviewer: ask by default, allow git status, git log, cat",
      files: {
        ...project({ permission: { bash: { "git diff*": "deny" } } }),
        ".config/opencode/opencode.json": JSON.stringify({
          agent: {
            reviewer: { mode: "primary", prompt: "Review.", permission: { bash: { "*": "ask", "git status*": "allow", "git log*": "allow", "cat *": "allow" } } },
            build: { permission: { bash: "deny" } },
          },
        }),
      },
    },
    agent: "reviewer",
    delivery: "shell",
    fullOnly: true,
  },
  {
    // The string form: one action for every bash command, the project's over the user's patterns.
    rules: {
      name: 'project bash "ask" over the user\'s allow git *',
      files: { ...project({ permission: { bash: "ask" } }), ".config/opencode/opencode.json": JSON.stringify({ permission: { bash: { "git *": "allow" } } }) },
    },
    delivery: "shell",
    fullOnly: true,
  },
  // Where the tool's shell is not bash, the plugin replaces the arguments, which OpenCode then judges.
  { rules: { name: "shell dash (arguments replaced), defaults", files: project({ shell: "/bin/dash" }) }, delivery: "args" },
];

let driver: HostDriver | { error: string };
const rows: ParityRow[] = [];
/** As CI runs it, a twenty-fourth of the corpus with every write and network command (ciShare); RTK_REAL_HOSTS_FULL=1: all of it. */
const commands = ciShare(parityCommands(), 24);

before(() => {
  ensureBuilt();
  driver = opencodeDriver();
});

after(() => {
  reportRows("opencode", `OpenCode ${OPENCODE_PACKAGE.version}, ${commands.length} commands per session`, rows);
});

describe(`OpenCode ${OPENCODE_PACKAGE.version} with and without rtk`, () => {
  for (const { rules, agent, delivery, fullOnly } of ROWS) {
    test(`${rules.name}${agent ? ` × agent ${agent}` : ""}: every command meets the same fate`, async (t) => {
      if ("error" in driver) return t.skip(`OpenCode cannot run here: ${driver.error}`);
      if (fullOnly && !FULL) return t.skip("with RTK_REAL_HOSTS_FULL=1 only");
      const row = await parityRow(driver, commands, rules, agent);
      rows.push(row);
      assertSameHost(`opencode-${OPENCODE_PACKAGE.version}`, `${rules.name} × ${agent ?? "build"}`, row.without);
      assertParity(row);
      // What went through rtk is what rtk's library decides for OpenCode with the same files; with the rewrite run in
      // the shell every routed command that ran went through rtk, else rtk says why not.
      const held: string[] = [];
      assertHandedAsLibrary(
        row,
        rules.files,
        (command, replica) => {
          const decide = (host: string, mode?: string) => rewrite(command, { host, mode, cwd: replica.repo, env: replica.env, warn: () => {} });
          const r = decide("opencode", `${delivery}:${agent ?? "build"}`);
          const handed = r.exitCode === 0 || r.exitCode === 3 ? r.command : null;
          if (handed === null && decide("none").exitCode === 3) held.push(`${command}  (${r.held?.reason ?? `exit ${r.exitCode}`}${r.held?.rule ? `: ${r.held.rule}` : ""})`);
          return handed;
        },
        ` under ${rules.name}`,
      );
      if (delivery === "shell") assert.deepEqual(held, [], `routed commands OpenCode ran without rtk under ${rules.name}`);
      else if (held.length) process.stdout.write(`\n${rules.name}: routed commands left as typed, as rtk judges OpenCode would read them otherwise:\n  ${held.join("\n  ")}\n`);
    });
  }
});

// The one fate rtk changes, on purpose: OpenCode's rules cannot see a command behind an `rtk` the agent typed.
test(`OpenCode ${OPENCODE_PACKAGE.version}: an \`rtk\` the agent typed before a command OpenCode denies is refused`, async (t) => {
  if ("error" in driver) return t.skip(`OpenCode cannot run here: ${driver.error}`);
  const hooked = await typedRtkUnderDeny(driver, { files: project({ permission: { bash: { "git push*": "deny" } } }) });
  assert.match(hooked.outcomes[0]!.received, /OpenCode permissions deny this command/);
});
