// A generic child walker: every pass that does not care about a node kind falls
// back to this. Children come in source order, except that a here-document body
// (which stands after the command line) is a child of its redirect.
import type * as A from "./nodes.js";

export function children(n: A.Node): A.Node[] {
  switch (n.kind) {
    case "Script":
      return n.stmts;
    case "Stmt":
      return [n.cmd];
    case "AndOr":
      return [n.left, n.right];
    case "Pipeline":
      return n.stages;
    case "TimeClause":
      return n.stmt ? [n.stmt] : [];
    case "SimpleCommand":
      return bySource([...n.assigns, ...n.words, ...n.redirects]);
    case "Assign":
      return present([n.index, n.value, n.array]);
    case "Redirect":
      return present([n.target, n.heredoc]);
    case "Heredoc":
      return [n.body];
    case "Word":
    case "DoubleQuoted":
    case "LocaleQuoted":
      return n.parts;
    case "ParamExp":
      return present([n.index, n.arg, n.repl]);
    case "CmdSubst":
    case "ProcSubst":
      return n.stmts;
    case "ArithExp":
      return [n.expr];
    case "ArrayLit":
      return n.elems;
    case "Subshell":
    case "Group":
      return [...n.stmts, ...n.redirects];
    case "If":
      return [...n.clauses, ...(n.elseBody ?? []), ...n.redirects];
    case "IfClause":
      return [...n.cond, ...n.body];
    case "For":
    case "Select":
      return [...(n.items ?? []), ...n.body, ...n.redirects];
    case "ArithFor":
      return [n.init, n.cond, n.post, ...n.body, ...n.redirects];
    case "While":
      return [...n.cond, ...n.body, ...n.redirects];
    case "Case":
      return [n.word, ...n.arms, ...n.redirects];
    case "CaseArm":
      return [...n.patterns, ...n.body];
    case "FuncDecl":
      return [n.body];
    case "TestClause":
      return [...n.items, ...n.redirects];
    case "ArithCmd":
      return [n.expr, ...n.redirects];
    case "Coproc":
      return n.name ? [n.name, n.stmt] : [n.stmt];
    case "Comment":
    case "Lit":
    case "SingleQuoted":
    case "AnsiCQuoted":
    case "Escaped":
    case "Glob":
    case "BraceExp":
    case "Tilde":
    case "TestOp":
      return [];
  }
}

function present(xs: (A.Node | null)[]): A.Node[] {
  return xs.filter((x): x is A.Node => x !== null);
}

function bySource(xs: A.Node[]): A.Node[] {
  return xs.sort((a, b) => a.span.start - b.span.start);
}

/**
 * Calls `f` on each child of `n` in the order of children(n), without
 * building an array (walks run on every command an agent issues).
 */
export function forEachChild(n: A.Node, f: (c: A.Node) => void): void {
  const each = (xs: readonly A.Node[]) => {
    for (let i = 0; i < xs.length; i++) f(xs[i]!);
  };
  const opt = (x: A.Node | null) => {
    if (x) f(x);
  };
  switch (n.kind) {
    case "SimpleCommand": {
      // Assignments, words and redirects, merged in source order.
      const { assigns: a, words: w, redirects: r } = n;
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < a.length || j < w.length || k < r.length) {
        const sa = i < a.length ? a[i]!.span.start : Infinity;
        const sw = j < w.length ? w[j]!.span.start : Infinity;
        const sr = k < r.length ? r[k]!.span.start : Infinity;
        if (sa <= sw && sa <= sr) f(a[i++]!);
        else if (sw <= sr) f(w[j++]!);
        else f(r[k++]!);
      }
      return;
    }
    case "Script":
    case "CmdSubst":
    case "ProcSubst":
      return each(n.stmts);
    case "Stmt":
      return f(n.cmd);
    case "AndOr":
      f(n.left);
      return f(n.right);
    case "Pipeline":
      return each(n.stages);
    case "Word":
    case "DoubleQuoted":
    case "LocaleQuoted":
      return each(n.parts);
    case "TimeClause":
      return opt(n.stmt);
    case "Redirect":
      f(n.target);
      return opt(n.heredoc);
    case "Heredoc":
      return f(n.body);
    case "Assign":
      opt(n.index);
      opt(n.value);
      return opt(n.array);
    case "ParamExp":
      opt(n.index);
      opt(n.arg);
      return opt(n.repl);
    case "ArithExp":
      return f(n.expr);
    case "ArrayLit":
      return each(n.elems);
    default:
      return each(children(n));
  }
}

/**
 * Pre-order walk. `visit` returns false to skip a node's children. The ancestors
 * of the visited node are passed innermost last.
 */
export function walk(root: A.Node, visit: (n: A.Node, ancestors: readonly A.Node[]) => boolean | void): void {
  const stack: A.Node[] = [];
  const go = (n: A.Node): void => {
    if (visit(n, stack) === false) return;
    stack.push(n);
    forEachChild(n, go);
    stack.pop();
  };
  go(root);
}

/** Deep copy of a node without its spans (and a script without its comments): for comparing shapes. */
export function withoutSpans(n: unknown): unknown {
  if (Array.isArray(n)) return n.map(withoutSpans);
  if (!n || typeof n !== "object") return n;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(n)) {
    if (k === "span" || (k === "comments" && (n as A.Node).kind === "Script")) continue;
    out[k] = withoutSpans(v);
  }
  return out;
}
