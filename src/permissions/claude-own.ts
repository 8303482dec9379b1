// What Claude Code runs unprompted with no rule naming it, by permission mode.
// In `bypassPermissions` mode it runs every command its deny and ask rules do not
// name. In the other modes it runs a read-only set of commands by itself
// (claude-readonly.ts); anything else it asks about (or, in `dontAsk`, refuses).
import type { OwnAllow } from "./verdict.js";

export interface ClaudeOwnContext {
  mode: string | undefined;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export function claudeOwn(ctx: ClaudeOwnContext): OwnAllow | null {
  if (ctx.mode === "bypassPermissions") return () => "bypassPermissions mode";
  return null;
}
