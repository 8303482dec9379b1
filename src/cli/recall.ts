// `rtk recall <id> [--lines A-B] [--grep PAT] [--head N] [--tail N]` and `rtk recall --list`.
import { recordRecall } from "../accounting/record.js";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";
import { shellQuote } from "../text/quote.js";
import { listRecall, openRecallDir, readRecallMeta, readRecallText, RecallUnsafeError, recallDir, type RecallStore } from "../runtime/recall.js";

export function recallCli(args: string[]): number {
  const started = Date.now();
  const status = recallCommand(args);
  // A recall of an entry means an omission cost the agent a second call: the accounting counts them.
  const id = recalledId(args);
  if (id !== null) recordRecall(process.env, args, id, status, started);
  return status;
}

/** The id a `rtk recall` names (the one word that is not an option or an option's value), if any. */
function recalledId(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--list" || a === "--help" || a === "-h") return null;
    if (/^--(grep|head|tail|lines)$/.test(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return null;
}

function recallCommand(args: string[]): number {
  const opts = parseOptions("recall", args, { boolean: ["list"], string: ["grep", "head", "tail", "lines"] });
  if (typeof opts === "number") return opts;
  if (opts["list"] && opts._.length) return usageError("recall", "--list takes no id");
  if (!opts["list"] && opts._.length !== 1) return usageError("recall", opts._.length ? `one id at a time, not \`${opts._.join(" ")}\`` : "which entry? give its id, or --list");
  for (const o of ["head", "tail"]) {
    if (opts[o] !== undefined && !/^\d+$/.test(String(opts[o]))) return usageError("recall", `--${o} takes a number of lines, not \`${String(opts[o])}\``);
  }
  // The store is read only where it would be written: a folder swapped for a symlink or open to others is not trusted.
  let store: RecallStore | null = null;
  try {
    store = openRecallDir(recallDir(process.env), { create: false });
  } catch (e) {
    if (e instanceof RecallUnsafeError) {
      process.stderr.write(`rtk recall: ${e.message}\n`);
      return 1;
    }
    // No store yet: no entries.
  }
  try {
    return show(opts, store?.dir ?? null);
  } finally {
    store?.close();
  }
}

function show(opts: { _: string[]; [option: string]: unknown }, dir: string | null): number {
  if (opts["list"]) {
    const now = Date.now();
    const here = process.cwd();
    for (const m of dir === null ? [] : listRecall(dir)) {
      const where = m.cwd !== undefined && m.cwd !== here ? `  (in ${m.cwd})` : "";
      process.stdout.write(`${m.id}  ${age(now - m.time).padStart(8)}  exit ${String(m.exitCode).padEnd(3)}  ${size(m.bytes).padStart(8)}  ${shellQuote(m.argv)}${where}\n`);
    }
    return 0;
  }
  let range: [number, number] | null = null;
  if (opts["lines"] !== undefined) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(String(opts["lines"]));
    if (!m || Number(m[1]) < 1 || Number(m[2] ?? m[1]) < Number(m[1])) {
      return usageError("recall", `--lines takes a range A-B (from line A to line B, counted from 1) or one line number, not \`${String(opts["lines"])}\``);
    }
    range = [Number(m[1]), Number(m[2] ?? m[1])];
  }
  const id = String(opts._[0] ?? "");
  const text = dir === null ? null : readRecallText(dir, id);
  if (text === null) {
    process.stderr.write(`rtk recall: no entry \`${id}\` (see \`rtk recall --list\`)\n`);
    return 1;
  }
  const meta = readRecallMeta(dir!, id);
  const cut = () => {
    if (meta?.truncated) process.stderr.write(`rtk recall: the entry was cut at ${meta.bytes} bytes\n`);
  };
  // The whole entry: its bytes as the tool printed them.
  if (opts["grep"] === undefined && opts["head"] === undefined && opts["tail"] === undefined && range === null) {
    process.stdout.write(text);
    cut();
    return 0;
  }
  if (range !== null && opts["grep"] === undefined && opts["head"] === undefined && opts["tail"] === undefined) {
    // The lines' own bytes (a content entry may not be UTF-8).
    process.stdout.write(lineRange(text, range[0], range[1]));
    cut();
    return 0;
  }
  let lines = text.toString("utf8").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (range !== null) lines = lines.slice(range[0] - 1, range[1]);
  if (opts["grep"] !== undefined) {
    let re: RegExp;
    try {
      re = new RegExp(String(opts["grep"]));
    } catch (e) {
      return usageError("recall", `invalid pattern: ${(e as Error).message}`);
    }
    lines = lines.filter((l) => re.test(l));
  }
  // As grep does: no line matched is status 1.
  const matched = opts["grep"] === undefined || lines.length > 0;
  const n = (v: unknown) => (v === undefined ? null : Math.max(0, Number.parseInt(String(v), 10) || 0));
  const head = n(opts["head"]);
  const tail = n(opts["tail"]);
  if (head !== null) lines = lines.slice(0, head);
  if (tail !== null) lines = tail === 0 ? [] : lines.slice(-tail);
  process.stdout.write(lines.length ? lines.join("\n") + "\n" : "");
  cut();
  return matched ? 0 : 1;
}

/** Lines `first` to `last` (from 1) of a text, with their line ends, byte for byte. */
function lineRange(text: Buffer, first: number, last: number): Buffer {
  let start = -1;
  let line = 1;
  let at = 0;
  for (;;) {
    if (line === first) start = at;
    const nl = text.indexOf(10, at);
    if (nl < 0) return start < 0 ? Buffer.alloc(0) : text.subarray(start);
    if (line === last) return text.subarray(start, nl + 1);
    at = nl + 1;
    line++;
    if (at >= text.length) return start < 0 ? Buffer.alloc(0) : text.subarray(start);
  }
}

/** How long ago, in the largest unit that is at least 1. */
function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
