// Running a tool: the exact argv (never a shell string), stdin inherited, the
// child's exit code kept (128+n for a signal, 127/126 when it cannot start),
// SIGINT/SIGTERM/SIGHUP forwarded. A routed run reads both streams as they come,
// feeds the filter line by line and prints its compact form, or the raw output
// when the filter fails, does not recognise the output, or would not be shorter.
import { execa } from "execa";
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { join } from "node:path";
import type { Env } from "../config/hooks.js";
import type { Limits } from "../filters/budget.js";
import type { Filter, FilterInput, RecallRef } from "../filters/types.js";
import { FeatureCounter } from "../accounting/features.js";
import { diskProbe } from "../fs/probe.js";
import { AnsiByteStripper } from "../text/ansi.js";
import { RawCapture, type Stream } from "./capture.js";
import { chooseOutput, type OutputChoice, overlongNote, partialRecallNote, withheldNote } from "./choose-output.js";
import { FilterFeed } from "./filter-feed.js";
import { LineSplitter, MAX_LINE, RawLineNumbers } from "./line-splitter.js";
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
  /** Raw output shorter than this many bytes prints as the tool printed it (the config's `limits.passthrough_tokens`; 0: never). */
  passthroughBytes?: number;
  /** Told what a filtered run printed, for the accounting. */
  onOutput?: (o: RunOutput) => void;
}

/** What a filtered run read and printed, as the accounting records it. */
export interface RunOutput {
  rawBytes: number;
  outBytes: number;
  rawFeatures: number[];
  outFeatures: number[];
  /** The raw output was printed in place of a compact form (not when it was short enough to print as it is). */
  fellBack: boolean;
  /** Items the compact form left out, as its `+N more` markers count them. */
  omitted: number;
  /** The handle rtk printed (null when it printed none). */
  recallId: string | null;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** What a shell prints when a command cannot start, and the status it exits with. */
function startFailure(cmd: string, code: string | undefined, near?: (cmd: string) => string | null): { status: number; message: string } | null {
  if (code === "ENOENT") {
    if (cmd.includes("/")) return { status: 127, message: `rtk: ${cmd}: No such file or directory` };
    const guess = near?.(cmd);
    return { status: 127, message: `rtk: ${cmd}: command not found${guess ? ` (did you mean \`rtk ${guess}\`?)` : ""}` };
  }
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

/**
 * A run with inherited stdio: what rtk does for argv it has no route for, `rtk proxy`, and --raw.
 * `near`: for a command that is not found, the word the user may have meant (an rtk command, a routed tool).
 */
export async function runPassthrough(argv: readonly string[], env: Env, near?: (cmd: string) => string | null): Promise<number> {
  openStdio();
  const signals = signalForwarder();
  try {
    const child = execa(argv[0]!, argv.slice(1), { stdio: "inherit", reject: false, env: toolEnv(env, argv[0]!), extendEnv: false, windowsHide: true });
    signals.attach(child);
    const r = await child;
    const fail = r.failed && r.exitCode === undefined && !r.signal ? startFailure(argv[0]!, (r as { code?: string }).code, near) : null;
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
  const form = filter.lineForm?.(input) ?? "terminal";
  const verbatim = form === "verbatim";
  // A streaming run (follow, watch) may go on for hours: keep only what the recall store can hold.
  const capture = new RawCapture(undefined, streaming ? MAX_RECALL_BYTES : Infinity);
  const raw = () => rawChunks(capture);
  const meta = (status: number) => ({ argv: [...input.argv], exitCode: status, route: input.route.id, time: Date.now() });
  const recall: RecallRef = { id: () => entry.id() };
  const out = new Output();
  const numbers = new RawLineNumbers();
  const feed = new FilterFeed(filter, input, form, streaming ? out : null, {
    recall,
    files: diskProbe,
    ...(opts.limits ? { limits: opts.limits } : {}),
    emit: { out: (l) => void out.own(1, l + "\n"), err: (l) => void out.own(2, l + "\n") },
    rawLine: () => numbers.current,
  });
  const { r, splitters, passing } = await pipeToFeed(argv, opts.env, signals, streaming, capture, numbers, feed, out);
  const fail = r.failed && r.exitCode === undefined && !r.signal ? startFailure(argv[0]!, (r as { code?: string }).code) : null;
  if (fail) {
    await out.own(2, fail.message + "\n");
    if (opts.onOutput) opts.onOutput(runOutput({ print: "nothing" }, capture, out, null));
    capture.dispose();
    return fail.status;
  }
  const status = exitStatus(r);
  if (passing) {
    await out.flush();
    // A handle already printed names an entry: it gets what was kept.
    entry.keep(meta(status), raw);
    if (opts.onOutput) opts.onOutput(runOutput({ print: "raw", plain: false }, capture, out, entry.handedOut));
    capture.dispose();
    return status;
  }
  splitters.forEach((sp, s) => {
    numbers.ending(s as 0 | 1);
    sp.end();
  });

  // The output is whole: a marker printed from here on may name an identical entry kept by an earlier run.
  if (!streaming) entry.complete(input.argv, status, raw);
  // Lines are text: content whose bytes are not (invalid UTF-8, NUL) would come out changed, so it passes as it is.
  const compact = verbatim && splitters.some((sp) => sp.binary) ? null : feed.end(status);
  const choice = chooseOutput({
    sensitive: filter.sensitive ?? false,
    streaming,
    raw: opts.raw,
    failed: feed.failed,
    compact,
    rawBytes: capture.total,
    verbatim,
    overlong: feed.overlong,
    recallLimit: MAX_RECALL_BYTES,
    passthroughBytes: opts.passthroughBytes ?? 0,
  });
  await printChoice(choice, out, capture, () => recall.id(), entry, withheldNote(filter.id, argv));
  await out.flush();
  if (opts.onOutput) opts.onOutput(runOutput(choice, capture, out, entry.handedOut));

  // An entry whose handle was printed is filled whatever the run kept; a failed run's output is kept too.
  entry.keep(meta(status), raw, status !== 0 && capture.total > 0);
  capture.dispose();
  return status;
}

/**
 * Runs the tool, its output kept raw and split into lines for the feed, or passed on as
 * it comes where the feed lets a streamed stream through.
 */
async function pipeToFeed(
  argv: readonly string[],
  env: Env,
  signals: ReturnType<typeof signalForwarder>,
  streaming: boolean,
  capture: RawCapture,
  numbers: RawLineNumbers,
  feed: FilterFeed,
  out: Output,
) {
  /** The raw output could not be kept: everything is passed through as it comes. */
  let passing = false;

  const splitters = ([0, 1] as const).map(
    (s) =>
      new LineSplitter((l, ended, plain, cut) => {
        if (passing) return;
        numbers.line();
        feed.line(s, l, ended, plain, cut);
      }),
  );
  const r = await runPiped(argv, env, signals, (s, b) => {
    if (passing) return void out.write(fd(s), b);
    if (!capture.add(s, b)) {
      // The raw output can no longer be kept (no room for the spill file): print what
      // was kept, then everything else as it comes; the filter is out of the run.
      passing = true;
      for (const [cs, cb] of capture.chunks()) void out.write(fd(cs), cb);
      return;
    }
    numbers.chunk(s, b);
    // A streamed stream that is the program's own from now on: its bytes as they come.
    if (streaming && feed.passes(s)) {
      void out.write(fd(s), Buffer.concat([splitters[s]!.drain(), b]));
      return;
    }
    splitters[s]!.push(b);
  });
  return { r, splitters, passing };
}

/** Runs the tool with its stdout and stderr piped to `onData`, signals forwarded, no child left behind if rtk ends first. */
async function runPiped(argv: readonly string[], env: Env, signals: ReturnType<typeof signalForwarder>, onData: (s: Stream, b: Buffer) => void) {
  const child = execa(argv[0]!, argv.slice(1), {
    stdin: "inherit",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    encoding: "buffer",
    env: toolEnv(env, argv[0]!),
    extendEnv: false,
    windowsHide: true,
  });
  signals.attach(child);
  // rtk ending first (its reader went, a crash) leaves no child behind.
  const orphanGuard = () => void child.kill("SIGTERM");
  process.once("exit", orphanGuard);
  child.stdout?.on("data", (b: Buffer) => onData(0, b));
  child.stderr?.on("data", (b: Buffer) => onData(1, b));
  try {
    return await child;
  } finally {
    process.off("exit", orphanGuard);
  }
}

/** Prints what chooseOutput chose. `id` names the run's recall entry (asking reserves it). */
async function printChoice(choice: OutputChoice, out: Output, capture: RawCapture, id: () => string, entry: RunRecall, withheld: string): Promise<void> {
  switch (choice.print) {
    case "withheld":
      void out.own(2, withheld);
      break;
    case "nothing":
      break;
    case "raw": {
      // The raw output stands in for a compact form: without escape sequences, unless it is content or asked for raw.
      const strippers = [new AnsiByteStripper(), new AnsiByteStripper()];
      for (const [s, b] of capture.chunks()) await out.write(fd(s), choice.plain ? strippers[s]!.push(b) : b);
      if (choice.plain) for (const s of [0, 1] as const) await out.write(fd(s), strippers[s]!.end());
      break;
    }
    case "compact":
      if (choice.compact.before) void out.own(2, choice.compact.before);
      void out.own(1, choice.compact.stdout);
      void out.own(2, choice.compact.stderr);
      // What the compact form was made from is not all there was: say so, and where it all is.
      if (choice.overlong) void out.own(2, overlongNote(choice.overlong, MAX_LINE, id()));
      if (choice.partialRecall && entry.reserved !== null) void out.own(2, partialRecallNote(entry.reserved, MAX_RECALL_BYTES, capture.total));
  }
}

const fd = (s: Stream): 1 | 2 => (s === 0 ? 1 : 2);

/**
 * What the run printed, as the accounting records it: the bytes rtk wrote to
 * stdout and stderr (compact form, lines streamed, notes, or the raw output),
 * the items its markers count, and the handle it printed.
 */
function runOutput(choice: OutputChoice, capture: RawCapture, out: Output, handedOut: string | null): RunOutput {
  const raw = new FeatureCounter();
  for (const [, b] of capture.chunks()) raw.add(b);
  // A streaming run keeps only the start: the reports scale its features to rawBytes.
  return {
    rawBytes: capture.total,
    rawFeatures: raw.f,
    outBytes: out.bytes,
    outFeatures: out.features.f,
    fellBack: (choice.print === "raw" && !choice.short) || choice.print === "withheld",
    omitted: out.omitted,
    recallId: handedOut !== null && out.handles.has(handedOut) ? handedOut : null,
  };
}

function* rawChunks(capture: RawCapture): Generator<Buffer> {
  for (const [, b] of capture.chunks()) yield b;
}

/** The environment a tool runs with: the caller's, without the launcher's own variables. */
function toolEnv(env: Env, tool: string): NodeJS.ProcessEnv {
  const from = env["RTK_ENV_FROM"];
  if (from !== undefined) {
    const caller = callerEnv(from, env["RTK_SELF"], tool);
    if (caller) return caller;
  }
  if (!("RTK_SELF" in env) && from === undefined) return env as NodeJS.ProcessEnv;
  const { RTK_SELF: _, RTK_ENV_FROM: __, ...rest } = env;
  return rest as NodeJS.ProcessEnv;
}

/**
 * The environment as rtk's caller gave it, in its order, read from the
 * launcher's shell (bin/rtk runs rtk as its child for a listing of the
 * environment): a shell exports a PWD of its own and its exec reorders the
 * variables, and `env` must print what it prints without rtk. `_`, which the
 * caller's shell set to the command it ran (rtk), names the tool instead, as
 * that shell would have for the tool. Null when it cannot be read.
 */
function callerEnv(pid: string, self: string | undefined, tool: string): NodeJS.ProcessEnv | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${Number(pid)}/environ`, "utf8");
  } catch {
    return null;
  }
  const out: NodeJS.ProcessEnv = {};
  for (const kv of text.split("\0")) {
    const eq = kv.indexOf("=");
    if (eq > 0 && !(kv.slice(0, eq) in out)) out[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const underscore = out["_"];
  if (underscore !== undefined && self !== undefined && samePath(underscore, self)) out["_"] = ownPath(tool, out["PATH"]);
  return out;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Where a shell finds a command: a word with a slash is itself, another the first executable of that name on PATH. */
function ownPath(word: string, path: string | undefined): string {
  if (word.includes("/")) return word;
  for (const dir of (path ?? "").split(":")) {
    const p = join(dir || ".", word);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return word;
}

/** `… +12 more files [rtk recall …]`: the omission markers of the filters (filters/types.ts `omitted`). */
const OMITTED = /\+(\d+) more /g;
const HANDLE = /\[rtk recall ([0-9a-f]{7})\b/g;

/**
 * Writes to stdout/stderr in order, waiting for a full pipe to drain, and
 * counts what it wrote: bytes and their features, and in rtk's own text (not
 * the tool's bytes passed through) the recall handles and the items its
 * markers say are hidden.
 */
class Output {
  private pending: Promise<void> = Promise.resolve();
  bytes = 0;
  readonly features = new FeatureCounter();
  readonly handles = new Set<string>();
  omitted = 0;

  write(fd: 1 | 2, data: string | Buffer): Promise<void> {
    if (!data.length) return this.pending;
    const b = typeof data === "string" ? Buffer.from(data) : data;
    this.bytes += b.length;
    this.features.add(b);
    const stream = fd === 1 ? process.stdout : process.stderr;
    this.pending = this.pending.then(
      () =>
        new Promise<void>((resolve) => {
          if (stream.write(b)) resolve();
          else stream.once("drain", () => resolve());
        }),
    );
    return this.pending;
  }

  /** rtk's own text: written, and its markers read. */
  own(fd: 1 | 2, text: string): Promise<void> {
    if (text.includes("[rtk recall ")) {
      for (const m of text.matchAll(OMITTED)) this.omitted += Number(m[1]);
      for (const m of text.matchAll(HANDLE)) this.handles.add(m[1]!);
    }
    return this.write(fd, text);
  }

  flush(): Promise<void> {
    return this.pending;
  }
}
