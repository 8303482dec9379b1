// The canonical printer: renders a tree in one normal form, whatever its source
// looked like. parse(printCanonical(t)) gives back t, spans aside (comments are
// not part of the normal form). Statements of a compound command go one per
// line, so here-document bodies always have a line end to follow.
import type * as A from "../ast/nodes.js";
import { isReservedWord } from "../ast/reserved.js";
import { walk } from "../ast/walk.js";

function spellsReserved(w: A.Word | undefined): boolean {
  const p = w?.parts.length === 1 ? w.parts[0] : undefined;
  return p?.kind === "Lit" && isReservedWord(p.value);
}

export function printCanonical(script: A.Script): string {
  const p = new Canon();
  script.stmts.forEach((st, i) => {
    if (i > 0) p.newline();
    p.stmt(st);
  });
  if (p.pending.length) p.newline();
  return p.out;
}

class Canon {
  out = "";
  pending: A.Heredoc[] = [];
  /** Inside double quotes, where a backquoted command also unescapes `\"`. */
  inDq = false;

  newline(): void {
    this.out += "\n";
    const hs = this.pending;
    this.pending = [];
    for (const h of hs) {
      this.parts(h.body.parts);
      this.out += h.delimiter + "\n";
    }
  }

  /** Statements each on a line of their own, each line ended. */
  lines(stmts: A.Stmt[]): void {
    for (const st of stmts) {
      this.stmt(st);
      this.newline();
    }
  }

  stmt(st: A.Stmt): void {
    if (st.negated) this.out += "! ";
    this.command(st.cmd);
    if (st.background) this.out += " &";
  }

  command(c: A.Command): void {
    switch (c.kind) {
      case "SimpleCommand":
        this.simpleCommand(c);
        return;
      case "AndOr":
        this.stmt(c.left);
        this.out += ` ${c.op} `;
        this.stmt(c.right);
        return;
      case "Pipeline":
        c.stages.forEach((st, i) => {
          if (i > 0) this.out += c.pipeStderr[i - 1] ? " |& " : " | ";
          this.stmt(st);
        });
        return;
      case "TimeClause":
        this.out += c.posix ? "time -p" : "time";
        if (c.stmt) {
          this.out += " ";
          this.stmt(c.stmt);
        }
        return;
      case "FuncDecl":
        this.out += c.keyword ? `function ${c.name}${c.parens ? "()" : ""} ` : `${c.name}() `;
        this.stmt(c.body);
        return;
      case "Coproc":
        this.out += "coproc ";
        if (c.name) {
          this.word(c.name);
          this.out += " ";
        }
        this.stmt(c.stmt);
        return;
      default:
        this.compound(c);
        for (const r of c.redirects) {
          this.out += " ";
          this.redirect(r);
        }
    }
  }

  simpleCommand(c: A.SimpleCommand): void {
    let first = true;
    const sep = () => {
      if (!first) this.out += " ";
      first = false;
    };
    for (const a of c.assigns) {
      sep();
      this.assign(a);
    }
    // `2>/dev/null time make` runs a command named `time`: moved first, it would be the keyword.
    const redirectsFirst = !c.assigns.length && c.redirects.length > 0 && spellsReserved(c.words[0]);
    const redirects = () => {
      for (const r of c.redirects) {
        sep();
        this.redirect(r);
      }
    };
    if (redirectsFirst) redirects();
    for (const w of c.words) {
      sep();
      this.word(w);
    }
    if (!redirectsFirst) redirects();
  }

  /** A compound command without its redirects. */
  compound(c: A.CompoundCommand): void {
    switch (c.kind) {
      case "Subshell":
        this.block("(", c.stmts, ")");
        return;
      case "Group":
        this.block("{", c.stmts, "}");
        return;
      case "If":
        this.ifClauses(c);
        return;
      case "While":
        this.out += c.until ? "until " : "while ";
        this.lines(c.cond);
        this.block("do", c.body, "done");
        return;
      case "For":
      case "Select":
        this.out += `${c.kind === "For" ? "for" : "select"} ${c.name}`;
        if (c.items) {
          this.out += " in";
          for (const w of c.items) {
            this.out += " ";
            this.word(w);
          }
        }
        this.out += ";";
        this.newline();
        this.loopBody(c.body, c.braces);
        return;
      case "ArithFor":
        this.out += "for ((";
        this.parts(c.init.parts);
        this.out += ";";
        this.parts(c.cond.parts);
        this.out += ";";
        this.parts(c.post.parts);
        this.out += "))";
        this.newline();
        this.loopBody(c.body, c.braces);
        return;
      case "Case":
        this.caseArms(c);
        return;
      case "TestClause":
        this.out += "[[";
        for (const it of c.items) {
          this.out += " ";
          if (it.kind === "TestOp") this.out += it.op;
          else this.word(it);
        }
        this.out += " ]]";
        return;
      case "ArithCmd":
        this.out += "((";
        this.parts(c.expr.parts);
        this.out += "))";
        return;
    }
  }

  ifClauses(c: A.If): void {
    c.clauses.forEach((cl, i) => {
      this.out += i === 0 ? "if " : "elif ";
      this.lines(cl.cond);
      this.out += "then";
      this.newline();
      this.lines(cl.body);
    });
    if (c.elseBody) {
      this.out += "else";
      this.newline();
      this.lines(c.elseBody);
    }
    this.out += "fi";
  }

  caseArms(c: A.Case): void {
    this.out += "case ";
    this.word(c.word);
    this.out += " in";
    this.newline();
    for (const arm of c.arms) {
      this.out += "(";
      arm.patterns.forEach((w, i) => {
        if (i > 0) this.out += " | ";
        this.word(w);
      });
      this.out += ")";
      this.newline();
      this.lines(arm.body);
      if (arm.terminator) {
        this.out += arm.terminator;
        this.newline();
      }
    }
    this.out += "esac";
  }

  loopBody(body: A.Stmt[], braces: boolean): void {
    if (braces) this.block("{", body, "}");
    else this.block("do", body, "done");
  }

  /** `open`, the statements one a line, `close`: a body that here-documents can end inside. */
  block(open: string, stmts: A.Stmt[], close: string): void {
    this.out += open;
    this.newline();
    this.lines(stmts);
    this.out += close;
  }

  assign(a: A.Assign): void {
    this.out += a.name;
    if (a.index) {
      this.out += "[";
      this.parts(a.index.parts);
      this.out += "]";
    }
    this.out += a.op;
    if (a.array) this.part(a.array);
    else if (a.value) this.parts(a.value.parts);
  }

  redirect(r: A.Redirect): void {
    this.out += (r.fd ?? "") + r.op;
    if (r.target.parts[0]?.kind === "ProcSubst") this.out += " ";
    this.word(r.target);
    if (r.heredoc) this.pending.push(r.heredoc);
  }

  word(w: A.Word): void {
    this.parts(w.parts);
  }

  parts(ps: A.WordPart[]): void {
    for (const p of ps) this.part(p);
  }

  part(p: A.WordPart): void {
    switch (p.kind) {
      case "Lit":
      case "Glob":
      case "BraceExp":
        this.out += p.value;
        return;
      case "Tilde":
        this.out += "~" + p.user;
        return;
      case "Escaped":
        this.out += "\\" + p.value;
        return;
      case "SingleQuoted":
        this.out += `'${p.value}'`;
        return;
      case "AnsiCQuoted":
        this.out += `$'${p.raw}'`;
        return;
      case "DoubleQuoted":
      case "LocaleQuoted":
        this.out += p.kind === "DoubleQuoted" ? '"' : '$"';
        this.inDq = true;
        this.parts(p.parts);
        this.inDq = false;
        this.out += '"';
        return;
      case "ParamExp":
        if (p.short) {
          this.out += "$" + p.name;
          return;
        }
        this.out += "${" + (p.prefix ?? "") + p.name;
        // Inside `${…}` a backquoted command does not unescape `\"`, even within double quotes.
        const inDq = this.inDq;
        this.inDq = false;
        if (p.index) {
          this.out += "[";
          this.parts(p.index.parts);
          this.out += "]";
        }
        if (p.op !== null) {
          this.out += p.op;
          if (p.arg) this.parts(p.arg.parts);
          if (p.repl) {
            this.out += p.op.startsWith("/") ? "/" : ":";
            this.parts(p.repl.parts);
          }
        }
        this.inDq = inDq;
        this.out += "}";
        return;
      case "CmdSubst":
        if (p.backquote) this.backquoted(p.stmts);
        else this.substitution("$(", p.stmts);
        return;
      case "ProcSubst":
        this.substitution(p.op + "(", p.stmts);
        return;
      case "ArithExp":
        this.out += p.bracket ? "$[" : "$((";
        this.parts(p.expr.parts);
        this.out += p.bracket ? "]" : "))";
        return;
      case "ArrayLit":
        this.out += "(";
        p.elems.forEach((w, i) => {
          if (i > 0) this.out += " ";
          this.word(w);
        });
        this.out += ")";
        return;
    }
  }

  substitution(open: string, stmts: A.Stmt[]): void {
    this.out += open;
    if (!stmts.some(hasHeredoc)) {
      // On one line: `a; b`, or `a & b` after a background command.
      const inner = new Canon();
      stmts.forEach((st, i) => {
        if (i > 0) inner.out += stmts[i - 1]!.background ? " " : "; ";
        inner.stmt(st);
      });
      // `$((` would read as arithmetic.
      if (inner.out.startsWith("(")) this.out += " ";
      this.out += inner.out;
    } else {
      // The substitution's own lines: here-documents of the line outside wait for its end,
      // and double quotes around it do not reach in.
      const outer = this.pending;
      const inDq = this.inDq;
      this.pending = [];
      this.inDq = false;
      this.newline();
      this.lines(stmts);
      this.pending = outer;
      this.inDq = inDq;
    }
    this.out += ")";
  }

  backquoted(stmts: A.Stmt[]): void {
    const inner = new Canon();
    stmts.forEach((st, i) => {
      if (i > 0) inner.newline();
      inner.stmt(st);
    });
    if (inner.pending.length) inner.newline();
    this.out += "`" + inner.out.replace(this.inDq ? /[\\`"]/g : /[\\`]/g, (c) => "\\" + c) + "`";
  }
}

function hasHeredoc(n: A.Node): boolean {
  let found = false;
  walk(n, (x) => {
    if (x.kind === "Heredoc") found = true;
    return !found;
  });
  return found;
}
