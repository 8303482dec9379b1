// What rtk tells an agent about itself, generated from the routes that have a
// filter: the rules block of rules-only hosts and the sample doctor runs. Host
// files name no tool, so neither can promise a tool rtk does not filter.
import type { RouteRow } from "../routes/types.js";
import { activeRegistry } from "../routing.js";

/** A route as a command an agent would type: the tool and the first form of each subcommand word. */
export function routeCommand(row: RouteRow): string {
  return [row.tool, ...(row.sub ?? []).map((w) => (typeof w === "string" ? w : w[0]!))].join(" ");
}

/** The active routes, in registry order, one per command. */
export function activeCommands(): string[] {
  const seen = new Set<string>();
  for (const rows of activeRegistry().byTool.values()) for (const row of rows) seen.add(routeCommand(row));
  return [...seen];
}

/**
 * The command doctor pipes through a hook and then runs: the first active route
 * without a subcommand (it runs in an empty folder), else the first route.
 */
export function sampleCommand(): string | null {
  for (const rows of activeRegistry().byTool.values()) for (const row of rows) if (!row.sub?.length) return routeCommand(row);
  const first = activeRegistry().byTool.values().next();
  return first.done ? null : routeCommand(first.value[0]!);
}

/** The instructions block for hosts that only read a rules file: under 15 lines, only tools rtk filters. */
export function rulesBlock(): string {
  // A tool is named once, its other subcommands after it (`rtk git status`/`log`/…): the list grows with every route.
  const byTool = new Map<string, string[]>();
  for (const c of activeCommands()) {
    const [tool, ...sub] = c.split(" ");
    const subs = byTool.get(tool!) ?? [];
    if (!byTool.has(tool!)) byTool.set(tool!, subs);
    if (sub.length) subs.push(sub.join(" "));
  }
  const items = [...byTool].map(([tool, subs]) => (subs.length ? [`\`rtk ${tool} ${subs[0]}\``, ...subs.slice(1).map((s) => `\`${s}\``)].join("/") : `\`rtk ${tool}\``));
  return [
    "## rtk — compact command output",
    "",
    "Prefix these commands with `rtk` (same arguments after them) for compact, faithful output:",
    ...(items.length ? wrapList(items, 96) : ["(none yet)"]),
    "Other commands have no compact form: run them as they are. Exit codes and errors are",
    "kept; whatever is hidden is counted and printed by `rtk recall <id>`.",
    "Do not use `rtk` when the output feeds another program or a file (a pipe into another",
    "program, `> out.txt`, `$(…)`), under `sudo`, or when you need the exact bytes (`rtk proxy <cmd>`).",
  ].join("\n");
}

/** `a, b, c.` in lines of at most `width` characters, never breaking an item. */
function wrapList(items: string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  items.forEach((item, i) => {
    const word = item + (i === items.length - 1 ? "." : ",");
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  });
  if (line) lines.push(line);
  return lines;
}
