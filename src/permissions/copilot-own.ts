// What Copilot CLI runs unprompted with no rule naming it, where rtk can tell
// (measured on Copilot CLI 1.0.102 by test/hosts-real/copilot.real.ts): with
// every permission (`--yolo`, `--allow-all`) it runs every command its deny
// rules do not name (which verdict.ts applies to both forms). Its own list of
// read-only commands, which it runs unprompted in its default mode, is not
// modelled: there a rewrite needs an allow rule, and without one the command
// runs as typed.
import type { Env } from "../config/hooks.js";
import { copilotCommandLine } from "./sources.js";
import type { OwnAllow } from "./verdict.js";

const ALL: OwnAllow = { part: () => ({ allow: "Copilot CLI runs with every permission (--yolo)" }) };

export interface CopilotOwnContext {
  /** The hook's environment (where `RTK_PROC_ROOT` may move the process table rtk reads Copilot's command line from). */
  env: Env;
}

export function copilotOwn(ctx: CopilotOwnContext): OwnAllow | null {
  return copilotCommandLine(ctx.env)?.allowAll ? ALL : null;
}
