// A host adapter only translates: decode the host's event, encode rtk's outcome
// in the host's own shape. It holds no command knowledge and no filtering.
import type { Env } from "../config/hooks.js";
import type { RuleFamily } from "../permissions/sources.js";

export type Outcome =
  /** `ask`: a rule of the host asks for this command; the answer must make the host ask (or say nothing), never leave it to the host's rules, which cannot see `rtk …` as the command. */
  | { kind: "rewrite"; command: string; allow: boolean; ask: boolean }
  /** The host's own deny runs on the original command: say nothing. */
  | { kind: "defer-deny" }
  /** A deny the host cannot see itself (the agent typed `rtk`): answer with the host's deny. */
  | { kind: "active-deny"; reason: string }
  | { kind: "pass" };

export interface HookAnswer {
  stdout: string;
  stderr?: string;
  exitCode: number;
}

export interface Decoded<C> {
  command: string;
  /** The folder whose project rules and config apply. */
  cwd?: string;
  /** What the encoder needs from the event (original tool input, input shape, …). */
  ctx: C;
}

export interface HookAdapter<C = unknown> {
  /** The name used in `rtk hook <name>` and `rtk init --agent <name>`. */
  name: string;
  title: string;
  rules: RuleFamily;
  /** The shell command of the event, or null when the event is not one (another tool, another event). */
  /** `env`: the hook's environment (where the host's own files are); `warn`: one line on stderr. */
  decode(event: unknown, env: Env, warn: (msg: string) => void): Decoded<C> | null;
  encode(outcome: Outcome, ctx: C): HookAnswer;
  /** The answer that lets the original command run unchanged: for malformed input, errors, other tools. */
  passThrough: HookAnswer;
}

export const SILENT: HookAnswer = { stdout: "", exitCode: 0 };

export function obj(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export const json = (v: unknown): HookAnswer => ({ stdout: JSON.stringify(v), exitCode: 0 });
