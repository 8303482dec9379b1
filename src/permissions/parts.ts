// The parts of a command a rule is matched against: every simple command of the
// tree, wherever it stands (lists, pipelines, compound bodies, substitutions).
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import { peelWrappers } from "../rewrite/wrappers.js";

export interface Part {
  span: A.Span;
  /** As written: the source span without its redirects, blanks at the end trimmed. Allow and ask rules see this. */
  text: string;
  /** Every form a deny rule is also tried on: without assignments, without wrappers, with the command's basename. */
  denyForms: string[];
  /** The forms without an agent-typed `rtk`: the host's own rules cannot see through it. */
  rtkForms: string[];
}

const RTK_OPTIONS = new Set(["--raw", "--verbose", "--no-track", "-v"]);

/** Commands that run the rest of their words as a command; a deny rule must see through them too. */
const RUNNERS: Readonly<Record<string, readonly string[]>> = {
  nohup: [],
  setsid: [],
  exec: ["-a"],
  sudo: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"],
  doas: ["-u", "-C"],
};

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

export function commandParts(script: A.Script, src: string): Part[] {
  const parts: Part[] = [];
  walk(script, (n) => {
    if (n.kind === "SimpleCommand") parts.push(partOf(n, src));
  });
  return parts.sort((a, b) => a.span.start - b.span.start);
}

function partOf(cmd: A.SimpleCommand, src: string): Part {
  const text = withoutRedirects(cmd, src);
  const words = cmd.words.map((w) => src.slice(w.span.start, w.span.end));
  const values = cmd.words.map(literalValue);
  const forms = new Set<string>([text]);
  const rtkForms = new Set<string>();
  // Each form from word i on: as written, with quotes removed where the words are literal, with the basename.
  const from = (i: number, into: Set<string>) => {
    if (i >= words.length) return;
    const rest = words.slice(i);
    into.add(rest.join(" "));
    const vals = values.slice(i);
    const v = vals[0];
    const unquoted = vals.map((x, k) => x ?? rest[k]!);
    into.add(unquoted.join(" "));
    if (v && v.includes("/")) {
      into.add([v.slice(v.lastIndexOf("/") + 1), ...rest.slice(1)].join(" "));
      into.add([v.slice(v.lastIndexOf("/") + 1), ...unquoted.slice(1)].join(" "));
    }
  };
  /** Every start a deny rule is tried from: the words, after wrappers, after runners like `nohup` and `sudo`. */
  const starts = (i: number, into: Set<string>, depth = 0) => {
    from(i, into);
    const peeled = i + peelWrappers(values.slice(i)).commandIndex;
    from(peeled, into);
    const w = values[peeled];
    const name = w?.slice(w.lastIndexOf("/") + 1);
    if (name && Object.hasOwn(RUNNERS, name) && depth < 4) {
      let k = peeled + 1;
      while (values[k]?.startsWith("-")) k += RUNNERS[name]!.includes(values[k]!) ? 2 : 1;
      starts(k, into, depth + 1);
    }
    return peeled;
  };
  if (words.length) {
    const peeled = starts(0, forms);
    const cmdWord = values[peeled];
    if (cmdWord === "rtk" || cmdWord?.endsWith("/rtk")) {
      let i = peeled + 1;
      while (values[i] && RTK_OPTIONS.has(values[i]!)) i++;
      if (values[i] === "proxy") i++;
      starts(i, rtkForms);
    }
  }
  forms.delete("");
  rtkForms.delete("");
  return { span: cmd.span, text, denyForms: [...forms], rtkForms: [...rtkForms] };
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
