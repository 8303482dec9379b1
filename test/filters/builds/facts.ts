// The facts of a build, type-checker or linter run, read from the raw output by
// code of their own (not the filters'): each diagnostic's file, line, column,
// code or rule and message, and lines that must stay word for word (the
// tool's summary and verdict). A compact output keeps a diagnostic when one of
// its lines holds `line:col`, the code and the message, and names the file
// either on that line or as the heading of the group the line is in.
import { stripVTControlCharacters } from "node:util";
import type { ToolCase } from "../../support/replay.js";

export interface DiagFact {
  file: string;
  line: string;
  col: string;
  code: string;
  message: string;
}

export interface Facts {
  diagnostics: DiagFact[];
  /** Lines of the raw output the compact output must hold as they are. */
  lines: string[];
  /** Text the compact output must hold somewhere (an elaboration line, without its indentation). */
  texts?: string[];
}

const clean = (text: string) =>
  stripVTControlCharacters(text)
    .split("\n")
    .map((l) => l.replace(/\r$/, ""));

type Reader = (c: ToolCase) => Facts;

function tsc(c: ToolCase): Facts {
  const diagnostics: DiagFact[] = [];
  const lines: string[] = [];
  const texts: string[] = [];
  let inPlain = false;
  for (const l of clean(c.stdout)) {
    if (inPlain && /^  \S/.test(l)) {
      texts.push(l.trim());
      continue;
    }
    const plain = l.match(/^(\S[^()]*)\((\d+),(\d+)\): \w+ (TS\d+): (.+)$/);
    const pretty = l.match(/^(\S.*?):(\d+):(\d+) - \w+ (TS\d+): (.+)$/);
    const global = l.match(/^\w+ (TS\d+): (.+)$/);
    const m = plain ?? pretty;
    inPlain = !!plain;
    if (m) diagnostics.push({ file: m[1]!, line: m[2]!, col: m[3]!, code: m[4]!, message: m[5]! });
    else if (global) lines.push(l);
    else if (/^Found \d+ error/.test(l)) lines.push(l);
  }
  return { diagnostics, lines, texts };
}

/** eslint's stylish format (stylelint's `string` format, on stderr, with ✖ and ⚠): a file heading, then `line:col  severity  message  rule` rows, then the summary. */
function stylishOn(stream: "stdout" | "stderr"): Reader {
  return (c) => {
    const diagnostics: DiagFact[] = [];
    const lines: string[] = [];
    let file = "";
    for (const l of clean(c[stream])) {
      if (/^✖ |potentially fixable/.test(l)) lines.push(l);
      else if (/^\S/.test(l)) file = l;
      else {
        const cells = l.trim().split(/ {2,}/);
        const at = /^(\d+):(\d+)$/.exec(cells[0] ?? "");
        if (!at || !/^(error|warning|✖|⚠)$/.test(cells[1] ?? "")) continue;
        const rule = cells.length > 3 ? cells[cells.length - 1]! : "";
        const message = cells.length > 3 ? cells.slice(2, -1).join("  ") : cells[2]!;
        diagnostics.push({ file, line: at[1]!, col: at[2]!, code: rule, message });
      }
    }
    // What the tool says on its other stream (a config error, too many warnings) is kept whole.
    lines.push(...clean(c[stream === "stdout" ? "stderr" : "stdout"]).filter((l) => l.trim() !== ""));
    return { diagnostics, lines };
  };
}

/**
 * cargo (rustc's human format): `error[E0308]: message`, then ` --> file:line:col`,
 * the snippet with the primary label after the carets, `= note: #[warn(lint)]`;
 * or the short format `file:line:col: error[E0308]: message`. Summary lines word for word.
 */
function cargo(c: ToolCase): Facts {
  const diagnostics: DiagFact[] = [];
  const lines: string[] = [];
  const texts: string[] = [];
  let block: { head: RegExpMatchArray; at?: RegExpMatchArray; lint?: string; label?: string } | null = null;
  const flush = () => {
    if (block?.at) {
      diagnostics.push({ file: block.at[1]!, line: block.at[2]!, col: block.at[3]!, code: block.head[2] ?? block.lint ?? "", message: block.head[3]! });
      if (block.label) texts.push(block.label);
    }
    block = null;
  };
  for (const l of clean(c.stderr)) {
    if (/^(warning|error): `.*generated \d+ warning|^error: could not compile|^\s+Finished /.test(l)) {
      flush();
      lines.push(l);
      continue;
    }
    const short = /^(\S+?):(\d+):(\d+): (?:error|warning)(?:\[([\w:]+)\])?: (.+)$/.exec(l);
    if (short) {
      diagnostics.push({ file: short[1]!, line: short[2]!, col: short[3]!, code: short[4] ?? "", message: short[5]! });
      continue;
    }
    const head = /^(?:error|warning)(?:\[([\w:]+)\])?: (.+)$/.exec(l);
    if (head) {
      flush();
      block = { head: ["", "", head[1], head[2]] as unknown as RegExpMatchArray };
      continue;
    }
    if (!block) continue;
    const b = block as { head: RegExpMatchArray; at?: RegExpMatchArray; lint?: string; label?: string };
    if (/^(help|note): /.test(l)) {
      // A help of its own: its locations and notes are not the diagnostic's.
      flush();
      continue;
    }
    const at = /^\s*--> (.+):(\d+):(\d+)$/.exec(l);
    if (at && !b.at) b.at = at;
    const lint = /#\[(?:warn|deny)\(([\w:]+)\)\]/.exec(l) ?? /rust-clippy\/.*#(\w+)$/.exec(l);
    if (lint && !b.lint) b.lint = lint[0].startsWith("#[") ? lint[1]! : `clippy::${lint[1]}`;
    const label = /^\s*\d*\s*\|\s*\^+ (.+)$/.exec(l);
    if (label && !b.label) b.label = label[1]!;
  }
  flush();
  return { diagnostics, lines, texts };
}

/**
 * Build logs and C compilers: `file:line:col: error: message [-Wflag]` with its
 * notes; make's `*** … Error N`, the linker's lines; the last line of each stream.
 */
function buildLog(c: ToolCase): Facts {
  const diagnostics: DiagFact[] = [];
  const lines: string[] = [];
  const texts: string[] = [];
  for (const stream of [c.stdout, c.stderr]) {
    // A source snippet under a diagnostic (`  5 |   int x;`, `    |   ^~~`) is what its position says.
    const all = clean(stream).filter((l) => l !== "" && !/^\s+(?:\d+ )?\|/.test(l));
    for (const l of all) {
      const d = /^(\S+?):(\d+):(\d+): (error|warning|fatal error|note): (.+?)(?: \[(-W[^\]]+)\])?$/.exec(l);
      if (d && d[4] === "note") texts.push(d[5]!);
      else if (d) diagnostics.push({ file: d[1]!, line: d[2]!, col: d[3]!, code: d[6] ?? "", message: d[5]! });
      else if (/\*\*\* |undefined reference|^collect2: |^\/usr\/bin\/ld: /.test(l)) lines.push(l);
    }
    // The last line stays as it was, unless it is a diagnostic (checked as one above).
    const last = all[all.length - 1];
    if (last !== undefined && !/^\S+?:\d+:\d+: /.test(last) && !lines.includes(last)) lines.push(last);
  }
  return { diagnostics, lines, texts };
}

/** prettier --check: each `[warn] file`, the verdict, the `[error]` lines that are not a code frame. */
function prettier(c: ToolCase): Facts {
  const texts: string[] = [];
  const lines: string[] = [];
  for (const l of [...clean(c.stdout), ...clean(c.stderr)]) {
    if (/^\[warn\] (Code style|All matched)|^All matched files/.test(l)) lines.push(l);
    else if (/^\[warn\] /.test(l)) lines.push(l.slice(7));
    else if (/^\[error\] /.test(l) && !/^\[error\] (?:[> ] *\d+ \||\s+\|)/.test(l)) lines.push(l);
    // --list-different: the paths themselves.
    else if (l !== "" && l !== "Checking formatting...") lines.push(l);
  }
  return { diagnostics: [], lines, texts };
}

/**
 * rustfmt (`cargo fmt --check`): each `Diff in file:line:` heading and each
 * error (its `error:` line, its `-->` location, `Error writing files: …`) word
 * for word; a warning, which it repeats for every file, as text.
 */
function rustfmt(c: ToolCase): Facts {
  const lines = clean(c.stdout).filter((l) => /^Diff in /.test(l));
  const texts: string[] = [];
  for (const l of clean(c.stderr)) {
    if (/^Warning: /.test(l)) texts.push(l);
    else if (/^error|^\s*--> |^Error /.test(l)) lines.push(l);
  }
  return { diagnostics: [], lines, texts };
}

/** biome: `file:line:col category  FIXABLE  ━━━` headings with their first `× message` line; a file's `format` heading; its counts. */
function biome(c: ToolCase): Facts {
  const diagnostics: DiagFact[] = [];
  const lines: string[] = [];
  const texts: string[] = [];
  let head: string[] | null = null;
  for (const l of [...clean(c.stdout), ...clean(c.stderr)]) {
    if (/━━━$/.test(l)) {
      head = l.replace(/━+$/, "").trim().split(/\s+/);
      continue;
    }
    if (/^(Checked|Found|Fixed|Skipped) /.test(l)) lines.push(l);
    const m = /^ {2}[×!i] (.+)$/.exec(l);
    if (!m || !head) continue;
    const at = /^(.+):(\d+):(\d+)$/.exec(head[0]!);
    if (at) diagnostics.push({ file: at[1]!, line: at[2]!, col: at[3]!, code: head[1]!, message: m[1]! });
    else texts.push(head.length > 1 ? head[0]! : m[1]!, m[1]!);
    head = null;
  }
  return { diagnostics, lines, texts };
}

/** oxlint: `  ⚠ plugin(rule): message`, then `╭─[file:line:col]` (or `,-[…]`), `help:` lines, its counts. */
function oxlint(c: ToolCase): Facts {
  const diagnostics: DiagFact[] = [];
  const lines: string[] = [];
  const texts: string[] = [];
  let head: RegExpExecArray | null = null;
  for (const l of clean(c.stdout)) {
    const h = /^ {2}[⚠×!x] (?:(\S+\(.+?\)): )?(.+)$/.exec(l);
    if (h) head = h;
    const at = /\[(.+):(\d+):(\d+)\]$/.exec(l);
    if (at && head) {
      diagnostics.push({ file: at[1]!, line: at[2]!, col: at[3]!, code: head[1] ?? "", message: head[2]! });
      head = null;
    }
    const help = /^\s+help: (.+)$/.exec(l);
    if (help) texts.push(help[1]!);
    if (/^(Found \d+|Finished in )/.test(l)) lines.push(l);
  }
  return { diagnostics, lines, texts };
}

/**
 * Tools with one line per diagnostic: a pattern with named groups (file, line,
 * col, code, message), on both streams; the summary lines; text under a
 * diagnostic that must stay (an elaboration).
 */
function oneLine(diag: RegExp, summary: RegExp, under?: RegExp): Reader {
  return (c) => {
    const diagnostics: DiagFact[] = [];
    const lines: string[] = [];
    const texts: string[] = [];
    for (const stream of [c.stdout, c.stderr]) {
      let inDiag = false;
      for (const l of clean(stream)) {
        const m = diag.exec(l);
        if (m?.groups) {
          const g = m.groups;
          diagnostics.push({ file: g["file"]!, line: g["line"]!, col: g["col"] ?? "", code: g["code"] ?? "", message: g["message"]! });
          inDiag = true;
          continue;
        }
        if (summary.test(l)) lines.push(l);
        const u = under && inDiag ? under.exec(l) : null;
        if (u) texts.push(u[1]!);
        else inDiag = false;
      }
    }
    return { diagnostics, lines, texts };
  };
}

/** shellcheck's tty format: `In file line N:`, the source, `^-- SCxxxx (level): message` under the column. */
function shellcheck(c: ToolCase): Facts {
  const diagnostics: DiagFact[] = [];
  let at: RegExpExecArray | null = null;
  for (const l of clean(c.stdout)) {
    const w = /^In (.+) line (\d+):$/.exec(l);
    if (w) at = w;
    const m = /^( *)\^[-^]* (SC\d+) \(\w+\): (.+)$/.exec(l);
    if (m && at) diagnostics.push({ file: at[1]!, line: at[2]!, col: String(m[1]!.length + 1), code: m[2]!, message: m[3]! });
  }
  return { diagnostics, lines: [] };
}

/**
 * A build tool's log: what buildLog reads, plus the tool's own diagnostic lines
 * (`diag`, named groups), a location alone on its line with the message on the
 * next (`located`), and its verdict lines (`verdict`), each once.
 */
function toolLog(extra: { diag?: RegExp; located?: RegExp; verdict: RegExp; under?: RegExp; boilerplateEnd?: boolean }): Reader {
  return (c) => {
    const base = buildLog(c);
    const seen = new Set<string>();
    const diagnostics = [...base.diagnostics];
    // A tool whose last lines are boilerplate (mvn's rules, times and help links; a bundler's own stack frames) is judged on its verdict instead.
    const lines = extra.boilerplateEnd ? base.lines.filter((l) => /\*\*\* |undefined reference|^collect2: /.test(l)) : [...base.lines];
    const texts = [...(base.texts ?? [])];
    for (const stream of [c.stdout, c.stderr]) {
      const all = clean(stream);
      all.forEach((l, i) => {
        const m = extra.diag?.exec(l);
        const at = extra.located?.exec(l);
        let d: DiagFact | null = null;
        if (m?.groups) d = { file: m.groups["file"]!, line: m.groups["line"]!, col: m.groups["col"] ?? "", code: m.groups["code"] ?? "", message: m.groups["message"]! };
        else if (at) d = { file: at[1]!, line: at[2]!, col: at[3]!, code: "", message: (all[i + 1] ?? "").replace(/^(?:error|warning): /i, "") };
        if (d) {
          const key = `${d.file}:${d.line}:${d.col}:${d.message}`;
          if (!seen.has(key)) diagnostics.push(d);
          seen.add(key);
        } else if (extra.under?.test(l)) {
          if (!texts.includes(l.trim())) texts.push(l.trim());
        } else if (extra.verdict.test(l) && !lines.includes(l)) lines.push(l);
      });
    }
    return { diagnostics, lines, texts };
  };
}

export const READERS: Readonly<Record<string, Reader>> = {
  tsc,
  "vue-tsc": tsc,
  eslint: stylishOn("stdout"),
  stylelint: stylishOn("stderr"),
  cargo,
  prettier,
  rustfmt,
  biome,
  oxlint,
  gcc: buildLog,
  make: buildLog,
  cmake: buildLog,
  mvn: toolLog({
    diag: /^\[(?:ERROR|WARNING)\] (?<file>\S+\.java):\[(?<line>\d+),(?<col>\d+)\] (?<message>.+)$/,
    verdict: /BUILD (?:SUCCESS|FAILURE)|^\[ERROR\] Failed to execute goal/,
    under: /^\s+(?:symbol|location):/,
    boilerplateEnd: true,
  }),
  gradle: toolLog({ diag: /^[ew]: file:\/\/(?<file>\S+?):(?<line>\d+):(?<col>\d+) (?<message>.+)$/, verdict: /^BUILD (?:SUCCESSFUL|FAILED)|^FAILURE: |FAILED$/ }),
  dotnet: toolLog({
    diag: /^(?<file>\S+?)\((?<line>\d+),(?<col>\d+)\): (?:error|warning) (?<code>[A-Z]+\d+): (?<message>.+?)(?: \[\S+\])?$/,
    verdict: /^Build (?:succeeded|FAILED)|^\s+\d+ (?:Warning|Error)\(s\)$/,
  }),
  next: toolLog({ located: /^(\.\/\S+):(\d+):(\d+)$/, verdict: /^Failed to compile|Compiled successfully/ }),
  // vite's last lines on a failure are rollup's own stack frames: it is judged on its error block.
  vite: toolLog({ verdict: /built in|Build failed in|^error during build:|^\[vite:[\w-]+\] |^file: /, boilerplateEnd: true }),
  webpack: toolLog({ located: /^(?:ERROR|WARNING) in (\S+) (\d+):(\d+)(?:-\d+)?$/, verdict: /compiled (?:successfully|with)/ }),
  mypy: oneLine(/^(?<file>[^\s:][^:]*):(?<line>\d+):(?:(?<col>\d+):)? (?:error|warning): (?<message>.+?)(?: {2}\[(?<code>[\w-]+)\])?$/, /^(Found \d+ errors?|Success: )/),
  pyright: oneLine(
    /^ {2}(?<file>\S.*?):(?<line>\d+):(?<col>\d+) - (?:error|warning|information): (?<message>.+?)(?: \((?<code>report\w+)\))?$/,
    /^\d+ errors?, \d+ warnings?/,
    /^ {2}[\u00a0 ]{2}(\S.+?)(?: \(report\w+\))?$/,
  ),
  go: oneLine(/^(?:vet: )?(?<file>\S+\.go):(?<line>\d+):(?:(?<col>\d+):)? (?<message>.+)$/, /^go: /),
  shellcheck,
  ruff: oneLine(
    /^(?<file>[^\s:][^:]*):(?<line>\d+):(?<col>\d+): (?<code>[A-Z]+\d+) (?<message>.+)$/,
    /^(Found \d+ error|\[\*\] \d+ fixable|All checks passed|\d+ files? would be reformatted|Would reformat: )/,
  ),
  "golangci-lint": oneLine(/^(?<file>\S+\.go):(?<line>\d+):(?:(?<col>\d+):)? (?<message>.+) \((?<code>[\w-]+)\)$/, /^\d+ issues?|^\* [\w-]+: \d+$/),
  hadolint: oneLine(/^(?<file>\S+?):(?<line>\d+) (?<code>(?:DL|SC)\d+) \w+: (?<message>.+)$/, /^$^/),
  rubocop: oneLine(/^(?<file>[^\s:][^:]*):(?<line>\d+):(?<col>\d+): [CWEFRI]: (?:\[\w+\] )?(?<code>[A-Z]\w*\/\w+): (?<message>.+)$/, /^\d+ files? inspected/),
  markdownlint: oneLine(/^(?<file>[^\s:][^:]*):(?<line>\d+)(?::(?<col>\d+))? (?:(?:error|warning) )?(?<code>MD\d+(?:\/[\w-]+)+) (?<message>.+)$/, /^$^/),
};

export function factsOf(c: ToolCase): Facts {
  const tool = c.name.split("/")[0]!;
  const read = READERS[tool];
  if (!read) throw new Error(`no facts reader for ${tool}`);
  return read(c);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What of the facts the compact output lacks, each said in a line. */
export function missingFacts(compact: string, facts: Facts): string[] {
  const lines = clean(compact);
  const problems: string[] = [];
  for (const want of facts.lines) if (!lines.includes(want)) problems.push(`line missing: ${want}`);
  for (const want of facts.texts ?? []) if (!compact.includes(want)) problems.push(`text missing: ${want}`);
  for (const d of facts.diagnostics) {
    const at = new RegExp(`(?:^|[\\s:,])${escape(d.line)}${d.col ? ":" + escape(d.col) : ""}(?:$|[\\s,])`);
    const found = lines.some((l, i) => {
      // The tool's own line, when the raw output is what was printed.
      if (l.includes(`${d.file}(${d.line},${d.col})`) && l.includes(d.message) && l.includes(d.code)) return true;
      if (!at.test(l) || !l.includes(d.message) || (d.code && !l.includes(d.code))) return false;
      if (l.includes(`${d.file}:${d.line}${d.col ? ":" + d.col : ""}`)) return true;
      // The group's heading: the nearest line above that is not indented.
      for (let k = i - 1; k >= 0; k--) if (!/^\s/.test(lines[k]!)) return lines[k] === d.file;
      return false;
    });
    if (!found) problems.push(`diagnostic missing: ${d.file}:${d.line}:${d.col} ${d.code} ${d.message}`);
  }
  return problems;
}

/** The facts alone, one per line: about the least an output that shows them all can be. */
export function factsText(facts: Facts): string {
  return [...facts.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.message}`), ...facts.lines].join("\n");
}

/**
 * The facts a compact output lost. On a run that passed, diagnostics may stand
 * behind markers (`… +N more warnings … [rtk recall id]`) whose counts add up to
 * exactly those missing; on a failed run nothing may.
 */
export function lostFacts(compact: string, facts: Facts, passed: boolean): { lost: string[]; hidden: number } {
  const missing = missingFacts(compact, facts);
  if (!passed) return { lost: missing, hidden: 0 };
  const diag = missing.filter((m) => m.startsWith("diagnostic missing"));
  const marked = [...compact.matchAll(/… \+(\d+) more warnings? in .*\[rtk recall [0-9a-f]+\]/g)].reduce((n, m) => n + Number(m[1]), 0);
  if (diag.length && marked === diag.length) return { lost: missing.filter((m) => !m.startsWith("diagnostic missing")), hidden: diag.length };
  return { lost: missing, hidden: 0 };
}
