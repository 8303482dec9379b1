// Running a tool: the exact argv (never a shell string), stdin inherited, the
// child's exit code kept (128+n for a signal, 127/126 when it cannot start),
// SIGINT/SIGTERM/SIGHUP forwarded. A routed run reads both streams as they come,
// feeds the filter line by line and prints its compact form, or the raw output
// when the filter fails, does not recognise the output, or would not be shorter.
import { constants as osConstants } from "node:os";
import { StringDecoder } from "node:string_decoder";
import type { Env } from "../config/hooks.js";
import type { CompactOutput, Filter, FilterInput, FilterRun, RecallRef } from "../filters/types.js";
import { stripAnsi } from "./ansi.js";
import { RawCapture, type Stream } from "./capture.js";
import { ensureRecallDir, newRecallId, pruneRecall, recallDir, writeRecall } from "./recall.js";

export interface RunOptions {
  env: Env;
  /** Print the raw output, unfiltered (--raw, RTK_RAW=1). */
  raw: boolean;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** What a shell prints when a command cannot start, and the status it exits with. */
function startFailure(cmd: string, code: string | undefined): { status: number; message: string } | null {
  if (code === "ENOENT") return { status: 127, message: `rtk: ${cmd}: command not found` };
  if (code === "EACCES" || code === "EISDIR" || code === "ENOEXEC") return { status: 126, message: `rtk: ${cmd}: Permission denied` };
  return null;
}

function exitStatus(r: { exitCode?: number | undefined; signal?: string | undefined }): number {
  if (typeof r.exitCode === "number") return r.exitCode;
  if (r.signal) return 128 + ((osConstants.signals as Record<string, number>)[r.signal] ?? 0);
  return 1;
}

/** Forwards the signals rtk receives to the child while it runs. */
function forwardSignals(child: { kill(sig: NodeJS.Signals): boolean }): () => void {
  const handlers = FORWARDED.map((sig) => {
    const h = () => {
      child.kill(sig);
    };
    process.on(sig, h);
    return [sig, h] as const;
  });
  return () => handlers.forEach(([sig, h]) => process.off(sig, h));
}

/** A run with inherited stdio: what rtk does for argv it has no route for, `rtk proxy`, and --raw. */
export async function runPassthrough(argv: readonly string[], env: Env): Promise<number> {
  const { execa } = await import("execa");
  const child = execa(argv[0]!, argv.slice(1), { stdio: "inherit", reject: false, env: env as NodeJS.ProcessEnv, extendEnv: false, windowsHide: true });
  const stop = forwardSignals(child);
  try {
    const r = await child;
    const fail = r.failed && r.exitCode === undefined && !r.signal ? startFailure(argv[0]!, (r as { code?: string }).code) : null;
    if (fail) {
      process.stderr.write(fail.message + "\n");
      return fail.status;
    }
    return exitStatus(r);
  } finally {
    stop();
  }
}

export async function runFiltered(filter: Filter, input: FilterInput, opts: RunOptions): Promise<number> {
  const argv = filter.prepare ? filter.prepare(input) : input.argv;
  const capture = new RawCapture();
  let recallId: string | null = null;
  let recallDirPath: string | null = null;
  const recall: RecallRef = {
    id() {
      if (recallId === null) {
        try {
          recallDirPath = recallDir(opts.env);
          ensureRecallDir(recallDirPath);
          recallId = newRecallId(recallDirPath);
        } catch {
          recallDirPath = null;
          recallId = "unavailable";
        }
      }
      return recallId;
    },
  };
  const streaming = filter.streaming?.(input) ?? false;
  const out = new Output();
  let run: FilterRun | null = null;
  let failed = false;
  try {
    run = filter.start(input, {
      recall,
      emit: { out: (l) => out.write(1, l + "\n"), err: (l) => out.write(2, l + "\n") },
    });
  } catch {
    failed = true;
  }
  const feed = (s: "out" | "err", line: string) => {
    if (failed || !run) return;
    try {
      run.line(s, stripAnsi(line));
    } catch {
      failed = true;
    }
  };

  const { execa } = await import("execa");
  const child = execa(argv[0]!, argv.slice(1), {
    stdin: "inherit",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    encoding: "buffer",
    env: opts.env as NodeJS.ProcessEnv,
    extendEnv: false,
    windowsHide: true,
  });
  const stop = forwardSignals(child);
  const splitters = [new LineSplitter((l) => feed("out", l)), new LineSplitter((l) => feed("err", l))];
  const onData = (s: Stream) => (b: Buffer) => {
    capture.add(s, b);
    splitters[s]!.push(b);
    // A streaming filter that failed hands the rest over raw, as it arrives.
    if (failed && streaming) out.write(s === 0 ? 1 : 2, b);
  };
  child.stdout?.on("data", onData(0));
  child.stderr?.on("data", onData(1));
  let status: number;
  try {
    const r = await child;
    const fail = r.failed && r.exitCode === undefined && !r.signal ? startFailure(argv[0]!, (r as { code?: string }).code) : null;
    if (fail) {
      process.stderr.write(fail.message + "\n");
      capture.dispose();
      return fail.status;
    }
    status = exitStatus(r);
  } finally {
    stop();
  }
  for (const sp of splitters) sp.end();

  let compact: CompactOutput | null = null;
  if (!failed && run) {
    try {
      compact = run.end(status);
    } catch {
      compact = null;
    }
  }
  const size = compact ? Buffer.byteLength(compact.stdout) + Buffer.byteLength(compact.stderr) : 0;
  if (streaming) {
    if (compact) {
      out.write(1, compact.stdout);
      out.write(2, compact.stderr);
    }
  } else if (opts.raw || compact === null || size >= capture.total) {
    for (const [s, b] of capture.chunks()) await out.write(s === 0 ? 1 : 2, b);
  } else {
    out.write(1, compact.stdout);
    out.write(2, compact.stderr);
  }
  await out.flush();

  if ((recallId !== null || status !== 0) && capture.total > 0) saveRecall();
  capture.dispose();
  return status;

  function saveRecall(): void {
    try {
      if (recallId === null) recall.id();
      if (recallDirPath === null || recallId === null || recallId === "unavailable") return;
      writeRecall(recallDirPath, { id: recallId, argv: [...input.argv], exitCode: status, route: input.route.id, time: Date.now() }, (write) => {
        for (const [, b] of capture.chunks()) if (!write(b)) break;
      });
      pruneRecall(recallDirPath);
    } catch {
      // The recall store never changes the command's output or exit code.
    }
  }
}

/** Splits a byte stream into lines (the last `\r` segment of a line is what a terminal would show). */
class LineSplitter {
  private decoder = new StringDecoder("utf8");
  private carry = "";

  constructor(private readonly emit: (line: string) => void) {}

  push(b: Buffer): void {
    const text = this.carry + this.decoder.write(b);
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      this.emit(terminalLine(text.slice(start, nl)));
      start = nl + 1;
    }
    this.carry = text.slice(start);
  }

  end(): void {
    const rest = this.carry + this.decoder.end();
    if (rest) this.emit(terminalLine(rest));
    this.carry = "";
  }
}

function terminalLine(line: string): string {
  const l = line.endsWith("\r") ? line.slice(0, -1) : line;
  const cr = l.lastIndexOf("\r");
  return cr >= 0 ? l.slice(cr + 1) : l;
}

/** Writes to stdout/stderr in order, waiting for a full pipe to drain. */
class Output {
  private pending: Promise<void> = Promise.resolve();

  write(fd: 1 | 2, data: string | Buffer): Promise<void> {
    if (!data.length) return this.pending;
    const stream = fd === 1 ? process.stdout : process.stderr;
    this.pending = this.pending.then(
      () =>
        new Promise<void>((resolve) => {
          if (stream.write(data)) resolve();
          else stream.once("drain", () => resolve());
        }),
    );
    return this.pending;
  }

  flush(): Promise<void> {
    return this.pending;
  }
}
