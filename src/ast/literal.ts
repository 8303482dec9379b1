// The value a word has when nothing in it expands: quotes removed, escapes
// resolved. Words with expansions, substitutions or patterns have none.
import type * as A from "./nodes.js";

export function literalValue(w: A.Word): string | null {
  return partsValue(w.parts);
}

function partsValue(parts: readonly A.WordPart[]): string | null {
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
        const v = partsValue(p.parts);
        if (v === null) return null;
        out += v;
        break;
      }
      case "AnsiCQuoted": {
        const v = ansiC(p.raw);
        if (v === null) return null;
        out += v;
        break;
      }
      default:
        return null;
    }
  }
  return out;
}

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
