// What rtk tells an agent about itself, generated from the routes that have a
// filter: the rules block of rules-only hosts and the sample doctor runs. What
// it says of the markers is the session context's (text/markers.ts). Host
// files name no tool, so neither can promise a tool rtk does not filter.
import type { RouteRow } from "../routes/types.js";
import { toolsByTable } from "../routes/registry.js";
import { activeRegistry } from "../routing.js";
import { markersLine, recallLine } from "../text/markers.js";

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

/**
 * The active tools, each with the subcommands it is routed for (`git (status, log, …)`, `tsc`),
 * one list per family of the registry, a tool under the first family that routes it.
 */
export function activeTools(): string[][] {
  return toolsByTable(activeRegistry()).map((tools) =>
    // A row without a subcommand routes every use of the tool.
    tools.map(({ tool, rows }) => (rows.some((r) => !r.sub?.length) ? `\`${tool}\`` : `\`${tool}\` (${subcommands(tool, rows).join(", ")})`)),
  );
}

/** A tool's routed subcommands, those under one word sharing it (`compose ps/logs/build`), so the block stays short as routes grow. */
function subcommands(tool: string, rows: readonly RouteRow[]): string[] {
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
  return [...byFirst].flatMap(([first, tails]) => {
    const more = tails.filter(Boolean);
    return [...(tails.includes("") ? [first] : []), ...(more.length ? [`${first} ${more.join("/")}`] : [])];
  });
}

/**
 * The instructions block for hosts that only read a rules file: under 15 lines
 * however many tools are routed (one line per family), only tools rtk filters.
 */
export function rulesBlock(): string {
  const families = activeTools();
  return [
    "## rtk — compact command output",
    "",
    "Prefix these commands with `rtk` (same arguments after it) for compact, faithful output:",
    ...(families.length ? families.map((items, i) => items.join(", ") + (i === families.length - 1 ? "." : ",")) : ["(none yet)"]),
    "Other commands have no compact form: run them as they are. Exit codes and errors are kept.",
    markersLine(),
    recallLine(),
    "Do not use `rtk` when the output feeds another program or a file",
    "(a pipe into another program, `> out.txt`, `$(…)`), under `sudo`, or when you need the exact bytes (`rtk proxy <cmd>`).",
  ].join("\n");
}
