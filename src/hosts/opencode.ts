// The OpenCode plugin rtk installs: it imports rtk's library in-process (no
// subprocess per command; `rtk rewrite` if the import fails) and runs the bash
// tool's command through rtk without changing what OpenCode judges. OpenCode
// checks a command's permission inside its bash tool, after the plugin's
// `tool.execute.before` and before the tool's `shell.env` hook, which sets the
// environment of the shell it then starts. So where that shell is bash, the
// plugin leaves the command as typed for OpenCode to judge and, once OpenCode
// has allowed it, hands the shell a startup file (`BASH_ENV`) that runs the
// rewrite in its place (mode `shell`). With another shell it can only replace
// the tool's arguments, which OpenCode then judges (mode `args`): the rewrite
// is handed back only where OpenCode allows both the command as typed and the
// rewritten one. A command the agent typed behind `rtk` that OpenCode's rules
// deny without it is stopped with the reason.
import { join } from "node:path";
import { opencodeOwn } from "../permissions/opencode-own.js";
import { opencodeMode, OPENCODE_RULES } from "../permissions/opencode-rules.js";
import { rewriteCore } from "./plugin-text.js";
import { configHome, project } from "./targets.js";
import type { Host, RtkPaths } from "./types.js";

export const opencode: Host = {
  name: "opencode",
  title: "OpenCode",
  tier: "plugin",
  rules: OPENCODE_RULES,
  engine: {
    // Replaced in the shell, the rewrite runs only where OpenCode allowed the command as typed; replaced in the arguments, OpenCode judges the rewritten text.
    judges: (mode) => opencodeMode(mode).delivery === "args",
    explicitAllow: false,
    own: opencodeOwn,
  },
  install: {
    target: { kind: "file", marker: "rtk:opencode-plugin", content: opencodePlugin },
    scopes: {
      global: (w) => join(configHome(w), "opencode", "plugins", "rtk.ts"),
      project: (w) => join(project(w, ".opencode"), ".opencode", "plugins", "rtk.ts"),
    },
    defaultScope: "global",
  },
};

/**
 * The startup file of the bash OpenCode's shell tool starts for a command rtk
 * rewrote (its `BASH_ENV`): in that shell (OpenCode's child, about to run the
 * command as typed, with `rtk` on its PATH) it gives the shell's environment
 * back as it was and runs the rewrite in its place; any other bash that reads
 * it gets its environment back and the user's own `BASH_ENV`, and runs what it
 * was given.
 */
export const OPENCODE_BASH_ENV = `# rtk:opencode-shell — written by rtk's OpenCode plugin (rtk init --agent opencode), read by the bash
# OpenCode starts for a command rtk rewrote, once OpenCode has allowed the command as typed.
if [ -n "\${RTK_OPENCODE_RUN+x}" ]; then
  __rtk_run=$RTK_OPENCODE_RUN
  __rtk_typed=\${RTK_OPENCODE_TYPED-}
  __rtk_pid=\${RTK_OPENCODE_PID-}
  unset RTK_OPENCODE_RUN RTK_OPENCODE_TYPED RTK_OPENCODE_PID
  if [ -n "\${RTK_OPENCODE_BASH_ENV+x}" ]; then
    BASH_ENV=$RTK_OPENCODE_BASH_ENV
    export BASH_ENV
    unset RTK_OPENCODE_BASH_ENV
  else
    unset BASH_ENV
  fi
  if [ "$PPID" = "$__rtk_pid" ] && [ "\${BASH_EXECUTION_STRING-}" = "$__rtk_typed" ] && command -v rtk >/dev/null 2>&1; then
    exec -a "$0" "$BASH" -c "$__rtk_run"
  fi
  unset __rtk_run __rtk_typed __rtk_pid
  if [ -n "\${BASH_ENV-}" ]; then . "$BASH_ENV"; fi
fi
`;

/** The plugin's text: its imports and rtk's paths, the rewrite, the shell's startup file, and OpenCode's hooks. */
export function opencodePlugin(paths: RtkPaths): string {
  return [pluginHead(paths), pluginRewrite(), pluginStartupFile(), pluginShell(), pluginHooks()].join("\n\n");
}

/** The plugin's marker line, its imports, and where rtk's library and launcher are. */
function pluginHead(paths: RtkPaths): string {
  return `// rtk:opencode-plugin — written by \`rtk init --agent opencode\`; \`rtk init --agent opencode --uninstall\` removes it.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";

const RTK_LIB = ${JSON.stringify(paths.lib)};
const RTK_BIN = ${JSON.stringify(paths.bin)};`;
}

/** The rewrite through rtk's library or launcher, with OpenCode's mode and its deny. */
function pluginRewrite(): string {
  return rewriteCore({
    host: '"opencode"',
    mode: true,
    answerFields: "; verdict?: string; activeDeny?: boolean",
    declarations: `
/** Thrown to stop a command OpenCode's own rules cannot see. */
class RtkDenied extends Error {}
`,
    onAnswer: `    if (r.verdict === "deny" && r.activeDeny) {
      throw new RtkDenied("rtk: your OpenCode permissions deny this command; the \`rtk\` prefix does not change what it runs, so OpenCode cannot see it: run it without \`rtk\`");
    }
    // Run in the shell, a rewrite waits for OpenCode to allow the command as typed, even where one of its rules asks first.
    if (r.exitCode === 3 && mode?.startsWith("shell")) return r.command;
`,
    spawn: `  const r = spawnSync(RTK_BIN, ["rewrite", "--json", "--host", "opencode", ...(mode ? ["--mode", mode] : []), command], { cwd, encoding: "utf8", timeout: 5000 });
`,
    replyFields: "; activeDeny?: unknown",
    onReply: `  if (out.verdict === "deny" && out.activeDeny === true) throw new RtkDenied("rtk: your OpenCode permissions deny this command; run it without \`rtk\`");
  if (r.status === 3 && mode?.startsWith("shell") && typeof out.rewritten === "string") return out.rewritten;
`,
  });
}

/** The startup file's text and \`startupFile()\`, which writes it where the shell can read it. */
function pluginStartupFile(): string {
  return `/** The startup file that runs the rewrite in the shell OpenCode starts (see rtk's src/hosts/opencode.ts). */
const BASH_ENV_TEXT = ${JSON.stringify(OPENCODE_BASH_ENV)};

/** Writes the startup file into rtk's own cache folder (owner-only) when it is not there as it should be; null when it cannot. */
function startupFile(): string | null {
  try {
    const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "rtk");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const mine = (p: string) => {
      const st = lstatSync(p);
      return (typeof process.getuid !== "function" || st.uid === process.getuid()) && (st.mode & 0o022) === 0 ? st : null;
    };
    if (!mine(dir)?.isDirectory()) return null;
    const file = join(dir, "opencode-bash-env.sh");
    let ok = false;
    try {
      ok = !!mine(file)?.isFile() && readFileSync(file, "utf8") === BASH_ENV_TEXT;
    } catch {
      ok = false;
    }
    if (!ok) {
      const tmp = \`\${file}.\${process.pid}.tmp\`;
      writeFileSync(tmp, BASH_ENV_TEXT, { mode: 0o600 });
      renameSync(tmp, file);
    }
    return file;
  } catch {
    return null;
  }
}`;
}

/** \`toolShell()\`, the shell OpenCode starts, and \`bounded()\`, which keeps the plugin's maps small. */
function pluginShell(): string {
  return `/** The shell OpenCode's bash tool starts, by its rule: the configured \`shell\`, else \`$SHELL\`; fish, nu, or one that is not there: bash. */
function toolShell(configured: unknown): string {
  const chosen = typeof configured === "string" && configured ? configured : process.env.SHELL;
  const name = chosen ? basename(chosen).toLowerCase().replace(/\\.exe$/, "") : "";
  if (!name || name === "fish" || name === "nu") return "bash";
  const there = isAbsolute(chosen!) ? existsSync(chosen!) : (process.env.PATH ?? "").split(":").some((d) => d && existsSync(join(d, chosen!)));
  return there ? name : "bash";
}

/** Forgets the oldest entries of a map that outgrew \`max\` (calls OpenCode refused never come back). */
function bounded<K, V>(map: Map<K, V>, max = 256): Map<K, V> {
  while (map.size > max) map.delete(map.keys().next().value as K);
  return map;
}`;
}

/** The plugin's export: OpenCode's hooks, which rewrite a bash call and hand its shell the startup file. */
function pluginHooks(): string {
  return `type Client = { config?: { get?: () => Promise<{ data?: { shell?: unknown } }> } };

export const RtkPlugin = async ({ directory, client }: { directory?: string; client?: Client } = {}) => {
  /** The agent of each session, which its permissions depend on. */
  const agents = new Map<string, string>();
  /** Rewrites waiting for OpenCode to allow the command as typed, by call. */
  const waiting = new Map<string, { typed: string; run: string }>();
  /** The commands rtk ran in place of what was typed, by call. */
  const ran = new Map<string, string>();
  let shell: Promise<string> | undefined;
  const delivery = async (): Promise<"shell" | "args" | null> => {
    shell ??= Promise.resolve(client?.config?.get?.())
      .then((r) => r?.data?.shell, () => undefined)
      .then(toolShell);
    const name = await shell;
    if (name === "bash" && startupFile()) return "shell";
    return ["sh", "dash", "zsh", "ksh", "mksh", "ash", "bash"].includes(name) ? "args" : null;
  };
  return {
    "chat.params": async (input: { sessionID?: unknown; agent?: unknown }) => {
      if (typeof input?.sessionID === "string" && typeof input.agent === "string") bounded(agents.set(input.sessionID, input.agent));
    },
    "tool.execute.before": async (input: { tool?: string; sessionID?: string; callID?: string }, output: { args?: { command?: unknown; workdir?: unknown } }) => {
      if (input?.tool !== "bash") return;
      const command = output?.args?.command;
      if (typeof command !== "string" || !directory) return;
      // A command run in another folder is left as typed: OpenCode's rules are those of the folder it runs in.
      const workdir = output.args?.workdir;
      if (workdir !== undefined && (typeof workdir !== "string" || resolve(directory, workdir) !== resolve(directory))) return;
      try {
        const how = await delivery();
        if (!how) return;
        const agent = input.sessionID ? agents.get(input.sessionID) : undefined;
        const rewritten = await rewriteCommand(command, directory, agent ? \`\${how}:\${agent}\` : how);
        if (rewritten === null || rewritten === command || !output.args) return;
        if (how === "args") output.args.command = rewritten;
        else if (input.callID) bounded(waiting.set(input.callID, { typed: command, run: rewritten }));
      } catch (e) {
        if (e instanceof RtkDenied) throw e;
        // Fail open: the command runs as the agent wrote it.
      }
    },
    // After OpenCode's permission check of the command as typed, before its shell starts.
    "shell.env": async (input: { callID?: string }, output: { env?: Record<string, string> }) => {
      const w = input?.callID ? waiting.get(input.callID) : undefined;
      if (!w || !output?.env) return;
      waiting.delete(input.callID!);
      const file = startupFile();
      if (!file) return;
      const env = output.env;
      const theirs = env.BASH_ENV ?? process.env.BASH_ENV;
      if (theirs !== undefined) env.RTK_OPENCODE_BASH_ENV = theirs;
      Object.assign(env, { BASH_ENV: file, RTK_OPENCODE_RUN: w.run, RTK_OPENCODE_TYPED: w.typed, RTK_OPENCODE_PID: String(process.pid) });
      bounded(ran.set(input.callID!, w.run));
    },
    "tool.execute.after": async (input: { tool?: string; callID?: string }, output: { metadata?: Record<string, unknown> }) => {
      const run = input?.callID ? ran.get(input.callID) : undefined;
      if (run === undefined) return;
      ran.delete(input.callID!);
      // What ran, beside the command as typed that OpenCode shows.
      if (output?.metadata && typeof output.metadata === "object") output.metadata.rtk = run;
    },
  };
};
`;
}
