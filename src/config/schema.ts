// The keys a config file may hold, as data: each section's keys with their type,
// default and meaning (what `rtk config` prints), and the shape of a
// declarative filter. Checking a value gives the value rtk uses, or reports
// what is wrong with it (the key then keeps its default).
import type { Env } from "./paths.js";
import { defaultDatabasePath } from "./paths.js";

/** A key's path inside a file: `["filters", 0, "strip_lines", 1]`. */
export type KeyPath = readonly (string | number)[];

export type Report = (path: KeyPath, message: string) => void;

/** What a check returns when the value cannot be used. */
export const INVALID: unique symbol = Symbol("invalid");
export type Checked<T> = T | typeof INVALID;

type Check<T> = (value: unknown, path: KeyPath, report: Report) => Checked<T>;

export interface KeySpec<T = unknown> {
  check: Check<T>;
  default: (env: Env) => T;
  doc: string;
}

/**
 * Below this size (tokens of 4 characters) a raw output is printed as it is.
 * `npm run bench -- small-outputs` measures what outputs this short add to the
 * saving over the bench corpora: under 650 tokens, 4.2 % of it (outputs under
 * 150 tokens save nothing at all: markers cost what they hide). The default is
 * the largest size, in steps of 50, whose outputs cost at most 5 % and under
 * which the savings medians of medium passing runs stay at their floors (test
 * runners 90 %: 91.2 % at 650, 0 % at 700; builds 80 %: 87.6 %).
 */
export const DEFAULT_PASSTHROUGH_TOKENS = 650;

export const SECTIONS = {
  hooks: {
    exclude_commands: key(commandPatterns, () => [], "commands the rewrite leaves alone: word prefixes, or a regular expression when the entry starts with ^"),
    transparent_prefixes: key(strings, () => [], 'extra wrapper words the rewrite looks through (e.g. "dotenv --")'),
    session_context: key(
      boolean,
      () => true,
      "at the start of each session of a hook host (Claude Code, Codex, Gemini CLI, Copilot CLI, Kiro, Factory Droid, Qwen Code, Qoder CLI), tell the agent that shell output may be rtk's compact form, what its markers mean and how to get the rest (about 80 tokens a session, counted by rtk gain)",
    ),
  },
  tracking: {
    enabled: key(boolean, () => true, "record runs and hook decisions in the history database (RTK_NO_TRACK=1 turns it off)"),
    database: key(nonEmptyString, defaultDatabasePath, "the history database file"),
  },
  recall: {
    enabled: key(boolean, () => true, "keep the raw output of runs whose compact form omitted something, or that failed"),
    max_entries: key(positiveInteger, () => 200, "recall entries kept (the newest)"),
    max_age_days: key(positiveInteger, () => 7, "days a recall entry is kept"),
  },
  limits: {
    list_tokens: key(
      positiveInteger,
      () => 2000,
      "the budget of a list output (find, grep/rg, ls, tree, git status/log/branch, declarative filters without head/tail), in tokens of 4 characters: past it, items are hidden behind a marker with a count and a recall handle",
    ),
    content_chars: key(
      positiveInteger,
      () => 30000,
      "the budget of file content (cat/head/tail) and patches (git diff/show, log -p), in characters: past it, the head and tail are shown and the middle is named by its line range",
    ),
    passthrough_tokens: key(
      nonNegativeInteger,
      () => DEFAULT_PASSTHROUGH_TOKENS,
      "outputs shorter than this many tokens of 4 characters print as the tool printed them, byte for byte (0: every output is compacted; RTK_PASSTHROUGH_TOKENS sets it for a run)",
    ),
    route_tokens: key(routeBudgets, (): Record<string, number> => ({}), 'list budgets of single routes, in tokens, e.g. { "git.log" = 4000, grep = 1000 }'),
    max_lines: key(positiveInteger, () => 200, "retired: ignored (list_tokens is the budget of every list output, declarative filters included)"),
  },
  // Read from the user's file and the environment only: a project's file cannot send anything anywhere.
  telemetry: {
    enabled: key(boolean, () => false, "send rtk's savings as OpenTelemetry metrics (OTLP) to a collector (RTK_TELEMETRY=1 turns it on, RTK_TELEMETRY=0 off); docs/telemetry.md"),
    endpoint: key(string, () => "", "the collector's base URL (default: OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318); /v1/metrics is added"),
    protocol: key(oneOf(["", "http/protobuf", "http/json"]), () => "" as const, 'OTLP over HTTP, "http/protobuf" or "http/json" (default: OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf)'),
    interval_seconds: key(positiveInteger, () => 60, "at most one background export per this many seconds, started by a run"),
    timeout_ms: key(positiveInteger, () => 10000, "how long one batch may take to be sent (default: OTEL_EXPORTER_OTLP_TIMEOUT, else 10000)"),
    batch_records: key(positiveInteger, () => 5000, "the most records of each kind (runs, hook decisions) in one batch"),
    project: key(oneOf(["hash", "path", "none"]), () => "hash" as const, 'how a run names its project: "hash" (of its path), "path" (masked as commands are), or "none"'),
    user: key(string, () => "", "user.name on every batch (default: none; OTEL_RESOURCE_ATTRIBUTES may carry one)"),
  },
} as const satisfies Record<string, Record<string, KeySpec>>;

export type SectionName = keyof typeof SECTIONS;
export const SECTION_NAMES = Object.keys(SECTIONS) as SectionName[];

/** The keys of a section. */
export type KeyName<S extends SectionName> = keyof (typeof SECTIONS)[S] & string;

/** The type of every key's value, read off its check: `SettingValues["limits"]["list_tokens"]` is a number. */
export type SettingValues = { [S in SectionName]: { [K in KeyName<S>]: (typeof SECTIONS)[S][K] extends KeySpec<infer T> ? T : never } };

export interface Replacement {
  pattern: RegExp;
  with: string;
}

export interface InlineTest {
  input: string;
  expected: string;
  /** Its position among the filter's tests, from 1. */
  index: number;
  line: number;
}

/** A declarative filter as written in a config file, checked and compiled. */
export interface FilterDef {
  name: string;
  match: RegExp;
  stripLines: RegExp[];
  keepLines: RegExp[];
  replace: Replacement[];
  head: number | null;
  tail: number | null;
  onEmpty: string | null;
  /** What the lines strip_lines/keep_lines drop are ("progress lines"): when set, their exact count ends stdout with a recall handle. */
  dropped: string | null;
  tests: InlineTest[];
  /** The table as written (for `rtk config`). */
  definition: Readonly<Record<string, unknown>>;
  /** The file that defines it, and the line of its `[[filters]]`. */
  file: string;
  line: number;
}

export const FILTER_KEYS = ["name", "match", "strip_lines", "keep_lines", "replace", "head", "tail", "on_empty", "dropped", "tests"] as const;
export const REPLACE_KEYS = ["pattern", "with"] as const;
export const TEST_KEYS = ["input", "expected"] as const;

function key<T>(check: Check<T>, dflt: (env: Env) => T, doc: string): KeySpec<T> {
  return { check, default: dflt, doc };
}

export function typeName(v: unknown): string {
  if (Array.isArray(v)) return "a list";
  if (v === null) return "null";
  if (typeof v === "object") return v instanceof Date ? "a date" : "a table";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a float";
  if (typeof v === "bigint") return "an integer";
  if (typeof v === "boolean") return "a boolean";
  return typeof v;
}

export function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function boolean(v: unknown, path: KeyPath, report: Report): Checked<boolean> {
  if (typeof v === "boolean") return v;
  report(path, `must be true or false, not ${typeName(v)}`);
  return INVALID;
}

export function string(v: unknown, path: KeyPath, report: Report): Checked<string> {
  if (typeof v === "string") return v;
  report(path, `must be a string, not ${typeName(v)}`);
  return INVALID;
}

export function nonEmptyString(v: unknown, path: KeyPath, report: Report): Checked<string> {
  const s = string(v, path, report);
  if (s === "") {
    report(path, "must not be empty");
    return INVALID;
  }
  return s;
}

export function nonNegativeInteger(v: unknown, path: KeyPath, report: Report): Checked<number> {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  report(path, `must be a whole number ≥ 0, not ${describe(v)}`);
  return INVALID;
}

export function positiveInteger(v: unknown, path: KeyPath, report: Report): Checked<number> {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 1) return v;
  report(path, `must be a whole number ≥ 1, not ${describe(v)}`);
  return INVALID;
}

/** `{ "route.id" = tokens, … }`: a table of whole numbers ≥ 1. */
export function routeBudgets(v: unknown, path: KeyPath, report: Report): Checked<Record<string, number>> {
  if (!isTable(v)) {
    report(path, `must be a table of route ids to token counts, not ${typeName(v)}`);
    return INVALID;
  }
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(v)) {
    const checked = positiveInteger(n, [...path, k], report);
    if (checked === INVALID) return INVALID;
    out[k] = checked;
  }
  return out;
}

export function strings(v: unknown, path: KeyPath, report: Report): Checked<string[]> {
  if (!Array.isArray(v)) {
    report(path, `must be a list of strings, not ${typeName(v)}`);
    return INVALID;
  }
  const bad = v.findIndex((x) => typeof x !== "string");
  if (bad >= 0) {
    report([...path, bad], `must be a string, not ${typeName(v[bad])} (the key is a list of strings)`);
    return INVALID;
  }
  return v as string[];
}

/**
 * `exclude_commands`: strings, those starting with `^` valid regular
 * expressions. An entry that does not compile is reported and left out: the
 * others still exclude what they name.
 */
function commandPatterns(v: unknown, path: KeyPath, report: Report): Checked<string[]> {
  const list = strings(v, path, report);
  if (list === INVALID) return INVALID;
  return list.filter((entry, i) => !entry.startsWith("^") || regex(entry, [...path, i], report) !== INVALID);
}

export function regex(v: unknown, path: KeyPath, report: Report, flags = ""): Checked<RegExp> {
  if (typeof v !== "string") {
    report(path, `must be a regular expression in a string, not ${typeName(v)}`);
    return INVALID;
  }
  try {
    return new RegExp(v, flags);
  } catch (e) {
    report(path, `invalid regular expression ${JSON.stringify(v)}: ${(e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "")}`);
    return INVALID;
  }
}

export function regexes(v: unknown, path: KeyPath, report: Report): Checked<RegExp[]> {
  const list = strings(v, path, report);
  if (list === INVALID) return INVALID;
  const out: RegExp[] = [];
  let ok = true;
  list.forEach((s, i) => {
    const re = regex(s, [...path, i], report);
    if (re === INVALID) ok = false;
    else out.push(re);
  });
  return ok ? out : INVALID;
}

/** One of the listed strings. */
function oneOf<const T extends string>(allowed: readonly T[]): Check<T> {
  return (v, path, report) => {
    if (typeof v === "string" && (allowed as readonly string[]).includes(v)) return v as T;
    report(
      path,
      `must be one of ${allowed
        .filter(Boolean)
        .map((a) => JSON.stringify(a))
        .join(", ")}, not ${typeof v === "string" ? JSON.stringify(v) : typeName(v)}`,
    );
    return INVALID;
  };
}

function describe(v: unknown): string {
  return typeof v === "number" ? String(v) : typeName(v);
}

/** `filters[0].strip_lines[1]`, `hooks.exclude_commands`. */
export function keyName(path: KeyPath): string {
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}
