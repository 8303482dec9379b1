// One whole-process run with its wall time and peak resident memory. GNU time
// reads the peak from the kernel (getrusage of the waited child, which for the
// launcher is the Node process it execs into); without it, /proc/<pid>/status
// is sampled, whose VmHWM is the peak so far (the last sample before exit is
// at most one interval early).
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";

export interface Measured {
  status: number;
  stderr: string;
  /** Wall time of the whole run, µs. */
  wallUs: number;
  peakRssBytes: number;
  /** User + system CPU time of the run, µs (GNU time only, to its 10 ms). */
  cpuUs?: number;
  /** How the peak was read. */
  method: "/usr/bin/time -v" | "/proc sampling";
}

export interface RunSpec {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where stdout goes (a file, so that a huge output costs nothing to keep). */
  stdoutPath: string;
  /** A file to read stdin from (default: none). */
  stdinPath?: string;
  /** Scratch file for GNU time's report. */
  scratch: string;
}

const GNU_TIME = "/usr/bin/time";

export async function runMeasured(spec: RunSpec): Promise<Measured> {
  const out = openSync(spec.stdoutPath, "w");
  const input = spec.stdinPath === undefined ? "ignore" : openSync(spec.stdinPath, "r");
  try {
    return existsSync(GNU_TIME) && gnuTimeWorks() ? withGnuTime(spec, input, out) : await withProcSampling(spec, input, out);
  } finally {
    closeSync(out);
    if (input !== "ignore") closeSync(input);
  }
}

let gnuTime: boolean | undefined;
/** BusyBox and BSD `time` have no -v. */
function gnuTimeWorks(): boolean {
  gnuTime ??= /Maximum resident set size/.test(spawnSync(GNU_TIME, ["-v", "true"], { encoding: "utf8" }).stderr ?? "");
  return gnuTime;
}

function withGnuTime(spec: RunSpec, input: number | "ignore", out: number): Measured {
  const t0 = performance.now();
  const r = spawnSync(GNU_TIME, ["-v", "-o", spec.scratch, ...spec.argv], { cwd: spec.cwd, env: spec.env, stdio: [input, out, "pipe"], encoding: "utf8", maxBuffer: 64 << 20 });
  const wallUs = (performance.now() - t0) * 1000;
  if (r.error) throw r.error;
  const report = readFileSync(spec.scratch, "utf8");
  rmSync(spec.scratch, { force: true });
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  if (!kb) throw new Error(`no peak RSS in the report of ${GNU_TIME}: ${report.slice(0, 300)}`);
  const seconds = (what: string) => Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(report)?.[1] ?? NaN);
  const cpu = (seconds("User") + seconds("System")) * 1e6;
  // GNU time exits with the command's status.
  return { status: r.status ?? 128, stderr: r.stderr, wallUs, peakRssBytes: Number(kb[1]) * 1024, ...(Number.isFinite(cpu) && { cpuUs: cpu }), method: "/usr/bin/time -v" };
}

function withProcSampling(spec: RunSpec, input: number | "ignore", out: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(spec.argv[0]!, spec.argv.slice(1), { cwd: spec.cwd, env: spec.env, stdio: [input, out, "pipe"] });
    let stderr = "";
    let peak = 0;
    child.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
    const sample = () => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
      } catch {
        // gone between two samples
      }
    };
    const timer = setInterval(sample, 10);
    child.on("error", (e) => {
      clearInterval(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearInterval(timer);
      const wallUs = (performance.now() - t0) * 1000;
      resolve({ status: code ?? (signal ? 128 : 1), stderr, wallUs, peakRssBytes: peak, method: "/proc sampling" });
    });
  });
}
