// The value a word has when nothing in it expands: quotes removed, escapes
// resolved. Words with expansions, substitutions or patterns have none. The
// walk over a word's parts is shared with readers that take other parts too
// (OpenCode's paths keep `~user` and brace text).
import type * as A from "./nodes.js";

export function literalValue(w: A.Word): string | null {
  return partsText(w.parts, ansiCOnly);
}

/** What `partsText` stops at: the text so far is the word's. */
export const STOP: unique symbol = Symbol("stop");

/** The text of a part that is neither literal nor quotes: its text, null when the word has none, or STOP. */
export type OtherPart = (p: A.WordPart) => string | null | typeof STOP;

/**
 * A word's text from its parts: literal pieces as they are, quotes removed
 * (double-quoted ones read the same way); `other` answers for every other part.
 */
export function partsText(parts: readonly A.WordPart[], other: OtherPart): string | null {
  let out = "";
  for (const p of parts) {
    switch (p.kind) {
      case "Lit":
      case "SingleQuoted":
      case "Escaped":
        out += p.value;
        break;
      case "DoubleQuoted":
      case "LocaleQuoted": {
        const v = partsText(p.parts, other);
        if (v === null) return null;
        out += v;
        break;
      }
      default: {
        const v = other(p);
        if (v === STOP) return out;
        if (v === null) return null;
        out += v;
      }
    }
  }
  return out;
}

/** A literal value has `$'…'` text besides, and nothing that expands. */
const ansiCOnly: OtherPart = (p) => (p.kind === "AnsiCQuoted" ? ansiC(p.raw) : null);

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `$'…'` text with its common escapes; null for the rarer numeric forms. */
function ansiC(raw: string): string | null {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = SIMPLE_ESCAPES[raw[i + 1] ?? ""];
    if (e === undefined) return null;
    out += e;
    i++;
  }
  return out;
}
