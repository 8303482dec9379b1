// Codex's `.rules` files are Starlark programs. rtk reads the part of the
// language these files are written in — top-level calls of Codex's builtins
// (`prefix_rule`, `host_executable`, `network_rule`) whose arguments are string
// literals and lists — and refuses everything else (variables, operators,
// f-strings, other calls): a file rtk cannot evaluate exactly is not half-read.
// Its checks follow Codex's own: a bad decision, an empty pattern or a `match` /
// `not_match` example the rule contradicts makes Codex reject the file.

export type CodexDecision = "allow" | "prompt" | "forbidden";

/** One position of a pattern: a token, or a list of alternative tokens. */
export type PatternToken = string | readonly string[];

export interface CodexRule {
  pattern: readonly PatternToken[];
  decision: CodexDecision;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const DECISIONS: ReadonlySet<string> = new Set(["allow", "prompt", "forbidden"]);

export function isDecision(s: string): s is CodexDecision {
  return DECISIONS.has(s);
}

class RulesError extends Error {}

const fail = (msg: string): never => {
  throw new RulesError(msg);
};

/** The rules of a `.rules` file, or why rtk cannot read it as Codex would. */
export function parseRulesFile(text: string): Parsed<CodexRule[]> {
  try {
    return { ok: true, value: new Parser(tokenize(text)).file() };
  } catch (e) {
    if (e instanceof RulesError) return { ok: false, error: e.message };
    throw e;
  }
}

// ---- tokens ---------------------------------------------------------------------------

type Tok =
  | { kind: "name"; text: string; line: number }
  | { kind: "string"; text: string; line: number }
  | { kind: "punct"; text: string; line: number }
  | { kind: "newline"; text: "\n"; line: number }
  | { kind: "eof"; text: ""; line: number };

const NAME = /\w+/y;
const PUNCT = new Set(["(", ")", "[", "]", ",", "=", ";"]);
const OPEN: Record<string, string> = { "(": ")", "[": "]" };

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  const closers: string[] = [];
  let line = 1;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "\n") {
      // Inside brackets a line break is only a blank.
      if (closers.length === 0 && toks.length && toks[toks.length - 1]!.kind !== "newline") toks.push({ kind: "newline", text: "\n", line });
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r" || c === "\f") i++;
    else if (c === "\\" && (src[i + 1] === "\n" || (src[i + 1] === "\r" && src[i + 2] === "\n"))) {
      i += src[i + 1] === "\n" ? 2 : 3;
      line++;
    } else if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (/[A-Za-z_]/.test(c)) {
      NAME.lastIndex = i;
      NAME.exec(src);
      const j = NAME.lastIndex;
      const word = src.slice(i, j);
      if (src[j] === '"' || src[j] === "'") {
        if (word !== "r" && word !== "R") fail(`line ${line}: ${word}-prefixed strings are not read`);
        const s = readString(src, j, true, line);
        toks.push({ kind: "string", text: s.value, line });
        line += s.lines;
        i = s.end;
      } else {
        toks.push({ kind: "name", text: word, line });
        i = j;
      }
    } else if (c === '"' || c === "'") {
      const s = readString(src, i, false, line);
      toks.push({ kind: "string", text: s.value, line });
      line += s.lines;
      i = s.end;
    } else if (PUNCT.has(c)) {
      if (OPEN[c]) closers.push(OPEN[c]!);
      else if (c === ")" || c === "]") {
        if (closers.pop() !== c) fail(`line ${line}: unbalanced \`${c}\``);
      }
      toks.push({ kind: "punct", text: c, line });
      i++;
    } else fail(`line ${line}: unexpected \`${c}\``);
  }
  if (closers.length) fail(`line ${line}: \`${closers[closers.length - 1]}\` missing at the end of the file`);
  toks.push({ kind: "eof", text: "", line });
  return toks;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"' };

/** A string literal at `start` (its quote): its value, where it ends, how many line breaks it holds. */
function readString(src: string, start: number, raw: boolean, line: number): { value: string; end: number; lines: number } {
  const q = src[start]!;
  const triple = src.startsWith(q.repeat(3), start);
  const close = triple ? q.repeat(3) : q;
  let i = start + close.length;
  let value = "";
  let lines = 0;
  for (;;) {
    if (i >= src.length) fail(`line ${line}: a string is not closed`);
    if (src.startsWith(close, i)) return { value, end: i + close.length, lines };
    const c = src[i]!;
    if (c === "\n") {
      if (!triple) fail(`line ${line}: a string is not closed on its line`);
      lines++;
      value += c;
      i++;
    } else if (c === "\\") {
      const n = src[i + 1];
      if (n === undefined) fail(`line ${line}: a string is not closed`);
      if (raw) {
        // A raw string keeps the backslash; it still cannot end the string.
        value += c + n;
        if (n === "\n") lines++;
        i += 2;
      } else if (n === "\n" || (n === "\r" && src[i + 2] === "\n")) {
        lines++;
        i += n === "\n" ? 2 : 3;
      } else if (Object.hasOwn(SIMPLE_ESCAPES, n!)) {
        value += SIMPLE_ESCAPES[n!];
        i += 2;
      } else if (/[0-7]/.test(n!)) {
        const m = /^[0-7]{1,3}/.exec(src.slice(i + 1))![0];
        value += String.fromCodePoint(parseInt(m, 8));
        i += 1 + m.length;
      } else if (n === "x" || n === "u" || n === "U") {
        const len = n === "x" ? 2 : n === "u" ? 4 : 8;
        const hex = src.slice(i + 2, i + 2 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail(`line ${line}: bad \\${n} escape`);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(`line ${line}: bad \\${n} escape`);
        value += String.fromCodePoint(cp);
        i += 2 + len;
      } else fail(`line ${line}: unknown escape \\${n}`);
    } else {
      // The run of plain characters up to the next quote, backslash or line break.
      PLAIN.lastIndex = i;
      PLAIN.exec(src);
      value += src.slice(i, Math.max(PLAIN.lastIndex, i + 1));
      i = Math.max(PLAIN.lastIndex, i + 1);
    }
  }
}

const PLAIN = /[^"'\\\n]*/y;

// ---- calls ------------------------------------------------------------------------------

type Value = string | Value[];

interface Call {
  name: string;
  line: number;
  positional: Value[];
  named: Map<string, Value>;
}

/** Each builtin's parameters, in positional order; the first `required` must be given. */
const BUILTINS: Record<string, { params: readonly string[]; required: number }> = {
  prefix_rule: { params: ["pattern", "decision", "match", "not_match", "justification"], required: 1 },
  host_executable: { params: ["name", "paths"], required: 2 },
  network_rule: { params: ["host", "protocol", "decision", "justification"], required: 3 },
};

class Parser {
  private at = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.at]!;
  }
  private next(): Tok {
    return this.toks[this.at++]!;
  }
  private expect(text: string): Tok {
    const t = this.next();
    if (t.text !== text || t.kind === "string") fail(`line ${t.line}: expected \`${text}\`, found ${describe(t)}`);
    return t;
  }

  file(): CodexRule[] {
    const rules: CodexRule[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === "eof") return rules;
      if (t.kind === "newline" || t.text === ";") {
        this.next();
        continue;
      }
      const call = this.call();
      const end = this.peek();
      if (end.kind !== "eof" && end.kind !== "newline" && end.text !== ";") fail(`line ${end.line}: unexpected ${describe(end)} after \`${call.name}(…)\``);
      const rule = evaluate(call);
      if (rule) rules.push(rule);
    }
  }

  private call(): Call {
    const head = this.next();
    if (head.kind !== "name") fail(`line ${head.line}: only calls of prefix_rule, host_executable and network_rule are read (found ${describe(head)})`);
    if (!Object.hasOwn(BUILTINS, head.text)) {
      fail(`line ${head.line}: \`${head.text}\` is not read (only calls of prefix_rule, host_executable and network_rule are)`);
    }
    this.expect("(");
    const call: Call = { name: head.text, line: head.line, positional: [], named: new Map() };
    while (this.peek().text !== ")" || this.peek().kind === "string") {
      const t = this.peek();
      if (t.kind === "name" && this.toks[this.at + 1]?.text === "=" && this.toks[this.at + 1]?.kind === "punct") {
        this.at += 2;
        if (call.named.has(t.text)) fail(`line ${t.line}: \`${t.text}\` given twice`);
        call.named.set(t.text, this.value());
      } else {
        if (call.named.size) fail(`line ${t.line}: a positional argument after a named one`);
        call.positional.push(this.value());
      }
      if (this.peek().text === "," && this.peek().kind === "punct") this.next();
      else if (this.peek().text !== ")") fail(`line ${this.peek().line}: expected \`,\` or \`)\`, found ${describe(this.peek())}`);
    }
    this.expect(")");
    return call;
  }

  private value(): Value {
    const t = this.next();
    if (t.kind === "string") {
      // Starlark has no implicit concatenation of adjacent strings.
      if (this.peek().kind === "string") fail(`line ${t.line}: two strings in a row`);
      return t.text;
    }
    if (t.kind === "punct" && t.text === "[") {
      const items: Value[] = [];
      while (!(this.peek().kind === "punct" && this.peek().text === "]")) {
        items.push(this.value());
        if (this.peek().kind === "punct" && this.peek().text === ",") this.next();
        else if (!(this.peek().kind === "punct" && this.peek().text === "]")) fail(`line ${this.peek().line}: expected \`,\` or \`]\`, found ${describe(this.peek())}`);
      }
      this.next();
      return items;
    }
    return fail(`line ${t.line}: only strings and lists are read (found ${describe(t)})`);
  }
}

function describe(t: Tok): string {
  switch (t.kind) {
    case "eof":
      return "the end of the file";
    case "newline":
      return "a line break";
    case "string":
      return "a string";
    default:
      return `\`${t.text}\``;
  }
}

/** Binds a call's arguments to its builtin's parameters, with Codex's checks; a `prefix_rule` gives its rule. */
function evaluate(call: Call): CodexRule | null {
  const spec = BUILTINS[call.name]!;
  const where = `line ${call.line}: ${call.name}`;
  if (call.positional.length > spec.params.length) fail(`${where} takes at most ${spec.params.length} arguments`);
  const args = new Map<string, Value>();
  call.positional.forEach((v, k) => args.set(spec.params[k]!, v));
  for (const [name, v] of call.named) {
    if (!spec.params.includes(name)) fail(`${where} has no parameter \`${name}\``);
    if (args.has(name)) fail(`${where}: \`${name}\` given twice`);
    args.set(name, v);
  }
  for (const p of spec.params.slice(0, spec.required)) if (!args.has(p)) fail(`${where} needs \`${p}\``);
  const str = (name: string): string | undefined => {
    const v = args.get(name);
    if (v !== undefined && typeof v !== "string") fail(`${where}: \`${name}\` must be a string`);
    return v as string | undefined;
  };
  const strList = (name: string): string[] => {
    const v = args.get(name);
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) fail(`${where}: \`${name}\` must be a list of strings`);
    return v as string[];
  };
  const justification = str("justification");
  if (justification !== undefined && !justification.trim()) fail(`${where}: \`justification\` cannot be empty`);
  if (call.name === "host_executable") {
    if (!str("name")) fail(`${where}: \`name\` cannot be empty`);
    strList("paths");
    return null;
  }
  if (call.name === "network_rule") {
    str("host");
    str("protocol");
    str("decision");
    return null;
  }
  const decision = str("decision") ?? "allow";
  if (!isDecision(decision)) fail(`${where}: unknown decision \`${decision}\``);
  const raw = args.get("pattern")!;
  if (!Array.isArray(raw) || raw.length === 0) fail(`${where}: \`pattern\` must be a non-empty list`);
  const pattern = (raw as Value[]).map((item): PatternToken => {
    if (typeof item === "string") return item;
    if (item.length === 0 || item.some((x) => typeof x !== "string")) fail(`${where}: a list in \`pattern\` must hold strings, at least one`);
    return item.length === 1 ? (item[0] as string) : (item as string[]);
  });
  const rule: CodexRule = { pattern, decision: decision as CodexDecision };
  for (const ex of examples(args.get("match"), `${where}: \`match\``)) {
    if (!matchesExample(rule, ex, true)) fail(`${where}: its \`match\` example \`${ex.join(" ")}\` does not match the pattern`);
  }
  for (const ex of examples(args.get("not_match"), `${where}: \`not_match\``)) {
    if (matchesExample(rule, ex, false)) fail(`${where}: its \`not_match\` example \`${ex.join(" ")}\` matches the pattern`);
  }
  return rule;
}

/** `match` / `not_match`: a list of examples, each a command string (split like a shell) or a list of tokens. */
function examples(v: Value | undefined, where: string): string[][] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return fail(`${where} must be a list`);
  return v.map((ex) => {
    const tokens = typeof ex === "string" ? shellSplit(ex) : ex.every((x) => typeof x === "string") ? (ex as string[]) : null;
    if (!tokens) return fail(`${where}: an example must be a string or a list of strings`);
    if (tokens.length === 0) return fail(`${where}: an example cannot be empty`);
    return tokens;
  });
}

/**
 * Whether the rule's pattern is a prefix of the example's tokens. A `match`
 * example may also name the program by an absolute path (Codex resolves it to
 * its basename); checking a `not_match` example without that keeps rtk from
 * refusing a file Codex accepts.
 */
function matchesExample(rule: CodexRule, ex: readonly string[], basename: boolean): boolean {
  if (ex.length < rule.pattern.length) return false;
  return rule.pattern.every((tok, k) => {
    const alts = typeof tok === "string" ? [tok] : tok;
    const word = ex[k]!;
    if (alts.includes(word)) return true;
    return k === 0 && basename && word.startsWith("/") && alts.includes(word.slice(word.lastIndexOf("/") + 1));
  });
}

/** Splits an example like a POSIX shell would, without expansions; null when a quote is not closed. */
export function shellSplit(s: string): string[] | null {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return null;
      cur += s.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < s.length && s[j] !== '"'; j++) {
        if (s[j] === "\\" && j + 1 < s.length && '\\"$`\n'.includes(s[j + 1]!)) j++;
        cur += s[j];
      }
      if (j >= s.length) return null;
      i = j;
      inWord = true;
    } else if (c === "\\") {
      if (i + 1 < s.length) cur += s[++i];
      inWord = true;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}
