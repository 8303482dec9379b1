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
  const from = (i: number, into: Set<string>) => {
    if (i >= words.length) return;
    const rest = words.slice(i);
    into.add(rest.join(" "));
    const v = values[i];
    if (v && v.includes("/")) into.add([v.slice(v.lastIndexOf("/") + 1), ...rest.slice(1)].join(" "));
  };
  if (words.length) {
    const peeled = peelWrappers(values);
    from(0, forms);
    from(peeled.commandIndex, forms);
    const cmdWord = values[peeled.commandIndex];
    if (cmdWord === "rtk" || cmdWord?.endsWith("/rtk")) {
      let i = peeled.commandIndex + 1;
      while (values[i] && RTK_OPTIONS.has(values[i]!)) i++;
      if (values[i] === "proxy") i++;
      const inner = values.slice(i);
      from(i, rtkForms);
      from(i + peelWrappers(inner).commandIndex, rtkForms);
    }
  }
  forms.delete("");
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
