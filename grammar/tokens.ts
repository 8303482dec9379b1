// Token types of the shell grammar. The scanner (scanner.ts) is hand-written and
// context-sensitive, so no token has a pattern: chevrotain only sees the types,
// their categories and their labels (used in error messages).
import { createToken, Lexer, type TokenType } from "chevrotain";
import { RESERVED_WORDS, type ReservedWord } from "../src/ast/reserved.js";

const NA = Lexer.NA;

function tok(name: string, label: string, categories: TokenType[] = []): TokenType {
  return createToken({ name, pattern: NA, label, categories });
}

// Categories. A word is a run of adjacent parts. The first part of a command word
// may not be a reserved word (that is what makes `if` start an if-clause while
// `echo if` is an ordinary argument), so parts come in two families.
export const Part = tok("Part", "word");
export const PlainPart = tok("PlainPart", "word", [Part]);
export const LitLike = tok("LitLike", "word", [Part]);
export const PlainLit = tok("PlainLit", "word", [PlainPart, LitLike]);
export const Keyword = tok("Keyword", "reserved word", [LitLike]);
export const RedirOp = tok("RedirOp", "redirection");

// Literal runs.
export const Lit = tok("Lit", "word", [PlainLit]);
export const AssignName = tok("AssignName", "assignment", [PlainLit]);
export const AssignOp = tok("AssignOp", "`=`", [PlainLit]);
export const IndexOpen = tok("IndexOpen", "`[`", [PlainLit]);
export const IndexClose = tok("IndexClose", "`]`", [PlainLit]);

// Reserved words (recognised by the scanner only when they form a whole word),
// one token type for each word of the shared list.
function kw(word: ReservedWord): TokenType {
  const name = "Kw_" + word.replace(/\W/g, (c) => "x" + c.charCodeAt(0).toString(16));
  return tok(name, "`" + word + "`", [Keyword]);
}

export const KEYWORDS: ReadonlyMap<ReservedWord, TokenType> = new Map(RESERVED_WORDS.map((w) => [w, kw(w)]));
const keyword = (w: ReservedWord): TokenType => KEYWORDS.get(w)!;

export const If = keyword("if");
export const Then = keyword("then");
export const Elif = keyword("elif");
export const Else = keyword("else");
export const Fi = keyword("fi");
export const For = keyword("for");
export const Select = keyword("select");
export const In = keyword("in");
export const Do = keyword("do");
export const Done = keyword("done");
export const While = keyword("while");
export const Until = keyword("until");
export const Case = keyword("case");
export const Esac = keyword("esac");
export const Function = keyword("function");
export const Coproc = keyword("coproc");
export const Time = keyword("time");
export const LBrace = keyword("{");
export const RBrace = keyword("}");
export const Bang = keyword("!");
export const DLBracket = keyword("[[");
export const DRBracket = keyword("]]");

/** The reserved words by their first character code, so most words are ruled out without hashing them. */
const KEYWORDS_BY_FIRST: (readonly [string, TokenType])[][] = [];
for (const entry of KEYWORDS) (KEYWORDS_BY_FIRST[entry[0].charCodeAt(0)] ??= []).push(entry);

/** The reserved word `text` spells, if any. */
export function keywordOf(text: string): TokenType | undefined {
  const candidates = KEYWORDS_BY_FIRST[text.charCodeAt(0)];
  if (candidates) for (const [word, type] of candidates) if (word === text) return type;
  return undefined;
}

// Other word parts.
export const Escaped = tok("Escaped", "word", [PlainPart]);
export const SingleQuote = tok("SingleQuote", "quoted string", [PlainPart]);
export const AnsiCQuote = tok("AnsiCQuote", "quoted string", [PlainPart]);
export const DQOpen = tok("DQOpen", '`"`', [PlainPart]);
export const LocaleOpen = tok("LocaleOpen", '`$"`', [PlainPart]);
export const DQClose = tok("DQClose", 'closing `"`');
export const ParamShort = tok("ParamShort", "parameter", [PlainPart]);
export const ParamOpen = tok("ParamOpen", "`${`", [PlainPart]);
export const ParamName = tok("ParamName", "parameter name");
export const ParamOp = tok("ParamOp", "parameter operator");
export const ParamSep = tok("ParamSep", "parameter separator");
export const ParamClose = tok("ParamClose", "`}`");
export const CmdSubstOpen = tok("CmdSubstOpen", "`$(`", [PlainPart]);
export const ProcSubstOpen = tok("ProcSubstOpen", "process substitution", [PlainPart]);
export const Backquote = tok("Backquote", "backquoted command", [PlainPart]);
export const ArithOpen = tok("ArithOpen", "`$((`", [PlainPart]);
export const ArithBracketOpen = tok("ArithBracketOpen", "`$[`", [PlainPart]);
export const ArithClose = tok("ArithClose", "`))`");
export const ArithBracketClose = tok("ArithBracketClose", "`]`");

// Operators.
export const Newline = tok("Newline", "newline");
export const Semi = tok("Semi", "`;`");
export const DSemi = tok("DSemi", "`;;`");
export const SemiAmp = tok("SemiAmp", "`;&`");
export const DSemiAmp = tok("DSemiAmp", "`;;&`");
export const Amp = tok("Amp", "`&`");
export const AndIf = tok("AndIf", "`&&`");
export const OrIf = tok("OrIf", "`||`");
export const Pipe = tok("Pipe", "`|`");
export const PipeAmp = tok("PipeAmp", "`|&`");
export const LParen = tok("LParen", "`(`");
export const RParen = tok("RParen", "`)`");
export const DLParen = tok("DLParen", "`((`");

export const IoFd = tok("IoFd", "file descriptor");
export const Less = tok("Less", "`<`", [RedirOp]);
export const Great = tok("Great", "`>`", [RedirOp]);
export const DGreat = tok("DGreat", "`>>`", [RedirOp]);
export const Clobber = tok("Clobber", "`>|`", [RedirOp]);
export const LessGreat = tok("LessGreat", "`<>`", [RedirOp]);
export const AndGreat = tok("AndGreat", "`&>`", [RedirOp]);
export const AndDGreat = tok("AndDGreat", "`&>>`", [RedirOp]);
export const LessAnd = tok("LessAnd", "`<&`", [RedirOp]);
export const GreatAnd = tok("GreatAnd", "`>&`", [RedirOp]);
export const DLess = tok("DLess", "`<<`", [RedirOp]);
export const DLessDash = tok("DLessDash", "`<<-`", [RedirOp]);
export const TLess = tok("TLess", "`<<<`", [RedirOp]);

// Here-document bodies: a zero-width start, the body's parts, and the delimiter line.
export const HeredocStart = tok("HeredocStart", "here-document body");
export const HeredocEnd = tok("HeredocEnd", "here-document delimiter");

export const allTokens: TokenType[] = [
  Part,
  PlainPart,
  LitLike,
  PlainLit,
  Keyword,
  RedirOp,
  Lit,
  AssignName,
  AssignOp,
  IndexOpen,
  IndexClose,
  ...KEYWORDS.values(),
  Escaped,
  SingleQuote,
  AnsiCQuote,
  DQOpen,
  LocaleOpen,
  DQClose,
  ParamShort,
  ParamOpen,
  ParamName,
  ParamOp,
  ParamSep,
  ParamClose,
  CmdSubstOpen,
  ProcSubstOpen,
  Backquote,
  ArithOpen,
  ArithBracketOpen,
  ArithClose,
  ArithBracketClose,
  Newline,
  Semi,
  DSemi,
  SemiAmp,
  DSemiAmp,
  Amp,
  AndIf,
  OrIf,
  Pipe,
  PipeAmp,
  LParen,
  RParen,
  DLParen,
  IoFd,
  Less,
  Great,
  DGreat,
  Clobber,
  LessGreat,
  AndGreat,
  AndDGreat,
  LessAnd,
  GreatAnd,
  DLess,
  DLessDash,
  TLess,
  HeredocStart,
  HeredocEnd,
];
