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

/** The active tools, each with the subcommands it is routed for: `git (status, log, …)`, `tsc`. */
export function activeTools(): string[] {
  const out: string[] = [];
  for (const [tool, rows] of activeRegistry().byTool) {
    // A row without a subcommand routes every use of the tool.
    if (rows.some((r) => !r.sub?.length)) {
      out.push(`\`${tool}\``);
      continue;
    }
    // Subcommands under one word share it: `compose ps/logs/build`, so the block stays short as routes grow.
    const byFirst = new Map<string, string[]>();
    for (const r of rows) {
      const [first, ...rest] = routeCommand(r)
        .slice(tool.length + 1)
        .split(" ");
      const tails = byFirst.get(first!) ?? [];
      if (!byFirst.has(first!)) byFirst.set(first!, tails);
      const tail = rest.join(" ");
      if (!tails.includes(tail)) tails.push(tail);
    }
    const subs = [...byFirst].flatMap(([first, tails]) => {
      const more = tails.filter(Boolean);
      return [...(tails.includes("") ? [first] : []), ...(more.length ? [`${first} ${more.join("/")}`] : [])];
    });
    out.push(`\`${tool}\` (${subs.join(", ")})`);
  }
  return out;
}

/** The instructions block for hosts that only read a rules file: under 15 lines, only tools rtk filters. */
export function rulesBlock(): string {
  const items = activeTools();
  return [
    "## rtk — compact command output",
    "",
    "Prefix these commands with `rtk` (same arguments after it) for compact, faithful output:",
    ...(items.length ? wrapList(items, 200) : ["(none yet)"]),
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
