// Which line of a TOML text defines each key, for messages that point at it.
// TOML parsers give values, not positions, so the text is scanned: table headers
// (`[a.b]`, `[[filters]]`, counted per array so `filters.1` is the second one)
// and `key = …` lines outside multi-line values. A key not found (inside an
// inline table, say) is reported at the line of the nearest key that contains it.
import type { KeyPath } from "./schema.js";

export type KeyLines = ReadonlyMap<string, number>;

const BARE = "[A-Za-z0-9_-]+";
const BASIC = '"(?:[^"\\\\]|\\\\.)*"';
const LITERAL = "'[^']*'";
const PART = `(?:${BARE}|${BASIC}|${LITERAL})`;
const DOTTED = `${PART}(?:\\s*\\.\\s*${PART})*`;
const ARRAY_HEADER = new RegExp(`^\\s*\\[\\[\\s*(${DOTTED})\\s*\\]\\]`);
const TABLE_HEADER = new RegExp(`^\\s*\\[\\s*(${DOTTED})\\s*\\]`);
const KEY = new RegExp(`^\\s*(${DOTTED})\\s*=`);
const PART_G = new RegExp(PART, "g");

export function keyLines(text: string): KeyLines {
  const map = new Map<string, number>();
  /** The index of the current element of each array of tables, by resolved path. */
  const arrays = new Map<string, number>();
  let table: string[] = [];
  let depth = 0;
  let multiline: '"""' | "'''" | null = null;
  const lines = text.split("\n");
  const set = (path: readonly string[], line: number) => {
    const k = path.join(".");
    if (!map.has(k)) map.set(k, line);
  };
  /** The path of a header's keys, each array of tables on the way standing for its current element. */
  const resolve = (parts: string[]): string[] => {
    const out: string[] = [];
    for (const p of parts) {
      out.push(p);
      const i = arrays.get(out.join("."));
      if (i !== undefined) out.push(String(i));
    }
    return out;
  };
  for (let n = 0; n < lines.length; n++) {
    const lineNo = n + 1;
    let rest = lines[n]!;
    if (multiline) {
      const end = rest.indexOf(multiline);
      if (end < 0) continue;
      rest = rest.slice(end + 3);
      multiline = null;
    } else if (depth === 0) {
      let m = ARRAY_HEADER.exec(rest);
      if (m) {
        const parts = splitKey(m[1]!);
        const base = [...resolve(parts.slice(0, -1)), parts[parts.length - 1]!];
        const index = (arrays.get(base.join(".")) ?? -1) + 1;
        arrays.set(base.join("."), index);
        set(base, lineNo);
        table = [...base, String(index)];
        set(table, lineNo);
        continue;
      }
      m = TABLE_HEADER.exec(rest);
      if (m) {
        table = resolve(splitKey(m[1]!));
        set(table, lineNo);
        continue;
      }
      m = KEY.exec(rest);
      if (m) {
        const parts = splitKey(m[1]!);
        for (let i = 1; i <= parts.length; i++) set([...table, ...parts.slice(0, i)], lineNo);
        rest = rest.slice(m[0].length);
      }
    }
    ({ depth, multiline } = scanValue(rest, depth));
  }
  return map;
}

/** The key lines of a text, scanned the first time one is asked for (a load without problems never asks). */
export class LineFinder {
  private map: KeyLines | null = null;

  constructor(private readonly text: string) {}

  at(path: KeyPath): number {
    this.map ??= keyLines(this.text);
    return lineOf(this.map, path);
  }
}

/** The line of a key, or of the nearest key containing it; 1 when none is found. */
export function lineOf(lines: KeyLines, path: KeyPath): number {
  for (let i = path.length; i > 0; i--) {
    const n = lines.get(path.slice(0, i).join("."));
    if (n !== undefined) return n;
  }
  return 1;
}

function splitKey(dotted: string): string[] {
  return [...dotted.matchAll(PART_G)].map(([p]) => {
    if (p.startsWith('"')) {
      try {
        return JSON.parse(p) as string;
      } catch {
        return p.slice(1, -1);
      }
    }
    return p.startsWith("'") ? p.slice(1, -1) : p;
  });
}

/** Follows brackets and strings through the value part of a line. */
function scanValue(s: string, depth: number): { depth: number; multiline: '"""' | "'''" | null } {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "#") break;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      if (s.startsWith(triple, i)) {
        const end = s.indexOf(triple, i + 3);
        if (end < 0) return { depth, multiline: triple as '"""' | "'''" };
        i = end + 2;
        continue;
      }
      for (i++; i < s.length && s[i] !== c; i++) if (c === '"' && s[i] === "\\") i++;
      continue;
    }
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
  }
  return { depth, multiline: null };
}
