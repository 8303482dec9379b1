// Facts about the whole input that the decision passes need, computed once.
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import { stdoutToFile } from "./classify.js";
import { arithmeticAssigns, arithmeticReads, hiddenExecution, plainProgram, variableRuns, type VariableRead } from "./hidden-exec.js";
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
/** `[[ a -eq b ]]` evaluates both sides as arithmetic. */
const ARITH_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox"]);

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

/** What the walk gathers, and the arithmetic reads judged after it. */
interface Gathered {
  unattestable: InputFacts["unattestable"];
  shadowed: Set<string>;
  pathChanges: number[];
  disabledAt: number[];
  stdoutAwayAt: number[];
  arithmetic: VariableRead[];
}

/** Keeps the earliest reason the input is not attestable. */
function flag(g: Gathered, at: number, why: string): void {
  if (!g.unattestable || at < g.unattestable.at) g.unattestable = { at, why };
}

export function inputFacts(script: A.Script): InputFacts {
  const g: Gathered = { unattestable: null, shadowed: new Set(), pathChanges: [], disabledAt: [], stdoutAwayAt: [], arithmetic: [] };
  walk(script, (n) => {
    switch (n.kind) {
      case "CmdSubst":
        flag(g, n.span.start, "command substitution");
        break;
      case "ProcSubst":
        flag(g, n.span.start, "process substitution");
        break;
      case "Redirect":
        if (touchesFile(n)) flag(g, n.span.start, "a redirect to or from a file");
        break;
      case "FuncDecl":
        g.shadowed.add(n.name);
        break;
      case "For":
      case "Select":
        if (n.name === "PATH") g.pathChanges.push(n.span.start);
        if (n.name === "RTK_DISABLED") g.disabledAt.push(n.span.start);
        break;
      case "SimpleCommand":
        simpleCommandFacts(n, g);
        break;
      default:
        g.arithmetic.push(...arithmeticReadsOf(n));
    }
  });
  // A variable read as arithmetic is evaluated as an expression (`a[$(…)]` runs): only a number this input stored before is plain.
  // The second walk is taken only when some arithmetic reads a name.
  const numeric = g.arithmetic.length ? numericNames(script) : new Map<string, number>();
  const risky = g.arithmetic.find((r) => {
    const at = numeric.get(r.name);
    return at === undefined || at > r.at;
  });
  if (risky) flag(g, risky.at, "arithmetic on a variable");
  const { unattestable, shadowed, pathChanges, disabledAt, stdoutAwayAt } = g;
  return { unattestable, shadowed, pathChanges, disabledAt, stdoutAwayAt };
}

const NO_READS: readonly VariableRead[] = [];

/** The variables a node reads as arithmetic (a simple command's `let` aside). */
function arithmeticReadsOf(n: A.Node): readonly VariableRead[] {
  switch (n.kind) {
    case "ArithExp":
    case "ArithCmd":
      return arithmeticReads(n.expr.parts);
    case "ArithFor":
      return [n.init, n.cond, n.post].flatMap((w) => arithmeticReads(w.parts));
    case "TestClause": {
      const items = n.items;
      const isArith = (it: (typeof items)[number]) => it.kind === "Word" && ARITH_TESTS.has(literalValue(it) ?? "");
      if (!items.some(isArith)) return NO_READS;
      return items.flatMap((it) => (it.kind === "Word" && !isArith(it) ? arithmeticReads(it.parts) : []));
    }
    case "ParamExp": {
      // `${a[i]}` and `${s:off:len}` evaluate their index and offsets as arithmetic.
      const words = [n.index, ...(n.op === ":" ? [n.arg, n.repl] : [])];
      return words.flatMap((w) => (w ? arithmeticReads(w.parts) : []));
    }
    default:
      return NO_READS;
  }
}

function simpleCommandFacts(n: A.SimpleCommand, g: Gathered): void {
  const words = n.words.map(literalValue);
  const first = words[0];
  const peeled = peelWrappers(words);
  const argv = words.slice(peeled.commandIndex);
  if (argv[0] === "eval" || first === "eval") flag(g, n.span.start, "eval");
  if (argv[0] === "let") for (const w of n.words.slice(peeled.commandIndex + 1)) g.arithmetic.push(...arithmeticReads(w.parts));
  const hidden = hiddenExecution(argv);
  if (hidden) flag(g, n.span.start, hidden);
  const shell = argv[0] ? argv[0].slice(argv[0].lastIndexOf("/") + 1) : null;
  // `bash -c "$cmd"`: a command string rtk cannot read.
  if (shell && SHELLS.has(shell)) {
    const c = argv.findIndex((w, i) => i > 0 && w !== null && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w));
    if (c > 0 && (argv[c + 1] === null || argv.slice(1, c).some((w) => w === null))) flag(g, n.span.start, "a command string that is not literal");
  }
  const runs = settings(n, words, peeled.commandIndex).find(([name, value]) => name !== null && variableRuns(name) && !plainProgram(value));
  if (runs) flag(g, n.span.start, `a variable whose value a program runs (${runs[0]})`);
  if (first === "alias") {
    for (const w of words.slice(1)) if (w && w.includes("=")) g.shadowed.add(w.slice(0, w.indexOf("=")));
  }
  // Variables set for the commands that follow: `PATH=…` alone, export/declare/unset, read targets.
  const names = assignedNames(n, words);
  if (names.includes("PATH") || names.includes(null)) g.pathChanges.push(n.span.end);
  if (names.includes("RTK_DISABLED")) g.disabledAt.push(n.span.end);
  // `exec >file` with no command redirects the shell's own stdout for everything after it.
  if (first === "exec" && n.words.length === 1 && n.redirects.some(stdoutToFile)) g.stdoutAwayAt.push(n.span.end);
}

/** Names and values a command sets: its assignments, `env`'s, and those of export/declare/…. */
function settings(n: A.SimpleCommand, words: readonly (string | null)[], commandIndex: number): [string | null, string | null][] {
  const out: [string | null, string | null][] = n.assigns.map((a) => [a.name, a.value ? literalValue(a.value) : ""]);
  const first = words[0];
  const from = first === "env" || (first && DECLARES.has(first) && first !== "unset") ? 1 : null;
  const until = first === "env" ? commandIndex : words.length;
  if (from !== null) {
    for (let i = from; i < until; i++) {
      const w = words[i];
      if (w === null || w === undefined) out.push([null, null]);
      else if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w)) out.push([w.slice(0, w.indexOf("=")).replace(/\+$/, ""), w.slice(w.indexOf("=") + 1)]);
    }
  }
  return out;
}

/**
 * Names that hold a number this input stored (a literal integer, an arithmetic
 * assignment, a loop over integers), with the offset from which they do. A name
 * the input also sets any other way is not among them.
 */
function numericNames(script: A.Script): Map<string, number> {
  const numeric = new Map<string, number>();
  const other = new Set<string>();
  const number = (name: string, at: number) => {
    if (!numeric.has(name) || numeric.get(name)! > at) numeric.set(name, at);
  };
  walk(script, (n) => {
    switch (n.kind) {
      case "Assign": {
        const v = n.value ? literalValue(n.value) : "";
        if (v !== null && /^-?\d+$/.test(v) && !n.array && !n.index) number(n.name, n.span.end);
        else other.add(n.name);
        break;
      }
      case "For":
        if (n.items && n.items.every((w) => /^-?\d+$/.test(literalValue(w) ?? "") || w.parts.every((p) => p.kind === "BraceExp" && /^\{-?\d+\.\.-?\d+(\.\.\d+)?\}$/.test(p.value))))
          number(n.name, n.span.start);
        else other.add(n.name);
        break;
      case "ArithFor":
        for (const name of arithmeticAssigns(n.init.parts)) number(name, n.init.span.end);
        for (const name of [...arithmeticAssigns(n.cond.parts), ...arithmeticAssigns(n.post.parts)]) number(name, n.span.start);
        break;
      case "ArithCmd":
      case "ArithExp":
        for (const name of arithmeticAssigns(n.expr.parts)) number(name, n.span.end);
        break;
      case "Select":
        other.add(n.name);
        break;
      case "SimpleCommand": {
        // Its assignments are the Assign nodes above; its words may set names too (read, export, …).
        if (!n.words.length) break;
        const words = n.words.map(literalValue);
        for (const name of assignedNames(n, words)) if (name) other.add(name.split("=")[0]!);
        break;
      }
    }
  });
  for (const name of other) numeric.delete(name);
  return numeric;
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
      if (v !== null && v !== undefined) return v.startsWith("-") ? "" : (/^[A-Za-z_][A-Za-z0-9_]*/.exec(v)?.[0] ?? "");
      // `FOO=$(pwd)`: the name is literal even when the value is not.
      const lead = w.parts[0];
      const name = lead?.kind === "Lit" ? /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(lead.value)?.[1] : undefined;
      return name ?? null;
    });
  }
  if (SETTERS.has(first)) return words.slice(1).filter((v): v is string => v !== null);
  return [];
}
