// What Codex runs unprompted with no rule naming it, by the permission mode its
// hook event carries (measured on Codex 0.171 by test/hosts-real/codex.real.ts):
//  - `bypassPermissions`: the approval policy `never` (`codex exec`,
//    `-a never`): nothing is asked, every command runs in the sandbox;
//  - `default`: every other policy. `on-request` (the CLI's default) runs a
//    command in the sandbox unprompted unless the model asks to leave it;
//    `untrusted`, which only clients of Codex's app server can still choose,
//    asks before every command, rewritten or not, so a rewrite changes no
//    prompt there.
// Under both Codex stops a forced `rm` by itself (it asks, or under `never`
// refuses), so a command holding one is left as typed. Codex's own rules
// (prefix_rule) are the Codex hook's to check (hosts/codex.ts).
import { basename } from "node:path";
import { literalValue } from "../ast/literal.js";
import type { Part } from "./parts.js";
import type { OwnAllow } from "./verdict.js";

export interface CodexOwnContext {
  mode: string | undefined;
}

export function codexOwn(ctx: CodexOwnContext): OwnAllow | null {
  const why = ctx.mode === "bypassPermissions" ? "Codex's approval policy is never" : ctx.mode === "default" ? "Codex runs it in its sandbox unprompted" : null;
  if (why === null) return null;
  return { part: (part) => (forcedRm(part) ? null : { allow: why }) };
}

/** `rm` with a force option (also behind `sudo`), or an `rm` whose words rtk cannot read: what Codex asks about by itself. */
function forcedRm(part: Part): boolean {
  const words = part.cmd.words.map(literalValue);
  let at = 0;
  while (words[at] !== undefined && words[at] !== null && basename(words[at]!) === "sudo") at++;
  const cmd = words[at];
  if (cmd === undefined) return false;
  if (cmd === null) return true;
  if (basename(cmd) !== "rm") return false;
  for (const w of words.slice(at + 1)) {
    if (w === null) return true;
    if (w === "--") break;
    if (w === "--force" || (w.startsWith("-") && !w.startsWith("--") && w.includes("f"))) return true;
  }
  return false;
}
