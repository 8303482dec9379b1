// The facts of a test runner's raw output, read by code that is not the filter:
// each failing test's name, its location, its assertion message and
// expected/received values, compile and collection errors, warnings, summary
// counts. A fact is a piece of text the compact output must hold (compared with
// runs of blanks made one, as a filter may re-indent a line).

export interface Fact {
  kind: "test" | "location" | "message" | "value" | "error" | "warning" | "summary";
  text: string;
}

export type FactReader = (stdout: string, stderr: string) => Fact[];

const linesOf = (s: string) => s.split("\n").map((l) => l.replace(/\r$/, ""));
const fact = (kind: Fact["kind"], text: string): Fact => ({ kind, text: text.trim() });

/** Whether the compact output holds a fact (blanks normalised). */
export function holds(compact: string, f: Fact): boolean {
  const norm = (s: string) => s.replace(/[ \t]+/g, " ");
  return norm(compact).includes(norm(f.text));
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

export const FACT_READERS: Record<string, FactReader> = {
  cargo: cargoFacts,
  pytest: pytestFacts,
};
