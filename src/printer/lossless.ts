// The lossless printer: walks the tree in source order and copies the text
// between and inside nodes from the source, placing here-document bodies where
// they stand and applying insertion edits. print(parse(s)) === s holds exactly
// when every span is consistent: children inside their parent, siblings in
// order, nothing overlapping (checked as it goes).
import type * as A from "../ast/nodes.js";
import { forEachChild, walk } from "../ast/walk.js";

/** Insert `text` immediately before source offset `offset`. */
export interface Insertion {
  offset: number;
  text: string;
}

export class SpanOrderError extends Error {}

export function printLossless(script: A.Script, src: string, insertions: readonly Insertion[] = []): string {
  const heredocs: A.Heredoc[] = [];
  walk(script, (n) => {
    if (n.kind === "Heredoc") heredocs.push(n);
  });
  heredocs.sort((a, b) => a.span.start - b.span.start);
  const edits = [...insertions].sort((a, b) => a.offset - b.offset);
  let out = "";
  let cursor = 0;
  let nextEdit = 0;
  let nextHeredoc = 0;

  const copy = (to: number) => {
    if (to < cursor) throw new SpanOrderError(`span order broken at ${to} (already at ${cursor})`);
    while (nextEdit < edits.length && edits[nextEdit]!.offset < to) {
      const e = edits[nextEdit++]!;
      if (e.offset < cursor) throw new SpanOrderError(`insertion at ${e.offset} falls inside printed text`);
      out += src.slice(cursor, e.offset) + e.text;
      cursor = e.offset;
    }
    out += src.slice(cursor, to);
    cursor = to;
  };

  const advance = (to: number) => {
    while (nextHeredoc < heredocs.length && heredocs[nextHeredoc]!.span.start < to) {
      const h = heredocs[nextHeredoc++]!;
      copy(h.span.start);
      visit(h);
    }
    copy(to);
  };

  const visit = (n: A.Node) => {
    forEachChild(n, (c) => {
      if (c.kind === "Heredoc") return;
      advance(c.span.start);
      visit(c);
    });
    advance(n.span.end);
  };

  visit(script);
  // Insertions at the very end of the input.
  while (nextEdit < edits.length) {
    const e = edits[nextEdit++]!;
    if (e.offset !== src.length) throw new SpanOrderError(`insertion at ${e.offset} is outside the input`);
    out += e.text;
  }
  return out;
}

/**
 * The source with the insertions spliced in: what printLossless prints for a
 * tree whose spans are consistent, without walking it (the rewrite path).
 */
export function applyInsertions(src: string, insertions: readonly Insertion[]): string {
  const sorted = insertions.length > 1 ? [...insertions].sort((a, b) => a.offset - b.offset) : insertions;
  let out = "";
  let at = 0;
  for (const e of sorted) {
    out += src.slice(at, e.offset) + e.text;
    at = e.offset;
  }
  return out + src.slice(at);
}
