// Property: a rewrite never earns a looser verdict than the original, for the
// two hosts that judge a replacement their own way (replacement.property.test.ts
// has the hosts with Claude Code's shape). Generated commands (simple ones,
// lists and pipelines, an `rtk` the agent typed) under generated rules go
// through what rtk gives the host; a stand-in of the host, written here from
// docs/hosts.md and the notes in src/permissions/codex-*.ts and opencode-*.ts,
// judges the command it ends up checking, and its verdict must be at least as
// strict as its verdict on the original.
//
// Codex CLI: `prefix_rule(pattern, decision)` in `$CODEX_HOME/rules/*.rules`
// and the project's `.codex/rules/`. Codex splits a command of plain words at
// `&&`, `||`, `;` and `|` (one with an assignment is not split: it is the one
// command `bash -lc …`, which no generated rule names) and matches each
// command's words against every pattern as a prefix: forbidden > prompt >
// allow. A command no rule matches runs in its sandbox unprompted (approval
// policy `on-request`, mode `default`; `never`, mode `bypassPermissions`), a
// forced `rm` excepted, which it asks about; under `never` what it would ask
// about is refused. A command it runs where a rule allows one of its parts runs
// outside the sandbox (Codex's `bypass_sandbox`): looser than inside it. Codex
// applies the hook's `updatedInput` only with `permissionDecision: "allow"`,
// which grants nothing: it judges what it runs by the same rules. So the one
// looser verdict the Claude-shaped hosts allow (an agent-typed `rtk X` allowed
// for X) has no room here: every verdict must be at least as strict.
//
// OpenCode (a plugin): `permission` in opencode.json (a string for every tool,
// or tools, matched with wildcards, to an action or to patterns and actions)
// and the running agent's `agent.<name>.permission` after it make one list
// after OpenCode's default (`*`: allow); the last pattern that matches a
// command's own text (assignments and redirects included) decides, `*` any
// characters, `?` one, a trailing ` *` also matching without its blank. Any deny
// denies the input, then any ask asks. A `cat` of a path outside the project is
// asked about whatever the rules say. The plugin's `tool.execute.before` runs
// for each call: where the shell is bash the arguments must stay exactly as
// typed (OpenCode judges them; the rewrite runs only once it has allowed
// them); with another shell OpenCode judges whatever the plugin left in the
// arguments. A deny the plugin throws is a deny.
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { runHook } from "../../src/hosts/hook.js";
import { HOOK_HOSTS } from "../../src/hosts/index.js";
import { opencodePlugin } from "../../src/hosts/opencode.js";
import { repoRoot } from "../support/corpus.js";
import { compoundArb, maybeBehindRtk, parts, put, RANK, RUNS, SIMPLE, split, tempProject, type Verdict } from "../support/never-looser.js";
import { inProcessEnv } from "../support/plugin.js";

// ---- Codex CLI ----------------------------------------------------------------------------

type Decision = "allow" | "prompt" | "forbidden";
type Token = string | readonly string[];
interface CodexRule {
  pattern: readonly Token[];
  decision: Decision;
  /** The user's rules (`$CODEX_HOME/rules`) or the project's (`.codex/rules`). */
  layer: "user" | "project";
}

/** From looser to stricter: outside the sandbox (a rule allows one of its parts), inside it, asked, refused. */
type CodexVerdict = "unsandboxed" | "sandboxed" | "ask" | "deny";
const CODEX_RANK: Record<CodexVerdict, number> = { unsandboxed: 0, sandboxed: 1, ask: 2, deny: 3 };

const CODEX_PATTERNS: readonly (readonly Token[])[] = [
  ["rtk"],
  ["rtk", "git"],
  ["rtk", "git", "push"],
  ["rtk", "git", "status"],
  ["rtk", "npm"],
  ["git"],
  ["git", "push"],
  ["git", "status"],
  ["git", ["push", "reset"]],
  ["git", "log"],
  ["git", "diff"],
  [["git", "rtk"], "status"],
  ["npm", "test"],
  ["npm"],
  ["ls"],
  ["cat"],
  ["cat", "f1.txt"],
  ["curl"],
  ["echo"],
  ["rm"],
  ["env"],
  ["timeout"],
  ["cargo", "test"],
];

const codexRulesArb = fc.array(
  fc.record({ pattern: fc.constantFrom(...CODEX_PATTERNS), decision: fc.constantFrom<Decision>("allow", "prompt", "forbidden"), layer: fc.constantFrom("user", "project") }, { noNullPrototype: true }),
  { maxLength: 4 },
);

const codexCommandArb = compoundArb(maybeBehindRtk([...SIMPLE, "git reset --hard", "rm -f f1.txt", "rm f1.txt"]));

const prefixMatches = (pattern: readonly Token[], words: readonly string[]) =>
  pattern.length <= words.length && pattern.every((t, i) => (typeof t === "string" ? words[i] === t : t.includes(words[i]!)));

/** `rm` with a force option: what Codex asks about by itself. */
const forcedRm = (words: readonly string[]) => words[0] === "rm" && words.slice(1).some((w) => /^-[^-]*f/.test(w) || w === "--force");

function codexVerdict(command: string, rules: readonly CodexRule[], mode: string): CodexVerdict {
  const plain = split(command).every((p) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(p));
  const commands = plain ? split(command).map((p) => p.split(/\s+/)) : [["bash", "-lc", command]];
  const decisions = commands.flatMap((words) => rules.filter((r) => prefixMatches(r.pattern, words)).map((r) => r.decision));
  // A forced `rm` no rule names is asked about (Codex reads it also behind an assignment).
  const forced = parts(command).some((p) => forcedRm(p.split(/\s+/)) && !rules.some((r) => prefixMatches(r.pattern, p.split(/\s+/))));
  if (decisions.includes("forbidden")) return "deny";
  if (decisions.includes("prompt") || forced) return mode === "bypassPermissions" ? "deny" : "ask";
  return decisions.includes("allow") ? "unsandboxed" : "sandboxed";
}

/** What Codex makes of rtk's answer: an `updatedInput` is applied only with an allow, and judged by its rules like any command. */
function codexOnAnswer(original: string, stdout: string, rules: readonly CodexRule[], mode: string): CodexVerdict {
  if (!stdout.trim()) return codexVerdict(original, rules, mode);
  const h = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } } }).hookSpecificOutput ?? {};
  if (h.permissionDecision === "deny") return "deny";
  const replaced = h.permissionDecision === "allow" ? h.updatedInput?.command : undefined;
  return codexVerdict(replaced ?? original, rules, mode);
}

const starlark = (rules: readonly CodexRule[]) => rules.map((r) => `prefix_rule(pattern = ${JSON.stringify(r.pattern)}, decision = "${r.decision}")\n`).join("");

describe("Codex CLI: a rewrite never earns a looser verdict than the original", () => {
  test(`${RUNS} generated (rules, command) pairs`, () => {
    const host = HOOK_HOSTS.get("codex")!;
    const { home, project } = tempProject();
    const codexHome = join(home, "codex-home");
    const env = { HOME: home, CODEX_HOME: codexHome, XDG_CONFIG_HOME: join(home, ".config"), RTK_NO_PATH_CHECK: "1", RTK_NO_TRACK: "1", RTK_ROUTES: "all", PATH: "/usr/bin:/bin" };
    let rewritten = 0;
    fc.assert(
      fc.property(codexCommandArb, codexRulesArb, fc.constantFrom("default", "bypassPermissions"), (command, rules, mode) => {
        put(join(codexHome, "rules", "default.rules"), starlark(rules.filter((r) => r.layer === "user")));
        put(join(project, ".codex", "rules", "project.rules"), starlark(rules.filter((r) => r.layer === "project")));
        const event = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd: project, permission_mode: mode, model: "gpt-5.1-codex" };
        const warnings: string[] = [];
        const run = runHook(host, Buffer.from(JSON.stringify(event)), env, (m) => warnings.push(m));
        // A rules file rtk could not read would leave every command as typed: never looser, and nothing tested.
        assert.deepEqual(warnings, [], `rtk reads the generated rules:\n${starlark(rules)}`);
        if (run.answer.stdout.includes('"updatedInput"')) rewritten++;
        const before = codexVerdict(command, rules, mode);
        const after = codexOnAnswer(command, run.answer.stdout, rules, mode);
        assert.ok(
          CODEX_RANK[after] >= CODEX_RANK[before],
          `codex ${mode}: \`${command}\` under\n${starlark(rules)}Codex would run the original ${before}, and rtk's answer ${after}: ${run.answer.stdout}`,
        );
      }),
      { numRuns: RUNS },
    );
    if (RUNS >= 1000) assert.ok(rewritten >= RUNS / 50, `rtk hands Codex a rewrite now and then (${rewritten} of ${RUNS})`);
  });
});

// ---- OpenCode -----------------------------------------------------------------------------

type Patterns = Record<string, Verdict>;
/** `permission`: one action for every tool, or tools (wildcards) to an action or to patterns. */
type Permission = Verdict | Record<string, Verdict | Patterns>;
interface OpencodeConfig {
  permission?: Permission;
  agent?: Record<string, { permission: Permission }>;
  default_agent?: string;
}

const OPENCODE_PATTERNS = [
  "*",
  "git *",
  "git status*",
  "git status",
  "git push*",
  "git * main",
  "git log?*",
  "rtk *",
  "rtk*",
  "rtk git *",
  "rtk git push*",
  "ls*",
  "cat *",
  "npm test",
  "npm *",
  "curl *",
  "echo *",
  "rm *",
  "FOO=1 *",
  "*--force*",
  "*2>&1",
  "timeout *",
];

const actionArb = fc.constantFrom<Verdict>("allow", "ask", "deny");
const patternsArb: fc.Arbitrary<Patterns> = fc.array(fc.tuple(fc.constantFrom(...OPENCODE_PATTERNS), actionArb), { maxLength: 5 }).map((e) => Object.fromEntries(e));
const permissionArb: fc.Arbitrary<Permission> = fc.oneof(
  actionArb,
  fc
    .array(fc.oneof(fc.tuple(fc.constant("bash"), fc.oneof(actionArb, patternsArb)), fc.tuple(fc.constantFrom("*", "edit", "b*"), actionArb)), { minLength: 1, maxLength: 3 })
    .map((e) => Object.fromEntries(e)),
);
const opencodeConfigArb: fc.Arbitrary<OpencodeConfig> = fc.record(
  {
    permission: permissionArb,
    agent: fc.dictionary(fc.constantFrom("build", "reviewer"), fc.record({ permission: permissionArb }, { noNullPrototype: true }), { maxKeys: 2, noNullPrototype: true }),
    default_agent: fc.constant("reviewer"),
  },
  { requiredKeys: [], noNullPrototype: true },
);

const opencodeCommandArb = compoundArb(maybeBehindRtk([...SIMPLE, "git status 2>&1", "cat /etc/hostname", "cat ../notes.txt", "cat ~/notes.txt"]));

/** OpenCode's wildcards over the whole text. */
function wildcard(pattern: string, text: string): boolean {
  let source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  if (pattern.endsWith(" *")) source = source.slice(0, -3) + "( .*)?";
  return new RegExp(`^${source}$`, "s").test(text);
}

/** The bash tool's rules for `agent`, in order, OpenCode's default first. */
function opencodeList(config: OpencodeConfig, agent: string): { pattern: string; action: Verdict }[] {
  const list = [{ pattern: "*", action: "allow" as Verdict }];
  const take = (permission: Permission | undefined) => {
    const tools = typeof permission === "string" ? { "*": permission } : (permission ?? {});
    for (const [tool, value] of Object.entries(tools)) {
      if (!wildcard(tool, "bash")) continue;
      if (typeof value === "string") list.push({ pattern: "*", action: value });
      else for (const [pattern, action] of Object.entries(value)) list.push({ pattern, action });
    }
  };
  take(config.permission);
  take(config.agent?.[agent]?.permission);
  return list;
}

function opencodeVerdict(command: string, config: OpencodeConfig, agent: string, home: string, project: string): Verdict {
  const list = opencodeList(config, agent);
  const actions = split(command).map((text) => {
    const action = list.findLast((r) => wildcard(r.pattern, text))!.action;
    // `external_directory`: a `cat` of a path outside the project is asked about whatever the rules say.
    const words = text.replace(/^([A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, "").split(/\s+/);
    const outside = words[0] === "cat" && words.slice(1).some((w) => !resolve(project, w.replace(/^~(?=\/)/, home)).startsWith(project + "/"));
    return outside && action === "allow" ? "ask" : action;
  });
  return actions.includes("deny") ? "deny" : actions.includes("ask") ? "ask" : "allow";
}

type Handler = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
type Hooks = Record<string, Handler>;

describe("OpenCode: the plugin never leaves OpenCode a command it judges looser than the original", () => {
  let home: string;
  let project: string;
  let restoreEnv = () => {};
  const saved: Record<string, string | undefined> = {};
  /** The plugin where OpenCode's shell is bash (`shell`: the command stays as typed) and where it is sh (`args`: it may be replaced). */
  const plugins: Partial<Record<"shell" | "args", Hooks>> = {};

  before(async () => {
    ({ home, project } = tempProject());
    restoreEnv = inProcessEnv(home);
    for (const k of ["OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT", "OPENCODE_PERMISSION", "OPENCODE_DISABLE_PROJECT_CONFIG", "XDG_CACHE_HOME", "XDG_DATA_HOME"]) {
      saved[k] = process.env[k];
      delete process.env[k];
    }
    // The plugin as `rtk init` writes it, importing rtk's library from the source tree (the property tests run on the source).
    const file = join(home, "plugin", "rtk.ts");
    put(file, opencodePlugin({ lib: join(repoRoot, "src", "lib.ts"), bin: join(home, "no-rtk") }));
    const factory = (await import(pathToFileURL(file).href)) as { RtkPlugin: (ctx: unknown) => Promise<Hooks> };
    for (const [delivery, shell] of [
      ["shell", "/bin/bash"],
      ["args", "/bin/sh"],
    ] as const) {
      plugins[delivery] = await factory.RtkPlugin({ directory: project, worktree: project, client: { config: { get: async () => ({ data: { shell } }) } } });
    }
  });

  after(() => {
    restoreEnv();
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  });

  test(`${RUNS} generated (rules, command) pairs`, async () => {
    let calls = 0;
    const rewritten = { shell: 0, args: 0 };
    await fc.assert(
      fc.asyncProperty(
        opencodeCommandArb,
        opencodeConfigArb,
        fc.constantFrom("shell", "args"),
        fc.constantFrom(undefined, "build", "reviewer"),
        fc.boolean(),
        async (command, config, delivery, agent, inProject) => {
          // The rules are read from the project's opencode.json or the user's.
          put(join(project, "opencode.json"), JSON.stringify(inProject ? config : {}));
          put(join(home, ".config", "opencode", "opencode.json"), JSON.stringify(inProject ? {} : config));
          const hooks = plugins[delivery]!;
          const sessionID = `ses_${++calls}`;
          // OpenCode tells the plugin the session's agent before each model request; without it the default agent runs.
          if (agent) await hooks["chat.params"]!({ sessionID, agent }, {});
          const running = agent ?? config.default_agent ?? "build";
          const output = { args: { command, description: "Run it" } };
          const callID = `call_${calls}`;
          let thrown: unknown = null;
          try {
            await hooks["tool.execute.before"]!({ tool: "bash", sessionID, callID }, output);
          } catch (e) {
            thrown = e;
          }
          const judged = output.args.command;
          if (thrown) assert.match(String(thrown), /^(RtkDenied: )?(Error: )?rtk: /, `only rtk's deny is thrown: ${String(thrown)}`);
          if (delivery === "shell") assert.equal(judged, command, "where the shell is bash, OpenCode judges the command as typed");
          const beforeVerdict = opencodeVerdict(command, config, running, home, project);
          const afterVerdict = thrown ? "deny" : opencodeVerdict(judged, config, running, home, project);
          assert.ok(
            RANK[afterVerdict] >= RANK[beforeVerdict],
            `opencode ${delivery}, agent ${running}: \`${command}\` under ${JSON.stringify(config)}: OpenCode would ${beforeVerdict} the original, and ${afterVerdict} \`${judged}\``,
          );
          // Unless it denies, OpenCode then starts the shell (once the user agrees, where it asks): the plugin hands it the rewrite there.
          if (afterVerdict === "deny") return;
          const shellEnv: Record<string, string> = {};
          await hooks["shell.env"]!({ cwd: project, sessionID, callID }, { env: shellEnv });
          if (shellEnv["RTK_OPENCODE_RUN"] !== undefined || judged !== command) rewritten[delivery]++;
        },
      ),
      { numRuns: RUNS },
    );
    if (RUNS >= 1000) for (const d of ["shell", "args"] as const) assert.ok(rewritten[d] >= RUNS / 50, `the plugin rewrites now and then (${d}: ${rewritten[d]} of ${RUNS})`);
  });
});
