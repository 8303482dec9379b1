// What `rtk init` installs for each host, and where. Three kinds of target: an
// entry in a JSON settings file, a whole file of ours (the OpenCode plugin), and
// a delimited block in an instructions file (rules-only hosts).
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../config/hooks.js";
import { projectRoot } from "../permissions/sources.js";
import { opencodePlugin } from "./opencode.js";

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
}

export interface FileTarget {
  kind: "file";
  /** A line that marks the file as ours. */
  marker: string;
  content(paths: RtkPaths): string;
}

export interface BlockTarget {
  kind: "block";
  content: string;
}

export type Target = JsonTarget | FileTarget | BlockTarget;

export interface RtkPaths {
  /** The launcher hooks run. */
  bin: string;
  /** The library bundle in-process plugins import. */
  lib: string;
}

export interface HostInstall {
  name: string;
  title: string;
  target: Target;
  scopes: Partial<Record<Scope, (w: Where) => string>>;
  defaultScope: Scope;
  /** Printed after a successful install. */
  note?: string;
}

const home = (w: Where) => w.env["HOME"] || homedir();
const config = (w: Where) => w.env["XDG_CONFIG_HOME"] || join(home(w), ".config");
/** The project folder: the nearest one below HOME with the host's folder, else the git top level, else cwd. */
const project = (w: Where, folder: string) => projectRoot(w.cwd, folder, home(w)) ?? w.cwd;

const commandHook = (command: string, timeout?: number) => ({ type: "command", command, ...(timeout !== undefined ? { timeout } : {}) });

export const RULES_BLOCK = `## rtk — compact command output

Prefix shell commands with \`rtk\` to get compact, faithful output: \`rtk git status\`,
\`rtk git diff\`, \`rtk git log -n 20\`, \`rtk ls\`, \`rtk find\`, \`rtk grep\`, \`rtk cargo test\`,
\`rtk npm test\`, \`rtk npx vitest run\`, \`rtk pytest\`, \`rtk tsc\`. Exit codes and errors are kept;
anything hidden is listed with a count and can be printed with \`rtk recall <id>\`.
Do not use \`rtk\` when the output feeds another program or a file (\`| jq\`, \`| grep\`,
\`> out.txt\`, \`$(…)\`), under \`sudo\`, or when you need the exact raw bytes (\`rtk proxy <cmd>\`).`;

export const INSTALLS: readonly HostInstall[] = [
  {
    name: "claude",
    title: "Claude Code",
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: {},
      entries: (command) => [{ matcher: "Bash", hooks: [commandHook(command, 10)] }],
    },
    scopes: {
      global: (w) => join(w.env["CLAUDE_CONFIG_DIR"] || join(home(w), ".claude"), "settings.json"),
      project: (w) => join(project(w, ".claude"), ".claude", "settings.json"),
    },
    defaultScope: "global",
  },
  {
    name: "cursor",
    title: "Cursor",
    target: {
      kind: "json",
      arrayPath: ["hooks", "preToolUse"],
      skeleton: { version: 1 },
      entries: (command) => [{ command, matcher: "Shell" }],
    },
    scopes: {
      global: (w) => join(home(w), ".cursor", "hooks.json"),
      project: (w) => join(project(w, ".cursor"), ".cursor", "hooks.json"),
    },
    defaultScope: "global",
  },
  {
    name: "gemini",
    title: "Gemini CLI",
    target: {
      kind: "json",
      arrayPath: ["hooks", "BeforeTool"],
      skeleton: {},
      entries: (command) => [{ matcher: "run_shell_command", hooks: [commandHook(command, 10000)] }],
    },
    scopes: {
      global: (w) => join(home(w), ".gemini", "settings.json"),
      project: (w) => join(project(w, ".gemini"), ".gemini", "settings.json"),
    },
    defaultScope: "global",
  },
  {
    name: "copilot",
    title: "GitHub Copilot",
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: { version: 1 },
      entries: (command) => [commandHook(command, 5)],
    },
    scopes: {
      global: (w) => join(home(w), ".copilot", "hooks", "rtk.json"),
      project: (w) => join(project(w, ".github"), ".github", "hooks", "rtk.json"),
    },
    defaultScope: "project",
  },
  {
    name: "codex",
    title: "Codex CLI",
    target: {
      kind: "json",
      arrayPath: ["hooks", "PreToolUse"],
      skeleton: {},
      entries: (command) => [{ matcher: "Bash", hooks: [commandHook(command)] }],
    },
    scopes: {
      global: (w) => join(w.env["CODEX_HOME"] || join(home(w), ".codex"), "hooks.json"),
      project: (w) => join(project(w, ".codex"), ".codex", "hooks.json"),
    },
    defaultScope: "global",
    note: "Codex runs hooks while `[features] hooks` is on in its config.toml (the default since Codex 0.124; older versions need `hooks = true` under `[features]`).",
  },
  {
    name: "kiro",
    title: "Kiro",
    target: {
      kind: "json",
      arrayPath: ["hooks"],
      skeleton: { version: "v1" },
      entries: (command) =>
        ["execute_bash", "executeBash", "shell"].map((matcher) => ({
          name: "rtk",
          trigger: "PreToolUse",
          matcher,
          action: { type: "command", command, timeout: 5 },
        })),
    },
    scopes: {
      global: (w) => join(home(w), ".kiro", "hooks", "rtk.json"),
      project: (w) => join(project(w, ".kiro"), ".kiro", "hooks", "rtk.json"),
    },
    defaultScope: "global",
  },
  {
    name: "opencode",
    title: "OpenCode",
    target: { kind: "file", marker: "rtk:opencode-plugin", content: opencodePlugin },
    scopes: {
      global: (w) => join(config(w), "opencode", "plugins", "rtk.ts"),
      project: (w) => join(project(w, ".opencode"), ".opencode", "plugins", "rtk.ts"),
    },
    defaultScope: "global",
  },
  { name: "windsurf", title: "Windsurf", target: { kind: "block", content: RULES_BLOCK }, scopes: { project: (w) => join(project(w, ".git"), ".windsurfrules") }, defaultScope: "project" },
  { name: "cline", title: "Cline / Roo", target: { kind: "block", content: RULES_BLOCK }, scopes: { project: (w) => join(project(w, ".git"), ".clinerules") }, defaultScope: "project" },
  { name: "agents", title: "AGENTS.md", target: { kind: "block", content: RULES_BLOCK }, scopes: { project: (w) => join(project(w, ".git"), "AGENTS.md") }, defaultScope: "project" },
];

export function installFor(name: string): HostInstall | undefined {
  return INSTALLS.find((i) => i.name === name);
}
