// Facts about the whole input that the decision passes need, computed once.
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import { stdoutToFile } from "./classify.js";
import { peelWrappers } from "./wrappers.js";

export interface InputFacts {
  /** Where the input first stops being attestable by a text rule, or null. */
  unattestable: { at: number; why: string } | null;
  /** Names the input defines as functions or aliases: a command of that name is not the tool. */
  shadowed: ReadonlySet<string>;
  /** Offsets after which PATH has been changed by an earlier command. */
  pathChanges: readonly number[];
  /** Offsets after which RTK_DISABLED has been set by an earlier command. */
  disabledAt: readonly number[];
  /** Offsets after which `exec` has sent the shell's own stdout away from the agent. */
  stdoutAwayAt: readonly number[];
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
  const disabledAt: number[] = [];
  const stdoutAwayAt: number[] = [];
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
      case "For":
      case "Select":
        if (n.name === "PATH") pathChanges.push(n.span.start);
        if (n.name === "RTK_DISABLED") disabledAt.push(n.span.start);
        break;
      case "SimpleCommand": {
        const words = n.words.map(literalValue);
        const first = words[0];
        if (words[peelWrappers(words).commandIndex] === "eval" || first === "eval") flag(n.span.start, "eval");
        if (first === "alias") {
          for (const w of words.slice(1)) if (w && w.includes("=")) shadowed.add(w.slice(0, w.indexOf("=")));
        }
        // Variables set for the commands that follow: `PATH=…` alone, export/declare/unset, read targets.
        const names = assignedNames(n, words);
        if (names.includes("PATH") || names.includes(null)) pathChanges.push(n.span.end);
        if (names.includes("RTK_DISABLED")) disabledAt.push(n.span.end);
        // `exec >file` with no command redirects the shell's own stdout for everything after it.
        if (first === "exec" && n.words.length === 1 && n.redirects.some(stdoutToFile)) stdoutAwayAt.push(n.span.end);
        break;
      }
    }
  });
  return { unattestable, shadowed, pathChanges, disabledAt, stdoutAwayAt };
}

/** Commands whose arguments name variables they set. */
const SETTERS = new Set(["read", "readarray", "mapfile", "printf", "getopts", "let"]);

/**
 * The variables a command sets for what follows (null for a name rtk cannot
 * read): an assignment-only command, export/declare/…, unset, read targets.
 */
function assignedNames(n: A.SimpleCommand, words: (string | null)[]): (string | null)[] {
  const first = words[0];
  if (first === undefined) return n.assigns.map((a) => a.name);
  if (first === null) return [];
  if (DECLARES.has(first)) {
    return n.words.slice(1).map((w, i) => {
      const v = words[i + 1];
      if (v !== null && v !== undefined) return v.startsWith("-") ? "" : /^[A-Za-z_][A-Za-z0-9_]*/.exec(v)?.[0] ?? "";
      // `FOO=$(pwd)`: the name is literal even when the value is not.
      const lead = w.parts[0];
      const name = lead?.kind === "Lit" ? /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(lead.value)?.[1] : undefined;
      return name ?? null;
    });
  }
  if (SETTERS.has(first)) return words.slice(1).filter((v): v is string => v !== null);
  return [];
}
