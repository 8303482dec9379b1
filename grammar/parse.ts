// The entry point of the grammar: text in, a Script or an error value out. No
// exception escapes: scanner and parser errors, and any internal failure, become
// a ParseError with a position.
import type * as A from "../src/ast/nodes.js";
import { TooComplexError, type Budget } from "./budget.js";
import { ShellParser, type BackquoteJob } from "./parser.js";
import { ShellSyntaxError } from "./scanner.js";

export { Budget } from "./budget.js";

export interface ParseError {
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  message: string;
  /** Set when the input was not read to its end because a limit was reached, not because it is wrong. */
  limit?: "length" | "time";
}

export interface ParseOptions {
  /** A time limit: past it, the parse stops with an error whose `limit` is "time". */
  budget?: Budget;
}

export type ParseResult = { ok: true; script: A.Script } | { ok: false; error: ParseError };

declare const RTK_BUNDLED: boolean | undefined;

let parser: ShellParser | undefined;

/** The one parser instance; grammar validations run except in the shipped bundle. */
export function getParser(): ShellParser {
  parser ??= new ShellParser(typeof RTK_BUNDLED !== "undefined" && RTK_BUNDLED);
  return parser;
}

export function parse(src: string, opts: ParseOptions = {}): ParseResult {
  try {
    return { ok: true, script: parseOrThrow(src, opts.budget ?? null) };
  } catch (e) {
    const offset = e instanceof ShellSyntaxError ? e.offset : 0;
    const message = e instanceof ShellSyntaxError ? e.message : e instanceof RangeError ? "input nested too deeply" : `internal parser error: ${String(e)}`;
    const error: ParseError = { ...position(src, Math.min(Math.max(offset, 0), src.length)), message };
    if (e instanceof TooComplexError) error.limit = "time";
    return { ok: false, error };
  }
}

function parseOrThrow(src: string, budget: Budget | null): A.Script {
  const p = getParser();
  const { stmts, comments: found } = p.run(src, 0, src.length, budget);
  const comments: A.Comment[] = [];
  const collect = (map: Map<number, string>, toSource: (o: number) => number) => {
    for (const [at, text] of map) {
      comments.push({ kind: "Comment", span: { start: toSource(at), end: toSource(at + text.length) }, text });
    }
  };
  collect(found, (o) => o);
  const jobs: { job: BackquoteJob; text: string; map: ((o: number) => number) | null }[] = p.backquotes.map((job) => ({ job, text: src, map: null }));
  // Walked by index, not shift(): shifting a long array moves all of it, once per
  // backquote. A finished job is dropped, so its unescaped text can be collected.
  for (let next = 0; next < jobs.length; next++) {
    const { job, text, map: outer } = jobs[next]!;
    jobs[next] = undefined!;
    const { inner, offsets } = unescapeBackquote(text, job.contentStart, job.contentEnd, job.inDq);
    const toSource = (o: number) => {
      const t = offsets[o]!;
      return outer ? outer(t) : t;
    };
    let result;
    try {
      result = p.run(inner, 0, inner.length, budget);
    } catch (e) {
      if (e instanceof TooComplexError) throw new TooComplexError(toSource(Math.min(e.offset, inner.length)), e.message);
      if (e instanceof ShellSyntaxError) throw new ShellSyntaxError(toSource(Math.min(e.offset, inner.length)), e.message);
      throw e;
    }
    job.node.stmts = result.stmts;
    for (const st of result.stmts) remapSpans(st, toSource);
    collect(result.comments, toSource);
    for (const j of p.backquotes) jobs.push({ job: j, text: inner, map: toSource });
  }
  comments.sort((a, b) => a.span.start - b.span.start);
  return { kind: "Script", span: { start: 0, end: src.length }, stmts, comments };
}

/**
 * The command inside backquotes is the text with `\$`, `` \` ``, `\\` (and `\"`
 * inside double quotes) unescaped; offsets[i] is where inner[i] came from.
 */
function unescapeBackquote(text: string, start: number, end: number, inDq: boolean): { inner: string; offsets: number[] } {
  let inner = "";
  const offsets: number[] = [];
  for (let i = start; i < end; i++) {
    const c = text[i]!;
    const n = text[i + 1];
    if (c === "\\" && i + 1 < end && (n === "$" || n === "`" || n === "\\" || (inDq && n === '"'))) {
      i++;
      offsets.push(i);
      inner += n;
      continue;
    }
    offsets.push(i);
    inner += c;
  }
  offsets.push(end);
  return { inner, offsets };
}

function remapSpans(node: unknown, map: (o: number) => number): void {
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (!v || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const o = v as Record<string, unknown>;
    const span = o["span"] as A.Span | undefined;
    if (span && typeof span.start === "number" && o["kind"]) {
      o["span"] = { start: map(span.start), end: map(span.end) };
    }
    for (const k in o) if (k !== "span") visit(o[k]);
  };
  visit(node);
}

export function position(src: string, offset: number): Omit<ParseError, "message"> {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (src.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
}
