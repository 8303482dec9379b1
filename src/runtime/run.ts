// Running a tool: the exact argv (never a shell string), stdin inherited, the
// child's exit code kept (128+n for a signal, 127/126 when it cannot start),
// SIGINT/SIGTERM/SIGHUP forwarded. A routed run reads both streams as they come,
// feeds the filter line by line and prints its compact form, or the raw output
// when the filter fails, does not recognise the output, or would not be shorter.
import { execa } from "execa";
import { constants as osConstants } from "node:os";
import { StringDecoder } from "node:string_decoder";
import type { Env } from "../config/hooks.js";
import type { Limits } from "../filters/budget.js";
import type { CompactOutput, Filter, FilterInput, FilterRun, LineForm, RecallRef } from "../filters/types.js";
import { diskProbe } from "../fs/probe.js";
import { AnsiByteStripper, stripAnsi } from "../text/ansi.js";
import { RawCapture, type Stream } from "./capture.js";
import { MAX_RECALL_BYTES, RunRecall, type RecallSettings } from "./recall.js";

export type { RecallSettings };

export interface RunOptions {
  env: Env;
  /** Print the raw output, unfiltered (--raw, RTK_RAW=1). */
  raw: boolean;
  /** The config's `[recall]`: whether raw output is kept, and for how long (default: kept, 200 entries, 7 days). */
  recall?: RecallSettings;
  /** The config's omission budgets for this route (the defaults when not given). */
  limits?: Limits;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** What a shell prints when a command cannot start, and the status it exits with. */
function startFailure(cmd: string, code: string | undefined): { status: number; message: string } | null {
  if (code === "ENOENT") return { status: 127, message: `rtk: ${cmd}: ${cmd.includes("/") ? "No such file or directory" : "command not found"}` };
  if (code === "EACCES" || code === "EISDIR" || code === "ENOEXEC") return { status: 126, message: `rtk: ${cmd}: Permission denied` };
  return null;
}

function exitStatus(r: { exitCode?: number | undefined; signal?: string | undefined }): number {
  if (typeof r.exitCode === "number") return r.exitCode;
  if (r.signal) return 128 + ((osConstants.signals as Record<string, number>)[r.signal] ?? 0);
  return 1;
}

/**
 * Catches SIGINT/SIGTERM/SIGHUP from before the child starts (so none can kill
 * rtk and orphan it) and forwards them once it exists; `stop` restores them.
 */
function signalForwarder(): { attach(child: { kill(sig: NodeJS.Signals): boolean }): void; stop(): void } {
  let child: { kill(sig: NodeJS.Signals): boolean } | null = null;
  const held: NodeJS.Signals[] = [];
  const handlers = FORWARDED.map((sig) => {
    const h = () => {
      if (child) child.kill(sig);
      else held.push(sig);
    };
    process.on(sig, h);
    return [sig, h] as const;
  });
  return {
    attach(c) {
      child = c;
      for (const sig of held.splice(0)) c.kill(sig);
    },
    stop: () => handlers.forEach(([sig, h]) => process.off(sig, h)),
  };
}

/**
 * Builds rtk's stdout and stderr streams before a child shares their
 * descriptors. Node opens a pipe non-blocking when it first builds the stream,
 * and the flag belongs to the pipe, not to the process: built while the child
 * runs, it made the child's writes fail with EAGAIN once the reader lagged. A
 * child started afterwards gets its standard descriptors back in blocking mode.
 */
function openStdio(): void {
  void process.stdout;
  void process.stderr;
}

/** A run with inherited stdio: what rtk does for argv it has no route for, `rtk proxy`, and --raw. */
export async function runPassthrough(argv: readonly string[], env: Env): Promise<number> {
  openStdio();
  const signals = signalForwarder();
  try {
    const child = execa(argv[0]!, argv.slice(1), { stdio: "inherit", reject: false, env: toolEnv(env), extendEnv: false, windowsHide: true });
    signals.attach(child);
    const r = await child;
    const fail = r.failed && r.exitCode === undefined && !r.signal ? startFailure(argv[0]!, (r as { code?: string }).code) : null;
    if (fail) {
      process.stderr.write(fail.message + "\n");
      return fail.status;
    }
    return exitStatus(r);
  } finally {
    signals.stop();
  }
}

export async function runFiltered(filter: Filter, input: FilterInput, opts: RunOptions): Promise<number> {
  if (filter.inherits?.(input, diskProbe)) return runPassthrough(filter.prepare ? filter.prepare(input) : input.argv, opts.env);
  const signals = signalForwarder();
  // A sensitive filter's output is never kept: its handles say "unavailable".
  const entry = new RunRecall(opts.env, opts.recall, !filter.sensitive);
  try {
    return await filtered(filter, input, opts, signals, entry);
  } finally {
    entry.close();
    signals.stop();
  }
}

async function filtered(filter: Filter, input: FilterInput, opts: RunOptions, signals: ReturnType<typeof signalForwarder>, entry: RunRecall): Promise<number> {
  const argv = filter.prepare ? filter.prepare(input) : input.argv;
  const streaming = filter.streaming?.(input) ?? false;
  /** How lines reach the filter: a patch the tool colours is read as text from its first coloured line on. */
  let form = filter.lineForm?.(input) ?? "terminal";
  const verbatim = form === "verbatim";
  // A streaming run (follow, watch) may go on for hours: keep only what the recall store can hold.
  const capture = new RawCapture(undefined, streaming ? MAX_RECALL_BYTES : Infinity);
  const recall: RecallRef = { id: () => entry.id() };
  const out = new Output();
  let run: FilterRun | null = null;
  /** The filter failed: a buffered run prints the raw output at the end, a streaming one hands the rest over raw. */
  let failed = false;
  /** The raw output could not be kept: everything is passed through as it comes. */
  let passing = false;
  try {
    run = filter.start(input, {
      recall,
      files: diskProbe,
      ...(opts.limits ? { limits: opts.limits } : {}),
      emit: { out: (l) => void out.write(1, l + "\n"), err: (l) => void out.write(2, l + "\n") },
    });
  } catch {
    failed = true;
  }
  const fd = (s: Stream): 1 | 2 => (s === 0 ? 1 : 2);
  /** Lines longer than the splitter holds: each reached the filter cut. */
  let overlong = 0;
  const feed = (s: Stream, raw: string, ended: boolean, plain: boolean, cut: number) => {
    if (passing) return;
    if (cut) overlong++;
    if (!failed && run) {
      try {
        // A tool that colours its output starts a line with an escape sequence: from there on, a patch's escapes are colour.
        if (form === "patch" && !plain && raw.startsWith("\x1b")) form = "text";
        run.line(s === 0 ? "out" : "err", plain ? raw : formed(raw, form), cut || undefined);
        return;
      } catch {
        failed = true;
      }
    }
    // From the line the streaming filter failed on, the raw lines follow as they come.
    if (streaming) void out.write(fd(s), ended ? raw + "\n" : raw);
  };

  const child = execa(argv[0]!, argv.slice(1), {
    stdin: "inherit",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    encoding: "buffer",
    env: toolEnv(opts.env),
    extendEnv: false,
    windowsHide: true,
  });
  signals.attach(child);
  // rtk ending first (its reader went, a crash) leaves no child behind.
  const orphanGuard = () => void child.kill("SIGTERM");
  process.once("exit", orphanGuard);
  const splitters = [new LineSplitter((l, e, p, c) => feed(0, l, e, p, c)), new LineSplitter((l, e, p, c) => feed(1, l, e, p, c))];
  const onData = (s: Stream) => (b: Buffer) => {
    if (passing) return void out.write(fd(s), b);
    if (!capture.add(s, b)) {
      // The raw output can no longer be kept (no room for the spill file): print what
      // was kept, then everything else as it comes; the filter is out of the run.
      passing = true;
      for (const [cs, cb] of capture.chunks()) void out.write(fd(cs), cb);
      return;
    }
    splitters[s]!.push(b);
  };
  child.stdout?.on("data", onData(0));
  child.stderr?.on("data", onData(1));
  const r = await child;
  process.off("exit", orphanGuard);
  const fail = r.failed && r.exitCode === undefined && !r.signal ? startFailure(argv[0]!, (r as { code?: string }).code) : null;
  if (fail) {
    process.stderr.write(fail.message + "\n");
    capture.dispose();
    return fail.status;
  }
  const status = exitStatus(r);
  const keep = () =>
    entry.save({ argv: [...input.argv], exitCode: status, route: input.route.id, time: Date.now() }, (write) => {
      for (const [, b] of capture.chunks()) if (!write(b)) break;
    });
  if (passing) {
    await out.flush();
    // A handle already printed names an entry: it gets what was kept.
    if (entry.reserved !== null) keep();
    capture.dispose();
    return status;
  }
  for (const sp of splitters) sp.end();

  // The output is whole: a marker printed from here on may name an identical entry kept by an earlier run.
  if (!streaming) entry.complete(input.argv, status, () => (function* () {
    for (const [, b] of capture.chunks()) yield b;
  })());
  // Lines are text: content whose bytes are not (invalid UTF-8, NUL) would come out changed, so it passes as it is.
  const asBytes = verbatim && splitters.some((sp) => sp.binary);
  let compact: CompactOutput | null = null;
  if (!failed && run && !asBytes) {
    try {
      compact = run.end(status);
    } catch {
      failed = true;
    }
  }
  const size = compact ? Buffer.byteLength(compact.stdout) + Buffer.byteLength(compact.stderr) : 0;
  if (filter.sensitive && failed) {
    process.stderr.write(`rtk: the ${filter.id} filter failed; its output is withheld because it may hold secrets (\`rtk proxy ${argv.join(" ")}\` prints it)\n`);
  } else if (filter.sensitive && compact && !streaming) {
    void out.write(1, compact.stdout);
    void out.write(2, compact.stderr);
  } else if (streaming) {
    if (compact) {
      void out.write(1, compact.stdout);
      void out.write(2, compact.stderr);
    }
  } else if (opts.raw || compact === null || size >= capture.total) {
    // The raw output stands in for a compact form: without escape sequences, unless it is content or asked for raw.
    const plainBytes = !opts.raw && !verbatim;
    const strippers = [new AnsiByteStripper(), new AnsiByteStripper()];
    for (const [s, b] of capture.chunks()) await out.write(fd(s), plainBytes ? strippers[s]!.push(b) : b);
    if (plainBytes) for (const s of [0, 1] as const) await out.write(fd(s), strippers[s]!.end());
  } else {
    void out.write(1, compact.stdout);
    void out.write(2, compact.stderr);
    // What the compact form was made from is not all there was: say so, and where it all is.
    if (overlong && !verbatim) void out.write(2, `rtk: ${overlong} ${overlong === 1 ? "line" : "lines"} longer than ${MAX_LINE / (1 << 20)} MiB reached the filter cut; the whole output: [rtk recall ${recall.id()}]\n`);
    if (capture.total > MAX_RECALL_BYTES && entry.reserved !== null) {
      void out.write(2, `rtk: [rtk recall ${entry.reserved}] holds the first ${MAX_RECALL_BYTES / (1 << 20)} MiB of the ${(capture.total / (1 << 20)).toFixed(1)} MiB output\n`);
    }
  }
  await out.flush();

  // An entry whose handle was printed is filled whatever the run kept.
  if ((entry.reserved !== null || (status !== 0 && capture.total > 0)) && !filter.sensitive) keep();
  capture.dispose();
  return status;
}

/** Past this, a line without its end is handed over in pieces (a 100 MB line must not be held). */
const MAX_LINE = 1 << 20;

/**
 * Splits a byte stream into lines; `ended` says whether the line had its
 * newline, `plain` that it holds no CR and no escape byte (most chunks hold
 * none, and a byte search per chunk is cheaper than two searches per line).
 * A line longer than MAX_LINE is handed over as its first MAX_LINE characters,
 * with `cut` the count of those dropped (memory holds no more than that).
 */
class LineSplitter {
  private decoder = new StringDecoder("utf8");
  private carry = "";
  private carryPlain = true;
  /** Inside a line past MAX_LINE: the characters dropped so far, or -1. */
  private dropped = -1;
  /**
   * The bytes are not all UTF-8 text without NULs: some reached the filter as
   * U+FFFD (a U+FFFD of the text's own counts too; printing its bytes is as exact).
   */
  binary = false;

  constructor(private readonly emit: (line: string, ended: boolean, plain: boolean, cut: number) => void) {}

  push(b: Buffer): void {
    const plain = b.indexOf(0x0d) < 0 && b.indexOf(0x1b) < 0 && b.indexOf(0x9b) < 0;
    let fresh = this.decoder.write(b);
    this.binary ||= b.indexOf(0) >= 0 || fresh.includes("\ufffd");
    if (this.dropped >= 0) {
      const nl = fresh.indexOf("\n");
      this.carryPlain &&= plain;
      if (nl < 0) {
        this.dropped += fresh.length;
        return;
      }
      this.emit(this.carry, true, this.carryPlain, this.dropped + nl);
      this.carry = "";
      this.carryPlain = true;
      this.dropped = -1;
      fresh = fresh.slice(nl + 1);
    }
    const text = this.carry + fresh;
    let start = 0;
    let linePlain = plain && this.carryPlain;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      this.emit(text.slice(start, nl), true, linePlain, 0);
      linePlain = plain;
      start = nl + 1;
    }
    this.carry = text.slice(start);
    this.carryPlain = linePlain;
    if (this.carry.length > MAX_LINE) {
      this.dropped = this.carry.length - MAX_LINE;
      this.carry = this.carry.slice(0, MAX_LINE);
    }
  }

  end(): void {
    const tail = this.decoder.end();
    this.binary ||= tail.includes("\ufffd");
    if (this.dropped >= 0) this.emit(this.carry, false, false, this.dropped + tail.length);
    else if (this.carry + tail) this.emit(this.carry + tail, false, false, 0);
    this.carry = "";
    this.carryPlain = true;
    this.dropped = -1;
  }
}

/** The environment a tool runs with: the caller's, without the launcher's own variables (nor the PWD its shell added). */
function toolEnv(env: Env): NodeJS.ProcessEnv {
  if (!("RTK_SELF" in env) && !("RTK_UNSET_PWD" in env)) return env as NodeJS.ProcessEnv;
  const { RTK_SELF: _, RTK_UNSET_PWD: unset, ...rest } = env;
  const out = rest as NodeJS.ProcessEnv;
  if (unset === "1") delete out["PWD"];
  return out;
}

/** A raw line as the filter's line form has it (see LineForm). */
function formed(raw: string, form: LineForm): string {
  switch (form) {
    case "terminal":
      return stripAnsi(terminalLine(raw));
    case "text":
      return stripAnsi(raw);
    case "patch":
      return raw;
    case "verbatim":
      return raw;
  }
}

/** What a terminal shows of a line: a CR at its end dropped, only the last CR-separated segment. */
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
