// The facts of a test runner's raw output, read by code that is not the filter:
// each failing test's name, its location, its assertion message and
// expected/received values, compile and collection errors, warnings, summary
// counts. A fact is a piece of text the compact output must hold (compared with
// runs of blanks made one, as a filter may re-indent a line). And the replay
// of a recorded runner case through bin/rtk (the tests' and the bench's).

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, type Run } from "../../support/launch.js";
import { replay, standInEnv, type ToolCase } from "../../support/replay.js";

export interface Fact {
  kind: "test" | "location" | "message" | "value" | "error" | "warning" | "summary";
  text: string;
  /** Or these, all of them: the raw lines a count stands for (raw output passed through holds them, not the count). */
  alt?: string[];
}

export type FactReader = (stdout: string, stderr: string) => Fact[];

const linesOf = (s: string) => s.split("\n").map((l) => l.replace(/\r$/, ""));
const fact = (kind: Fact["kind"], text: string): Fact => ({ kind, text: text.trim() });

/** Whether the compact output holds a fact (blanks normalised). */
export function holds(compact: string, f: Fact): boolean {
  const norm = (s: string) => s.replace(/[ \t]+/g, " ");
  const c = norm(compact);
  return c.includes(norm(f.text)) || (f.alt !== undefined && f.alt.every((a) => c.includes(norm(a))));
}

// ---------------------------------------------------------------- cargo (libtest, nextest)

function cargoFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const all = [...linesOf(stdout), ...linesOf(stderr)];
  let passed = 0;
  let results = 0;
  // Under nextest each test runs alone under libtest: its summary is nextest's, not the per-test result lines.
  const nextest = all.some((l) => /^\s+Summary \[/.test(l));
  for (let i = 0; i < all.length; i++) {
    const l = all[i]!;
    let m = /^test (.+) \.\.\. FAILED$/.exec(l);
    if (m) facts.push(fact("test", m[1]!));
    m = /^\s+(?:FAIL|TIMEOUT|SIGSEGV|SIGABRT) \[[^\]]*\] (.+)$/.exec(l);
    if (m) facts.push(fact("test", m[1]!));
    m = /panicked at (\S+:\d+:\d+):$/.exec(l);
    if (m) {
      facts.push(fact("location", m[1]!));
      // The message: the lines after, up to a backtrace or note.
      for (let k = i + 1; k < all.length && all[k]!.trim() !== "" && !/^(stack backtrace:|note: )/.test(all[k]!); k++) {
        facts.push(fact(/^\s*(left|right):/.test(all[k]!) ? "value" : "message", all[k]!));
      }
    }
    if (/^(warning|error)(\[\w+\])?: /.test(l) && !/^warning: `.*` \(.*\) generated/.test(l)) facts.push(fact(l.startsWith("error") ? "error" : "warning", l));
    m = /^\s*--> (\S+:\d+:\d+)$/.exec(l);
    if (m) facts.push(fact("location", m[1]!));
    m = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed/.exec(l);
    if (m && !nextest) {
      results++;
      passed += Number(m[2]);
      if (m[1] === "FAILED") facts.push(fact("summary", l));
    }
    if (/^\s+Summary \[/.test(l)) facts.push(fact("summary", l.replace(/^\s+Summary \[[^\]]*\]/, "")));
  }
  if (results) facts.push(fact("summary", `${passed} passed`));
  return facts;
}

// ---------------------------------------------------------------- pytest

function pytestFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stdout);
  let captured = 0;
  for (const l of lines) {
    let m = /^(FAILED|ERROR) (\S+)/.exec(l);
    if (m) facts.push(fact("test", m[2]!));
    m = /^_{3,} (.+?) _{3,}$/.exec(l);
    if (m) facts.push(fact("test", m[1]!));
    m = /^(\S+\.py):(\d+): /.exec(l);
    if (m) facts.push(fact("location", `${m[1]}:${m[2]}`));
    if (/^E\s+\S/.test(l)) facts.push(fact(/==|!=| where /.test(l) ? "value" : "message", l.slice(1)));
    // The arguments of a parametrised test, as pytest shows them.
    if (/^\w+ = .+(, \w+ = .+)*$/.test(l)) facts.push(fact("value", l));
    if (/^-+ Captured (stdout|stderr|log) \w+ -+$/.test(l)) captured = 1;
    else if (/^[_=-]{3,} /.test(l)) captured = 0;
    else if (captured && captured <= 5 && l.trim()) {
      facts.push(fact("message", l));
      captured++;
    }
    m = /(?:^|= )((?:\d+ (?:failed|passed|skipped|xfailed|xpassed|errors?|warnings?|deselected|rerun)(?:, )?)+)(?: in [\d.]+s)?(?: =+)?$/.exec(l);
    if (m) for (const part of m[1]!.split(", ")) facts.push(fact("summary", part));
    if (/no tests ran/.test(l)) facts.push(fact("summary", "no tests ran"));
    if (/^!+ .* !+$/.test(l)) facts.push(fact("summary", l.replace(/^!+ | !+$/g, "")));
  }
  for (const l of linesOf(stderr)) if (l.trim()) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- vitest

function vitestFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = [...linesOf(stdout), ...linesOf(stderr)];
  const failing = new Set<string>();
  for (const l of lines) {
    const m = /^ FAIL {2}(.+?)(?: \[ .+ \])?$/.exec(l);
    if (m) failing.add(m[1]!);
  }
  let consoleOf: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    let m = /^ FAIL {2}(.+)$/.exec(l);
    if (m) {
      facts.push(fact("test", m[1]!));
      if (lines[i + 1]?.trim()) facts.push(fact("message", lines[i + 1]!));
    }
    m = /^\s*❯ (?:\S+ )?(\S+:\d+:\d+)$/.exec(l);
    if (m) facts.push(fact("location", m[1]!));
    if (/^(Expected|Received): /.test(l) || /^[-+] {1,5}\S/.test(l)) facts.push(fact("value", l));
    m = /^\s*(Test Files|Tests|Snapshots|Errors) {2}(.+)$/.exec(l);
    if (m) facts.push(fact("summary", `${m[1]}  ${m[2]}`));
    m = /^(?:stdout|stderr) \| (.+)$/.exec(l);
    if (m) consoleOf = failing.has(m[1]!) ? m[1]! : null;
    else if (!l.trim()) consoleOf = null;
    else if (consoleOf) facts.push(fact("message", l));
  }
  return facts;
}

// ---------------------------------------------------------------- jest

const LIBRARY_FRAME = /node_modules\/|\(node:|<anonymous>|\(internal\//;

function jestFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = [...linesOf(stdout), ...linesOf(stderr)];
  let block = false;
  let framed = false;
  let inPassing = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^PASS /.test(l)) inPassing = true;
    if (/^FAIL /.test(l)) {
      inPassing = false;
      facts.push(fact("test", l));
    }
    if (/^(Test Suites|Tests|Snapshots): /.test(l)) {
      inPassing = false;
      facts.push(fact("summary", l));
    }
    if (inPassing) continue;
    const m = /^ {2}● (.+)$/.exec(l);
    if (m && m[1] !== "Console") {
      facts.push(fact("test", m[1]!));
      const next = lines.slice(i + 1).find((x) => x.trim());
      if (next) facts.push(fact("message", next));
      block = true;
      framed = false;
    }
    if (block && /^\s+(Expected|Received|Snapshot): /.test(l)) facts.push(fact("value", l));
    if (block && !framed && /^\s+at .*\(.+:\d+:\d+\)$/.test(l) && !LIBRARY_FRAME.test(l)) {
      facts.push(fact("location", /\(([^()]+)\)$/.exec(l)![1]!));
      framed = true;
    }
  }
  return facts;
}

// ---------------------------------------------------------------- mocha

function mochaFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stdout);
  let details = false;
  let framed = true;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^ {2}\d+ (passing|pending|failing)/.test(l)) {
      facts.push(fact("summary", l.replace(/ \(\d+m?s\)$/, "")));
      if (/failing/.test(l)) details = true;
      continue;
    }
    if (!details) continue;
    if (/^ {2}\d+\) /.test(l)) {
      facts.push(fact("test", l));
      framed = false;
    }
    if (/^ {5,}\S.*:$/.test(l)) {
      facts.push(fact("test", l));
      const next = lines[i + 1];
      if (next?.trim()) facts.push(fact("message", next));
    }
    if (!framed && /^\s+at .*\(.+:\d+:\d+\)$/.test(l) && !LIBRARY_FRAME.test(l)) {
      facts.push(fact("location", /\(([^()]+)\)$/.exec(l)![1]!));
      framed = true;
    }
  }
  for (const l of linesOf(stderr)) if (l.trim()) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- node --test (TAP)

function nodeFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  let failing = false;
  for (const l of linesOf(stdout)) {
    if (/^\s*not ok \d+ - /.test(l)) {
      failing = true;
      facts.push(fact("test", l));
    } else if (/^\s*ok \d+ - /.test(l)) failing = false;
    if (!failing) {
      if (/^# (tests|pass|fail|cancelled|skipped|todo) \d+$/.test(l)) facts.push(fact("summary", l));
      continue;
    }
    const m = /^\s+(location|error|expected|actual|operator): (.+)$/.exec(l);
    if (m && m[2] !== "|-") facts.push(fact(m[1] === "location" ? "location" : m[1] === "error" ? "message" : "value", `${m[1]}: ${m[2]}`));
  }
  for (const l of linesOf(stderr)) if (l.trim()) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- go test

function goFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  let held: string[] = [];
  let afterFail = false;
  const ok: string[] = [];
  let verbose = false;
  for (const l of linesOf(stdout)) {
    if (/^=== RUN /.test(l)) {
      verbose = true;
      continue;
    }
    const r = /^\s*--- (PASS|FAIL|SKIP): (\S+)/.exec(l);
    if (r) {
      if (r[1] === "FAIL") {
        facts.push(fact("test", `--- FAIL: ${r[2]}`));
        for (const h of held) facts.push(fact("message", h));
      }
      held = [];
      afterFail = r[1] === "FAIL" && !verbose;
      continue;
    }
    if (/^(ok|FAIL|\?)\s/.test(l) || l === "FAIL" || l === "PASS") {
      afterFail = false;
      held = [];
      if (/^ok\s/.test(l)) ok.push(l.trim());
      if (/^FAIL\s/.test(l)) facts.push(fact("summary", l));
      continue;
    }
    const log = /^\s+\S+\.go:\d+: .*/.exec(l);
    if (log && afterFail) facts.push(fact("message", l));
    else if (log && verbose) held.push(l);
    if (/^panic: /.test(l)) facts.push(fact("message", l));
  }
  if (ok.length) facts.push({ kind: "summary", text: `${ok.length} ok`, alt: ok });
  for (const l of linesOf(stderr)) if (/^\S+\.go:\d+:\d+: /.test(l)) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- npm scripts

/** The script's command, from npm's banner, names the runner whose facts to read; any other script's lines are all facts. */
function npmFacts(stdout: string, stderr: string): Fact[] {
  const command =
    linesOf(stdout)
      .filter((l) => l.startsWith("> "))[1]
      ?.slice(2) ?? "";
  const tool = command.split(" ")[0]!;
  const reader = FACT_READERS[tool];
  if (reader && tool !== "npm") return reader(stdout, stderr);
  // npm's banner (`> calc@1.0.0 check`, `> node check.js`) says what ran, which the agent typed.
  return [...linesOf(stdout), ...linesOf(stderr)].filter((l) => l.trim() && !l.startsWith("> ")).map((l) => fact("message", l));
}

// ---------------------------------------------------------------- mvn test (surefire)

function mavenFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stdout).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
  let framed = true;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const m = /^\[ERROR\] (\S.*?) -- Time elapsed: .* <<< (FAILURE|ERROR)!$/.exec(l);
    if (m && !/^Tests run:/.test(m[1]!)) {
      facts.push(fact("test", m[1]!));
      if (lines[i + 1]) facts.push(fact("message", lines[i + 1]!));
      framed = false;
    }
    if (!framed && /^\s+at /.test(l) && !/^\s+at (java\.|jdk\.|sun\.|org\.junit\.|org\.opentest4j\.|org\.apache\.maven\.)/.test(l)) {
      facts.push(fact("location", l));
      framed = true;
    }
    if (/^\[ERROR\] {3}\S/.test(l)) facts.push(fact("value", l));
    if (/^\[ERROR\] \S+\.java:\[\d+,\d+\] /.test(l)) facts.push(fact("error", l));
    if (/^\[WARNING\] /.test(l)) facts.push(fact("warning", l));
    if (/^\[(INFO|ERROR)\] Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+$/.test(l)) facts.push(fact("summary", l));
    if (/^\[INFO\] BUILD (SUCCESS|FAILURE)$/.test(l)) facts.push(fact("summary", l));
  }
  for (const l of linesOf(stderr)) if (l.replace(/\x1b\[[0-9;]*m/g, "").trim()) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- gradle test

function gradleFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = [...linesOf(stdout), ...linesOf(stderr)];
  let passed = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/ > .* FAILED$/.test(l)) {
      facts.push(fact("test", l));
      for (let k = i + 1; k < lines.length && /^ {4}\S/.test(lines[k]!); k++) facts.push(fact(/ at \S+:\d+$/.test(lines[k]!) ? "location" : "message", lines[k]!));
    }
    if (/ > .* PASSED$/.test(l)) passed++;
    if (/^\d+ tests? completed/.test(l) || /^BUILD (SUCCESSFUL|FAILED)/.test(l) || /^> Task \S+ FAILED$/.test(l)) facts.push(fact("summary", l));
    if (/^\* What went wrong:$/.test(l)) for (let k = i + 1; k < lines.length && lines[k]!.trim(); k++) facts.push(fact("error", lines[k]!));
  }
  if (passed) facts.push(fact("summary", `${passed} passed`));
  return facts;
}

// ---------------------------------------------------------------- bun test

const ESC = /\x1b\[[0-9;]*m/g;

function bunFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stderr);
  let inError = false;
  let framed = true;
  for (const l of lines) {
    if (/^\(fail\) /.test(l)) {
      facts.push(fact("test", l.replace(/ \[[\d.]+m?s\]$/, "")));
      inError = false;
      continue;
    }
    if (/^\((pass|skip|todo)\) /.test(l)) {
      inError = false;
      continue;
    }
    if (/^(error|\w*Error): /.test(l)) {
      facts.push(fact("message", l));
      inError = true;
      framed = false;
      continue;
    }
    if (/^# Unhandled error/.test(l)) facts.push(fact("error", l));
    if (/^\s+\^ this test timed out/.test(l)) facts.push(fact("message", l));
    if (inError && /^(Expected|Received): /.test(l)) facts.push(fact("value", l));
    if (inError && /^[-+] {3,}\S/.test(l)) facts.push(fact("value", l));
    const at = /^\s+at .*?\(?(\/[^()]+:\d+:\d+)\)?$/.exec(l);
    if (inError && !framed && at && !LIBRARY_FRAME.test(l)) {
      facts.push(fact("location", at[1]!));
      framed = true;
    }
    if (/^ \d+ (pass|fail|skip|todo|error)$/.test(l) || /^snapshots: /.test(l)) facts.push(fact("summary", l));
    const ran = /^(Ran \d+ tests? across \d+ files?\.)/.exec(l);
    if (ran) facts.push(fact("summary", ran[1]!));
  }
  // What the tests printed (stdout past the banner): its first lines.
  const printed = linesOf(stdout).filter((l) => l.trim() && !/^bun test v/.test(l));
  for (const l of printed.slice(0, 5)) facts.push(fact("message", l));
  return facts;
}

// ---------------------------------------------------------------- deno test

function denoFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stdout);
  let section: "run" | "errors" | "failures" = "run";
  let output: string[] | null = null;
  let lastOutput: string[] = [];
  let framed = true;
  for (const l of lines) {
    if (/^-+ output -+$/.test(l)) {
      output = [];
      continue;
    }
    if (/^-+ output end -+$/.test(l)) {
      lastOutput = output ?? [];
      output = null;
      continue;
    }
    if (output) {
      output.push(l);
      continue;
    }
    if (l === " ERRORS ") section = "errors";
    if (l === " FAILURES ") section = "failures";
    const failed = /^\s*(.+) \.\.\. FAILED/.exec(l);
    if (failed && section === "run") {
      facts.push(fact("test", `${failed[1]} ... FAILED`));
      for (const o of lastOutput.slice(0, 5)) if (o.trim()) facts.push(fact("message", o));
    }
    if (/ \.\.\. (ok|ignored)/.test(l)) lastOutput = [];
    const header = /^(.+) => (\S+:\d+:\d+)$/.exec(l);
    if (header) {
      facts.push(fact("test", header[1]!), fact("location", header[2]!));
      framed = section !== "errors";
    }
    if (section === "errors" && /^error: /.test(l)) facts.push(fact("message", l));
    if (section === "errors" && (/^\S+ !==? \S+$/.test(l) || /^[-+] {3,}\S/.test(l))) facts.push(fact("value", l));
    const at = /^\s+at (?:.* \()?(file:\/\/[^()]+:\d+:\d+)\)?$/.exec(l);
    if (section === "errors" && !framed && at) {
      facts.push(fact("location", at[1]!));
      framed = true;
    }
    const verdict = /^((?:ok|FAILED) \| .*?)(?: \([\d.]+\w+\))?$/.exec(l);
    if (verdict) for (const part of verdict[1]!.split(" | ")) facts.push(fact("summary", part));
  }
  const err = linesOf(stderr).map((l) => l.replace(ESC, ""));
  for (const l of err) {
    if (/^(TS\d+ \[ERROR\]|error): /.test(l)) facts.push(fact("error", l));
    const at = /^\s+at (file:\/\/\S+:\d+:\d+)$/.exec(l);
    if (at) facts.push(fact("location", at[1]!));
  }
  return facts;
}

// ---------------------------------------------------------------- playwright test (list reporter)

function playwrightFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stdout);
  let listing = true;
  let printed = 0;
  let framed = true;
  let wantMessage = false;
  for (const l of lines) {
    const header = /^ {2}\d+\) (\S+:\d+:\d+) › (.+?) ─+$/.exec(l);
    if (header) {
      listing = false;
      facts.push(fact("location", header[1]!), fact("test", header[2]!));
      framed = false;
      wantMessage = true;
      continue;
    }
    const counts = /^ {2}(\d+ (?:failed|flaky|skipped|passed|did not run|interrupted))/.exec(l);
    if (counts) {
      listing = false;
      facts.push(fact("summary", counts[1]!));
      continue;
    }
    if (listing) {
      if (/^Error: /.test(l)) {
        listing = false;
        facts.push(fact("error", l));
        framed = false;
      } else if (l.trim() && !/^Running \d+ tests?/.test(l) && !/^\s+[✓✘-]\s+\d+ /.test(l) && printed++ < 5) facts.push(fact("message", l));
      continue;
    }
    if (wantMessage && l.trim()) {
      facts.push(fact("message", l));
      wantMessage = false;
    }
    if (/^\s+(Expected|Received): /.test(l) || /^\s+[-+] {4}\S/.test(l) || /^\s+[-+]\w/.test(l)) facts.push(fact("value", l));
    if (/Test timeout of \d+ms exceeded/.test(l)) facts.push(fact("message", l));
    const at = /^\s+at (?:.* \()?(\/[^()]+:\d+:\d+)\)?$/.exec(l);
    if (!framed && at && !LIBRARY_FRAME.test(l)) {
      facts.push(fact("location", at[1]!));
      framed = true;
    }
  }
  for (const l of linesOf(stderr)) if (l.trim()) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- rspec

function rspecFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  let section = "";
  let framed = true;
  for (const l of linesOf(stdout)) {
    const head = /^(Pending|Failures|Failed examples):/.exec(l);
    if (head) section = head[1]!;
    if (/^An error occurred while loading (\S+?)\.?( |$)/.test(l)) {
      facts.push(fact("error", l.replace(/ - Did you mean\?$/, "")));
      section = "load";
      framed = false;
    }
    const numbered = /^ {2}\d+\) (.+)$/.exec(l);
    if (numbered && section !== "") facts.push(fact("test", numbered[1]!));
    if (section === "Failures" || section === "load") {
      if (numbered) framed = false;
      if (/^\s+(Failure\/Error|expected|got|[-+]:?\S)/.test(l) || /^\s+\w+(::\w+)*Error:$/.test(l)) facts.push(fact(/^\s+(expected|got|[-+])/.test(l) ? "value" : "message", l));
      const at = /^\s*# (\S+:\d+)/.exec(l);
      if (at && !framed) {
        facts.push(fact("location", at[1]!));
        framed = true;
      }
    }
    if (section === "Failed examples" && /^rspec \S+/.test(l)) facts.push(fact("test", l));
    if (/^\d+ examples?, /.test(l)) facts.push(fact("summary", l));
  }
  // What the examples printed, under the progress formatter (the documentation formatter's group names look the same).
  const listing = linesOf(stdout).slice(
    0,
    Math.max(
      0,
      linesOf(stdout).findIndex((l) => /^(Pending:|Failures:|Finished in|An error occurred)/.test(l)),
    ),
  );
  const documentation = listing.some((l) => /^\s+\S/.test(l));
  const printed = documentation ? [] : listing.filter((l) => l.trim() && !/^[.FE*]+$/.test(l));
  for (const l of printed.slice(0, 5)) facts.push(fact("message", l));
  for (const l of linesOf(stderr)) if (l.trim()) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- phpunit

function phpunitFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  const lines = linesOf(stdout);
  let numbered = false;
  let framed = true;
  let wantMessage = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^There (was|were) \d+ /.test(l)) numbered = true;
    const item = /^\d+\) (\S+::\S+.*)$/.exec(l);
    if (numbered && item) {
      facts.push(fact("test", item[1]!));
      framed = false;
      wantMessage = true;
      continue;
    }
    if (wantMessage && l.trim()) {
      facts.push(fact("message", l));
      wantMessage = false;
    }
    if (/^Failed asserting /.test(l.replace(/^ {3}│ /, ""))) facts.push(fact("message", l.replace(/^ {3}│ /, "")));
    const dox = /^ ✘ (.+)$/.exec(l);
    if (dox) {
      facts.push(fact("test", dox[1]!));
      framed = false;
    }
    const body = l.replace(/^ {3}│ /, "");
    if (/^[-+] {2,}\S/.test(body)) facts.push(fact("value", body));
    const at = /^(\/\S+\.php:\d+)$/.exec(body);
    if (at && !framed) {
      facts.push(fact("location", at[1]!));
      framed = true;
    }
    if (/^(OK \(|ERRORS!|FAILURES!|Tests: \d+)/.test(l)) facts.push(fact("summary", l));
  }
  for (const l of linesOf(stderr)) if (/^PHP (Fatal|Parse|Warning)/.test(l)) facts.push(fact("error", l));
  return facts;
}

// ---------------------------------------------------------------- dotnet test (VSTest console logger)

function dotnetFacts(stdout: string, stderr: string): Fact[] {
  const facts: Fact[] = [];
  let part: "message" | "stack" | "output" | null = null;
  let framed = true;
  let printed = 0;
  for (const l of linesOf(stdout)) {
    const failed = /^ {2}Failed (.+?) \[[^\]]+\]$/.exec(l);
    if (failed) {
      facts.push(fact("test", failed[1]!));
      part = null;
      framed = false;
      continue;
    }
    if (/^ {2}Error Message:$/.test(l)) part = "message";
    else if (/^ {2}Stack Trace:$/.test(l)) part = "stack";
    else if (/^ {2}Standard (Output|Error) Messages:$/.test(l)) {
      part = "output";
      printed = 0;
    } else if (part === "message" && l.trim()) facts.push(fact(/^(Expected|Actual):/.test(l) ? "value" : "message", l));
    else if (part === "stack" && !framed) {
      const at = / in (\S.*:line \d+)$/.exec(l);
      if (at) {
        facts.push(fact("location", at[1]!));
        framed = true;
      }
    } else if (part === "output" && l.trim() && printed++ < 5) facts.push(fact("message", l));
    const summary = /^((?:Passed|Failed)!\s+- Failed:\s+\d+, Passed:\s+\d+, Skipped:\s+\d+, Total:\s+\d+)/.exec(l);
    if (summary) facts.push(fact("summary", summary[1]!));
    const diag = /^(\S+\(\d+,\d+\)): (error|warning) (\w+): (.*)$/.exec(l);
    if (diag) facts.push(fact(diag[2] === "error" ? "error" : "warning", l));
  }
  for (const l of linesOf(stderr)) if (l.trim()) facts.push(fact("error", l));
  return facts;
}

export const FACT_READERS: Record<string, FactReader> = {
  dotnet: dotnetFacts,
  rspec: rspecFacts,
  phpunit: phpunitFacts,
  playwright: playwrightFacts,
  bun: bunFacts,
  deno: denoFacts,
  gradle: gradleFacts,
  mvn: mavenFacts,
  npm: npmFacts,
  go: goFacts,
  cargo: cargoFacts,
  pytest: pytestFacts,
  vitest: vitestFacts,
  jest: jestFacts,
  mocha: mochaFacts,
  node: nodeFacts,
};

/**
 * Replays a case. `node` stands in only for `node --test`: any other node
 * command (rtk itself, when its launcher looks for node on PATH) runs the real one.
 */
export async function replayRunner(c: ToolCase): Promise<Run> {
  if (c.argv[0] !== "node") return replay(c);
  const root = mkdtempSync(join(tmpdir(), "rtk-node-"));
  try {
    const bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "node"),
      `#!/bin/sh\nif [ "$1" = "--test" ]; then cat '${join(c.dir, "stdout")}'; cat '${join(c.dir, "stderr")}' >&2; exit ${c.exit}; fi\nexec '${process.execPath}' "$@"\n`,
    );
    chmodSync(join(bin, "node"), 0o755);
    return await launch(c.argv, {
      cwd: root,
      env: standInEnv(root, bin),
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
