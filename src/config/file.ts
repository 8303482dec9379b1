// One config file: its TOML text parsed and checked against the schema. Every
// problem is an issue naming the file, the line and the key; the values that are
// fine are kept, a bad value leaves its key at the default, and a bad filter is
// not used (but remembered, so the runtime can run what it would have matched
// unfiltered).
import { parse as parseToml, TomlError } from "smol-toml";
import { LineFinder } from "./key-lines.js";
import {
  FILTER_KEYS,
  INVALID,
  isTable,
  keyName,
  nonEmptyString,
  nonNegativeInteger,
  regex,
  regexes,
  REPLACE_KEYS,
  SECTION_NAMES,
  SECTIONS,
  string,
  TEST_KEYS,
  typeName,
  type FilterDef,
  type InlineTest,
  type KeyPath,
  type KeySpec,
  type Replacement,
  type Report,
  type SectionName,
  type SettingValues,
} from "./schema.js";

export interface ConfigIssue {
  file: string;
  line: number;
  /** `hooks.exclude_commands`, `filters[0].match`; "" for a file that does not parse. */
  key: string;
  message: string;
}

/** A filter definition that has a problem: not used, but it may still tell what it was meant for. */
export interface BrokenFilter {
  name: string | null;
  /** Its `match`, when that part is valid. */
  match: RegExp | null;
  file: string;
  line: number;
}

/** The valid values a file sets, by section in the file's order, typed by the schema: a key the file does not set is absent. */
export type FileValues = { [S in SectionName]?: Partial<SettingValues[S]> };

export interface FileConfig {
  path: string;
  values: FileValues;
  /** The line of a key in the file. */
  line(path: KeyPath): number;
  filters: FilterDef[];
  broken: BrokenFilter[];
  issues: ConfigIssue[];
}

/** `file:line: key: message` (no line for a file that cannot be read, no key for one that does not parse). */
export function formatIssue(i: ConfigIssue): string {
  const where = i.line > 0 ? `${i.file}:${i.line}` : i.file;
  return i.key ? `${where}: ${i.key}: ${i.message}` : `${where}: ${i.message}`;
}

export function configFromToml(text: string, path: string): FileConfig {
  const lines = new LineFinder(text);
  const cfg: FileConfig = { path, values: {}, line: (p) => lines.at(p), filters: [], broken: [], issues: [] };
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    const line = e instanceof TomlError ? e.line : 1;
    const message = (e as Error).message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
    cfg.issues.push({ file: path, line, key: "", message: `not valid TOML: ${message}` });
    return cfg;
  }
  const report: Report = (p, message) => cfg.issues.push({ file: path, line: lines.at(p), key: keyName(p), message });

  for (const [name, value] of Object.entries(doc)) {
    if (name === "filters") {
      checkFilters(value, cfg, lines, report);
      continue;
    }
    if (!(SECTION_NAMES as string[]).includes(name)) {
      report([name], `unknown key (known: ${[...SECTION_NAMES, "filters"].join(", ")})`);
      continue;
    }
    if (!isTable(value)) {
      report([name], `must be a table ([${name}]), not ${typeName(value)}`);
      continue;
    }
    const specs = SECTIONS[name as keyof typeof SECTIONS] as Record<string, KeySpec>;
    for (const [k, v] of Object.entries(value)) {
      const spec = specs[k];
      if (!spec) {
        report([name, k], `unknown key (known in [${name}]: ${Object.keys(specs).join(", ")})`);
        continue;
      }
      const checked = spec.check(v, [name, k], report);
      if (checked === INVALID) continue;
      const own: Record<string, unknown> = (cfg.values[name as SectionName] ??= {});
      own[k] = checked;
    }
  }
  cfg.issues.sort((a, b) => a.line - b.line);
  return cfg;
}

function checkFilters(value: unknown, cfg: FileConfig, lines: LineFinder, report: Report): void {
  if (!Array.isArray(value)) {
    report(["filters"], `must be an array of tables ([[filters]]), not ${typeName(value)}`);
    return;
  }
  const names = new Map<string, number>();
  value.forEach((entry, i) => {
    const path: KeyPath = ["filters", i];
    const before = cfg.issues.length;
    const def = checkFilter(entry, path, cfg.path, lines, report);
    if (def.name !== null) {
      const first = names.get(def.name);
      if (first !== undefined) report([...path, "name"], `a filter named ${JSON.stringify(def.name)} is already defined at line ${lines.at(["filters", first])}`);
      else names.set(def.name, i);
    }
    if (cfg.issues.length === before && def.filter) cfg.filters.push(def.filter);
    else
      cfg.broken.push({
        name: def.name,
        match: def.match,
        file: cfg.path,
        get line() {
          return lines.at(path);
        },
      });
  });
}

function checkFilter(entry: unknown, path: KeyPath, file: string, lines: LineFinder, report: Report): { name: string | null; match: RegExp | null; filter: FilterDef | null } {
  if (!isTable(entry)) {
    report(path, `must be a table, not ${typeName(entry)}`);
    return { name: null, match: null, filter: null };
  }
  unknownKeys(entry, FILTER_KEYS, path, "a filter", report);
  const at = (k: string): KeyPath => [...path, k];
  const name = entry["name"] === undefined ? missing(at("name"), report) : nonEmptyString(entry["name"], at("name"), report);
  const match = entry["match"] === undefined ? missing(at("match"), report) : regex(entry["match"], at("match"), report);
  const strip = entry["strip_lines"] === undefined ? [] : regexes(entry["strip_lines"], at("strip_lines"), report);
  const keep = entry["keep_lines"] === undefined ? [] : regexes(entry["keep_lines"], at("keep_lines"), report);
  if (strip !== INVALID && keep !== INVALID && strip.length && keep.length) {
    report(at("keep_lines"), "keep_lines and strip_lines are exclusive: use one of them");
  }
  const replace = entry["replace"] === undefined ? [] : replacements(entry["replace"], at("replace"), report);
  const head = entry["head"] === undefined ? null : nonNegativeInteger(entry["head"], at("head"), report);
  const tail = entry["tail"] === undefined ? null : nonNegativeInteger(entry["tail"], at("tail"), report);
  const onEmpty = entry["on_empty"] === undefined ? null : string(entry["on_empty"], at("on_empty"), report);
  const dropped = entry["dropped"] === undefined ? null : nonEmptyString(entry["dropped"], at("dropped"), report);
  const tests = entry["tests"] === undefined ? [] : inlineTests(entry["tests"], at("tests"), lines, report);
  const nameOk = name === INVALID ? null : name;
  const matchOk = match === INVALID ? null : match;
  if ([name, match, strip, keep, replace, head, tail, onEmpty, dropped, tests].includes(INVALID)) return { name: nameOk, match: matchOk, filter: null };
  return {
    name: nameOk,
    match: matchOk,
    filter: {
      name: name as string,
      match: match as RegExp,
      stripLines: strip as RegExp[],
      keepLines: keep as RegExp[],
      replace: replace as Replacement[],
      head: head as number | null,
      tail: tail as number | null,
      onEmpty: onEmpty as string | null,
      dropped: dropped as string | null,
      tests: tests as InlineTest[],
      definition: entry,
      file,
      get line() {
        return lines.at(path);
      },
    },
  };
}

function replacements(v: unknown, path: KeyPath, report: Report): Replacement[] | typeof INVALID {
  const shape = { list: 'a list of { pattern = "…", with = "…" }', table: 'a table { pattern = "…", with = "…" }', what: "a replacement", keys: REPLACE_KEYS };
  return tableList(v, path, report, shape, (r, p) => {
    const pattern = r["pattern"] === undefined ? missing([...p, "pattern"], report) : regex(r["pattern"], [...p, "pattern"], report, "g");
    const withText = r["with"] === undefined ? missing([...p, "with"], report) : string(r["with"], [...p, "with"], report);
    return pattern === INVALID || withText === INVALID ? INVALID : { pattern, with: withText };
  });
}

function inlineTests(v: unknown, path: KeyPath, lines: LineFinder, report: Report): InlineTest[] | typeof INVALID {
  const shape = { list: "an array of tables ([[filters.tests]])", table: "a table with input and expected", what: "an inline test", keys: TEST_KEYS };
  return tableList(v, path, report, shape, (t, p, i) => {
    const input = t["input"] === undefined ? missing([...p, "input"], report) : string(t["input"], [...p, "input"], report);
    const expected = t["expected"] === undefined ? missing([...p, "expected"], report) : string(t["expected"], [...p, "expected"], report);
    if (input === INVALID || expected === INVALID) return INVALID;
    return {
      input,
      expected,
      index: i + 1,
      get line() {
        return lines.at(p);
      },
    };
  });
}

/** A list of tables of known keys, each read by `item`; INVALID when the list, or any table in it, is not valid (every problem reported). */
function tableList<T>(
  v: unknown,
  path: KeyPath,
  report: Report,
  shape: { list: string; table: string; what: string; keys: readonly string[] },
  item: (t: Record<string, unknown>, p: KeyPath, i: number) => T | typeof INVALID,
): T[] | typeof INVALID {
  if (!Array.isArray(v)) {
    report(path, `must be ${shape.list}, not ${typeName(v)}`);
    return INVALID;
  }
  const out: T[] = [];
  let ok = true;
  v.forEach((t, i) => {
    const p: KeyPath = [...path, i];
    if (!isTable(t)) {
      report(p, `must be ${shape.table}, not ${typeName(t)}`);
      ok = false;
      return;
    }
    if (!unknownKeys(t, shape.keys, p, shape.what, report)) ok = false;
    const read = item(t, p, i);
    if (read === INVALID) ok = false;
    else out.push(read);
  });
  return ok ? out : INVALID;
}

function unknownKeys(table: Record<string, unknown>, known: readonly string[], path: KeyPath, what: string, report: Report): boolean {
  let ok = true;
  for (const k of Object.keys(table)) {
    if (known.includes(k)) continue;
    report([...path, k], `unknown key in ${what} (known: ${known.join(", ")})`);
    ok = false;
  }
  return ok;
}

function missing(path: KeyPath, report: Report): typeof INVALID {
  report(path, "is required");
  return INVALID;
}
