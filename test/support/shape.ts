// A compact, readable rendering of a syntax tree for table-driven tests
// (in the spirit of mvdan/sh's filetests): every node kind and field that
// matters, no spans.
//
//   statements      joined by " ; "
//   negated         (! X)            background  (& X)
//   and-or          (&& L R)  (|| L R)
//   pipeline        (| A B)  with `|&` written between stages: (| A |& B)
//   time            (time X)  (time-p X)  (time)
//   simple command  (cmd ASSIGN… WORD… REDIR…)
//   assignment      name=WORD  name+=WORD  name[WORD]=WORD  name=(WORD …)
//   redirect        >WORD  2>&WORD  <<WORD<<BODY>>  (body of a here-document; <<- adds -, quoted adds ')
//   word            a single literal part prints as itself, quoted when it holds
//                   blanks, parens, braces, quotes or `;` (or, among a command's words,
//                   when it reads like an assignment: `(cmd "A=1")`); otherwise {PART …}
//   parts           lit:"…"  sq:"…"  dq[PART …]  locale[PART …]  ansi:"…"  esc:"c"
//                   $name  ${PREFIX name [INDEX] OP ARG / REPL}  $(STMTS)  `(STMTS)`
//                   $((WORD))  $[WORD]  <(STMTS)  >(STMTS)  glob:"…"  brace:"…"  ~user  (array WORD…)
//   compound        (subshell STMTS) (group STMTS) (if C T [elif C T]… [else E])
//                   (while C B) (until C B) (for x [in W…] B) (for(( I ; C ; P )) B)
//                   (select x [in W…] B) (case W (PATS… ) BODY TERM)…) ([[ ITEM… ]]) ((( WORD )))
//                   (func name BODY) (coproc [NAME] X); compound redirects follow as REDIR…
import type * as A from "../../src/ast/nodes.js";

export function shape(n: A.Script): string {
  return stmts(n.stmts);
}

function stmts(ss: A.Stmt[]): string {
  return ss.map(stmt).join(" ; ");
}

function stmt(s: A.Stmt): string {
  let out = command(s.cmd);
  if (s.negated) out = `(! ${out})`;
  if (s.background) out = `(& ${out})`;
  return out;
}

function redirs(rs: A.Redirect[]): string {
  return rs.map((r) => " " + redirect(r)).join("");
}

function command(c: A.Command): string {
  switch (c.kind) {
    case "SimpleCommand":
      return `(cmd${[...c.assigns.map(assign), ...c.words.map(commandWord), ...c.redirects.map(redirect)].map((x) => " " + x).join("")})`;
    case "AndOr":
      return `(${c.op} ${stmt(c.left)} ${stmt(c.right)})`;
    case "Pipeline":
      return `(| ${c.stages.map((s, i) => (i > 0 && c.pipeStderr[i - 1] ? "|& " : "") + stmt(s)).join(" ")})`;
    case "TimeClause":
      return `(${c.posix ? "time-p" : "time"}${c.stmt ? " " + stmt(c.stmt) : ""})`;
    case "Subshell":
      return `(subshell ${stmts(c.stmts)})${redirs(c.redirects)}`;
    case "Group":
      return `(group ${stmts(c.stmts)})${redirs(c.redirects)}`;
    case "If": {
      const parts = c.clauses.map((cl, i) => `${i ? "elif " : ""}${stmts(cl.cond)} then ${stmts(cl.body)}`);
      return `(if ${parts.join(" ")}${c.elseBody ? " else " + stmts(c.elseBody) : ""})${redirs(c.redirects)}`;
    }
    case "While":
      return `(${c.until ? "until" : "while"} ${stmts(c.cond)} do ${stmts(c.body)})${redirs(c.redirects)}`;
    case "For":
    case "Select": {
      const items = c.items ? ` in${c.items.map((w) => " " + word(w)).join("")}` : "";
      return `(${c.kind === "For" ? "for" : "select"} ${c.name}${items}${c.braces ? " {" : " do"} ${stmts(c.body)})${redirs(c.redirects)}`;
    }
    case "ArithFor":
      return `(for(( ${word(c.init)} ; ${word(c.cond)} ; ${word(c.post)} ))${c.braces ? " {" : " do"} ${stmts(c.body)})${redirs(c.redirects)}`;
    case "Case": {
      const arms = c.arms.map((a) => `(${a.patterns.map(word).join(" | ")}) ${stmts(a.body)}${a.terminator ? " " + a.terminator : ""}`);
      return `(case ${word(c.word)}${arms.map((a) => " (" + a + ")").join("")})${redirs(c.redirects)}`;
    }
    case "TestClause":
      return `([[ ${c.items.map((i) => (i.kind === "TestOp" ? i.op : word(i))).join(" ")} ]])${redirs(c.redirects)}`;
    case "ArithCmd":
      return `((( ${word(c.expr)} )))${redirs(c.redirects)}`;
    case "FuncDecl":
      return `(func ${c.name} ${stmt(c.body)})`;
    case "Coproc":
      return `(coproc ${c.name ? word(c.name) + " " : ""}${stmt(c.stmt)})`;
  }
}

function assign(a: A.Assign): string {
  const index = a.index ? `[${word(a.index)}]` : "";
  const value = a.array ? part(a.array) : a.value ? word(a.value) : "";
  return `${a.name}${index}${a.op}${value}`;
}

function redirect(r: A.Redirect): string {
  const head = `${r.fd ?? ""}${r.op}${word(r.target)}`;
  if (!r.heredoc) return head;
  return `${head}<<${word(r.heredoc.body)}>>`;
}

/** A word of a simple command that reads like an assignment is quoted, so that it does not look like one. */
function commandWord(w: A.Word): string {
  const only = w.parts[0];
  const assignmentLike = w.parts.length === 1 && only?.kind === "Lit" && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(only.value);
  return assignmentLike ? JSON.stringify(only.value) : word(w);
}

export function word(w: A.Word): string {
  const only = w.parts[0];
  if (w.parts.length === 1 && only?.kind === "Lit") {
    return /^[^\s(){}"'`;|&<>\\]+$/.test(only.value) ? only.value : JSON.stringify(only.value);
  }
  if (w.parts.length === 0) return '""';
  return `{${w.parts.map(part).join(" ")}}`;
}

function part(p: A.WordPart): string {
  switch (p.kind) {
    case "Lit":
      return `lit:${JSON.stringify(p.value)}`;
    case "SingleQuoted":
      return `sq:${JSON.stringify(p.value)}`;
    case "DoubleQuoted":
      return `dq[${p.parts.map(part).join(" ")}]`;
    case "LocaleQuoted":
      return `locale[${p.parts.map(part).join(" ")}]`;
    case "AnsiCQuoted":
      return `ansi:${JSON.stringify(p.raw)}`;
    case "Escaped":
      return `esc:${JSON.stringify(p.value)}`;
    case "ParamExp": {
      if (p.short) return `$${p.name}`;
      const bits = [p.prefix ?? "", p.name].join("");
      const index = p.index ? ` [${word(p.index)}]` : "";
      const op = p.op !== null ? ` ${JSON.stringify(p.op)} ${p.arg ? word(p.arg) : ""}` : "";
      const repl = p.repl ? ` / ${word(p.repl)}` : "";
      return `\${${bits}${index}${op}${repl}}`;
    }
    case "CmdSubst":
      return p.backquote ? `\`(${stmts(p.stmts)})` : `$(${stmts(p.stmts)})`;
    case "ProcSubst":
      return `${p.op}(${stmts(p.stmts)})`;
    case "ArithExp":
      return p.bracket ? `$[${word(p.expr)}]` : `$((${word(p.expr)}))`;
    case "Glob":
      return `glob:${JSON.stringify(p.value)}`;
    case "BraceExp":
      return `brace:${JSON.stringify(p.value)}`;
    case "Tilde":
      return `~${p.user}`;
    case "ArrayLit":
      return `(array${p.elems.map((w) => " " + word(w)).join("")})`;
  }
}
