// What `rtk help`, `rtk help <command>` and `rtk <command> --help` print, and
// how a usage error is reported: one table of commands. Loaded only when help
// is asked for or a usage error is reported.
import { HOOK_HOSTS as HOOK_ADAPTERS, INSTALLS } from "../hosts/index.js";
import { toolFamilies, toolsByTable } from "../routes/registry.js";
import { activeRegistry } from "../routing.js";
import { RTK_OPTION_LIST } from "../routes/rtk-command.js";
import { VERSION } from "../version.js";
import { unknownWord } from "../text/suggest.js";

export { closest, unknownWord } from "../text/suggest.js";

export interface CommandHelp {
  name: string;
  summary: string;
  usage: readonly string[];
  options: readonly (readonly [string, string])[];
  examples: readonly string[];
  /** Exit codes, when they say more than 0 done, 1 failed, 2 usage error. */
  exits?: string;
}

const HELP_OPTION = ["-h, --help", "this text"] as const;

export const COMMANDS: readonly CommandHelp[] = [
  {
    name: "rewrite",
    summary: "print the command with `rtk ` inserted where a compact route is safe (what hooks use)",
    usage: ['rtk rewrite [--json] [--host <host>] [--mode <mode>] "<command>"', "rtk rewrite [--json] [--host <host>] [--mode <mode>] -   (the command from stdin)"],
    options: [
      ["--json", "the result as one JSON object (same exit code)"],
      ["--host <host>", "judge with this host's permission rules (default: Claude Code's)"],
      [
        "--mode <mode>",
        "the host's permission mode (Claude Code: default, acceptEdits, plan, dontAsk, bypassPermissions; OpenCode: shell or args, where its plugin hands the rewrite back, then :<agent>)",
      ],
      HELP_OPTION,
    ],
    examples: ['rtk rewrite "git status && npm test"'],
    exits:
      "0 rewritten and allowed, 1 nothing to do (also: a rewrite held back because the host would ask about the command as typed), 2 denied by the host's rules, 3 rewritten but the host must ask (hosts that do not judge the rewritten command), 64 usage error (not 2: that is a denial)",
  },
  {
    name: "explain",
    summary: "show how rtk reads a command: every simple command with its decision and reason, the rules used, the verdict",
    usage: ['rtk explain [--json | --tree | --canonical] [--host <host>] [--mode <mode>] "<command>"'],
    options: [
      ["--json", "the same as data"],
      ["--tree", "the syntax tree"],
      ["--canonical", "the command in canonical form"],
      ["--host <host>", "judge with this host's permission rules"],
      ["--mode <mode>", "the host's permission mode"],
      HELP_OPTION,
    ],
    examples: ['rtk explain "git status | head -5"'],
  },
  {
    name: "hook",
    summary: "answer a host's pre-command hook: the event on stdin, the host's answer on stdout",
    usage: ["rtk hook <host>"],
    options: [HELP_OPTION],
    examples: ['echo \'{"tool_name":"Bash","tool_input":{"command":"git status"}}\' | rtk hook claude'],
    exits: "what the host expects; an unknown host or a bad event exits 0 with nothing on stdout (the command runs unchanged)",
  },
  {
    name: "init",
    summary: "install rtk's hook for a host (or its plugin, or a rules block), or link rtk into a folder on PATH",
    usage: ["rtk init --agent <host> [--global | --project] [--dry-run] [--uninstall]", "rtk init --link <dir> [--uninstall]", "rtk init --show"],
    options: [
      ["--agent <host>", "the host to install for"],
      ["--global, --project", "the user's settings or this project's (each host has a default)"],
      ["--dry-run", "print the change, write nothing"],
      ["--uninstall", "remove what rtk installed"],
      ["--link <dir>", "put a symlink <dir>/rtk to this rtk"],
      ["--show", "every host and whether rtk is installed there"],
      HELP_OPTION,
    ],
    examples: ["rtk init --agent claude", "rtk init --agent cursor --project --dry-run"],
  },
  {
    name: "doctor",
    summary: "check every installed hook end to end with a sample event",
    usage: ["rtk doctor [--json]"],
    options: [["--json", "the checks as data"], HELP_OPTION],
    examples: ["rtk doctor"],
    exits: "0 every check passed, 1 a check failed, 2 usage error",
  },
  {
    name: "recall",
    summary: "print what a compact form left out: the raw output a run kept",
    usage: ["rtk recall <id> [--lines A-B] [--grep <pattern>] [--head N] [--tail N]", "rtk recall --list"],
    options: [
      ["--list", "every kept entry, newest first: id, age, exit code, size, the command (shell-quoted)"],
      ["--lines A-B", "lines A to B (from 1), byte for byte"],
      ["--grep <pattern>", "the lines matching a JavaScript regular expression"],
      ["--head N, --tail N", "the first or last N lines"],
      HELP_OPTION,
    ],
    examples: ["rtk recall --list", "rtk recall 3f9a2c1 --lines 151-272"],
    exits: "0 printed, 1 no such entry (or --grep matched nothing), 2 usage error",
  },
  {
    name: "gain",
    summary: "what rtk saved: tokens raw → printed, by route, over time (from the history it records)",
    usage: ["rtk gain [--daily|--weekly|--monthly] [--history [N]] [--project [PATH]] [--since DATE] [--graph] [--failures] [--json|--csv|--html FILE]", "rtk gain --export otlp"],
    options: [
      ["--daily, --weekly, --monthly", "totals per day, week (named by its Monday) or month, in local time"],
      ["--history [N]", "the latest N runs (20; with --html, how many the page lists)"],
      ["--project [PATH]", "only runs in this project (the current one when no PATH)"],
      ["--since DATE", "only runs from DATE on: YYYY-MM-DD, an ISO time, or 7d for the last seven days"],
      ["--graph", "a bar chart of the tokens saved per day (or per --weekly/--monthly period)"],
      ["--failures", "routes whose filter fell back to the raw output, and how often"],
      ["--json, --csv", "the figures for scripts (CSV: one table, the one asked for)"],
      ["--html FILE", "writes a page that opens offline: totals, savings per day (or per --weekly/--monthly period), by route, hook coverage, recalls"],
      ["--export otlp", "sends the records not yet sent to the OpenTelemetry collector, as metrics; only with telemetry on (RTK_TELEMETRY=1; docs/telemetry.md)"],
      HELP_OPTION,
    ],
    examples: ["rtk gain", "rtk gain --daily --graph --since 30d", "rtk gain --project --json", "rtk gain --since 30d --html gain.html"],
    exits: "0 printed (or sent), 1 the history database cannot be read or written, or telemetry is off or its collector failed (the message says why), 2 usage error",
  },
  {
    name: "proxy",
    summary: "run a command exactly, its output unfiltered",
    usage: ["rtk proxy [--] <command> [args…]"],
    options: [HELP_OPTION],
    examples: ["rtk proxy git log -5"],
    exits: "the command's own",
  },
  {
    name: "config",
    summary: "print the effective config and where each value came from; a problem in a file is an error here",
    usage: ["rtk config [--json] [--filters]"],
    options: [["--json", "the config as data"], ["--filters", "every declarative filter, one line each, with where it came from (builtin, user, project)"], HELP_OPTION],
    examples: ["rtk config", "rtk config --filters"],
    exits: "0 the config is valid, 1 a file has a problem, 2 usage error",
  },
  {
    name: "trust",
    summary: "apply a project's .rtk/config.toml by pinning its SHA-256 (until it changes)",
    usage: ["rtk trust [path]", "rtk trust --revoke [path]", "rtk trust --list"],
    options: [["--revoke", "forget the file: it is ignored again"], ["--list", "every pinned file and whether it still matches"], HELP_OPTION],
    examples: ["rtk trust", "rtk trust --revoke ~/src/app"],
  },
  {
    name: "verify",
    summary: "check the config and run every declarative filter's inline tests",
    usage: ["rtk verify", "rtk verify --builtin"],
    options: [["--builtin", "run the inline tests of rtk's built-in declarative filters instead (with the default limits)"], HELP_OPTION],
    examples: ["rtk verify", "rtk verify --builtin"],
    exits: "0 all passed, 1 a test failed or the config has an error, 2 usage error",
  },
  {
    name: "discover",
    summary: "read the agents' transcripts: shell commands run, those rtk covered, missed (with their output sizes) or kept raw, and what to support next",
    usage: ["rtk discover [--json] [--replay] [--since DATE] [--project PATH] [transcript files or folders…]"],
    options: [
      ["--json", "the report as data"],
      ["--replay", "run rtk's filters over the missed commands' recorded outputs: what they would have printed"],
      ["--since DATE", "only commands from then on: 2026-01-31, 2026-01-31T12:00Z, or an age (7d, 12h)"],
      ["--project PATH", "only sessions started in this folder or below it"],
      HELP_OPTION,
    ],
    examples: ["rtk discover", "rtk discover --replay --since 7d", "rtk discover ~/.claude/projects/-home-me-app"],
  },
  {
    name: "help",
    summary: "this overview, or one command's help",
    usage: ["rtk help [<command>]"],
    options: [],
    examples: ["rtk help recall"],
  },
];

export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

export const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ["RTK_DISABLED=1", "the rewrite leaves every command alone"],
  ["RTK_RAW=1", "rtk <tool> prints the raw output (as --raw)"],
  ["RTK_NO_TRACK=1", "record nothing (as --no-track)"],
  ["RTK_PASSTHROUGH_TOKENS=N", "print outputs shorter than N tokens as they are (limits.passthrough_tokens; 0: compact every one)"],
  ["RTK_ROUTES=all", "also route tools whose filter is not built yet (their output passes unchanged)"],
  ["RTK_CONFIG", "the user's config file (default $XDG_CONFIG_HOME/rtk/config.toml)"],
  ["RTK_DATA_DIR", "rtk's data folder (default $XDG_DATA_HOME/rtk): recall store, trusted files"],
  ["RTK_NO_PATH_CHECK=1", "hooks rewrite even when `rtk` is not found on PATH"],
  ["RTK_SNAPSHOT_BUILD=0", "never make a startup snapshot"],
  ["NO_COLOR", "no colours in rtk explain"],
  ["XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME", "where config, data and snapshots go (~/.config, ~/.local/share, ~/.cache)"],
];

/** The width help keeps within. */
export const HELP_WIDTH = 100;
/** A first column wider than this puts its text on lines of its own. */
const NAME_WIDTH = 34;

/** The words of a text on lines of at most HELP_WIDTH characters: the first line starts with `first`, the others with `rest`. */
function wrap(text: string, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(" ")) {
    if (!empty && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = rest;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** Two columns; the second wraps under itself, and a first column too wide for the row puts the second on the lines below. */
function table(rows: readonly (readonly [string, string])[], indent = "  "): string[] {
  const width = Math.max(0, ...rows.map(([a]) => a.length).filter((n) => n <= NAME_WIDTH));
  return rows.flatMap(([a, b]) => {
    if (a.length > width) return [...wrap(a, indent, indent + "    "), ...wrap(b, indent + "      ", indent + "      ")];
    const pad = " ".repeat(indent.length + width + 2);
    return wrap(b, `${indent}${a.padEnd(width)}  `, pad);
  });
}

export function commandHelp(name: string): string | null {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) return null;
  const lines = [...wrap(`rtk ${c.name} — ${c.summary}`, "", "  "), "", "Usage:", ...c.usage.flatMap((u) => wrap(u, "  ", "      "))];
  if (c.options.length) lines.push("", "Options:", ...table(c.options));
  if (c.name === "hook") lines.push("", ...wrap(`Hosts: ${[...HOOK_ADAPTERS.keys()].join(", ")}`, "", "  "));
  if (c.name === "init") lines.push("", ...wrap(`Hosts: ${INSTALLS.map((i) => i.name).join(", ")}`, "", "  "));
  lines.push("", c.examples.length > 1 ? "Examples:" : "Example:", ...c.examples.map((e) => `  ${e}`));
  lines.push("", ...wrap(`Exit: ${c.exits ?? "0 done, 1 failed, 2 usage error"}`, "", "  "));
  return lines.join("\n") + "\n";
}

/**
 * Routed tools, one line per table of the registry, each tool once (in the
 * table that names it first, with the subcommands of all its rows):
 * `git (status, log, …)`, `ls, tree, find`.
 */
function routedTools(): string[] {
  return toolsByTable(activeRegistry())
    .map((tools) => {
      const items = tools.map(({ tool, rows }) => {
        const subs = [...new Set(rows.filter((r) => r.sub?.length).map((r) => r.sub!.map((w) => (typeof w === "string" ? w : w[0])).join(" ")))];
        return subs.length && !rows.some((r) => !r.sub?.length) ? `${tool} (${subs.join(", ")})` : tool;
      });
      return wrap(items.join(", "), "  ", "    ");
    })
    .flat();
}

/** The line that counts the routed tool families (`rtk help`, `rtk init --show`). */
export function familiesLine(): string {
  return `Routed tools: ${toolFamilies(activeRegistry()).length} families (a tool counts once, whatever its subcommands)`;
}

export function generalHelp(): string {
  const commands = COMMANDS.map((c) => [c.usage[0]!, c.summary.split(/[:;(]/)[0]!.trim()] as const);
  return [
    `rtk ${VERSION} — compact, faithful command output for AI coding agents`,
    "",
    "Usage:",
    "  rtk [rtk options] <tool> [args…]   run a tool; a routed tool prints a compact form",
    "  rtk <command> [options]           one of rtk's commands:",
    "",
    ...table(commands),
    "  rtk --version",
    "",
    "rtk options (before the tool):",
    ...table(RTK_OPTION_LIST.map((o) => [o.names.join(", "), o.help] as const)),
    "",
    `${familiesLine()}:`,
    ...routedTools(),
    "",
    ...wrap(`Hosts: rtk hook ${[...HOOK_ADAPTERS.keys()].join(" | ")}; rtk init --agent ${INSTALLS.map((i) => i.name).join(" | ")}`, "", "  "),
    "",
    "Environment:",
    ...table(ENVIRONMENT),
    "",
    "A command given as - is read from stdin. `rtk <command> --help` or `rtk help <command>` for details.",
    "Usage errors exit 2 (`rtk rewrite`: 64, its 2 means denied; `rtk hook`: 0, a hook never blocks).",
    "",
  ].join("\n");
}

/**
 * Reports a usage error of `rtk <command>`: the problem, the usage lines and
 * where the help is; returns the exit code of a usage error (2).
 */
export function usageError(command: string, problem: string): number {
  const c = COMMANDS.find((x) => x.name === command);
  const usage = c ? c.usage.map((u, i) => `${i ? "       " : "usage: "}${u}`).join("\n") : "";
  process.stderr.write(`rtk ${command}: ${problem}\n${usage}\n(rtk ${command} --help for more)\n`);
  return 2;
}
