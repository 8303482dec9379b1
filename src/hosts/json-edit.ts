// Surgical edits of JSON settings files: a parser that keeps every value's span,
// and insertions/removals that touch only the text of our own entry, so the
// rest of the user's file keeps its bytes, its order and its formatting.

export type JNode =
  | { t: "obj"; start: number; end: number; members: JMember[] }
  | { t: "arr"; start: number; end: number; items: JNode[] }
  | { t: "str"; start: number; end: number; value: string }
  | { t: "num" | "bool" | "null"; start: number; end: number; value: unknown };

export interface JMember {
  key: string;
  start: number;
  end: number;
  value: JNode;
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseJson(text: string): JNode {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n\uFEFF".includes(text[i]!)) i++;
  };
  const fail = (msg: string): never => {
    throw new JsonSyntaxError(i, msg);
  };
  /** `"key": value`. */
  const property = (): JMember => {
    ws();
    if (text[i] !== '"') fail("expected a property name");
    const k = value() as Extract<JNode, { t: "str" }>;
    ws();
    if (text[i++] !== ":") fail("expected `:`");
    const v = value();
    return { key: k.value, start: k.start, end: v.end, value: v };
  };
  /** The items of an object or an array up to its `close`, separated by commas; past the `close`. */
  const list = <T>(close: "}" | "]", item: () => T): T[] => {
    const items: T[] = [];
    ws();
    if (text[i] === close) {
      i++;
      return items;
    }
    for (;;) {
      items.push(item());
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return items;
      }
      fail(`expected \`,\` or \`${close}\``);
    }
  };
  const value = (): JNode => {
    ws();
    const c = text[i];
    const start = i;
    if (c === "{") {
      i++;
      const members = list("}", property);
      return { t: "obj", start, end: i, members };
    }
    if (c === "[") {
      i++;
      const items = list("]", value);
      return { t: "arr", start, end: i, items };
    }
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      if (i >= text.length) fail("unterminated string");
      i++;
      return { t: "str", start, end: i, value: JSON.parse(text.slice(start, i)) as string };
    }
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) fail("unexpected character");
    i += m![0].length;
    const v = JSON.parse(m![0]) as unknown;
    return { t: v === null ? "null" : typeof v === "boolean" ? "bool" : "num", start, end: i, value: v };
  };
  const root = value();
  ws();
  if (i < text.length) fail("unexpected text after the end");
  return root;
}

/** A parsed value as plain data. */
export function plain(n: JNode): unknown {
  switch (n.t) {
    case "obj":
      return Object.fromEntries(n.members.map((m) => [m.key, plain(m.value)]));
    case "arr":
      return n.items.map(plain);
    default:
      return n.value;
  }
}

export function member(n: JNode | undefined, key: string): JNode | undefined {
  return n?.t === "obj" ? n.members.find((m) => m.key === key)?.value : undefined;
}

interface Span {
  start: number;
  end: number;
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export function applyEdit(text: string, e: Edit): string {
  return text.slice(0, e.start) + e.text + text.slice(e.end);
}

/** The file's indentation unit (two spaces when it cannot tell). */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)["{[\]}]/.exec(text);
  return m ? m[1]! : "  ";
}

/** The indentation of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function render(value: unknown, unit: string, indent: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, "\n" + indent);
}

/** Append `value` to the array node `arr`. */
export function appendItem(text: string, arr: Extract<JNode, { t: "arr" }>, value: unknown): Edit {
  const unit = indentUnit(text);
  const outer = lineIndent(text, arr.start);
  const inner = outer + unit;
  const last = arr.items[arr.items.length - 1];
  if (!last) return { start: arr.start, end: arr.end, text: `[\n${inner}${render(value, unit, inner)}\n${outer}]` };
  return { start: last.end, end: last.end, text: `,\n${lineIndent(text, last.start)}${render(value, unit, lineIndent(text, last.start))}` };
}

/** Add `"key": value` as the last member of the object node `o`. */
export function appendMember(text: string, o: Extract<JNode, { t: "obj" }>, key: string, value: unknown): Edit {
  const unit = indentUnit(text);
  const outer = lineIndent(text, o.start);
  const last = o.members[o.members.length - 1];
  const inner = last ? lineIndent(text, last.start) : outer + unit;
  const entry = `${JSON.stringify(key)}: ${render(value, unit, inner)}`;
  if (!last) return { start: o.start, end: o.end, text: `{\n${inner}${entry}\n${outer}}` };
  return { start: last.end, end: last.end, text: `,\n${inner}${entry}` };
}

/** Remove item `i` of `arr` with its separator; an array left empty becomes `[]`. */
export function removeItem(arr: Extract<JNode, { t: "arr" }>, i: number): Edit {
  return removeFrom(arr, arr.items, i, "[]");
}

/** Remove member `i` of `o` with its separator; an object left empty becomes `{}`. */
export function removeMember(o: Extract<JNode, { t: "obj" }>, i: number): Edit {
  return removeFrom(o, o.members, i, "{}");
}

/** Remove entry `i` of a container's `entries` with the separator before it (after it, for the first); `empty` when it was the only one. */
function removeFrom(container: Span, entries: readonly Span[], i: number, empty: string): Edit {
  if (entries.length === 1) return { start: container.start, end: container.end, text: empty };
  if (i > 0) return { start: entries[i - 1]!.end, end: entries[i]!.end, text: "" };
  return { start: entries[0]!.start, end: entries[1]!.start, text: "" };
}
