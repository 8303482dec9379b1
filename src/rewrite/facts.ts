// Facts about the whole input that the decision passes need, computed once.
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";

export interface InputFacts {
  /** Where the input first stops being attestable by a text rule, or null. */
  unattestable: { at: number; why: string } | null;
  /** Names the input defines as functions or aliases: a command of that name is not the tool. */
  shadowed: ReadonlySet<string>;
  /** Offsets after which PATH has been changed by an earlier command. */
  pathChanges: readonly number[];
}

const SAFE_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);
const DECLARES = new Set(["export", "declare", "typeset", "local", "readonly", "unset"]);

/** A redirect reads or writes a real file (not /dev/null, not an fd duplication). */
export function touchesFile(r: A.Redirect): boolean {
  switch (r.op) {
    case "<<":
    case "<<-":
    case "<<<":
      return false;
    case ">&":
    case "<&": {
      const t = literalValue(r.target);
      return t === null || !/^(\d+|-)$/.test(t);
    }
    default: {
      const t = literalValue(r.target);
      return t === null || !SAFE_TARGETS.has(t);
    }
  }
}

export function inputFacts(script: A.Script): InputFacts {
  let unattestable: InputFacts["unattestable"] = null;
  const flag = (at: number, why: string) => {
    if (!unattestable || at < unattestable.at) unattestable = { at, why };
  };
  const shadowed = new Set<string>();
  const pathChanges: number[] = [];
  walk(script, (n) => {
    switch (n.kind) {
      case "CmdSubst":
        flag(n.span.start, "command substitution");
        break;
      case "ProcSubst":
        flag(n.span.start, "process substitution");
        break;
      case "Redirect":
        if (touchesFile(n)) flag(n.span.start, "a redirect to or from a file");
        break;
      case "FuncDecl":
        shadowed.add(n.name);
        break;
      case "SimpleCommand": {
        const words = n.words.map(literalValue);
        const first = words[0];
        if (first === "eval") flag(n.span.start, "eval");
        if (first === "alias") {
          for (const w of words.slice(1)) if (w && w.includes("=")) shadowed.add(w.slice(0, w.indexOf("=")));
        }
        // PATH changed for the commands that follow: `PATH=…` alone, export/unset/declare PATH.
        if (first === undefined && n.assigns.some((a) => a.name === "PATH")) pathChanges.push(n.span.end);
        if (first && DECLARES.has(first) && words.slice(1).some((w) => w === null || w === "PATH" || w.startsWith("PATH=") || w.startsWith("PATH+="))) {
          pathChanges.push(n.span.end);
        }
        break;
      }
    }
  });
  return { unattestable, shadowed, pathChanges };
}
