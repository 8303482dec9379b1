// The shell grammar: a chevrotain EmbeddedActionsParser that builds the AST of
// src/ast/nodes.ts directly. Tokens come one at a time from the Scanner (LA is
// overridden), so the parser can change the scanner's mode at the exact token
// where the grammar knows it must (see scanner.ts). Words are split into their
// parts in words.ts; `[[ … ]]` expressions are checked in condition.ts.
import { EmbeddedActionsParser, EOF, tokenMatcher, type IOrAlt, type IToken, type IParserErrorMessageProvider, type TokenType } from "chevrotain";
import type * as A from "../src/ast/nodes.js";
import type { Budget } from "./budget.js";
import { ConditionCheck } from "./condition.js";
import { Scanner, ShellSyntaxError, type ScanState, type ShellToken } from "./scanner.js";
import * as T from "./tokens.js";
import { finishWord, keyedElement, litOf, mergeLits, splitArithFor, wordOf } from "./words.js";

/** A backquoted command: parsed after the main pass, from its unescaped text. */
export interface BackquoteJob {
  node: A.CmdSubst;
  contentStart: number;
  contentEnd: number;
  inDq: boolean;
}

const MAX_NESTING = 100;

/** What LA(0) answers before the first token is consumed. */
const NOTHING = { image: "", startOffset: 0, tokenType: EOF, tokenTypeIdx: EOF.tokenTypeIdx } as IToken;

const describe = (t: IToken): string => (t.tokenType === EOF ? "end of input" : t.tokenType === T.Newline ? "newline" : "`" + t.image + "`");

const labelOf = (t: TokenType): string => t.LABEL ?? t.name;

const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual }) => (expected === EOF ? `unexpected ${describe(actual)}` : `expected ${labelOf(expected)} but found ${describe(actual)}`),
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${describe(firstRedundant)}`,
  buildNoViableAltMessage: ({ actual }) => `unexpected ${describe(actual[0]!)}`,
  buildEarlyExitMessage: ({ actual }) => `unexpected ${describe(actual[0]!)}`,
};

const sp = (start: number, end: number): A.Span => ({ start, end });
const tk = (t: IToken) => t as ShellToken;

const REDIR_OPS = new Map<TokenType, A.RedirOperator>([
  [T.Less, "<"],
  [T.Great, ">"],
  [T.DGreat, ">>"],
  [T.Clobber, ">|"],
  [T.LessGreat, "<>"],
  [T.AndGreat, "&>"],
  [T.AndDGreat, "&>>"],
  [T.LessAnd, "<&"],
  [T.GreatAnd, ">&"],
  [T.DLess, "<<"],
  [T.DLessDash, "<<-"],
  [T.TLess, "<<<"],
]);

const CASE_TERMINATORS = new Map<TokenType, A.CaseTerminator>([
  [T.DSemi, ";;"],
  [T.SemiAmp, ";&"],
  [T.DSemiAmp, ";;&"],
]);

const TEST_OPS = new Map<TokenType, A.TestOp["op"]>([
  [T.AndIf, "&&"],
  [T.OrIf, "||"],
  [T.LParen, "("],
  [T.RParen, ")"],
  [T.Less, "<"],
  [T.Great, ">"],
]);

/** In `[[ ]]`, the word after these is a pattern or a regular expression: `(`, `|` stay in it. */
const PATTERN_OPS = new Set(["=~", "==", "!=", "="]);

/** Parts that are a whole word part in one token. */
const SINGLE_TOKEN_WORDS = new Set<TokenType>([T.Lit, T.ParamShort, T.SingleQuote, T.AnsiCQuote, T.Escaped, T.Backquote]);

/** More `&&`/`||` in one chain than this is refused: the tree would be too deep to walk. */
const MAX_AND_OR = 500;

const COMPOUND_STARTS = new Set<TokenType>([T.LBrace, T.LParen, T.If, T.While, T.Until, T.For, T.Select, T.Case, T.DLBracket, T.DLParen]);

export class ShellParser extends EmbeddedActionsParser {
  private readonly scanner = new Scanner();
  private toks: ShellToken[] = [];
  private initial!: ScanState;
  private src = "";
  private nesting = 0;
  /** Redirects whose here-document body comes after the next newline, in order. */
  private pendingHeredocs = new Map<number, A.Redirect>();
  private heredocIds = 0;
  backquotes: BackquoteJob[] = [];
  /** The alternatives of the hottest choices, built once (they hold no per-call state). */
  private alts: Record<string, IOrAlt<any>[]> = {};

  constructor(skipValidations: boolean) {
    super(T.allTokens, { maxLookahead: 2, recoveryEnabled: false, skipValidations, errorMessageProvider: errorMessages });
    this.performSelfAnalysis();
  }

  /** Parses `src[base, limit)`; returns the statements or throws (TooComplexError once `budget` runs out). */
  run(src: string, base = 0, limit = src.length, budget: Budget | null = null): { stmts: A.Stmt[]; comments: Map<number, string> } {
    this.src = src;
    this.scanner.reset(src, base, limit, budget);
    this.initial = this.scanner.state;
    this.toks = [];
    this.nesting = 0;
    this.pendingHeredocs = new Map();
    this.backquotes = [];
    this.input = [];
    const stmts = this.script();
    if (this.errors.length) {
      const e = this.errors[0]!;
      throw new ShellSyntaxError(e.token.tokenType === EOF ? limit : e.token.startOffset, e.message);
    }
    const comments = this.scanner.comments;
    // Nothing of a large input stays alive until the next parse.
    this.toks = [];
    this.src = "";
    this.scanner.release();
    return { stmts, comments };
  }

  // ---- the lazy token stream ------------------------------------------------

  /** chevrotain's index of the last consumed token (not in its public types). */
  private get pos(): number {
    return (this as unknown as { currIdx: number }).currIdx;
  }

  override LA(howMuch: number): IToken {
    const i = this.pos + howMuch;
    const toks = this.toks;
    if (i < 0) return NOTHING;
    while (toks.length <= i) {
      const last = toks[toks.length - 1];
      if (last && last.tokenType === EOF) return last;
      toks.push(this.scanner.next());
    }
    return toks[i]!;
  }

  override LA_FAST(howMuch: number): IToken {
    return this.LA(howMuch);
  }

  // The script rule consumes EOF itself and the token stream needs no sentinels.
  onBeforeParse(): void {}
  onAfterParse(): void {}

  /** Re-scans everything after the last consumed token, from a changed state. */
  private rescan(change: (s: ScanState) => ScanState): void {
    const cur = this.pos;
    const base = cur >= 0 ? Scanner.stateAfter(this.toks[cur]!) : this.initial;
    this.toks.length = cur + 1;
    for (const at of this.scanner.comments.keys()) if (at >= base.pos) this.scanner.comments.delete(at);
    this.scanner.restore(change(base));
  }

  /** bash reserves `time` only where a pipeline may start: after `|` or `coproc` it is the command's name. */
  private timeAsWord(): void {
    if (this.LA(1).tokenType === T.Time) this.rescan(Scanner.timeAsWord);
  }

  /** The next word is exactly the literal `text`. */
  private wordIs(text: string): boolean {
    const n = tk(this.LA(1));
    const n2 = tk(this.LA(2));
    return n.tokenType === T.Lit && n.value === text && !(n2.adj && tokenMatcher(n2, T.Part));
  }

  private adjacentPart(): boolean {
    const t = tk(this.LA(1));
    return t.adj;
  }

  private fail(t: IToken): never {
    throw new ShellSyntaxError(t.tokenType === EOF ? this.src.length : t.startOffset, `unexpected ${describe(t)}`);
  }

  /** A compound body must hold at least one command, as in bash. */
  private nonEmpty(stmts: A.Stmt[]): A.Stmt[] {
    if (stmts.length === 0) this.fail(this.LA(1));
    return stmts;
  }

  // Semantic actions must not run while chevrotain records the grammar, so most
  // rules wrap them in ACTION(). The rules that run for every command and every
  // word (lists, pipelines, simple commands, redirects, words and their parts)
  // test RECORDING_PHASE by hand instead: a closure there moves the rule's locals
  // into a heap context, about 5% of the parse time of an agent's command.

  // ---- lists ----------------------------------------------------------------

  private script = this.RULE("script", (): A.Stmt[] => {
    const stmts = this.SUBRULE(this.stmtList);
    this.CONSUME(EOF);
    this.ACTION(() => {
      const h = this.pendingHeredocs.values().next().value;
      if (h) throw new ShellSyntaxError(h.span.start, `here-document without a body (wanted \`${h.heredoc?.delimiter ?? ""}\`)`);
    });
    return stmts;
  });

  private stmtList = this.RULE("stmtList", (): A.Stmt[] => {
    const stmts: A.Stmt[] = [];
    let more = true;
    if (!this.RECORDING_PHASE) {
      if (++this.nesting > MAX_NESTING) throw new ShellSyntaxError(this.LA(1).startOffset, "nesting too deep");
    }
    this.MANY({
      GATE: () => more,
      DEF: () => {
        this.OR([
          { ALT: () => this.SUBRULE(this.newline) },
          {
            ALT: () => {
              const st = this.SUBRULE(this.andOr);
              let separated = false;
              if (!this.RECORDING_PHASE) stmts.push(st);
              this.OPTION(() => {
                this.OR2([
                  {
                    ALT: () => {
                      this.CONSUME(T.Semi);
                      if (!this.RECORDING_PHASE) separated = true;
                    },
                  },
                  {
                    ALT: () => {
                      const amp = tk(this.CONSUME(T.Amp));
                      if (!this.RECORDING_PHASE) {
                        separated = true;
                        st.background = true;
                        st.span = sp(st.span.start, amp.end);
                      }
                    },
                  },
                ]);
              });
              // Two commands need a separator between them; a newline is consumed by the next round.
              if (!this.RECORDING_PHASE) {
                if (!separated && this.LA(1).tokenType !== T.Newline) more = false;
              }
            },
          },
        ]);
      },
    });
    if (!this.RECORDING_PHASE) this.nesting--;
    return stmts;
  });

  private newline = this.RULE("newline", () => {
    this.CONSUME(T.Newline);
    this.MANY(() => this.SUBRULE(this.heredocBody));
  });

  private heredocBody = this.RULE("heredocBody", () => {
    const start = tk(this.CONSUME(T.HeredocStart));
    const parts: A.WordPart[] = [];
    this.MANY(() => {
      const p = this.SUBRULE(this.plainPart);
      this.ACTION(() => parts.push(p));
    });
    const end = tk(this.CONSUME(T.HeredocEnd));
    this.ACTION(() => {
      const r = this.pendingHeredocs.get(Number(start.value));
      this.pendingHeredocs.delete(Number(start.value));
      if (!r || !r.heredoc) throw new ShellSyntaxError(start.startOffset, "unexpected here-document body");
      const span = sp(start.startOffset, end.startOffset);
      r.heredoc.span = span;
      r.heredoc.body = { kind: "Word", span, parts: mergeLits(parts) };
    });
  });

  private andOr = this.RULE("andOr", (): A.Stmt => {
    let left = this.SUBRULE(this.pipelineStmt);
    let count = 0;
    this.MANY(() => {
      const op = this.OR([{ ALT: () => this.CONSUME(T.AndIf) }, { ALT: () => this.CONSUME(T.OrIf) }]);
      if (!this.RECORDING_PHASE && ++count > MAX_AND_OR) throw new ShellSyntaxError(op.startOffset, `more than ${MAX_AND_OR} \`&&\`/\`||\` in one list`);
      this.MANY2(() => this.SUBRULE(this.newline));
      const right = this.SUBRULE2(this.pipelineStmt);
      if (!this.RECORDING_PHASE) {
        const span = sp(left.span.start, right.span.end);
        const cmd: A.AndOr = { kind: "AndOr", span, op: op.tokenType === T.AndIf ? "&&" : "||", left, right };
        left = stmtOf(cmd);
      }
    });
    return left;
  });

  private pipelineStmt = this.RULE("pipelineStmt", (): A.Stmt => {
    let negated = false;
    let bang: ShellToken | null = null;
    this.MANY(() => {
      const b = tk(this.CONSUME(T.Bang));
      if (!this.RECORDING_PHASE) {
        negated = !negated;
        bang ??= b;
      }
    });
    const st = this.OR((this.alts.pipelineStmt ??= [{ ALT: () => this.SUBRULE(this.timeClause) }, { ALT: () => this.SUBRULE(this.pipeline) }]));
    const b = bang as ShellToken | null;
    if (!this.RECORDING_PHASE && b) {
      st.negated = negated;
      st.span = sp(b.startOffset, st.span.end);
    }
    return st;
  });

  private timeClause = this.RULE("timeClause", (): A.Stmt => {
    const t = tk(this.CONSUME(T.Time));
    let posix = false;
    let end = t.end;
    let inner: A.Stmt | null = null;
    this.OPTION({
      GATE: () => this.wordIs("-p"),
      DEF: () => {
        const p = tk(this.CONSUME(T.Lit));
        this.ACTION(() => {
          posix = true;
          end = p.end;
        });
      },
    });
    this.OPTION2(() => {
      inner = this.SUBRULE(this.pipelineStmt);
    });
    return this.ACTION(() => stmtOf({ kind: "TimeClause", span: sp(t.startOffset, inner ? inner.span.end : end), posix, stmt: inner }));
  });

  private pipeline = this.RULE("pipeline", (): A.Stmt => {
    const first = this.SUBRULE(this.command);
    const stages: A.Stmt[] = [first];
    const pipeStderr: boolean[] = [];
    this.MANY(() => {
      const op = this.OR([{ ALT: () => this.CONSUME(T.Pipe) }, { ALT: () => this.CONSUME(T.PipeAmp) }]);
      this.MANY2(() => this.SUBRULE(this.newline));
      if (!this.RECORDING_PHASE) this.timeAsWord();
      const next = this.SUBRULE2(this.command);
      if (!this.RECORDING_PHASE) {
        stages.push(next);
        pipeStderr.push(op.tokenType === T.PipeAmp);
      }
    });
    if (this.RECORDING_PHASE) return undefined as never;
    if (stages.length === 1) return first;
    return stmtOf({ kind: "Pipeline", span: sp(first.span.start, stages[stages.length - 1]!.span.end), stages, pipeStderr });
  });

  // ---- commands ---------------------------------------------------------------

  private command = this.RULE("command", (): A.Stmt => {
    const cmd = this.OR(
      (this.alts.command ??= [
        { ALT: () => this.SUBRULE(this.compound) },
        { ALT: () => this.SUBRULE(this.functionDecl) },
        { ALT: () => this.SUBRULE(this.coproc) },
        { ALT: () => this.SUBRULE(this.simpleCommand) },
      ]),
    );
    if (this.RECORDING_PHASE) return undefined as never;
    return stmtOf(cmd);
  });

  private compound = this.RULE("compound", (): A.CompoundCommand => {
    const c = this.OR(
      (this.alts.compound ??= [
        { ALT: () => this.SUBRULE(this.subshell) },
        { ALT: () => this.SUBRULE(this.group) },
        { ALT: () => this.SUBRULE(this.ifCmd) },
        { ALT: () => this.SUBRULE(this.whileCmd) },
        { ALT: () => this.SUBRULE(this.forCmd) },
        { ALT: () => this.SUBRULE(this.selectCmd) },
        { ALT: () => this.SUBRULE(this.caseCmd) },
        { ALT: () => this.SUBRULE(this.testCmd) },
        { ALT: () => this.SUBRULE(this.arithCmd) },
      ]),
    );
    this.MANY(() => {
      const r = this.SUBRULE(this.redirect);
      this.ACTION(() => {
        c.redirects.push(r);
        c.span = sp(c.span.start, r.span.end);
      });
    });
    return c;
  });

  private simpleCommand = this.RULE("simpleCommand", (): A.SimpleCommand | A.FuncDecl => {
    const assigns: A.Assign[] = [];
    const words: A.Word[] = [];
    const redirects: A.Redirect[] = [];
    let fn: A.FuncDecl | null = null;
    let decl = false;
    // A prefix of assignments and redirects, or a command word (which may open a function definition).
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => {
            this.AT_LEAST_ONE(() => {
              this.OR3([
                {
                  ALT: () => {
                    const a = this.SUBRULE(this.assignment);
                    if (!this.RECORDING_PHASE) assigns.push(a);
                  },
                },
                {
                  ALT: () => {
                    const r = this.SUBRULE(this.redirect);
                    if (!this.RECORDING_PHASE) redirects.push(r);
                  },
                },
              ]);
            });
          },
        },
        {
          ALT: () => {
            const w = this.SUBRULE(this.cmdWord);
            if (!this.RECORDING_PHASE) {
              words.push(w);
              decl = isDeclBuiltin(w);
            }
            this.OPTION(() => {
              this.CONSUME(T.LParen);
              this.CONSUME(T.RParen);
              this.MANY(() => this.SUBRULE(this.newline));
              const body = this.SUBRULE(this.compound);
              if (!this.RECORDING_PHASE) {
                fn = { kind: "FuncDecl", span: sp(w.span.start, body.span.end), name: this.funcName(w), keyword: false, parens: true, body: stmtOf(body) };
              }
            });
          },
        },
      ],
    });
    this.MANY2({
      GATE: () => fn === null,
      DEF: () => {
        // The alternatives are built once per value of `decl` (this runs for every word).
        const n = this.OR2({ IGNORE_AMBIGUITIES: true, DEF: decl ? this.argumentAlternatives(true) : this.argumentAlternatives(false) });
        if (this.RECORDING_PHASE) return;
        if (n.kind === "Redirect") redirects.push(n);
        else {
          if (words.length === 0) decl = isDeclBuiltin(n);
          words.push(n);
        }
      },
    });
    if (this.RECORDING_PHASE) return undefined as never;
    if (fn) return fn;
    const all = [...assigns, ...words, ...redirects];
    let start = Infinity;
    let end = -Infinity;
    for (const n of all) {
      if (n.span.start < start) start = n.span.start;
      if (n.span.end > end) end = n.span.end;
    }
    return { kind: "SimpleCommand", span: sp(start, end), assigns, words, redirects } satisfies A.SimpleCommand;
  });

  /** A redirect or an argument word; with `decl`, the word may hold `name=(…)` arrays. */
  private argumentAlternatives(decl: boolean): IOrAlt<A.Redirect | A.Word>[] {
    const key = decl ? "declArgument" : "argument";
    return (this.alts[key] ??= [{ ALT: () => this.SUBRULE2(this.redirect) }, { ALT: () => this.SUBRULE(this.word, { ARGS: [decl] }) }]);
  }

  private funcName(w: A.Word): string {
    const p = w.parts[0];
    if (w.parts.length !== 1 || !p || p.kind !== "Lit") throw new ShellSyntaxError(w.span.start, "invalid function name");
    return p.value;
  }

  private functionDecl = this.RULE("functionDecl", (): A.FuncDecl => {
    const kw = tk(this.CONSUME(T.Function));
    const name = this.SUBRULE(this.word, { ARGS: [false] });
    let parens = false;
    this.OPTION(() => {
      this.CONSUME(T.LParen);
      this.CONSUME(T.RParen);
      parens = true;
    });
    this.MANY(() => this.SUBRULE(this.newline));
    const body = this.SUBRULE(this.compound);
    return this.ACTION(() => ({
      kind: "FuncDecl" as const,
      span: sp(kw.startOffset, body.span.end),
      name: this.funcName(name),
      keyword: true,
      parens,
      body: stmtOf(body),
    }));
  });

  private coproc = this.RULE("coproc", (): A.Coproc => {
    const kw = tk(this.CONSUME(T.Coproc));
    let name: A.Word | null = null;
    this.ACTION(() => this.timeAsWord());
    this.OPTION({
      // `coproc NAME { …; }`: a name (one token, not the start of a substitution) only before a compound command.
      GATE: () => {
        const n2 = this.LA(2);
        return SINGLE_TOKEN_WORDS.has(this.LA(1).tokenType) && COMPOUND_STARTS.has(n2.tokenType) && !tk(n2).adj;
      },
      DEF: () => {
        name = this.SUBRULE(this.cmdWord);
      },
    });
    const stmt = this.SUBRULE(this.command);
    return this.ACTION(() => ({ kind: "Coproc" as const, span: sp(kw.startOffset, stmt.span.end), name, stmt }));
  });

  private assignment = this.RULE("assignment", (): A.Assign => {
    const name = tk(this.CONSUME(T.AssignName));
    let index: A.Word | null = null;
    this.OPTION(() => {
      index = this.SUBRULE(this.indexWord);
    });
    const op = tk(this.CONSUME(T.AssignOp));
    let array: A.ArrayLit | null = null;
    const parts: A.WordPart[] = [];
    this.OPTION2({
      GATE: () => this.LA(1).tokenType === T.LParen && this.adjacentPart(),
      DEF: () => {
        array = this.SUBRULE(this.arrayLit);
      },
    });
    this.MANY({
      GATE: () => array === null && this.adjacentPart(),
      DEF: () => {
        const p = this.SUBRULE(this.part);
        this.ACTION(() => parts.push(p));
      },
    });
    return this.ACTION(() => {
      const merged = mergeLits(parts);
      const value: A.Word | null = merged.length ? { kind: "Word", span: sp(merged[0]!.span.start, merged[merged.length - 1]!.span.end), parts: merged } : null;
      const end = array ? array.span.end : value ? value.span.end : op.end;
      return { kind: "Assign" as const, span: sp(name.startOffset, end), name: name.value, index, op: op.value as "=" | "+=", value, array };
    });
  });

  private indexWord = this.RULE("indexWord", (): A.Word => {
    const open = tk(this.CONSUME(T.IndexOpen));
    const parts: A.WordPart[] = [];
    this.MANY({
      GATE: () => this.LA(1).tokenType !== T.IndexClose,
      DEF: () => {
        const p = this.SUBRULE(this.plainPart);
        this.ACTION(() => parts.push(p));
      },
    });
    const close = tk(this.CONSUME(T.IndexClose));
    return this.ACTION(() => ({ kind: "Word" as const, span: sp(open.end, close.startOffset), parts: mergeLits(parts) }));
  });

  private arrayLit = this.RULE("arrayLit", (): A.ArrayLit => {
    const open = tk(this.CONSUME(T.LParen));
    const elems: A.Word[] = [];
    this.MANY(() => {
      this.OR([
        { ALT: () => this.SUBRULE(this.newline) },
        {
          ALT: () => {
            const w = this.SUBRULE(this.word, { ARGS: [false] });
            this.ACTION(() => elems.push(keyedElement(w)));
          },
        },
      ]);
    });
    const close = tk(this.CONSUME(T.RParen));
    return this.ACTION(() => ({ kind: "ArrayLit" as const, span: sp(open.startOffset, close.end), elems }));
  });

  private redirect = this.RULE("redirect", (): A.Redirect => {
    let fd: ShellToken | null = null;
    this.OPTION(() => {
      fd = tk(this.CONSUME(T.IoFd));
    });
    const op = tk(this.CONSUME(T.RedirOp));
    const target = this.SUBRULE(this.word, { ARGS: [false] });
    if (this.RECORDING_PHASE) return undefined as never;
    const fdTok = fd as ShellToken | null;
    const operator = REDIR_OPS.get(op.tokenType)!;
    const r: A.Redirect = {
      kind: "Redirect",
      span: sp(fdTok ? fdTok.startOffset : op.startOffset, target.span.end),
      fd: fdTok ? fdTok.value : null,
      op: operator,
      target,
      heredoc: null,
    };
    if (operator === "<<" || operator === "<<-") {
      const { delimiter, quoted } = this.heredocDelimiter(target);
      const stripTabs = operator === "<<-";
      r.heredoc = { kind: "Heredoc", span: sp(0, 0), delimiter, quoted, stripTabs, body: { kind: "Word", span: sp(0, 0), parts: [] } };
      const id = ++this.heredocIds;
      this.pendingHeredocs.set(id, r);
      this.rescan((s) => Scanner.addHeredoc(s, { id, delimiter, quoted, stripTabs, at: r.span.start }));
    }
    return r;
  });

  private heredocDelimiter(w: A.Word): { delimiter: string; quoted: boolean } {
    let quoted = false;
    const text = (parts: A.WordPart[]): string => {
      let out = "";
      for (const p of parts) {
        switch (p.kind) {
          case "Lit":
          case "Glob":
          case "BraceExp":
            out += p.value;
            break;
          case "SingleQuoted":
            quoted = true;
            out += p.value;
            break;
          case "Escaped":
            quoted = true;
            out += p.value;
            break;
          case "DoubleQuoted":
          case "LocaleQuoted":
            quoted = true;
            out += text(p.parts);
            break;
          default:
            out += this.src.slice(p.span.start, p.span.end);
        }
      }
      return out;
    };
    const delimiter = text(w.parts);
    return { delimiter, quoted };
  }

  // ---- compound commands ----------------------------------------------------------

  private subshell = this.RULE("subshell", (): A.Subshell => {
    const open = tk(this.CONSUME(T.LParen));
    const stmts = this.SUBRULE(this.stmtList);
    this.ACTION(() => this.nonEmpty(stmts));
    const close = tk(this.CONSUME(T.RParen));
    return this.ACTION(() => ({ kind: "Subshell" as const, span: sp(open.startOffset, close.end), stmts, redirects: [] }));
  });

  private group = this.RULE("group", (): A.Group => {
    const open = tk(this.CONSUME(T.LBrace));
    const stmts = this.SUBRULE(this.stmtList);
    this.ACTION(() => this.nonEmpty(stmts));
    const close = tk(this.CONSUME(T.RBrace));
    return this.ACTION(() => ({ kind: "Group" as const, span: sp(open.startOffset, close.end), stmts, redirects: [] }));
  });

  private ifCmd = this.RULE("ifCmd", (): A.If => {
    const kw = tk(this.CONSUME(T.If));
    const clauses: A.IfClause[] = [];
    let elseBody: A.Stmt[] | null = null;
    const cond = this.SUBRULE(this.stmtList);
    this.ACTION(() => this.nonEmpty(cond));
    this.CONSUME(T.Then);
    const body = this.SUBRULE2(this.stmtList);
    this.ACTION(() => {
      this.nonEmpty(body);
      clauses.push({ kind: "IfClause", span: sp(kw.startOffset, body[body.length - 1]!.span.end), cond, body });
    });
    this.MANY(() => {
      const ekw = tk(this.CONSUME(T.Elif));
      const c = this.SUBRULE3(this.stmtList);
      this.ACTION(() => this.nonEmpty(c));
      this.CONSUME2(T.Then);
      const b = this.SUBRULE4(this.stmtList);
      this.ACTION(() => {
        this.nonEmpty(b);
        clauses.push({ kind: "IfClause", span: sp(ekw.startOffset, b[b.length - 1]!.span.end), cond: c, body: b });
      });
    });
    this.OPTION(() => {
      this.CONSUME(T.Else);
      const e = this.SUBRULE5(this.stmtList);
      this.ACTION(() => {
        elseBody = this.nonEmpty(e);
      });
    });
    const fi = tk(this.CONSUME(T.Fi));
    return this.ACTION(() => ({ kind: "If" as const, span: sp(kw.startOffset, fi.end), clauses, elseBody, redirects: [] }));
  });

  private whileCmd = this.RULE("whileCmd", (): A.While => {
    const kw = tk(this.OR([{ ALT: () => this.CONSUME(T.While) }, { ALT: () => this.CONSUME(T.Until) }]));
    const cond = this.SUBRULE(this.stmtList);
    this.ACTION(() => this.nonEmpty(cond));
    this.CONSUME(T.Do);
    const body = this.SUBRULE2(this.stmtList);
    this.ACTION(() => this.nonEmpty(body));
    const done = tk(this.CONSUME(T.Done));
    return this.ACTION(() => ({ kind: "While" as const, span: sp(kw.startOffset, done.end), until: kw.tokenType === T.Until, cond, body, redirects: [] }));
  });

  /** `do …; done` or `{ …; }`: the body of for, select and arithmetic for. */
  private loopBody = this.RULE("loopBody", (): { body: A.Stmt[]; braces: boolean; start: number; end: number } => {
    return this.OR([
      {
        ALT: () => {
          const open = tk(this.CONSUME(T.Do));
          const body = this.SUBRULE(this.stmtList);
          this.ACTION(() => this.nonEmpty(body));
          const done = tk(this.CONSUME(T.Done));
          return this.ACTION(() => ({ body, braces: false, start: open.startOffset, end: done.end }));
        },
      },
      {
        ALT: () => {
          const open = tk(this.CONSUME(T.LBrace));
          const body = this.SUBRULE2(this.stmtList);
          this.ACTION(() => this.nonEmpty(body));
          const close = tk(this.CONSUME(T.RBrace));
          return this.ACTION(() => ({ body, braces: true, start: open.startOffset, end: close.end }));
        },
      },
    ]);
  });

  /** bash takes `{` for the body only where a command may start: after `;`, a newline or the word list, not right after the name. */
  private checkBraceBody(head: { separated: boolean }, body: { braces: boolean; start: number }): void {
    if (body.braces && !head.separated) throw new ShellSyntaxError(body.start, "unexpected `{`");
  }

  /** The name and optional `in words` of for and select. */
  private loopHead = this.RULE("loopHead", (): { name: string; items: A.Word[] | null; separated: boolean } => {
    const nameWord = this.SUBRULE(this.word, { ARGS: [false] });
    let items: A.Word[] | null = null;
    let separated = false;
    this.MANY(() => {
      this.SUBRULE(this.newline);
      this.ACTION(() => {
        separated = true;
      });
    });
    this.OPTION(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(T.In);
            const ws: A.Word[] = [];
            this.MANY2(() => {
              const w = this.SUBRULE2(this.word, { ARGS: [false] });
              this.ACTION(() => ws.push(w));
            });
            this.OR2([{ ALT: () => this.CONSUME(T.Semi) }, { ALT: () => this.SUBRULE2(this.newline) }]);
            this.ACTION(() => {
              items = ws;
            });
          },
        },
        { ALT: () => this.CONSUME2(T.Semi) },
      ]);
      this.ACTION(() => {
        separated = true;
      });
    });
    this.MANY3(() => {
      this.SUBRULE3(this.newline);
      this.ACTION(() => {
        separated = true;
      });
    });
    return this.ACTION(() => {
      const p = nameWord.parts[0];
      if (nameWord.parts.length !== 1 || p?.kind !== "Lit" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.value)) {
        throw new ShellSyntaxError(nameWord.span.start, `\`${this.src.slice(nameWord.span.start, nameWord.span.end)}\` is not a valid loop variable`);
      }
      return { name: p.value, items, separated };
    });
  });

  private forCmd = this.RULE("forCmd", (): A.For | A.ArithFor => {
    const kw = tk(this.CONSUME(T.For));
    return this.OR([
      {
        ALT: () => {
          const open = tk(this.CONSUME(T.DLParen));
          const parts = this.SUBRULE(this.arithParts);
          const close = tk(this.CONSUME(T.ArithClose));
          this.OPTION(() => this.CONSUME(T.Semi));
          this.MANY2(() => this.SUBRULE(this.newline));
          const b = this.SUBRULE(this.loopBody);
          return this.ACTION(() => {
            const [init, cond, post] = splitArithFor(mergeLits(parts), open.end, close.startOffset, this.src);
            return { kind: "ArithFor" as const, span: sp(kw.startOffset, b.end), init, cond, post, body: b.body, braces: b.braces, redirects: [] };
          });
        },
      },
      {
        ALT: () => {
          const head = this.SUBRULE(this.loopHead);
          const b = this.SUBRULE2(this.loopBody);
          this.ACTION(() => this.checkBraceBody(head, b));
          return this.ACTION(() => ({ kind: "For" as const, span: sp(kw.startOffset, b.end), name: head.name, items: head.items, body: b.body, braces: b.braces, redirects: [] }));
        },
      },
    ]);
  });

  private selectCmd = this.RULE("selectCmd", (): A.Select => {
    const kw = tk(this.CONSUME(T.Select));
    const head = this.SUBRULE(this.loopHead);
    const b = this.SUBRULE(this.loopBody);
    this.ACTION(() => this.checkBraceBody(head, b));
    return this.ACTION(() => ({ kind: "Select" as const, span: sp(kw.startOffset, b.end), name: head.name, items: head.items, body: b.body, braces: b.braces, redirects: [] }));
  });

  private caseCmd = this.RULE("caseCmd", (): A.Case => {
    const kw = tk(this.CONSUME(T.Case));
    const word = this.SUBRULE(this.word, { ARGS: [false] });
    this.MANY(() => this.SUBRULE(this.newline));
    this.CONSUME(T.In);
    this.MANY2(() => this.SUBRULE2(this.newline));
    const arms: A.CaseArm[] = [];
    let more = true;
    this.MANY3({
      GATE: () => more && this.LA(1).tokenType !== T.Esac,
      DEF: () => {
        const arm = this.SUBRULE(this.caseArm);
        this.ACTION(() => {
          arms.push(arm);
          if (arm.terminator === null) more = false;
        });
      },
    });
    const esac = tk(this.CONSUME(T.Esac));
    return this.ACTION(() => ({ kind: "Case" as const, span: sp(kw.startOffset, esac.end), word, arms, redirects: [] }));
  });

  private caseArm = this.RULE("caseArm", (): A.CaseArm => {
    let open: ShellToken | null = null;
    this.OPTION(() => {
      open = tk(this.CONSUME(T.LParen));
    });
    const patterns: A.Word[] = [];
    const first = this.SUBRULE(this.word, { ARGS: [false] });
    this.ACTION(() => patterns.push(first));
    this.MANY(() => {
      this.CONSUME(T.Pipe);
      const w = this.SUBRULE2(this.word, { ARGS: [false] });
      this.ACTION(() => patterns.push(w));
    });
    const close = tk(this.CONSUME(T.RParen));
    const body = this.SUBRULE(this.stmtList);
    let terminator: A.CaseTerminator | null = null;
    let end = close.end;
    this.OPTION2(() => {
      const t = tk(this.OR([{ ALT: () => this.CONSUME(T.DSemi) }, { ALT: () => this.CONSUME(T.SemiAmp) }, { ALT: () => this.CONSUME(T.DSemiAmp) }]));
      this.ACTION(() => {
        terminator = CASE_TERMINATORS.get(t.tokenType)!;
        end = t.end;
      });
    });
    this.MANY2(() => this.SUBRULE(this.newline));
    return this.ACTION(() => {
      if (terminator === null && body.length) end = body[body.length - 1]!.span.end;
      return { kind: "CaseArm" as const, span: sp(open ? open.startOffset : first.span.start, end), patterns, body, terminator };
    });
  });

  private testCmd = this.RULE("testCmd", (): A.TestClause => {
    const open = tk(this.CONSUME(T.DLBracket));
    const items: (A.Word | A.TestOp)[] = [];
    const check = new ConditionCheck();
    this.MANY({
      GATE: () => {
        // A `((` here is two grouping parens: no arithmetic command inside `[[ … ]]`.
        if (this.LA(1).tokenType === T.DLParen) this.rescan(Scanner.parensAsGroups);
        return this.LA(1).tokenType !== T.DRBracket;
      },
      DEF: () => {
        this.OR([
          {
            ALT: () => {
              const w = this.SUBRULE(this.word, { ARGS: [false] });
              this.ACTION(() => {
                items.push(w);
                const p = w.parts[0];
                const text = w.parts.length === 1 && p?.kind === "Lit" ? p.value : null;
                if (check.word(text, this.src.slice(w.span.start, w.span.end), w.span.start) && PATTERN_OPS.has(text!)) {
                  this.rescan((s) => Scanner.patternNext(s, text === "=~"));
                }
              });
            },
          },
          {
            ALT: () => {
              const t = tk(
                this.OR2([
                  { ALT: () => this.CONSUME(T.AndIf) },
                  { ALT: () => this.CONSUME(T.OrIf) },
                  { ALT: () => this.CONSUME(T.LParen) },
                  { ALT: () => this.CONSUME(T.RParen) },
                  { ALT: () => this.CONSUME(T.Less) },
                  { ALT: () => this.CONSUME(T.Great) },
                ]),
              );
              this.ACTION(() => {
                const op = TEST_OPS.get(t.tokenType)!;
                check.op(op, t.startOffset);
                items.push({ kind: "TestOp", span: sp(t.startOffset, t.end), op });
              });
            },
          },
          {
            ALT: () => {
              this.ACTION(() => check.newline(this.LA(1).startOffset));
              this.SUBRULE(this.newline);
            },
          },
        ]);
      },
    });
    const close = tk(this.CONSUME(T.DRBracket));
    return this.ACTION(() => {
      check.end(close.startOffset);
      return { kind: "TestClause" as const, span: sp(open.startOffset, close.end), items, redirects: [] };
    });
  });

  private arithCmd = this.RULE("arithCmd", (): A.ArithCmd => {
    const open = tk(this.CONSUME(T.DLParen));
    const parts = this.SUBRULE(this.arithParts);
    const close = tk(this.CONSUME(T.ArithClose));
    return this.ACTION(() => ({
      kind: "ArithCmd" as const,
      span: sp(open.startOffset, close.end),
      expr: { kind: "Word" as const, span: sp(open.end, close.startOffset), parts: mergeLits(parts) },
      redirects: [],
    }));
  });

  // ---- words ------------------------------------------------------------------

  /** The first word of a simple command: it may not begin with a reserved word. */
  private cmdWord = this.RULE("cmdWord", (): A.Word => {
    const parts: A.WordPart[] = [];
    const first = this.OR(this.plainPartAlternatives());
    if (!this.RECORDING_PHASE) parts.push(first);
    this.MANY({
      GATE: () => this.adjacentPart(),
      DEF: () => {
        const p = this.SUBRULE(this.part);
        if (!this.RECORDING_PHASE) parts.push(p);
      },
    });
    if (this.RECORDING_PHASE) return undefined as never;
    return finishWord(parts, this.src);
  });

  /** Any word; with `decl`, `name=(…)` is an array (after declare, local, export…). */
  private word = this.RULE("word", (decl: boolean): A.Word => {
    const parts: A.WordPart[] = [];
    const first = this.OR(this.partAlternatives());
    if (!this.RECORDING_PHASE) parts.push(first);
    this.MANY({
      GATE: () => {
        if (!this.adjacentPart()) return false;
        if (this.LA(1).tokenType !== T.LParen) return true;
        return decl && this.LA(0).tokenType === T.AssignOp;
      },
      DEF: () => {
        this.OR2([
          {
            ALT: () => {
              const p = this.SUBRULE2(this.part);
              if (!this.RECORDING_PHASE) parts.push(p);
            },
          },
          {
            ALT: () => {
              const a = this.SUBRULE(this.arrayLit);
              if (!this.RECORDING_PHASE) parts.push(a);
            },
          },
        ]);
      },
    });
    if (this.RECORDING_PHASE) return undefined as never;
    return finishWord(parts, this.src);
  });

  /** Any word part: a plain part or a reserved word (one rule level, not two: this runs for every word). */
  private part = this.RULE("part", (): A.WordPart => {
    return this.OR(this.partAlternatives());
  });

  private partAlternatives(): IOrAlt<A.WordPart>[] {
    return (this.alts.part ??= [
      ...this.plainPartAlternatives(),
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.Keyword));
          if (this.RECORDING_PHASE) return undefined as never;
          return litOf(t.value, t.startOffset, t.end);
        },
      },
    ]);
  }

  private plainPart = this.RULE("plainPart", (): A.WordPart => {
    return this.OR(this.plainPartAlternatives());
  });

  private plainPartAlternatives(): IOrAlt<A.WordPart>[] {
    return (this.alts.plainPart ??= [
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.PlainLit));
          if (this.RECORDING_PHASE) return undefined as never;
          return litOf(t.value, t.startOffset, t.end);
        },
      },
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.Escaped));
          if (this.RECORDING_PHASE) return undefined as never;
          return { kind: "Escaped", span: sp(t.startOffset, t.end), value: t.value };
        },
      },
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.SingleQuote));
          if (this.RECORDING_PHASE) return undefined as never;
          return { kind: "SingleQuoted", span: sp(t.startOffset, t.end), value: t.value };
        },
      },
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.AnsiCQuote));
          if (this.RECORDING_PHASE) return undefined as never;
          return { kind: "AnsiCQuoted", span: sp(t.startOffset, t.end), raw: t.value };
        },
      },
      { ALT: () => this.SUBRULE(this.doubleQuoted) },
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.ParamShort));
          if (this.RECORDING_PHASE) return undefined as never;
          return {
            kind: "ParamExp",
            span: sp(t.startOffset, t.end),
            short: true,
            prefix: null,
            name: t.value,
            index: null,
            op: null,
            arg: null,
            repl: null,
          };
        },
      },
      { ALT: () => this.SUBRULE(this.paramExp) },
      { ALT: () => this.SUBRULE(this.cmdSubst) },
      {
        ALT: () => {
          const t = tk(this.CONSUME(T.Backquote));
          if (this.RECORDING_PHASE) return undefined as never;
          const node: A.CmdSubst = { kind: "CmdSubst", span: sp(t.startOffset, t.end), stmts: [], backquote: true };
          this.backquotes.push({ node, contentStart: t.startOffset + 1, contentEnd: t.end - 1, inDq: t.value === "dq" });
          return node;
        },
      },
      { ALT: () => this.SUBRULE(this.arithExp) },
    ]);
  }

  private doubleQuoted = this.RULE("doubleQuoted", (): A.DoubleQuoted | A.LocaleQuoted => {
    const open = tk(this.OR([{ ALT: () => this.CONSUME(T.DQOpen) }, { ALT: () => this.CONSUME(T.LocaleOpen) }]));
    const parts: A.WordPart[] = [];
    this.MANY(() => {
      const p = this.SUBRULE(this.plainPart);
      if (!this.RECORDING_PHASE) parts.push(p);
    });
    const close = tk(this.CONSUME(T.DQClose));
    if (this.RECORDING_PHASE) return undefined as never;
    return {
      kind: open.tokenType === T.DQOpen ? ("DoubleQuoted" as const) : ("LocaleQuoted" as const),
      span: sp(open.startOffset, close.end),
      parts: mergeLits(parts),
    };
  });

  private paramExp = this.RULE("paramExp", (): A.ParamExp => {
    const open = tk(this.CONSUME(T.ParamOpen));
    const name = tk(this.CONSUME(T.ParamName));
    let index: A.Word | null = null;
    let op: string | null = null;
    let arg: A.Word | null = null;
    let repl: A.Word | null = null;
    this.OPTION(() => {
      index = this.SUBRULE(this.indexWord);
    });
    this.OPTION2(() => {
      const o = tk(this.CONSUME(T.ParamOp));
      const argParts: A.WordPart[] = [];
      this.MANY(() => {
        const p = this.SUBRULE(this.plainPart);
        this.ACTION(() => argParts.push(p));
      });
      this.ACTION(() => {
        op = o.value;
        arg = wordOf(argParts, o.end);
      });
      this.OPTION3(() => {
        const s = tk(this.CONSUME(T.ParamSep));
        const replParts: A.WordPart[] = [];
        this.MANY2(() => {
          const p = this.SUBRULE2(this.plainPart);
          this.ACTION(() => replParts.push(p));
        });
        this.ACTION(() => {
          repl = wordOf(replParts, s.end);
        });
      });
    });
    const close = tk(this.CONSUME(T.ParamClose));
    return this.ACTION(() => ({
      kind: "ParamExp" as const,
      span: sp(open.startOffset, close.end),
      short: false,
      prefix: (name.value || null) as "#" | "!" | null,
      name: name.image.slice(name.value.length),
      index,
      op,
      arg,
      repl,
    }));
  });

  private cmdSubst = this.RULE("cmdSubst", (): A.CmdSubst | A.ProcSubst => {
    const open = tk(this.OR([{ ALT: () => this.CONSUME(T.CmdSubstOpen) }, { ALT: () => this.CONSUME(T.ProcSubstOpen) }]));
    const stmts = this.SUBRULE(this.stmtList);
    const close = tk(this.CONSUME(T.RParen));
    return this.ACTION(() => {
      this.rescan(Scanner.closeSubst);
      const span = sp(open.startOffset, close.end);
      if (open.tokenType === T.CmdSubstOpen) return { kind: "CmdSubst" as const, span, stmts, backquote: false };
      return { kind: "ProcSubst" as const, span, op: open.image[0] as "<" | ">", stmts };
    });
  });

  private arithExp = this.RULE("arithExp", (): A.ArithExp => {
    const open = tk(this.OR([{ ALT: () => this.CONSUME(T.ArithOpen) }, { ALT: () => this.CONSUME(T.ArithBracketOpen) }]));
    const parts = this.SUBRULE(this.arithParts);
    const close = tk(this.OR2([{ ALT: () => this.CONSUME(T.ArithClose) }, { ALT: () => this.CONSUME(T.ArithBracketClose) }]));
    return this.ACTION(() => ({
      kind: "ArithExp" as const,
      span: sp(open.startOffset, close.end),
      bracket: open.tokenType === T.ArithBracketOpen,
      expr: { kind: "Word" as const, span: sp(open.end, close.startOffset), parts: mergeLits(parts) },
    }));
  });

  /** The text of an arithmetic expression up to its closing token, as word parts. */
  private arithParts = this.RULE("arithParts", (): A.WordPart[] => {
    const parts: A.WordPart[] = [];
    this.MANY(() => {
      const p = this.SUBRULE(this.plainPart);
      this.ACTION(() => parts.push(p));
    });
    return parts;
  });
}

// ---- AST helpers ----------------------------------------------------------------

function stmtOf(cmd: A.Command): A.Stmt {
  return { kind: "Stmt", span: { ...cmd.span }, cmd, negated: false, background: false };
}

// Commands whose `name=(…)` arguments bash reads as array assignments.
const DECL_BUILTINS = new Set(["declare", "typeset", "local", "export", "readonly", "alias", "eval", "let"]);

function isDeclBuiltin(w: A.Word): boolean {
  const p = w.parts[0];
  return w.parts.length === 1 && p?.kind === "Lit" && DECL_BUILTINS.has(p.value);
}
