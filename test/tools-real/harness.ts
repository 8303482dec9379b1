// The real-tool matrix: small projects made in temporary folders, each run by a
// real tool this machine has, once plainly and once through the built bin/rtk,
// and the two compared. For each run:
// - the exit code is the tool's;
// - every fact of the plain output (each failure's name, message and location,
//   each summary count, each entry or match) is in view, or behind a marker
//   whose handle `rtk recall` serves;
// - no count rtk prints is one the plain output does not support;
// - no line goes without a marker: a line the case does not call noise is in
//   view, counted by a marker with a handle, or named by a marker in place
//   (`--lines A-B`) whose recall gives its bytes;
// - `rtk recall <id>` gives the plain output's bytes;
// - the run's record holds the bytes rtk wrote to stdout and stderr, and the
//   handle it printed.
// A tool the machine lacks is skipped by name. Each family file registers its
// cases with `matrix(…)`; rows go to RTK_MATRIX_DIR (one folder for a whole
// `npm run test:tools`), and run as a script this file prints the whole table
// and checks it, with `rtk gain` against the hand sum of what rtk printed.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../support/corpus.js";
import { ensureBuilt } from "../support/build.js";
import { RTK } from "../support/launch.js";
import { shellQuote } from "../../src/text/quote.js";
import { FACT_READERS } from "../filters/tests/facts.js";
import { factsOf as buildFactsOf, missingFacts } from "../filters/builds/facts.js";
import { factsOf as packageFactsOf, lostFacts as lostPackageFacts } from "../filters/packages/facts.js";
import type { ToolCase } from "../support/replay.js";

// ---------------------------------------------------------------- cases

export interface Fact {
  kind: string;
  text: string;
  /** Whether a text holds the fact, for a fact a compact form may show in another shape (a diagnostic under its file's heading); else the text is looked for. */
  in?: (text: string) => boolean;
  /** Or these, all of them: the raw lines a count stands for. */
  alt?: string[];
}

/** The plain run of a case: what the tool printed, on each stream, and its exit code. */
export interface Raw {
  stdout: string;
  stderr: string;
  status: number;
  /** The project folder. */
  dir: string;
}

export interface Case {
  /** The tool as the table names it (`cargo test`). */
  tool: string;
  /** passing, failing, crash (a compile or collection error), silent, … */
  kind: string;
  argv: string[];
  /** Commands the case needs on PATH (default: the tool word); a missing one skips the case, by name. */
  needs?: string[];
  /** Why the case cannot run here (a service the machine does not run): it is skipped, saying so. */
  skip?: string;
  /** The project's files. */
  files?: Record<string, string>;
  /** Commands run once in the project before the runs; each must succeed. */
  setup?: string[][];
  /** Commands run before each of the two runs (so that both see the same state: `touch` a source a build caches). */
  before?: string[][];
  env?: Record<string, string>;
  /** The exit code the case is about: 0, or "nonzero". */
  exit: 0 | "nonzero";
  /** The facts of the plain run. */
  facts(raw: Raw): Fact[];
  /** Raw lines that may go with no marker of their own (progress, banners, timing, blank lines). */
  noise?: RegExp[];
  /** Raw lines a marker counts (passing tests, counted in the summary): they may go when a handle is printed. */
  counted?: RegExp[];
  /** Raw lines whose content the compact form shows in another shape (a diagnostic regrouped): the facts check them. */
  reshaped?: RegExp[];
  /** Counts the plain output supports without printing them as `N word` (failed tests counted by their lines). */
  counts?(raw: Raw): string[];
  /** Parts of the output that change from one run to the next (times), masked before two runs are compared. */
  volatile?: RegExp[];
  /** The two runs may order their lines differently (parallel jobs): compared as sets of lines. */
  unordered?: boolean;
  /** The argv rtk runs when its route adds presentation flags (`tree -F`): its recall entry holds that command's output. */
  ranAs?: string[];
  /** What rtk prints is the plain run's bytes, stream by stream (an output too short to be worth compacting). */
  identical?: boolean;
  /** What rtk prints is at most this many characters (a list's budget, `[limits] list_tokens` × 4, with room for its markers). */
  within?: number;
}

/** The default list budget in characters (2000 tokens of 4 characters), and the room its markers may take past it. */
export const LIST_BUDGET = 8000 + 300;

/** A row of the table. */
export interface Row {
  family: string;
  tool: string;
  kind: string;
  skipped?: string;
  exitOk?: boolean;
  facts?: number;
  kept?: number;
  rawBytes?: number;
  printedBytes?: number;
  recordOk?: boolean;
  invented?: number;
  unmarked?: number;
  problems?: string[];
}

/** The facts of a test runner's output, as the filter tests read them (test/filters/tests/facts.ts). */
export function runnerFacts(reader: keyof typeof FACT_READERS): (raw: Raw) => Fact[] {
  return (raw) => FACT_READERS[reader]!(raw.stdout, raw.stderr).map((f) => ({ kind: f.kind, text: f.text, ...(f.alt ? { alt: f.alt } : {}) }));
}

/** A stand-in for a recorded case, as the fact readers of the filter tests take it. */
function asCase(tool: string, argv: readonly string[], raw: Raw): ToolCase {
  return { name: `${tool}/matrix`, dir: raw.dir, argv: [...argv], exit: raw.status, version: "", recorded: "real", stdout: raw.stdout, stderr: raw.stderr };
}

/** The facts of a build, type checker or linter (each diagnostic, the summary lines), as the filter tests read them (test/filters/builds/facts.ts). */
export function buildFacts(reader: string, argv: readonly string[]): (raw: Raw) => Fact[] {
  return (raw) => {
    const f = buildFactsOf(asCase(reader, argv, raw));
    return [
      ...f.diagnostics.map((d) => ({
        kind: "diagnostic",
        text: `${d.file}:${d.line}:${d.col} ${d.code} ${d.message}`,
        in: (t: string) => missingFacts(t, { diagnostics: [d], lines: [] }).length === 0,
      })),
      ...f.lines.map((l) => ({ kind: "summary", text: l })),
      ...(f.texts ?? []).map((t) => ({ kind: "text", text: t })),
    ];
  };
}

/** The facts of a package manager's run (every package with its versions, errors, warnings, counts), as the filter tests read them (test/filters/packages/facts.ts). */
export function packageFacts(argv: readonly string[]): (raw: Raw) => Fact[] {
  return (raw) => {
    const f = packageFactsOf(asCase(argv[0]!, argv, raw));
    return [
      ...f.packages.map((p) => ({ kind: "package", text: `${p.name} ${p.versions.join(" ")}`, in: (t: string) => lostPackageFacts(t, { packages: [p], texts: [] }).length === 0 })),
      ...f.texts.map((t) => ({ kind: "text", text: t })),
    ];
  };
}

/**
 * Counts a build's summary may add up from its diagnostic lines: `N error` and
 * `N warning` (the lines each pattern matches), `N file` (the files `file` reads
 * off them), and their sum as `N problem`.
 */
export function diagnosticCounts(error: RegExp, warning: RegExp | null, file: (line: string) => string | null): (raw: Raw) => string[] {
  return (raw) => {
    const lines = linesOf(raw.stdout + "\n" + raw.stderr);
    const errors = lines.filter((l) => error.test(l));
    const warnings = warning ? lines.filter((l) => warning.test(l)) : [];
    const files = new Set([...errors, ...warnings].map(file).filter((f) => f !== null));
    return [`${errors.length} error`, `${warnings.length} warning`, `${files.size} file`, `${errors.length + warnings.length} problem`, `${errors.length + warnings.length} diagnostic`];
  };
}

/** Each non-blank line matching `re`, as a fact. */
export function linesMatching(re: RegExp, kind = "line"): (raw: Raw) => Fact[] {
  return (raw) =>
    linesOf(raw.stdout + "\n" + raw.stderr)
      .filter((l) => re.test(l) && l.trim())
      .map((l) => ({ kind, text: l }));
}

// ---------------------------------------------------------------- the machine

/** Where the matrix keeps what it downloads (pnpm, yarn) between runs. */
export const CACHE = join(process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache"), "rtk", "tools-real");

const NODE_BIN = join(repoRoot, "node_modules", ".bin");

/** PATH for the tools: the project's JavaScript tools, the cached package managers, then the machine's. */
export const TOOL_PATH = [NODE_BIN, join(CACHE, "node_modules", ".bin"), process.env["PATH"] ?? "/usr/bin:/bin"].join(delimiter);

const shared = process.env["RTK_MATRIX_DIR"];
/** The folder of this process's (or the whole matrix's) rows and rtk data. */
export const MATRIX_DIR = shared ?? mkdtempSync(join(tmpdir(), "rtk-tools-real-"));
const DATA = join(MATRIX_DIR, "data");
const ROWS = join(MATRIX_DIR, "rows");
mkdirSync(DATA, { recursive: true });
mkdirSync(ROWS, { recursive: true });
// The filters are what the matrix tests: every output is compacted (a short one too,
// which rtk's default prints as it is); a case about that default (`identical`) runs
// with no config of its own.
const CONFIG = mkdtempSync(join(tmpdir(), "rtk-tools-real-config-"));
mkdirSync(join(CONFIG, "rtk"));
writeFileSync(join(CONFIG, "rtk", "config.toml"), "[limits]\npassthrough_tokens = 0\n");
const DEFAULT_CONFIG = mkdtempSync(join(tmpdir(), "rtk-tools-real-defaults-"));

/** The environment of both runs: the machine's, with rtk's data in the matrix's folder, no colours, a fixed locale and zone. */
export function toolEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(RTK_|FORCE_COLOR$|NO_COLOR$|CI$|GITHUB_ACTIONS$|npm_|NODE_TEST_CONTEXT$|NODE_OPTIONS$)/.test(k)) env[k] = v;
  return {
    ...env,
    PATH: TOOL_PATH,
    XDG_DATA_HOME: DATA,
    XDG_CONFIG_HOME: CONFIG,
    NO_COLOR: "1",
    TERM: "dumb",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Matrix",
    GIT_AUTHOR_EMAIL: "matrix@example.com",
    GIT_COMMITTER_NAME: "Matrix",
    GIT_COMMITTER_EMAIL: "matrix@example.com",
    GIT_AUTHOR_DATE: "2026-01-02T03:04:05Z",
    GIT_COMMITTER_DATE: "2026-01-02T03:04:05Z",
    GOFLAGS: "-mod=mod",
    GOPROXY: "off",
    GOTOOLCHAIN: "local",
    CARGO_NET_OFFLINE: "true",
    PYTHONDONTWRITEBYTECODE: "1",
    ...extra,
  };
}

const found = new Map<string, boolean>();

/** Whether a command is on the tools' PATH. */
export function has(cmd: string): boolean {
  let r = found.get(cmd);
  if (r === undefined) {
    r = spawnSync("sh", ["-c", `command -v "$1" >/dev/null`, "sh", cmd], { env: { PATH: TOOL_PATH } }).status === 0;
    found.set(cmd, r);
  }
  return r;
}

/** The first of these commands the machine has (a tool known by two names: pytest, pytest-3). */
export function firstOf(...cmds: string[]): string {
  return cmds.find(has) ?? cmds[0]!;
}

// ---------------------------------------------------------------- running

interface Ran {
  stdout: Buffer;
  stderr: Buffer;
  status: number;
}

function run(argv: readonly string[], cwd: string, env: Record<string, string>, timeoutMs = 240_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), status: code ?? 128 + (signal === "SIGKILL" ? 9 : 15) });
    });
  });
}

function makeProject(c: Case): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `rtk-matrix-${c.tool.replace(/\W+/g, "-")}-`)));
  for (const [path, content] of Object.entries(c.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

async function steps(list: readonly string[][] | undefined, dir: string, env: Record<string, string>, what: string): Promise<void> {
  for (const step of list ?? []) {
    const r = await run(step, dir, env);
    assert.equal(r.status, 0, `${what} \`${step.join(" ")}\` failed: ${r.stderr.toString()}${r.stdout.toString()}`);
  }
}

// ---------------------------------------------------------------- reading outputs

/** A line as a reader compares it: no escape sequences, what a terminal shows of a CR, decoration runs and blanks made one. */
export function norm(line: string): string {
  const shown = line.replace(/\r$/, "").split("\r").pop()!;
  return shown
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .replace(/[=_\-─⎯━*~!]{3,}/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export const linesOf = (text: string): string[] => {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/** `[rtk recall <id>]` and `[rtk recall <id> --lines A-B]` in rtk's output. */
const HANDLE = /\[rtk recall ([0-9a-f]{7})(?: --lines (\d+)-(\d+))?\]/g;

interface Marker {
  /** The output line it is on. */
  at: number;
  id: string;
  range?: [number, number];
  /** The count the marker says it stands for. */
  count?: number;
}

function markersOf(lines: readonly string[]): Marker[] {
  const out: Marker[] = [];
  lines.forEach((l, at) => {
    for (const m of l.matchAll(HANDLE)) {
      const before = l.slice(0, m.index);
      const count = /… \+?(\d+) [^…]*$/.exec(before);
      out.push({ at, id: m[1]!, ...(m[2] ? { range: [Number(m[2]), Number(m[3])] as [number, number] } : {}), ...(count ? { count: Number(count[1]) } : {}) });
    }
  });
  return out;
}

/** The words a count is said with, for the check that rtk invents none. */
const COUNT_WORDS =
  "passed|passing|failed|failing|skipped|ignored|pending|todo|errors?|warnings?|tests?|suites?|files?|packages?|total|targets?|measured|filtered out|deselected|xfailed|xpassed|problems?|diagnostics?|notes?|ok|succeeded|cancelled|removed|added|changed|installed|vulnerabilities";
const CLAIM = new RegExp(`(?<![\\w.+:/-])(\\d+) (${COUNT_WORDS})\\b`, "g");

const singular = (w: string) =>
  w
    .replace(/s$/, "")
    .replace(/^passing$/, "passed")
    .replace(/^failing$/, "failed");

/** The `N word` counts of a text. */
function claims(text: string): string[] {
  return [...text.matchAll(CLAIM)].map((m) => `${Number(m[1])} ${singular(m[2]!)}`);
}

// ---------------------------------------------------------------- one case

const rowsOfThisProcess: Row[] = [];

async function rtkRun(args: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  return run([RTK, ...args], cwd, env);
}

interface SpoolRecord {
  kind: string;
  command: string;
  time: number;
  project: string;
  route: string;
  outBytes: number;
  rawBytes: number;
  recallId: string | null;
}

/**
 * The records of runs in a project folder (its own, or a folder above it when
 * one of those holds a `.git`: a run's project is its git top level, and
 * another process may make one in the temporary folder meanwhile).
 */
function recordsOf(project: string): SpoolRecord[] {
  const file = join(DATA, "rtk", "spool.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l) as SpoolRecord;
      } catch {
        return null;
      }
    })
    .filter((r): r is SpoolRecord => r !== null && r.kind === "run" && (r.project === project || project.startsWith(r.project + "/")) && r.route !== "recall");
}

function mask(text: string, volatile: readonly RegExp[]): string {
  let t = text;
  for (const v of [...VOLATILE, ...volatile]) t = t.replace(new RegExp(v.source, v.flags.includes("g") ? v.flags : v.flags + "g"), "");
  return t;
}

/** What changes between two runs of any tool: durations (a short one may not be printed at all) and clock times. */
const VOLATILE = [/, estimated\b/, / *\(\d+(?:\.\d+)? ?m?s\)/, /(?: in)? *\d+(?:\.\d+)? ?(?:ms|s|sec|seconds|µs)\b/, /\b\d{2}:\d{2}:\d{2}\b/];

/** Runs one case and checks it; the row it makes. */
export async function runCase(family: string, c: Case): Promise<Row> {
  const row: Row = { family, tool: c.tool, kind: c.kind };
  const missing = (c.needs ?? [c.argv[0]!]).filter((cmd) => !has(cmd));
  if (missing.length) return { ...row, skipped: `${missing.join(", ")} not installed` };
  if (c.skip) return { ...row, skipped: c.skip };
  const dir = makeProject(c);
  const env = toolEnv({ ...(c.identical ? { XDG_CONFIG_HOME: DEFAULT_CONFIG } : {}), ...c.env });
  try {
    await steps(c.setup, dir, env, "setup");
    await steps(c.before, dir, env, "before");
    const plain = await run(c.argv, dir, env);
    await steps(c.before, dir, env, "before");
    const started = Date.now();
    const viaRtk = await rtkRun(c.argv, dir, env);
    const raw: Raw = { stdout: plain.stdout.toString("utf8"), stderr: plain.stderr.toString("utf8"), status: plain.status, dir };
    const problems: string[] = [];
    const caseExit = c.exit === 0 ? plain.status === 0 : plain.status !== 0;
    if (!caseExit) problems.push(`the plain run exited ${plain.status}: not a ${c.kind} case`);

    row.exitOk = viaRtk.status === plain.status;
    if (!row.exitOk) problems.push(`exit ${viaRtk.status} through rtk, ${plain.status} plain`);
    const printed = viaRtk.stdout.toString("utf8") + viaRtk.stderr.toString("utf8");
    row.rawBytes = plain.stdout.length + plain.stderr.length;
    row.printedBytes = viaRtk.stdout.length + viaRtk.stderr.length;
    if (c.identical && (!viaRtk.stdout.equals(plain.stdout) || !viaRtk.stderr.equals(plain.stderr))) problems.push("printed something other than the plain output's bytes");
    if (c.within !== undefined && printed.length > c.within) problems.push(`printed ${printed.length} characters, over the budget of ${c.within}`);
    const out = linesOf(viaRtk.stdout.toString("utf8")).concat(linesOf(viaRtk.stderr.toString("utf8")));
    // Lines are compared without what changes from run to run.
    const canon = (l: string) => norm(mask(l, c.volatile ?? []));
    const view = out.map(canon);
    const viewText = view.join("\n");

    // Handles: one run, one entry.
    const markers = markersOf(out);
    const ids = [...new Set(markers.map((m) => m.id))];
    if (ids.length > 1) problems.push(`markers name ${ids.length} entries: ${ids.join(", ")}`);
    const id = ids[0] ?? null;
    let recalled: string | null = null;
    if (id !== null) {
      const r = await rtkRun(["recall", id], dir, env);
      if (r.status !== 0) problems.push(`rtk recall ${id} exited ${r.status}: ${r.stderr.toString()}`);
      else recalled = r.stdout.toString("utf8");
    }
    const recalledLines = recalled === null ? null : linesOf(recalled);

    // The recall entry holds what the tool printed.
    if (recalled !== null) {
      const ran = c.ranAs ? await run(c.ranAs, dir, env) : plain;
      const both = ran.stdout.length > 0 && ran.stderr.length > 0;
      const a = mask(recalled, c.volatile ?? []);
      const b = mask(ran.stdout.toString("utf8") + ran.stderr.toString("utf8"), c.volatile ?? []);
      // Lines of two streams, or of parallel jobs, may come in another order (and blank lines between them fall elsewhere).
      const sorted = (t: string) =>
        linesOf(t)
          .filter((l) => l.trim())
          .sort()
          .join("\n");
      const same = both || c.unordered ? sorted(a) === sorted(b) : a === b;
      if (!same) problems.push(`rtk recall ${id} does not give the plain output's bytes`);
      if (!same && process.env["RTK_MATRIX_VERBOSE"]) process.stderr.write(`--- recalled, masked\n${a}--- plain, masked\n${b}---\n`);
    }

    // Range markers: their count is their range, and `rtk recall --lines` gives those lines.
    let rangeChecked = false;
    for (const m of markers.filter((x) => x.range)) {
      const [a, b] = m.range!;
      if (m.count !== undefined && m.count !== b - a + 1) problems.push(`marker on output line ${m.at + 1} counts ${m.count} for lines ${a}-${b}`);
      if (recalledLines && b > recalledLines.length) problems.push(`marker on output line ${m.at + 1} names lines ${a}-${b} of a ${recalledLines.length}-line entry`);
      if (!rangeChecked && recalledLines) {
        rangeChecked = true;
        const r = await rtkRun(["recall", m.id, "--lines", `${a}-${b}`], dir, env);
        const want = recalledLines.slice(a - 1, b).join("\n") + "\n";
        if (r.stdout.toString("utf8") !== want) problems.push(`rtk recall ${m.id} --lines ${a}-${b} does not give those lines`);
      }
    }

    // Facts: in view, or in the entry a printed handle names.
    const facts = c.facts(raw);
    const recallView = recalledLines?.map(canon).join("\n") ?? null;
    const holds = (text: string, f: Fact) => text.includes(canon(f.text)) || (f.alt !== undefined && f.alt.every((a) => text.includes(canon(a))));
    const inView = (f: Fact) => (f.in ? f.in(printed) : holds(viewText, f));
    const inRecall = (f: Fact) => recalled !== null && (f.in ? f.in(recalled) : holds(recallView!, f));
    let kept = 0;
    for (const f of facts) {
      if (inView(f) || inRecall(f)) kept++;
      else if (facts.length - kept < 10 || problems.length < 30) problems.push(`fact lost (${f.kind}): ${f.text}`);
    }
    if (facts.length - kept > 0) problems.push(`${facts.length - kept} of ${facts.length} facts lost`);
    row.facts = facts.length;
    row.kept = kept;

    // Counts: every `N word` rtk says of its own is one the plain output supports.
    const rawLines = new Set(linesOf(raw.stdout + "\n" + raw.stderr).map(canon));
    const supported = new Set([
      ...claims(
        linesOf(raw.stdout + "\n" + raw.stderr)
          .map(canon)
          .join("\n"),
      ),
      ...(c.counts?.(raw) ?? []).map((x) => claims(x)[0] ?? x),
    ]);
    let invented = 0;
    for (const l of view) {
      if (rawLines.has(l)) continue;
      // A marker's own count is checked with its range; a diagnostic's line number is not a count.
      const own = l.replace(/…[^…]*\[rtk recall [^\]]*\]/g, "").replace(/^\s*\d+(?::\d+)? (?=(error|warning|note) )/, "");
      for (const claim of claims(own)) {
        if (supported.has(claim)) continue;
        invented++;
        problems.push(`count not in the plain output: "${claim}" in "${l}"`);
      }
    }
    row.invented = invented;

    // Drops: every line of what rtk read (the entry, else the plain run) is in view, noise, counted behind a handle, or named by a range marker in place.
    const source = recalledLines ?? linesOf(raw.stdout).concat(linesOf(raw.stderr));
    const shown = source.map((l) => {
      const n = canon(l);
      return n === "" || viewText.includes(n);
    });
    const covered = (i: number) => markers.some((m) => m.range && i + 1 >= m.range[0] && i + 1 <= m.range[1]);
    let unmarked = 0;
    source.forEach((l, i) => {
      if (shown[i]) return;
      if (c.noise?.some((r) => r.test(l))) return;
      if (covered(i)) return;
      if (id !== null && c.counted?.some((r) => r.test(l))) return;
      if (c.reshaped?.some((r) => r.test(l))) return;
      unmarked++;
      if (unmarked <= 5) problems.push(`dropped without a marker: ${JSON.stringify(l)}`);
    });
    if (unmarked > 5) problems.push(`… and ${unmarked - 5} more lines dropped without a marker`);
    row.unmarked = unmarked;

    // In place: a range marker stands between the output lines of the raw lines kept around its range.
    const position = (rawIndex: number, dir: -1 | 1): number | null => {
      for (let i = rawIndex; i >= 0 && i < source.length; i += dir) {
        const n = canon(source[i]!);
        if (!shown[i] || n === "") continue;
        const at = view.findIndex((v) => v.includes(n));
        return at < 0 ? null : at;
      }
      return null;
    };
    for (const m of markers.filter((x) => x.range)) {
      const before = position(m.range![0] - 2, -1);
      const next = position(m.range![1], 1);
      if (before !== null && next !== null && before < next && (m.at < before || m.at > next))
        problems.push(`marker on output line ${m.at + 1} is not where lines ${m.range![0]}-${m.range![1]} stood`);
    }

    // The record: the bytes rtk wrote, and its handle.
    const command = shellQuote(c.argv);
    const records = recordsOf(dir).filter((r) => r.time >= started - 1000 && (r.project === dir || r.command === command));
    const rec = records[records.length - 1];
    if (!rec) problems.push(`no record of the run (${recordsOf(dir).length} records of ${dir})`);
    else {
      if (rec.outBytes !== row.printedBytes) problems.push(`record says ${rec.outBytes} bytes printed, rtk printed ${row.printedBytes}`);
      if (rec.recallId !== id) problems.push(`record's recall id ${rec.recallId}, printed ${id}`);
    }
    row.recordOk = rec !== undefined && rec.outBytes === row.printedBytes && rec.recallId === id;
    row.problems = problems;
    if (problems.length && process.env["RTK_MATRIX_VERBOSE"]) {
      process.stderr.write(`--- ${c.tool} ${c.kind}: plain\n${raw.stdout}${raw.stderr}--- through rtk\n${printed}---\n`);
    }
    void printed;
    return row;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- a family

/** Registers a family's cases: one test each, its row kept for the table. */
export function matrix(family: string, cases: readonly Case[]): void {
  ensureBuilt();
  describe(`real tools: ${family}`, () => {
    // RTK_MATRIX_ONLY="jest failing" runs the cases whose name holds it.
    const only = process.env["RTK_MATRIX_ONLY"];
    for (const c of cases.filter((x) => !only || `${x.tool} ${x.kind}`.includes(only))) {
      test(`${c.tool} ${c.kind}`, async (t) => {
        const row = await runCase(family, c);
        rowsOfThisProcess.push(row);
        appendFileSync(join(ROWS, `${family.replace(/\W+/g, "-")}.jsonl`), JSON.stringify(row) + "\n");
        if (row.skipped) {
          process.stdout.write(`skip ${c.tool} ${c.kind}: ${row.skipped}\n`);
          return t.skip(row.skipped);
        }
        assert.deepEqual(row.problems, [], `${c.tool} ${c.kind}:\n  ${row.problems!.join("\n  ")}`);
      });
    }
    after(() => {
      process.stdout.write(table(rowsOfThisProcess));
      if (!shared) rmSync(MATRIX_DIR, { recursive: true, force: true });
      rmSync(CONFIG, { recursive: true, force: true });
      rmSync(DEFAULT_CONFIG, { recursive: true, force: true });
    });
  });
}

// ---------------------------------------------------------------- the table

const pct = (raw: number, printed: number) => (raw === 0 ? "–" : `${(((raw - printed) / raw) * 100).toFixed(1)} %`);

/** The table: tool, case, exit ok, facts kept / total, savings, record ok. */
export function table(rows: readonly Row[]): string {
  const head = ["tool", "case", "exit ok", "facts kept / total", "savings", "record ok"];
  const body = rows.map((r) =>
    r.skipped ? [r.tool, r.kind, "–", "–", "–", "–"] : [r.tool, r.kind, r.exitOk ? "yes" : "NO", `${r.kept} / ${r.facts}`, pct(r.rawBytes!, r.printedBytes!), r.recordOk ? "yes" : "NO"],
  );
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[], note = "") => (cells.map((c, i) => c.padEnd(width[i]!)).join("  ") + note).trimEnd() + "\n";
  return "\n" + line(head) + line(width.map((w) => "-".repeat(w))) + body.map((b, i) => line(b, rows[i]!.skipped ? `  skipped: ${rows[i]!.skipped}` : "")).join("");
}

// ---------------------------------------------------------------- the whole matrix

function allRows(): Row[] {
  return readdirSync(ROWS)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => linesOf(readFileSync(join(ROWS, f), "utf8")).map((l) => JSON.parse(l) as Row));
}

/** Run as a script after every family (`npm run test:tools`): the whole table, the acceptance figures, and `rtk gain` against the hand sum. */
function summary(): void {
  describe("real tools: the whole matrix", () => {
    const rows = allRows();
    const ran = rows.filter((r) => !r.skipped);
    after(() => process.stdout.write(table(rows)));

    test("at least 25 tools ran, each with a passing and a failing or crashing case", () => {
      const tools = new Map<string, Set<string>>();
      for (const r of ran) tools.set(r.tool, (tools.get(r.tool) ?? new Set()).add(r.kind));
      const full = [...tools].filter(([, kinds]) => kinds.has("passing") && (kinds.has("failing") || kinds.has("crash")));
      const skipped = rows.filter((r) => r.skipped).map((r) => `${r.tool} ${r.kind} (${r.skipped})`);
      process.stdout.write(`matrix: ${ran.length} runs of ${tools.size} tools, ${full.length} with passing and failing/crash cases; skipped: ${skipped.join(", ") || "none"}\n`);
      assert.ok(full.length >= 25, `${full.length} tools with passing and failing/crash cases`);
    });

    test("every fact in view or recallable, no count invented, nothing dropped without a marker, every record exact", () => {
      const facts = ran.reduce((n, r) => n + r.facts!, 0);
      const kept = ran.reduce((n, r) => n + r.kept!, 0);
      const invented = ran.reduce((n, r) => n + r.invented!, 0);
      const unmarked = ran.reduce((n, r) => n + r.unmarked!, 0);
      const records = ran.filter((r) => r.recordOk).length;
      process.stdout.write(`matrix: facts ${kept} / ${facts}, counts invented ${invented}, lines dropped without a marker ${unmarked}, records exact ${records} / ${ran.length}\n`);
      assert.equal(kept, facts);
      assert.equal(invented, 0);
      assert.equal(unmarked, 0);
      assert.equal(records, ran.length);
      assert.deepEqual(
        ran.filter((r) => !r.exitOk).map((r) => `${r.tool} ${r.kind}`),
        [],
      );
    });

    test("rtk gain and rtk gain --html count what rtk printed over the matrix's runs", () => {
      const env = toolEnv();
      const hand = ran.reduce((n, r) => n + r.printedBytes!, 0);
      const json = spawnSync(RTK, ["gain", "--json"], { env, encoding: "utf8" });
      assert.equal(json.status, 0, json.stderr);
      const totals = (JSON.parse(json.stdout) as { totals: { runs: number; outBytes?: number } }).totals;
      assert.equal(totals.runs, ran.length, "runs");
      assert.equal(totals.outBytes, hand, "bytes printed: rtk gain --json vs the hand sum");
      const page = join(MATRIX_DIR, "gain.html");
      const html = spawnSync(RTK, ["gain", "--html", page], { env, encoding: "utf8" });
      assert.equal(html.status, 0, html.stderr);
      const text = readFileSync(page, "utf8");
      const shown = /bytes printed<\/[^>]+>\s*<[^>]+>([\d,]+)</.exec(text);
      assert.ok(shown, "the page shows the bytes printed");
      assert.equal(Number(shown[1]!.replace(/,/g, "")), hand, "bytes printed: rtk gain --html vs the hand sum");
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) summary();
