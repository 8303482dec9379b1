// The route registry is data: one table per tool family. A route says that a tool
// invocation has a compact filter. The rewrite and the runtime read the same rows.

/** One word of a subcommand pattern: a word, or any of several. */
export type SubWord = string | readonly string[];

export interface RouteRow {
  /** Stable id, shown by `rtk explain` and recorded by `rtk gain`. */
  id: string;
  /** The tool: a command name (matched by basename) or, for `python -m`, a module. */
  tool: string;
  /** The subcommand words after the tool's global options, e.g. ["status"], [["install", "i", "ci"]]. */
  sub?: readonly SubWord[];
  /** The filter that implements this route; a row is active only when that filter exists. */
  filter: string;
  /** Estimated savings in percent (shown by explain and discover). */
  savings: number;
  /** The compact output is a summary that stays useful when cut by `head`/`tail`. */
  pipeSafe: boolean;
  /**
   * An option-like subcommand (`node --test`) counts only before the tool's
   * first operand: after a script it is the script's own argument.
   */
  subBeforeOperands?: boolean;
  /** Arguments that make the output something the filter must not touch (the command is then `indirect`). */
  indirectIf?: readonly string[];
}

/** How to skip a tool's own options that may stand before its subcommand. */
export interface ToolSpec {
  /** Options that take the next word as their value (unless written `--opt=value`). */
  valueOptions?: readonly string[];
  /** Options that take no value. */
  flagOptions?: readonly string[];
  /** Options whose value is only ever joined to them (`--exec-path=/p`); alone they do something else. */
  joinedValueOptions?: readonly string[];
}

export interface RouteFamily {
  tools: Readonly<Record<string, ToolSpec>>;
  routes: readonly RouteRow[];
}
