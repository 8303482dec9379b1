// Pass 1: every simple command with a command word, where it stands and what it
// runs: its peeled wrappers, its argv and the route the registry has for it.
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import { matchRoute, type RouteMatch } from "../routes/match.js";
import type { Registry } from "../routes/registry.js";
import { peelWrappers, type Peeled } from "./wrappers.js";

export interface PipeRole {
  role: "producer" | "consumer";
  /** For a producer: the stages after it. */
  later: readonly A.Stmt[];
}

/** Where a command stands, from its ancestors. */
export interface Position {
  inSubstitution: boolean;
  inFunction: boolean;
  background: boolean;
  /** An enclosing compound command sends its stdout to a file. */
  enclosingFileRedirect: boolean;
  /** The pipelines the command is part of, innermost first. */
  pipes: readonly PipeRole[];
}

export interface Classified {
  node: A.SimpleCommand;
  /** Literal values of the words; null where a word expands. */
  values: (string | null)[];
  peeled: Peeled;
  /** The command word after wrappers, or null when the wrappers take every word. */
  commandWord: A.Word | null;
  /** The words from the command word on. */
  argv: (string | null)[];
  match: RouteMatch | null;
  position: Position;
}

export interface ClassifyContext {
  registry: Registry;
  transparentPrefixes: readonly (readonly string[])[];
}

export function classify(script: A.Script, ctx: ClassifyContext): Classified[] {
  const out: Classified[] = [];
  walk(script, (n, ancestors) => {
    if (n.kind !== "SimpleCommand" || n.words.length === 0) return;
    const values = n.words.map(literalValue);
    const peeled = peelWrappers(values, ctx.transparentPrefixes);
    const commandWord = n.words[peeled.commandIndex] ?? null;
    const argv = values.slice(peeled.commandIndex);
    const match = argv[0] ? matchRoute(argv, ctx.registry) : null;
    out.push({ node: n, values, peeled, commandWord, argv, match, position: position(ancestors) });
  });
  return out.sort((a, b) => a.node.span.start - b.node.span.start);
}

function position(ancestors: readonly A.Node[]): Position {
  const pos: Position & { pipes: PipeRole[] } = {
    inSubstitution: false,
    inFunction: false,
    background: false,
    enclosingFileRedirect: false,
    pipes: [],
  };
  for (let k = ancestors.length - 1; k >= 0; k--) {
    const a = ancestors[k]!;
    const child = ancestors[k + 1];
    switch (a.kind) {
      case "CmdSubst":
      case "ProcSubst":
      case "Assign":
      case "Redirect":
        if (a.kind === "CmdSubst" || a.kind === "ProcSubst") pos.inSubstitution = true;
        break;
      case "FuncDecl":
        pos.inFunction = true;
        break;
      case "Coproc":
        pos.background = true;
        break;
      case "Stmt":
        if (a.background) pos.background = true;
        break;
      case "Pipeline": {
        // Only the first stage produces; comparing with it keeps a long pipeline linear.
        pos.pipes.push(a.stages[0] !== child ? { role: "consumer", later: [] } : { role: "producer", later: a.stages.slice(1) });
        break;
      }
      case "Subshell":
      case "Group":
      case "If":
      case "For":
      case "ArithFor":
      case "Select":
      case "While":
      case "Case":
        if (a.redirects.some(stdoutToFile)) pos.enclosingFileRedirect = true;
        break;
    }
  }
  return pos;
}

const OUTPUT_OPS = new Set([">", ">>", ">|", ">&"]);

/** The redirect sends stdout somewhere that is not the agent (a file, /dev/null, another fd, closed). */
export function stdoutToFile(r: A.Redirect): boolean {
  const both = r.op === "&>" || r.op === "&>>";
  const onStdout = both || r.fd === "1" || (r.fd === null && OUTPUT_OPS.has(r.op));
  if (!onStdout) return false;
  const target = literalValue(r.target);
  if (r.op === ">&" || r.op === "<&") return !(target === "1" || target === "2");
  return target !== "/dev/stdout" && target !== "/dev/stderr";
}
