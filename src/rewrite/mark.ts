// Pass 2: the decision for each classified command. A command is rewritten when
// every check holds; otherwise the first failing check is its reason, a stable id.
import { literalValue } from "../ast/literal.js";
import type * as A from "../ast/nodes.js";
import { toolName } from "../routes/match.js";
import type { RouteRow } from "../routes/types.js";
import { stdoutToFile, type Classified } from "./classify.js";
import type { InputFacts } from "./facts.js";

export type Reason =
  | "parse-error"
  | "disabled"
  | "function-body"
  | "wrapper-option"
  | "dynamic-command"
  | "already-rtk"
  | "privilege"
  | "disabled-prefix"
  | "path-changed"
  | "shadowed"
  | "indirect"
  | "no-route"
  | "excluded"
  | "stdout-to-file"
  | "stdout-captured"
  | "pipe-consumer"
  | "pipe-producer"
  | "background"
  | "unattestable";

export interface Segment {
  node: A.SimpleCommand;
  /** The command word's value after wrappers (null when it expands). */
  command: string | null;
  /** Where `rtk ` goes when the command is rewritten. */
  insertAt: number;
  route: RouteRow | null;
  decision: "rewrite" | "keep";
  reason: Reason | null;
  /** The words from the command word on (null where a word expands). */
  argv: (string | null)[];
  /** How many words the wrappers took. */
  wrapperWords: number;
}

/** One `exclude_commands` entry: words matched as a prefix, or a regular expression. */
export type Exclusion = { words: readonly string[] } | { regex: RegExp };

export interface MarkContext {
  disabled: boolean;
  exclusions: readonly Exclusion[];
}

const PRIVILEGE = new Set(["sudo", "doas", "su", "pkexec", "run0"]);
const INDIRECT = new Set(["nohup", "watch", "xargs", "eval", "parallel", "setsid", "script"]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);

export function markUnsafe(items: readonly Classified[], facts: InputFacts, ctx: MarkContext): Segment[] {
  return items.map((c) => {
    const reason = firstFailure(c, facts, ctx);
    return {
      node: c.node,
      command: c.argv[0] ?? null,
      insertAt: (c.commandWord ?? c.node.words[0]!).span.start,
      route: c.match?.route ?? null,
      decision: reason === null ? "rewrite" : "keep",
      reason,
      argv: c.argv,
      wrapperWords: c.peeled.commandIndex,
    };
  });
}

function firstFailure(c: Classified, facts: InputFacts, ctx: MarkContext): Reason | null {
  if (ctx.disabled) return "disabled";
  if (c.position.inFunction) return "function-body";
  if (c.peeled.unknownOption) return "wrapper-option";
  const cmd = c.argv[0];
  if (cmd === null || cmd === undefined) return "dynamic-command";
  const tool = toolName(cmd);
  if (tool === "rtk") return "already-rtk";
  if (PRIVILEGE.has(tool)) return "privilege";
  const assigned = [...c.node.assigns.map((a) => a.name), ...c.peeled.envAssigns];
  const before = (offsets: readonly number[]) => offsets.some((at) => at <= c.node.span.start);
  if (assigned.includes("RTK_DISABLED") || before(facts.disabledAt)) return "disabled-prefix";
  if (assigned.includes("PATH") || c.peeled.envClears || c.peeled.envUnsets.includes("PATH")) return "path-changed";
  if (before(facts.pathChanges)) return "path-changed";
  if (facts.shadowed.has(cmd)) return "shadowed";
  if (INDIRECT.has(tool) || (SHELLS.has(tool) && c.argv.slice(1).some((w) => w === null || /^-[a-z]*c[a-z]*$/.test(w)))) return "indirect";
  if (!c.match) return "no-route";
  if (excluded(c, ctx.exclusions)) return "excluded";
  if (c.node.redirects.some(stdoutToFile) || c.position.enclosingFileRedirect || before(facts.stdoutAwayAt)) return "stdout-to-file";
  if (c.position.inSubstitution) return "stdout-captured";
  if (c.position.pipes.some((p) => p.role === "consumer")) return "pipe-consumer";
  for (const p of c.position.pipes) {
    if (!c.match.route.pipeSafe || !p.later.every((st) => isDisplaySink(st, facts.shadowed))) return "pipe-producer";
  }
  if (c.position.background) return "background";
  if (c.match.indirect) return "indirect";
  if (facts.unattestable) return "unattestable";
  return null;
}

function excluded(c: Classified, exclusions: readonly Exclusion[]): boolean {
  if (!exclusions.length) return false;
  const forms = [c.argv];
  if (c.match && c.match.toolIndex > 0) forms.push(c.argv.slice(c.match.toolIndex));
  return forms.some((argv) => {
    const words = argv.map((w) => w ?? "");
    const text = words.join(" ");
    return exclusions.some((e) =>
      "regex" in e ? e.regex.test(text) : e.words.length <= words.length && e.words.every((w, i) => (i === 0 ? toolName(words[0]!) === w || words[0] === w : words[i] === w)),
    );
  });
}

const HEAD_TAIL_VALUE = new Set(["-n", "-c", "--lines", "--bytes"]);
const FOLLOW = /^(-[a-zA-Z]*[fF][a-zA-Z]*|--follow(=.*)?|--retry)$/;

/**
 * A pipeline stage that only displays what it reads: head/tail without follow,
 * cat/less/more, all with no file operands and their output reaching the agent.
 */
export function isDisplaySink(st: A.Stmt, shadowed: ReadonlySet<string> = new Set()): boolean {
  const c = st.cmd;
  if (st.negated || c.kind !== "SimpleCommand" || c.redirects.some(stdoutToFile)) return false;
  const words = c.words.map(literalValue);
  if (words.some((w) => w === null)) return false;
  const [cmd, ...args] = words as string[];
  // A `head` the input defines itself is not the display sink.
  if (cmd === undefined || shadowed.has(cmd)) return false;
  switch (cmd) {
    case "head":
    case "tail":
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (cmd === "tail" && FOLLOW.test(a)) return false;
        if (HEAD_TAIL_VALUE.has(a)) i++;
        else if (!/^([-+]\d+|-[nc][+-]?\d+[a-zA-Z]*|--(lines|bytes)=.*|-[qvz]|--(quiet|silent|verbose|zero-terminated))$/.test(a)) return false;
      }
      return true;
    case "cat":
      return args.every((a) => /^-[AbeEnstTuv]+$/.test(a) || a === "-");
    case "less":
    case "more":
      return args.every((a) => a.startsWith("-") || a.startsWith("+"));
    default:
      return false;
  }
}
