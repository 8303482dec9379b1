// Words: literal runs merged, and a word's unquoted literal text split into the
// parts bash expands (globs, brace expansions, a leading tilde); the pieces of
// an arithmetic for; the keys of an array literal. Pure functions of the parts
// the parser read and the source text.
import type * as A from "../src/ast/nodes.js";
import { ShellSyntaxError } from "./errors.js";

const sp = (start: number, end: number): A.Span => ({ start, end });

export function litOf(value: string, start: number, end = start + value.length): A.Lit {
  return { kind: "Lit", span: sp(start, end), value };
}

export function wordOf(parts: A.WordPart[], at: number): A.Word {
  const merged = mergeLits(parts);
  if (!merged.length) return { kind: "Word", span: sp(at, at), parts: merged };
  return { kind: "Word", span: sp(merged[0]!.span.start, merged[merged.length - 1]!.span.end), parts: merged };
}

/** Adjacent literal tokens (a word split by a continuation, `a=b`, `$` before a blank) form one Lit. */
export function mergeLits(parts: A.WordPart[]): A.WordPart[] {
  if (parts.length < 2) return parts;
  const out: A.WordPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (p.kind === "Lit" && last?.kind === "Lit") {
      out[out.length - 1] = { kind: "Lit", span: sp(last.span.start, p.span.end), value: last.value + p.value };
    } else out.push(p);
  }
  return out;
}

/** In `([key]=value …)` the `[key]` is a subscript, not a bracket pattern. */
export function keyedElement(w: A.Word): A.Word {
  const [first, second] = w.parts;
  if (first?.kind === "Glob" && first.value.startsWith("[") && second?.kind === "Lit" && /^\+?=/.test(second.value)) {
    return { ...w, parts: mergeLits([litOf(first.value, first.span.start, first.span.end), ...w.parts.slice(1)]) };
  }
  return w;
}

/** Merges literal runs, then marks the unquoted globs, brace expansions and a leading tilde. */
export function finishWord(raw: A.WordPart[], src: string): A.Word {
  const merged = mergeLits(raw);
  const only = merged.length === 1 ? merged[0]! : null;
  // The common word: one plain literal with nothing a pattern or a tilde could start with.
  if (only?.kind === "Lit" && !/[*?[{~]/.test(only.value) && only.span.end - only.span.start === only.value.length) {
    return { kind: "Word", span: sp(only.span.start, only.span.end), parts: merged };
  }
  const parts: A.WordPart[] = [];
  merged.forEach((p, i) => {
    if (p.kind !== "Lit") parts.push(p);
    else if (p.span.end - p.span.start === p.value.length) splitPatterns(p, i === 0, parts, (k) => p.span.start + k);
    else {
      // A line continuation inside: the pieces keep their own source offsets.
      const at = sourceOffsets(p, src);
      if (at) splitPatterns(p, i === 0, parts, (k) => at[k]!);
      else parts.push(p);
    }
  });
  return { kind: "Word", span: sp(merged[0]!.span.start, merged[merged.length - 1]!.span.end), parts };
}

/**
 * The source offset of each character of a literal whose source holds line
 * continuations (`\<newline>`, which it stands for without); null when the
 * source does not read back to the value.
 */
function sourceOffsets(lit: A.Lit, src: string): number[] | null {
  const at: number[] = [];
  for (let j = lit.span.start; j < lit.span.end;) {
    if (src[j] === "\\" && src[j + 1] === "\n") j += 2;
    else if (src[j] === "\\" && src[j + 1] === "\r" && src[j + 2] === "\n") j += 3;
    else at.push(j++);
  }
  return at.length === lit.value.length && at.every((o, k) => src[o] === lit.value[k]) ? at : null;
}

/** `pos(k)`: the source offset of the literal's k-th character. */
function splitPatterns(lit: A.Lit, wordStart: boolean, out: A.WordPart[], pos: (k: number) => number): void {
  const v = lit.value;
  const span = (from: number, to: number) => sp(pos(from), pos(to - 1) + 1);
  let i = 0;
  let from = 0;
  const flush = (to: number) => {
    if (to > from) out.push({ kind: "Lit", span: span(from, to), value: v.slice(from, to) });
  };
  if (wordStart && v[0] === "~") {
    let j = 1;
    while (j < v.length && /[A-Za-z0-9._+-]/.test(v[j]!)) j++;
    if (j === v.length || v[j] === "/") {
      out.push({ kind: "Tilde", span: span(0, j), user: v.slice(1, j) });
      i = from = j;
    }
  }
  // Where a `[` or `{` can close: computed once, so a word of many openers stays linear.
  const lastBracket = v.lastIndexOf("]");
  const braces = v.includes("{") ? braceEnds(v) : null;
  while (i < v.length) {
    const c = v[i];
    let end = -1;
    let kind: "Glob" | "BraceExp" = "Glob";
    if (c === "*" || c === "?") {
      end = i + 1;
      while (end < v.length && (v[end] === "*" || v[end] === "?")) end++;
    } else if (c === "[" && lastBracket > i) {
      end = bracketEnd(v, i);
      // No bracket expression here: none can start before the next `]` either.
      if (end < 0) {
        const close = v.indexOf("]", i + 1);
        i = close > i ? close : v.length;
        continue;
      }
    } else if (c === "{" && braces) {
      end = braces.get(i) ?? -1;
      kind = "BraceExp";
    }
    if (end > i) {
      flush(i);
      out.push({ kind, span: span(i, end), value: v.slice(i, end) });
      i = from = end;
    } else i++;
  }
  flush(v.length);
}

/** The end of a bracket expression starting at `i`, or -1. */
function bracketEnd(v: string, i: number): number {
  let j = i + 1;
  if (v[j] === "!" || v[j] === "^") j++;
  if (v[j] === "]") j++;
  for (; j < v.length; j++) {
    if (v[j] === "]") return j > i + 1 ? j + 1 : -1;
    if (v[j] === "[" && v[j + 1] === ":") {
      const close = v.indexOf(":]", j + 2);
      if (close > 0) j = close + 1;
    }
  }
  return -1;
}

/**
 * The end of every brace expansion (`{a,b}`, `{1..3}`) in `v`, by the offset of
 * its `{`: one pass with a stack of the open braces.
 */
function braceEnds(v: string): Map<number, number> {
  const ends = new Map<number, number>();
  const open: { at: number; comma: boolean }[] = [];
  for (let j = 0; j < v.length; j++) {
    const c = v[j];
    if (c === "{") open.push({ at: j, comma: false });
    else if (c === "," && open.length) open[open.length - 1]!.comma = true;
    else if (c === "}" && open.length) {
      const o = open.pop()!;
      const inner = v.slice(o.at + 1, j);
      if (o.comma || /^(-?\d+\.\.-?\d+|[A-Za-z]\.\.[A-Za-z])(\.\.-?\d+)?$/.test(inner)) ends.set(o.at, j + 1);
    }
  }
  return ends;
}

/** The three words of `for ((init; condition; step))`, split at the top-level `;` of its literal text. */
export function splitArithFor(parts: A.WordPart[], start: number, end: number, src: string): [A.Word, A.Word, A.Word] {
  const groups: A.WordPart[][] = [[]];
  const bounds: number[] = [start];
  let depth = 0;
  for (const p of parts) {
    if (p.kind !== "Lit") {
      groups[groups.length - 1]!.push(p);
      continue;
    }
    const raw = src.slice(p.span.start, p.span.end);
    let from = 0;
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === ";" && depth === 0) {
        if (i > from) groups[groups.length - 1]!.push(litOf(raw.slice(from, i), p.span.start + from));
        bounds.push(p.span.start + i, p.span.start + i + 1);
        groups.push([]);
        from = i + 1;
      }
    }
    if (from < raw.length) groups[groups.length - 1]!.push(litOf(raw.slice(from), p.span.start + from));
  }
  bounds.push(end);
  if (groups.length !== 3) throw new ShellSyntaxError(start, "expected `((init; condition; step))` in arithmetic for");
  return groups.map((g, i) => ({
    kind: "Word" as const,
    span: g.length ? sp(g[0]!.span.start, g[g.length - 1]!.span.end) : sp(bounds[2 * i]!, bounds[2 * i]!),
    parts: g,
  })) as [A.Word, A.Word, A.Word];
}
