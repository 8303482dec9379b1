// What rtk tells an agent about itself, generated from the routes that have a
// filter: the rules block of rules-only hosts and the sample doctor runs. Host
// files name no tool, so neither can promise a tool rtk does not filter.
import type { RouteRow } from "../routes/types.js";
import { activeRegistry } from "../routing.js";

/** A route as a command an agent would type: the tool and the first form of each subcommand word. */
export function routeCommand(row: RouteRow): string {
  return [row.tool, ...(row.sub ?? []).map((w) => (typeof w === "string" ? w : w[0]!))].join(" ");
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

/** The active tools, each with the subcommands it is routed for (none: every use of the tool is routed). */
function activeToolSubs(): { tool: string; subs: string[] }[] {
  const out: { tool: string; subs: string[] }[] = [];
  for (const [tool, rows] of activeRegistry().byTool) {
    // A row without a subcommand routes every use of the tool.
    if (rows.some((r) => !r.sub?.length)) out.push({ tool, subs: [] });
    else out.push({ tool, subs: [...new Set(rows.map((r) => routeCommand(r).slice(tool.length + 1)))] });
  }
  return out;
}

/** `git (status, log, …)`, `tsc`: the active tools, the subcommands of the first `detailed` of them said. */
export function activeTools(detailed = Infinity): string[] {
  return activeToolSubs().map(({ tool, subs }, i) => (subs.length && i < detailed ? `\`${tool}\` (${subs.join(", ")})` : `\`${tool}\``));
}

/** Lines the tool list may take: with the block's six others, under 15. */
const LIST_LINES = 8;
const WIDTH = 160;

/** The instructions block for hosts that only read a rules file: under 15 lines, only tools rtk filters. */
export function rulesBlock(): string {
  // As routes grow, the last tools' subcommands go first: every tool stays named.
  let detailed = activeToolSubs().length;
  let items = activeTools(detailed);
  while (detailed > 0 && wrapList(items, WIDTH).length > LIST_LINES) items = activeTools(--detailed);
  return [
    "## rtk — compact command output",
    "",
    "Prefix these commands with `rtk` (same arguments after it) for compact, faithful output:",
    ...(items.length ? wrapList(items, WIDTH) : ["(none yet)"]),
    "Other commands have no compact form: run them as they are. Exit codes and errors are kept; whatever is hidden",
    "is counted and printed by `rtk recall <id>`. Do not use `rtk` when the output feeds another program or a file",
    "(a pipe into another program, `> out.txt`, `$(…)`), under `sudo`, or when you need the exact bytes (`rtk proxy <cmd>`).",
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
