import { files } from "./files.js";
import { git } from "./git.js";
import { javascript } from "./javascript.js";
import { library } from "./library.js";
import { services } from "./services.js";
import { systems } from "./systems.js";
import type { RouteFamily, RouteRow, ToolSpec } from "./types.js";

export const FAMILIES: readonly RouteFamily[] = [git, files, javascript, systems, services, library];

export interface Registry {
  /** Rows by tool, rows with a subcommand before the catch-all rows of the same tool. */
  readonly byTool: ReadonlyMap<string, readonly RouteRow[]>;
  readonly tools: Readonly<Record<string, ToolSpec>>;
}

export function buildRegistry(families: readonly RouteFamily[], active: (row: RouteRow) => boolean): Registry {
  const byTool = new Map<string, RouteRow[]>();
  const tools: Record<string, ToolSpec> = {};
  for (const f of families) {
    Object.assign(tools, f.tools);
    for (const row of f.routes) {
      if (!active(row)) continue;
      const list = byTool.get(row.tool) ?? [];
      list.push(row);
      byTool.set(row.tool, list);
    }
  }
  for (const list of byTool.values()) list.sort((a, b) => (b.sub?.length ?? 0) - (a.sub?.length ?? 0));
  return { byTool, tools };
}

let all: Registry | undefined;
const routed = new WeakMap<ReadonlySet<string>, Registry>();

/** The rows whose filter is among `filters` (the caller knows which exist): what rtk routes. */
export function routedRegistry(filters: ReadonlySet<string>): Registry {
  let r = routed.get(filters);
  if (!r) routed.set(filters, (r = buildRegistry(FAMILIES, (row) => filters.has(row.filter))));
  return r;
}

/** Every row, whether its filter exists or not (for tests and `rtk explain --all-routes`). */
export function fullRegistry(): Registry {
  all ??= buildRegistry(FAMILIES, () => true);
  return all;
}

/**
 * The routed tool families: each tool name with at least one row in `registry`
 * (its subcommands, and its rows in several tables, count once), in the order
 * the tables first name them.
 */
export function toolFamilies(registry: Registry): string[] {
  return [...registry.byTool.keys()];
}

/**
 * The tools `registry` routes, with all their rows, one list per table of
 * FAMILIES: each tool under the first table that names it.
 */
export function toolsByTable(registry: Registry): { tool: string; rows: readonly RouteRow[] }[][] {
  const seen = new Set<string>();
  const tables: { tool: string; rows: readonly RouteRow[] }[][] = [];
  for (const family of FAMILIES) {
    const tools: { tool: string; rows: readonly RouteRow[] }[] = [];
    for (const { tool } of family.routes) {
      const rows = registry.byTool.get(tool);
      if (seen.has(tool) || !rows?.length) continue;
      seen.add(tool);
      tools.push({ tool, rows });
    }
    if (tools.length) tables.push(tools);
  }
  return tables;
}

export function allRoutes(): RouteRow[] {
  return FAMILIES.flatMap((f) => f.routes);
}
