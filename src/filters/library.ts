// The built-in library of declarative filters: the TOML files in ./builtin,
// each holding one `[[filters]]` named like its file (bazel.toml holds
// "bazel"), with its inline tests. They are the lowest-priority filter source:
// a user's or project's filter of the same name replaces one. Each is parsed
// only when its route runs (or when `rtk config` / `rtk verify` list them), so
// a run pays for one file, not the library.
import { configFromToml, formatIssue, type FileConfig } from "../config/file.js";
import type { FilterDef } from "../config/schema.js";
import { limitsOf } from "./budget.js";
import { declarativeRun } from "./declarative.js";
import { LIBRARY_TEXTS } from "./library-texts.js";
import type { Filter } from "./types.js";

/** How a built-in's file is named where a file path is shown (`rtk config`, `rtk verify`). */
export const BUILTIN_PREFIX = "builtin:";

export { LIBRARY_TEXTS };

/** One built-in's file, parsed and checked as a config file is. */
export function libraryFile(name: string): FileConfig {
  const text = LIBRARY_TEXTS.get(name);
  if (text === undefined) throw new Error(`no built-in filter named ${JSON.stringify(name)}`);
  return configFromToml(text, `${BUILTIN_PREFIX}${name}.toml`);
}

/** A built-in's definition; a file that is not exactly one valid filter of its name is an error (its tests catch it first). */
export function libraryFilter(name: string): FilterDef {
  const file = libraryFile(name);
  const def = file.filters[0];
  if (file.issues.length || file.filters.length !== 1 || file.broken.length || def?.name !== name) {
    const why = file.issues.map(formatIssue).join("; ") || `it must hold one [[filters]] named ${JSON.stringify(name)}`;
    throw new Error(`built-in filter ${name}: ${why}`);
  }
  return def;
}

/** Every built-in, in name order. */
export function libraryFilters(): FilterDef[] {
  return [...LIBRARY_TEXTS.keys()].map(libraryFilter);
}

/** The catalog's filter for a built-in: its definition is read when a run starts. */
function catalogFilter(name: string): Filter {
  return {
    id: name,
    start: (_input, ctx) => declarativeRun(libraryFilter(name), { listChars: limitsOf(ctx).list }, ctx.recall),
  };
}

export const LIBRARY_CATALOG: readonly Filter[] = [...LIBRARY_TEXTS.keys()].map(catalogFilter);
