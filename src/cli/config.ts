// `rtk config [--json] [--filters]`: the effective config, each value with
// where it came from (the default, the user's file, the trusted project file,
// the environment), and every declarative filter with where it came from
// (rtk's built-in library, the user's file, the project's file); `--filters`
// lists the filters alone, one line each, replaced built-ins included. A
// problem in a file is an error here (exit 1); the effective config is still
// printed, as the hook and the runtime would use it.
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";
import { formatIssue } from "../config/file.js";
import { loadConfig, type EffectiveConfig, type Source } from "../config/load.js";
import { BUILTIN_PREFIX, libraryFilters } from "../filters/library.js";
import { SECTION_NAMES, SECTIONS, type FilterDef, type KeySpec } from "../config/schema.js";

export function configCli(args: string[]): number {
  const opts = parseOptions("config", args, { boolean: ["json", "filters"] });
  if (typeof opts === "number") return opts;
  if (opts._.length) return usageError("config", `unexpected \`${opts._[0]}\``);
  const cfg = loadConfig(process.env, process.cwd(), { builtins: libraryFilters });
  for (const w of cfg.warnings) process.stderr.write(w + "\n");
  for (const i of cfg.issues) process.stderr.write(`rtk config: error: ${formatIssue(i)}\n`);
  if (opts["json"]) {
    const json = configJson(cfg);
    process.stdout.write(JSON.stringify(opts["filters"] ? { filters: json.filters, replaced: json.replaced } : json, null, 2) + "\n");
  } else process.stdout.write(opts["filters"] ? filtersText(cfg) : configText(cfg));
  return cfg.issues.length ? 1 : 0;
}

export function configJson(cfg: EffectiveConfig) {
  const settings: Record<string, Record<string, unknown>> = {};
  for (const section of SECTION_NAMES) {
    settings[section] = {};
    const specs = SECTIONS[section] as Record<string, KeySpec>;
    for (const [key, s] of Object.entries(cfg.settings[section])) settings[section]![key] = { value: s.value, ...sourceJson(s.source), doc: specs[key]!.doc };
  }
  return {
    files: {
      user: { path: cfg.user.path, found: cfg.user.found },
      project: cfg.project && { path: cfg.project.path, state: cfg.project.state, applied: cfg.project.state === "trusted", sha256: cfg.project.sha256 },
    },
    settings,
    filters: cfg.filters.map((f) => filterJson(cfg, f)),
    /** Filters a filter of the same name replaces (a user's by a project's, a built-in by either). */
    replaced: cfg.shadowed.map((f) => filterJson(cfg, f)),
    errors: cfg.issues,
    warnings: cfg.warnings,
  };
}

function filterJson(cfg: EffectiveConfig, f: FilterDef) {
  return { name: f.name, source: filterSource(cfg, f), file: f.file, line: f.line, tests: f.tests.length, definition: withoutTests(f) };
}

function sourceJson(s: Source) {
  switch (s.kind) {
    case "default":
      return { source: "default" };
    case "env":
      return { source: "env", name: s.name };
    default:
      return { source: s.kind, file: s.path, line: s.line };
  }
}

export function configText(cfg: EffectiveConfig): string {
  const out: string[] = [];
  out.push(`user file:    ${cfg.user.path}${cfg.user.found ? "" : " (not found)"}`);
  if (!cfg.project) out.push("project file: none (no .rtk/config.toml from here up to HOME)");
  else {
    const state = { trusted: "trusted, applied", untrusted: "not trusted, ignored: run `rtk trust` to apply it", changed: "changed since trusted, ignored: run `rtk trust` to apply it again" }[
      cfg.project.state
    ];
    out.push(`project file: ${cfg.project.path} (${state})`);
  }
  for (const section of SECTION_NAMES) {
    out.push("", `[${section}]`);
    const rows = Object.entries(cfg.settings[section]).map(([key, s]) => [`${key} = ${tomlValue(s.value)}`, `# ${sourceText(s.source)}`] as const);
    const width = Math.max(...rows.map(([kv]) => kv.length));
    for (const [kv, src] of rows) out.push(`${kv.padEnd(width)}  ${src}`);
  }
  const fromFiles = cfg.filters.filter((f) => filterSource(cfg, f) !== "builtin");
  for (const f of fromFiles) {
    out.push("", `[[filters]]  # ${filterSource(cfg, f)} ${f.file}:${f.line}`);
    for (const [k, v] of Object.entries(withoutTests(f))) out.push(`${k} = ${tomlValue(v)}`);
    out.push(`# ${f.tests.length} inline test${f.tests.length === 1 ? "" : "s"} (rtk verify runs them)`);
  }
  if (!fromFiles.length) out.push("", "# no declarative filters in the config files");
  const builtins = cfg.filters.length - fromFiles.length;
  const replaced = cfg.shadowed.filter((f) => filterSource(cfg, f) === "builtin").map((f) => f.name);
  out.push(
    `# ${builtins} built-in declarative filter${builtins === 1 ? "" : "s"}${replaced.length ? `; replaced by a filter of the same name: ${replaced.join(", ")}` : ""} (rtk config --filters lists them; rtk verify --builtin runs their tests)`,
  );
  return out.join("\n") + "\n";
}

/** Every declarative filter, one line each, in the order they are tried, then the replaced ones. */
export function filtersText(cfg: EffectiveConfig): string {
  const row = (f: FilterDef, note: string) => [f.name, filterSource(cfg, f), filterWhere(f), `${f.tests.length} test${f.tests.length === 1 ? "" : "s"}${note}`] as const;
  const rows = [...cfg.filters.map((f) => row(f, "")), ...cfg.shadowed.map((f) => row(f, ", replaced by a filter of the same name"))];
  const widths = [0, 1, 2].map((i) => Math.max(0, ...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c)).join("  ")).join("\n") + (rows.length ? "\n" : "");
}

function filterWhere(f: FilterDef): string {
  return f.file.startsWith(BUILTIN_PREFIX) ? f.file : `${f.file}:${f.line}`;
}

function sourceText(s: Source): string {
  switch (s.kind) {
    case "default":
      return "default";
    case "env":
      return `environment ${s.name}`;
    default:
      return `${s.kind} ${s.path}:${s.line}`;
  }
}

function filterSource(cfg: EffectiveConfig, f: FilterDef): "builtin" | "user" | "project" {
  if (f.file.startsWith(BUILTIN_PREFIX)) return "builtin";
  return cfg.project && f.file === cfg.project.path ? "project" : "user";
}

function withoutTests(f: FilterDef): Record<string, unknown> {
  const { tests: _tests, ...rest } = f.definition;
  return rest;
}

/** A value as TOML writes it (strings in the JSON-compatible basic form). */
function tomlValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(", ")}]`;
  if (typeof v === "object" && v !== null && !(v instanceof Date)) {
    const entries = Object.entries(v);
    return entries.length ? `{ ${entries.map(([k, x]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k)} = ${tomlValue(x)}`).join(", ")} }` : "{}";
  }
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}
