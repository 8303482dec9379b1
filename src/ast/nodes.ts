// The syntax tree of a shell command line. Every node has a `kind` and a `span`
// (offsets into the source, end exclusive). Modelled on mvdan/sh: a statement
// carries negation and background, a simple command its assignments, words and
// redirects, a word its parts.

export interface Span {
  start: number;
  end: number;
}

export interface Script {
  kind: "Script";
  span: Span;
  stmts: Stmt[];
  comments: Comment[];
}

export interface Comment {
  kind: "Comment";
  span: Span;
  text: string;
}

export interface Stmt {
  kind: "Stmt";
  span: Span;
  cmd: Command;
  negated: boolean;
  background: boolean;
}

export type Command = SimpleCommand | AndOr | Pipeline | TimeClause | Subshell | Group | If | For | ArithFor | While | Case | Select | FuncDecl | TestClause | ArithCmd | Coproc;

export type CompoundCommand = Exclude<Command, SimpleCommand | AndOr | Pipeline | TimeClause | FuncDecl | Coproc>;

export interface AndOr {
  kind: "AndOr";
  span: Span;
  op: "&&" | "||";
  left: Stmt;
  right: Stmt;
}

export interface Pipeline {
  kind: "Pipeline";
  span: Span;
  stages: Stmt[];
  /** pipeStderr[i] is true when stage i is joined to stage i+1 by `|&`. */
  pipeStderr: boolean[];
}

export interface TimeClause {
  kind: "TimeClause";
  span: Span;
  posix: boolean;
  stmt: Stmt | null;
}

export interface SimpleCommand {
  kind: "SimpleCommand";
  span: Span;
  assigns: Assign[];
  words: Word[];
  /** In source order, wherever they stood among the words. */
  redirects: Redirect[];
}

export interface Assign {
  kind: "Assign";
  span: Span;
  name: string;
  index: Word | null;
  op: "=" | "+=";
  value: Word | null;
  array: ArrayLit | null;
}

export type RedirOperator = "<" | ">" | ">>" | ">|" | "<>" | "&>" | "&>>" | "<&" | ">&" | "<<" | "<<-" | "<<<";

export interface Redirect {
  kind: "Redirect";
  span: Span;
  /** A file descriptor number or a `{name}` variable, as written. */
  fd: string | null;
  op: RedirOperator;
  target: Word;
  heredoc: Heredoc | null;
}

export interface Heredoc {
  kind: "Heredoc";
  /** The body: from the line after the command to the delimiter line (excluded). */
  span: Span;
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
  body: Word;
}

export interface Word {
  kind: "Word";
  span: Span;
  parts: WordPart[];
}

export type WordPart = Lit | SingleQuoted | DoubleQuoted | AnsiCQuoted | LocaleQuoted | Escaped | ParamExp | CmdSubst | ArithExp | ProcSubst | Glob | BraceExp | Tilde | ArrayLit;

/** Literal text; `value` omits line continuations. */
export interface Lit {
  kind: "Lit";
  span: Span;
  value: string;
}

export interface SingleQuoted {
  kind: "SingleQuoted";
  span: Span;
  value: string;
}

export interface DoubleQuoted {
  kind: "DoubleQuoted";
  span: Span;
  parts: WordPart[];
}

/** `$'…'`; `raw` is the text between the quotes, escapes unprocessed. */
export interface AnsiCQuoted {
  kind: "AnsiCQuoted";
  span: Span;
  raw: string;
}

export interface LocaleQuoted {
  kind: "LocaleQuoted";
  span: Span;
  parts: WordPart[];
}

/** A backslash and the character it quotes. */
export interface Escaped {
  kind: "Escaped";
  span: Span;
  value: string;
}

export interface ParamExp {
  kind: "ParamExp";
  span: Span;
  /** `$name` rather than `${…}`. */
  short: boolean;
  /** `#` (length) or `!` (indirection) before the name. */
  prefix: "#" | "!" | null;
  name: string;
  index: Word | null;
  /** The operator as written (`:-`, `#`, `//`, `:`, …); "" for text bash checks only at run time. */
  op: string | null;
  arg: Word | null;
  /** The replacement of `/pat/rep` or the length of `:off:len`; null when absent. */
  repl: Word | null;
}

export interface CmdSubst {
  kind: "CmdSubst";
  span: Span;
  stmts: Stmt[];
  backquote: boolean;
}

export interface ArithExp {
  kind: "ArithExp";
  span: Span;
  /** `$[…]` rather than `$((…))`. */
  bracket: boolean;
  expr: Word;
}

export interface ProcSubst {
  kind: "ProcSubst";
  span: Span;
  op: "<" | ">";
  stmts: Stmt[];
}

/** An unquoted pattern piece: `*`, `?` or a bracket expression. */
export interface Glob {
  kind: "Glob";
  span: Span;
  value: string;
}

/** An unquoted brace expansion such as `{a,b}` or `{1..9}`. */
export interface BraceExp {
  kind: "BraceExp";
  span: Span;
  value: string;
}

/** `~` or `~user` at the start of a word. */
export interface Tilde {
  kind: "Tilde";
  span: Span;
  user: string;
}

/** The `(…)` of an array assignment. */
export interface ArrayLit {
  kind: "ArrayLit";
  span: Span;
  elems: Word[];
}

export interface Subshell {
  kind: "Subshell";
  span: Span;
  stmts: Stmt[];
  redirects: Redirect[];
}

export interface Group {
  kind: "Group";
  span: Span;
  stmts: Stmt[];
  redirects: Redirect[];
}

export interface IfClause {
  kind: "IfClause";
  span: Span;
  cond: Stmt[];
  body: Stmt[];
}

export interface If {
  kind: "If";
  span: Span;
  /** The `if` clause, then each `elif`. */
  clauses: IfClause[];
  elseBody: Stmt[] | null;
  redirects: Redirect[];
}

export interface For {
  kind: "For";
  span: Span;
  name: string;
  /** null when there is no `in` (loop over the positional parameters). */
  items: Word[] | null;
  body: Stmt[];
  /** The body is `{ …; }` instead of `do …; done`. */
  braces: boolean;
  redirects: Redirect[];
}

/** `select name in …; do …; done`: a for loop's parts. */
export interface Select extends Omit<For, "kind"> {
  kind: "Select";
}

export interface ArithFor {
  kind: "ArithFor";
  span: Span;
  /** The text between `((` and `))`, split at its two top-level `;`. */
  init: Word;
  cond: Word;
  post: Word;
  body: Stmt[];
  braces: boolean;
  redirects: Redirect[];
}

export interface While {
  kind: "While";
  span: Span;
  until: boolean;
  cond: Stmt[];
  body: Stmt[];
  redirects: Redirect[];
}

export type CaseTerminator = ";;" | ";&" | ";;&";

export interface CaseArm {
  kind: "CaseArm";
  span: Span;
  patterns: Word[];
  body: Stmt[];
  terminator: CaseTerminator | null;
}

export interface Case {
  kind: "Case";
  span: Span;
  word: Word;
  arms: CaseArm[];
  redirects: Redirect[];
}

export interface FuncDecl {
  kind: "FuncDecl";
  span: Span;
  name: string;
  /** Written with the `function` keyword. */
  keyword: boolean;
  /** Written with `()` after the name. */
  parens: boolean;
  body: Stmt;
}

/** An operator inside `[[ … ]]` that is not a word: `&&`, `||`, `(`, `)`, `<`, `>`. */
export interface TestOp {
  kind: "TestOp";
  span: Span;
  op: "&&" | "||" | "(" | ")" | "<" | ">";
}

export interface TestClause {
  kind: "TestClause";
  span: Span;
  items: (Word | TestOp)[];
  redirects: Redirect[];
}

export interface ArithCmd {
  kind: "ArithCmd";
  span: Span;
  expr: Word;
  redirects: Redirect[];
}

export interface Coproc {
  kind: "Coproc";
  span: Span;
  name: Word | null;
  stmt: Stmt;
}

export type Node = Script | Comment | Stmt | Command | Assign | Redirect | Heredoc | Word | WordPart | IfClause | CaseArm | TestOp;

export type NodeKind = Node["kind"];
