// Property: the canonical printer's text parses back to the tree it was printed
// from (spans and comments aside), and printing that again gives the same text.
// The trees are generated directly, and only in the normal form the parser
// itself produces: literal runs merged, unquoted `*?[`, `{a,b}` and a leading `~`
// as their own parts (see finishWord in grammar/words.ts), no reserved word
// where a command starts, no `$name` followed by a name character, and so on.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { parse } from "../../grammar/parse.js";
import type * as A from "../../src/ast/nodes.js";
import { RESERVED_WORDS } from "../../src/ast/reserved.js";
import { withoutSpans } from "../../src/ast/walk.js";
import { printCanonical } from "../../src/printer/canonical.js";

const span = (): A.Span => ({ start: 0, end: 0 });
/** True one time in six. */
const sometimes = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });

// ---- node builders ------------------------------------------------------------------

const lit = (value: string): A.Lit => ({ kind: "Lit", span: span(), value });
const word = (parts: A.WordPart[]): A.Word => ({ kind: "Word", span: span(), parts });
const stmtOf = (cmd: A.Command, negated = false, background = false): A.Stmt => ({ kind: "Stmt", span: span(), cmd, negated, background });
const shortParam = (name: string): A.ParamExp => ({ kind: "ParamExp", span: span(), short: true, prefix: null, name, index: null, op: null, arg: null, repl: null });

const KEYWORDS: ReadonlySet<string> = new Set(RESERVED_WORDS);
const NAME_CHAR = /^[A-Za-z0-9_]/;
const REGULAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ---- word contexts ----------------------------------------------------------------------
//
// word    an unquoted word (finishWord applies: globs, braces, tilde are parts)
// value   an assignment value (no finishWord: `*?[{~` stay in the literal)
// dq      inside "…" or $"…"
// pword   the argument of ${name<op>…}; `inDq` when the ${…} stands in "…" or a here-document
// arith   inside $((…)), $[…], ((…)) and the three parts of for ((…;…;…)) (so never a `;`)
// index   the subscript of ${a[…]}; `assign` for a[…]= (no blanks there)
// heredoc an unquoted here-document body
type Ctx = { k: "word" } | { k: "value" } | { k: "dq" } | { k: "pword"; inDq: boolean; sep: string | null } | { k: "arith" } | { k: "index"; assign: boolean } | { k: "heredoc" };

const ctxKey = (c: Ctx): string => JSON.stringify(c);

/** Literal text that is plain in the context. */
function litValue(c: Ctx): fc.Arbitrary<string> {
  switch (c.k) {
    case "word":
      return fc.oneof(
        { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9_.\/,:@%+=^-]{1,6}$/).filter((v) => !KEYWORDS.has(v)) },
        { weight: 1, arbitrary: fc.constantFrom("echo", "a.txt", "--flag", "-n", "x=1", "a#b", "/usr/bin", "1", "2", "-", "a=", "é") },
      );
    case "value":
      return fc.stringMatching(/^[a-z0-9_.\/,:@%+=^*?\[\]{}~#-]{1,6}$/);
    case "dq":
      return fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9 .,;:&|()<>*?#{}\[\]~!'=+\/@%^\t\n-]{1,8}$/) }, { weight: 1, arbitrary: fc.constantFrom("\\n", "$ 1", "a\\tb", "'") });
    case "pword": {
      const chars = "\\- a-z0-9.,=+*?@%^~#!;&|<>\n" + (c.sep === "/" ? "" : "/") + (c.sep === ":" ? "" : ":");
      return fc.stringMatching(new RegExp(`^[${chars}]{1,6}$`));
    }
    case "arith":
      return arithText(2);
    case "index":
      return fc.stringMatching(/^[a-z0-9+*@-]{1,4}$/);
    case "heredoc":
      return fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9 .,;:&|()<>*?#{}\[\]~!'"=+\/@%^\t\n-]{1,12}$/) }, { weight: 1, arbitrary: fc.constantFrom("\n", "\\n", "\n\t", "$ ") });
  }
}

/** Balanced arithmetic text, without `;` (it would split a for ((…))). */
function arithText(depth: number): fc.Arbitrary<string> {
  const atom = fc.constantFrom("1", "42", "0x1f", "x", "i", "a[1]", "x++", "--i", "!x", "~x", " ", "-1", "a[i+1]");
  if (depth <= 0) return atom;
  const sub = arithText(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: atom },
    {
      weight: 2,
      arbitrary: fc
        .tuple(sub, fc.constantFrom(" + ", "-", "*", " / ", "%", " < ", ">", "<=", " == ", "!=", " && ", "||", "<<", "&", "|", "^", ", ", " = ", " += ", " ? "), sub)
        .map(([a, o, b]) => a + o + b),
    },
    { weight: 1, arbitrary: sub.map((e) => `(${e})`) },
  );
}

const ESCAPABLE: Record<string, string> = {
  word: " ;&|<>()'\"$`\\*?[#~{}a=!%",
  value: " ;&|<>()'\"$`\\*?[#~{}a=!",
  dq: '$`"\\',
  pword: "}$`\\/\"'a: ",
  heredoc: "$`\\",
};

// ---- the generator ------------------------------------------------------------------

// Every recursive step lowers the depth `d`, so building the arbitraries
// terminates; they are shared by key.
const memo = new Map<string, fc.Arbitrary<unknown>>();
function memoized<T>(key: string, make: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let a = memo.get(key) as fc.Arbitrary<T> | undefined;
  if (!a) {
    a = make();
    memo.set(key, a);
  }
  return a;
}

/** The parts of a word in a context, in normal form. */
function parts(c: Ctx, d: number, min: number, max: number): fc.Arbitrary<A.WordPart[]> {
  return memoized(`parts ${ctxKey(c)} ${d} ${min} ${max}`, () => fc.array(part(c, d), { minLength: min, maxLength: max }).map((ps) => normalize(ps, c)));
}

function part(c: Ctx, d: number): fc.Arbitrary<A.WordPart> {
  return memoized(`part ${ctxKey(c)} ${d}`, () => {
    const alts: { weight: number; arbitrary: fc.Arbitrary<A.WordPart> }[] = [{ weight: 6, arbitrary: litValue(c).map(lit) }];
    const esc = ESCAPABLE[c.k];
    if (esc) alts.push({ weight: 2, arbitrary: fc.constantFrom(...esc).map((value): A.WordPart => ({ kind: "Escaped", span: span(), value })) });
    const unquoted = c.k === "word" || c.k === "value";
    if (unquoted || c.k === "index" || (c.k === "pword" && !c.inDq)) {
      alts.push({
        weight: 2,
        arbitrary: fc.stringMatching(c.k === "index" ? /^[a-z0-9]{0,3}$/ : /^[a-z0-9 $"`\\;&|()<>*?#{}\[\]~!=\t\n-]{0,8}$/).map((value): A.WordPart => ({ kind: "SingleQuoted", span: span(), value })),
      });
    }
    if (unquoted || c.k === "pword") {
      alts.push({
        weight: 1,
        arbitrary: fc
          .array(fc.constantFrom("a", "b", " ", "\\n", "\\t", "\\'", "\\\\", "\\x41", '"', "$", "`", "}"), { maxLength: 5 })
          .map((xs): A.WordPart => ({ kind: "AnsiCQuoted", span: span(), raw: xs.join("") })),
      });
    }
    if (unquoted || c.k === "pword" || c.k === "index") {
      const inner = c.k === "index" ? fc.stringMatching(/^[a-z0-9]{0,4}$/).map((v) => (v ? [lit(v)] : [])) : parts({ k: "dq" }, d, 0, 3);
      alts.push({ weight: 2, arbitrary: inner.map((ps): A.WordPart => ({ kind: "DoubleQuoted", span: span(), parts: ps })) });
      if (c.k !== "index") alts.push({ weight: 1, arbitrary: inner.map((ps): A.WordPart => ({ kind: "LocaleQuoted", span: span(), parts: ps })) });
    }
    if (c.k === "word") {
      alts.push(
        { weight: 2, arbitrary: fc.constantFrom("*", "?", "**?", "[abc]", "[!a-z]", "[[:alpha:]]", "[a-]").map((value): A.WordPart => ({ kind: "Glob", span: span(), value })) },
        { weight: 1, arbitrary: fc.constantFrom("{a,b}", "{1..3}", "{x,y,z}", "{a..c}", "{,b}", "{a,{b,c}}", "{-1..3..2}").map((value): A.WordPart => ({ kind: "BraceExp", span: span(), value })) },
        { weight: 1, arbitrary: fc.constantFrom("", "root", "+", "-", "a.b").map((user): A.WordPart => ({ kind: "Tilde", span: span(), user })) },
      );
    }
    alts.push({ weight: 2, arbitrary: fc.constantFrom("x", "HOME", "_a1", "ab", "1", "0", "9", "@", "*", "#", "?", "-", "$", "!").map(shortParam) });
    if (c.k === "arith" || c.k === "index") {
      // Parentheses, brackets and (in a[…]=) blanks must stay balanced or absent here.
      alts.push({ weight: 1, arbitrary: fc.constantFrom("x", "HOME", "1", "#", "@").map((name): A.WordPart => ({ ...shortParam(name), short: false })) });
    }
    // Nothing recursive in a[…]=.
    if (d > 0 && !(c.k === "index" && c.assign)) {
      if (c.k !== "arith" && c.k !== "index") alts.push({ weight: 1, arbitrary: paramExp(c, d - 1) });
      if (c.k === "arith" || c.k === "index") {
        // Inside `$((…))` a command substitution stays simple: its parentheses must balance.
        alts.push({ weight: 1, arbitrary: simpleStmts(d - 1).map((stmts): A.WordPart => ({ kind: "CmdSubst", span: span(), stmts, backquote: false })) });
      } else {
        alts.push(
          { weight: 1, arbitrary: stmts(d - 1, 0, 2).map((ss): A.WordPart => ({ kind: "CmdSubst", span: span(), stmts: ss, backquote: false })) },
          { weight: 1, arbitrary: stmts(d - 1, 0, 2).map((ss): A.WordPart => ({ kind: "CmdSubst", span: span(), stmts: ss, backquote: true })) },
        );
      }
      if (unquoted && c.k === "word") {
        alts.push({ weight: 1, arbitrary: fc.tuple(fc.constantFrom<"<" | ">">("<", ">"), stmts(d - 1, 1, 2)).map(([op, ss]): A.WordPart => ({ kind: "ProcSubst", span: span(), op, stmts: ss })) });
      }
      alts.push({
        weight: 1,
        arbitrary: fc.tuple(fc.boolean(), parts({ k: "arith" }, d - 1, 0, 3)).map(([bracket, ps]): A.WordPart => ({ kind: "ArithExp", span: span(), bracket, expr: word(ps) })),
      });
    }
    return fc.oneof(...alts);
  });
}

const PARAM_OPS = [":-", ":=", ":?", ":+", "##", "%%", "//", "/#", "/%", "^^", ",,", ":", "-", "=", "?", "+", "#", "%", "/", "^", ",", "@"];

function paramExp(c: Ctx, d: number): fc.Arbitrary<A.WordPart> {
  const inDq = c.k === "dq" || c.k === "heredoc";
  return memoized(`param ${inDq} ${d}`, () => {
    const regular = fc.constantFrom("x", "HOME", "_a1", "arr", "1", "10");
    const special = fc.constantFrom("@", "*", "#", "?", "-", "$", "!");
    const index = parts({ k: "index", assign: false }, d, 1, 2).map(word);
    const opArg = fc.constantFrom(...PARAM_OPS).chain((op) => {
      const sep = op.startsWith("/") ? "/" : op === ":" ? ":" : null;
      const ctx: Ctx = { k: "pword", inDq, sep };
      return fc.tuple(fc.constant(op), parts(ctx, d, 0, 3), sep ? fc.option(parts({ k: "pword", inDq, sep: null }, d, 0, 2), { nil: undefined }) : fc.constant(undefined));
    });
    const named = fc
      .tuple(fc.constantFrom<"#" | "!" | null>(null, null, null, "#", "!"), regular, fc.option(index, { freq: 4, nil: null }), fc.option(opArg, { freq: 3, nil: undefined }))
      .map(([prefix, name, idx, oa]): A.ParamExp => {
        const p: A.ParamExp = { kind: "ParamExp", span: span(), short: false, prefix, name, index: /^\d/.test(name) ? null : idx, op: null, arg: null, repl: null };
        if (oa) setOp(p, oa[0], oa[1], oa[2]);
        return p;
      });
    // A special name may only be followed by an operator that cannot read as part of a prefix.
    const specialP = fc
      .tuple(special, fc.option(fc.tuple(fc.constantFrom(":-", ":=", ":?", ":+"), parts({ k: "pword", inDq, sep: null }, d, 0, 2)), { freq: 3, nil: undefined }))
      .map(([name, oa]): A.ParamExp => {
        const p: A.ParamExp = { kind: "ParamExp", span: span(), short: false, prefix: null, name, index: null, op: null, arg: null, repl: null };
        if (oa) setOp(p, oa[0], oa[1], undefined);
        return p;
      });
    return fc.oneof({ weight: 4, arbitrary: named }, { weight: 1, arbitrary: specialP });
  });
}

/** Sets `${name<op>arg[sep repl]}`, adjusting the argument so that it cannot read as a longer operator. */
function setOp(p: A.ParamExp, op: string, arg: A.WordPart[], repl: A.WordPart[] | undefined): void {
  const first = arg[0];
  const firstChar = first?.kind === "Lit" ? first.value[0]! : "";
  const clash: Record<string, string> = { ":": "-=?+", "#": "#", "%": "%", "/": "/#%", "^": "^", ",": "," };
  let a = arg;
  if (firstChar && clash[op]?.includes(firstChar)) a = normalize([lit("q"), ...arg], { k: "pword", inDq: false, sep: null });
  // `${x/}` with an empty pattern and a replacement would read as `${x//…}`.
  if (op === "/" && a.length === 0) repl = undefined;
  p.op = op;
  p.arg = word(a);
  p.repl = repl === undefined ? null : word(repl);
}

/**
 * The normal form of a part list: adjacent literals merged, `$name` before a name
 * character written `${name}`, star runs merged, a tilde only first and followed
 * by `/` or a non-literal, a process substitution only first.
 */
function normalize(ps: A.WordPart[], c: Ctx): A.WordPart[] {
  const out: A.WordPart[] = [];
  for (const p0 of ps) {
    let p = p0;
    const last = out[out.length - 1];
    if ((p.kind === "Tilde" || p.kind === "ProcSubst") && out.length > 0) continue;
    if (p.kind === "Lit" && last?.kind === "Lit") {
      out[out.length - 1] = lit(last.value + p.value);
      continue;
    }
    if (p.kind === "Glob" && last?.kind === "Glob" && /^[*?]/.test(p.value) && /[*?]$/.test(last.value)) {
      out[out.length - 1] = { ...last, value: last.value + p.value };
      continue;
    }
    if (last?.kind === "Tilde" && (p.kind === "Glob" || p.kind === "BraceExp")) out.push(lit("/"));
    if (last?.kind === "Tilde" && p.kind === "Lit" && !p.value.startsWith("/")) p = lit("/" + p.value);
    out.push(p);
  }
  for (let i = 0; i + 1 < out.length; i++) {
    const p = out[i]!;
    const n = out[i + 1]!;
    if (p.kind === "ParamExp" && p.short && REGULAR_NAME.test(p.name) && n.kind === "Lit" && NAME_CHAR.test(n.value)) out[i] = { ...p, short: false };
  }
  if (c.k === "pword" && c.sep) {
    // A literal may not hold the separator (it would end the pattern).
    for (let i = 0; i < out.length; i++) {
      const p = out[i]!;
      if (p.kind === "Lit" && p.value.includes(c.sep)) out[i] = lit(p.value.split(c.sep).join("_"));
    }
  }
  return out;
}

// ---- commands -------------------------------------------------------------------------------

const plainName = fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/).filter((n) => !KEYWORDS.has(n));

/** A word that may stand first in a simple command. */
function commandWord(d: number): fc.Arbitrary<A.Word> {
  return memoized(`cmdword ${d}`, () =>
    parts({ k: "word" }, d, 1, 2).map((ps) => {
      const w = word(ps);
      return startsLikeAssignmentOrKeyword(w) ? word([lit("cmd")]) : w;
    }),
  );
}

function startsLikeAssignmentOrKeyword(w: A.Word): boolean {
  const first = w.parts[0];
  if (!first) return true;
  if (w.parts.length === 1 && first.kind === "Lit" && (KEYWORDS.has(first.value) || first.value === "-p")) return true;
  let text = "";
  for (const p of w.parts) {
    if (p.kind === "Lit" || p.kind === "Glob" || p.kind === "BraceExp") text += p.value;
    else break;
  }
  return /^[A-Za-z_][A-Za-z0-9_]*(\+?=|\[)/.test(text);
}

/** Any word (after the first of a command, a loop item, a redirect target…). */
function anyWord(d: number): fc.Arbitrary<A.Word> {
  return memoized(`word ${d}`, () => parts({ k: "word" }, d, 1, 2).map(word));
}

/** An argument: any word, sometimes a reserved word (which is plain text there). */
function argWord(d: number): fc.Arbitrary<A.Word> {
  return fc.oneof({ weight: 12, arbitrary: anyWord(d) }, { weight: 1, arbitrary: fc.constantFrom(...KEYWORDS).map((k) => word([lit(k)])) });
}

/** A word without a process substitution or reserved word: case patterns, test operands. */
function patternWord(d: number): fc.Arbitrary<A.Word> {
  return anyWord(d).map((w) => (w.parts.some((p) => p.kind === "ProcSubst") ? word([lit("p")]) : w));
}

const DELIMS = ["EOF", "END", "EOT", "X_Y"];

function heredocRedirect(d: number): fc.Arbitrary<A.Redirect> {
  return memoized(`heredoc ${d}`, () =>
    fc
      .tuple(
        fc.constantFrom(...DELIMS),
        fc.constantFrom("lit", "lit", "lit", "sq", "dq", "esc", "mixed"),
        fc.boolean(),
        fc.constantFrom(null, null, "0", "3"),
        fc.oneof({ weight: 1, arbitrary: fc.constant<A.WordPart[]>([]) }, { weight: 4, arbitrary: parts({ k: "heredoc" }, d, 1, 4) }),
        fc.array(fc.stringMatching(/^[a-z0-9 $`\\"'();&|<>*{}\t-]{0,10}$/), { maxLength: 3 }),
      )
      .map(([wanted, form, stripTabs, fd, body, rawLines]): A.Redirect => {
        // A here-document inside the body must not end at our delimiter line.
        const used = delimitersIn(body);
        const delimiter = [wanted, ...DELIMS, "ZZ_9"].find((x) => !used.has(x))!;
        const target: A.WordPart[] =
          form === "lit"
            ? [lit(delimiter)]
            : form === "sq"
              ? [{ kind: "SingleQuoted", span: span(), value: delimiter }]
              : form === "dq"
                ? [{ kind: "DoubleQuoted", span: span(), parts: [lit(delimiter)] }]
                : form === "esc"
                  ? [{ kind: "Escaped", span: span(), value: delimiter[0]! }, lit(delimiter.slice(1))]
                  : [lit(delimiter[0]!), { kind: "SingleQuoted", span: span(), value: delimiter.slice(1) }];
        const quoted = form !== "lit";
        let bodyParts: A.WordPart[];
        if (quoted) {
          const raw = rawLines.map((l) => l + "\n").join("");
          bodyParts = raw ? [lit(raw)] : [];
        } else {
          bodyParts = body;
          const last = bodyParts[bodyParts.length - 1];
          if (last && !(last.kind === "Lit" && last.value.endsWith("\n"))) bodyParts = normalize([...bodyParts, lit("\n")], { k: "heredoc" });
        }
        return {
          kind: "Redirect",
          span: span(),
          fd,
          op: stripTabs ? "<<-" : "<<",
          target: word(target),
          heredoc: { kind: "Heredoc", span: span(), delimiter, quoted, stripTabs, body: word(bodyParts) },
        };
      }),
  );
}

function delimitersIn(n: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(n)) n.forEach((x) => delimitersIn(x, out));
  else if (n && typeof n === "object") {
    if ((n as A.Node).kind === "Heredoc") out.add((n as A.Heredoc).delimiter);
    for (const v of Object.values(n)) if (v && typeof v === "object") delimitersIn(v, out);
  }
  return out;
}

function redirect(d: number): fc.Arbitrary<A.Redirect> {
  return memoized(`redirect ${d}`, () => {
    const plain = fc
      .tuple(fc.constantFrom(null, null, "1", "2", "0", "10", "{fd}"), fc.constantFrom<A.RedirOperator>("<", ">", ">>", ">|", "<>", "<<<", "&>", "&>>", ">&", "<&"), anyWord(d))
      .map(([fd, op, target]): A.Redirect => ({ kind: "Redirect", span: span(), fd: op.startsWith("&") ? null : fd, op, target, heredoc: null }));
    const dup = fc
      .tuple(fc.constantFrom(null, "2", "1", "3", "{fd}"), fc.constantFrom<A.RedirOperator>(">&", "<&"), fc.constantFrom("1", "2", "-", "0", "3-"))
      .map(([fd, op, t]): A.Redirect => ({ kind: "Redirect", span: span(), fd, op, target: word([lit(t)]), heredoc: null }));
    return fc.oneof({ weight: 4, arbitrary: plain }, { weight: 2, arbitrary: dup }, { weight: d > 0 ? 2 : 1, arbitrary: heredocRedirect(d) });
  });
}

function assign(d: number): fc.Arbitrary<A.Assign> {
  return memoized(`assign ${d}`, () => {
    const name = fc.constantFrom("a", "FOO", "_x1", "arr", "i");
    const value = fc.option(parts({ k: "value" }, d, 1, 3).map(word), { freq: 5, nil: null });
    const scalar = fc
      .tuple(name, fc.option(parts({ k: "index", assign: true }, d, 1, 2).map(word), { freq: 4, nil: null }), fc.constantFrom<"=" | "+=">("=", "+="), value)
      .map(([n, index, op, v]): A.Assign => ({ kind: "Assign", span: span(), name: n, index, op, value: v, array: null }));
    const array = fc
      .tuple(
        name,
        fc.constantFrom<"=" | "+=">("=", "+="),
        fc.array(fc.oneof({ weight: 5, arbitrary: anyWord(d) }, { weight: 1, arbitrary: fc.constantFrom("[k]=v", "[1]=", "[i]+=x").map((v) => word([lit(v)])) }), { maxLength: 3 }),
      )
      .map(([n, op, elems]): A.Assign => ({ kind: "Assign", span: span(), name: n, index: null, op, value: null, array: { kind: "ArrayLit", span: span(), elems: elems.map(keyed) } }));
    return fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: array });
  });
}

/** In an array, `[key]=value` is a subscript, not a bracket pattern (keyedElement in the parser). */
function keyed(w: A.Word): A.Word {
  const [first, second] = w.parts;
  if (first?.kind === "Glob" && first.value.startsWith("[") && second?.kind === "Lit" && /^\+?=/.test(second.value)) {
    return word(normalize([lit(first.value), ...w.parts.slice(1)], { k: "value" }));
  }
  return w;
}

function simpleCommand(d: number, opts: { keywordArgs: boolean } = { keywordArgs: true }): fc.Arbitrary<A.SimpleCommand> {
  return memoized(`simple ${d} ${opts.keywordArgs}`, () =>
    fc
      .tuple(
        fc.array(assign(d), { maxLength: 1 }),
        fc.option(fc.tuple(commandWord(d), fc.array(opts.keywordArgs ? argWord(d) : anyWord(d), { maxLength: 2 })), { freq: 6, nil: undefined }),
        fc.oneof({ weight: 3, arbitrary: fc.constant<A.Redirect[]>([]) }, { weight: 2, arbitrary: fc.array(redirect(d), { minLength: 1, maxLength: 2 }) }),
      )
      .filter(([as, ws, rs]) => as.length + rs.length > 0 || ws !== undefined)
      .map(([assigns, ws, redirects]): A.SimpleCommand => ({ kind: "SimpleCommand", span: span(), assigns, words: ws ? [ws[0], ...ws[1]] : [], redirects })),
  );
}

/** Statements that keep parentheses balanced and hold nothing multi-line: for inside $((…)). */
function simpleStmts(d: number): fc.Arbitrary<A.Stmt[]> {
  return memoized(`simplestmts ${d}`, () =>
    fc.array(
      fc
        .tuple(plainName, fc.array(fc.stringMatching(/^[a-z0-9.-]{1,4}$/), { maxLength: 2 }))
        .map(([n, args]) => stmtOf({ kind: "SimpleCommand", span: span(), assigns: [], words: [n, ...args].map((a) => word([lit(a)])), redirects: [] })),
      { minLength: 1, maxLength: 2 },
    ),
  );
}

function compound(d: number): fc.Arbitrary<A.CompoundCommand> {
  return memoized(`compound ${d}`, () => {
    const body = stmts(d, 1, 2);
    const redirs = fc.oneof({ weight: 3, arbitrary: fc.constant<A.Redirect[]>([]) }, { weight: 1, arbitrary: fc.array(redirect(d), { minLength: 1, maxLength: 2 }) });
    const loopHead = fc.tuple(fc.constantFrom("x", "i", "_f"), fc.option(fc.array(argWord(d), { maxLength: 3 }), { freq: 4, nil: null }), fc.boolean());
    const arithFor = parts({ k: "arith" }, d, 0, 2).map(word);
    const alts: fc.Arbitrary<A.CompoundCommand>[] = [
      fc.tuple(body, redirs).map(([ss, rs]): A.CompoundCommand => ({ kind: "Subshell", span: span(), stmts: ss, redirects: rs })),
      fc.tuple(body, redirs).map(([ss, rs]): A.CompoundCommand => ({ kind: "Group", span: span(), stmts: ss, redirects: rs })),
      fc.tuple(fc.array(fc.tuple(body, body), { minLength: 1, maxLength: 2 }), fc.option(body, { nil: null }), redirs).map(([cls, elseBody, rs]): A.CompoundCommand => ({
        kind: "If",
        span: span(),
        clauses: cls.map(([cond, b]) => ({ kind: "IfClause", span: span(), cond, body: b })),
        elseBody,
        redirects: rs,
      })),
      fc.tuple(fc.boolean(), body, body, redirs).map(([until, cond, b, rs]): A.CompoundCommand => ({ kind: "While", span: span(), until, cond, body: b, redirects: rs })),
      fc
        .tuple(fc.constantFrom<"For" | "Select">("For", "Select"), loopHead, body, redirs)
        .map(([kind, [name, items, braces], b, rs]): A.CompoundCommand => ({ kind, span: span(), name, items, body: b, braces, redirects: rs })),
      fc
        .tuple(arithFor, arithFor, arithFor, fc.boolean(), body, redirs)
        .map(([init, cond, post, braces, b, rs]): A.CompoundCommand => ({ kind: "ArithFor", span: span(), init, cond, post, body: b, braces, redirects: rs })),
      fc
        .tuple(
          patternWord(d).map((w) => (w.parts.length === 1 && w.parts[0]!.kind === "Lit" && KEYWORDS.has(w.parts[0]!.value) ? word([lit("w")]) : w)),
          fc.array(fc.tuple(fc.array(patternWord(d), { minLength: 1, maxLength: 2 }), stmts(d, 0, 2), fc.constantFrom<A.CaseTerminator>(";;", ";;", ";&", ";;&")), { maxLength: 3 }),
          fc.option(fc.tuple(fc.array(patternWord(d), { minLength: 1, maxLength: 2 }), stmts(d, 0, 2)), { freq: 3, nil: undefined }),
          redirs,
        )
        .map(([w, arms, last, rs]): A.CompoundCommand => ({
          kind: "Case",
          span: span(),
          word: w,
          arms: [
            ...arms.map(([patterns, b, terminator]): A.CaseArm => ({ kind: "CaseArm", span: span(), patterns, body: b, terminator })),
            ...(last ? [{ kind: "CaseArm" as const, span: span(), patterns: last[0], body: last[1], terminator: null }] : []),
          ],
          redirects: rs,
        })),
      fc.tuple(testExpr(d, 2), redirs).map(([items, rs]): A.CompoundCommand => ({ kind: "TestClause", span: span(), items, redirects: rs })),
      fc.tuple(parts({ k: "arith" }, d, 0, 3), redirs).map(([ps, rs]): A.CompoundCommand => ({ kind: "ArithCmd", span: span(), expr: word(ps), redirects: rs })),
    ];
    return fc.oneof(...alts);
  });
}

const testOp = (op: A.TestOp["op"]): A.TestOp => ({ kind: "TestOp", span: span(), op });
const PATTERN_OPS = new Set(["=~", "==", "!=", "="]);

/** An expression of `[[ ]]`: operators around operand words. */
function testExpr(d: number, depth: number): fc.Arbitrary<(A.Word | A.TestOp)[]> {
  return memoized(`test ${d} ${depth}`, () => {
    const operand = patternWord(d).map((w) => {
      const p = w.parts[0];
      return w.parts.length === 1 && p?.kind === "Lit" && (PATTERN_OPS.has(p.value) || KEYWORDS.has(p.value) || p.value.startsWith("-")) ? word([lit("v" + p.value)]) : w;
    });
    const leaf = fc.oneof(
      operand.map((w) => [w]),
      fc.tuple(fc.constantFrom("-n", "-z", "-f", "-d", "-e"), operand).map(([o, w]) => [word([lit(o)]), w]),
      fc.tuple(operand, fc.constantFrom("==", "!=", "=", "=~", "-eq", "-lt"), operand).map(([a, o, b]) => [a, word([lit(o)]), b]),
      fc.tuple(operand, fc.constantFrom<"<" | ">">("<", ">"), operand).map(([a, o, b]) => [a, testOp(o), b]),
    );
    if (depth <= 0) return leaf;
    const sub = testExpr(d, depth - 1);
    return fc.oneof(
      { weight: 3, arbitrary: leaf },
      { weight: 1, arbitrary: sub.map((e) => [word([lit("!")]), ...e]) },
      { weight: 1, arbitrary: fc.tuple(sub, fc.constantFrom<"&&" | "||">("&&", "||"), sub).map(([a, o, b]) => [...a, testOp(o), ...b]) },
      { weight: 1, arbitrary: sub.map((e) => [testOp("("), ...e, testOp(")")]) },
    );
  });
}

/** A command as a pipeline stage, a coprocess body or a function body. */
function command(d: number): fc.Arbitrary<A.Command> {
  return memoized(`command ${d}`, () => {
    const alts: { weight: number; arbitrary: fc.Arbitrary<A.Command> }[] = [{ weight: 8, arbitrary: simpleCommand(d) }];
    if (d > 0) {
      const c = compound(d - 1);
      alts.push({ weight: 3, arbitrary: c });
      alts.push({
        weight: 1,
        arbitrary: fc
          .tuple(plainName, fc.constantFrom("plain", "keyword", "keyword()"), c)
          .map(([name, form, body]): A.Command => ({ kind: "FuncDecl", span: span(), name, keyword: form !== "plain", parens: form !== "keyword", body: stmtOf(body) })),
      });
      alts.push({
        weight: 1,
        arbitrary: fc.oneof(
          simpleCommand(d - 1, { keywordArgs: false }).map((sc): A.Command => ({ kind: "Coproc", span: span(), name: null, stmt: stmtOf(sc) })),
          fc.tuple(fc.option(fc.constantFrom("NAME", "cp1"), { nil: null }), c).map(([n, body]): A.Command => ({ kind: "Coproc", span: span(), name: n ? word([lit(n)]) : null, stmt: stmtOf(body) })),
        ),
      });
    }
    return fc.oneof(...alts);
  });
}

/** What the parser's pipelineStmt gives: maybe negated; a time clause, a pipeline or a command. */
function pipeStmt(d: number): fc.Arbitrary<A.Stmt> {
  return memoized(`pipestmt ${d}`, () => {
    const pipeline = fc
      .tuple(fc.array(command(d), { minLength: 2, maxLength: 2 }), fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }))
      .map(([cs, errs]): A.Command => ({ kind: "Pipeline", span: span(), stages: cs.map((c) => stmtOf(c)), pipeStderr: errs.slice(0, cs.length - 1) }));
    const alts: { weight: number; arbitrary: fc.Arbitrary<A.Command> }[] = [
      { weight: 6, arbitrary: command(d) },
      { weight: 2, arbitrary: pipeline },
    ];
    if (d > 0) {
      alts.push({
        weight: 1,
        arbitrary: fc.tuple(fc.boolean(), fc.option(pipeStmt(d - 1), { freq: 5, nil: null })).map(([posix, stmt]): A.Command => ({ kind: "TimeClause", span: span(), posix, stmt })),
      });
    }
    return fc.tuple(fc.oneof(...alts), sometimes).map(([cmd, negated]) => stmtOf(cmd, negated));
  });
}

/** A statement of a list: an and-or list (left-nested) or a pipeline statement, maybe in the background. */
function listStmt(d: number): fc.Arbitrary<A.Stmt> {
  return memoized(`liststmt ${d}`, () =>
    fc.tuple(pipeStmt(d), fc.array(fc.tuple(fc.constantFrom<"&&" | "||">("&&", "||"), pipeStmt(d)), { maxLength: 1 }), sometimes).map(([first, rest, background]) => {
      let st = first;
      for (const [op, right] of rest) st = stmtOf({ kind: "AndOr", span: span(), op, left: st, right });
      return { ...st, background };
    }),
  );
}

function stmts(d: number, min: number, max: number): fc.Arbitrary<A.Stmt[]> {
  return memoized(`stmts ${d} ${min} ${max}`, () => fc.array(listStmt(d), { minLength: min, maxLength: max }));
}

const script: fc.Arbitrary<A.Script> = fc
  .oneof({ weight: 1, arbitrary: stmts(3, 0, 0) }, { weight: 12, arbitrary: stmts(3, 1, 2) })
  .map((ss) => ({ kind: "Script", span: span(), stmts: ss, comments: [] }));

/** Counterexamples show as their canonical text rather than as a tree. */
const shown = (ast: A.Script): A.Script => Object.defineProperty(ast, fc.toStringMethod, { value: () => `printCanonical → ${JSON.stringify(printCanonical(ast))}`, enumerable: false });

test("the canonical print of a generated tree parses back to the same tree, and prints the same again", () => {
  fc.assert(
    fc.property(script.map(shown), (ast) => {
      const text = printCanonical(ast);
      const r = parse(text);
      if (!r.ok) assert.fail(`the canonical print does not parse (${r.error.message} at ${r.error.offset}): ${JSON.stringify(text)}`);
      if (!isDeepStrictEqual(withoutSpans(r.script), withoutSpans(ast))) {
        assert.fail(`the canonical print reads as a different tree: ${JSON.stringify(text)}, which prints as ${JSON.stringify(printCanonical(r.script))}`);
      }
      assert.equal(printCanonical(r.script), text, "printing the parsed canonical print again");
    }),
    { numRuns: 1000 },
  );
});

test("a command whose first word spells a reserved word keeps its leading redirections first: moved behind, the word would be the keyword", () => {
  for (const src of ["2>/dev/null time make", "2>&1 ! grep x", ">x in", ">x {", ">x then", "<in fi a"]) {
    const r = parse(src);
    assert.ok(r.ok, src);
    const text = printCanonical(r.script);
    const again = parse(text);
    assert.ok(again.ok, `${src} → ${JSON.stringify(text)} does not parse`);
    assert.ok(isDeepStrictEqual(withoutSpans(again.script), withoutSpans(r.script)), `${src} → ${JSON.stringify(text)} reads as a different tree`);
  }
});
