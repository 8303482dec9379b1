// The parser never throws and always finishes: random strings, mutated corpus
// inputs and pathological inputs each get a result object (an error is fine),
// an error's position lies inside the input, and what parses prints back
// losslessly. Pathological inputs run in a child process, so that a hang or a
// blow-up fails the test instead of stalling it; their time bounds are generous
// on purpose (this catches super-linear behaviour, it does not measure speed).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import fc from "fast-check";
import { parse, type ParseResult } from "../../grammar/parse.js";
import { printLossless } from "../../src/printer/lossless.js";
import { corpusAvailable, corpusInputs } from "../support/corpus.js";

/** Checks a result against its input; returns a problem or null. */
function problem(src: string, r: ParseResult): string | null {
  if (!r || typeof r !== "object" || typeof r.ok !== "boolean") return "no result object";
  if (r.ok) {
    let back: string;
    try {
      back = printLossless(r.script, src);
    } catch (e) {
      return `parsed, but the lossless printer threw ${String(e)}`;
    }
    return back === src ? null : `lossless print differs: ${JSON.stringify(back)}`;
  }
  const { offset, line, column, message } = r.error;
  if (!Number.isInteger(offset) || offset < 0 || offset > src.length) return `error offset ${offset} outside [0, ${src.length}]`;
  if (typeof message !== "string" || message === "") return "error without a message";
  const before = src.slice(0, offset);
  const wantLine = before.split("\n").length;
  const wantColumn = offset - (before.lastIndexOf("\n") + 1) + 1;
  if (line !== wantLine || column !== wantColumn) return `error at ${line}:${column}, offset ${offset} is ${wantLine}:${wantColumn}`;
  return null;
}

/** Parses, failing with the input when parse throws, takes too long or returns a bad result. */
function check(src: string, boundMs: number): void {
  const t = performance.now();
  let r: ParseResult;
  try {
    r = parse(src);
  } catch (e) {
    assert.fail(`parse threw ${String(e)} on ${JSON.stringify(src)}`);
  }
  const ms = performance.now() - t;
  assert.ok(ms < boundMs, `parse took ${ms.toFixed(0)} ms on ${JSON.stringify(src)}`);
  const p = problem(src, r);
  assert.equal(p, null, `${p} on ${JSON.stringify(src)}`);
}

// Small inputs: generous enough for a loaded machine and the first, cold parse.
const SMALL_BOUND_MS = 5000;

const SHELLISH = [..."'\"`$(){}[];&|<>#\\\n =*?~!-", ..."abcxyzEOF019", "<<", "<<-", "$(", "${", "$((", "))", "[[", "]]", "\t", "\r\n", "E\n", "<<E\n", "EOF\n"];

// ---- pathological inputs ---------------------------------------------------------

const PATHOLOGICAL: Record<string, () => string> = {
  "`$(` × 5000": () => "$(".repeat(5000),
  "`(` × 5000": () => "(".repeat(5000),
  '`"$(` × 2000': () => '"$('.repeat(2000),
  "`((` × 2500": () => "((".repeat(2500),
  "`$((` × 2000": () => "$((".repeat(2000),
  "`$[` × 3000": () => "$[".repeat(3000),
  "`${` × 5000": () => "${".repeat(5000),
  "`${x:-` × 3000": () => "echo ${x:-".repeat(3000),
  "backquotes × 5001": () => "`".repeat(5001),
  "backquotes nested 12 deep": () => {
    let s = "a";
    for (let i = 0; i < 12; i++) s = "`echo " + s.replace(/[\\`]/g, (c) => "\\" + c) + "`";
    return s;
  },
  "`[[ ` × 5000": () => "[[ ".repeat(5000),
  "`{ ` × 5000": () => "{ ".repeat(5000),
  "`if ` × 5000": () => "if ".repeat(5000),
  "`case a in ` × 2000": () => "case a in ".repeat(2000),
  "`$((` then `(` × 3000": () => "$((" + "(".repeat(3000),
  "valid `$(echo …)` nested 90 deep": () => "echo " + "$(echo ".repeat(90) + "x" + ")".repeat(90),
  'valid `"$(echo …)"` nested 90 deep': () => "echo " + '"$(echo '.repeat(90) + "x" + ')"'.repeat(90),
  "valid `${x:-…}` nested 150 deep": () => "echo " + "${x:-".repeat(150) + "y" + "}".repeat(150),
  "valid functions nested 90 deep": () => "f() { ".repeat(90) + "a; " + "}; ".repeat(90),
  "a 100 KB word": () => "a".repeat(100_000),
  "30 000 words": () => "a ".repeat(30_000),
  "an unterminated 100 KB single quote": () => "'" + "x".repeat(100_000),
  "an unterminated double quote of 30 000 `$x`": () => '"' + "$x".repeat(30_000),
  "an unterminated double quote of 10 000 `$(a)`": () => '"' + "$(a) ".repeat(10_000),
  "30 000 line continuations": () => "\\\n".repeat(30_000),
  "a 100 KB comment": () => "#" + "x".repeat(100_000),
  "100 000 newlines": () => "\n".repeat(100_000),
  "30 000 `a;`": () => "a;".repeat(30_000),
  "a 20 000-stage pipeline": () => "a|".repeat(20_000) + "a",
  "a 30 000-long and-or list": () => "a&&".repeat(30_000) + "a",
  "10 000 here-documents on one line, no bodies": () => "cat" + " <<E".repeat(10_000) + "\n",
  "20 000 here-documents on one line, with bodies": () => "cat" + " <<E".repeat(20_000) + "\n" + "x\nE\n".repeat(20_000),
  "an unterminated 100 KB here-document": () => "cat <<E\n" + "x\n".repeat(50_000),
  "10 000 assignments": () => "x=1 ".repeat(10_000) + "cmd",
  "`x=` × 30 000": () => "x=".repeat(30_000),
  "an array of 30 000 elements": () => "a=(" + "x ".repeat(30_000) + ")",
  "20 000 redirects": () => "cmd" + " >f".repeat(20_000),
  "a 60 KB arithmetic expression": () => "$((" + "1+".repeat(30_000) + "1))",
  "a 50 KB test clause": () => "[[ " + "a && ".repeat(10_000) + "a ]]",
  "10 000 case arms": () => "case a in " + "a) ;; ".repeat(10_000) + "esac",
  "5 000 elifs": () => "if a; then b; " + "elif a; then b; ".repeat(5000) + "fi",
  "10 000 command substitutions": () => "echo " + "$(a)".repeat(10_000),
  "10 000 backquoted commands": () => "echo " + "`a`".repeat(10_000),
  "10 000 process substitutions": () => "cat " + "<(a) ".repeat(10_000),
  "20 000 brace expansions": () => "echo " + "{a,b}".repeat(20_000),
  "20 000 globs": () => "echo " + "[a]*?".repeat(20_000),
  "50 000 `[` in a word": () => "echo " + "[".repeat(50_000),
  "50 000 `{` in a word": () => "echo " + "{".repeat(50_000),
  "`a` then 50 000 `[` then `=1`": () => "a" + "[".repeat(50_000) + "=1",
  "an unterminated `$'` of 50 000 backslashes": () => "$'" + "\\".repeat(50_000),
};

/** Generous: 2 s of CPU time, plus 0.1 ms a character (12 s for 100 KB). */
const boundFor = (src: string): number => 2000 + src.length * 0.1;

/** In the child: parse each named input, reporting before and after. */
function runChild(names: string[]): void {
  parse("warm up");
  for (const name of names) {
    const src = PATHOLOGICAL[name]!();
    process.stdout.write(JSON.stringify({ start: name }) + "\n");
    const t = performance.now();
    let outcome: string;
    try {
      const r = parse(src);
      outcome = problem(src, r) ?? "ok";
    } catch (e) {
      outcome = `parse threw ${String(e)}`;
    }
    process.stdout.write(JSON.stringify({ done: name, ms: performance.now() - t, outcome }) + "\n");
  }
}

/** The CPU time a process has used, in ms (Linux's /proc), or null where that cannot be read. */
function cpuMs(pid: number): number | null {
  try {
    // The fields after the command's name: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /s, "")
      .split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Runs the inputs in a child, killing it when one exceeds its bound; resumes after it.
 * The bound is on the child's CPU time, so that a machine busy with other work does not
 * make a parse look slow (wall time, four times the bound, where /proc cannot be read).
 */
async function runPathological(names: string[]): Promise<{ failures: string[]; timings: string[] }> {
  const failures: string[] = [];
  const timings: string[] = [];
  let rest = names;
  while (rest.length) {
    const done = await new Promise<string[]>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
        env: { ...process.env, RTK_FUZZ_CHILD: JSON.stringify(rest) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const finished: string[] = [];
      let current: string | null = null;
      let bound = 0;
      let cpuAtStart: number | null = null;
      let wallAtStart = 0;
      let buf = "";
      let stderr = "";
      const watch = setInterval(() => {
        if (current === null) return;
        const cpu = cpuMs(child.pid!);
        const spent = cpu !== null && cpuAtStart !== null ? cpu - cpuAtStart : (performance.now() - wallAtStart) / 4;
        if (spent <= bound) return;
        failures.push(`${current}: no result after ${bound.toFixed(0)} ms of CPU time`);
        finished.push(current);
        current = null;
        child.kill("SIGKILL");
      }, 50);
      child.stderr.on("data", (d) => (stderr += d));
      child.stdout.on("data", (d) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (!line.startsWith("{")) continue;
          const msg = JSON.parse(line) as { start?: string; done?: string; ms?: number; outcome?: string };
          if (msg.start) {
            current = msg.start;
            bound = boundFor(PATHOLOGICAL[msg.start]!());
            cpuAtStart = cpuMs(child.pid!);
            wallAtStart = performance.now();
          } else if (msg.done) {
            current = null;
            finished.push(msg.done);
            timings.push(`${msg.done}: ${msg.ms!.toFixed(0)} ms`);
            if (msg.outcome !== "ok") failures.push(`${msg.done}: ${msg.outcome}`);
          }
        }
      });
      child.on("exit", (code, signal) => {
        clearInterval(watch);
        if (signal !== "SIGKILL" && code !== 0) {
          failures.push(`the child process failed (${code ?? signal}) at ${current ?? "start"}: ${stderr.slice(0, 500)}`);
          if (current) finished.push(current);
          else finished.push(...rest);
        }
        resolve(finished);
      });
    });
    rest = rest.filter((n) => !done.includes(n));
  }
  return { failures, timings };
}

// ---- the tests ---------------------------------------------------------------------------

if (process.env["RTK_FUZZ_CHILD"]) {
  runChild(JSON.parse(process.env["RTK_FUZZ_CHILD"]) as string[]);
} else {
  test("random strings of any characters: a result, never an exception", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), (s) => check(s, SMALL_BOUND_MS)),
      { numRuns: 1500 },
    );
  });

  test("random strings of shell characters: a result, never an exception", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...SHELLISH), { maxLength: 80 }).map((xs) => xs.join("")),
        (s) => check(s, SMALL_BOUND_MS),
      ),
      { numRuns: 3000 },
    );
  });

  const skip = corpusAvailable() ? false : "corpus not found (../shared/corpus)";
  test("mutated corpus inputs: a result, never an exception", { skip }, () => {
    const inputs = corpusInputs()
      .map((i) => i.src)
      .filter((s) => s.length > 0);
    const inject = fc.constantFrom("'", '"', "`", "(", ")", "$(", "${", "}", "<<E\n", "<<-'E'\n", "\nE\n", "<<<", "\\", "\n", "#", "[[", "((", "|", ";;", "&");
    const mutation = fc.oneof(
      fc.tuple(fc.constant("delete" as const), fc.nat(), fc.nat(8)),
      fc.tuple(fc.constant("insert" as const), fc.nat(), inject),
      fc.tuple(fc.constant("insert" as const), fc.nat(), fc.string({ unit: "binary", maxLength: 4 })),
      fc.tuple(fc.constant("duplicate" as const), fc.nat(), fc.nat(12)),
      fc.tuple(fc.constant("swap" as const), fc.nat(), fc.nat()),
    );
    const mutated = fc.tuple(fc.nat(inputs.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([i, ms]) => {
      let s = inputs[i]!;
      for (const m of ms) {
        const at = m[1] % (s.length + 1);
        switch (m[0]) {
          case "delete":
            s = s.slice(0, at) + s.slice(at + m[2]);
            break;
          case "insert":
            s = s.slice(0, at) + m[2] + s.slice(at);
            break;
          case "duplicate":
            s = s.slice(0, at + m[2]) + s.slice(at, at + m[2]) + s.slice(at + m[2]);
            break;
          case "swap": {
            const b = m[2] % (s.length + 1);
            const [x, y] = at < b ? [at, b] : [b, at];
            const len = Math.min(4, y - x);
            s = s.slice(0, x) + s.slice(y, y + len) + s.slice(x + len, y) + s.slice(x, x + len) + s.slice(y + len);
            break;
          }
        }
      }
      return s;
    });
    fc.assert(
      fc.property(mutated, (s) => check(s, SMALL_BOUND_MS + s.length * 0.1)),
      { numRuns: 3000 },
    );
  });

  test("pathological inputs: a result within a generous time bound", { timeout: 30 * 60_000 }, async () => {
    const { failures, timings } = await runPathological(Object.keys(PATHOLOGICAL));
    assert.deepEqual(failures, [], `timings:\n${timings.join("\n")}`);
  });
}
