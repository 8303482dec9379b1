// Codex's own command rules: `prefix_rule(pattern = [...], decision = "...")`
// calls in the `.rules` files of `$CODEX_HOME/rules/` (default `~/.codex/rules/`)
// and of the `.codex/rules/` folders from the working directory up to the home
// folder. Codex checks the command it runs against them: after a rewrite that is
// `rtk …`, which no prefix of the original matches. So a command one of them
// forbids or prompts for is not rewritten, and Codex judges it as typed.
//
// Only what a restriction needs is read: each pattern's tokens (a list entry
// of alternatives expands to one pattern per choice) and its decision
// (`allow` when not given). A file that cannot be read is skipped.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Env } from "../config/hooks.js";
import { home as homeOf } from "./sources.js";
import type { RuleSet } from "./verdict.js";

/** Patterns one rule may expand to; past it, its first ones are kept. */
const MAX_EXPANSION = 256;

export function codexRules(cwd: string, env: Env): RuleSet {
  const deny: string[] = [];
  const ask: string[] = [];
  for (const dir of ruleDirs(cwd, env)) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".rules")).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      let text: string;
      try {
        text = readFileSync(join(dir, name), "utf8");
      } catch {
        continue;
      }
      for (const rule of prefixRules(text)) {
        if (rule.decision === "forbidden") deny.push(...rule.patterns);
        else if (rule.decision === "prompt") ask.push(...rule.patterns);
      }
    }
  }
  return { deny, ask, allow: [] };
}

function ruleDirs(cwd: string, env: Env): string[] {
  const home = homeOf(env);
  const dirs = [join(env["CODEX_HOME"] || join(home, ".codex"), "rules")];
  for (let d = resolve(cwd); ; d = dirname(d)) {
    const project = join(d, ".codex", "rules");
    if (!dirs.includes(project)) dirs.push(project);
    if (d === home || dirname(d) === d) break;
  }
  return dirs;
}

interface PrefixRule {
  patterns: string[];
  decision: string;
}

/** The prefix rules of a `.rules` file (Starlark): each call's pattern and decision. */
export function prefixRules(text: string): PrefixRule[] {
  const rules: PrefixRule[] = [];
  const src = withoutComments(text);
  for (let at = src.indexOf("prefix_rule("); at >= 0; at = src.indexOf("prefix_rule(", at + 1)) {
    const body = balanced(src, at + "prefix_rule".length);
    if (body === null) continue;
    const p = /\bpattern\s*=\s*\[/.exec(body);
    if (!p) continue;
    const list = parseList(body, p.index + p[0].length - 1);
    if (!list) continue;
    const decision = /\bdecision\s*=\s*["'](\w+)["']/.exec(body)?.[1] ?? "allow";
    rules.push({ patterns: expand(list.items), decision });
  }
  return rules;
}

type Item = string | Item[];

/** `# …` to the end of a line goes, outside strings. */
function withoutComments(text: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      out += c;
    } else if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else out += c;
  }
  return out;
}

/** The text inside the parentheses opening at `open`, or null when they do not close. */
function balanced(src: string, open: number): string | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < src.length; i++) {
    const c = src[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return src.slice(open + 1, i);
  }
  return null;
}

/** A list literal of strings and lists, starting at the `[` at `open`. */
function parseList(src: string, open: number): { items: Item[]; end: number } | null {
  const items: Item[] = [];
  let i = open + 1;
  for (;;) {
    while (i < src.length && /[\s,]/.test(src[i]!)) i++;
    const c = src[i];
    if (c === undefined) return null;
    if (c === "]") return { items, end: i + 1 };
    if (c === "[") {
      const inner = parseList(src, i);
      if (!inner) return null;
      items.push(inner.items);
      i = inner.end;
    } else if (c === '"' || c === "'") {
      let s = "";
      let j = i + 1;
      for (; j < src.length && src[j] !== c; j++) s += src[j] === "\\" ? (src[++j] ?? "") : src[j];
      if (j >= src.length) return null;
      items.push(s);
      i = j + 1;
    } else return null;
  }
}

/** Token lists with alternatives → the command prefixes they stand for (`git push`, `git pull`). */
function expand(items: Item[]): string[] {
  let prefixes = [""];
  for (const item of items) {
    const choices = typeof item === "string" ? [item] : item.filter((x): x is string => typeof x === "string");
    if (!choices.length) return [];
    const next: string[] = [];
    for (const p of prefixes) for (const c of choices) if (next.length < MAX_EXPANSION) next.push(p ? `${p} ${c}` : c);
    prefixes = next;
  }
  return prefixes.filter(Boolean);
}
