// The parts of a command a rule is matched against: every simple command of the
// tree, wherever it stands (lists, pipelines, compound bodies, substitutions).
import { parse } from "../../grammar/parse.js";
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import { skipOptions } from "../routes/match.js";
import type { ToolSpec } from "../routes/types.js";
import { peelWrappers } from "../rewrite/wrappers.js";
import { META_COMMANDS, RTK_OPTIONS } from "../routes/rtk-command.js";

export interface Part {
  span: A.Span;
  /** The simple command itself, for a host's own judgement of it (its words, assignments and redirects). */
  cmd: A.SimpleCommand;
  /** As written: the source span without its redirects, blanks at the end trimmed. Allow rules see this. */
  text: string;
  /** Forms the host's own matcher may also try: without assignments, without wrappers, with the command's basename. */
  denyForms: string[];
  /**
   * Forms only rtk sees, as bash runs the command: without an agent-typed
   * `rtk`, without the tool's global options (`git -C . push` runs `git push`),
   * through the config's transparent prefixes. A deny matched only here must be
   * answered by rtk itself: the host's rules cannot see it.
   */
  hiddenForms: string[];
  /** Wrappers or command strings nested deeper than rtk reads: what it runs is not known. */
  opaque: boolean;
}

interface Runner {
  /** Options that take the next word as their value. */
  value: readonly string[];
  /** The command starts after this many operands (`flock file cmd`). */
  operands?: number;
  /** A host's matcher may see through it too (its deny then stays the host's to give). */
  known?: boolean;
  /** `NAME=value` words before the command set its environment (`sudo FOO=1 cmd`). */
  assigns?: boolean;
}

/** Commands that run the rest of their words as a command; a deny rule must see through them too. */
const RUNNERS: Readonly<Record<string, Runner>> = {
  nohup: { value: [], known: true },
  setsid: { value: [], known: true },
  exec: { value: ["-a"], known: true },
  sudo: {
    value: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--close-from"],
    known: true,
    assigns: true,
  },
  doas: { value: ["-u", "-C"], known: true },
  xargs: {
    value: [
      "-a",
      "-d",
      "-E",
      "-e",
      "-I",
      "-i",
      "-L",
      "-l",
      "-n",
      "-P",
      "-s",
      "--arg-file",
      "--delimiter",
      "--eof",
      "--replace",
      "--max-lines",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--process-slot-var",
    ],
  },
  strace: { value: ["-e", "-o", "-p", "-s", "-u", "-a", "-E", "-I", "-O", "-P", "-S", "-X", "-b"] },
  ltrace: { value: ["-e", "-o", "-p", "-s", "-u", "-a", "-n", "-l", "-x"] },
  flock: { value: ["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"], operands: 1 },
  unbuffer: { value: [] },
  caffeinate: { value: ["-t", "-w"] },
  firejail: { value: [] },
  chroot: { value: ["--userspec", "--groups"], operands: 1 },
  runuser: { value: ["-u", "-g", "-G", "--user", "--group", "--supp-group"] },
};

export interface PartOptions {
  /** The tools' global options (the route registry's tables): what may stand before a subcommand. */
  tools?: Readonly<Record<string, ToolSpec>>;
  /** The config's extra wrappers (`dotenv --`). */
  transparentPrefixes?: readonly (readonly string[])[];
}

/**
 * The text of every run of consecutive statements (from the start of one to
 * the end of another, in source order, the whole line included): a deny rule
 * written for several commands (`git add . && git commit:*`) is tried on each,
 * so a longer command is never more permitted than a run of commands in it.
 */
export function listTexts(script: A.Script, src: string): string[] {
  const stmts: A.Span[] = [];
  walk(script, (n) => {
    if (n.kind === "Stmt") stmts.push(n.span);
  });
  stmts.sort((a, b) => a.start - b.start || b.end - a.end);
  const out = new Set<string>();
  const n = Math.min(stmts.length, MAX_RUN_PARTS);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      if (stmts[j]!.end > stmts[i]!.start) out.add(src.slice(stmts[i]!.start, stmts[j]!.end).trim());
    }
  }
  const whole = src.trim();
  if (whole) out.add(whole);
  return [...out];
}

const MAX_RUN_PARTS = 200;

export function commandParts(script: A.Script, src: string, opts: PartOptions = {}, nesting = 0): Part[] {
  const parts: Part[] = [];
  walk(script, (n) => {
    if (n.kind === "SimpleCommand") parts.push(partOf(n, src, opts, nesting));
  });
  return parts.sort((a, b) => a.span.start - b.span.start);
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"]);
/** The options of find and fd whose following words are a command they run. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch"]);
/** How deep `bash -c 'bash -c …'` strings are read. */
const MAX_NESTING = 3;

/** The forms of every command in a shell's `-c` string, as bash would run them; null past the depth rtk reads. */
function nestedForms(script: string, opts: PartOptions, nesting: number): string[] | null {
  if (nesting >= MAX_NESTING) return null;
  const parsed = parse(script);
  // bash runs nothing of a string it cannot parse.
  if (!parsed.ok) return [];
  const parts = commandParts(parsed.script, script, opts, nesting + 1);
  if (parts.some((p) => p.opaque)) return null;
  return parts.flatMap((p) => [...p.denyForms, ...p.hiddenForms]);
}

/** How many runners and wrappers deep a command is read (`sudo nohup timeout 5 …`). */
const MAX_DEPTH = 8;

const basename = (w: string) => w.slice(w.lastIndexOf("/") + 1);

function partOf(cmd: A.SimpleCommand, src: string, opts: PartOptions, nesting: number): Part {
  const text = withoutRedirects(cmd, src);
  const reader = new FormReader(cmd, src, opts, nesting);
  reader.forms.add(text);
  if (reader.words.length) reader.starts(0, reader.forms);
  const { forms, hidden, opaque } = reader;
  forms.delete("");
  for (const f of forms) hidden.delete(f);
  hidden.delete("");
  return { span: cmd.span, cmd, text, denyForms: [...forms], hiddenForms: [...hidden], opaque };
}

/** The forms one simple command is read into, from every start a deny rule is tried from. */
class FormReader {
  /** The words as written. */
  readonly words: string[];
  /** The words' literal values (null where a word expands). */
  readonly values: (string | null)[];
  /** Forms the host's own matcher may also try. */
  readonly forms = new Set<string>();
  /** Forms only rtk sees. */
  readonly hidden = new Set<string>();
  opaque = false;
  private readonly tools: Readonly<Record<string, ToolSpec>>;
  private readonly prefixes: readonly (readonly string[])[];

  constructor(
    cmd: A.SimpleCommand,
    src: string,
    private readonly opts: PartOptions,
    private readonly nesting: number,
  ) {
    this.words = cmd.words.map((w) => src.slice(w.span.start, w.span.end));
    this.values = cmd.words.map(literalValue);
    this.tools = opts.tools ?? {};
    this.prefixes = opts.transparentPrefixes ?? [];
  }

  /** Every start a deny rule is tried from: the words, after wrappers, after runners like `nohup` and `sudo`. */
  starts(i: number, into: Set<string>, depth = 0, end = this.words.length): void {
    const values = this.values;
    this.add(this.range(i, end), into);
    const peeled = i + peelWrappers(values.slice(i, end)).commandIndex;
    this.add(this.range(peeled, end), into);
    if (depth >= MAX_DEPTH) {
      this.opaque = true;
      return;
    }
    // The config's transparent prefixes, which the host does not know.
    const through = i + peelWrappers(values.slice(i, end), this.prefixes).commandIndex;
    if (through !== peeled) this.starts(through, this.hidden, depth + 1, end);
    const w = values[peeled];
    if (!w) return;
    const name = basename(w);
    // An agent-typed `rtk` (also behind sudo, timeout, …) runs the rest as it is.
    if (name === "rtk") return this.afterRtk(peeled, depth, end);
    this.withoutToolOptions(name, peeled, end);
    if (SHELLS.has(name) || name === "trap") this.shellString(name, peeled, end);
    if (name === "watch") this.watched(peeled, end);
    if (name === "find" || name === "fd" || name === "fdfind") this.findActions(peeled, depth, end);
    const runner = Object.hasOwn(RUNNERS, name) ? RUNNERS[name]! : undefined;
    if (runner) this.afterRunner(runner, peeled, into, depth, end);
  }

  /** The forms of the words at `idx`: as written, with quotes removed where the words are literal, with the basename. */
  private add(idx: readonly number[], into: Set<string>): void {
    if (!idx.length) return;
    const rest = idx.map((k) => this.words[k]!);
    const unquoted = idx.map((k) => this.values[k] ?? this.words[k]!);
    into.add(rest.join(" "));
    into.add(unquoted.join(" "));
    const v = this.values[idx[0]!];
    if (v && v.includes("/")) {
      into.add([basename(v), ...rest.slice(1)].join(" "));
      into.add([basename(v), ...unquoted.slice(1)].join(" "));
    }
  }

  private range(from: number, end = this.words.length): number[] {
    return Array.from({ length: Math.max(0, end - from) }, (_, k) => from + k);
  }

  /** The forms of a command string the command runs (`bash -c '…'`): hidden, or opaque past the depth rtk reads. */
  private nested(script: string): void {
    const f = nestedForms(script, this.opts, this.nesting);
    if (f === null) this.opaque = true;
    else for (const x of f) this.hidden.add(x);
  }

  /** `rtk git push` runs `git push`: the words after rtk's own options (and `--` or `proxy`). */
  private afterRtk(peeled: number, depth: number, end: number): void {
    const values = this.values;
    let k = peeled + 1;
    while (values[k] && RTK_OPTIONS.has(values[k]!)) k++;
    if (values[k] === "--" || values[k] === "proxy") k++;
    this.starts(k, this.hidden, depth + 1, end);
  }

  /** `git -C . push` runs `git push`: the tool's global options, as the router skips them. */
  private withoutToolOptions(name: string, peeled: number, end: number): void {
    const spec = Object.hasOwn(this.tools, name) ? this.tools[name]! : undefined;
    if (!spec) return;
    const sub = skipOptions(this.values.slice(0, end), peeled + 1, spec);
    if (sub > peeled + 1) this.add([peeled, ...this.range(sub, end)], this.hidden);
  }

  /** `bash -c 'git push'` runs git push; so does `trap 'git push' EXIT`, later. */
  private shellString(name: string, peeled: number, end: number): void {
    const values = this.values;
    const c =
      name === "trap"
        ? values.findIndex((x, k) => k > peeled && k < end && x !== null && !x.startsWith("-")) - 1
        : values.findIndex((x, k) => k > peeled && k < end && x !== null && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(x));
    const script = c >= peeled && c + 1 < end ? values[c + 1] : null;
    if (script) this.nested(script);
  }

  /** `watch git push` runs the words joined as a shell command. */
  private watched(peeled: number, end: number): void {
    const values = this.values;
    let k = peeled + 1;
    while (values[k]?.startsWith("-")) k += ["-n", "--interval", "-q", "--equexit"].includes(values[k]!) ? 2 : 1;
    const rest = values.slice(k, end);
    if (rest.length && rest.every((x) => x !== null)) this.nested(rest.join(" "));
  }

  /** `find … -exec rm {} \;` runs rm, up to `;` or `+` (fd: to the end). */
  private findActions(peeled: number, depth: number, end: number): void {
    const values = this.values;
    for (let k = peeled + 1; k < end; k++) {
      if (values[k] === null || !FIND_ACTIONS.has(values[k]!)) continue;
      let stop = k + 1;
      while (stop < end && values[stop] !== ";" && values[stop] !== "+") stop++;
      this.starts(k + 1, this.hidden, depth + 1, stop);
      k = stop;
    }
  }

  /** `sudo -u root nohup git push` runs what follows the runner's options, operands and assignments. */
  private afterRunner(runner: Runner, peeled: number, into: Set<string>, depth: number, end: number): void {
    const values = this.values;
    let k = peeled + 1;
    while (k < end && values[k]?.startsWith("-") && values[k] !== "-") {
      if (values[k] === "--") {
        k++;
        break;
      }
      k += runner.value.includes(values[k]!) ? 2 : 1;
    }
    k += runner.operands ?? 0;
    if (runner.assigns) while (values[k] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(values[k]!)) k++;
    if (k < end) this.starts(k, runner.known ? into : this.hidden, depth + 1, end);
  }
}

/** The command's source text with its redirects cut out and trailing blanks trimmed. */
function withoutRedirects(cmd: A.SimpleCommand, src: string): string {
  let out = "";
  let at = cmd.span.start;
  for (const r of cmd.redirects) {
    out += src.slice(at, r.span.start);
    at = r.span.end;
  }
  out += src.slice(at, cmd.span.end);
  return out.replace(/[ \t\n]+$/, "").replace(/^[ \t\n]+/, "");
}

/**
 * The command an agent-typed `rtk` runs, as its source text (`rtk git diff` →
 * `git diff`): the part starts with `rtk` (no assignment or wrapper before it),
 * rtk's own options are skipped (and `proxy`, which runs the rest raw), the word
 * after them is a tool and not one of rtk's own commands, and no redirect comes
 * before it. Null for any other part.
 */
export function rtkRuns(p: Part, src: string): string | null {
  const { words, assigns, redirects } = p.cmd;
  if (assigns.length || !words.length) return null;
  const values = words.map(literalValue);
  if (values[0] === null || values[0] === undefined || basename(values[0]) !== "rtk") return null;
  let k = 1;
  while (values[k] && RTK_OPTIONS.has(values[k]!)) k++;
  if (values[k] === "proxy") k++;
  else if (values[k] === "--") k++;
  const tool = values[k];
  if (!tool || META_COMMANDS.has(tool)) return null;
  const at = words[k]!.span.start;
  if (redirects.some((r) => r.span.start < at)) return null;
  return src.slice(at, p.cmd.span.end);
}
