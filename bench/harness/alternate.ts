// Whole-process timing: a command and its baseline, alternated (A B A B …), so
// that drift in machine load hits both alike; the ratio of medians is the figure.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
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

/**
 * CPU time (user + sys) of this process's waited-for children so far, µs, from
 * /proc/self/stat (in clock ticks: a run's share is coarse, the sum over many
 * runs exact to one tick); null where there is no /proc.
 */
export function childrenCpuUs(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 (cutime, cstime), counted from 1 with pid and comm first.
    return ((Number(fields[13]) + Number(fields[14])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux that rtk's CI runs on. */
const CLOCK_TICKS = 100;

export interface RoundRobinResult {
  wall: Stats;
  /** Mean CPU time of a run (user + sys), µs; null without /proc. */
  cpuMean: number | null;
}

/**
 * Several commands in turn (A B C A B C …), so drift in machine load hits all
 * alike; each one's wall-time stats and its mean CPU time. CPU time is what a
 * loaded machine moves least: the wall time of a process start on two shared
 * cores varies by a quarter from one run to the next, its CPU time far less.
 */
export function roundRobin(cmds: readonly Command[], opts: { warmupRounds: number; rounds: number }): RoundRobinResult[] {
  for (let i = 0; i < opts.warmupRounds; i++) for (const c of cmds) runTimed(c);
  const times = cmds.map((): number[] => []);
  const cpu = cmds.map(() => 0);
  let cpuOk = childrenCpuUs() !== null;
  for (let i = 0; i < opts.rounds; i++)
    cmds.forEach((c, j) => {
      const before = childrenCpuUs();
      times[j]!.push(runTimed(c));
      const after = childrenCpuUs();
      if (before === null || after === null) cpuOk = false;
      else cpu[j]! += after - before;
    });
  return times.map((t, j) => ({ wall: summarize(t), cpuMean: cpuOk ? cpu[j]! / opts.rounds : null }));
}
