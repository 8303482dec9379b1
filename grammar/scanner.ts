// A hand-written, mode-driven scanner for the shell language, producing chevrotain
// tokens one at a time. Modes live on a stack of frames: the scanner pushes and
// pops most of them itself (quotes, `${…}`, `$((…))`, here-document bodies), and
// the parser drives the rest through `ScanState` changes (the end of `$(…)`, which
// only the grammar can find because of `case` patterns; the regular expression
// after `=~`; here-documents registered when their delimiter word is complete).
// Every token remembers the state after it, so the parser can re-scan from any
// point in a new mode.
import { EOF, type IToken, type TokenType } from "chevrotain";
import type { Budget } from "./budget.js";
import * as T from "./tokens.js";

import { ShellSyntaxError } from "./errors.js";

export { ShellSyntaxError };

export interface PendingHeredoc {
  /** Chosen by the parser; the body's HeredocStart token carries it back. */
  id: number;
  /** The nesting depth of the command list the redirect stands in: its body follows that list's next newline. */
  depth: number;
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
  /** Where the `<<` stood, for the error when the body never ends. */
  at: number;
}

type Frame =
  | { k: "cmd"; subst: boolean; limit: number }
  | { k: "dq"; open: number; limit: number }
  | { k: "phead"; open: number; limit: number }
  | { k: "pafter"; open: number; indexed: boolean; inDq: boolean; limit: number }
  /** `sq`: inside `'…'` of a word in double quotes, where bash's brace matching skips `}` (the quotes stay literal). */
  | { k: "pword"; open: number; sep: string | null; inDq: boolean; sq: boolean; limit: number }
  | { k: "arith"; open: number; close: "))" | "]"; depth: number; limit: number }
  | { k: "index"; open: number; depth: number; limit: number }
  | { k: "aop"; indexed: boolean; limit: number }
  | { k: "regex"; regex: boolean; depth: number; started: boolean; limit: number }
  | { k: "heredoc"; id: number; quoted: boolean; started: boolean; bodyEnd: number; lineEnd: number; limit: number };

export interface Stack {
  readonly f: Frame;
  readonly up: Stack | null;
  readonly depth: number;
}

export interface ScanState {
  readonly pos: number;
  readonly stack: Stack;
  readonly queue: HeredocQueue;
  /** The previous token ended a word part, so the next one may continue the word. */
  readonly prevPart: boolean;
  /** The next token is an ordinary word even if it reads `time`. */
  readonly timeWord: boolean;
  /** The next `((` is two grouping parens (inside `[[ … ]]`), not arithmetic. */
  readonly groupParen?: boolean;
}

export interface ShellToken extends IToken {
  /** End offset, exclusive. */
  end: number;
  /** No blank, newline or comment between this token and the previous one. */
  adj: boolean;
  /** Cooked text of literal tokens (line continuations removed, escapes resolved). */
  value: string;
  /** The scanner state after this token (read with Scanner.stateAfter). */
  aPos: number;
  aStack: Stack;
  aQueue: HeredocQueue;
  aPrev: boolean;
  aTime: boolean;
}

/** A token; its image is sliced from the source only when something asks (errors, mostly). */
class Token implements ShellToken {
  aPos = 0;
  aStack!: Stack;
  aQueue!: HeredocQueue;
  aPrev = false;
  aTime = false;
  endOffset: number;

  constructor(
    readonly src: string,
    public tokenType: TokenType,
    public tokenTypeIdx: number,
    public startOffset: number,
    public end: number,
    public adj: boolean,
    public value: string,
  ) {
    this.endOffset = end - 1;
  }

  get image(): string {
    return this.src.slice(this.startOffset, this.end);
  }
}

const MAX_DEPTH = 200;
/**
 * The here-documents waiting for their bodies: entries [start, end) of a shared
 * append-only array, so the states kept with every token share it and adding
 * one is O(1) (a line may register thousands).
 */
export interface HeredocQueue {
  readonly items: PendingHeredoc[];
  readonly start: number;
  readonly end: number;
}

const NO_HEREDOCS: HeredocQueue = { items: [], start: 0, end: 0 };

function enqueue(q: HeredocQueue, h: PendingHeredoc): HeredocQueue {
  if (q.items.length === q.end) {
    q.items.push(h);
    return { items: q.items, start: q.start, end: q.end + 1 };
  }
  // An older state adds instead: it gets a copy of its own.
  const items = [...q.items.slice(q.start, q.end), h];
  return { items, start: 0, end: items.length };
}

// Tokens after which a new word starts (everything else may be continued by an
// adjacent part).
const WORD_ENDERS = new Set<TokenType>([
  T.Newline,
  T.Semi,
  T.DSemi,
  T.SemiAmp,
  T.DSemiAmp,
  T.Amp,
  T.AndIf,
  T.OrIf,
  T.Pipe,
  T.PipeAmp,
  T.LParen,
  T.RParen,
  T.DLParen,
  T.IoFd,
  T.Less,
  T.Great,
  T.DGreat,
  T.Clobber,
  T.LessGreat,
  T.AndGreat,
  T.AndDGreat,
  T.LessAnd,
  T.GreatAnd,
  T.DLess,
  T.DLessDash,
  T.TLess,
  T.HeredocStart,
  T.HeredocEnd,
  T.CmdSubstOpen,
  T.ProcSubstOpen,
  ...T.KEYWORDS.values(),
]);

type Ch = string | undefined;
const isBlank = (c: Ch) => c === " " || c === "\t";
const isNameStart = (c: Ch) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_");
const isNameChar = (c: Ch) => isNameStart(c) || (c !== undefined && c >= "0" && c <= "9");
const isDigit = (c: Ch) => c !== undefined && c >= "0" && c <= "9";
const isSpecialParam = (c: Ch) => c !== undefined && c.length === 1 && "@*#?-$!".includes(c);
/** Whether `c` is one of `chars`; never for the end of input. */
const oneOf = (c: Ch, chars: string) => c !== undefined && c.length === 1 && chars.includes(c);

/**
 * Per ASCII code, 0 where scanLiteral must look at the character in command mode
 * (metacharacters, quotes, `$`, backslash, carriage return); 1 elsewhere.
 * Codes past ASCII read undefined, which is not 0: those are plain too.
 */
const CMD_PLAIN = new Uint8Array(128).fill(1);
for (const c of " \t\n;&|()<>'\"`$\\\r") CMD_PLAIN[c.charCodeAt(0)] = 0;

/** The first characters of the operators of command mode (besides newline). */
function isOperatorStart(c: Ch): c is string {
  switch (c) {
    case ";":
    case "&":
    case "|":
    case "(":
    case ")":
    case "<":
    case ">":
      return true;
  }
  return false;
}

/** Characters that end an unquoted word in command mode: blanks, newline and the operators' first characters. */
function isMeta(c: Ch): boolean {
  return c === " " || c === "\t" || c === "\n" || isOperatorStart(c);
}

const PARAM_OPS = [":-", ":=", ":?", ":+", "##", "%%", "//", "/#", "/%", "^^", ",,", ":", "-", "=", "?", "+", "#", "%", "/", "^", ",", "@"];

export class Scanner {
  private src = "";
  private pos = 0;
  /** Where the budget was last charged for the characters moved over. */
  private charged = 0;
  private stack!: Stack;
  private queue: HeredocQueue = NO_HEREDOCS;
  private prevPart = false;
  private timeWord = false;
  private groupParen = false;
  /** Comments seen, by offset (a re-scan may meet the same comment twice). */
  comments = new Map<number, string>();
  private budget: Budget | null = null;

  reset(src: string, base = 0, limit = src.length, budget: Budget | null = null): void {
    this.src = src;
    this.budget = budget;
    this.pos = base;
    this.charged = base;
    this.stack = { f: { k: "cmd", subst: false, limit }, up: null, depth: 0 };
    this.queue = NO_HEREDOCS;
    this.prevPart = false;
    this.timeWord = false;
    this.groupParen = false;
    this.comments = new Map();
  }

  /** Drops the source, so nothing of a large input stays alive until the next reset. */
  release(): void {
    this.src = "";
    this.budget = null;
  }

  get state(): ScanState {
    return { pos: this.pos, stack: this.stack, queue: this.queue, prevPart: this.prevPart, timeWord: this.timeWord, groupParen: this.groupParen };
  }

  restore(s: ScanState): void {
    this.pos = s.pos;
    // What is scanned again is charged again.
    this.charged = s.pos;
    this.stack = s.stack;
    this.queue = s.queue;
    this.prevPart = s.prevPart;
    this.timeWord = s.timeWord;
    this.groupParen = s.groupParen ?? false;
  }

  // State changes the parser asks for.

  /** Leaves the `$(…)` / `<(…)` whose `)` the parser just consumed. */
  static closeSubst(s: ScanState): ScanState {
    if (s.stack.f.k !== "cmd" || !s.stack.f.subst || !s.stack.up) throw new ShellSyntaxError(s.pos - 1, "unexpected `)`");
    return { ...s, stack: s.stack.up, prevPart: true };
  }

  /** Scans the next word as the regular expression of `=~` or the pattern of `==` in `[[ ]]`. */
  static patternNext(s: ScanState, regex: boolean): ScanState {
    const f = s.stack.f;
    return { ...s, stack: push(s.stack, { k: "regex", regex, depth: 0, started: false, limit: f.limit }) };
  }

  /** Scans a `time` next as an ordinary word: bash reserves it only where a pipeline may start, not after `|` or `coproc`. */
  static timeAsWord(s: ScanState): ScanState {
    return { ...s, timeWord: true };
  }

  /** Scans a `((` next as two grouping parens: inside `[[ … ]]` there is no arithmetic command. */
  static parensAsGroups(s: ScanState): ScanState {
    return { ...s, groupParen: true };
  }

  static addHeredoc(s: ScanState, h: Omit<PendingHeredoc, "depth">): ScanState {
    return { ...s, queue: enqueue(s.queue, { ...h, depth: s.stack.depth }) };
  }

  next(): ShellToken {
    if (this.budget) {
      const moved = this.pos - this.charged;
      this.charged = this.pos;
      this.budget.tick(this.pos, moved > 0 ? moved : 0);
    }
    for (;;) {
      const f = this.stack.f;
      let t: ShellToken | null;
      switch (f.k) {
        case "cmd":
          t = this.scanCmd(f);
          break;
        case "dq":
          t = this.scanDq(f);
          break;
        case "phead":
          t = this.scanParamHead(f);
          break;
        case "pafter":
          t = this.scanParamAfter(f);
          break;
        case "pword":
          t = this.scanParamWord(f);
          break;
        case "arith":
          t = this.scanArith(f);
          break;
        case "index":
          t = this.scanIndex(f);
          break;
        case "aop":
          t = this.scanAssignOp(f);
          break;
        case "regex":
          t = this.scanRegex(f);
          break;
        case "heredoc":
          t = this.scanHeredoc(f);
          break;
      }
      if (t) return t;
    }
  }

  // ---- token construction -------------------------------------------------

  private make(type: TokenType, start: number, end: number, adj: boolean, value = ""): ShellToken {
    if (type !== EOF) this.prevPart = !WORD_ENDERS.has(type);
    this.groupParen = false;
    this.pos = end;
    const t = new Token(this.src, type, type.tokenTypeIdx!, start, end, adj, value);
    this.stamp(t);
    return t;
  }

  /** Records the scanner state after `t` (again after a frame change that belongs to it). */
  private stamp(t: ShellToken): void {
    t.aPos = this.pos;
    t.aStack = this.stack;
    t.aQueue = this.queue;
    t.aPrev = this.prevPart;
    t.aTime = this.timeWord;
  }

  static stateAfter(t: ShellToken): ScanState {
    return { pos: t.aPos, stack: t.aStack, queue: t.aQueue, prevPart: t.aPrev, timeWord: t.aTime };
  }

  private pushFrame(f: Frame): void {
    if (this.stack.depth >= MAX_DEPTH) throw new ShellSyntaxError(this.pos, "nesting too deep");
    this.stack = push(this.stack, f);
  }

  private popFrame(): void {
    this.stack = this.stack.up!;
  }

  private replaceFrame(f: Frame): void {
    this.stack = { f, up: this.stack.up, depth: this.stack.depth };
  }

  private eof(): ShellToken {
    const p = this.pos;
    const t = new Token(this.src, EOF, EOF.tokenTypeIdx!, p, p, false, "");
    t.endOffset = p;
    this.stamp(t);
    return t;
  }

  private isContinuation(p: number): number {
    const s = this.src;
    if (s[p] !== "\\") return 0;
    if (s[p + 1] === "\n") return 2;
    if (s[p + 1] === "\r" && s[p + 2] === "\n") return 3;
    return 0;
  }

  /** `p`, or the offset after the line continuations that start there. */
  private pastContinuations(p: number, limit: number): number {
    for (let k = this.isContinuation(p); k && p + k <= limit; k = this.isContinuation(p)) p += k;
    return p;
  }

  /** The text of `[start, end)` without its line continuations. */
  private cooked(start: number, end: number): string {
    return this.src.slice(start, end).replace(/\\\r?\n/g, "");
  }

  private newlineAt(p: number): number {
    const c = this.src[p];
    if (c === "\n") return 1;
    if (c === "\r" && this.src[p + 1] === "\n") return 2;
    return 0;
  }

  // ---- command mode -------------------------------------------------------

  private scanCmd(f: Extract<Frame, { k: "cmd" }>): ShellToken | null {
    const s = this.src;
    const limit = f.limit;
    let blank = false;
    for (;;) {
      const c = s[this.pos];
      if (this.pos >= limit) break;
      if (isBlank(c)) {
        this.pos++;
        blank = true;
        continue;
      }
      const k = this.isContinuation(this.pos);
      if (k && this.pos + k <= limit) {
        this.pos += k;
        continue;
      }
      if (c === "#" && (blank || !this.prevPart)) {
        const start = this.pos;
        let end = start;
        while (end < limit && s[end] !== "\n" && !(s[end] === "\r" && s[end + 1] === "\n")) end++;
        this.comments.set(start, s.slice(start, end));
        this.pos = end;
        blank = true;
        continue;
      }
      break;
    }
    const p = this.pos;
    if (p >= limit) return this.eof();
    const adj = !blank;
    const atWordStart = blank || !this.prevPart;
    const c = s[p];
    const nl = this.newlineAt(p);
    if (nl) {
      const t = this.make(T.Newline, p, p + nl, adj);
      this.startHeredoc();
      this.stamp(t);
      return t;
    }
    if (isOperatorStart(c)) return this.scanOperator(c, p, adj, atWordStart, limit);
    if (atWordStart) {
      const fd = this.ioFdAhead(p, limit);
      if (fd) return this.make(T.IoFd, p, fd, adj, this.cooked(p, fd));
      const name = this.assignAhead(p, limit);
      if (name) {
        const t = this.make(T.AssignName, p, name.end, adj, this.cooked(p, name.end));
        this.pushFrame({ k: "aop", indexed: name.indexed, limit });
        this.stamp(t);
        return t;
      }
    }
    return this.scanPart("cmd", adj, atWordStart, limit);
  }

  /** An operator starting with `c` at `p`. */
  private scanOperator(c: string, p: number, adj: boolean, atWordStart: boolean, limit: number): ShellToken {
    const s = this.src;
    // Line continuations may split an operator: bash reads `&\<newline>&` as `&&`.
    const q1 = this.pastContinuations(p + 1, limit);
    const c1 = q1 < limit ? s[q1] : undefined;
    const q2 = this.pastContinuations(q1 + 1, limit);
    const c2 = q2 < limit ? s[q2] : undefined;
    switch (c) {
      case ";":
        if (c1 === ";") return c2 === "&" ? this.make(T.DSemiAmp, p, q2 + 1, adj) : this.make(T.DSemi, p, q1 + 1, adj);
        if (c1 === "&") return this.make(T.SemiAmp, p, q1 + 1, adj);
        return this.make(T.Semi, p, p + 1, adj);
      case "&":
        if (c1 === "&") return this.make(T.AndIf, p, q1 + 1, adj);
        if (c1 === ">") return c2 === ">" ? this.make(T.AndDGreat, p, q2 + 1, adj) : this.make(T.AndGreat, p, q1 + 1, adj);
        return this.make(T.Amp, p, p + 1, adj);
      case "|":
        if (c1 === "|") return this.make(T.OrIf, p, q1 + 1, adj);
        if (c1 === "&") return this.make(T.PipeAmp, p, q1 + 1, adj);
        return this.make(T.Pipe, p, p + 1, adj);
      case "(":
        if (c1 === "(" && atWordStart && !this.groupParen && this.arithAhead(q1 + 1)) {
          const t = this.make(T.DLParen, p, q1 + 1, adj);
          this.pushFrame({ k: "arith", open: p, close: "))", depth: 0, limit });
          this.stamp(t);
          return t;
        }
        return this.make(T.LParen, p, p + 1, adj);
      case ")":
        return this.make(T.RParen, p, p + 1, adj);
      case "<":
        if (c1 === "(") return this.openSubst(T.ProcSubstOpen, p, q1 + 1, adj);
        if (c1 === "<") {
          if (c2 === "<") return this.make(T.TLess, p, q2 + 1, adj);
          if (c2 === "-") return this.make(T.DLessDash, p, q2 + 1, adj);
          return this.make(T.DLess, p, q1 + 1, adj);
        }
        if (c1 === ">") return this.make(T.LessGreat, p, q1 + 1, adj);
        if (c1 === "&") return this.make(T.LessAnd, p, q1 + 1, adj);
        return this.make(T.Less, p, p + 1, adj);
      default: // ">"
        if (c1 === "(") return this.openSubst(T.ProcSubstOpen, p, q1 + 1, adj);
        if (c1 === ">") return this.make(T.DGreat, p, q1 + 1, adj);
        if (c1 === "|") return this.make(T.Clobber, p, q1 + 1, adj);
        if (c1 === "&") return this.make(T.GreatAnd, p, q1 + 1, adj);
        return this.make(T.Great, p, p + 1, adj);
    }
  }

  private openSubst(type: TokenType, start: number, end: number, adj: boolean): ShellToken {
    const t = this.make(type, start, end, adj);
    this.pushFrame({ k: "cmd", subst: true, limit: this.stack.f.limit });
    this.prevPart = false;
    this.stamp(t);
    return t;
  }

  /** `2>` or `{fd}<`: a file descriptor prefix of a redirect. Returns its end. */
  private ioFdAhead(p: number, limit: number): number {
    const s = this.src;
    let q = p;
    if (isDigit(s[q])) {
      while (isDigit(s[q])) q = this.pastContinuations(q + 1, limit);
    } else if (s[q] === "{" && isNameStart(s[q + 1])) {
      q++;
      while (isNameChar(s[q])) q++;
      if (s[q] !== "}") return 0;
      q = this.pastContinuations(q + 1, limit);
    } else {
      return 0;
    }
    return s[q] === "<" || s[q] === ">" ? q : 0;
  }

  /** `name=`, `name+=` or `name[…]=` at a word start. */
  private assignAhead(p: number, limit: number): { end: number; indexed: boolean } | null {
    const s = this.src;
    if (!isNameStart(s[p])) return null;
    let q = p + 1;
    for (;;) {
      if (isNameChar(s[q])) q++;
      else {
        const after = this.pastContinuations(q, limit);
        if (after === q) break;
        q = after;
      }
    }
    const end = q;
    if (s[q] === "[") {
      let depth = 0;
      for (; q < s.length; q++) {
        const c = s[q];
        if (c === "[") depth++;
        else if (c === "]") {
          if (--depth === 0) break;
        } else if (c === "\\") q++;
        else if (c === "'" || c === '"') {
          const close = s.indexOf(c, q + 1);
          if (close < 0) return null;
          q = close;
        } else if (isBlank(c) || c === "\n") return null;
      }
      if (s[q] !== "]") return null;
      return this.assignOpAt(this.pastContinuations(q + 1, limit), limit) ? { end, indexed: true } : null;
    }
    return this.assignOpAt(q, limit) ? { end, indexed: false } : null;
  }

  /** `=` or `+=` at `o`. */
  private assignOpAt(o: number, limit: number): boolean {
    const s = this.src;
    return s[o] === "=" || (s[o] === "+" && s[this.pastContinuations(o + 1, limit)] === "=");
  }

  private scanAssignOp(f: Extract<Frame, { k: "aop" }>): ShellToken {
    const p = this.pastContinuations(this.pos, f.limit);
    const s = this.src;
    if (f.indexed && s[p] === "[") {
      const t = this.make(T.IndexOpen, p, p + 1, true, "[");
      this.replaceFrame({ k: "aop", indexed: false, limit: f.limit });
      this.pushFrame({ k: "index", open: p, depth: 0, limit: f.limit });
      this.stamp(t);
      return t;
    }
    const end = s[p] === "+" ? this.pastContinuations(p + 1, f.limit) + 1 : p + 1;
    this.popFrame();
    return this.make(T.AssignOp, p, end, true, s[p] === "+" ? "+=" : "=");
  }

  /** Whether `((` / `$((` at `p` (just after the parens) closes as arithmetic. */
  private arithAhead(p: number): boolean {
    const s = this.src;
    let depth = 0;
    for (let q = p; q < s.length; q++) {
      const c = s[q];
      if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) return s[q + 1] === ")";
        depth--;
      } else if (c === "\\") q++;
      else if (c === "'" || c === '"' || c === "`") {
        const close = s.indexOf(c, q + 1);
        if (close < 0) return false;
        q = close;
      }
    }
    return false;
  }

  // ---- word parts, shared by every mode -------------------------------------

  private scanPart(mode: "cmd" | "dq" | "pword" | "arith" | "index" | "regex" | "heredoc", adj: boolean, atWordStart: boolean, limit: number): ShellToken | null {
    const s = this.src;
    const p = this.pos;
    const c = s[p];
    const inDq = mode === "dq" || mode === "heredoc";
    const pwordInDq = mode === "pword" && (this.stack.f as { inDq: boolean }).inDq;
    // Inside `'…'` of such a word, `"` and `\` are plain characters: bash's brace matching skips the quoted text.
    if (pwordInDq && (this.stack.f as { sq: boolean }).sq && (c === '"' || c === "\\")) return this.scanLiteral(mode, adj, atWordStart, limit);
    if (c === "'" && !inDq && !pwordInDq) {
      const close = s.indexOf("'", p + 1);
      if (close < 0 || close >= limit) throw new ShellSyntaxError(p, "unterminated single quote");
      return this.make(T.SingleQuote, p, close + 1, adj, s.slice(p + 1, close));
    }
    if (c === '"' && mode !== "dq" && mode !== "heredoc") {
      const t = this.make(T.DQOpen, p, p + 1, adj);
      this.pushFrame({ k: "dq", open: p, limit });
      this.stamp(t);
      return t;
    }
    if (c === "$" && p + 1 < limit) {
      const t = this.scanDollar(p, adj, inDq, limit);
      if (t) return t;
    }
    if (c === "`") return this.scanBackquote(p, adj, limit, mode === "dq");
    if (c === "\\") {
      const k = this.isContinuation(p);
      if (k && p + k <= limit) {
        this.pos = p + k;
        return null;
      }
      if (p + 1 >= limit) return this.make(T.Lit, p, p + 1, adj, "\\");
      const n = s[p + 1];
      if (mode === "dq" ? oneOf(n, '$`"\\') : mode === "heredoc" ? oneOf(n, "$`\\") : true) {
        return this.make(T.Escaped, p, p + 2, adj, n);
      }
    }
    return this.scanLiteral(mode, adj, atWordStart, limit);
  }

  private scanDollar(p: number, adj: boolean, inDq: boolean, limit: number): ShellToken | null {
    const s = this.src;
    // `$\<newline>x` is `$x`, as everywhere outside single quotes.
    const at = this.pastContinuations(p + 1, limit);
    const n = at < limit ? s[at] : undefined;
    if (n === "'" && !inDq) {
      let q = at + 1;
      while (q < limit && s[q] !== "'") q += s[q] === "\\" ? 2 : 1;
      if (q >= limit) throw new ShellSyntaxError(p, "unterminated $'…' string");
      return this.make(T.AnsiCQuote, p, q + 1, adj, s.slice(at + 1, q));
    }
    if (n === '"' && !inDq) {
      const t = this.make(T.LocaleOpen, p, at + 1, adj);
      this.pushFrame({ k: "dq", open: p, limit });
      this.stamp(t);
      return t;
    }
    if (n === "(") {
      const second = this.pastContinuations(at + 1, limit);
      if (s[second] === "(" && this.arithAhead(second + 1)) {
        const t = this.make(T.ArithOpen, p, second + 1, adj);
        this.pushFrame({ k: "arith", open: p, close: "))", depth: 0, limit });
        this.stamp(t);
        return t;
      }
      return this.openSubst(T.CmdSubstOpen, p, at + 1, adj);
    }
    if (n === "{") {
      const t = this.make(T.ParamOpen, p, at + 1, adj);
      this.pushFrame({ k: "phead", open: p, limit });
      this.stamp(t);
      return t;
    }
    if (n === "[") {
      const t = this.make(T.ArithBracketOpen, p, at + 1, adj);
      this.pushFrame({ k: "arith", open: p, close: "]", depth: 0, limit });
      this.stamp(t);
      return t;
    }
    if (isNameStart(n)) {
      let q = at + 1;
      let name: string = n!;
      for (;;) {
        const k = this.isContinuation(q);
        if (k) {
          if (!isNameChar(s[q + k])) break;
          q += k;
          continue;
        }
        const c = s[q];
        if (q >= limit || c === undefined || !isNameChar(c)) break;
        name += c;
        q++;
      }
      return this.make(T.ParamShort, p, q, adj, name);
    }
    if (isDigit(n) || isSpecialParam(n)) return this.make(T.ParamShort, p, at + 1, adj, n);
    return null;
  }

  private scanBackquote(p: number, adj: boolean, limit: number, inDq: boolean): ShellToken {
    const s = this.src;
    let q = p + 1;
    while (q < limit && s[q] !== "`") q += s[q] === "\\" ? 2 : 1;
    if (q >= limit) throw new ShellSyntaxError(p, "unterminated backquote");
    return this.make(T.Backquote, p, q + 1, adj, inDq ? "dq" : "");
  }

  private scanLiteral(mode: "cmd" | "dq" | "pword" | "arith" | "index" | "regex" | "heredoc", adj: boolean, atWordStart: boolean, limit: number): ShellToken | null {
    const s = this.src;
    const start = this.pos;
    let q = start;
    let value = "";
    let chunk = start;
    const f = this.stack.f;
    let depth = f.k === "arith" || f.k === "index" || f.k === "regex" ? f.depth : 0;
    const sep = f.k === "pword" ? f.sep : null;
    const pwordInDq = f.k === "pword" && f.inDq;
    let sq = f.k === "pword" && f.sq;
    // The common case first: a run of characters that are plain in command mode.
    if (mode === "cmd") while (q < limit && CMD_PLAIN[s.charCodeAt(q)] !== 0) q++;
    scan: while (q < limit) {
      const c = s[q];
      switch (mode) {
        case "cmd":
          if (isMeta(c) || c === "'" || c === '"' || c === "`" || c === "$") break scan;
          if (c === "\r" && s[q + 1] === "\n") break scan;
          break;
        case "dq":
          if (c === '"' || c === "`" || c === "$") break scan;
          break;
        case "heredoc":
          if (c === "`" || c === "$") break scan;
          break;
        case "pword":
          if (c === "`" || c === "$" || (c === "'" && !pwordInDq)) break scan;
          if (!sq && (c === "}" || c === sep || c === '"')) break scan;
          if (c === "'") sq = !sq;
          // Quoted text of a word in double quotes: no escapes inside it.
          if (sq && c === "\\") {
            q++;
            continue;
          }
          break;
        case "arith":
        case "index":
          if (c === "`" || c === "$" || c === "'" || c === '"') break scan;
          if (c === "(" || c === "[") depth++;
          else if (c === ")" || c === "]") {
            if (depth === 0) {
              if (f.k === "arith" && f.close === "))" && c === ")" && s[q + 1] === ")") break scan;
              if ((f.k === "index" || (f.k === "arith" && f.close === "]")) && c === "]") break scan;
              if (f.k === "arith" && f.close === "))" && c === ")") throw new ShellSyntaxError(q, "unexpected `)` in arithmetic");
            } else depth--;
          }
          break;
        case "regex":
          if (c === "`" || c === "$" || c === "'" || c === '"') break scan;
          if (depth === 0 && (isBlank(c) || c === "\n" || (c === "\r" && s[q + 1] === "\n"))) break scan;
          if (c === "(") depth++;
          else if (c === ")") {
            if (depth === 0) break scan;
            depth--;
          }
          break;
      }
      if (c === "\\") {
        const k = this.isContinuation(q);
        if (k) {
          value += s.slice(chunk, q);
          q += k;
          chunk = q;
          continue;
        }
        if (mode === "dq" ? oneOf(s[q + 1], '$`"\\') : mode === "heredoc" ? oneOf(s[q + 1], "$`\\") : true) {
          if (q + 1 < limit) break scan;
        }
        q += q + 1 < limit ? 2 : 1;
        continue;
      }
      q++;
    }
    if (q === start) {
      // Only a lone character the mode does not treat specially (`$` before a
      // non-name, for instance) can get here: it is literal.
      q = start + 1;
    }
    value += s.slice(chunk, q);
    if (f.k === "arith" || f.k === "index" || f.k === "regex") {
      if (depth !== f.depth) this.replaceFrame({ ...f, depth } as Frame);
    }
    if (f.k === "pword" && sq !== f.sq) this.replaceFrame({ ...f, sq });
    let type: TokenType = T.Lit;
    if (mode === "cmd" && atWordStart) {
      const kw = T.keywordOf(value);
      if (kw && !(kw === T.Time && this.timeWord) && (q >= limit || isMeta(s[q]) || this.newlineAt(q))) type = kw;
    }
    return this.make(type, start, q, adj, value);
  }

  // ---- double quotes ------------------------------------------------------

  private scanDq(f: Extract<Frame, { k: "dq" }>): ShellToken | null {
    const p = this.pos;
    if (p >= f.limit) throw new ShellSyntaxError(f.open, "unterminated double quote");
    if (this.src[p] === '"') {
      this.popFrame();
      return this.make(T.DQClose, p, p + 1, true);
    }
    return this.scanPart("dq", true, false, f.limit);
  }

  // ---- ${…} -----------------------------------------------------------------

  private scanParamHead(f: Extract<Frame, { k: "phead" }>): ShellToken {
    const s = this.src;
    const start = this.pos;
    let q = start;
    let prefix = "";
    const c = s[q];
    if ((c === "#" || c === "!") && q + 1 < f.limit && s[q + 1] !== "}") {
      const n = s[q + 1];
      if (isNameStart(n) || isDigit(n) || isSpecialParam(n)) {
        prefix = c;
        q++;
      }
    }
    const n = s[q];
    if (isNameStart(n)) {
      while (q < f.limit && isNameChar(s[q])) q++;
    } else if (isDigit(n)) {
      while (q < f.limit && isDigit(s[q])) q++;
    } else if (isSpecialParam(n)) {
      q++;
    }
    const inDq = this.stack.up?.f.k === "dq" || this.stack.up?.f.k === "heredoc";
    const t = this.make(T.ParamName, start, q, true, prefix);
    this.replaceFrame({ k: "pafter", open: f.open, indexed: false, inDq, limit: f.limit });
    this.stamp(t);
    return t;
  }

  private scanParamAfter(f: Extract<Frame, { k: "pafter" }>): ShellToken {
    const s = this.src;
    // A line continuation is nothing here (`${x\<newline>}` is `${x}`).
    const p = (this.pos = this.pastContinuations(this.pos, f.limit));
    if (p >= f.limit) throw new ShellSyntaxError(f.open, "unterminated ${…}");
    if (s[p] === "}") {
      this.popFrame();
      return this.make(T.ParamClose, p, p + 1, true);
    }
    if (s[p] === "[" && !f.indexed) {
      const t = this.make(T.IndexOpen, p, p + 1, true, "[");
      this.replaceFrame({ ...f, indexed: true });
      this.pushFrame({ k: "index", open: p, depth: 0, limit: f.limit });
      this.stamp(t);
      return t;
    }
    // An operator's second character may follow a continuation: `${x/\<newline>/y}` is `${x//y}`.
    const second = this.pastContinuations(p + 1, f.limit);
    const two = (s[p] ?? "") + (second < f.limit ? (s[second] ?? "") : "");
    let op = "";
    for (const o of PARAM_OPS) {
      if (two.startsWith(o)) {
        op = o;
        break;
      }
    }
    const sep = op.startsWith("/") ? "/" : op === ":" ? ":" : null;
    const t = this.make(T.ParamOp, p, op.length === 2 ? second + 1 : p + op.length, true, op);
    this.replaceFrame({ k: "pword", open: f.open, sep, inDq: f.inDq, sq: false, limit: f.limit });
    this.stamp(t);
    return t;
  }

  private scanParamWord(f: Extract<Frame, { k: "pword" }>): ShellToken | null {
    const s = this.src;
    const p = this.pos;
    if (p >= f.limit) throw new ShellSyntaxError(f.open, "unterminated ${…}");
    if (s[p] === "}" && !f.sq) {
      this.popFrame();
      return this.make(T.ParamClose, p, p + 1, true);
    }
    if (f.sep !== null && s[p] === f.sep && !f.sq) {
      const t = this.make(T.ParamSep, p, p + 1, true, f.sep);
      this.replaceFrame({ ...f, sep: null });
      this.stamp(t);
      return t;
    }
    return this.scanPart("pword", true, false, f.limit);
  }

  // ---- arithmetic and indexes -----------------------------------------------

  private scanArith(f: Extract<Frame, { k: "arith" }>): ShellToken | null {
    const s = this.src;
    const p = this.pos;
    if (p >= f.limit) throw new ShellSyntaxError(f.open, "unterminated arithmetic expression");
    if (f.depth === 0) {
      if (f.close === "))" && s[p] === ")" && s[p + 1] === ")") {
        this.popFrame();
        const t = this.make(T.ArithClose, p, p + 2, true);
        // The `))` of `(( … ))` and `for (( … ))` ends a command part, as an operator does: a word starts after it.
        if (s[f.open] !== "$") {
          this.prevPart = false;
          this.stamp(t);
        }
        return t;
      }
      if (f.close === "]" && s[p] === "]") {
        this.popFrame();
        return this.make(T.ArithBracketClose, p, p + 1, true);
      }
    }
    return this.scanPart("arith", true, false, f.limit);
  }

  private scanIndex(f: Extract<Frame, { k: "index" }>): ShellToken | null {
    const p = this.pos;
    if (p >= f.limit) throw new ShellSyntaxError(f.open, "unterminated `[`");
    if (f.depth === 0 && this.src[p] === "]") {
      this.popFrame();
      return this.make(T.IndexClose, p, p + 1, true, "]");
    }
    return this.scanPart("index", true, false, f.limit);
  }

  // ---- the word after =~ -----------------------------------------------------

  private scanRegex(f: Extract<Frame, { k: "regex" }>): ShellToken | null {
    const s = this.src;
    let blank = false;
    if (!f.started) {
      while (this.pos < f.limit && (isBlank(s[this.pos]) || this.isContinuation(this.pos))) {
        blank ||= isBlank(s[this.pos]);
        this.pos += isBlank(s[this.pos]) ? 1 : this.isContinuation(this.pos);
      }
    }
    const p = this.pos;
    const c = s[p];
    // A pattern may not start with `(` (bash reads it as a misplaced operator); a regex may.
    const end = p >= f.limit || (f.depth === 0 && (isBlank(c) || this.newlineAt(p) || c === ")"));
    if (end || (!f.started && !f.regex && c === "(")) {
      this.popFrame();
      if (!f.started) this.prevPart = false;
      return null;
    }
    if (!f.started) this.replaceFrame({ ...f, started: true });
    return this.scanPart("regex", f.started ? true : !blank, !f.started, f.limit);
  }

  // ---- here-documents ------------------------------------------------------

  /** After a newline: the first here-document pending at this level has its body here. */
  private startHeredoc(): void {
    const q = this.queue;
    if (q.start === q.end) return;
    const depth = this.stack.depth;
    let at = q.start;
    while (at < q.end && q.items[at]!.depth !== depth) at++;
    if (at === q.end) return;
    const h = q.items[at]!;
    if (at === q.start) this.queue = at + 1 === q.end ? NO_HEREDOCS : { items: q.items, start: at + 1, end: q.end };
    else {
      const items = q.items.slice(q.start, q.end).filter((_, i) => i !== at - q.start);
      this.queue = { items, start: 0, end: items.length };
    }
    const s = this.src;
    const limit = this.stack.f.limit;
    let ls = this.pos;
    for (;;) {
      if (ls >= limit) {
        throw new ShellSyntaxError(h.at, `here-document delimited by end of input (wanted \`${h.delimiter}\`)`);
      }
      let le = s.indexOf("\n", ls);
      if (le < 0 || le > limit) le = limit;
      let line = s.slice(ls, le);
      // In an unquoted body, `\<newline>` joins a line to the next before the delimiter is looked for.
      while (!h.quoted && le < limit && oddBackslashesAtEnd(line)) {
        let next = s.indexOf("\n", le + 1);
        if (next < 0 || next > limit) next = limit;
        line = line.slice(0, -1) + s.slice(le + 1, next);
        le = next;
      }
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (h.stripTabs) line = line.replace(/^\t+/, "");
      if (line === h.delimiter) {
        this.pushFrame({
          k: "heredoc",
          id: h.id,
          quoted: h.quoted,
          started: false,
          bodyEnd: ls,
          lineEnd: le < limit ? le + 1 : le,
          limit: ls,
        });
        return;
      }
      ls = le + 1;
    }
  }

  private scanHeredoc(f: Extract<Frame, { k: "heredoc" }>): ShellToken | null {
    const p = this.pos;
    if (!f.started) {
      this.replaceFrame({ ...f, started: true });
      return this.make(T.HeredocStart, p, p, true, String(f.id));
    }
    if (p >= f.bodyEnd) {
      this.popFrame();
      const t = this.make(T.HeredocEnd, f.bodyEnd, f.lineEnd, true);
      this.startHeredoc();
      this.stamp(t);
      return t;
    }
    if (f.quoted) {
      const value = this.src.slice(p, f.bodyEnd);
      return this.make(T.Lit, p, f.bodyEnd, true, value);
    }
    return this.scanPart("heredoc", true, false, f.bodyEnd);
  }
}

function oddBackslashesAtEnd(line: string): boolean {
  let n = 0;
  while (n < line.length && line[line.length - 1 - n] === "\\") n++;
  return n % 2 === 1;
}

function push(stack: Stack, f: Frame): Stack {
  return { f, up: stack, depth: stack.depth + 1 };
}
