// What Crush decides about a bash call by itself (its source, internal/agent/
// tools/bash.go and safe.go, from v0.63, where its hooks came, to 0.96): it
// runs a command unprompted where the whole text starts with one of a fixed
// list of read-only commands (`git status`, `ls`, `echo`, …; compared in
// lower case, the next character a blank or `-` or nothing) and holds none of
// `;`, `|`, `&&`, `$(` and a backquote; it asks about every other command,
// unless the session approves everything: `crush run` (headless, every request
// auto-approved) or `--yolo`. A hook's `decision: "allow"` pre-approves the
// one call it answers, which the rewrite needs: `rtk git status` is not on the
// list. `permissions.allowed_tools` (which may also name bash) is not read:
// Crush merges it from files rtk cannot all read (a `crushrc` is a shell
// script), and an allow rtk gives must never be one Crush would not.
import { basename } from "node:path";
import type { Env } from "../config/hooks.js";
import type { Part } from "./parts.js";
import { ancestorCommandLine } from "./sources.js";
import type { OwnAllow } from "./verdict.js";

/** Crush's read-only commands (safe.go; its Windows additions left out). */
const SAFE = [
  "cal",
  "date",
  "df",
  "du",
  "echo",
  "env",
  "free",
  "groups",
  "hostname",
  "id",
  "kill",
  "killall",
  "ls",
  "nice",
  "nohup",
  "printenv",
  "ps",
  "pwd",
  "set",
  "time",
  "timeout",
  "top",
  "type",
  "uname",
  "unset",
  "uptime",
  "whatis",
  "whereis",
  "which",
  "whoami",
  "git blame",
  "git branch",
  "git config --get",
  "git config --list",
  "git describe",
  "git diff",
  "git grep",
  "git log",
  "git ls-files",
  "git ls-remote",
  "git remote",
  "git rev-parse",
  "git shortlog",
  "git show",
  "git status",
  "git tag",
];

const CHAINING = [";", "|", "&&", "$(", "`"];

/** Crush's own test of a command's text: on its read-only list, and nothing chained to it. */
export function crushSafe(text: string): boolean {
  if (CHAINING.some((c) => text.includes(c))) return false;
  const lower = text.toLowerCase();
  return SAFE.some((s) => lower.startsWith(s) && (lower.length === s.length || lower[s.length] === " " || lower[s.length] === "-"));
}

export interface CrushOwnContext {
  /** The hook's environment (where `RTK_PROC_ROOT` may move the process table rtk reads Crush's command line from). */
  env: Env;
}

const ALL: OwnAllow = { part: () => ({ allow: "Crush approves every request in this session (crush run, --yolo)" }) };

const LISTED: OwnAllow = {
  whole: (_script, src) => (crushSafe(src) ? null : "Crush asks about a command that is not on its read-only list, or has `;`, `|`, `&&`, `$(` or a backquote"),
  // Each part on its own too (a second line is no chaining to Crush): narrower than Crush, never wider.
  part: (p: Part) => (crushSafe(p.text) ? { allow: "Crush runs it unprompted (its read-only list)" } : null),
};

export function crushOwn(ctx: CrushOwnContext): OwnAllow {
  // Crush is a binary (`crush …`); a script standing in for it runs as `<interpreter> …/crush …`.
  const at = (argv: readonly string[]) => argv.slice(0, 2).findIndex((a) => basename(a) === "crush");
  const cli = ancestorCommandLine(ctx.env, (argv) => at(argv) >= 0);
  const args = cli ? cli.argv.slice(at(cli.argv) + 1) : [];
  return args.includes("run") || args.includes("--yolo") || args.includes("-y") ? ALL : LISTED;
}
