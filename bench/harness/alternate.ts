// Whole-process timing: a command and its baseline, alternated (A B A B …), so
// that drift in machine load hits both alike; the ratio of medians is the figure.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { summarize, type Stats } from "./stats.js";

export interface Command {
  label: string;
  argv: string[];
  cwd?: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** Exit statuses that count as success (default: 0 only). */
  ok?: readonly number[];
}

export interface Alternation {
  a: Stats;
  b: Stats;
  /** median(a) / median(b). */
  ratio: number;
}

/** Runs the command once; a failing run is an error, not a timing. Returns µs. */
export function runTimed(cmd: Command): number {
  const t0 = performance.now();
  const r = spawnSync(cmd.argv[0]!, cmd.argv.slice(1), { cwd: cmd.cwd, input: cmd.input ?? "", encoding: "utf8", env: cmd.env ?? process.env });
  const us = (performance.now() - t0) * 1000;
  if (r.error) throw r.error;
  if (!(cmd.ok ?? [0]).includes(r.status ?? -1)) throw new Error(`\`${cmd.label}\` exited ${r.status}: ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
  return us;
}

export function alternate(a: Command, b: Command, opts: { warmupRounds: number; rounds: number }): Alternation {
  // Warm-up rounds fill the file cache; they are not timed.
  for (let i = 0; i < opts.warmupRounds; i++) {
    runTimed(a);
    runTimed(b);
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    ta.push(runTimed(a));
    tb.push(runTimed(b));
  }
  const sa = summarize(ta);
  const sb = summarize(tb);
  return { a: sa, b: sb, ratio: sa.median / sb.median };
}
