// A host is one file: how its events are decoded and answered, where rtk installs
// itself, where its rules live and how doctor tests it. An adapter only
// translates: it holds no command knowledge and no filtering.
import type { Env } from "../config/hooks.js";
import type { Outcome } from "../rewrite/outcome.js";
import type { CommandShell } from "./host-shell.js";
import type { HostEngine } from "../permissions/replacement.js";
import type { RuleLoader } from "../permissions/sources.js";
import type { OwnAllow, RuleSet } from "../permissions/verdict.js";

export interface HookAnswer {
  stdout: string;
  stderr?: string;
  exitCode: number;
}

export interface Decoded<C> {
  command: string;
  /** The folder whose project rules and config apply. */
  cwd?: string;
  /** The host's permission mode, when its event names one (Claude Code's `permission_mode`). */
  mode?: string;
  /** What the encoder needs from the event (original tool input, input shape, …). */
  ctx: C;
}

/** How a hook host's events are read and answered. */
export interface HookAdapter<C = unknown> {
  /** The shell command of the event, or null when the event is not one (another tool, another event). */
  /** `env`: the hook's environment (where the host's own files are); `warn`: one line on stderr. */
  decode(event: unknown, env: Env, warn: (msg: string) => void): Decoded<C> | null;
  encode(outcome: Outcome, ctx: C): HookAnswer;
  /** The answer that lets the original command run unchanged: for malformed input, errors, other tools. */
  passThrough: HookAnswer;
}

export const SILENT: HookAnswer = { stdout: "", exitCode: 0 };

export function obj(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export const json = (v: unknown): HookAnswer => ({ stdout: JSON.stringify(v), exitCode: 0 });

/** Text on stdout, for a host that adds a session-start hook's plain output to the model's context. */
export const plainText = (text: string): HookAnswer => ({ stdout: text, exitCode: 0 });

/** How a host words the two outcomes it is told about: a rewrite, and a deny it cannot see itself. */
export interface AnswerWords<C> {
  rewrite(outcome: Extract<Outcome, { kind: "rewrite" }>, ctx: C): HookAnswer;
  deny(reason: string, ctx: C): HookAnswer;
}

/** The answer to an outcome in the host's words; any other outcome gets `silent`, which lets the command run as typed. */
export function answerIn<C>(outcome: Outcome, ctx: C, words: AnswerWords<C>, silent: HookAnswer = SILENT): HookAnswer {
  if (outcome.kind === "rewrite") return words.rewrite(outcome, ctx);
  // Handed back as typed, with the allow the host would give the command rtk runs.
  if (outcome.kind === "allow") return words.rewrite({ kind: "rewrite", command: outcome.command, allow: true, ask: false }, ctx);
  if (outcome.kind === "active-deny") return words.deny(outcome.reason, ctx);
  return silent;
}

/** A hook's `encode` and `passThrough` from its words: silence is the same answer for malformed input and for "no opinion". */
export function answers<C>(words: AnswerWords<C>, silent: HookAnswer = SILENT): Pick<HookAdapter<C>, "encode" | "passThrough"> {
  return { encode: (outcome, ctx) => answerIn(outcome, ctx, words, silent), passThrough: silent };
}

/**
 * The answers of a host that can only let a command through or block it: a
 * rewrite blocks with exit 2 and the `rtk …` form on stderr, which the host hands
 * to the model; the model re-issues that form, which is already rewritten (no
 * loop). An ask rule gets silence: the host then asks about the command as typed.
 */
export const GATE_ANSWERS: Pick<HookAdapter<unknown>, "encode" | "passThrough"> = answers<unknown>({
  rewrite: (outcome) => (outcome.ask ? SILENT : { stdout: "", stderr: `rtk: run \`${outcome.command}\` instead (same command, compact output)`, exitCode: 2 }),
  deny: (reason) => ({ stdout: "", stderr: reason, exitCode: 2 }),
});

/** Whether a gate's answer to doctor's sample carries the suggestion (on stderr, with exit 2). */
export const gateAnswered = (run: SelfTestRun, rewritten: string): boolean => run.status === 2 && run.stderr.includes(rewritten);

/**
 * How a command reaches rtk (spec/hosts.md): `hook` answers with a replacement,
 * `gate` can only let a command through or block it (rtk blocks with the `rtk …`
 * form as a suggestion), `plugin` rewrites in-process, `rules-only` asks the model.
 */
export type Tier = "hook" | "gate" | "plugin" | "rules-only";

/** What `rtk init --show` calls each tier. */
export const TIER_LABEL: Record<Tier, string> = {
  hook: "hook that replaces",
  gate: "gate only",
  plugin: "plugin",
  "rules-only": "rules only",
};

export type Scope = "global" | "project";

export interface Where {
  env: Env;
  cwd: string;
}

/** An entry in a JSON file: the array at `arrayPath` holds our entries. */
export interface JsonTarget {
  kind: "json";
  arrayPath: readonly string[];
  /** Keys a new file starts with besides the array path. */
  skeleton: Record<string, unknown>;
  /** The entries to add for the hook command. */
  entries(command: string): unknown[];
  /** Which of rtk's entries in the array are these, where another group of rtk's shares it (see JsonEntries). */
  owns?(entry: unknown): boolean;
  /**
   * The keys of an entry (or of a hook in a matcher group's `hooks`, or of its
   * `action`) that hold the hook command, in the order they are read; default
   * `["command"]`. Copilot CLI's entries hold it in `bash` and `powershell`.
   */
  commandKeys?: readonly string[];
  /** Keys whose command runs in a shell other than POSIX sh (Copilot CLI's `powershell`): they hold the call without its guard. */
  plainKeys?: readonly string[];
  /**
   * Other arrays where an earlier rtk put its entry, in a shape the host still
   * reads: init, doctor and uninstall recognise an entry there, and init moves it
   * to `arrayPath`.
   */
  earlier?: readonly (readonly string[])[];
  /** More entries of the same hook command, each in an array of its own (the session-start entry). */
  extra?: readonly JsonEntries[];
  /**
   * Why a file of the user's, in the shape it has, cannot take rtk's entries at
   * `arrayPath` (the host would ignore them there, or refuse the file with them
   * in it), and what to do; null where they fit. Such a file is left untouched.
   */
  unfit?(settings: Record<string, unknown>): string | null;
}

/** rtk's entries for the hook command in one array of a JSON settings file. */
export interface JsonEntries {
  arrayPath: readonly string[];
  entries(command: string): unknown[];
  /**
   * Which of rtk's entries in the array are this group's, where another group
   * of rtk's shares the array (Kiro's one `hooks` list holds both of rtk's
   * entries, told apart by their `trigger`); absent: every entry of rtk's there.
   */
  owns?(entry: unknown): boolean;
}

/**
 * A host's session-start event, where rtk adds what it tells the agent about
 * itself (text/markers.ts: sessionContext). `rtk init` installs the entry
 * beside the command hook; the same `rtk hook <host>` answers both events.
 */
export interface SessionStart extends JsonEntries {
  /** Whether an event is the host's session start. */
  is(event: Record<string, unknown>): boolean;
  /** The answer that adds `text` to the session's context. */
  answer(text: string): HookAnswer;
  /** The answer that adds nothing (the context switched off, or an error). */
  silent: HookAnswer;
  /** A representative session-start event, for doctor. */
  sample(cwd: string): string;
}

export interface FileTarget {
  kind: "file";
  /** A line that marks the file as ours. */
  marker: string;
  /** What the file is, in init's messages (default "plugin"). */
  what?: string;
  content(paths: RtkPaths): string;
}

export interface BlockTarget {
  kind: "block";
  /** The block's text between the markers; a function is called at install time (generated from the active routes). */
  content: string | (() => string);
}

/**
 * A TOML settings file whose hooks are an array of tables (`[[hooks]]`): rtk's
 * tables go at its end between `# rtk:begin` / `# rtk:end` comment lines, so
 * they can be updated and removed exactly without rewriting the user's TOML.
 */
export interface TomlTarget {
  kind: "toml";
  /** The key of the array of tables that holds the hook command. */
  arrayKey: string;
  /** rtk's tables for the hook command, as TOML text. */
  tables(command: string): string;
}

export type Target = JsonTarget | FileTarget | BlockTarget | TomlTarget;

export interface RtkPaths {
  /** The launcher hooks run. */
  bin: string;
  /** The library bundle in-process plugins import. */
  lib: string;
}

/** What `rtk init` installs for a host, and where. */
export interface HostInstall {
  name: string;
  title: string;
  target: Target;
  scopes: Partial<Record<Scope, (w: Where) => string>>;
  defaultScope: Scope;
  /** Printed after a successful install. */
  note?: string;
}

export interface Check {
  name: string;
  ok: boolean;
  /** Worth knowing, not broken: shown as a warning, and `ok` stays true. */
  warning?: boolean;
  detail: string;
  /** The command that fixes it. */
  fix?: string;
}

/** What the installed hook command did with a sample event. */
export interface SelfTestRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface HostDoctor {
  /** A representative event of the host for `command`. */
  sample(command: string, cwd: string): string;
  /** Whether the hook's answer to the sample carries `rewritten` (default: on stdout with exit 0). */
  answered?(run: SelfTestRun, rewritten: string): boolean;
  /** Checks of the host's own settings beyond the hook; `file` is the settings file rtk's hook is in. */
  checks?(where: Where, file: string): Check[];
  /**
   * For a host that judges the rewritten command: the files (relative to a HOME)
   * of a rule set under which it would run `command` unprompted. Doctor's
   * self-test runs the hook with a HOME holding only them, so that what it tests
   * is the hook, not the user's rules.
   */
  allowing?(command: string): Record<string, string>;
}

/** Claude Code's settings allowing one command (Copilot reads them too). */
export const claudeAllowing = (command: string): Record<string, string> => ({ ".claude/settings.json": JSON.stringify({ permissions: { allow: [`Bash(${command})`] } }) });

export interface Host {
  /** The name in `rtk hook`, `rtk init --agent` and `rtk rewrite --host`. */
  name: string;
  title: string;
  /** Absent for a host rtk only reads the rules of. */
  tier?: Tier;
  /** Other names `rtk rewrite --host` takes for the same rules. */
  aliases?: readonly string[];
  /** Where the host keeps its permission rules (the matching is permissions/'s). */
  rules: RuleLoader;
  hook?: HookAdapter<any>;
  /**
   * How the host judges a command it is handed back, when it judges it at all
   * (its rules and its own allowances apply to the rewritten text): a rewrite
   * is then handed back only where the host runs the original unprompted.
   */
  engine?: HostEngineOf;
  /** The shell the host runs a command in, where the `rtk` a rewrite inserts must run (default: with the hook's own environment). */
  shell?: CommandShell;
  install?: Omit<HostInstall, "name" | "title">;
  /** Its session-start event, where the host has one that can add to the agent's context. */
  session?: SessionStart;
  doctor?: HostDoctor;
}

/** Where a host's own judgement of a command is made: its permission mode, the folder, the hook's environment. */
export interface OwnContext {
  mode: string | undefined;
  cwd: string;
  env: Env;
}

export interface HostEngineOf {
  /** Whether the host judges the command it is handed back in this mode (default: in every mode); where it does not, nothing is held back. */
  judges?(mode: string | undefined): boolean;
  /** The answer can carry an allow the host honours for the replacement, in this mode (its deny and ask rules on it still apply). */
  explicitAllow: boolean | ((mode: string | undefined) => boolean);
  /** What the host runs unprompted with no rule naming it, in this mode and folder, given its rules; absent or null: nothing. */
  own?(ctx: OwnContext, rules: RuleSet): OwnAllow | null;
}

/** The engine as the rewrite uses it for one event. */
export function engineFor(engine: HostEngineOf, mode: string | undefined): HostEngine {
  return { explicitAllow: typeof engine.explicitAllow === "function" ? engine.explicitAllow(mode) : engine.explicitAllow };
}

/** The Claude-shaped event most hosts send, for doctor's self-test. */
export function claudeLikeSample(command: string, cwd: string, toolName: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "rtk-doctor",
    transcript_path: "/dev/null",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: toolName,
    tool_input: { command, description: "rtk doctor self-test" },
    tool_use_id: "rtk-doctor",
    ...extra,
  });
}
