// What OpenCode decides about a command besides its bash rules (which
// verdict.ts applies in its order), where it judges the rewritten text (the
// plugin's `args` mode): it asks before a command that takes paths (`cat`,
// `rm`, `cd`, …) reaches outside the project, whatever the rules say (its
// `external_directory` check, which an `rtk` in front of the command would
// hide). And rtk must read the text as OpenCode does: a shape whose text rtk
// does not reproduce (`time`, a here-document, a coprocess), or rules rtk
// cannot read for certain, keep the command as typed.
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { literalValue, partsText, STOP, type OtherPart } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { walk } from "../ast/walk.js";
import { PATH_COMMANDS, type OpencodeRules } from "./opencode-match.js";
import { home, isDir } from "./sources.js";
import type { OwnAllow, RuleSet } from "./verdict.js";

export interface OpencodeOwnContext {
  mode: string | undefined;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export function opencodeOwn(ctx: OpencodeOwnContext, rules: RuleSet): OwnAllow | null {
  const o = rules.opencode;
  if (!o) return null;
  const unread = o.unread;
  if (unread) return { whole: () => unread, part: () => null };
  const userHome = home(ctx.env);
  return {
    whole: (script) => unreadShape(script),
    part(p) {
      const outside = outsidePaths(p.cmd, ctx.cwd, o, userHome);
      return outside.length ? { veto: `OpenCode asks before it reaches outside the project (${outside.join(", ")})` } : null;
    },
  };
}

/** A shape whose text OpenCode reads otherwise than rtk's parts: `time` (part of the command's text), a here-document (its body too), a coprocess. */
function unreadShape(script: A.Script): string | null {
  let why: string | null = null;
  walk(script, (n) => {
    if (why) return;
    if (n.kind === "TimeClause") why = "OpenCode reads `time` as part of the command's text";
    else if (n.kind === "Heredoc") why = "OpenCode reads a here-document's body as part of the command's text";
    else if (n.kind === "Coproc") why = "a coprocess";
  });
  return why;
}

/**
 * The folders outside the project that a path command's arguments name, as
 * OpenCode resolves them (`~` expanded, cut at the first glob character, a word
 * that expands skipped): OpenCode asks before running it. Quotes are read as
 * bash reads them, which names a folder outside at least as often as
 * OpenCode's reading of the text does.
 */
function outsidePaths(cmd: A.SimpleCommand, cwd: string, rules: OpencodeRules, userHome: string): string[] {
  const name = cmd.words[0] ? literalValue(cmd.words[0]) : null;
  if (!name || !PATH_COMMANDS.has(name)) return [];
  const inside = (p: string) => contains(rules.directory, p) || (rules.worktree !== null && contains(rules.worktree, p));
  const out: string[] = [];
  for (const w of cmd.words.slice(1)) {
    let path = partsText(w.parts, pathPart);
    if (path === null || path.startsWith("-") || (name === "chmod" && path.startsWith("+"))) continue;
    if (path === "~") path = userHome;
    else if (path.startsWith("~/")) path = join(userHome, path.slice(2));
    if (!path) continue;
    const full = resolve(cwd, path);
    if (!inside(full)) out.push(isDir(full) ? full : dirname(full));
  }
  return out;
}

/**
 * A path word's parts as OpenCode reads them: brace text and `~user` as
 * written, the path ending at its first glob piece; a part that expands leaves
 * the word out (OpenCode skips a word with `$` or a backquote).
 */
const pathPart: OtherPart = (p) => (p.kind === "BraceExp" ? p.value : p.kind === "Tilde" ? "~" + p.user : p.kind === "Glob" ? STOP : null);

function contains(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
